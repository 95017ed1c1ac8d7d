"""AA guns aboard ships (Improved Anti-Aircraft Guns: "may also be put on ships.
Battleships and carriers may hold 2 improved AA guns, while cruisers and transports may
carry 1"; 4.3 step 3: "Any AA guns on the ships get to fire at the planes that are going
to attack"): the order and its checks, the mounting in Phase 7, the guns' one roll
before the rounds exactly with scripted dice, and its rate with fixed seeds."""

from __future__ import annotations

import dataclasses
from functools import cache

import pytest

from moderator.engine import gear_aboard, phase4_sea
from moderator.engine.context import PendingBuild, TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.gear_aboard import GEAR
from moderator.engine.orders import ship_gear
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.orders.parser import parse_orders
from moderator.world.scenario import load_scenario
from moderator.world.scenario_model import Scenario
from tests.test_engine_air_at_sea import STRIKE, count, scenario, strike_state
from tests.test_engine_examples import within_four_sigma
from tests.test_engine_naval import WORLD, parsed_orders


@cache
def with_aa_tech() -> Scenario:
    """The small scenario of the strikes (fighters of fuel 5) with the 1914 scenario's
    Improved Anti-Aircraft Guns (+1 defense: the guns hit on 1-2)."""
    real = load_scenario("1914")
    return dataclasses.replace(scenario(5), technologies={"improved_aa": real.technologies["improved_aa"]})


def strike(state: GameState, orders: str, dice: Dice) -> TurnContext:
    ctx = TurnContext(state.copy(), {"britain": parsed_orders(orders)}, WORLD, with_aa_tech(), dice_root=dice)
    phase4_sea.naval_movement(ctx)
    return ctx


def guns(state: GameState, kind: str, n: int) -> GameState:
    """n AA guns aboard every German ship of that kind (as Phase 7 leaves them)."""
    state.nations["germany"].tech["improved_aa"] = 1
    record = state.nations["germany"].flags.setdefault(GEAR, {})
    for u in state.units:
        if u.nation == "germany" and u.kind == kind:
            record[u.id] = sorted([*record.get(u.id, ()), *["aa"] * n])
    return state


def test_build_aa_on_a_ship_is_parsed_as_ship_gear() -> None:
    parsed = parse_orders("BUILD 2 AA ON bb AT North Sea")
    assert list(parsed.orders) == [m.BuildShipGear("aa", "North Sea", "battleship")] * 2
    assert not parsed.diagnostics


def test_the_checker_wants_the_technology_a_ship_that_holds_guns_and_room_aboard() -> None:
    state = strike_state(cruiser=1, battleship=1, submarine=1)
    ctx = TurnContext(state.copy(), {}, WORLD, with_aa_tech())
    order = m.BuildShipGear("aa", "North Sea", "cruiser")
    problem = ship_gear.RULE.problem(ctx, "germany", order)
    assert problem is not None and problem.code == "needs-tech"
    ctx.state.nations["germany"].tech["improved_aa"] = 1
    sub = ship_gear.RULE.problem(ctx, "germany", m.BuildShipGear("aa", "North Sea", "submarine"))
    assert sub is not None and sub.code == "aa-ship"
    # a cruiser holds one gun, a battleship two (counted on the units there)
    assert ship_gear.aa_room(ctx, "germany", "North Sea", "cruiser") == 1
    assert ship_gear.aa_room(ctx, "germany", "North Sea", "battleship") == 2
    guns(ctx.state, "battleship", 1)
    assert ship_gear.aa_room(ctx, "germany", "North Sea", "battleship") == 1


def test_phase_7_puts_each_gun_on_a_ship_with_room() -> None:
    state = strike_state(battleship=1, cruiser=1)
    ctx = TurnContext(state.copy(), {}, WORLD, scenario(5))
    bb = next(u for u in ctx.state.units if u.kind == "battleship")
    cr = next(u for u in ctx.state.units if u.kind == "cruiser")
    for on in ("battleship", "battleship", "battleship", "cruiser", "cruiser"):
        gear_aboard.mount(ctx, PendingBuild("germany", "aa", 1, "North Sea", 3, 0, on=on))
    assert gear_aboard.guns(ctx, bb) == 2 and gear_aboard.guns(ctx, cr) == 1
    lost = [e for e in ctx.events if e.code == "build-lost"]
    assert len(lost) == 2  # the third for the battleship and the second for the cruiser found no room


def test_the_guns_fire_once_after_the_ships_defensive_fire_and_hit_planes() -> None:
    # Step 2: the cruiser's defensive fire misses (10); step 3: its gun (Improved AA: defense
    # 2) rolls 2, a hit: the fighter is downed before it attacks; no round is fought.
    state = guns(strike_state(cruiser=1), "cruiser", 1)
    ctx = strike(state, STRIKE, ScriptedDice([10, 2]))
    battle = next(e for e in ctx.events if e.code == "naval-battle")
    assert battle.args["aa"] == 1 and battle.args["rounds"] == 0
    assert battle.args["losses"]["britain"] == {"fighter": 1}
    assert count(ctx, "germany", "cruiser") == 1
    assert [r.purpose for r in ctx.dice.log][1] == "naval combat in North Sea AA fire: germany aa aboard cruiser"


def test_the_guns_do_not_fire_again_in_the_rounds_nor_at_leaving_aircraft() -> None:
    # Step 2 misses (10), the gun misses (3 > 2); round 1: fighter 10, cruiser 10; the
    # cruiser's parting fire (step 6, "no AA fire") 10: four rolls after the gun's.
    state = guns(strike_state(cruiser=1), "cruiser", 1)
    ctx = strike(state, STRIKE, ScriptedDice([10, 3, 10, 10, 10]))
    battle = next(e for e in ctx.events if e.code == "naval-battle")
    assert battle.args["aa"] == 0 and battle.args["rounds"] == 1
    assert sum("AA fire" in r.purpose for r in ctx.dice.log) == 1


def test_a_battleships_two_guns_down_a_striker_as_often_as_step_3_says() -> None:
    # A fighter of fuel 5 against a battleship (defense d in ten, the scenario's) carrying
    # two improved guns (2 in 10 each). The fighter is downed before the rounds by the
    # defensive fire or the guns: 1 - (1 - d) x 0.8 x 0.8.
    state = guns(strike_state(battleship=1), "battleship", 2)
    d = scenario(5).stats("germany", "battleship").defense / 10
    trials = 1200
    before = 0
    for seed in range(trials):
        ctx = strike(state, STRIKE, Dice("ship-aa-rate", seed))
        battle = next(e for e in ctx.events if e.code == "naval-battle")
        before += battle.args["rounds"] == 0 and count(ctx, "britain", "fighter") == 0
    assert within_four_sigma(before, trials, 1 - (1 - d) * 0.8 * 0.8)


def test_the_exact_odds_of_a_strike_match_the_engines_strikes() -> None:
    # `moderator odds --sea` with aircraft attacking (engine/naval_odds.py): the ships'
    # defensive fire, two AA guns aboard, the rounds the fuel pays (fuel 6: 2 in, 2 back,
    # 2 rounds), contact rolled after the first, and the ships' fire at the leaving
    # aircraft; played by the engine (phase4_air_sea.strike) with fixed seeds.
    from moderator.engine.naval_odds import naval_odds_for

    real = load_scenario("1914")
    six = dataclasses.replace(scenario(6), technologies={"improved_aa": real.technologies["improved_aa"]})
    state = guns(strike_state(fighters=2, battleship=1), "battleship", 2)
    exact = naval_odds_for(six, "britain", {"fighter": 2}, "germany", {"battleship": 1}, max_rounds=2, aa=2)
    assert sum(exact.outcomes.values()) + exact.pruned == pytest.approx(1.0, abs=1e-12)
    trials = 1500
    downed = lost = damaged = 0
    for seed in range(trials):
        ctx = TurnContext(state.copy(), {"britain": parsed_orders("ATTACK 2 ftr FROM London TO North Sea")}, WORLD,
                          six, dice_root=Dice("strike-odds", seed))
        phase4_sea.naval_movement(ctx)
        left = count(ctx, "britain", "fighter")
        downed += left == 0
        lost += 2 - left
        damaged += sum(1 for u in ctx.state.units if u.kind == "battleship" and u.damage)
    assert within_four_sigma(downed, trials, exact.outcomes["attackers_sunk"] + exact.outcomes["both_sunk"])
    assert within_four_sigma(damaged, trials, exact.defender_damaged)
    assert abs(lost / trials - exact.attacker_losses) <= 4 / trials ** 0.5  # losses in 0..2: sigma at most 1
