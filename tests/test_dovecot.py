"""The intake against a real Dovecot 2.3 on loopback (issue 11's integration suite).

Order mail is put into Dovecot's INBOX with IMAP APPEND (with the arrival time a test
needs); replies go out through the embedded SMTP server. What Dovecot does that the
embedded server may not: MOVE and UIDPLUS, its own UIDVALIDITY that `doveadm` can change
under the daemon, INTERNALDATE from APPEND, IDLE. Skipped, with the reason, where Dovecot
is not installed (`make integration-servers` installs it from Debian's packages).
The burst test sends through a real Postfix that delivers over LMTP into that Dovecot.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from imapclient import IMAPClient

from moderator.mail.config import MailConfig, ServerConfig
from moderator.mail.intake import Mailbox
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.store.db import Store
from tests import dovecot, postfix
from tests import test_connection_resets as resets
from tests import test_disk_full as disk_full
from tests.tcp_proxy import TcpProxy
from tests.test_connection_resets import check_reset_during_idle, check_reset_mid_fetch, proxied
from tests.test_disk_full import Quota, full_faults
from tests.test_faults import ORDERS_BOX, SEATS, UMPIRE, USERS, Rig

pytestmark = pytest.mark.skipif(bool(dovecot.missing()), reason=dovecot.missing() or "-")

MOD, PLAYER = "moderator@t.local", "kaiser@t.local"
ORDERS = "GAME g\nNATION Germany\nTURN 1\nPASSWORD pw\nMOVE 2 inf FROM Ruhr TO Cologne\nNOTE {n}\n"


@pytest.fixture(scope="module")
def server() -> Iterator[dovecot.Dovecot]:
    running = dovecot.start({MOD: "m", **USERS})  # the fault rig's users too (tests/test_faults.py)
    yield running
    running.stop()


@pytest.fixture()
def svc(server: dovecot.Dovecot, tmp_path: Path) -> Iterator[Service]:
    _empty(server, MOD)  # a clean mailbox for each test
    with EmbeddedMailServer(tmp_path / "smtp", users={PLAYER: "p", MOD: "m"}) as smtp:
        mail = MailConfig(imap=server.imap(MOD), smtp=smtp.client_config(MOD, "m").smtp, from_address=MOD,
                          moderator_address=MOD)
        service = Service(store=Store.at(tmp_path / "db"), mail=mail, say=lambda s: None)
        new_game(service, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        service.store.add_seat("g", "germany", PLAYER, "pw")
        yield service


def _empty(server: dovecot.Dovecot, address: str) -> None:
    with IMAPClient("127.0.0.1", port=server.port, ssl=False) as client:
        client.login(address, server.users[address])
        for folder in ("INBOX", "Processed", "Quarantine"):
            if client.folder_exists(folder):
                client.select_folder(folder)
                client.delete_messages(client.search(["ALL"]))
                client.expunge()


def _until(condition: Callable[[], bool], timeout: float = 60) -> bool:
    """Wait (up to `timeout` seconds) for `condition`; whether it came true."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def _append_and_wait(server: dovecot.Dovecot, svc: Service, note: str) -> str:
    """Deliver orders with NOTE `note` into the INBOX, wait until the daemon has taken them,
    and return the seat's current orders."""
    _append(server, ORDERS.format(n=note))
    _until(lambda: bool(svc.store.current_submissions("g", 1)))
    current = svc.store.current_submissions("g", 1)
    return current["germany"].text if "germany" in current else ""


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

        def polls_done() -> bool:  # the start-up polls
            job = daemon.scheduler.get_job("poll")
            return job is not None and job.next_run_time - datetime.now(UTC) > timedelta(minutes=30)

        _until(polls_done)
        assert "NOTE idle" in _append_and_wait(server, svc, "idle")
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
        _until(lambda: any("connected again" in line for line in console) and daemon.idling.is_set())
        assert any("IMAP IDLE" in line for line in console), console
        assert "NOTE after the kick" in _append_and_wait(server, svc, "after the kick")
    finally:
        daemon.stop()


def test_a_reset_in_the_middle_of_a_fetch_response_from_dovecot_loses_and_repeats_nothing(
        server: dovecot.Dovecot, svc: Service) -> None:
    """tests/test_connection_resets.py's case, Dovecot answering: an RST 2000 bytes into
    the FETCH of the bodies (tests/tcp_proxy.py)."""
    with TcpProxy(server.port) as proxy:
        svc.mail = proxied(svc.require_mail(), proxy)
        check_reset_mid_fetch(svc, proxy, lambda n: _append(server, resets.ORDERS.format(n=n)),
                              lambda: _count(server, "INBOX"))


def test_idle_reconnects_after_a_reset_under_dovecot_and_still_hears_new_mail(
        server: dovecot.Dovecot, svc: Service) -> None:
    """An RST under a waiting IDLE (not Dovecot's orderly BYE of `doveadm kick`)."""
    with TcpProxy(server.port) as proxy:
        svc.mail = proxied(svc.require_mail(), proxy)
        check_reset_during_idle(svc, proxy, lambda n: _append(server, resets.ORDERS.format(n=n)))


def test_a_full_disk_while_storing_mail_from_dovecot_loses_and_doubles_nothing(
        server: dovecot.Dovecot, svc: Service) -> None:
    """tests/test_disk_full.py's storing case, Dovecot serving: SQLite's own SQLITE_FULL."""
    console: list[str] = []
    svc.say = console.append
    quota = Quota(svc.store)
    daemon = Daemon(svc, deadline_seconds=3600, countdown_seconds=0)
    _append(server, disk_full.ORDERS)
    quota.fill()
    daemon.tick()
    assert full_faults(daemon) == ["mail poll"], console
    assert svc.store.messages(direction="in") == [] and _count(server, "INBOX") == 1
    quota.free()
    daemon.tick()
    [received] = svc.store.messages(direction="in")
    assert received.status == "processed" and "germany" in svc.store.current_submissions("g", 1)
    assert [m.status for m in svc.store.messages(direction="out")] == ["sent"]
    assert _count(server, "INBOX") == 0 and _count(server, "Processed") == 1


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
    assert _until(lambda: _count(server, "INBOX") == 60, 120), (mta.root / "maillog").read_text(errors="replace")[-2000:]
    outcomes = poll(svc)
    assert len(outcomes) == 60 and {o.status for o in outcomes} == {"processed"}
    # (Postfix's queue manager does deliver such a burst out of order now and then; this
    # holds either way.)
    assert "NOTE 59" in svc.store.current_submissions("g", 1)["germany"].text
    assert len(svc.store.messages(direction="out")) == 60 and poll(svc) == []


# ---- kill -9 against Dovecot and Postfix (the daemon as a subprocess: tests/test_faults.py's Rig)
# Order mail goes through Postfix's queue into Dovecot over LMTP; the daemon's receipts and
# reports go out through the same Postfix into the players' Dovecot mailboxes, where they
# are counted.


@dataclass
class RealServers:
    """Dovecot for IMAP, Postfix for SMTP: the rig's mail servers (test_faults.MailServers)."""

    dovecot: dovecot.Dovecot
    mta: postfix.Postfix

    @property
    def imap_port(self) -> int:
        return self.dovecot.port

    @property
    def smtp_port(self) -> int:
        return self.mta.port

    def client_config(self, address: str, password: str, moderator_address: str | None = None) -> MailConfig:
        return MailConfig(imap=self.dovecot.imap(address), smtp=ServerConfig("127.0.0.1", self.mta.port, timeout=10.0),
                          from_address=address, moderator_address=moderator_address or address)


@pytest.fixture()
def rig(server: dovecot.Dovecot, mta: postfix.Postfix, tmp_path: Path) -> Rig:
    for address in USERS:
        _empty(server, address)
    return Rig(tmp_path, RealServers(server, mta), deadline=datetime.now(UTC) + timedelta(days=3))


PER_SEAT = 4  # order mails from each of the rig's two seats


def _burst(rig: Rig, server: dovecot.Dovecot) -> int:
    """PER_SEAT order mails from each seat through Postfix, written a second apart; waits until
    Dovecot has them all. Returns how many."""
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    orders = {nation: rig.orders(nation, "mail {n}") for nation in SEATS}
    for n in range(PER_SEAT):
        for k, nation in enumerate(SEATS):
            rig.mail(nation, orders[nation].replace("{n}", str(n)), date=start + timedelta(seconds=2 * n + k))
    total = PER_SEAT * len(SEATS)
    assert _until(lambda: _count_of(server, ORDERS_BOX, "INBOX") == total, 120), "Postfix did not deliver the burst"
    return total


def _count_of(server: dovecot.Dovecot, address: str, folder: str) -> int:
    with IMAPClient("127.0.0.1", port=server.port, ssl=False) as client:
        client.login(address, server.users[address])
        return len(client.search(["ALL"])) if client.folder_exists(folder) and client.select_folder(folder) else 0


def _delivered(rig: Rig, addresses: list[str], expected: int) -> Counter[str]:
    """The Message-IDs in the addresses' Dovecot INBOXes, once Postfix has delivered
    `expected` of them (and a moment for any it would wrongly deliver twice)."""
    def count() -> Counter[str]:
        return Counter(str(m["Message-ID"]) for a in addresses for m in rig.inbox(a))

    _until(lambda: sum(count().values()) >= expected, 60)
    time.sleep(1.0)
    return count()


def _taken_once(rig: Rig, total: int, resent: int = 0, copies: int = 0) -> None:
    """Every order mail stored and handled once (`copies`: extra copies, recognised and
    refused, each with a reply saying so), one receipt each, delivered once (`resent`: the
    re-sends a crash between Postfix's 250 and our commit causes, with the same Message-ID),
    the last written counts."""
    store = rig.svc.store
    received = store.messages(direction="in")
    assert len(received) == total + copies and {m.status for m in received} == {"processed"}
    receipts = store.messages(direction="out")
    assert len(receipts) == total + copies and {m.status for m in receipts} == {"sent"}
    assert sum("Not accepted" in m.subject for m in receipts) == copies
    delivered = _delivered(rig, list(SEATS.values()), total + copies + resent)
    assert set(delivered) == {m.message_id for m in receipts}
    assert sum(delivered.values()) == total + copies + resent
    current = store.current_submissions("g", 1)
    assert all(f"NOTE mail {PER_SEAT - 1}" in current[n].text for n in SEATS), {n: current[n].text for n in SEATS}


def _all_in(rig: Rig, total: int) -> Callable[[], bool]:
    return lambda: len(rig.svc.store.messages(direction="in")) >= total and rig.settled()


def test_kill_9_mid_batch_against_dovecot(rig: Rig, server: dovecot.Dovecot) -> None:
    """Killed after some mails of a fetched batch were handled, before the batch was filed."""
    total = _burst(rig, server)
    rig.crash_then_finish("intake.handled@3", _all_in(rig, total))
    _taken_once(rig, total)


def test_kill_9_while_receipts_go_out_through_postfix(rig: Rig, server: dovecot.Dovecot) -> None:
    total = _burst(rig, server)
    rig.crash_then_finish("outbox.accepted@3", _all_in(rig, total))
    _taken_once(rig, total, resent=1)


def test_kill_9_while_postfix_is_unreachable_loses_no_receipt(rig: Rig, server: dovecot.Dovecot,
                                                               mta: postfix.Postfix) -> None:
    """SMTP down while receipts wait: they stay queued (retried with backoff, never dropped),
    the daemon is killed during the outage, and once SMTP is back every receipt goes out once."""
    total = _burst(rig, server)
    rig.configure(smtp_port=dovecot.free_port())  # nothing listens there
    store = rig.svc.store
    first = rig.daemon()
    try:
        assert _until(lambda: len(store.messages(direction="out")) == total
                      and all(m.attempts >= 1 for m in store.messages(direction="out")), 120)
    finally:
        first.kill()
        first.wait()
    assert {m.status for m in store.messages(direction="out")} == {"queued"}
    for row in store.messages(direction="out"):  # the backoff's pause has passed
        assert row.id is not None
        store.update_message(row.id, next_attempt=None)
    rig.configure(smtp_port=mta.port)
    rig.finish(_all_in(rig, total))
    _taken_once(rig, total)


def test_kill_9_mid_batch_then_a_uidvalidity_change_takes_each_mail_once(rig: Rig, server: dovecot.Dovecot) -> None:
    """Killed mid-batch; while it is down Dovecot renumbers the mailbox (`doveadm mailbox
    update --uid-validity`), and a copy of a handled mail comes back with a header added (a
    migration that rewrote it: other bytes, the same Message-ID). The restarted daemon knows
    the mails by their bytes and the copy by its Message-ID: nothing handled twice."""
    total = _burst(rig, server)

    def renumber_and_copy() -> None:
        handled = next(m for m in rig.svc.store.messages(direction="in") if m.status == "processed")
        with IMAPClient("127.0.0.1", port=server.port, ssl=False) as client:
            client.login(ORDERS_BOX, server.users[ORDERS_BOX])
            client.select_folder("INBOX")
            uid = next(u for u, data in client.fetch(client.search(["ALL"]), ["ENVELOPE"]).items()
                       if data[b"ENVELOPE"].message_id.decode() == handled.message_id)
            raw = client.fetch([uid], ["BODY.PEEK[]"])[uid][b"BODY[]"]
        server.doveadm("mailbox", "update", "-u", ORDERS_BOX, "--uid-validity", str(int(time.time()) + 7), "INBOX")
        with IMAPClient("127.0.0.1", port=server.port, ssl=False) as client:
            client.login(ORDERS_BOX, server.users[ORDERS_BOX])
            client.append("INBOX", b"X-Migrated: yes\r\n" + raw)

    rig.crash_then_finish("intake.handled@3", _all_in(rig, total + 1), between=renumber_and_copy)
    _taken_once(rig, total, copies=1)
    copy = rig.svc.store.messages(direction="in")[-1]
    assert "a copy of message" in copy.note


# The report building in the default suite; the kill at "deadline reached" (turn.computed) with -m slow.
@pytest.mark.parametrize("crash_at", [pytest.param("turn.computed", marks=pytest.mark.slow), "turn.reports-built"])
def test_kill_9_at_the_deadline_and_during_the_reports_against_dovecot(rig: Rig, crash_at: str) -> None:
    """The deadline passed while the daemon was down; it is killed when the deadline is reached
    (the turn computed, nothing stored) or while the reports are built. The restarted daemon
    resolves the turn once, with the state of an uninterrupted resolution, and every report
    reaches its Dovecot mailbox through Postfix once."""
    from moderator.service.inbox import take_orders
    from moderator.service.turns import compute, turn_inputs

    svc = rig.svc
    game = svc.game("g")
    for nation in SEATS:
        take_orders(svc, game, nation, rig.orders(nation, "by hand"))
    expected = compute(svc, game, 1, turn_inputs(svc, game, svc.ruleset(game))).sha256
    svc.store.update_game("g", deadline=datetime.now(UTC) - timedelta(seconds=1))

    def resolved() -> bool:
        g = svc.store.game("g")
        return g is not None and g.turn == 2 and rig.settled()

    rig.crash_then_finish(crash_at, resolved)
    records = svc.store.turn_records("g", 1)
    assert len(records) == 1 and records[0].result_sha256 == expected
    reports = svc.store.messages(direction="out")
    assert len(reports) == 3 * len(SEATS) + 1 and {m.status for m in reports} == {"sent"}
    delivered = _delivered(rig, [*SEATS.values(), UMPIRE], len(reports))
    assert set(delivered) == {m.message_id for m in reports} and max(delivered.values()) == 1
