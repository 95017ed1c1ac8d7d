"""Mail read ahead in worker processes (service/read_ahead.py; issue 11, intake throughput):
a worker's reading is the one the polling thread makes, so handling gives the same outcomes,
orders and receipts with or without workers; the pool degrades to the thread when it cannot
start or breaks, and its workers do not outlive a daemon killed with -9."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, wait
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from pathlib import Path

import pytest
from sqlalchemy import text

import moderator.service.inbox as inbox
from moderator.mail.config import MailConfig, ServerConfig
from moderator.service import read_ahead
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.read_ahead import ReadAhead, read
from moderator.store.db import Incoming, Store

MOD = "moderator@t.local"
SEATS = {"germany": ("kaiser@t.local", "MOVE 2 inf FROM Ruhr TO Cologne"),
         "france": ("joffre@t.local", "MOVE 2 inf FROM Paris TO Picardy"),
         "austria-hungary": ("conrad@t.local", "BUILD 1 inf AT Vienna")}
NOW = datetime(2026, 11, 29, 6, 0, tzinfo=UTC)


def _mail(n: int, nation: str, body: str | None = None, subject: str = "Orders", html: bool = False) -> bytes:
    address, order = SEATS[nation]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address, MOD, subject
    msg["Message-ID"] = f"<ahead-{n}-{nation}@t.local>"
    msg["Date"] = "Sun, 29 Nov 2026 05:50:00 +0000"
    content = body or f"Hello,\n\nGAME g\nNATION {nation}\nTURN 1\nPASSWORD pw\n{order}\nNOTE mail {n}\n\nThanks!\n"
    if html:
        msg.set_content("<html><body>" + content.replace("\n", "<br>") + "</body></html>", subtype="html")
    else:
        msg.set_content(content)
    return bytes(msg)


def _mails() -> list[bytes]:
    """Order mails of every seat, and the other kinds handling reads: CHECK only, a proxy's
    orders, an HTML-only mail, a wrong password, talk and no orders, unreadable lines."""
    raws = [_mail(n, nation) for n in range(4) for nation in SEATS]
    raws += [_mail(20, "germany", subject="CHECK my orders"),
             _mail(21, "germany", body="GAME g\nNATION germany\nTURN 1\nPASSWORD pw\nPROXY FOR Austria-Hungary\n"
                                       "MOVE 2 inf FROM Vienna TO Bohemia\n"),
             _mail(22, "france", html=True),
             _mail(23, "france", body="GAME g\nNATION france\nTURN 1\nPASSWORD wrong\nMOVE 2 inf FROM Paris TO Picardy\n"),
             _mail(24, "france", body="Hi there, how are you?\n"),
             _mail(25, "germany", body="GAME g\nNATION germany\nTURN 1\nPASSWORD pw\nMOVVE 2 inf FROM Ruhr TO Cologne\n"
                                       "MOVE 2 inf, 1 art FROM Ruhr TO Nowhere\n")]
    return raws


@pytest.fixture(scope="module")
def pool() -> Iterator[ReadAhead]:
    ahead = ReadAhead(1)
    yield ahead
    ahead.close()


def _read_by_workers(ahead: ReadAhead, raws: list[bytes]) -> None:
    """Start the batch and wait until every reading is done (so none is taken back)."""
    ahead.start(raws)
    wait(list(ahead._pending.values()), timeout=600)


def test_a_workers_reading_is_the_threads(pool: ReadAhead) -> None:
    raws = _mails()
    _read_by_workers(pool, raws)
    taken = pool.taken
    for raw in raws:
        assert pool.take(raw) == read(raw)
    assert pool.taken - taken == len(raws)
    assert pool.take(raws[0]) is None  # taken once: then read in the thread


def _service(path: Path) -> Service:
    nowhere = ServerConfig("127.0.0.1", 9)
    svc = Service(store=Store.at(path), say=lambda s: None, clock=lambda: NOW,
                  mail=MailConfig(imap=nowhere, smtp=nowhere, from_address=MOD, moderator_address=MOD))
    new_game(svc, "g", deadline=NOW + timedelta(days=3))
    for nation, (address, _) in SEATS.items():
        svc.store.add_seat("g", nation, address, "pw")
    return svc


def _handled(svc: Service, raws: list[bytes]) -> tuple[list[tuple[str, str]], list[tuple[object, ...]]]:
    """The batch stored and handled as poll() does; the outcomes, and what the database holds
    of the mails, the submissions and the outbox (less what differs by run: ids and times)."""
    with svc.store.transaction():
        stored = svc.store.store_incoming_batch([Incoming(raw, uid, 7, NOW) for uid, raw in enumerate(raws, 1)],
                                                NOW, inbox.CLAIM_LEASE)
    fresh, outcomes = [row_id for row_id, new in stored if new], []
    while fresh:
        done, fresh = inbox.handle_group(svc, fresh)
        outcomes += done
    with svc.store.engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(text(
            "SELECT status, note, sender, subject, raw FROM mailmessage WHERE direction = 'in' ORDER BY id"))]
        rows += [tuple(r) for r in conn.execute(text(
            "SELECT nation, text, normalized, diagnostics, current FROM submission ORDER BY id"))]
        for *fields, raw in conn.execute(text(
                "SELECT kind, recipients, subject, status, raw FROM mailmessage WHERE direction = 'out' ORDER BY id")):
            body = message_from_bytes(raw, policy=default).get_body(("plain",))
            rows.append((*fields, body.get_content() if body is not None else ""))  # (not the MIME boundaries)
    return [(o.status, o.summary) for o in outcomes], rows


def test_handling_gives_the_same_with_readings_from_workers(tmp_path: Path, pool: ReadAhead,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inbox, "GROUP_SECONDS", 3600.0)
    raws = _mails()
    alone = _handled(_service(tmp_path / "alone"), raws)
    helped = _service(tmp_path / "helped")
    helped.read_ahead = pool
    _read_by_workers(pool, raws)
    taken = pool.taken
    assert _handled(helped, raws) == alone
    assert pool.taken - taken == len(raws)  # every mail's reading was a worker's
    assert [status for status, _ in alone[0]] == ["processed"] * len(raws)


def _outbox(svc: Service) -> list[bytes]:
    """The outgoing mail's bytes, in the order queued."""
    with svc.store.engine.connect() as conn:
        return [r[0] for r in conn.execute(text("SELECT raw FROM mailmessage WHERE direction = 'out' ORDER BY id"))]


def _alone_and_helped(tmp_path: Path, pool: ReadAhead, monkeypatch: pytest.MonkeyPatch, raws: list[bytes],
                      make: Callable[[Path], Service] = _service,
                      ) -> tuple[Service, tuple[list[tuple[str, str]], list[tuple[object, ...]]], Service]:
    """The batch handled by the thread alone, on a service of its own, and a second service
    given the pool with the batch read ahead (every reading done, none taken yet): (the
    first service, its handling, the second service)."""
    _numbered_ids(monkeypatch)
    alone_svc = make(tmp_path / "alone")
    alone = _handled(alone_svc, raws)
    _numbered_ids(monkeypatch)
    helped = make(tmp_path / "helped")
    helped.read_ahead = pool
    pool.start(raws, lambda: inbox._positions(helped))
    wait(list(pool._pending.values()), timeout=600)
    return alone_svc, alone, helped


def _numbered_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Message-IDs numbered from 1 (the only part of our mail that is drawn by chance)."""
    import itertools

    import moderator.mail.compose as composing

    numbers = itertools.count(1)
    monkeypatch.setattr(composing, "make_msgid", lambda domain=None: f"<{next(numbers)}@{domain}>")


def _checked_mails() -> list[bytes]:
    """_mails(), and a seat's mail written before the ones in (its orders do not stand: the
    receipt that says so is the thread's own), and one naming no game (the only one)."""
    late = _mail(26, "france").replace(b"05:50:00", b"05:40:00")
    assert late != _mail(26, "france")
    return [*_mails(), late, _mail(27, "austria-hungary", body="NATION Austria-Hungary\nPASSWORD pw\n"
                                                               "BUILD 1 inf AT Vienna\n")]


def test_checks_and_receipts_from_workers_are_the_threads_to_the_byte(tmp_path: Path, pool: ReadAhead,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Given the game's position, a worker checks each seat's orders and writes the receipt for
    the likely answer to "replaced?"; the thread takes them (writing the receipt itself when the
    guess was wrong), and every outcome, row, submission and outgoing mail is the same, byte for
    byte, as the thread's own."""
    monkeypatch.setattr(inbox, "GROUP_SECONDS", 3600.0)
    raws = _checked_mails()
    alone_svc, alone, helped = _alone_and_helped(tmp_path, pool, monkeypatch, raws)
    readings = {raw: future.result() for raw, future in pool._pending.items()}
    taken, checks, redone = pool.taken, pool.checks_taken, pool.receipts_redone
    assert _handled(helped, raws) == alone
    assert _outbox(helped) == _outbox(alone_svc)
    assert pool.taken - taken == len(raws)
    # No seat's orders were in at the batch's start, so the workers wrote each receipt as for
    # first orders; a seat's later mails replace its first: the thread wrote those receipts
    # (3 more mails of each seat, the HTML one, the unreadable lines, the one naming no game;
    # the one written before the orders in is the thread's anyway: its receipt says they stand)
    assert pool.receipts_redone - redone == 3 * len(SEATS) + 3
    # every seat's own orders with the right password were checked by the worker: the CHECK,
    # the HTML one and the one whose orders do not stand too (its receipt is the thread's)
    accepted = [o for o in alone[0] if o[1].startswith(("receipt", "check"))]
    assert pool.checks_taken - checks == len(accepted) == 17
    assert readings[raws[13]].prepared is None  # a proxy's orders: checked in the thread
    assert readings[raws[16]].prepared is None  # no orders: nothing to check


def test_each_open_game_is_offered_its_own_position(tmp_path: Path, pool: ReadAhead,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games open, a batch with mail for both: each mail is checked by a worker on its own
    game's position, with the same receipts as the thread's own."""
    monkeypatch.setattr(inbox, "GROUP_SECONDS", 3600.0)

    def two_games(path: Path) -> Service:
        svc = _service(path)
        new_game(svc, "h", deadline=NOW + timedelta(days=2))
        for nation, (address, _) in SEATS.items():
            svc.store.add_seat("h", nation, address, "pw")
        return svc

    raws = [_mail(n, nation, body=f"GAME {game}\nNATION {nation}\nTURN 1\nPASSWORD pw\n{order}\n")
            for n, game in ((1, "g"), (2, "h"), (3, "H"), (4, "g")) for nation, (_, order) in SEATS.items()]
    alone_svc, alone, helped = _alone_and_helped(tmp_path, pool, monkeypatch, raws, two_games)
    checks = pool.checks_taken
    assert _handled(helped, raws) == alone
    assert _outbox(helped) == _outbox(alone_svc)
    assert pool.checks_taken - checks == len(raws)
    from moderator.service.games import describe_deadline

    bodies = [raw.decode() for raw in _outbox(helped)]
    for days, count in ((3, 6), (2, 6)):  # each game's receipts with its own deadline
        assert sum(describe_deadline(NOW + timedelta(days=days)) in body for body in bodies) == count


def test_a_position_changed_mid_batch_leaves_the_check_to_the_thread(tmp_path: Path, pool: ReadAhead,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers checked the batch on the position at its start; then the moderator gave a
    ruling for the turn (or the turn was resolved): every check is stale, the thread checks
    each mail itself, and the receipts say what the thread alone says."""
    monkeypatch.setattr(inbox, "GROUP_SECONDS", 3600.0)
    raws = [_mail(n, nation) for n in range(2) for nation in SEATS]
    ruling = "REMOVE ALL OF Germany AT Ruhr"
    _numbered_ids(monkeypatch)
    alone_svc = _service(tmp_path / "alone")
    alone_svc.store.add_rulings("g", 1, [ruling], applies="now", source="test")
    alone = _handled(alone_svc, raws)
    assert "1 error" in alone[0][0][1]  # Germany's MOVE: no units at Ruhr any more
    _numbered_ids(monkeypatch)
    helped = _service(tmp_path / "helped")
    helped.read_ahead = pool
    pool.start(raws, lambda: inbox._positions(helped))
    wait(list(pool._pending.values()), timeout=600)
    helped.store.add_rulings("g", 1, [ruling], applies="now", source="test")
    taken, checks, redone = pool.taken, pool.checks_taken, pool.checks_redone
    assert _handled(helped, raws) == alone
    assert _outbox(helped) == _outbox(alone_svc)
    assert (pool.taken - taken, pool.checks_taken - checks, pool.checks_redone - redone) == (6, 0, 6)


def test_a_check_a_worker_cannot_make_is_left_to_the_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """read() as a worker runs it: with the position offered, the reading carries the check;
    with its file gone (the thread moved on), for a game not offered, or when the check
    raises, it is the plain reading and the thread checks the mail itself."""
    svc = _service(tmp_path / "db")
    ahead = ReadAhead(1)
    try:
        ((at, state, replacing),) = inbox._positions(svc)
        assert replacing == frozenset()  # no seat's orders in yet
        offer = ahead._offer(at, state, replacing)
        raw = _mail(1, "germany")
        read_ahead._positions.clear()  # (this process is the worker here)
        prepared = read(raw, (offer,)).prepared
        assert prepared is not None and prepared.nation == "germany" and prepared.basis == at
        assert read_ahead.still_holds(svc, prepared, svc.game("g"), "germany")
        assert not read_ahead.still_holds(svc, prepared, svc.game("g"), "france")
        assert read(raw, (offer,)) == read(raw, (offer,))  # the position kept: read once
        assert not prepared.replaced and b"replaces" not in prepared.receipt.text.encode()
        # Germany's orders in at the batch's start: the receipt written says they are replaced
        # (and a CHECK's never: it stores nothing)
        guessed = read(raw, (dataclasses.replace(offer, replacing=frozenset({"germany"})),)).prepared
        assert guessed is not None and guessed.replaced and guessed.seat == prepared.seat
        assert guessed.receipt != prepared.receipt
        check = read(_mail(2, "germany", subject="CHECK"), (dataclasses.replace(offer, replacing=frozenset({"germany"})),))
        assert check.prepared is not None and not check.prepared.replaced
        read_ahead._positions.clear()
        os.unlink(offer.path)
        assert read(raw, (offer,)) == read(raw)
        other = read_ahead.Offer(dataclasses.replace(at, game="h"), offer.path)
        assert read(raw, (other, other)).prepared is None
        monkeypatch.setattr(read_ahead, "check_seat", lambda *_: 1 / 0)
        assert read(raw, (offer,)) == read(raw)
    finally:
        ahead.close()
        read_ahead._positions.clear()
    assert ahead._folder is None and not Path(offer.path).parent.exists()


def test_positions_that_cannot_be_had_leave_the_checks_to_the_thread(pool: ReadAhead) -> None:
    """The open games' positions cannot be had (a ruling that fails to apply, a full disk):
    the workers still read the batch, the pool is kept, and the thread checks the mails."""
    raws = _mails()[:read_ahead.FEWEST]
    pool.start(raws, lambda: [1 / 0])  # type: ignore[list-item]
    assert not pool._given_up
    wait(list(pool._pending.values()), timeout=600)
    assert [pool.take(raw) for raw in raws] == [read(raw) for raw in raws]


def test_without_a_pool_the_thread_reads_everything(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No processes to be had (the pool cannot start): the batch is read in the thread, with
    the same outcomes, and no pool is tried again."""
    def no_pool(*_: object, **__: object) -> None:
        raise OSError("no processes here")

    monkeypatch.setattr(read_ahead, "ProcessPoolExecutor", no_pool)
    monkeypatch.setattr(inbox, "GROUP_SECONDS", 3600.0)
    raws = _mails()
    ahead = ReadAhead(2)
    ahead.start(raws)
    assert ahead._given_up and not ahead._pending
    svc = _service(tmp_path / "db")
    svc.read_ahead = ahead
    outcomes, _ = _handled(svc, raws)
    assert ahead.taken == 0 and [s for s, _ in outcomes] == ["processed"] * len(raws)
    assert _handled(_service(tmp_path / "alone"), raws)[0] == outcomes
    assert ReadAhead(0)._given_up  # none configured: never started


def test_a_pool_starting_removes_the_folders_of_processes_that_died(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11: a daemon killed with its workers at once leaves its positions' folder behind;
    the next pool to start removes the folders whose owner process is gone, and no other."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(read_ahead, "ProcessPoolExecutor", lambda *_, **__: 1 / 0)  # the removal comes first
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale, alive, other = (tmp_path / f"moderator-positions-{gone.pid}-x1", tmp_path / f"moderator-positions-{os.getpid()}-x2",
                           tmp_path / "moderator-positions-x3")
    for folder in (stale, alive, other):
        folder.mkdir()
        (folder / "p.pickle").write_bytes(b"position")
    ReadAhead(1).start(_mails()[:read_ahead.FEWEST])
    assert not stale.exists() and alive.exists() and other.exists()


def test_a_worker_killed_leaves_the_batch_to_the_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker dies (the kernel's OOM killer, an operator): the pool is broken, every mail
    of the batch is still handled once, read in the thread."""
    monkeypatch.setattr(inbox, "GROUP_SECONDS", 3600.0)
    raws = _mails()
    ahead = ReadAhead(1)
    try:
        _read_by_workers(ahead, raws[:read_ahead.FEWEST])  # the pool started, its worker up
        assert ahead.take(raws[0]) is not None
        ahead.start(raws)
        for pid in list(ahead._pool._processes):  # type: ignore[union-attr]
            os.kill(pid, signal.SIGKILL)
        svc = _service(tmp_path / "db")
        svc.read_ahead = ahead
        outcomes, _ = _handled(svc, raws)
        assert [s for s, _ in outcomes] == ["processed"] * len(raws)
        assert _handled(_service(tmp_path / "alone"), raws)[0] == outcomes
        assert ahead._given_up and ahead._pool is None
    finally:
        ahead.close()


def test_a_worker_that_never_answers_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reading begun (running) that never comes: after LONGEST_WAIT the thread reads the
    mail itself and the pool is not used again."""
    monkeypatch.setattr(read_ahead, "LONGEST_WAIT", 0.05)
    ahead = ReadAhead(1)
    stuck: Future[read_ahead.Reading] = Future()
    assert stuck.set_running_or_notify_cancel()  # begun: cannot be taken back
    ahead._pending[b"raw"] = stuck
    assert ahead.take(b"raw") is None and ahead._given_up
    ahead.start(_mails())
    assert not ahead._pending and ahead._pool is None


_DAEMON = """
import sys, time
from moderator.service.read_ahead import ReadAhead
ahead = ReadAhead(1)
ahead.start([b"Subject: x\\r\\n\\r\\nhello\\r\\n"] * 4)
ahead.worker_cpu_seconds()
print(*ahead._pool._processes, flush=True)
time.sleep(600)
"""


_CHECKING_DAEMON = """
import sys, time
from concurrent.futures import wait
from pathlib import Path
sys.path.insert(0, sys.argv[2])
import test_read_ahead as t
from moderator.service import inbox
from moderator.service.read_ahead import ReadAhead
svc = t._service(Path(sys.argv[1]))
ahead = svc.read_ahead = ReadAhead(1)
raws = [t._mail(n, "germany") for n in range(4)]
ahead.start(raws, lambda: inbox._positions(svc))
wait(list(ahead._pending.values()))
assert all(ahead.take(raw).prepared is not None for raw in raws)
print(ahead._folder, *ahead._pool._processes, flush=True)
time.sleep(600)
"""


@pytest.mark.parametrize("script", [_DAEMON, _CHECKING_DAEMON], ids=["reading", "checking"])
def test_the_workers_leave_when_the_daemon_is_killed(script: str, tmp_path: Path) -> None:
    """... and remove the positions the daemon offered them (it cannot any more)."""
    daemon = subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "db"), str(Path(__file__).parent)], stdout=subprocess.PIPE, text=True)
    try:
        assert daemon.stdout is not None
        printed = daemon.stdout.readline().split()
        folder = Path(printed.pop(0)) if script == _CHECKING_DAEMON else None
        workers = [int(pid) for pid in printed]
        assert workers
        assert folder is None or any(folder.iterdir())
    finally:
        daemon.kill()  # SIGKILL: no atexit, no pool shutdown
        daemon.wait()
    deadline = time.monotonic() + 120  # the watch looks every second; a loaded machine is slow
    while any(Path(f"/proc/{pid}").exists() and "Z" not in _state(pid) for pid in workers):
        assert time.monotonic() < deadline, f"workers {workers} outlived their daemon"
        time.sleep(0.2)
    assert folder is None or not folder.exists()


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return "Z"


def test_a_checks_stored_problems_are_the_diagnostics_as_dicts(tmp_path: Path) -> None:
    """check_seat stores each problem as dataclasses.asdict would (the same keys, in order)."""
    from moderator.orders.parser import parse_orders
    from moderator.service.receipts import check_seat

    svc = _service(tmp_path / "db")
    game = svc.game("g")
    text = "MOVVE 2 inf FROM Ruhr TO Cologne\nMOVE 2 inf, 1 art FROM Ruhr TO Nowhere\n"
    parsed = parse_orders(text)
    seat = check_seat(parsed, text, "germany", svc.checking_position(game), svc.world(game), svc.scenario(game),
                      svc.ruleset(game))
    assert len(seat.diagnostics) >= 2
    from moderator.orders import check

    checked = check(parsed.orders, "germany", svc.checking_position(game), svc.world(game), svc.scenario(game),
                    svc.ruleset(game))
    wanted = [dataclasses.asdict(d) for d in [*parsed.diagnostics, *checked.diagnostics]]
    assert [list(d.items()) for d in seat.diagnostics] == [list(d.items()) for d in wanted]
