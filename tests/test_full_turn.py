"""A player always gets the whole turn after the reports are out (issue 11).

The resolution sets the next deadline from its own moment, and the reports print it; when
they leave much later (in the demo, ~19 s of rendering in a 20-second turn: turn 2 then
resolved with no orders before anyone could answer), the deadline is counted again from
the moment they were sent and every seat is told (calendar.keep_full_turn). The demo's
--exit-after-turn resolves one turn only.

No timing asserts: the clock is a fake one, or the rendering is made slower than the
turn, so the deadline must move whatever the machine's speed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from PIL import Image

from moderator.service.calendar import keep_full_turn, move_deadline
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.turns import resolve_game
from moderator.store.db import Store
from tests.clock import Clock
from tests.test_service_turn_faults import _offline_mail

T0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
TURN = timedelta(seconds=20)


def _service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, short: bool) -> tuple[Service, Clock]:
    monkeypatch.setattr("moderator.service.turns.draw_view", lambda world, view, title: Image.new("RGB", (8, 8)))
    clock = Clock(T0)
    svc = Service(store=Store.at(tmp_path / "db"), mail=_offline_mail(), clock=clock, say=lambda _line: None,
                  next_deadline=(lambda now, _game: now + TURN) if short else None)
    new_game(svc, "g", deadline=T0 - timedelta(minutes=1), seed="fixed")
    svc.store.add_seat("g", "germany", "kaiser@t.local", "pw")
    svc.store.add_seat("g", "france", "poincare@t.local", "pw")
    resolve_game(svc, "g")
    return svc, clock


def _deadline(svc: Service) -> datetime:
    deadline = svc.game("g").deadline
    assert deadline is not None
    return deadline if deadline.tzinfo else deadline.replace(tzinfo=UTC)


def _notices(svc: Service) -> list[str]:
    return [m.subject for m in svc.store.messages(direction="out") if "now due" in m.subject]


def test_reports_sent_late_in_a_short_turn_move_the_deadline_and_tell_every_seat(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc, clock = _service(tmp_path, monkeypatch, short=True)
    assert _deadline(svc) == T0 + TURN  # as the reports print it
    clock.now = T0 + timedelta(seconds=19)  # the reports took 19 s to go out
    moved = keep_full_turn(svc, "g", 1)
    assert moved is not None and moved.after == clock.now + TURN
    assert _deadline(svc) == clock.now + TURN
    assert len(_notices(svc)) == 2  # both seats
    notice = next(m for m in svc.store.messages(direction="out") if "now due" in m.subject)
    assert b"to the second: 12:00:39 UTC" in notice.raw
    # old and new deadline fall in the same minute: the console line tells them apart by seconds
    assert "12:00:39 UTC (was Saturday 28 November 2026, 12:00:20 UTC)" in moved.summary, moved.summary
    assert keep_full_turn(svc, "g", 1) is None  # once: the deadline is no longer the resolution's


def test_reports_sent_at_once_leave_the_deadline_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc, clock = _service(tmp_path, monkeypatch, short=True)
    clock.now = T0 + timedelta(milliseconds=500)  # under 5 % of the turn: no mail to every seat
    assert keep_full_turn(svc, "g", 1) is None
    assert _deadline(svc) == T0 + TURN and _notices(svc) == []


def test_a_deadline_the_moderator_moved_stands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    svc, clock = _service(tmp_path, monkeypatch, short=True)
    move_deadline(svc, "g", T0 + timedelta(seconds=5), tell=False)
    clock.now = T0 + timedelta(seconds=4)
    assert keep_full_turn(svc, "g", 1) is None
    assert _deadline(svc) == T0 + timedelta(seconds=5)


def test_the_ten_day_cycle_moves_only_when_the_reports_leave_on_a_later_day(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Miscellaneous: the update is day one, orders due by the end of day ten. Reports sent the
    # same day change nothing; reports held back past midnight (SMTP down) start day one again.
    svc, clock = _service(tmp_path, monkeypatch, short=False)
    planned = _deadline(svc)
    assert planned == datetime(2026, 12, 7, 23, 59, 59, tzinfo=UTC)
    clock.now = T0 + timedelta(hours=11)
    assert keep_full_turn(svc, "g", 1) is None and _deadline(svc) == planned
    clock.now = T0 + timedelta(hours=13)  # 01:00 the next day
    moved = keep_full_turn(svc, "g", 1)
    assert moved is not None and _deadline(svc) == planned + timedelta(days=1)


@pytest.mark.slow
def test_the_demo_gives_turn_2_its_whole_turn_after_slow_reports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The demo over real mail (the embedded server), with the reports made slower than the
    turn: turn 2's deadline counts from when the reports were sent, the seats are told by
    mail, and --exit-after-turn stops after turn 1 (turn 2 was never resolved)."""
    import moderator.service.turns as turns
    from moderator.service.demo import SEATS, run_demo

    seconds = 3.0
    slow = 2 * seconds  # longer than the turn, whatever the machine's speed
    real = turns.build_all_reports

    def slow_reports(*args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(slow)
        return real(*args, **kwargs)

    monkeypatch.setattr(turns, "build_all_reports", slow_reports)
    root = tmp_path / "demo"
    assert run_demo(root, deadline_seconds=seconds, poll_seconds=1, exit_after_turn=True, ports=(0, 0)) == 0
    out = capsys.readouterr().out
    assert "resolved demo turn 1" in out and "turn 1 is done" in out
    assert "demo turn 2" not in out  # neither "deadline reached" nor "resolved" for turn 2
    store = Store.at(root / "moderator.db")
    record = store.turn_record("demo", 1)
    game = store.game("demo")
    assert record is not None and game is not None and store.turn_record("demo", 2) is None
    assert (game.turn, game.status) == (2, "open")
    resolved = record.resolved if record.resolved.tzinfo else record.resolved.replace(tzinfo=UTC)
    deadline = game.deadline if game.deadline.tzinfo else game.deadline.replace(tzinfo=UTC)  # type: ignore[union-attr]
    assert deadline >= resolved + timedelta(seconds=slow + seconds)  # the whole turn after the slow reports
    sent = [message_from_bytes(p.read_bytes(), policy=policy.default)
            for p in (root / "sent").iterdir() if p.suffix == ".eml"]
    told = {str(m["To"]) for m in sent if "turn 2 now due" in str(m["Subject"])}
    assert told == {f"{n}@demo.local" for n in SEATS}


class _Outbox:
    """The outbox faked (sending.py has its own outage tests): down until `up` is set."""

    def __init__(self) -> None:
        self.up = False

    def send(self, svc: Service) -> tuple[int, int]:
        queued = svc.store.messages(direction="out", status="queued")
        if not self.up:
            return 0, len(queued)
        for row in queued:
            assert row.id is not None
            svc.store.update_message(row.id, status="sent", sent=svc.clock())
        return len(queued), 0


def _outage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Clock, _Outbox, Callable[[], Service]]:
    """A game of one seat whose deadline has passed, an outbox that is down, and a way to open
    the service as a fresh process would (a new store on the same database)."""
    from moderator.service import daemon as daemon_module

    monkeypatch.setattr("moderator.service.turns.draw_view", lambda world, view, title: Image.new("RGB", (8, 8)))
    clock, outbox = Clock(T0), _Outbox()

    def service() -> Service:
        return Service(store=Store.at(tmp_path / "db"), mail=_offline_mail(), clock=clock, say=lambda _line: None,
                       next_deadline=lambda now, _game: now + TURN)

    svc = service()
    new_game(svc, "g", deadline=T0 - timedelta(minutes=1), seed="fixed")
    svc.store.add_seat("g", "germany", "kaiser@t.local", "pw")
    monkeypatch.setattr(daemon_module, "send_queued", outbox.send)
    return clock, outbox, service


def test_reports_held_back_by_an_smtp_outage_give_the_whole_turn_once_they_leave(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon counts the next deadline again when the turn's mail has really left the
    outbox, not when the send was first tried: down, then up again 15 s later in a 20-second turn."""
    from moderator.service.daemon import Daemon

    clock, outbox, service = _outage(tmp_path, monkeypatch)
    svc = service()
    daemon = Daemon(svc)
    daemon.deadline_job()  # resolves turn 1; its reports cannot leave
    assert svc.store.turn_record("g", 1) is not None and _deadline(svc) == T0 + TURN
    clock.now = T0 + timedelta(seconds=15)
    daemon.deadline_job()  # still down: the deadline is as the reports print it
    assert _deadline(svc) == T0 + TURN and _notices(svc) == []
    outbox.up = True
    daemon.deadline_job()  # the reports leave now: the whole turn from now, and the seat is told
    assert _deadline(svc) == clock.now + TURN
    assert len(_notices(svc)) == 1
    assert svc.store.messages(direction="out", status="queued") == []  # the notice left too


def test_a_daemon_restarted_during_the_outage_still_gives_the_whole_turn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turns whose reports are on their way are kept in the database, not in the daemon's
    memory: a daemon started again while SMTP is down moves the deadline once they leave."""
    from moderator.service.daemon import Daemon

    clock, outbox, service = _outage(tmp_path, monkeypatch)
    svc = service()
    Daemon(svc).deadline_job()  # resolves turn 1; its reports cannot leave; then the daemon stops
    assert svc.store.turn_record("g", 1) is not None and _deadline(svc) == T0 + TURN
    svc = service()
    restarted = Daemon(svc)
    clock.now = T0 + timedelta(seconds=15)
    restarted.deadline_job()  # still down
    assert _deadline(svc) == T0 + TURN and _notices(svc) == []
    outbox.up = True
    restarted.deadline_job()  # the reports leave now: the whole turn from now
    assert _deadline(svc) == clock.now + TURN
    assert len(_notices(svc)) == 1
    clock.now += timedelta(seconds=5)
    restarted.deadline_job()  # once only
    assert _deadline(svc) == T0 + timedelta(seconds=15) + TURN and len(_notices(svc)) == 1


def test_a_resolving_tick_looks_for_reports_out_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The look for turns whose reports have left (one query for every game's setting) runs
    once on a tick that resolves a turn and sends its reports, and the result is as before."""
    from moderator.service.daemon import Daemon

    clock, outbox, service = _outage(tmp_path, monkeypatch)
    outbox.up = True
    svc = service()
    daemon = Daemon(svc)
    looks = []
    real = daemon._keep_full_turns
    monkeypatch.setattr(daemon, "_keep_full_turns", lambda: (looks.append(1), real())[1])
    daemon.deadline_job()  # resolves turn 1 and sends its reports at once
    assert svc.store.turn_record("g", 1) is not None and len(looks) == 1
    assert _deadline(svc) == T0 + TURN and _notices(svc) == []  # sent at once: the deadline stands
    assert svc.store.settings_starting("reports-out:") == {"reports-out:g": ""}
    daemon.deadline_job()  # a quiet tick looks once too
    assert len(looks) == 2


def test_two_daemons_on_one_postgresql_database_move_the_deadline_once(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Several daemons on PostgreSQL (test_two_daemons.py): every one of them looks, at each
    deadline check, for a turn whose reports have all left (the setting reports-out:<game>).
    Two that see it at the same moment and both decide to give the whole turn (each waits for
    the other, up to 2 s, just before moving the deadline) move it once: one of them takes
    the setting, and the other finds it taken. Every seat is told once."""
    import contextlib
    import threading

    import moderator.service.calendar as calendar
    from moderator.service import daemon as daemon_module
    from moderator.service.daemon import Daemon

    monkeypatch.setattr("moderator.service.turns.draw_view", lambda world, view, title: Image.new("RGB", (8, 8)))
    monkeypatch.setattr(daemon_module, "send_queued", lambda svc: (0, 0))  # the outbox is not what is raced
    clock = Clock(T0)
    said: list[str] = []
    a, b = (Service(store=Store(postgres_url), mail=_offline_mail(), clock=clock, say=said.append, maps=False,
                    next_deadline=lambda now, _game: now + TURN) for _ in range(2))
    try:
        new_game(a, "g", deadline=T0 - timedelta(minutes=1), seed="fixed")
        a.store.add_seat("g", "germany", "kaiser@t.local", "pw")
        a.store.add_seat("g", "france", "poincare@t.local", "pw")
        resolve_game(a, "g")
        for row in a.store.messages(direction="out", status="queued"):  # the reports have left
            assert row.id is not None
            a.store.update_message(row.id, status="sent", sent=clock())
        a.store.set_setting("reports-out:g", "1")  # as the resolving daemon leaves it
        clock.now = T0 + timedelta(seconds=15)  # late in a 20-second turn: the deadline moves

        both = threading.Barrier(2, timeout=2)
        move = calendar.move_deadline

        def racing(*args, **kwargs):  # type: ignore[no-untyped-def]
            with contextlib.suppress(threading.BrokenBarrierError):
                both.wait()
            return move(*args, **kwargs)

        monkeypatch.setattr(calendar, "move_deadline", racing)
        failures: list[BaseException] = []

        def keep(daemon: Daemon) -> None:
            try:
                daemon._keep_full_turns()
            except BaseException as exc:  # noqa: BLE001 - shown by the assert below
                failures.append(exc)

        threads = [threading.Thread(target=keep, args=(Daemon(svc),)) for svc in (a, b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert not failures, failures
        assert _deadline(a) == clock.now + TURN
        assert len(_notices(a)) == 2, _notices(a)  # each seat told once
        assert len([line for line in said if "is now due" in line]) == 1, said
        assert a.store.setting("reports-out:g") == ""
    finally:
        a.store.engine.dispose()
        b.store.engine.dispose()
