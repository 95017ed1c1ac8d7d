"""The ten-day cycle at the moderator's desk (issue 12): a published turn corrected
(`moderator rollback`, then `resolve`: the corrected reports go out once, marked as
corrections, and `replay` shows the difference), the deadline moved (`moderator deadline`),
and the reminders 48 and 12 hours before it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.corrections import rollback
from moderator.service.entry import enter_orders
from moderator.service.games import new_game
from moderator.service.reminders import send_reminders
from moderator.service.sending import send_queued
from moderator.service.turns import replay, resolve_game
from moderator.store.db import Store
from tests.mailbox import messages
from tests.report_text import flat

MOD, KAISER, JOFFRE = "moderator@t.local", "kaiser@t.local", "joffre@t.local"


def _orders(tmp_path: Path, text: str, name: str = "orders.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _subjects(server: EmbeddedMailServer, address: str, password: str) -> list[str]:
    return [str(m["Subject"]) for m in messages(server.imap_port, address, password)]


# ---- rollback from the command line -------------------------------------------------------
def test_rollback_reopens_the_last_turn_and_resolve_publishes_the_correction(
        config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "Germany", "--email", "k@x.org"]) == 0
    assert main(["enter", "--game", "g1", "--nation", "Germany",
                 _orders(tmp_path, "MOVE 2 inf FROM Ruhr TO Cologne\nNOTE is the canal open?\n")]) == 0
    assert main(["resolve", "--game", "g1"]) == 0
    svc = Service(store=Store.at(tmp_path / "m.db"), say=lambda s: None)
    due = svc.game("g1").deadline
    [note] = svc.store.reviews("g1")
    capsys.readouterr()

    with pytest.raises(SystemExit, match="has not been resolved"):
        main(["rollback", "--game", "g1", "--turn", "2"])
    assert main(["rollback", "--game", "g1", "--turn", "1"]) == 0
    out = capsys.readouterr().out
    assert "turn 1 of g1 is open again for corrections" in out and "moderator resolve --game g1" in out
    game = svc.game("g1")
    assert (game.turn, game.status) == (1, "correcting")
    assert main(["game", "show", "g1"]) == 0
    assert "CORRECTING: turn 1" in capsys.readouterr().out

    # The correction: Germany's orders were misread; the moderator enters what was meant.
    assert main(["enter", "--game", "g1", "--nation", "Germany",
                 _orders(tmp_path, "MOVE 3 inf FROM Ruhr TO Cologne\n")]) == 0
    assert main(["adjust", "--game", "g1", "ADJUST SAVED OF Germany BY 5"]) == 0
    capsys.readouterr()
    assert main(["resolve", "--game", "g1"]) == 0
    out = capsys.readouterr().out
    assert "CORRECTION of the resolution on" in out and "1 review item of the first resolution withdrawn" in out
    game = svc.game("g1")
    assert (game.turn, game.status, game.deadline) == (2, "open", due)  # turn 2 keeps its deadline
    assert svc.store.review(note.id).status == "withdrawn"  # type: ignore[arg-type, union-attr]
    first, second = svc.store.turn_records("g1", 1)
    assert second.corrects == first.id
    report = (tmp_path / "reports" / "g1" / "turn-1" / "germany" / "report.txt").read_text()
    report = flat(report)  # the text part is wrapped at 78 characters
    assert "CORRECTION: turn 1 was resolved again after a correction. This report replaces the one sent on" in report

    assert main(["replay", "--game", "g1", "--turn", "1"]) == 0
    out = capsys.readouterr().out
    assert "identical" in out and "corrected: resolved first" in out and "orders changed for germany" in out
    assert "rulings changed" in out and "state DIFFERENT" in out
    with pytest.raises(SystemExit, match="was withdrawn"):
        main(["review", "approve", str(note.id)])  # withdrawn: nothing to decide


def test_rollback_can_be_cancelled_and_only_the_last_turn_reopens(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1"]) == 0
    assert main(["resolve", "--game", "g1"]) == 0
    assert main(["resolve", "--game", "g1"]) == 0
    with pytest.raises(SystemExit, match=r"only the last resolved turn \(2\)"):
        main(["rollback", "--game", "g1", "--turn", "1"])
    assert main(["rollback", "--game", "g1", "--turn", "2"]) == 0
    with pytest.raises(SystemExit, match="open for corrections already"):
        main(["rollback", "--game", "g1", "--turn", "2"])
    assert main(["rollback", "--game", "g1", "--cancel"]) == 0
    assert "back at turn 3" in capsys.readouterr().out


# ---- the corrected reports by mail: once, marked ------------------------------------------------
@pytest.fixture()
def mailed(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service]]:
    users = {MOD: "m", KAISER: "k", JOFFRE: "j"}
    with EmbeddedMailServer(tmp_path / "mail", users=users) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(MOD, "m"), say=lambda s: None)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", KAISER, "pw")
        svc.store.add_seat("g", "france", JOFFRE, "pw")
        yield server, svc


def test_the_corrected_reports_go_out_once_marked_as_corrections(mailed: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = mailed
    enter_orders(svc, "g", "germany", "MOVE 2 inf FROM Ruhr TO Cologne\n")
    resolve_game(svc, "g")
    send_queued(svc)
    first = _subjects(server, KAISER, "k")  # a receipt and the reports of turn 1
    rollback(svc, "g", 1)
    enter_orders(svc, "g", "germany", "MOVE 1 inf FROM Ruhr TO Cologne\n")  # a new receipt
    resolve_game(svc, "g")
    sent, failed = send_queued(svc)
    assert sent > 0 and failed == 0
    assert send_queued(svc) == (0, 0)  # each mail goes out once
    new = _subjects(server, KAISER, "k")[len(first):]
    corrected = [s for s in new if s.startswith("CORRECTION: ")]
    assert len(new) == len(corrected) + 1 and len(corrected) == len(first) - 1 >= 2, (first, new)
    assert all(s.removeprefix("CORRECTION: ") in first for s in corrected), (first, corrected)
    moderator = _subjects(server, MOD, "m")
    assert sum("resolved again (moderator's copy)" in s for s in moderator) == 1
    ok, detail = replay(svc, "g", 1)
    assert ok and "orders changed for germany" in detail


# ---- reminders 48 and 12 hours before, and a deadline moved ---------------------------------------
def test_reminders_go_48_and_12_hours_before_the_deadline_once_each(mailed: tuple[EmbeddedMailServer, Service]) -> None:
    _server, svc = mailed
    due = datetime(2027, 1, 10, 23, 59, 59, tzinfo=UTC)
    svc.store.update_game("g", deadline=due)
    enter_orders(svc, "g", "germany", "MOVE 2 inf FROM Ruhr TO Cologne\n")
    sent: list[int] = []
    for hours_left in (60, 47, 30, 13, 11.5, 11, 1):
        svc.clock = lambda h=hours_left: due - timedelta(hours=h)  # type: ignore[misc]
        sent.append(send_reminders(svc))
    assert sent == [0, 1, 0, 0, 1, 0, 0]  # France only (Germany's orders are in), at 48 h and at 12 h
    reminders = [m for m in svc.store.messages(direction="out") if m.recipients == JOFFRE]
    assert len(reminders) == 2 and all(b"no orders from French Empire" in m.raw for m in reminders)


def test_a_daemon_down_at_48_hours_sends_only_the_reminder_due(mailed: tuple[EmbeddedMailServer, Service]) -> None:
    _server, svc = mailed
    due = datetime(2027, 1, 10, 23, 59, 59, tzinfo=UTC)
    svc.store.update_game("g", deadline=due)
    svc.clock = lambda: due - timedelta(hours=6)
    assert send_reminders(svc) == 2  # both seats, once: the 12-hour reminder
    assert send_reminders(svc) == 0


def test_moderator_deadline_extends_tells_the_seats_and_rearms_the_reminders(
        mailed: tuple[EmbeddedMailServer, Service], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _server, svc = mailed
    due = datetime.now(UTC) + timedelta(hours=10)
    svc.store.update_game("g", deadline=due)
    assert send_reminders(svc) == 2
    cfg = tmp_path / "moderator.toml"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "db"}"\n', encoding="utf-8")
    assert main(["deadline", "--game", "g", "--extend", "2d", "--config", str(cfg)]) == 0
    out = capsys.readouterr().out
    game = svc.game("g")
    assert game.deadline == due + timedelta(days=2)
    assert "turn 1 of g is now due" in out and "no mail settings, so tell the players yourself" in out
    assert send_reminders(svc) == 0  # 58 hours left: no reminder is due yet
    svc.clock = lambda: due + timedelta(days=2) - timedelta(hours=40)
    assert send_reminders(svc) == 2  # the 48-hour reminder, for the new deadline

    # With mail settings (the service's own), every seat is told.
    from moderator.service.calendar import move_deadline

    moved = move_deadline(svc, "g", due + timedelta(days=3))
    assert moved.told == 2
    told = [m for m in svc.store.messages(direction="out") if b"has moved" in m.raw]
    assert sorted(m.recipients for m in told) == [JOFFRE, KAISER]
    with pytest.raises(SystemExit, match="not a duration"):
        main(["deadline", "--game", "g", "--extend", "two days", "--config", str(cfg)])
    with pytest.raises(SystemExit, match="past already"):
        main(["deadline", "--game", "g", "--set", "2020-01-01T00:00:00", "--config", str(cfg)])
