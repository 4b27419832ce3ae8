"""``cashier sandbox serve``: the sandbox host over a real socket (uvicorn).

Prints ``sandbox listening on http://HOST:PORT`` once the socket accepts connections (port 0
picks a free port and prints the real one), and stops cleanly, exit code 0, on SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import Iterator
from typing import Any

from cashier.commands import arguments

OPTIONS = ("HD", "LG", "DCP", "DCC")
HMAC_SECRET_ENV = "CASHIER_SANDBOX_HMAC_SECRET"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("sandbox", help="the embedded Host API sandbox",
                                   description="Run the sandbox host (training mode's embedded host).")
    sub = parser.add_subparsers(dest="sandbox_command")
    serve = sub.add_parser("serve", help="serve the Host API under /api/rest/v1 on a socket")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=arguments.number(0, 65535), default=8787,
                       help="port; 0 picks a free one (default 8787)")
    serve.add_argument("--option", default="LG", type=str.upper, choices=OPTIONS,
                       help="processing option to simulate (default LG)")
    serve.add_argument("--access-token",
                       help="the only AccessToken accepted besides exchanged ones; without it any "
                            "non-empty token is accepted (training)")
    serve.add_argument("--client-guid", help="with --auth-token: the only pair /credentials/accesstoken "
                                             "exchanges")
    serve.add_argument("--auth-token", help="see --client-guid")
    serve.add_argument("--hmac-key-id", help=f"verify HMAC-SHA256 signatures with this key id; the "
                                             f"secret comes from the environment ({HMAC_SECRET_ENV})")
    serve.add_argument("--state", metavar="FILE", help="keep the ledger in FILE across restarts")
    serve.add_argument("--delay-scale", type=float, default=1.0,
                       help="real seconds per trigger second for the 111.XX style amounts (default 1)")
    serve.set_defaults(handler=serve_command, serves=True)  # its log on stderr (cashier.cli)
    parser.set_defaults(handler=lambda args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print("cashier sandbox: error: choose a command: serve", file=sys.stderr)
    return 2


def _fail(message: str) -> int:
    print(f"cashier sandbox: error: {message}", file=sys.stderr)
    return 2


class _QuietInjectedFaults(logging.Filter):
    """Injected disconnects are the point of a fault rule, not server errors worth a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        from cashier.sandbox import InjectedDisconnect, InjectedReset

        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, InjectedDisconnect | InjectedReset)


def serve_command(args: argparse.Namespace) -> int:
    import uvicorn

    from cashier.sandbox import HostSandbox, SandboxConfig

    if not 0 <= args.port <= 65535:
        return _fail("--port: must be 0 to 65535")
    if (args.client_guid is None) != (args.auth_token is None):
        return _fail("--client-guid and --auth-token go together")
    if not 0 <= args.delay_scale <= 100:
        return _fail("--delay-scale: must be 0 to 100")
    hmac_keys: dict[str, bytes] = {}
    if args.hmac_key_id:
        secret = os.environ.get(HMAC_SECRET_ENV)
        if not secret:
            return _fail(f"--hmac-key-id needs the secret in the environment variable {HMAC_SECRET_ENV}")
        hmac_keys[args.hmac_key_id] = secret.encode()
    config = SandboxConfig(
        option=args.option, access_token=args.access_token,
        credential_pair=(args.client_guid, args.auth_token) if args.client_guid else None,
        hmac_keys=hmac_keys, state_file=args.state, delay_scale=args.delay_scale)
    try:
        sandbox = HostSandbox(config)
    except (OSError, ValueError, json.JSONDecodeError) as exc:
        return _fail(f"--state {args.state}: cannot read the state file ({exc})")
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        return _fail(f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc})")
    logging.getLogger("uvicorn.error").addFilter(_QuietInjectedFaults())
    server = _make_server_class()(uvicorn.Config(sandbox.asgi, log_config=None, log_level="warning",
                                    access_log=False, lifespan="off", interface="asgi3",
                                    proxy_headers=False, timeout_graceful_shutdown=5))
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    try:
        asyncio.run(_run(server, sock, f"sandbox listening on http://{shown}:{port}"))
    finally:
        sock.close()
        if config.state_file:
            sandbox.save()
    return 0


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto IPPROTO_TCP, or asyncio will not set TCP_NODELAY on the accepted connections and
    # every keep-alive answer waits ~40 ms for a delayed ACK (Nagle)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


async def _run(server: Any, sock: socket.socket, banner: str) -> None:
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not task.done():
        await asyncio.sleep(0.01)
    if server.started:
        print(banner, flush=True)
    await task


def _make_server_class() -> type[Any]:
    """Built lazily: importing uvicorn costs start-up time for the other commands."""
    import uvicorn

    class Server(uvicorn.Server):
        """uvicorn re-raises a caught SIGTERM after shutting down (exit by signal); we exit 0."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            loop = asyncio.get_running_loop()
            handled = (signal.SIGINT, signal.SIGTERM)
            for sig in handled:
                loop.add_signal_handler(sig, self._stop)
            try:
                yield
            finally:
                for sig in handled:
                    loop.remove_signal_handler(sig)

        def _stop(self) -> None:
            if self.should_exit:
                self.force_exit = True
            self.should_exit = True

    return Server

