"""`moderator mail ...`: the moderator's hands on the mail the daemon keeps.

`mail redrive` handles again the received messages that were set aside after failing
MAX_ATTEMPTS times (or the ones named with --message), for after the cause was fixed;
`mail list` shows where every message stands (received and outgoing).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", type=Path, default=None,
                        help="configuration file (default: $MODERATOR_CONFIG or ./moderator.toml)")
    mail = sub.add_parser("mail", help="received and outgoing mail: list, redrive").add_subparsers(
        dest="mail_verb", required=True)
    p = mail.add_parser("redrive", parents=[common],
                        help="handle again the received mail set aside after failing (or the --message ones)")
    p.add_argument("--message", type=int, action="append", default=[], metavar="ID",
                   help="a stored message's id (repeatable; default: every failed or unfinished one)")
    p.set_defaults(func=cmd_redrive)
    p = mail.add_parser("list", parents=[common], help="stored mail and where each stands")
    p.add_argument("--status", default=None, help="only this status (new, held, processed, failed, queued, sent...)")
    p.set_defaults(func=cmd_list)


def cmd_redrive(args: argparse.Namespace) -> int:
    from moderator.service.commands import _service, can_send
    from moderator.service.inbox import redrive
    from moderator.service.sending import send_queued

    svc, cfg = _service(args)
    if svc.mail is None:
        raise SystemExit("this needs a [mail] section in the configuration file (the replies are mail)")
    outcomes, handed = redrive(svc, args.message or None)
    for o in outcomes:
        print(f"mail {o.message}: {o.status}: {o.summary}")
    if not outcomes:
        print("nothing to redrive: no received message is failed or unfinished")
    if handed:
        print("a daemon is running on this database: it handles them, and sends the replies, at its next poll")
        return 0
    if outcomes and can_send(cfg):
        sent, failed = send_queued(svc)
        print(f"sent {sent} reply mail(s)" + (f", {failed} not yet (kept for the daemon)" if failed else ""))
    return 0 if all(o.status == "processed" or o.status == "quarantined" for o in outcomes) else 1


def cmd_list(args: argparse.Namespace) -> int:
    from moderator.service.commands import _service

    svc, _ = _service(args)
    for m in svc.store.messages(status=args.status):
        who = m.sender if m.direction == "in" else m.recipients
        extra = f" attempts {m.attempts}" if m.attempts else ""
        print(f"#{m.id:<5} {m.direction:<3} {m.status:<11} {who[:32]:<32} {m.subject[:40]:<40}{extra}"
              + (f"  ({m.note})" if m.note else ""))
    return 0
