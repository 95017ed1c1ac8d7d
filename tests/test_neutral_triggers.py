"""The Ottoman and Italian sections' events (engine/neutral_triggers.py) on the real 1914
map: joinings near the Ottomans, the Russian fleet leaving the Black Sea, Paris taken,
the provinces that widen or narrow Italy's points of the turn."""

from __future__ import annotations

import functools

from moderator.engine import neutral_triggers as nt
from moderator.engine import phase1_diplomacy, wars
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
    return world, scenario, initial_state(scenario, world, "triggers")


def context(rolls: list[int] | None = None) -> TurnContext:
    world, scenario, start = real()
    return TurnContext(start.copy(), {}, world, scenario, dice_root=ScriptedDice(rolls or [], start.turn))


def standing(ctx: TurnContext, nation: str) -> int:
    return ctx.state.nations[nation].standing


def test_bulgaria_joining_the_cp_moves_the_ottomans_0_10_toward_the_cp() -> None:
    ctx = context([7])
    nt.on_join(ctx, "bulgaria", "central", "1.5", "points", "")
    assert standing(ctx, "ottoman") == -7


def test_arabia_joining_the_cp_moves_the_ottomans_toward_the_ap_unless_the_ap_attacked_it() -> None:
    ctx = context([4])
    nt.on_join(ctx, "arabia", "central", "1.1", "attacked", "france")  # attacked by an Allied Power: nothing
    assert standing(ctx, "ottoman") == 0
    nt.on_join(ctx, "persia", "central", "1.5", "points", "")
    assert standing(ctx, "ottoman") == 4
    ctx = context([5])
    nt.on_join(ctx, "persia", "allied", "1.5", "points", "")
    assert standing(ctx, "ottoman") == -5


def test_a_declaration_on_bulgaria_by_the_allies_brings_the_ottoman_row_through_the_join() -> None:
    ctx = context()
    ctx.checking = True  # the checker's projection: the join without a draw
    wars.begin(ctx, "russia", "bulgaria", "1.1", surprise=False)
    assert ctx.state.nations["bulgaria"].side == "central" and standing(ctx, "ottoman") == 0


def test_the_russian_fleet_leaving_the_black_sea_counts_once() -> None:
    ctx = context([9])
    nt.russian_fleet_left(ctx, "9")  # the fleet is there: nothing
    assert standing(ctx, "ottoman") == 0
    ctx.state.units = [u for u in ctx.state.units if not (u.nation == "russia" and u.location in nt.BLACK_SEA
                                                          and u.kind != "transport")]
    nt.russian_fleet_left(ctx, "9")
    nt.russian_fleet_left(ctx, "9")  # once a game: no second draw
    assert standing(ctx, "ottoman") == -9 and ctx.state.nations["ottoman"].flags[nt.FLEET_GONE] == ctx.turn


def test_paris_taken_moves_italy_0_20_and_turns_its_leaning_once() -> None:
    ctx = context([12])
    ctx.state.control["Paris"] = "germany"
    nt.paris_fallen(ctx, "9")
    nt.paris_fallen(ctx, "9")
    assert standing(ctx, "italy") == -10  # -12 stops at the camp
    assert phase1_diplomacy.leaning(ctx, "italy") == "central"


def test_lost_provinces_widen_and_narrow_italys_range() -> None:
    ctx = context([4, 0])  # Italy's 4 (of 0-4), the Ottomans' 0
    ctx.state.control["Trieste"] = "russia"  # lost by Austria-Hungary: one more toward the Allies
    assert nt.italy_lean_bonus(ctx) == 1
    ctx.state.control["Alsace-Lorraine"] = "germany"
    ctx.state.control["Suez Canal"] = "ottoman"  # the Ottomans are neutral: not a Central Power's capture
    assert nt.italy_lean_bonus(ctx) == 0
    ctx.state.control["Alsace-Lorraine"] = "france"
    before = standing(ctx, "italy")
    phase1_diplomacy.diplomatic_influence(ctx)  # Italy leans to the Allies: 0-4 now (a 4 fits the range)
    assert standing(ctx, "italy") == min(10, before + 4)
