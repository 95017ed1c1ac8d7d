"""A turn and its reports are one unit of work (issue 11): either the new turn, its
snapshot, its record and every queued report exist, or the turn is still open, the
failure is visible (game show, console, review item, mail to the moderator) and retried.
One audience's report failing never holds up the others. The outbox keeps what it cannot
send and retries it with backoff; the daemon resolves a deadline missed while it was
down, once, and a second daemon on the same database refuses to start."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from moderator.mail.config import MailConfig, ServerConfig
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.store.db import AlreadyRunning, Store

MOD = "moderator@t.local"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _offline_mail(port: int | None = None) -> MailConfig:
    port = port or _closed_port()
    return MailConfig(imap=ServerConfig("127.0.0.1", port, user="m", timeout=2),
                      smtp=ServerConfig("127.0.0.1", port, timeout=2), from_address=MOD, moderator_address=MOD)


@pytest.fixture()
def svc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Service:
    # The maps take most of a resolution's time and are not what these tests are about.
    monkeypatch.setattr("moderator.service.turns.draw_view", lambda world, view, title: Image.new("RGB", (8, 8)))
    console: list[str] = []
    svc = Service(store=Store.at(tmp_path / "db"), mail=_offline_mail(), say=console.append)
    svc.console = console  # type: ignore[attr-defined]
    new_game(svc, "g", deadline=datetime.now(UTC) - timedelta(minutes=1), seed="fixed")
    svc.store.add_seat("g", "germany", "kaiser@t.local", "pw")
    svc.store.add_seat("g", "france", "poincare@t.local", "pw")
    return svc


def _subjects(svc: Service) -> list[str]:
    return [m.subject for m in svc.store.messages(direction="out")]


def _failing(monkeypatch: pytest.MonkeyPatch, name: str, when: Any, error: Exception) -> None:
    """reports/build.py's maker of one kind of report raises for the audiences `when` picks."""
    import moderator.reports.build as build

    real = getattr(build, name)

    def make(*args: Any, **kwargs: Any) -> Any:
        if when(*args):
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(build, name, make)


def test_a_report_that_cannot_be_built_for_one_audience_does_not_hold_up_the_others(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    from moderator import service

    _failing(monkeypatch, "_nation_part", lambda *a: a[5] == "france", KeyError("a template choked on France's events"))
    service.turns.resolve_game(svc, "g")
    game = svc.store.game("g")
    assert game is not None and game.turn == 2 and game.problem == ""
    out = sorted((m.recipients, m.subject) for m in svc.store.messages(direction="out"))
    to_kaiser = [s for r, s in out if r == "kaiser@t.local"]
    assert any("report for German Empire" in s for s in to_kaiser) and any("Central Powers" in s for s in to_kaiser)
    to_france = [s for r, s in out if r == "poincare@t.local"]  # its alliance's status and the news still go
    assert not any("report for" in s for s in to_france)
    assert any("Allied Powers" in s for s in to_france) and any("public bulletin" in s for s in to_france)
    [failed] = [r for r in svc.store.reviews("g") if r.kind == "report-failed"]
    assert failed.nation == "france" and "KeyError" in failed.detail
    assert any("reports missing for 1 audience" in s for s in _subjects(svc))
    assert any("(moderator's copy)" in s for s in _subjects(svc))


@pytest.mark.parametrize(("name", "audience", "subject", "said"), [
    ("_bulletin_part", "public", "public bulletin", "the public bulletin could not be built"),
    ("_alliance_part", "alliance:central", "Central Powers", "the report for alliance:central could not be built"),
])
def test_the_bulletin_or_an_alliance_status_failing_blocks_no_nations_report(
        svc: Service, monkeypatch: pytest.MonkeyPatch, name: str, audience: str, subject: str, said: str) -> None:
    from moderator import service

    _failing(monkeypatch, name, lambda *a: name == "_bulletin_part" or a[5] == "central", ValueError("choked"))
    service.turns.resolve_game(svc, "g")
    out = sorted((m.recipients, m.subject) for m in svc.store.messages(direction="out"))
    for address, nation in (("kaiser@t.local", "German Empire"), ("poincare@t.local", "French Empire")):
        assert any(r == address and f"report for {nation}" in s for r, s in out), out
    assert not any(subject in s for _, s in out if "moderator" not in s)
    [failed] = [r for r in svc.store.reviews("g") if r.kind == "report-failed"]
    assert failed.nation is None and failed.detail.startswith(f"{audience}: ValueError") and said in failed.summary


def test_a_map_that_cannot_be_drawn_leaves_its_report_to_go_without_it(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    from moderator import service

    def draw(world: Any, view: Any, title: str) -> Image.Image:
        if "French" in title:
            raise MemoryError("the French map")
        return Image.new("RGB", (8, 8))

    monkeypatch.setattr("moderator.service.turns.draw_view", draw)
    service.turns.resolve_game(svc, "g")
    mails = {m.subject: m for m in svc.store.messages(direction="out") if m.recipients == "poincare@t.local"}
    [own] = [m for s, m in mails.items() if "report for French Empire" in s]
    assert b"map.png" not in own.raw and any("public bulletin" in s for s in mails)
    [failed] = [r for r in svc.store.reviews("g") if r.kind == "report-failed"]
    assert failed.nation == "france" and "went without it" in failed.summary and "MemoryError" in failed.detail


def test_a_failed_resolution_stores_nothing_is_visible_and_is_retried(
        svc: Service, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import moderator.service.turns as turns

    real = turns.items_from_resolution
    # Fails inside the commit, after the snapshot and the turn record were written in it.
    monkeypatch.setattr(turns, "items_from_resolution", lambda *a: 1 / 0)
    for _ in range(2):
        with pytest.raises(ZeroDivisionError):
            turns.resolve_game(svc, "g")
        game = svc.store.game("g")
        assert game is not None and (game.turn, game.status) == (1, "open")
        assert "ZeroDivisionError" in game.problem
        assert svc.store.snapshot("g", 2) is None and svc.store.turn_record("g", 1) is None
    # Told once (one review item, one mail), not at every retry; the console says it each time.
    assert [r.kind for r in svc.store.reviews("g")] == ["resolution-failed"]
    assert _subjects(svc) == ["g: turn 1 could not be resolved"]
    assert sum("stays open and is retried" in line for line in svc.console) == 2  # type: ignore[attr-defined]
    # `game show` shows it.
    from moderator.service.commands import cmd_game_show

    monkeypatch.setattr("moderator.service.commands._service", lambda args, need_mail=False: (svc, None))
    cmd_game_show(type("A", (), {"game": "g"})())
    assert "PROBLEM: resolving turn 1 failed: ZeroDivisionError" in capsys.readouterr().out
    monkeypatch.setattr(turns, "items_from_resolution", real)
    res = turns.resolve_game(svc, "g")
    game = svc.store.game("g")
    assert game is not None and (game.turn, game.status, game.problem) == (2, "open", "")
    record = svc.store.turn_record("g", 1)
    assert record is not None and record.result_sha256 == res.sha256
    assert sum("report for" in s for s in _subjects(svc)) == 2


def test_a_turn_left_resolving_by_a_failure_that_could_not_be_recorded_is_retried(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """The resolution fails and so does recording the failure (a full disk): the game is left
    "resolving". The daemon's next deadline check opens the turn again and resolves it, once."""
    import moderator.service.turns as turns
    from moderator.service.daemon import Daemon

    compute, mark_failed = turns.compute, turns.mark_failed

    def full_disk(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(turns, "compute", full_disk)
    monkeypatch.setattr(turns, "mark_failed", full_disk)
    with pytest.raises(OSError):
        turns.resolve_game(svc, "g")
    assert svc.store.game("g").status == "resolving"  # type: ignore[union-attr]
    monkeypatch.setattr(turns, "compute", compute)
    monkeypatch.setattr(turns, "mark_failed", mark_failed)
    daemon = Daemon(svc, deadline_seconds=3600, countdown_seconds=0)
    daemon._deadlines()
    game = svc.store.game("g")
    assert game is not None and (game.turn, game.status) == (2, "open") and daemon.resolutions == 1
    assert any("interrupted" in line for line in svc.console)  # type: ignore[attr-defined]
    daemon._deadlines()
    assert svc.store.game("g").turn == 2 and len(svc.store.turn_records("g", 1)) == 1  # type: ignore[union-attr]


def test_smtp_down_keeps_mail_queued_retries_with_backoff_and_shows_in_review(svc: Service, tmp_path: Path) -> None:
    from moderator.mail.compose import compose
    from moderator.mail.server import EmbeddedMailServer
    from moderator.service.inbox import queue
    from moderator.service.sending import ALERT_AFTER, send_queued

    now = [datetime.now(UTC)]
    svc.clock = lambda: now[0]
    for n in range(2):
        queue(svc, compose(sender=MOD, to=[MOD], subject=f"m{n}", text="x", date=now[0], domain="t.local"), "g")
    for attempt in range(1, ALERT_AFTER + 1):
        assert send_queued(svc) == (0, 2)
        assert send_queued(svc) == (0, 0)  # not due again yet: backoff
        rows = svc.store.messages(direction="out", status="queued")
        assert [r.attempts for r in rows] == [attempt, attempt]
        now[0] += timedelta(hours=2)
    assert [r.kind for r in svc.store.reviews("g")] == ["mail-failed", "mail-failed"]
    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m"}) as server:
        svc.mail = server.client_config(MOD, "m")
        assert send_queued(svc) == (2, 0)
    assert [m.status for m in svc.store.messages(direction="out")] == ["sent", "sent"]


def test_a_recipient_refused_for_good_fails_alone(svc: Service, tmp_path: Path) -> None:
    from moderator.mail.server import EmbeddedMailServer
    from moderator.service.inbox import queue
    from moderator.service.sending import send_queued

    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m"}) as server:
        svc.mail = server.client_config(MOD, "m")
        for to in ("nobody@t.local", MOD):
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = MOD, to, "hello", f"<{to}>"
            msg.set_content("x")
            queue(svc, msg, "g")
        assert send_queued(svc) == (1, 1)
    assert [m.status for m in svc.store.messages(direction="out")] == ["failed", "sent"]
    assert [r.kind for r in svc.store.reviews("g")] == ["mail-failed"]


def test_a_deadline_missed_while_down_resolves_once_at_start(svc: Service, tmp_path: Path) -> None:
    from moderator.service.daemon import Daemon

    svc.store.update_game("g", status="resolving")  # a daemon was killed while resolving
    daemon = Daemon(svc, poll_seconds=3600, deadline_seconds=0.5, countdown_seconds=0)
    daemon.start()
    try:
        with pytest.raises(AlreadyRunning):
            Daemon(Service(store=Store.at(tmp_path / "db"), mail=svc.mail)).start()
        assert daemon.resolved.wait(600)  # a generous bound: the maps take long on a loaded machine
        daemon.resolved.clear()
        assert not daemon.resolved.wait(2)  # the new deadline is days away: nothing more
    finally:
        daemon.stop()
    game = svc.store.game("g")
    assert game is not None and (game.turn, game.status) == (2, "open")
    assert svc.store.turn_record("g", 2) is None and svc.store.snapshot("g", 3) is None
