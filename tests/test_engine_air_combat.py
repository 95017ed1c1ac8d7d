"""Air combat inside land battles (Phase 4.5 with 4.6; combat_land.air_combat), on the real
1914 map: the defenders' fighters intercept attacking aircraft before the ground rounds,
at the fighter table's values, bombers at 1, a fuel point a round. The chances are
checked with fixed seeds against what the rules make of them."""

from __future__ import annotations

import pytest

from moderator.engine import combat_land, odds
from moderator.engine.combat_land import Front
from moderator.engine.context import TurnContext
from moderator.engine.orders.trenches import FACING
from moderator.engine.technology import UPGRADED
from moderator.orders.model import Attack
from tests.test_engine_phase4_land import SCEN, WORLD, battles, dig, land_step, position, rolls, units


def test_interception_is_one_simultaneous_round_for_fighters_with_fuel_for_one() -> None:
    # Three German fighters (level 0, fuel 3: one round from Konigsberg next door) attack
    # Plock, held by two Russian fighters and one infantry. Both sides' fighters hit at 2
    # (the table, 0 against 0) in one air round, at once; then the German fighters have
    # no fuel for the ground rounds and fly home. Expected losses: Germany 2 x 0.2 = 0.4;
    # Russia min(Bin(3, 0.2), 2): 0.6 - 0.008 = 0.592.
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 2), ("russia", "infantry", "Plock", 1),
                                           ("germany", "fighter", "Konigsberg", 2)])  # and the one there
    n, german, russian = 800, 0, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": [Attack(units(fighter=3), "Konigsberg", "Plock")]}, f"air-{seed}")
        (battle,) = battles(ctx)
        assert (battle["air_rounds"], battle["rounds"]) == (1, 0)
        assert rolls(ctx, "air combat at Plock round 1: attacker germany fighter") == 3
        assert rolls(ctx, "air combat at Plock round 1: defender russia fighter") == 2
        lost = battle["losses"]["germany"].get("fighter", 0)
        german += lost
        russian += battle["losses"]["russia"].get("fighter", 0)
        assert ctx.count("germany", "Konigsberg", "fighter") == 3 - lost
        assert ctx.count("russia", "Plock", "infantry") == 1
    assert abs(german / n - 0.4) < 4 * (2 * 0.16 / n) ** 0.5
    assert abs(russian / n - 0.592) < 4 * (0.6 / n) ** 0.5


def test_bombers_fight_at_one_and_survivors_with_fuel_join_the_ground_rounds() -> None:
    # Bombers: "a combat value of 1 in air combats". A German bomber (fuel 4 from next
    # door: two rounds) meets one Russian fighter: the bomber hits at 1, the fighter at 2.
    # When the fighter falls in the first air round and the bomber lives, the bomber has
    # one round left and fights a ground round; otherwise it spends its fuel in the air.
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 1), ("russia", "infantry", "Plock", 1),
                                           ("germany", "bomber", "Konigsberg", 1)])
    state.nations["germany"].tech["improved_bombers"] = 1
    n, ground, hits = 800, 0, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": [Attack(units(bomber=1), "Konigsberg", "Plock")]}, f"bomber-{seed}")
        (battle,) = battles(ctx)
        first = [r for r in ctx.dice.log if r.purpose == "air combat at Plock round 1: attacker germany bomber"]
        assert len(first) == 1
        hits += first[0].result <= 1
        ground += battle["rounds"]
        assert battle["air_rounds"] + battle["rounds"] <= 2
    # a ground round needs the fighter down in round 1 (0.1) and the bomber alive (0.8)
    assert abs(hits / n - 0.1) < 4 * (0.09 / n) ** 0.5
    assert abs(ground / n - 0.08) < 4 * (0.08 * 0.92 / n) ** 0.5


def test_aircraft_in_an_air_combat_take_no_trench_penalty() -> None:
    # 4.5, special note: "Attacking aircraft which are intercepted and engaged in battle do
    # NOT receive the trench penalty to their attack value for the purposes of the air
    # combat only." A Russian trench in Plock facing Konigsberg (German land): the
    # German fighter attacks at 2 in the air combat, at 2 - 3 -> 1 in the ground round.
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 1), ("russia", "infantry", "Plock", 1),
                                           ("germany", "fighter", "Konigsberg", 1)])
    state.nations["germany"].tech["improved_fighters"] = 1  # fuel 4: two rounds
    state.nations["germany"].flags[UPGRADED] = {"fighter": {"improved_fighters": 1}}  # its fighters too (Phase 2.1)
    trench = state.new_unit("russia", "trench", "Plock")
    state.nations["russia"].flags.setdefault(FACING, {})[trench.id] = "Konigsberg"
    gs = state.copy()
    plane = next(u for u in gs.units if u.nation == "germany" and u.kind == "fighter")
    guard = next(u for u in gs.units if u.nation == "russia" and u.kind == "fighter")
    front = Front(trenches={plane.id: "trench"}, origins={plane.id: "Konigsberg"}, rounds={plane.id: 2}, entrenched=True)
    ctx = TurnContext(gs, {}, WORLD, SCEN)
    battle = combat_land.setup(ctx, "Plock", ["Konigsberg"], "germany", [plane], [guard], "russia", False, front)
    air = combat_land.air_battle(ctx, battle)
    assert air is not None
    assert combat_land.value_of(ctx, air, air.attack, air.attack.real()[0]) == 2  # the table, no trench
    assert combat_land.value_of(ctx, air, air.defend, air.defend.real()[0]) == 1  # level 0 against level 1
    assert combat_land.value_of(ctx, battle, battle.attack, battle.attack.real()[0]) == 1  # the trench: 2 - 3, floor 1


def test_exact_odds_fight_the_air_combat_first() -> None:
    # The same battle as above through `moderator odds` (engine/odds.py): exactly 0.4 and
    # 0.592 expected losses, and no ground round (the attackers' fuel is spent in the air).
    exact = odds.odds_for(SCEN, "germany", {"fighter": 3}, "russia", {"fighter": 2, "infantry": 1})
    assert exact.attacker_losses == pytest.approx(0.4, abs=1e-12)
    assert exact.defender_losses == pytest.approx(0.592, abs=1e-12)
    assert exact.rounds == {0: pytest.approx(1.0)}
    assert exact.outcomes["stopped"] == pytest.approx(1.0)


def test_engine_battles_with_air_combat_match_the_exact_odds() -> None:
    # Two German infantry and two fighters (one round of fuel) against two Russian
    # infantry and a fighter in Plock: the air round, then the ground rounds without the
    # German fighters, the Russian fighter defending at 2 if it lived.
    exact = odds.odds_for(SCEN, "germany", {"infantry": 2, "fighter": 2}, "russia", {"infantry": 2, "fighter": 1})
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 1), ("russia", "infantry", "Plock", 2),
                                           ("germany", "fighter", "Konigsberg", 1), ("germany", "infantry", "Konigsberg", 2)])
    n, won, lost = 800, 0, 0
    for seed in range(n):
        order = Attack(units(infantry=2, fighter=2), "Konigsberg", "Plock")
        ctx = land_step(state, {"germany": [order]}, f"odds-{seed}")
        (battle,) = battles(ctx)
        won += battle["captured"]
        lost += sum(battle["losses"]["germany"].values())
    p = exact.outcomes["captured"]  # by hand: 0.36 x 0.228 (2 against 2) + 0.64 x 0.107 (and the fighter)
    assert p == pytest.approx(0.1504, abs=1e-4)
    assert abs(won / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    assert abs(lost / n - exact.attacker_losses) < 4 * (4 * 0.25 / n) ** 0.5


def test_aircraft_across_a_super_trench_fight_only_the_defenders_aircraft() -> None:
    # Super Trench: "Aircraft can, however, attack across a super trench if there are
    # defending aircraft in the territory, but they may only battle the aircraft there and
    # not the land units." A Russian super trench in Plock faces Konigsberg; a Russian
    # fighter is there: the German fighter (fuel 3: one round) fights the air combat,
    # never a ground round, and flies home; the infantry attack alone.
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 1), ("russia", "infantry", "Plock", 1),
                                           ("germany", "infantry", "Konigsberg", 2)])
    dig(state, "russia", "super_trench", "Plock", "Konigsberg")
    exact = odds.odds_for(SCEN, "germany", {"infantry": 2, "fighter": 1}, "russia", {"infantry": 1, "fighter": 1},
                          trench="super_trench")
    n, won, planes_lost = 600, 0, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": [Attack(units(infantry=2, fighter=1), "Konigsberg", "Plock")]},
                        f"super-air-{seed}")
        (battle,) = battles(ctx)
        assert battle["air_rounds"] >= 1
        assert not [r for r in ctx.dice.log if r.purpose.startswith("land combat") and "germany fighter" in r.purpose]
        lost = battle["losses"]["germany"].get("fighter", 0)
        planes_lost += lost
        assert ctx.count("germany", "Konigsberg", "fighter") == 1 - lost
        won += battle["captured"]
    p = exact.outcomes["captured"]
    assert abs(won / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    # the German fighter meets the Russian one for one round: lost at 0.2
    assert abs(planes_lost / n - 0.2) < 4 * (0.16 / n) ** 0.5
