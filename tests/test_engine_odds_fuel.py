"""The fuel of `moderator odds` (--air-distance, --home) against the engine's (4.5,
"Fighters": 1 fuel point a land territory, 2 into or out of a sea zone, 1 a round): an
attacking plane keeps the fuel to reach the nearest friendly land from the battle
(phase4_land.air_rounds, fuel.rounds_paid), not the way back to its start. Checked on the
real 1914 map with fixed seeds against the odds' exact figures."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from moderator.engine import odds
from moderator.engine.state import GameState
from moderator.engine.technology import UPGRADED
from moderator.orders.model import Attack
from tests.test_engine_odds import run_cli
from tests.test_engine_phase4_land import SCEN, battles, land_step, position, units

LEVEL_3 = {"germany": {"improved_fighters": 3}}


def plock_from_berlin() -> GameState:
    """Three German fighters of level 3 (fuel 6) at Berlin, two places from Plock (two
    Russian infantry) by way of German Posen; Plock's German neighbours (Posen, West
    Prussia, Konigsberg) are the nearest land to come down in, one point away."""
    state = position(clear=["Plock", "Berlin"], add=[("russia", "infantry", "Plock", 2),
                                                     ("germany", "fighter", "Berlin", 3)])
    state.nations["germany"].tech["improved_fighters"] = 3
    state.nations["germany"].flags[UPGRADED] = {"fighter": {"improved_fighters": 3}}
    return state


def test_an_attack_from_two_places_away_keeps_only_the_fuel_to_the_nearest_friendly_land() -> None:
    # 6 fuel - 2 there - 1 to Posen = three rounds (the way back to Berlin would leave two).
    # Three fighters at 2 against two infantry at 5 - 3 = 2 (an attack all by air): the
    # infantry are destroyed 0.48 of the time in three rounds, 0.31 in two.
    exact = odds.odds_for(SCEN, "germany", {"fighter": 3}, "russia", {"infantry": 2}, air_distance=2, tech=LEVEL_3)
    two_rounds = odds.odds_for(SCEN, "germany", {"fighter": 3}, "russia", {"infantry": 2}, air_distance=2, home=2,
                               tech=LEVEL_3)
    assert max(exact.rounds) == 3 and max(two_rounds.rounds) == 2
    p = exact.outcomes["cleared"] + exact.outcomes["both_destroyed"]
    assert p - (two_rounds.outcomes["cleared"] + two_rounds.outcomes["both_destroyed"]) > 0.15  # the test can tell
    state = plock_from_berlin()
    n, cleared, rounds = 800, 0, Counter[int]()
    for seed in range(n):
        ctx = land_step(state, {"germany": [Attack(units(fighter=3), "Berlin", "Plock")]}, f"odds-fuel-home-{seed}")
        (battle,) = battles(ctx)
        rounds[battle["rounds"]] += 1
        cleared += not [u for u in ctx.state.units if u.location == "Plock"]
    assert abs(cleared / n - p) <= 4 * (p * (1 - p) / n) ** 0.5
    for r, q in exact.rounds.items():  # the rounds fought, as often as the odds say
        assert abs(rounds[r] / n - q) <= 4 * (q * (1 - q) / n) ** 0.5 + 1 / n, (r, rounds[r] / n, q)
    assert set(rounds) <= set(exact.rounds)


def test_the_way_home_is_between_next_door_and_the_way_there() -> None:
    with pytest.raises(ValueError, match="--home"):
        odds.odds_for(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, air_distance=2, home=3,
                      tech=LEVEL_3)
    with pytest.raises(ValueError, match="--home"):
        odds.odds_for(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, home=0)
    with pytest.raises(ValueError, match="cannot fight 3 away and fly 3"):  # 6 - 3 - 3: no round
        odds.odds_for(SCEN, "germany", {"fighter": 1}, "russia", {"infantry": 1}, air_distance=3, home=3,
                      tech=LEVEL_3)
    # no aircraft: the way home asks nothing
    assert odds.odds_for(SCEN, "germany", {"infantry": 1}, "russia", {"infantry": 1}, home=5).attackers == 1


def test_the_cli_takes_the_way_home(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["odds", "--attacker", "germany", "--attack", "3 ftr", "--defender", "russia", "--defend", "2 inf",
            "--attacker-tech", "fighters 3", "--air-distance", "2"]
    code, out = run_cli([*base, "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["home"] == 1 and max(int(r) for r in data["odds"]["rounds"]) == 3
    code, out = run_cli([*base, "--home", "2", "--json"], capsys)
    assert code == 0 and max(int(r) for r in json.loads(out)["odds"]["rounds"]) == 2
    code, out = run_cli(base, capsys)
    assert code == 0 and "aircraft fuel 2 there, 1 to friendly land" in out
    code, out = run_cli([*base, "--home", "3"], capsys)
    assert code == 2 and "--home" in out
