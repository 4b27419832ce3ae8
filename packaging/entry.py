"""Entry point of a packaged till: the same ``cashier`` program as from source (``ui.launch``)."""

from ui.launch import main

raise SystemExit(main())
