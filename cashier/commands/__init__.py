"""The ``cashier`` sub-commands, one module per group, each with ``register(subparsers)``.

Every start of the program (the window's too) imports all of them to build the parser, so their
handlers import the flows, the runtime, httpx and the journal inside themselves: building the
parser loads none of those (httpx alone measured ~390 ms, keyring ~200 ms, the sandbox ~630 ms;
``tests/core/test_lazy_imports.py`` fails if one comes back to the top of a module).
"""
