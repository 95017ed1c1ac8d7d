"""`moderator odds --intercepted N` and `--on-the-way` (engine/odds_on_the_way.py) against
the engine: the aircraft of an attack from two or three places away met by the defender's
fighters and AA guns on their way (engine/attack_flights.py on the real 1914 map), with
fixed seeds."""

from __future__ import annotations

import json

import pytest

from moderator.engine.odds_on_the_way import Guarded, intercepted_odds
from moderator.engine.state import GameState
from moderator.engine.technology import UPGRADED
from moderator.orders.model import Attack
from tests.test_engine_attack_flights import ORDER, warsaw_raid
from tests.test_engine_odds import run_cli
from tests.test_engine_phase4_land import SCEN, battles, land_step, position, units

LEVEL_3 = {"germany": {"improved_fighters": 3}}


def close(seen: int, n: int, p: float, samples: int) -> bool:
    """Within four standard errors, the engine's runs and the odds' samples both counted."""
    return abs(seen / n - p) <= 4 * (max(p * (1 - p), 1e-4) * (1 / n + 1 / samples)) ** 0.5 + 1e-9


def test_the_odds_of_an_attack_intercepted_on_its_way_match_the_engine() -> None:
    # A German fighter of level 3 (fuel 6: 2 out, 2 back, two rounds) attacks Warsaw (one
    # Russian infantry and the city) from Silesia, two places away; a Russian fighter at
    # Lodz intercepts on the way. Every neighbour of Warsaw is Russian: the nearest German
    # land is 2 away (--home 2). The odds: no battle 0.82 of the time (the fighter falls or
    # turns back), the infantry destroyed about 4 times in 100.
    samples = 4000
    odds = intercepted_odds(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, 1, city=True,
                            air_distance=2, home=2, tech=LEVEL_3, samples=samples)
    assert abs(sum(odds.outcomes.values()) - 1) < 1e-9
    assert 0.7 < odds.rounds[0] < 0.9
    n, no_battle, cleared, lost = 800, 0, 0, 0
    state = warsaw_raid(1)
    for seed in range(n):
        ctx = land_step(state, {"germany": ORDER}, f"odds-on-the-way-{seed}")
        no_battle += not battles(ctx)
        cleared += not [u for u in ctx.state.units if u.location == "Warsaw" and u.nation == "russia"]
        lost += not [u for u in ctx.state.units if u.nation == "germany" and u.kind == "fighter"
                     and u.location == "Silesia"]
    assert close(no_battle, n, odds.rounds[0], samples)
    assert close(cleared, n, odds.outcomes["cleared"] + odds.outcomes["both_destroyed"], samples)
    assert close(lost, n, odds.attacker_losses, samples)


def test_without_interceptors_the_odds_are_the_battles_own() -> None:
    from moderator.engine.odds import odds_for

    plain = odds_for(SCEN, "germany", {"fighter": 2, "infantry": 2}, "russia", {"infantry": 2}, air_distance=2,
                     tech=LEVEL_3)
    none = intercepted_odds(SCEN, "germany", {"fighter": 2, "infantry": 2}, "russia", {"infantry": 2}, 0,
                            air_distance=2, tech=LEVEL_3, samples=5)
    assert none.outcomes == plain.outcomes and none.attacker_losses == plain.attacker_losses


def test_the_cli_takes_intercepted_and_refuses_it_from_next_door(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["odds", "--attacker", "germany", "--attack", "1 ftr", "--defender", "russia", "--defend", "1 inf",
            "--city", "--attacker-tech", "fighters 3", "--home", "2", "--json"]
    code, out = run_cli([*base, "--air-distance", "2", "--intercepted", "1"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["intercepted"] == 1
    assert 0.7 < data["odds"]["rounds"]["0"] < 0.9  # most of the time no aircraft arrive
    code, out = run_cli([*base, "--air-distance", "2"], capsys)
    assert code == 0 and "0" not in json.loads(out)["odds"]["rounds"]
    code, out = run_cli([*base, "--intercepted", "1", "--home", "1"], capsys)
    assert code == 2 and "--air-distance 2" in out


def test_breaking_off_after_a_round_on_the_way_sends_more_aircraft_home() -> None:
    # A fighter of level 4 has the fuel for more than one round on the way; with BREAK OFF
    # AIR COMBAT after one round (read on the way as the engine reads it) it turns for home
    # whenever the interceptor still flies after that round: fewer battles are fought.
    tech = {"germany": {"improved_fighters": 4}}
    stay = intercepted_odds(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, 1, air_distance=2,
                            tech=tech, samples=1000)
    leave = intercepted_odds(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, 1, air_distance=2,
                             tech=tech, samples=1000, break_off=[("rounds", 1)])
    assert leave.rounds[0] > stay.rounds[0] + 0.1 and leave.flown_home > stay.flown_home


def baltic_bombers() -> GameState:
    """Two German bombers of level 4 (fuel 10: 3 out, 3 back to the nearest German land,
    four rounds) at Konigsberg, three places from Estonia (one Russian infantry) by its
    one way over land, Lithuania then Latvia: a Russian AA gun at Lithuania, a gun and a
    fighter at Latvia."""
    add = [("germany", "bomber", "Konigsberg", 2), ("russia", "infantry", "Estonia", 1),
           ("russia", "aa", "Lithuania", 1), ("russia", "aa", "Latvia", 1), ("russia", "fighter", "Latvia", 1)]
    state = position(clear=["Estonia", "Lithuania", "Latvia"], add=add)
    state.nations["germany"].tech["improved_bombers"] = 4
    state.nations["germany"].flags[UPGRADED] = {"bomber": {"improved_bombers": 4}}
    return state


def test_the_odds_over_two_guarded_places_with_aa_guns_match_the_engine() -> None:
    # Over each place the gun fires first (Anti Air Guns), then the fighter intercepts (4.5):
    # the odds fly the same air_passage.fly over two stand-in places, in order. The bombers
    # (at 1 in the air) keep three rounds for the way; the fighter (at 2) has three.
    samples = 4000
    way = [Guarded(aa=1), Guarded(fighters=1, aa=1)]
    odds = intercepted_odds(SCEN, "germany", {"bomber": 2}, "russia", {"infantry": 1}, way, air_distance=3, home=3,
                            tech={"germany": {"improved_bombers": 4}}, samples=samples)
    assert abs(sum(odds.outcomes.values()) - 1) < 1e-9
    state = baltic_bombers()
    order = [Attack(units(bomber=2), "Konigsberg", "Estonia")]
    n, no_battle, cleared, lost = 1500, 0, 0, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": order}, f"odds-two-places-{seed}")
        (event,) = [e.args for e in ctx.events if e.code == "attack-intercepted"]
        assert event["via"] == ["Lithuania", "Latvia"]
        no_battle += not battles(ctx)
        cleared += not [u for u in ctx.state.units if u.location == "Estonia" and u.nation == "russia"]
        lost += 2 - sum(1 for u in ctx.state.units if u.nation == "germany" and u.kind == "bomber")
    assert 0.1 < odds.rounds[0] < 0.9 and 0.1 < odds.attacker_losses / 2 < 0.9  # neither side certain
    assert close(no_battle, n, odds.rounds[0], samples)
    assert close(cleared, n, odds.outcomes["cleared"] + odds.outcomes["both_destroyed"], samples)
    mean_lost = odds.attacker_losses / 2  # two bombers: each lost as often as this
    assert close(lost, 2 * n, mean_lost, samples)


def test_the_guns_on_the_way_down_planes_before_the_fighters_and_alone_never_cost_a_round() -> None:
    # One gun (at 1) over the one place between: the fighter falls 1 time in 10, and when it
    # lives it has both its rounds for the battle (a gun's shot is no round of combat).
    odds = intercepted_odds(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, [Guarded(aa=1)],
                            city=True, air_distance=2, tech=LEVEL_3, samples=4000)
    assert abs(odds.rounds[0] - 0.1) < 4 * (0.09 / 4000) ** 0.5
    assert odds.flown_home < odds.attackers  # those it did not down went on


def test_the_cli_takes_guarded_places_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["odds", "--attacker", "germany", "--attack", "2 bmb", "--defender", "russia", "--defend", "1 inf",
            "--city", "--attacker-tech", "bombers 4", "--json"]
    code, out = run_cli([*base, "--air-distance", "3", "--on-the-way", "1 aa; 1 ftr, 1 aa"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["on_the_way"] == [{"fighters": 0, "aa": 1}, {"fighters": 1, "aa": 1}]
    assert 0.1 < data["odds"]["rounds"]["0"] < 0.9
    code, out = run_cli([*base, "--air-distance", "2", "--on-the-way", "1 aa; 1 ftr"], capsys)
    assert code == 2 and "--air-distance 3" in out
    code, out = run_cli([*base, "--air-distance", "3", "--on-the-way", "1 inf"], capsys)
    assert code == 2 and "fighters and AA guns" in out
    code, out = run_cli([*base, "--air-distance", "3", "--intercepted", "1", "--on-the-way", "1 aa"], capsys)
    assert code == 2 and "not both" in out
