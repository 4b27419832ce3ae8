"""The Charge API simulator of the sandbox (``app.charge_api_routes`` is mounted by ``HostSandbox``)."""
