"""Radar and sonar aboard ships at sea (engine/gear_aboard.py): Phase 4.2 "Reconaissance
factor of ships can be increased by two if radar unit is mounted, or 50% if sonar is
mounted in missions against submarines"; Sonar: "all subs attacking a task force with a
sonar unit in it receive -1 to their attack". Each effect exactly with scripted dice, and
the radar's sighting chance counted with fixed seeds."""

from __future__ import annotations

from moderator.engine import naval_combat
from moderator.engine.combat_orders import BattleOrders
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.gear_aboard import GEAR
from moderator.engine.naval_combat import NavalSide, Ship
from moderator.engine.state import GameState
from tests.test_engine_examples import within_four_sigma
from tests.test_engine_naval import SCENARIO, WORLD, naval_turn, parsed_orders, sail, sea_state


def mount(state: GameState, nation: str, kind: str, gear: str) -> GameState:
    """The gear aboard every ship of that kind of the nation (as Phase 7 leaves it)."""
    record = state.nations[nation].flags.setdefault(GEAR, {})
    for u in state.units:
        if u.nation == nation and u.kind == kind:
            record[u.id] = sorted({*record.get(u.id, ()), gear})
    return state


LONE_BB = {"france": "TF P AT English Channel: 1 bb\nTF P PATROL TO North Sea",
           "germany": "TF T AT North Sea: 3 tr\nTF T TRANSPORT"}


def lone_bb(radar: bool) -> GameState:
    state = sea_state(france=[("battleship", "English Channel", 1)], germany=[("transport", "North Sea", 3)])
    return mount(state, "france", "battleship", "radar") if radar else state


def met(ctx: TurnContext) -> bool:
    return any(e.code == "naval-battle" for e in ctx.events)


def test_radar_raises_the_sighting_by_two() -> None:
    # The battleship sights on 1-3 (transports lower nothing); with radar on 1-5.
    assert not met(naval_turn(lone_bb(False), LONE_BB, ScriptedDice([5])))
    # sighted on the 5; round 1: the battleship misses (the transports cannot fire); contact lost on a 10
    with_radar = naval_turn(lone_bb(True), LONE_BB, ScriptedDice([5, 10, 10]))
    assert met(with_radar)


def test_a_radar_battleship_sights_as_often_as_its_raised_factor_says() -> None:
    trials = 600
    seen = sum(met(naval_turn(lone_bb(True), LONE_BB, Dice("radar-rate", seed))) for seed in range(trials))
    assert within_four_sigma(seen, trials, 0.5)


HUNT = "DETECT SUBS IN North Sea WITH 1 dd"


def hunters(sonar: bool) -> GameState:
    state = sea_state(britain=[("cruiser", "North Sea", 1)], germany=[("submarine", "North Sea", 1)])
    state.nations["britain"].at_war_with = ["germany"]
    state.nations["germany"].at_war_with = ["britain"]
    return mount(state, "britain", "cruiser", "sonar") if sonar else state


def hunt(state: GameState, dice: Dice) -> TurnContext:
    return sail(TurnContext(state.copy(), {"britain": parsed_orders(HUNT)}, WORLD, SCENARIO, dice_root=dice))


def test_sonar_detects_on_half_again_the_capability() -> None:
    # Destroyers detect on 1-5; with sonar on 1-7 (5 x 3/2, rounded down).
    assert not met(hunt(hunters(False), ScriptedDice([7])))
    ctx = hunt(hunters(True), ScriptedDice([7, 10, 10, 10]))  # found; the free round and round 1 miss
    battle = next(e for e in ctx.events if e.code == "naval-battle")
    assert battle.args["free"] == "detection"
    assert ctx.dice.log[0].result == 7 and ctx.dice.log[0].purpose.endswith("britain cruiser")


def test_submarines_attacking_a_task_force_with_sonar_lose_one() -> None:
    # The submarine attacks at 2; against sonar at 1, so its 2 misses.
    for sonar, lost in ((False, 1), (True, 0)):
        state = hunters(sonar)
        ctx = TurnContext(state.copy(), {}, WORLD, SCENARIO, dice_root=ScriptedDice([2, 10, 10]))
        ss = next(u for u in ctx.state.units if u.kind == "submarine")
        dd = next(u for u in ctx.state.units if u.kind == "cruiser")
        subs = NavalSide([Ship(ss, "germany/subs", "intercept")], sought=True)
        target = NavalSide([Ship(dd, "britain/A", "move")], sought=False)
        battle = naval_combat.fight(ctx, "North Sea", subs, target, (BattleOrders(), BattleOrders()),
                                    free=(subs, list(subs.ships), "submarines"),
                                    after_round=lambda b: "submarines-dive" if b.rounds >= 1 else None)
        assert sum(target.losses.get("britain", {}).values()) == lost, sonar
        assert battle.free == "submarines"


def test_aircraft_attacking_a_radar_ship_lose_one() -> None:
    # Radar: "Enemy planes receive -1 to their attack when radar is present": the fighter
    # attacks at 2, against a radar battleship at 1, so its 2 misses.
    for radar, damaged in ((False, 1), (True, 0)):
        state = sea_state(britain=[("battleship", "North Sea", 1)], germany=[("fighter", "North Sea", 1)])
        if radar:
            mount(state, "britain", "battleship", "radar")
        ctx = TurnContext(state.copy(), {}, WORLD, SCENARIO, dice_root=ScriptedDice([2, 10]))
        bb = next(u for u in ctx.state.units if u.kind == "battleship")
        ftr = next(u for u in ctx.state.units if u.kind == "fighter")
        planes = NavalSide([Ship(ftr, "germany/aircraft", "attack")], sought=True)
        ships = NavalSide([Ship(bb, "britain/A", "move")], sought=False)
        naval_combat.fight(ctx, "North Sea", planes, ships, (BattleOrders(), BattleOrders()),
                           after_round=lambda b: "aircraft-home")
        assert bb.damage == damaged, radar
