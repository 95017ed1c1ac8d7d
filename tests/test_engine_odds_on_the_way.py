"""`moderator odds --intercepted N` (engine/odds_on_the_way.py) against the engine: the
aircraft of an attack from two places away met by the defender's fighter on their way
(engine/attack_flights.py on the real 1914 map), with fixed seeds."""

from __future__ import annotations

import json

import pytest

from moderator.engine.odds_on_the_way import intercepted_odds
from tests.test_engine_attack_flights import ORDER, warsaw_raid
from tests.test_engine_odds import run_cli
from tests.test_engine_phase4_land import SCEN, battles, land_step

LEVEL_3 = {"germany": {"improved_fighters": 3}}


def close(seen: int, n: int, p: float, samples: int) -> bool:
    """Within four standard errors, the engine's runs and the odds' samples both counted."""
    return abs(seen / n - p) <= 4 * (max(p * (1 - p), 1e-4) * (1 / n + 1 / samples)) ** 0.5 + 1e-9


def test_the_odds_of_an_attack_intercepted_on_its_way_match_the_engine() -> None:
    # A German fighter of level 3 (fuel 6: 2 out, 2 back, two rounds) attacks Warsaw (one
    # Russian infantry and the city) from Silesia, two places away; a Russian fighter at
    # Lodz intercepts on the way. The odds: no battle 0.82 of the time (the fighter falls or
    # turns back), the infantry destroyed about 4 times in 100.
    samples = 4000
    odds = intercepted_odds(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, 1, city=True,
                            air_distance=2, tech=LEVEL_3, samples=samples)
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
            "--city", "--attacker-tech", "fighters 3", "--json"]
    code, out = run_cli([*base, "--air-distance", "2", "--intercepted", "1"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["intercepted"] == 1
    assert 0.7 < data["odds"]["rounds"]["0"] < 0.9  # most of the time no aircraft arrive
    code, out = run_cli([*base, "--air-distance", "2"], capsys)
    assert code == 0 and "0" not in json.loads(out)["odds"]["rounds"]
    code, out = run_cli([*base, "--intercepted", "1"], capsys)
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
