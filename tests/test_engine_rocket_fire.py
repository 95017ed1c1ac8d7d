"""Rocket fire on the real 1914 map (engine/rocket_fire.py): trenches on the front line,
super trenches, the 1D10 of the fourth advance. Scripted dice, so every roll is named."""

from __future__ import annotations

from moderator.engine import rocket_fire
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.event_codes import SCHEMA
from moderator.engine.orders.trenches import FACING
from moderator.engine.state import GameState
from moderator.orders.model import RocketFire
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario

WORLD = load_world("1914", strict=False)
SCEN = load_scenario("1914")
OPENING = initial_state(SCEN, WORLD, "rocket-test")


def fired(state: GameState, order: RocketFire, dice: list[int], rockets: int = 1) -> TurnContext:
    ctx = TurnContext(state.copy(), {}, WORLD, SCEN, dice_root=ScriptedDice(dice), schema=SCHEMA)
    units = [ctx.state.new_unit("germany", "rocket", order.origin) for _ in range(rockets)]
    rocket_fire.fire(ctx, "germany", 0, order, units)
    return ctx


def dig(state: GameState, nation: str, kind: str, protect: str, facing: str) -> None:
    trench = state.new_unit(nation, kind, protect)
    state.nations[nation].flags.setdefault(FACING, {})[trench.id] = facing


def event(ctx: TurnContext) -> dict:  # type: ignore[type-arg]
    (e,) = [e.args for e in ctx.events if e.code == "rocket-fire"]
    return e


AT_TROOPS = RocketFire(1, "Strasbourg", "Alsace-Lorraine", "units")


def test_a_front_line_trench_costs_the_rocket_three_points_never_below_one() -> None:
    # Trenches, table: rockets -3 (4 -> 1). A French trench in Alsace-Lorraine facing German
    # Strasbourg is on the front line: a 2 misses, a 1 hits.
    state = OPENING.copy()
    dig(state, "france", "trench", "Alsace-Lorraine", "Strasbourg")
    assert event(fired(state, AT_TROOPS, [2]))["hits"] == 0
    assert event(fired(state, AT_TROOPS, [1]))["hits"] == 1
    assert event(fired(OPENING, AT_TROOPS, [4]))["hits"] == 1  # no trench: 4 hits


def test_a_trench_away_from_the_front_shelters_nothing() -> None:
    # Trenches, note: "If trenches are built in provinces that are not adjacent to enemy
    # provinces, they cannot be used as a shelter against air or rocket attacks": the
    # trench faces French Champagne.
    state = OPENING.copy()
    dig(state, "france", "super_trench", "Alsace-Lorraine", "Champagne")
    assert event(fired(state, AT_TROOPS, [4]))["hits"] == 1


def test_a_super_trench_makes_the_troops_invulnerable_and_no_die_is_rolled() -> None:
    # Rockets: "Units protected by a Super Trench are invulnerable to rockets."
    state = OPENING.copy()
    dig(state, "france", "super_trench", "Alsace-Lorraine", "Strasbourg")
    ctx = fired(state, AT_TROOPS, [], rockets=2)
    e = event(ctx)
    assert e["protected"] and e["hits"] == 0 and e["losses"] == {} and ctx.dice.log == []
    assert sum(1 for u in ctx.state.units if u.location == "Alsace-Lorraine" and u.nation == "france") == 14 + 1


def test_the_fourth_advance_takes_a_d10_of_resources_never_below_zero() -> None:
    # Rockets: "At the highest technological stage a rocket may reduce the enemy's saved
    # resources by 1D10." Belgium holds 5; a hit rolling 8 takes all 5.
    state = OPENING.copy()
    for a, b in (("germany", "belgium"), ("belgium", "germany")):
        state.nations[a].at_war_with = sorted({*state.nations[a].at_war_with, b})
    state.nations["belgium"].saved = 5
    state.nations["germany"].tech["rockets"] = 4
    ctx = fired(state, RocketFire(1, "Cologne", "Liege", "industry"), [3, 8])
    assert [r.purpose for r in ctx.dice.log] == ["rocket fire at Liege: germany rocket 1",
                                                 "rocket damage at Liege: germany hit 1"]
    assert event(ctx)["resources"] == 5 and ctx.state.nations["belgium"].saved == 0


def test_rockets_hit_four_times_in_ten_and_once_in_ten_behind_a_trench() -> None:
    # Rockets: a hit at or under the attack value (4) on a D10; behind a front-line trench
    # 4 - 3 = 1. Seeded runs of the engine's own fire.
    def rate(state: GameState, n: int) -> float:
        hits = 0
        for seed in range(n):
            ctx = TurnContext(state.copy(), {}, WORLD, SCEN, dice_root=Dice(f"rocket-{seed}", 1), schema=SCHEMA)
            rocket = ctx.state.new_unit("germany", "rocket", "Strasbourg")
            rocket_fire.fire(ctx, "germany", 0, AT_TROOPS, [rocket])
            hits += event(ctx)["hits"]
        return hits / n

    n = 1000
    assert abs(rate(OPENING, n) - 0.4) < 4 * (0.4 * 0.6 / n) ** 0.5
    dug = OPENING.copy()
    dig(dug, "france", "trench", "Alsace-Lorraine", "Strasbourg")
    assert abs(rate(dug, n) - 0.1) < 4 * (0.1 * 0.9 / n) ** 0.5
