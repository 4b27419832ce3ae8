"""``cashier drawer ...``, ``cashier report x|z`` and ``cashier receipt print|email|outbox``.

``receipt email`` checks the address, queues the receipt in the journal's mail outbox, prints
``{"invoice", "queued": true}``, then tries to send what is due (a mail server away leaves it
queued: the window's sender, or ``receipt outbox --send``, tries again). ``receipt outbox`` lists
what is waiting, sent and failed (addresses masked, a failure's reason); ``--send-due`` sends what
is due, each retry after its wait, as the package's mail timer runs it on a till with no window.

Each prints one JSON object (a report with ``--format csv|pdf --output PATH`` writes the file).
Exit codes: 0 done, 2 refused (no open session, a second open, bad amount or reason), 1 waiting
for a manager (an over/short beyond the tolerance, or an action the profile puts behind one),
3 a receipt that could not be printed (the printer is offline; the journal still has it).
A manager approves with ``--manager ID`` and the manager's PIN on standard input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from cashier.commands import arguments

EXIT_DONE, EXIT_WAITING, EXIT_REFUSED, EXIT_NOT_PRINTED = 0, 1, 2, 3


def _out(data: dict[str, Any]) -> None:
    print(json.dumps(data, sort_keys=True, default=str))


def _desk(args: argparse.Namespace) -> Any:
    from cashier.cashdesk import CashDesk, open_recorder
    from cashier.config import command_profile

    profile = command_profile(args)
    return CashDesk(profile, open_recorder(profile))


def _clerk(desk: Any, args: argparse.Namespace) -> str:
    """The acting clerk: ``--clerk`` (one of the profile's clerks when it lists any)."""
    clerk = getattr(args, "clerk", None) or str(desk.profile.clerk_id)
    if desk.roster.enabled:
        return str(desk.roster.get(clerk).id)
    return str(clerk)


def _manager(desk: Any, args: argparse.Namespace) -> Any:
    """``--manager ID`` and the PIN on stdin: the only way a command gets a manager's approval
    (``--clerk`` says who works, never who approves); wrong PINs are journaled and lock."""
    from cashier.approvals import pin_guard
    from cashier.journal.pin_guard import command_name

    if not getattr(args, "manager", None):
        return None
    pin = sys.stdin.readline().strip()
    return pin_guard(desk.recorder.path).check(desk.roster, args.manager, pin, command_name(args))


def _run(args: argparse.Namespace, action: Any) -> int:
    from cashier.clerks import SignInError
    from cashier.errors import DrawerRefused, ManagerNeeded

    desk = _desk(args)
    try:
        return int(action(desk))
    except (DrawerRefused, SignInError) as exc:
        _out({"error": str(exc)})
        print(f"cashier: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    except ManagerNeeded as exc:
        _out({"waiting": str(exc)})
        print(f"cashier: {exc}", file=sys.stderr)
        return EXIT_WAITING
    finally:
        if desk.printer is not None:
            desk.printer.wait_idle(desk.profile.printer.timeout_s + 1.0)
        desk.close()
        desk.recorder.close()


def _session_out(session: Any, **extra: Any) -> dict[str, Any]:
    return {"session": session.id, "state": session.state, "float": str(session.float),
            "opened_at": session.opened_at, "opened_by": session.opened_by, **extra}


def open_command(args: argparse.Namespace) -> int:
    def act(desk: Any) -> int:
        session = desk.open(clerk=_clerk(desk, args), float_amount=args.float_amount,
                            counts=args.counts)
        _out(_session_out(session))
        return EXIT_DONE
    return _run(args, act)


def _pay(kind: str) -> Any:
    def command(args: argparse.Namespace) -> int:
        from cashier.drawer import parse_cash

        def act(desk: Any) -> int:
            clerk = _clerk(desk, args)
            manager = _manager(desk, args)
            do = desk.pay_in if kind == "pay_in" else desk.pay_out
            session = do(args.amount, args.reason, clerk=clerk, manager=manager)
            amount = parse_cash(args.amount, desk.recorder.currency, "amount")
            _out({"session": session.id, "type": kind, "amount": str(amount), "reason": args.reason,
                  "clerk": clerk, "approved_by": str(manager.id) if manager else None})
            return EXIT_DONE
        return _run(args, act)
    return command


def no_sale_command(args: argparse.Namespace) -> int:
    def act(desk: Any) -> int:
        clerk = _clerk(desk, args)
        session = desk.no_sale(args.reason, clerk=clerk)
        _out({"session": session.id, "type": "no_sale", "reason": args.reason, "clerk": clerk,
              "kicked": desk.profile.printer.drawer == "printer" and desk.printer is not None})
        return EXIT_DONE
    return _run(args, act)


def status_command(args: argparse.Namespace) -> int:
    def act(desk: Any) -> int:
        _out(desk.status())
        return EXIT_DONE
    return _run(args, act)


def close_command(args: argparse.Namespace) -> int:
    def act(desk: Any) -> int:
        clerk = _clerk(desk, args)
        manager = _manager(desk, args)
        result = desk.close_drawer(args.counted, clerk=clerk, reason=args.reason, manager=manager)
        _out(result.as_dict())
        if not result.closed:
            print(f"cashier: {result.waiting}", file=sys.stderr)
            return EXIT_WAITING
        return EXIT_DONE
    return _run(args, act)


def report_command(args: argparse.Namespace) -> int:
    from cashier.errors import ValidationError
    from cashier.output import check_output, write_output
    from cashier.reports import report_csv

    if args.format != "json" and not args.output:
        raise ValidationError("--output", f"is required with --format {args.format}")
    if args.output:  # refused before the report is made or printed
        check_output(args.output, force=args.force)

    def act(desk: Any) -> int:
        # the X report shows the open drawer's expected cash: a manager's (none on a till
        # without clerks); the Z report is of a closed session, counted already
        report = desk.x_report(_manager(desk, args)) if args.which == "x" else desk.z_report(args.session)
        if args.print:
            desk.print_report(report)
        if args.format == "json" and not args.output:
            _out(report)
            return EXIT_DONE
        forms: dict[str, Callable[[], bytes]] = {
            "json": lambda: json.dumps(report, indent=2, sort_keys=True).encode(),
            "csv": lambda: report_csv(report).encode("utf-8"),
            "pdf": lambda: bytes(desk.report_pdf(  # with its charts
                report, clerk=str(getattr(args, "clerk", None) or "")))}
        data = forms[args.format]()
        write_output(args.output, data, force=args.force)
        print(f"wrote {args.output}", file=sys.stderr)
        return EXIT_DONE
    return _run(args, act)


def receipt_print_command(args: argparse.Namespace) -> int:
    def act(desk: Any) -> int:
        reprinted, job, queued = desk.print_receipt(args.ticket, copy=args.copy)
        printed = False
        if queued and desk.printer is not None:
            desk.printer.wait_idle(desk.profile.printer.timeout_s + 1.0)
            printed = bool(desk.printer.results) and desk.printer.results[-1].printed
        _out({"ticket": reprinted, "printed": printed,
              "printer": desk.printer.name if desk.printer else None, "status": desk.printer_status,
              "lines": job.lines})
        return EXIT_DONE if printed else EXIT_NOT_PRINTED
    return _run(args, act)


def _send_mail(desk: Any, *, now: bool) -> Any:
    from cashier.mail.outbox import MailSender, transport_for

    return MailSender(desk.profile, desk.recorder, transport_for(desk.profile)).send_due(now=now)


def receipt_email_command(args: argparse.Namespace) -> int:
    from cashier.mail.outbox import MailQueue

    def act(desk: Any) -> int:
        MailQueue(desk).queue(args.invoice, args.to, clerk=_clerk(desk, args))
        _out({"invoice": args.invoice.strip(), "queued": True})
        sys.stdout.flush()  # queued is queued, whatever happens to the send below
        if not args.queue_only:
            report = _send_mail(desk, now=False)
            if report.retried or report.failed:
                print(f"cashier: e-mail not sent yet ({report.retried} to retry, {report.failed} "
                      "failed): see cashier receipt outbox", file=sys.stderr)
        return EXIT_DONE
    return _run(args, act)


def receipt_outbox_command(args: argparse.Namespace) -> int:
    from cashier.mail.outbox import row_view

    def act(desk: Any) -> int:
        out: dict[str, Any] = {}
        if args.send or args.send_due:
            report = _send_mail(desk, now=args.send)
            out["sent_now"] = report.sent
        rows = [row_view(row) for row in desk.recorder.mail.mail_rows(args.limit)]
        out["messages"] = rows
        for state in ("queued", "sending", "sent", "failed"):
            out[state] = sum(1 for row in rows if row["state"] == state)
        _out(out)
        return EXIT_DONE
    return _run(args, act)


def printer_status_command(args: argparse.Namespace) -> int:
    def act(desk: Any) -> int:
        status = desk.check_printer()
        _out(status)
        return EXIT_DONE if desk.printer.printing else EXIT_NOT_PRINTED
    return _run(args, act)


def printer_test_command(args: argparse.Namespace) -> int:
    def act(desk: Any) -> int:
        job = desk.test_page()
        desk.printer.wait_idle(desk.profile.printer.timeout_s + 1.0)
        result = desk.printer.outcome(job)
        printed = result is not None and result.printed
        _out({"printer": desk.printer.name, "printed": printed, "status": desk.printer_status,
              "lines": job.lines})
        return EXIT_DONE if printed else EXIT_NOT_PRINTED
    return _run(args, act)


def register(subparsers: Any) -> None:
    drawer = subparsers.add_parser("drawer", help="the cash drawer session: open, pay in/out, close")
    sub = drawer.add_subparsers(dest="drawer_command")

    def clerk_args(p: argparse.ArgumentParser, manager: bool = False) -> None:
        p.add_argument("--clerk", help="the acting clerk's number (default: the profile's clerk_id)")
        if manager:
            p.add_argument("--manager", metavar="ID",
                           help="a manager approves: the manager's clerk number ('-' for any manager); "
                                "the PIN is read from standard input")

    p = sub.add_parser("open", help="open a session with a float")
    p.add_argument("--float", dest="float_amount", metavar="AMOUNT", help="the float as one amount")
    p.add_argument("--counts", metavar="JSON", type=arguments.counts,
                   help='the float by denomination: {"20.00": 3, ...}')
    clerk_args(p)
    p.set_defaults(handler=open_command)
    for name, kind in (("pay-in", "pay_in"), ("pay-out", "pay_out")):
        p = sub.add_parser(name, help=f"{name.replace('-', ' ')} cash with a reason")
        p.add_argument("--amount", required=True, help="the cash in or out, such as 20.00")
        p.add_argument("--reason", required=True, help="why (kept in the journal and the Z report)")
        clerk_args(p, manager=True)
        p.set_defaults(handler=_pay(kind))
    p = sub.add_parser("no-sale", help="open the drawer without a sale (journaled)")
    p.add_argument("--reason", required=True, help="why the drawer was opened without a sale")
    clerk_args(p)
    p.set_defaults(handler=no_sale_command)
    p = sub.add_parser("status", help="the open session (never the expected amount: blind close)")
    p.set_defaults(handler=status_command)
    p = sub.add_parser("close", help="blind close: the counted cash, then expected and over/short")
    p.add_argument("--counted", required=True,
                   help="the cash counted in the drawer (blind: typed before the expected amount is shown)")
    p.add_argument("--reason", help="required when the drawer is over or short")
    clerk_args(p, manager=True)
    p.set_defaults(handler=close_command)

    def usage(parser: argparse.ArgumentParser, what: str) -> Any:
        def handler(args: argparse.Namespace) -> int:
            parser.print_usage(sys.stderr)
            print(f"cashier: error: choose {what}", file=sys.stderr)
            return EXIT_REFUSED
        return handler

    drawer.set_defaults(handler=usage(drawer, "open, pay-in, pay-out, no-sale, status or close"))

    report = subparsers.add_parser("report", help="X report (now) or Z report (a closed session)")
    report.add_argument("which", choices=("x", "z"),
                        help="x: now, the drawer open (a manager's); z: a closed session")
    report.add_argument("--session", type=arguments.number(),
                        help="Z: the session (default: the last closed)")
    report.add_argument("--format", choices=("json", "csv", "pdf"), default="json",
                        help="json on standard output (default), or csv/pdf with --output")
    report.add_argument("--output", metavar="PATH", help="write the report to PATH (a new file)")
    report.add_argument("--force", action="store_true", help="replace PATH when it exists")
    report.add_argument("--print", action="store_true", help="also print it on the receipt printer")
    report.add_argument("--manager", metavar="ID",
                        help="X: a manager's clerk number ('-' for any manager), the PIN read from "
                             "standard input (a till with clerks shows the X report to a manager)")
    report.set_defaults(handler=report_command)

    receipt = subparsers.add_parser("receipt", help="print or e-mail a receipt from the journal")
    rsub = receipt.add_subparsers(dest="receipt_command")
    p = rsub.add_parser("print", help="print the receipt of a ticket (its number, or a card "
                                      "payment's invoice number)")
    p.add_argument("ticket", type=arguments.number_text(
        0, arguments.ROW_NUMBER_MAX, rule="must be a ticket number (or a payment's invoice number)"),
        help="a ticket's number, or a card payment's invoice number")
    p.add_argument("--copy", choices=("customer", "merchant"), default="customer",
                   help="the customer's copy (default) or the merchant's with the signature line")
    p.set_defaults(handler=receipt_print_command)
    p = rsub.add_parser("email", help="e-mail the receipt of a ticket (its number, or a payment's "
                                      "invoice number) to the customer")
    p.add_argument("invoice", type=arguments.number_text(
        0, arguments.ROW_NUMBER_MAX, rule="must be a ticket number (or a payment's invoice number)"),
        help="a ticket's number, or a payment's invoice number")
    p.add_argument("--to", required=True, metavar="ADDRESS", help="the customer's e-mail address")
    p.add_argument("--clerk", help="the acting clerk's number (default: the profile's clerk_id)")
    p.add_argument("--queue-only", action="store_true",
                   help="queue it and leave the sending to the window (or receipt outbox --send)")
    p.set_defaults(handler=receipt_email_command)
    p = rsub.add_parser("outbox", help="e-mailed receipts: waiting, sent and failed (with the reason)")
    p.add_argument("--send", action="store_true", help="send every queued message now")
    p.add_argument("--send-due", action="store_true",
                   help="send what is due, a retry after its wait (the mail timer's run)")
    p.add_argument("--limit", type=arguments.number(1, 10_000), default=200,
                   help="at most this many, newest first")
    p.set_defaults(handler=receipt_outbox_command)
    receipt.set_defaults(handler=usage(receipt, "print, email or outbox"))

    printer = subparsers.add_parser("printer", help="the receipt printer: is it there, has it paper")
    psub = printer.add_subparsers(dest="printer_command")
    p = psub.add_parser("status", help="ask the printer now: reachable, out of paper, paper low")
    p.set_defaults(handler=printer_status_command)
    p = psub.add_parser("test", help="print a test page: the width as a ruler, accents, the till")
    p.set_defaults(handler=printer_test_command)
    printer.set_defaults(handler=usage(printer, "status or test"))

