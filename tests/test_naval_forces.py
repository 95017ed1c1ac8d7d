"""Each nation that fought a naval battle is told its forces as it saw them
(engine/naval_forces.py, the sea's sibling of the land battles' battle-forces): its own side
exactly (ships and aircraft sunk, damaged or afloat, the troops aboard), the enemy as the
colour band of what it fought (3.2.2.4); and its report lists that line under the naval
battle."""

from __future__ import annotations

from moderator.engine import naval_combat
from moderator.engine.combat_orders import BattleOrders
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.engine.events import Event
from moderator.engine.naval_combat import NavalSide, Ship
from moderator.engine.phase3_passive_recon import KNOWN
from moderator.engine.state import GameState
from moderator.reports.build import nation_mail
from moderator.reports.content import TurnInfo
from tests.report_text import says
from tests.test_engine_naval import SCENARIO, WORLD, sea_state

INFO = TurnInfo("g", "Sea War", 4, "April 1915", 5, "June 1915", "soon")


def north_sea() -> GameState:
    """France: a battleship and a transport with two infantry aboard; Germany: one destroyer."""
    return sea_state(france=[("battleship", "North Sea", 1), ("transport", "North Sea", 1)],
                     germany=[("cruiser", "North Sea", 1)])


def fight(state: GameState, rolls: list[int]) -> TurnContext:
    ctx = TurnContext(state.copy(), {}, WORLD, SCENARIO, dice_root=ScriptedDice(rolls))
    bb, tr = sorted((u for u in ctx.state.units if u.nation == "france"), key=lambda u: u.kind)
    cargo = [ctx.state.new_unit("france", "infantry", "North Sea") for _ in range(2)]
    dd = next(u for u in ctx.state.units if u.nation == "germany")
    ours = NavalSide([Ship(bb, "france/A", "transport"), Ship(tr, "france/A", "transport", cargo)], sought=False)
    theirs = NavalSide([Ship(dd, "germany/B", "patrol")], sought=True)
    battle = naval_combat.fight(ctx, "North Sea", theirs, ours, (BattleOrders(), BattleOrders()))
    naval_combat.battle_event(ctx, battle, ["germany/B", "france/A"])
    return ctx


def forces(events: list[Event]) -> dict[str, dict[str, object]]:
    return {e.args["nation"]: e.args for e in events if e.code == "naval-forces"}


# Round 1: the destroyer's 1 hits (the battleship is only damaged); the French transport
# mission cannot fire back in the first round (4.2.1). Contact: the destroyer's 9 misses.
DAMAGED = [1, 9]


def test_each_side_sees_its_own_forces_exactly_and_the_enemy_as_a_band() -> None:
    ctx = fight(north_sea(), DAMAGED)
    told = forces(ctx.events)
    assert sorted(told) == ["france", "germany"]
    assert all(e.seen_by == (e.args["nation"],) for e in ctx.events if e.code == "naval-forces")
    f = told["france"]  # the damaged battleship counts, and the troops aboard
    assert f["own"] == {"france": {"battleship": 1, "infantry": 2, "transport": 1}}
    assert (f["role"], f["band"]) == ("met", "black")
    g = told["germany"]
    assert g["own"] == {"germany": {"cruiser": 1}} and g["role"] == "sought" and g["band"] == "black"
    codes = [e.code for e in ctx.events]
    assert codes[codes.index("naval-battle") + 1:] == ["naval-forces", "naval-forces"]  # right under it


def test_sunk_ships_and_their_troops_still_count_among_the_forces() -> None:
    # Round 1: the destroyer hits the battleship (damaged); round 2 hits it again (sunk), the
    # French ships miss; round 3 the transport sinks with its troops. Contact kept each time (1).
    ctx = fight(north_sea(), [1, 1, 1, 10, 10, 1, 1, 10])
    assert forces(ctx.events)["france"]["own"] == {"france": {"battleship": 1, "infantry": 2, "transport": 1}}
    assert not [u for u in ctx.state.units if u.nation == "france"]


def test_a_phase_3_record_of_the_zone_does_not_stand_for_the_fleet_met_there() -> None:
    # Reconnaissance looked at the zone before the task forces moved (3.3, then 4.2): the
    # battle line tells the band of what was fought, not the stale record.
    s = north_sea()
    s.nations["germany"].flags[KNOWN] = {"North Sea": {"seen": "exact", "units": {"france": {"cruiser": 9}}}}
    s.nations["france"].flags[KNOWN] = {"North Sea": {"seen": "band", "band": "red"}}
    told = forces(fight(s, DAMAGED).events)
    assert told["germany"]["band"] == told["france"]["band"] == "black"
    assert "enemy" not in told["germany"] and "seen" not in told["france"]


def test_many_enemy_units_show_a_higher_band() -> None:
    s = sea_state(france=[("cruiser", "North Sea", 6)], germany=[("cruiser", "North Sea", 1)])
    ctx = TurnContext(s.copy(), {}, WORLD, SCENARIO, dice_root=ScriptedDice([10] * 8))  # all miss; contact lost
    french = [Ship(u, "france/A", "patrol") for u in ctx.state.units if u.nation == "france"]
    german = [Ship(u, "germany/B", "patrol") for u in ctx.state.units if u.nation == "germany"]
    battle = naval_combat.fight(ctx, "North Sea", NavalSide(german, sought=True), NavalSide(french, sought=False))
    naval_combat.battle_event(ctx, battle, ["germany/B", "france/A"])
    told = forces(ctx.events)
    assert (told["germany"]["band"], told["france"]["band"]) == ("yellow", "black")  # six cruisers: 6-20


def test_the_report_lists_the_forces_under_the_naval_battle() -> None:
    ctx = fight(north_sea(), DAMAGED)
    text = nation_mail(ctx.state, ctx.events, SCENARIO, WORLD, INFO, "france").text
    battle = text.index("- Naval battle in North Sea")
    assert text.index("\n  - Forces in North Sea as French Empire saw them:") > battle
    assert says(text, "Forces in North Sea as French Empire saw them: French Empire 1 battleship, 2 infantry, "
                      "1 transport; against them 0-5 enemy units (black).")
    assert "as German Empire saw them" not in text
