"""The phase table and the ruleset registry (design.md: one ordered, named table of steps)."""

from __future__ import annotations

import pytest

from moderator.engine import ruleset, wtea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.resolve import resolve
from moderator.engine.ruleset import Step
from tests import engine_fixture as fx


def test_the_table_runs_the_nine_phases_in_order() -> None:
    phases = [int(step.section.split(".")[0]) for step in wtea.PHASES]
    assert phases == sorted(phases)
    assert sorted(set(phases)) == list(range(1, 10))
    assert ruleset.get("wtea-1914") == wtea.PHASES


def test_steps_not_implemented_say_so_and_emit_nothing() -> None:
    noops = [s for s in wtea.PHASES if "not implemented yet" in (s.run.__doc__ or "")]
    assert noops, "expected some documented no-op steps"
    for step in noops:
        assert not step.handles, step.section  # a no-op must not swallow orders
        ctx = TurnContext(fx.state([("germany", "infantry", "Berlin", 2)]), {}, fx.world(), fx.scenario(),
                          Dice("noop", 1))
        before = ctx.state.dumps()
        step.run(ctx)
        assert ctx.events == [] and ctx.state.dumps() == before, step.section


def test_every_step_lives_in_a_module_named_after_its_phase() -> None:
    for step in wtea.PHASES:
        module = step.run.__module__.rsplit(".", 1)[-1]
        assert module.startswith(f"phase{step.section.split('.')[0]}_"), (step.section, module)


def test_another_ruleset_can_plug_in() -> None:
    calls: list[str] = []

    def only_step(ctx: TurnContext) -> None:
        calls.append("ran")
        ctx.emit("hello", "1", ())

    ruleset.register("test-game", [Step("1", "hello", only_step)])
    assert "test-game" in ruleset.names()
    s = fx.state()
    new, events = resolve(s, {}, fx.world(), fx.scenario(), Dice("x", 1), ruleset_id="test-game")
    assert calls == ["ran"] and [e.code for e in events] == ["hello"] and new.turn == 2


def test_registry_rejects_duplicates_and_unknown_names() -> None:
    with pytest.raises(ValueError):
        ruleset.register("dup", [Step("1", "a", lambda c: None), Step("1", "b", lambda c: None)])
    with pytest.raises(KeyError):
        ruleset.get("no-such-game")


def test_a_quiet_turn_only_collects_income() -> None:
    s = fx.state()
    _, events = resolve(s, {}, fx.world(), fx.scenario(), Dice("quiet", 1))
    assert {e.code for e in events} == {"income"}
    assert sorted(e.args["nation"] for e in events) == sorted(s.nations)


def test_every_emitted_code_is_catalogued_and_private_events_name_their_nation() -> None:
    from moderator.engine.event_codes import EVENT_CODES
    from moderator.orders.model import (
        Build,
        DeclareWar,
        Gift,
        Incorporate,
        Move,
        Order,
        StrategicMove,
        UnitCount,
    )

    s = fx.state([("germany", "infantry", "Posen", 4), ("germany", "artillery", "Posen", 1),
                  ("russia", "infantry", "Warsaw", 1), ("russia", "infantry", "Moscow", 3)], saved=30)
    s.control["Minsk"] = "germany"
    s.incorporated.pop("Minsk")
    orders: dict[str, list[Order]] = {
        "germany": [DeclareWar("belgium"), Build("infantry", 9, "Berlin"), Incorporate("Minsk"),
                    Move((UnitCount("infantry", 4), UnitCount("artillery", 1), UnitCount("tank", 1)),
                         "Posen", "Warsaw"), Gift(3, "austria")],
        "russia": [StrategicMove((UnitCount("infantry", 3),), "Moscow", "Vilna")],
    }
    _, events = resolve(s, orders, fx.world(), fx.scenario(), Dice("catalogue", 1))
    codes = {e.code for e in events}
    assert codes <= set(EVENT_CODES), codes - set(EVENT_CODES)
    assert len(codes) >= 10
    for e in events:
        if len(e.seen_by) == 1 and e.seen_by != ("moderator",):
            assert e.args.get("nation") == e.seen_by[0], e
