"""Real faults between the daemon and the embedded IMAP server (issue 11): tests/tcp_proxy.py
sends an RST in the middle of a FETCH response and under a waiting IDLE, and the mailbox is
renumbered under a new UIDVALIDITY. Every mail is then handled exactly once, and IDLE
reconnects and still hears new mail. tests/test_dovecot.py runs the same cases against Dovecot."""

from __future__ import annotations

import dataclasses
import smtplib
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from moderator.mail.config import MailConfig
from moderator.mail.intake import Mailbox
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.games import new_game
from moderator.store.db import Store
from tests.tcp_proxy import TcpProxy

MOD, PLAYER = "moderator@t.local", "kaiser@t.local"
ORDERS = "GAME g\nNATION Germany\nTURN 1\nPASSWORD pw\nMOVE 2 inf FROM Ruhr TO Cologne\nNOTE {n} " + "x" * 3000 + "\n"


def proxied(config: MailConfig, proxy: TcpProxy) -> MailConfig:
    """The same mail settings, with IMAP through the proxy."""
    return dataclasses.replace(config, imap=dataclasses.replace(config.imap, host="127.0.0.1", port=proxy.port))


def send_orders(smtp_port: int, n: int, sender: str = PLAYER, to: str = MOD) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, "Orders"
    msg.set_content(ORDERS.format(n=n))
    with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
        smtp.send_message(msg)


def wait_for(done: Callable[[], bool], what: str, timeout: float = 90) -> None:
    limit = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < limit, what
        time.sleep(0.05)


def check_reset_mid_fetch(svc: Service, proxy: TcpProxy, deliver: Callable[[int], None],
                          unread: Callable[[], int], mails: int = 5) -> None:
    """The server's answer to the FETCH of the bodies is cut 2000 bytes in: that poll fails,
    the daemon goes on, and the next one takes every mail, each once."""
    console: list[str] = []
    svc.say = console.append
    for n in range(mails):
        deliver(n)
    wait_for(lambda: unread() == mails, "the mails reached the mailbox")
    daemon = Daemon(svc, deadline_seconds=3600, countdown_seconds=0)
    proxy.cut_after(b"BODY[] {", 2000)
    daemon.poll_job()
    assert proxy.cut_done.is_set() and [f.what for f in daemon.faults] == ["mail poll"], console
    daemon.poll_job()
    received = svc.store.messages(direction="in")
    assert len(received) == mails and {m.status for m in received} == {"processed"}, console
    out = svc.store.messages(direction="out")
    assert len(out) == mails and {m.status for m in out} == {"sent"}, console
    assert f"NOTE {mails - 1} " in svc.store.current_submissions("g", 1)["germany"].text
    assert unread() == 0


def check_reset_during_idle(svc: Service, proxy: TcpProxy, deliver: Callable[[int], None]) -> None:
    """A started daemon (IDLE on, the periodic poll an hour away) loses its IDLE connection
    to an RST; it connects again and the next mail is heard."""
    console: list[str] = []
    svc.say = console.append
    daemon = Daemon(svc, poll_seconds=3600, deadline_seconds=3600, countdown_seconds=0, idle=True)
    daemon.start()
    try:
        assert daemon.idling.wait(90), console
        before = proxy.connections
        assert proxy.cut_all() >= 1
        wait_for(lambda: proxy.connections > before and daemon.idling.is_set()
                 and any(not link.dead for link in proxy.links)
                 and any("IMAP IDLE: connected again" in line for line in console),
                 "IDLE connected again: " + "\n".join(console))
        deliver(0)
        wait_for(lambda: bool(svc.store.current_submissions("g", 1)), "the mail was heard: " + "\n".join(console))
        wait_for(lambda: {m.status for m in svc.store.messages(direction="out")} == {"sent"}, "the receipt left")
        assert len(svc.store.messages(direction="in")) == 1
    finally:
        daemon.stop()


@pytest.fixture()
def rig(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service, TcpProxy]]:
    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m", PLAYER: "p"}) as server, \
            TcpProxy(server.imap_port) as proxy:
        svc = Service(store=Store.at(tmp_path / "db"), mail=proxied(server.client_config(MOD, "m"), proxy),
                      say=lambda s: None, maps=False)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", PLAYER, "pw")
        yield server, svc, proxy


def _unread(server: EmbeddedMailServer) -> Callable[[], int]:
    def count() -> int:
        with Mailbox(server.client_config(MOD, "m")) as box:
            return len(box.fetch_unseen())
    return count


def test_a_reset_in_the_middle_of_a_fetch_response_loses_and_repeats_nothing(
        rig: tuple[EmbeddedMailServer, Service, TcpProxy]) -> None:
    server, svc, proxy = rig
    check_reset_mid_fetch(svc, proxy, lambda n: send_orders(server.smtp_port, n), _unread(server))


def test_idle_reconnects_after_a_reset_and_still_hears_new_mail(
        rig: tuple[EmbeddedMailServer, Service, TcpProxy]) -> None:
    server, svc, proxy = rig
    check_reset_during_idle(svc, proxy, lambda n: send_orders(server.smtp_port, n))


def test_a_uidvalidity_change_under_the_daemon_loses_and_repeats_nothing(
        rig: tuple[EmbeddedMailServer, Service, TcpProxy], monkeypatch: pytest.MonkeyPatch) -> None:
    """tests/test_dovecot.py's `doveadm mailbox update --uid-validity` case on the embedded
    server: pymap's maildir keeps UIDVALIDITY and the UIDs in a Dovecot-style
    `dovecot-uidlist`; without it (lost, restored from elsewhere) pymap numbers the mailbox
    afresh under a new UIDVALIDITY, as Dovecot does."""
    from moderator.service.inbox import poll

    server, svc, _ = rig
    for n in range(3):
        send_orders(server.smtp_port, n)

    def uidvalidity() -> int:
        with Mailbox(server.client_config(MOD, "m")) as box:
            return int(box.client.select_folder("INBOX")[b"UIDVALIDITY"])

    before = uidvalidity()
    # A crash after the receipts were committed and before the mailbox copies were filed...
    monkeypatch.setattr(Mailbox, "acknowledge", lambda self, items: [])
    assert len(poll(svc)) == 3
    monkeypatch.undo()
    # ... then the mailbox is renumbered: every UID is new.
    lists = [p for p in server.root.rglob("dovecot-uidlist") if "Processed" not in str(p)]
    assert lists
    for path in lists:
        path.unlink()
    assert uidvalidity() != before
    send_orders(server.smtp_port, 99)
    [new] = poll(svc)  # the three are known by their bytes: filed away, not handled again
    assert new.status == "processed" and "NOTE 99 " in svc.store.current_submissions("g", 1)["germany"].text
    assert _unread(server)() == 0 and len(svc.store.messages(direction="out")) == 4
