"""The intake against a real Dovecot 2.3 on loopback (issue 11's integration suite).

Order mail is put into Dovecot's INBOX with IMAP APPEND (with the arrival time a test
needs); replies go out through the embedded SMTP server. What Dovecot does that the
embedded server may not: MOVE and UIDPLUS, its own UIDVALIDITY that `doveadm` can change
under the daemon, INTERNALDATE from APPEND, IDLE. Skipped, with the reason, where Dovecot
is not installed (`make integration-servers` installs it from Debian's packages).
The burst test sends through a real Postfix that delivers over LMTP into that Dovecot.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from imapclient import IMAPClient

from moderator.mail.config import MailConfig
from moderator.mail.intake import Mailbox
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.store.db import Store
from tests import dovecot, postfix

pytestmark = pytest.mark.skipif(bool(dovecot.missing()), reason=dovecot.missing() or "-")

MOD, PLAYER = "moderator@t.local", "kaiser@t.local"
ORDERS = "GAME g\nNATION Germany\nTURN 1\nPASSWORD pw\nMOVE 2 inf FROM Ruhr TO Cologne\nNOTE {n}\n"


@pytest.fixture(scope="module")
def server() -> Iterator[dovecot.Dovecot]:
    running = dovecot.start({MOD: "m"})
    yield running
    running.stop()


@pytest.fixture()
def svc(server: dovecot.Dovecot, tmp_path: Path) -> Iterator[Service]:
    with IMAPClient("127.0.0.1", port=server.port, ssl=False) as client:  # a clean mailbox for each test
        client.login(MOD, "m")
        for folder in ("INBOX", "Processed", "Quarantine"):
            if client.folder_exists(folder):
                client.select_folder(folder)
                client.delete_messages(client.search(["ALL"]))
                client.expunge()
    with EmbeddedMailServer(tmp_path / "smtp", users={PLAYER: "p", MOD: "m"}) as smtp:
        mail = MailConfig(imap=server.imap(MOD), smtp=smtp.client_config(MOD, "m").smtp, from_address=MOD,
                          moderator_address=MOD)
        service = Service(store=Store.at(tmp_path / "db"), mail=mail, say=lambda s: None)
        new_game(service, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        service.store.add_seat("g", "germany", PLAYER, "pw")
        yield service


def _append(server: dovecot.Dovecot, body: str, arrived: datetime | None = None, date: datetime | None = None) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = PLAYER, MOD, "Orders"
    msg["Message-ID"] = make_msgid(domain="t.local")
    if date is not None:
        msg["Date"] = date
    msg.set_content(body)
    with IMAPClient("127.0.0.1", port=server.port, ssl=False) as client:
        client.login(MOD, "m")
        client.append("INBOX", bytes(msg), msg_time=arrived)


def _count(server: dovecot.Dovecot, folder: str) -> int:
    with IMAPClient("127.0.0.1", port=server.port, ssl=False) as client:
        client.login(MOD, "m")
        return len(client.search(["ALL"])) if client.folder_exists(folder) and client.select_folder(folder) else 0


def test_a_burst_is_taken_once_filed_with_move_and_never_marked_read_before(
        server: dovecot.Dovecot, svc: Service) -> None:
    for n in range(20):
        _append(server, ORDERS.format(n=n))
    with Mailbox(svc.require_mail()) as box:  # fetching alone changes nothing (BODY.PEEK)
        fetched = box.fetch_unseen()
        assert len(fetched) == 20
        assert all(b"\\Seen" not in flags for flags in box.client.get_flags([m.uid for m in fetched]).values())
    outcomes = poll(svc)
    assert len(outcomes) == 20 and {o.status for o in outcomes} == {"processed"}
    assert _count(server, "INBOX") == 0 and _count(server, "Processed") == 20
    assert poll(svc) == [] and len(svc.store.messages(direction="out")) == 20


def test_a_uidvalidity_change_under_the_daemon_loses_and_repeats_nothing(
        server: dovecot.Dovecot, svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(3):
        _append(server, ORDERS.format(n=n))
    # A crash after the receipts were committed and before the mailbox copies were filed...
    monkeypatch.setattr(Mailbox, "acknowledge", lambda self, items: [])
    assert len(poll(svc)) == 3
    monkeypatch.undo()
    # ... then the server renumbers the mailbox (a restore, a migration): every UID is new.
    server.doveadm("mailbox", "update", "-u", MOD, "--uid-validity", "4242", "INBOX")
    _append(server, ORDERS.format(n="after"))
    [new] = poll(svc)  # the three are known by their bytes: filed away, not handled again
    assert new.status == "processed" and "NOTE after" in svc.store.current_submissions("g", 1)["germany"].text
    assert _count(server, "INBOX") == 0 and len(svc.store.messages(direction="out")) == 4


def test_lateness_is_judged_by_dovecots_arrival_time(server: dovecot.Dovecot, svc: Service) -> None:
    deadline = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    svc.store.update_game("g", deadline=deadline)
    _append(server, ORDERS.format(n="in time"), arrived=deadline - timedelta(seconds=7))
    _append(server, ORDERS.format(n="late"), arrived=deadline + timedelta(seconds=7))
    in_time, late = poll(svc)
    assert "receipt" in in_time.summary and "deadline" in late.summary
    assert "NOTE in time" in svc.store.current_submissions("g", 1)["germany"].text


def test_the_mail_written_last_stands_when_dovecot_has_them_the_other_way_round(
        server: dovecot.Dovecot, svc: Service) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    _append(server, ORDERS.format(n="second"), date=now)
    _append(server, ORDERS.format(n="first"), date=now - timedelta(minutes=2))
    poll(svc)
    assert "NOTE second" in svc.store.current_submissions("g", 1)["germany"].text


def test_idle_against_dovecot_takes_mail_without_a_poll(server: dovecot.Dovecot, svc: Service) -> None:
    daemon = Daemon(svc, poll_seconds=3600, deadline_seconds=3600, countdown_seconds=0, idle=True)
    daemon.start()
    try:
        assert daemon.idling.wait(60)
        wait = threading.Event()
        for _ in range(600):  # the start-up polls
            job = daemon.scheduler.get_job("poll")
            if job is not None and job.next_run_time - datetime.now(UTC) > timedelta(minutes=30):
                break
            wait.wait(0.1)
        _append(server, ORDERS.format(n="idle"))
        for _ in range(600):
            if svc.store.current_submissions("g", 1):
                break
            wait.wait(0.1)
        assert "NOTE idle" in svc.store.current_submissions("g", 1)["germany"].text
    finally:
        daemon.stop()


def test_idle_reconnects_after_dovecot_drops_the_connection(server: dovecot.Dovecot, svc: Service) -> None:
    console: list[str] = []
    svc.say = console.append
    daemon = Daemon(svc, poll_seconds=3600, deadline_seconds=3600, countdown_seconds=0, idle=True)
    daemon.start()
    try:
        assert daemon.idling.wait(60)
        server.doveadm("kick", MOD)  # Dovecot closes every IMAP connection of the user
        wait = threading.Event()
        for _ in range(600):
            if any("connected again" in line for line in console) and daemon.idling.is_set():
                break
            wait.wait(0.1)
        assert any("IMAP IDLE" in line for line in console), console
        _append(server, ORDERS.format(n="after the kick"))
        for _ in range(600):
            if svc.store.current_submissions("g", 1):
                break
            wait.wait(0.1)
        assert "NOTE after the kick" in svc.store.current_submissions("g", 1)["germany"].text
    finally:
        daemon.stop()


@pytest.fixture(scope="module")
def mta(server: dovecot.Dovecot) -> Iterator[postfix.Postfix]:
    if postfix.missing():
        pytest.skip(postfix.missing())
    running = postfix.start(server.lmtp_port)
    yield running
    running.stop()


def test_a_burst_through_postfix_ends_on_the_mail_written_last(
        server: dovecot.Dovecot, svc: Service, mta: postfix.Postfix, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sixty mails from one seat through Postfix's queue into Dovecot, in whatever order the
    queue manager delivers them: all taken once, and the seat's orders are the last written."""
    import moderator.service.inbox as inbox

    monkeypatch.setattr(inbox, "REPLIES_PER_DAY", 100)  # sixty receipts to one address in a minute
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    for n in range(60):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = PLAYER, MOD, "Orders"
        msg["Message-ID"], msg["Date"] = make_msgid(domain="t.local"), start + timedelta(seconds=n)
        msg.set_content(ORDERS.format(n=n))
        mta.send(PLAYER, MOD, bytes(msg))
    arrived = threading.Event()
    for _ in range(1200):
        if _count(server, "INBOX") == 60:
            arrived.set()
            break
        arrived.wait(0.1)
    assert arrived.is_set(), (mta.root / "maillog").read_text(errors="replace")[-2000:]
    outcomes = poll(svc)
    assert len(outcomes) == 60 and {o.status for o in outcomes} == {"processed"}
    # (Postfix's queue manager does deliver such a burst out of order now and then; this
    # holds either way.)
    assert "NOTE 59" in svc.store.current_submissions("g", 1)["germany"].text
    assert len(svc.store.messages(direction="out")) == 60 and poll(svc) == []
