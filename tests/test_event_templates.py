"""Typed events and their words: every event code has one template, and every code renders
in every kind of report with every sample of its declared arguments, so no event can
break a report again (the strategic-arrived event once did). Also the problem catalogue:
every code an order's home can report has a sentence, and no sentence is orphaned."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.engine.event_codes import SCHEMA
from moderator.engine.events import Event, EventSchemaError
from moderator.orders.messages import catalogue
from moderator.reports.build import TurnInfo, build_reports
from moderator.reports.render import TEMPLATES_DIR, render
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario

ROOT = Path(__file__).resolve().parents[1]


def test_every_code_has_exactly_one_template() -> None:
    files = {p.stem for p in (TEMPLATES_DIR / "events").glob("*.j2")}
    assert files == set(SCHEMA.specs), (files ^ set(SCHEMA.specs))


def _events(code: str) -> list[Event]:
    spec = SCHEMA.specs[code]
    out = []
    for args in SCHEMA.samples(code):
        seen = (args["nation"],) if "nation" in spec.args and args.get("nation") else ()
        out.append(Event(code, "4.4", seen, args))
    return out


@pytest.mark.parametrize("code", sorted(SCHEMA.specs))
def test_every_code_renders_in_every_report_kind(code: str) -> None:
    world, scenario = load_world("1914", strict=False), load_scenario("1914")
    state = initial_state(scenario, world, "t")
    events = _events(code)
    for e in events:
        SCHEMA.validate(e.code, e.args)  # the samples themselves fit the schema
    info = TurnInfo("t", "Test", 1, "August 1914", 2, "October 1914", "soon")
    reports = build_reports(state, events, scenario, world, info, ["germany", "russia"], lambda v, t: b"")
    assert {r.audience for r in reports} == {"germany", "russia", "alliance:central", "alliance:allied", "public"}
    seen_somewhere = False
    for r in reports:
        assert "[" + code not in r.text  # no fallback rendering of an unknown code
        told = [t["code"] for key in ("actions", "battles", "rulings", "news", "shared", "events", "intelligence")
                for t in r.data.get(key, ())]
        visible = [e for e in events if e.visible_to(r.audience) if r.audience != "public" or not e.seen_by]
        if not r.audience.startswith("alliance:"):
            assert told.count(code) == len(visible), r.audience  # every event it may see, told once
        seen_somewhere |= bool(visible)
    text, html = render("moderator", title="t", game="g", resolved_turn=1, resolved_date="x", ordered=[],
                        missing=[], flags=[], waiting=[], missed={}, dice_count=0, sha256="0", events=events,
                        names=lambda n: scenario.nations[n].name if n in scenario.nations else n)
    assert text.count("\n- [") == len(events) and "<li>" in html
    assert seen_somewhere or not events[0].seen_by


def test_emit_refuses_events_that_break_their_declaration() -> None:
    with pytest.raises(EventSchemaError, match="undeclared"):
        SCHEMA.validate("no-such-event", {})
    good = SCHEMA.samples("strategic-arrived")[0]
    SCHEMA.validate("strategic-arrived", good)
    with pytest.raises(EventSchemaError, match="is not a units"):
        SCHEMA.validate("strategic-arrived", {**good, "units": 3})
    with pytest.raises(EventSchemaError, match="missing"):
        SCHEMA.validate("strategic-arrived", {k: v for k, v in good.items() if k != "end"})


def test_text_and_number_arguments_are_checked_one_by_one_in_effect() -> None:
    """validate() checks text and whole-number arguments together (issue 14, the engine's
    cost); each wrong one is still refused, and named, as its own check would."""
    code = "air-combat-at-sea"  # a place name, lists of nations, a whole number, units
    good = SCHEMA.samples(code)[0]
    SCHEMA.validate(code, good)
    for name, bad in (("zone", 3), ("zone", None), ("rounds", True), ("rounds", "3"), ("rounds", 1.5)):
        with pytest.raises(EventSchemaError, match=f"{name}={bad!r} is not a"):
            SCHEMA.validate(code, {**good, name: bad})
    with pytest.raises(EventSchemaError, match="zone=3 is not a place name"):  # the first in declared order
        SCHEMA.validate(code, {**good, "rounds": True, "zone": 3})


PROBLEM_CALL = re.compile(r"""(?<![\w.])(?:problem|warning|flag)\(\s*f?["']([a-z0-9-]+)["']""")
REFER_CALL = re.compile(r"""(?<![\w.])refer\([^)]*?["']([a-z0-9-]+)["']\)""")
FLAG_CALL = re.compile(r"""ctx\.flag\(\s*[\w"']+,\s*["']([a-z0-9-]+)["']""")


def _codes_in_engine() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "moderator" / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes |= set(PROBLEM_CALL.findall(text)) | set(REFER_CALL.findall(text)) | set(FLAG_CALL.findall(text))
    return codes


def test_every_problem_code_has_a_sentence() -> None:
    codes = _codes_in_engine()
    assert len(codes) > 40
    missing = sorted(c for c in codes if c not in catalogue() and not c.startswith("deploy-"))
    assert missing == []
    deploy = {c for c in catalogue() if c.startswith("deploy-")}
    assert len(deploy) >= 9  # deploy-<reason> for every reason of phase0_deploy.deploy_problem


def test_every_sentence_renders_with_its_arguments_missing_or_not() -> None:
    from moderator.orders.messages import text

    for code in catalogue():
        assert text(code, {})  # missing arguments fall back to plain words, never raise


def test_an_argument_named_like_a_helper_is_the_argument() -> None:
    """A problem's argument may share a name with a helper of the sentences (`units`, the
    count of surrender-units-stranded): the argument wins and nothing raises. A bot's war
    found it: the TypeError failed the whole resolution of the turn Serbia surrendered."""
    from moderator.orders.messages import text

    sentence = text("surrender-units-stranded", {"units": 2, "nation": "serbia", "place": "Bosnia"})
    assert sentence.startswith("2 unit(s) of serbia stand in Bosnia"), sentence
    helpers = {k: 1 for k in ("name", "unit", "units", "either", "technology", "plural")}
    for code in catalogue():
        assert text(code, helpers)


def test_an_event_of_a_known_shape_still_has_the_insides_of_its_values_checked() -> None:
    """validate() checks an argument tested by type alone once per shape of event (issue 14,
    the engine's cost); units, lists and details are looked inside on every event."""
    good = SCHEMA.samples("strategic-arrived")[0]
    SCHEMA.validate("strategic-arrived", good)
    SCHEMA.validate("strategic-arrived", good)  # the same shape, known now
    with pytest.raises(EventSchemaError, match="is not a units"):  # the same shape: a dict, with a text count
        SCHEMA.validate("strategic-arrived", {**good, "units": {"infantry": "2"}})
    with pytest.raises(EventSchemaError, match="is not a units"):  # a bool is no count
        SCHEMA.validate("strategic-arrived", {**good, "units": {"infantry": True}})


def test_the_checks_marked_by_type_answer_alike_for_every_value_of_a_type() -> None:
    """ArgType.by_type says the check looks at the value's type alone: probed with values of
    each type, it gives one answer per type (else it must not be marked, or validate() would
    pass values it never looked at)."""
    probes = ["", "Warsaw", "3", 0, 3, -1, True, False, None, 1.5, [], ["x"], [1], {}, {"a": 1}, {"a": "b"}, ("x",)]
    for code in SCHEMA:
        for name, t in SCHEMA.specs[code].args.items():
            if t.by_type:
                answers: dict[type, set[bool]] = {}
                for value in probes:
                    answers.setdefault(type(value), set()).add(bool(t.check(value)))
                assert all(len(a) == 1 for a in answers.values()), (code, name, answers)


def test_an_event_made_by_emit_is_the_event_its_constructor_makes() -> None:
    """new_event() (what emit() and tell() call: issue 14, the engine's cost) makes the same
    frozen Event as Event(...): equal, printed alike, serialised alike, refusing changes."""
    import dataclasses

    from moderator.engine.events import Event, new_event

    made, built = new_event("moved", "4.4", ("germany",), {"units": {"infantry": 2}}), \
        Event("moved", "4.4", ("germany",), {"units": {"infantry": 2}})
    assert made == built and repr(made) == repr(built) and made.to_json() == built.to_json()
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.code = "other"  # type: ignore[misc]
