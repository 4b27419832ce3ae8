"""The Charge API simulator of the sandbox (``app.gateway_routes`` is mounted by ``HostSandbox``)."""
