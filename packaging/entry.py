"""Entry point of a packaged till: the same ``cashier`` command as from source."""

from cashier.cli import main

raise SystemExit(main())
