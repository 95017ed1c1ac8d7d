"""The neutrals' local-war table (engine/local_war_table.py) on the real 1914 map: which
row, which column, and the war a major's attack ends."""

from __future__ import annotations

import functools

from moderator.engine import local_war_table as lwt
from moderator.engine import reactions, wars
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.state import GameState
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "local-war-table")


def context(*wars_between: tuple[str, str]) -> TurnContext:
    world, scenario, start = real()
    state = start.copy()
    for a, b in wars_between:
        for x, y in ((a, b), (b, a)):
            state.nations[x].at_war_with = sorted({*state.nations[x].at_war_with, y})
    return TurnContext(state, {}, world, scenario, dice_root=ScriptedDice([], state.turn))


def test_a_neutral_at_peace_takes_the_first_table() -> None:
    ctx = context()
    ctx.checking = True
    assert not lwt.declared(ctx, "germany", "belgium", "1.1", surprise=False)


def test_columns_name_the_involved_neutral_the_groups_and_the_minors_around_the_attacked() -> None:
    ctx = context(("italy", "albania"))
    assert lwt.column(ctx, "italy", "albania", ["italy"]) == lwt.INVOLVED
    assert lwt.column(ctx, "ottoman", "albania", ["italy"]) == lwt.ITALY_OTTOMANS
    assert lwt.column(ctx, "usa", "albania", ["italy"]) == lwt.USA_CHINA_SPAIN
    assert lwt.column(ctx, "greece", "albania", ["italy"]) == reactions.NEIGHBOURING
    assert lwt.column(ctx, "siam", "albania", ["italy"]) == reactions.DISTANT
    assert lwt.column(ctx, "japan", "albania", ["italy"]) == ""


def test_a_main_war_attack_on_a_major_at_war_with_a_minor_ends_that_war() -> None:
    ctx = context(("italy", "albania"))
    ctx.checking = True  # the checker's projection: the same wars, no draw
    wars.begin(ctx, "austria-hungary", "italy", "1.1", surprise=False)
    assert ctx.state.nations["italy"].side == "allied"  # joins the opposite camp
    assert "albania" not in ctx.state.nations["italy"].at_war_with  # "ends war"
    ctx = context(("ottoman", "italy"))
    ctx.checking = True
    wars.begin(ctx, "france", "ottoman", "1.1", surprise=False)
    assert "italy" in ctx.state.nations["ottoman"].at_war_with  # a major B: the war goes on


def test_a_major_keeping_on_its_war_owes_every_later_turn_answered_as_it_joins() -> None:
    world, scenario, _ = real()
    state = context(("ottoman", "italy")).state
    ctx = TurnContext(state, {}, world, scenario, dice_root=Dice("local-war", state.turn))  # real draws
    wars.begin(ctx, "france", "ottoman", "1.1", surprise=False)
    lwt.turns_after(ctx)  # the declaration's own turn: nothing owed
    assert lwt.TURNS_OWED not in ctx.state.nations["italy"].flags
    ctx.state.turn += 1
    lwt.turns_after(ctx)
    ctx.state.turn += 1
    lwt.turns_after(ctx)
    assert ctx.state.nations["italy"].flags[lwt.TURNS_OWED] == 2
    before = len(ctx.dice.log)
    wars.join(ctx, "italy", "allied", "1.5", why="points")
    drawn = [r for r in ctx.dice.log[before:] if "a local war kept on" in r.purpose]
    neutrals = [n for n, ns in ctx.state.nations.items() if ns.side == "neutral" and lwt.column(ctx, n, "", []) != ""]
    assert len(drawn) == 2 * len(neutrals) and all(r.dice == "0-1" for r in drawn)
    assert lwt.TURNS_OWED not in ctx.state.nations["italy"].flags


# ---- the influence rows ---------------------------------------------------------------------------
def seeded(*wars_between: tuple[str, str]) -> TurnContext:
    ctx = context(*wars_between)
    ctx.dice_root = Dice("influenced", ctx.state.turn)
    return ctx


def test_a_minor_favourable_to_its_new_side_brings_the_others_toward_it_and_its_enemy_against() -> None:
    ctx = seeded(("italy", "bulgaria"))
    assert ctx.scenario.nations["bulgaria"].standing < 0  # favourable to the Central Powers at start
    ctx.state.nations["bulgaria"].standing = -10
    wars.join(ctx, "bulgaria", "central", "1.5", why="points")
    moved = {e.args["nation"]: e.args["change"] for e in ctx.events
             if e.code == "points" and e.args["why"] == "local-war-minor-influenced"}
    assert moved.get("italy", 0) >= 0 and all(c <= 0 for n, c in moved.items() if n != "italy")  # "toward CP"
    assert max(-c for n, c in moved.items() if n != "italy") <= 1 and moved  # 0-1
    rolled = [r for r in ctx.dice.log if "influenced into the main war" in r.purpose]
    assert {(r.purpose.split("'s points")[0], r.dice) for r in rolled} >= {("Kingdom of Italy", "0-6"),
                                                                          ("Kingdom of Spain", "0-1")}


def test_the_war_going_on_costs_the_involved_neutral_0_3_a_turn_and_owes_the_others_0_1_against_it() -> None:
    ctx = seeded(("italy", "switzerland"))
    ctx.state.nations["switzerland"].standing = -10
    wars.join(ctx, "switzerland", "central", "1.5", why="points")
    lwt.turns_after(ctx)  # the same turn: "each consecutive turn" begins with the next
    assert not [r for r in ctx.dice.log if "goes on" in r.purpose]
    ctx.state.turn += 1
    lwt.turns_after(ctx)
    [later] = [r for r in ctx.dice.log if "goes on" in r.purpose]
    assert later.dice == "0-3" and later.purpose.startswith("Kingdom of Italy's points")
    assert ctx.state.nations["italy"].flags[lwt.TURNS_OWED] == 1  # the others' 0-1 against Italy, when it joins
    wars.make_peace(ctx, "italy", "switzerland", "1.1")
    ctx.state.turn += 1
    lwt.turns_after(ctx)
    assert len([r for r in ctx.dice.log if "goes on" in r.purpose]) == 1  # the war is over
    assert lwt.AGAINST not in ctx.state.nations["italy"].flags


def test_a_join_by_attack_or_by_a_nations_own_rules_draws_no_influence_row() -> None:
    ctx = seeded(("italy", "switzerland"))
    wars.join(ctx, "switzerland", "central", "1.1", why="attacked", by="france")
    assert not [r for r in ctx.dice.log if "influenced into the main war" in r.purpose]
