"""``cashier store``: the store service and a till's commands for it.

- ``serve --database URL [--updates REPO]``: migrate, then serve; prints ``store listening on
  http://HOST:PORT``. With ``--updates``, tills take signed updates from ``http://HOST:PORT/updates``.
- ``add-till TILL_ID [--number NN] --database URL``: prints ``{"till", "token"}`` once (stored
  hashed); ``--number`` pins the till's invoice prefix (else its first contact does), refused
  when another till of the store holds it.
- ``add-manager ID --name NAME --database URL``: a manager on the store's own roster, with the
  PIN read from standard input (only its salted hash is stored).
- ``sync``: push what is pending now: ``{"pushed", "pending"}``; exit 0 when nothing is pending,
  1 when some is left, 3 when the store could not be reached, 2 when the store refused (a
  journal of another till, a push it will not store).
- ``totals [--business-date] [--manager ID]``: this till's figures; with a store manager (PIN on
  standard input) the store and every till.
- ``batch-close --manager ID [--override]``: the store-wide reconciliation and close; the
  manager's PIN (standard input) is checked by the store, which records who closed.
- ``pin-failures --manager ID``: the store's failed manager PINs (a store manager).

Only a store manager's PIN (checked by the store) opens store-wide work; a till token alone is
that till's only. The database URL may also come from ``CASHIER_STORE_DATABASE`` (keeps a
password off the command line); tills never see it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import re
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cashier.commands import arguments
from cashier.errors import ValidationError

DATABASE_ENV = "CASHIER_STORE_DATABASE"
_MANAGER_ID = re.compile(r"^[0-9]{1,5}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _database(args: argparse.Namespace) -> str:
    url = args.database or os.environ.get(DATABASE_ENV)
    if not url:
        raise ValidationError("--database", f"is required (or set {DATABASE_ENV}): "
                                            "postgresql://USER@HOST:PORT/DB")
    if not url.startswith(("postgresql://", "postgres://")):
        raise ValidationError("--database", "must be a postgresql:// URL")
    return str(url)


def _profile(args: argparse.Namespace) -> Any:
    from cashier.config import command_profile

    profile = command_profile(args)
    if not profile.store_url:
        raise ValidationError("store_url", "this till's profile names no store service")
    return profile


def serve_command(args: argparse.Namespace) -> int:
    import uvicorn

    from cashier.commands.sandbox import _bind, _run
    from cashier.store.app import StoreApp
    from cashier.store.database import StoreDatabase
    from cashier.store.schema import migrate

    dsn = _database(args)
    updates = None
    if args.updates:
        updates = Path(args.updates)
        if not (updates / "metadata" / "root.json").is_file():
            raise ValidationError("--updates", f"{updates} is not an update repository (no "
                                               "metadata/root.json: `cashier update publish` makes it)")
    migrate(dsn)
    if args.training_catalog:
        _seed_training_catalog(dsn)
    app = StoreApp(StoreDatabase(dsn), updates=updates)
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        print(f"cashier store: error: cannot listen on {args.host}:{args.port} "
              f"({exc.strerror or exc})", file=sys.stderr)
        return 2
    logging.getLogger("uvicorn.error").addFilter(_SaidByTheApp())
    server = _store_server_class()(uvicorn.Config(app.asgi, log_config=None, log_level="warning",
                                                  access_log=False, lifespan="on", interface="asgi3",
                                                  proxy_headers=False, timeout_graceful_shutdown=5))
    shown = f"[{args.host}]" if ":" in args.host else args.host
    handlers = {sig: signal.getsignal(sig) for sig in _STOP_SIGNALS}
    try:
        asyncio.run(_run(server, sock, f"store listening on http://{shown}:{sock.getsockname()[1]}"))
    finally:
        sock.close()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    print("store stopped", file=sys.stderr, flush=True)  # a clean stop: this one line
    return 0


def _seed_training_catalog(dsn: str) -> None:
    """An empty store starts with the training café and shop (``make store``)."""
    from cashier.catalog.training import training_catalog
    from cashier.store.database import StoreDatabase

    async def seed() -> None:
        db = StoreDatabase(dsn, min_size=1, max_size=1)
        await db.open()
        try:
            await db.catalog.seed(training_catalog(), made_by="training catalog")
        finally:
            await db.close()

    asyncio.run(seed())


class _SaidByTheApp(logging.Filter):
    """uvicorn's line on cancelling what still ran after its graceful wait: the store's app says
    it itself, once per request it answers 503 (``cashier.store.app.CutOffWhenStopping``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cancel %s running task(s)")


#: The signals that stop the service.
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _store_server_class() -> type[Any]:
    """The store's server: a stop signal starts one graceful stop, whatever follows it.

    uvicorn takes a second signal during a stop as "force quit": it skips the application's
    shutdown, so the lifespan (the database pool) is left to be cancelled as the loop ends and
    its ``CancelledError`` is logged with a traceback. A second signal is common (Ctrl-C reaches
    ``make store``'s service and its parent, which then sends SIGTERM; a service manager may
    send both), so here it changes nothing: the stop is bounded anyway (requests get 5 s, then
    are cut off with a 503). Once the server is done, further stop signals are ignored until the
    command returns (the default action would end an almost stopped process by the signal)."""
    from cashier.commands.sandbox import _make_server_class

    class StoreServer(_make_server_class()):  # type: ignore[misc]
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            loop = asyncio.get_running_loop()
            for sig in _STOP_SIGNALS:
                loop.add_signal_handler(sig, self._stop)
            try:
                yield
            finally:
                for sig in _STOP_SIGNALS:
                    loop.remove_signal_handler(sig)
                    signal.signal(sig, signal.SIG_IGN)

        def _stop(self) -> None:
            self.should_exit = True

    return StoreServer


def add_till_command(args: argparse.Namespace) -> int:
    from cashier.commands.payments import print_json
    from cashier.config import TILL_ID_PATTERN
    from cashier.store.database import StoreDatabase
    from cashier.store.schema import migrate

    if not re.fullmatch(TILL_ID_PATTERN, args.till_id):
        raise ValidationError("TILL_ID", "must be a till id: a letter or digit, then up to 31 "
                                         "letters, digits or _ . -")
    dsn = _database(args)
    migrate(dsn)

    async def add() -> str:
        db = StoreDatabase(dsn, min_size=1, max_size=1)
        await db.open()
        try:
            return await db.add_till(args.till_id, args.number)
        finally:
            await db.close()

    print_json({"till": args.till_id, "token": asyncio.run(add())})
    return 0


def add_manager_command(args: argparse.Namespace) -> int:
    from cashier.commands.payments import print_json
    from cashier.manager_pin import hash_pin
    from cashier.store.database import StoreDatabase
    from cashier.store.schema import migrate

    if not _MANAGER_ID.match(args.manager_id):
        raise ValidationError("ID", "must be the manager's clerk number, 1 to 5 digits")
    if not 1 <= len(args.name.strip()) <= 40:
        raise ValidationError("--name", "must be 1 to 40 characters")
    pin = sys.stdin.readline().strip()
    try:
        pin_hash = hash_pin(pin)
    except ValueError:
        raise ValidationError("pin", "must be 4 to 8 digits (read from standard input)") from None
    dsn = _database(args)
    migrate(dsn)

    async def add() -> None:
        db = StoreDatabase(dsn, min_size=1, max_size=1)
        await db.open()
        try:
            await db.add_manager(args.manager_id, args.name.strip(), pin_hash)
        finally:
            await db.close()

    asyncio.run(add())
    print_json({"manager": args.manager_id, "name": args.name.strip()})
    return 0


def _store_manager(profile: Any, args: argparse.Namespace) -> str:
    """``--manager ID`` with the PIN on standard input, checked by the store: its session."""
    from cashier.store.close import sign_in_manager

    manager_id = str(args.manager or "")
    if not _MANAGER_ID.match(manager_id):
        raise ValidationError("--manager", "must be a store manager's number, 1 to 5 digits")
    pin = getattr(args, "_pin", None)
    if pin is None:
        pin = sys.stdin.readline().strip()
        args._pin = pin
    return sign_in_manager(profile, manager_id, pin)


def sync_command(args: argparse.Namespace) -> int:
    from cashier.commands.payments import print_json
    from cashier.store.outbox import Outbox

    outbox = Outbox(_profile(args))
    try:
        result = outbox.sync(args.budget)
    finally:
        outbox.close()
    print_json(result.as_dict())
    if not result.reached:
        return 3
    return 0 if result.pending == 0 else 1


def totals_command(args: argparse.Namespace) -> int:
    from cashier.commands.payments import print_json
    from cashier.store.close import store_totals
    from cashier.store.outbox import push_pending

    if args.business_date is not None and not _DATE.match(args.business_date):
        raise ValidationError("--business-date", "must be a date, YYYY-MM-DD")
    profile = _profile(args)
    session = _store_manager(profile, args) if args.manager else None
    push_pending(profile, 1.0)
    totals = store_totals(profile, args.business_date, session=session)
    totals.pop("through", None)
    print_json(totals)
    return 0


def pin_failures_command(args: argparse.Namespace) -> int:
    from cashier.commands.payments import print_json
    from cashier.store.close import pin_failures

    profile = _profile(args)
    print_json({"failures": pin_failures(profile, _store_manager(profile, args))})
    return 0


def batch_close_command(args: argparse.Namespace) -> int:
    from cashier.approvals import pin_guard
    from cashier.clerks import Action
    from cashier.commands.payments import print_json, run_with_runtime
    from cashier.flows.batch import BatchBlocked
    from cashier.journal.pin_guard import command_name
    from cashier.store.close import close_store_batch

    if not args.manager:
        raise ValidationError("--manager", "is required: the store-wide close needs a store "
                                           "manager (the PIN on standard input)")
    profile = _profile(args)
    args._pin = sys.stdin.readline().strip()

    async def body(rt: Any) -> int:
        session = await asyncio.to_thread(_store_manager, profile, args)
        # a till whose rules want a manager for the close: the same manager and PIN approve it
        needs = rt.profile.roster.needs_manager(Action.CLOSE_BATCH)
        manager = pin_guard(rt.ctx.journal.path).check(rt.profile.roster, args.manager, args._pin,
                                                       command_name(args)) if needs else None
        try:
            batch_no, rec = await close_store_batch(rt.ctx, profile, session=session,
                                                    override=args.override,
                                                    manager_id=args.manager, manager=manager)
        except BatchBlocked as exc:
            print_json({"closed": False, "message": str(exc)})
            return 1
        print_json({"closed": True, "store_batch": batch_no, "override": bool(rec.problems),
                    **rec.as_dict()})
        return 0

    return run_with_runtime(args, body)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("store", help="the store service: every till in one database",
                                   description="The store service and this till's link to it.")
    sub = parser.add_subparsers(dest="store_command")
    serve = sub.add_parser("serve", help="serve the store service (migrates the database first)")
    serve.add_argument("--database", help=f"postgresql:// URL (or {DATABASE_ENV})")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument("--port", type=arguments.number(0, 65535), default=8790,
                       help="port; 0 picks a free one (default 8790)")
    serve.add_argument("--updates", metavar="REPO",
                       help="also serve this signed update repository at /updates")
    serve.add_argument("--training-catalog", action="store_true",
                       help="a store without a catalog starts with the training café and shop")
    serve.set_defaults(handler=serve_command, serves=True)  # its log on stderr (cashier.cli)
    add = sub.add_parser("add-till", help="issue a till's store token (printed once)")
    add.add_argument("till_id", metavar="TILL_ID", help="the till's till_id, as in its profile")
    add.add_argument("--number", type=arguments.number(1, 99, rule="must be the till's number, 1 to 99"),
                     help="the till's number (its invoices' prefix)")
    add.add_argument("--database", help=f"postgresql:// URL (or {DATABASE_ENV})")
    add.set_defaults(handler=add_till_command)
    mgr = sub.add_parser("add-manager", help="put a manager on the store's roster (PIN on stdin)")
    mgr.add_argument("manager_id", metavar="ID", help="the store manager's number")
    mgr.add_argument("--name", required=True, help="the manager's name")
    mgr.add_argument("--database", help=f"postgresql:// URL (or {DATABASE_ENV})")
    mgr.set_defaults(handler=add_manager_command)
    failures = sub.add_parser("pin-failures", help="the store's failed manager PINs")
    failures.add_argument("--manager", required=True, help="a store manager's number (PIN on stdin)")
    failures.set_defaults(handler=pin_failures_command)
    sync = sub.add_parser("sync", help="push this till's pending journal events now")
    sync.add_argument("--budget", type=float, default=10.0, help=argparse.SUPPRESS)
    sync.set_defaults(handler=sync_command)
    totals = sub.add_parser("totals", help="the store's totals, and each till's")
    totals.add_argument("--business-date", help="one business day (default: the open store batch)")
    totals.add_argument("--manager", help="a store manager's number (PIN on stdin): every till's "
                        "figures; without it, this till's only")
    totals.set_defaults(handler=totals_command)
    close = sub.add_parser("batch-close", help="reconcile every till against the host and close once")
    close.add_argument("--override", action="store_true",
                       help="close despite unresolved payments or a difference")
    close.add_argument("--manager", help="a store manager's number: the PIN read from standard "
                       "input is checked by the store (and by this till when its rules want a "
                       "manager for the close)")
    close.set_defaults(handler=batch_close_command)
    parser.set_defaults(handler=lambda _args: _usage(parser))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    print("cashier store: error: choose a command: serve, add-till, add-manager, sync, totals, "
          "batch-close, pin-failures",
          file=sys.stderr)
    return 2
