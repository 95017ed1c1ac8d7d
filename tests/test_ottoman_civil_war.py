"""The Ottoman civil war (engine/ottoman_civil_war.py; the Ottoman Empire) on the real 1914 map."""

from __future__ import annotations

import functools

from moderator.engine import ottoman_civil_war as ocw
from moderator.engine import wars
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.engine.state import GameState
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "ottoman-civil-war")


def context(rolls: list[int], units: list[tuple[str, str]] | None = None) -> TurnContext:
    world, scenario, start = real()
    state = start.copy()
    if units is not None:
        state.units = [u for u in state.units if u.nation != "ottoman"]
        for kind, place in units:
            state.new_unit("ottoman", kind, place)
    return TurnContext(state, {}, world, scenario, dice_root=ScriptedDice(rolls, state.turn))


def ottoman_units(ctx: TurnContext) -> list[str]:
    return sorted(u.location for u in ctx.state.units if u.nation == "ottoman")


def test_three_in_ten_the_officers_stay_loyal_and_it_is_rolled_once() -> None:
    ctx = context([8])
    before = ottoman_units(ctx)
    wars.begin(ctx, "ottoman", "germany", "1.1", surprise=False)
    assert ottoman_units(ctx) == before
    [event] = [e for e in ctx.events if e.code == "ottoman-civil-war"]
    assert event.args["rebelled"] == {} and not event.seen_by  # public
    wars.begin(ctx, "ottoman", "austria-hungary", "1.1", surprise=False)  # "ever": no second roll
    assert len([e for e in ctx.events if e.code == "ottoman-civil-war"]) == 1


def test_constantinople_stays_loyal_and_rebels_hold_the_land_they_alone_stand_in() -> None:
    ctx = context([1, 1, 1, 1], [("infantry", "Constantinople"), ("infantry", "Baghdad"), ("artillery", "Basra"),
                                 ("cruiser", "Aegean Sea")])
    wars.begin(ctx, "ottoman", "germany", "1.1", surprise=False)
    assert ottoman_units(ctx) == ["Constantinople"]
    germans = sorted((u.kind, u.location) for u in ctx.state.units if u.nation == "germany"
                     and u.location in ("Baghdad", "Basra", "Aegean Sea"))
    assert germans == [("artillery", "Basra"), ("cruiser", "Aegean Sea"), ("infantry", "Baghdad")]
    assert ctx.state.controller("Baghdad") == "germany" and "Baghdad" not in ctx.state.incorporated
    [event] = [e for e in ctx.events if e.code == "ottoman-civil-war"]
    assert event.args["rebelled"] == {"artillery": 1, "cruiser": 1, "infantry": 1}
    assert event.args["occupied"] == ["Baghdad", "Basra"] and event.args["battles"] == []
    assert ctx.state.nations["germany"].infantry_built == real()[2].nations["germany"].infantry_built  # no manpower


def test_rebels_sharing_a_territory_with_loyal_troops_attack_them() -> None:
    # the 7 in 10; the first infantry rebels (1), the second does not (10); then the battle's dice
    ctx = context([1, 1, 10, *[1] * 20], [("infantry", "Izmir"), ("infantry", "Izmir")])
    wars.begin(ctx, "ottoman", "germany", "1.1", surprise=False)
    [event] = [e for e in ctx.events if e.code == "ottoman-civil-war"]
    assert event.args["battles"] == ["Izmir"] and event.args["rebelled"] == {"infantry": 1}
    nations = {u.nation for u in ctx.state.units if u.location == "Izmir"}
    assert len(nations) <= 1  # fought to the end


def test_a_war_begun_by_an_attack_in_phase_4_is_answered_in_phase_9() -> None:
    ctx = context([9])
    wars.begin(ctx, "ottoman", "germany", "4.4", surprise=True)
    assert not [e for e in ctx.events if e.code == "ottoman-civil-war"]
    ocw.end_of_turn(ctx)
    assert [e.phase for e in ctx.events if e.code == "ottoman-civil-war"] == ["9"]
