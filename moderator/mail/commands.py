"""Command-line verbs of this package (registered by moderator.cli)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from types import FrameType


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this package's verbs to the `moderator` command."""
    parser = sub.add_parser(
        "mail-server",
        help="run the embedded local IMAP+SMTP server (for demos and tests)",
        description=(
            "Serve local mailboxes on loopback: IMAP (pymap, maildir) and SMTP (aiosmtpd) that "
            "delivers mail for the listed users into their INBOX. Runs until Ctrl-C."
        ),
    )
    parser.add_argument("--root", type=Path, default=Path("var/mail"), help="directory of the maildirs")
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    parser.add_argument("--imap-port", type=int, default=1143, help="IMAP port, 0 picks a free one")
    parser.add_argument("--smtp-port", type=int, default=1025, help="SMTP port, 0 picks a free one")
    parser.add_argument(
        "--user", action="append", default=[], metavar="ADDR:PASSWORD", type=_user,
        help="a mailbox: address and its IMAP password (repeatable)",
    )
    parser.set_defaults(func=run_mail_server)


def _user(value: str) -> tuple[str, str]:
    address, sep, password = value.partition(":")
    if not sep or "@" not in address or not password:
        raise argparse.ArgumentTypeError(f"{value!r}: expected ADDRESS:PASSWORD, e.g. moderator@demo.local:secret")
    return address, password


def run_mail_server(args: argparse.Namespace) -> int:
    from moderator.mail.server import EmbeddedMailServer, MailServerError

    server = EmbeddedMailServer(
        args.root, host=args.host, imap_port=args.imap_port, smtp_port=args.smtp_port, users=dict(args.user)
    )
    try:
        server.start()
    except MailServerError as exc:
        print(f"mail-server: {exc}", file=sys.stderr)
        return 1
    print(f"IMAP  {server.host}:{server.imap_port}  (plain LOGIN; login name = address)")
    print(f"SMTP  {server.host}:{server.smtp_port}  (accepts mail for the users below)")
    print(f"maildirs under {server.root}")
    for address in server.users:
        print(f"user  {address}")
    if not server.users:
        print("no users: add some with --user ADDR:PASSWORD", file=sys.stderr)
    sys.stdout.flush()
    _wait_for_interrupt()
    server.stop()
    return 0


def _wait_for_interrupt() -> None:
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    stop.wait()
