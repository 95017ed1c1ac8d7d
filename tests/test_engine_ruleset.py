"""The Ruleset object, its phase table and its registry (design.md: one ordered, named
table of steps; a ruleset registered explicitly, stored with every game)."""

from __future__ import annotations

import dataclasses

import pytest

from moderator.engine import wtea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.events import EventSchema, EventSpec
from moderator.engine.orders.base import OrderRule
from moderator.engine.resolve import resolve
from moderator.engine.ruleset import Registry, Ruleset, Step
from moderator.orders import model as m
from moderator.rulesets import registry
from tests import engine_fixture as fx


def test_the_table_runs_the_nine_phases_in_order() -> None:
    phases = [int(step.section.split(".")[0]) for step in wtea.PHASES if step.section != "R"]
    assert phases == sorted(phases)
    assert sorted(set(phases)) == list(range(1, 10))
    assert wtea.PHASES[0].section == "R"  # the moderator's rulings come first
    assert registry().default().phases == wtea.PHASES


def test_every_order_type_has_one_home_and_one_step() -> None:
    rs = registry().default()
    types = [c for c in vars(m).values() if isinstance(c, type) and issubclass(c, m.Order) and c is not m.Order]
    for kind in types:
        rule = rs.rule_for_type(kind)
        assert rule is not None, kind.__name__
        table = rs.opening if kind is m.Deploy else rs.phases
        steps = [s for s in table if issubclass(kind, s.orders)]
        assert len(steps) == 1 and steps[0].section == rule.section, kind.__name__


def test_steps_not_implemented_say_so_and_emit_nothing() -> None:
    noops = [s for s in wtea.PHASES if s.run is not None and "not implemented yet" in (s.run.__doc__ or "")]
    assert noops, "expected some documented no-op steps"
    for step in noops:
        ctx = TurnContext(fx.state([("germany", "infantry", "Berlin", 2)]), {}, fx.world(), fx.scenario(),
                          Dice("noop", 1))
        before = ctx.state.dumps()
        step.run(ctx)  # type: ignore[misc]
        assert ctx.events == [] and ctx.state.dumps() == before, step.section


def test_every_step_function_lives_in_a_module_named_after_its_phase() -> None:
    for step in (*wtea.PHASES, *wtea.OPENING):
        if step.run is None:
            continue
        module = step.run.__module__.rsplit(".", 1)[-1]
        assert module.startswith(f"phase{step.section.split('.')[0]}_"), (step.section, module)


class _Hello(OrderRule[m.Note]):
    order = m.Note
    section = "1"

    def execute(self, ctx: TurnContext, nation: str, index: int, order: m.Note) -> None:
        ctx.emit("hello", "1", (), text=order.text)


def _toy() -> Ruleset:
    """A second game: one step, one order type, one event."""
    base = registry().default()
    return Ruleset(name="toy", version=1, title="Toy", grammar=base.grammar, rules=(_Hello(),),
                   phases=(Step("1", "hello", orders=(m.Note,)),), opening=(),
                   events=EventSchema([EventSpec("hello", "public", {"text": base.events.specs["order-refused"].args["text"]})]),
                   templates=base.templates, initial_state=base.initial_state)


def test_another_ruleset_can_plug_in() -> None:
    toy = _toy()
    reg = Registry([toy])
    assert reg.names() == ["toy"] and reg.get("toy") is toy
    new, events = resolve(fx.state(), {"germany": [m.Note("hi")]}, fx.world(), fx.scenario(), Dice("x", 1), toy)
    assert [(e.code, e.args) for e in events] == [("hello", {"text": "hi"})] and new.turn == 2


def test_registry_keeps_versions_and_rejects_unknown_names() -> None:
    toy = _toy()
    reg = Registry([toy, dataclasses.replace(toy, version=2)])
    assert reg.get("toy").version == 2 and reg.get("toy", 1).version == 1
    with pytest.raises(KeyError, match="v3 is not installed"):
        reg.get("toy", 3)
    with pytest.raises(KeyError, match="unknown ruleset"):
        reg.get("no-such-game")
    with pytest.raises(ValueError, match="duplicate section"):
        dataclasses.replace(toy, phases=(Step("1", "a"), Step("1", "b")))
    with pytest.raises(ValueError, match="has no home"):
        dataclasses.replace(toy, phases=(Step("1", "a", orders=(m.Move,)),))


def test_a_quiet_turn_only_collects_income() -> None:
    s = fx.state()
    _, events = resolve(s, {}, fx.world(), fx.scenario(), Dice("quiet", 1))
    table = {"victory-standing", "victory-side"}  # the moderator's Victory Conditions table (Phase 9)
    assert {e.code for e in events} == {"income"} | table
    assert all(e.seen_by == ("moderator",) for e in events if e.code in table)
    assert sorted(e.args["nation"] for e in events if e.code == "income") == sorted(s.nations)


def test_every_emitted_event_fits_the_schema_and_private_events_name_their_nation() -> None:
    s = fx.state([("germany", "infantry", "Posen", 4), ("germany", "artillery", "Posen", 1),
                  ("russia", "infantry", "Warsaw", 1), ("russia", "infantry", "Moscow", 3)], saved=30)
    s.control["Minsk"] = "germany"
    s.incorporated.pop("Minsk")
    orders: dict[str, list[m.Order]] = {
        "germany": [m.DeclareWar("belgium"), m.Build("infantry", 9, "Berlin"), m.Incorporate("Minsk"),
                    m.Move((m.UnitCount("infantry", 4), m.UnitCount("artillery", 1)), "Posen", "Warsaw"),
                    m.Gift(3, "austria"), m.Note("hello")],
        "russia": [m.StrategicMove((m.UnitCount("infantry", 3),), "Moscow", "Vilna")],
    }
    _, events = resolve(s, orders, fx.world(), fx.scenario(), Dice("catalogue", 1))  # emit() checks the schema
    assert len({e.code for e in events}) >= 10
    for e in events:
        if len(e.seen_by) == 1 and e.seen_by != ("moderator",):
            assert e.args.get("nation") == e.seen_by[0], e


def test_each_step_rolls_its_own_dice() -> None:
    # design.md: adding or changing one step never shifts another step's rolls.
    a, b = Dice("s", 3), Dice("s", 3)
    a.for_step("4.6").d10("x")
    assert a.for_step("9").d10("y") == b.for_step("9").d10("y")
    assert [r.step for r in a.log] == ["4.6", "9"]
