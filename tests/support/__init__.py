"""What the tests share: helpers, drivers, servers and checks that test modules and conftest files
import. No test lives here, and nothing here imports a test module or a conftest file (ruff's
banned-api in pyproject.toml and tests/core/test_test_imports.py hold both rules)."""
