"""An event that its template cannot put into words (one stored before the template gained
an argument) must not lose a report (issue 13): its line falls back to plain words built
from its code and the arguments its audience is told anyway, the failure is logged and the
moderator sees it in the review list and the moderator's copy. The tests themselves render
strictly (conftest: strict_events), so a template broken today still fails them loudly."""

from __future__ import annotations

import email
import email.policy
import logging
import re
from typing import Any

import pytest

from moderator.engine.event_codes import SCHEMA
from moderator.engine.events import Event
from moderator.reports.render import event_text, render_failures, strict_events


def _old_naval_battle() -> Event:
    """A naval battle stored before its template read `damaged` (and with its dice)."""
    args = {k: v for k, v in SCHEMA.samples("naval-battle")[0].items() if k != "damaged"}
    args["rolls"] = [4242, 4243]
    return Event("naval-battle", "4.3", ("germany",), args)


def _text(raw: bytes) -> str:
    mail = email.message_from_bytes(raw, policy=email.policy.default)
    return str(next(p.get_content() for p in mail.walk() if p.get_content_type() == "text/plain"))


def test_a_broken_template_raises_while_strict() -> None:
    with pytest.raises(Exception, match="damaged"):
        event_text(_old_naval_battle(), str.title)


def test_an_old_shaped_event_falls_back_to_plain_words_and_is_collected(caplog: pytest.LogCaptureFixture) -> None:
    e = _old_naval_battle()
    with strict_events(False), render_failures() as failed, caplog.at_level(logging.WARNING):
        text = event_text(e, str.title)
        event_text(e, str.title)  # the same failure is collected once
    assert text.startswith("Naval battle. Sea zone: "), text
    assert str(e.args["zone"]).title() in text and "4242" not in text  # never the moderator-only dice
    assert failed == [next(iter(failed))] and failed[0].startswith("naval-battle: ")
    assert "naval-battle" in caplog.text
    with strict_events(False):
        assert event_text(e, str.title) == text  # outside a collector too: nothing raises


def test_the_plain_words_name_no_argument_key_and_no_nation_by_its_id() -> None:
    """A player never reads the engine's keys (`tf`, `dest`, `kept_apart`) or ids (`germany`):
    every code, with every sample of its arguments, in the real scenario's names."""
    from moderator.reports.build import namer
    from moderator.reports.fallback import LABELS
    from moderator.reports.render import fallback_text
    from moderator.world.scenario import load_scenario

    names = namer(load_scenario("1914"))
    for code in SCHEMA:
        for args in SCHEMA.samples(code):
            text = fallback_text(Event(code, "x", ("germany",), args), names)
            assert "_" not in text and "germany" not in text and "=" not in text, (code, text)
            labels = [part.split(":")[0].lower() for part in re.split(r"[.;] ", text) if ":" in part]
            assert not set(labels) & {k for k in args if k in LABELS and LABELS[k] != k}, (code, text)
    e = Event("task-force-turned-back", "4.2", ("germany",),
              {"nation": "germany", "tf": "B", "zone": "North Sea", "dest": "Baltic Sea"})
    assert fallback_text(e, names) == ("German Empire: task force turned back. Task force: B; sea zone: North Sea; "
                                       "to: Baltic Sea.")


def test_the_report_builds_and_the_moderator_sees_the_failure(tmp_path: Any, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import UTC, datetime, timedelta

    from PIL import Image

    import moderator.service.turns as turns
    from moderator.service.context import Service
    from moderator.service.games import new_game
    from moderator.store.db import Store
    from tests.test_service_turn_faults import _offline_mail

    monkeypatch.setattr("moderator.service.turns.draw_view", lambda world, view, title: Image.new("RGB", (8, 8)))
    svc = Service(store=Store.at(tmp_path / "db"), mail=_offline_mail(), say=lambda line: None)
    new_game(svc, "g", deadline=datetime.now(UTC) - timedelta(minutes=1), seed="fixed")
    svc.store.add_seat("g", "germany", "kaiser@t.local", "pw")
    real = turns.compute

    def compute(*args: Any, **kwargs: Any) -> Any:
        res = real(*args, **kwargs)
        res.events = [*res.events, _old_naval_battle()]
        return res

    monkeypatch.setattr(turns, "compute", compute)
    with strict_events(False):
        turns.resolve_game(svc, "g")
    out = {m.subject: m for m in svc.store.messages(direction="out")}
    assert any("report for German Empire" in s for s in out), sorted(out)
    assert not [r for r in svc.store.reviews("g") if r.kind == "report-failed"]
    [item] = [r for r in svc.store.reviews("g") if r.kind == "event-unrendered"]
    assert "naval-battle" in item.summary and "damaged" in item.detail
    [report] = [m for s, m in out.items() if "report for German Empire" in s]
    assert "Naval battle. Sea zone: " in _text(report.raw)  # the player's report tells it in plain words
    [copy] = [m for s, m in out.items() if "(moderator's copy)" in s]
    text = _text(copy.raw)
    assert f"#{item.id} event naval-battle" in text  # in the moderator's list of items for review
    assert "Naval battle. Sea zone: " in text  # and the event itself, in plain words

    # The stored event, rendered again by `moderator report` for a player's tools: the JSON
    # comes out, and the moderator running it is told on stderr.
    import argparse
    import json

    from moderator.service import commands

    monkeypatch.setattr(commands, "_service", lambda args, need_mail=False: (svc, None))
    capsys.readouterr()
    with strict_events(False):
        assert commands.cmd_report(argparse.Namespace(game="g", nation="germany", turn=None, json=True)) == 0
    printed = capsys.readouterr()
    assert json.loads(printed.out)["kind"] == "nation"
    assert "told in plain words (naval-battle: " in printed.err
