"""`moderator odds --raid` and `--rebase` (issue 10, "Battle odds for every kind of
battle"): a bombing raid (4.1.1) and a rebasing flight (4.1.2), flown by the engine's own
order homes and steps (engine/flight_odds.py) with fixed dice. Checked against what the
rules give in closed form, against the engine's raid on the real map, and the checks the
order's home makes."""

from __future__ import annotations

import json

import pytest

from moderator.engine import flight_odds
from moderator.engine.odds_on_the_way import Guarded
from moderator.world.scenario import load_scenario
from tests.test_engine_odds import run_cli

SCEN = load_scenario("1914")
BOMBERS_2 = {"germany": {"improved_bombers": 2}}  # 4.1.1: industrial bombing needs bomber technology 2


def near(seen: float, p: float, n: int) -> bool:
    """A share seen over n seeded flights against its chance p (4.5 standard errors)."""
    return abs(seen - p) <= 4.5 * (p * (1 - p) / n) ** 0.5 + 1.5 / n


def test_a_lone_bomber_meets_one_fighter_as_the_rules_say() -> None:
    # 4.5 with 4.1.1: one bomber (fuel 4, next door: one round to spare) against one
    # fighter of level 0: one round, the bomber hitting at 1, the fighter at 2. The bomber
    # bombs only if it downs the fighter and lives (0.1 x 0.8), falls 2 times in 10, and
    # otherwise turns back short of fuel (0.72).
    o = flight_odds.flight_odds(SCEN, "germany", {"bomber": 1}, "russia", mission="tactical", defend={"fighter": 1})
    n = o.samples
    assert near(o.through.get(1, 0.0), 0.08, n) and near(o.lost, 0.2, n) and near(o.turned_back, 0.72, n)
    assert near(o.interceptors_lost, 0.1, n)
    assert o.damage == pytest.approx(o.expected_through)  # tactical: a strike point a plane through
    assert o.rounds == pytest.approx(1.0)


def two_d10_capped(cap: int) -> float:
    return sum(min(a + b, cap) for a in range(1, 11) for b in range(1, 11)) / 100


def test_industrial_damage_is_a_d10_a_bomber_through_never_more_than_is_saved() -> None:
    # Anti Air Guns: one roll at 1 (defense value) before the bombing: one of two bombers
    # downed 1 time in 10. 4.1.1: "subtract 1D10 resources" a bomber through, capped by
    # what the target nation has saved (12 here).
    o = flight_odds.flight_odds(SCEN, "germany", {"bomber": 2}, "britain", mission="industry", defend={"aa": 1},
                                tech=BOMBERS_2, saved=12)
    n = o.samples
    assert set(o.through) == {1, 2} and near(o.through[1], 0.1, n) and near(o.aa_downed, 0.1, n)
    expected = 0.9 * two_d10_capped(12) + 0.1 * 5.5
    spread = 4.5 * (20 / n) ** 0.5  # the damage's spread is under 4.5 points a flight
    assert abs(o.damage - expected) <= spread
    uncapped = flight_odds.flight_odds(SCEN, "germany", {"bomber": 2}, "britain", mission="industry",
                                       defend={"aa": 1}, tech=BOMBERS_2)
    assert uncapped.damage > o.damage and abs(uncapped.damage - 0.9 * 11 - 0.1 * 5.5) <= 4.5 * (40 / n) ** 0.5


def test_manpower_and_strike_points_count_the_bombers_through() -> None:
    city = flight_odds.flight_odds(SCEN, "germany", {"bomber": 3}, "russia", mission="city", tech=BOMBERS_2,
                                   manpower=2)
    assert city.through == {3: pytest.approx(1.0)} and city.damage == pytest.approx(2.0)  # at most the manpower
    # 4.1.1 "If three or more Tactical Strike Points are scored ... +1": three bombers, an
    # AA gun downing one 1 time in 10
    tactical = flight_odds.flight_odds(SCEN, "germany", {"bomber": 3}, "russia", mission="tactical", defend={"aa": 1})
    assert near(tactical.strike_bonus, 0.9, tactical.samples)
    assert tactical.strike_bonus == pytest.approx(tactical.through.get(3, 0.0))


def test_the_raid_odds_agree_with_the_engines_raid_on_the_real_map() -> None:
    # The stand-in map against the 1914 map: Germany's two bombers from Silesia raid Lodz,
    # next door, guarded by a Russian fighter and an AA gun (tests/test_engine_raids.py; its
    # bombers have their start levels: fuel 4, one round to spare).
    from tests.test_engine_raids import raid

    o = flight_odds.flight_odds(SCEN, "germany", {"bomber": 2}, "russia", mission="tactical",
                                defend={"fighter": 1, "aa": 1})
    assert o.through.get(0, 0.0) > 0.5  # the fighter and the gun stop most raids
    n = 600
    through = [sum(raid((("fighter", 1), ("aa", 1)), 2, "tactical", f"odds-real-map-{i}")["through"].values())
               for i in range(n)]
    for k in range(3):
        assert near(through.count(k) / n, o.through.get(k, 0.0), n), (k, through.count(k) / n, o.through)


def test_a_rebase_over_guarded_enemy_land() -> None:
    # 4.1.2 over the land of the defender, Anti Air Guns: a gun on the way downs one of two
    # fighters 1 time in 10; nothing else stops them.
    o = flight_odds.flight_odds(SCEN, "germany", {"fighter": 2}, "russia", mission="rebase", distance=2,
                                way=[Guarded(aa=1)])
    assert near(o.through.get(1, 0.0), 0.1, o.samples) and o.all_through == pytest.approx(1 - o.through.get(1, 0.0))
    assert o.each_through == pytest.approx(1 - o.through.get(1, 0.0) / 2)
    free = flight_odds.flight_odds(SCEN, "germany", {"fighter": 2}, "russia", mission="rebase", distance=3)
    assert free.through == {2: pytest.approx(1.0)} and free.lost == 0
    # a fighter over the way: the planes fight while their doubled fuel lasts, else turn back
    met = flight_odds.flight_odds(SCEN, "germany", {"fighter": 2}, "russia", mission="rebase", distance=2,
                                  way=[Guarded(fighters=1)])
    assert met.turned_back > 0.1 and met.lost > 0.1 and met.all_through < 0.9
    assert sum(met.through.values()) == pytest.approx(1.0)
    assert met.expected_through + met.lost + met.turned_back + met.broke_off == pytest.approx(2.0)


def test_the_orders_home_refuses_what_the_engine_would_refuse() -> None:
    with pytest.raises(ValueError, match="technology level 2"):  # 4.1.1: bombers of level 2
        flight_odds.flight_odds(SCEN, "germany", {"bomber": 1}, "russia", mission="industry")
    with pytest.raises(ValueError, match="rebasing range"):  # 4.1.2: twice the fuel, double over enemy land
        flight_odds.flight_odds(SCEN, "germany", {"fighter": 1}, "russia", mission="rebase", distance=6)
    with pytest.raises(ValueError, match="friendly territory"):  # Fighters: there, a round, and back
        flight_odds.flight_odds(SCEN, "germany", {"bomber": 1}, "russia", mission="city", distance=3,
                                tech=BOMBERS_2)
    with pytest.raises(ValueError, match="aircraft"):
        flight_odds.flight_odds(SCEN, "germany", {"infantry": 1}, "russia", mission="tactical")


def test_the_cli_flies_raids_and_rebases(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["odds", "--attacker", "germany", "--defender", "russia"]
    code, out = run_cli([*base, "--raid", "industry", "--attack", "2 bmb", "--defend", "1 aa",
                         "--attacker-tech", "bombers 2", "--saved", "12"], capsys)
    assert code == 0 and "Bombing raid (4.1.1)" in out and "each plane over the target" in out
    assert "expected damage:" in out and "at most the 12 saved" in out and "2000 times with fixed dice" in out
    code, out = run_cli([*base, "--rebase", "--attack", "2 ftr", "--air-distance", "2", "--on-the-way", "1 aa",
                         "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["odds"]["mission"] == "rebase" and data["odds"]["method"] == "simulated"
    assert data["battle"]["on_the_way"] == [{"fighters": 0, "aa": 1}]
    again = json.loads(run_cli([*base, "--rebase", "--attack", "2 ftr", "--air-distance", "2", "--on-the-way", "1 aa",
                                "--json"], capsys)[1])
    assert again == data  # fixed dice: the same answer every time
    code, out = run_cli([*base, "--raid", "industry", "--attack", "1 bmb"], capsys)
    assert code == 2 and "technology level 2" in out
    code, out = run_cli([*base, "--rebase", "--attack", "1 ftr", "--defend", "1 inf"], capsys)
    assert code == 2 and "infantry do not fight aircraft" in out
    code, out = run_cli([*base, "--rebase", "--attack", "1 ftr", "--defend", "1 aa"], capsys)
    assert code == 2 and "nothing defends it" in out
    code, out = run_cli([*base, "--raid", "tactical", "--attack", "1 bmb", "--trench"], capsys)
    assert code == 2 and "--trench is for a battle" in out
    code, out = run_cli([*base, "--sea", "--raid", "tactical", "--attack", "1 bmb"], capsys)
    assert code == 2 and "leave out --sea" in out


def test_the_odds_count_their_units_and_moves_in_the_right_number(capsys: pytest.CaptureFixture[str]) -> None:
    # "3 bombers, 2 moves", "1 bomber, 1 move", "2 destroyers/cruisers": never "3 bomber" or "move(s)"
    base = ["odds", "--attacker", "germany", "--defender", "russia", "--rebase"]
    code, out = run_cli([*base, "--attack", "3 bmb", "--air-distance", "2"], capsys)
    assert code == 0 and "germany: 3 bombers, 2 moves to friendly land" in out
    code, out = run_cli([*base, "--attack", "1 bmb, 2 ftr"], capsys)
    assert code == 0 and "germany: 1 bomber, 2 fighters, 1 move to friendly land" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "2 inf, 1 aa", "--defender", "russia",
                         "--defend", "1 inf"], capsys)
    assert code == 2 and "AA guns never attack" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "3 inf, 2 ftr, 1 tank", "--defender", "russia",
                         "--defend", "1 inf, 1 aa"], capsys)
    assert code == 0 and "germany: 2 fighters, 3 infantry, 1 tank" in out and "russia: 1 AA gun, 1 infantry" in out
    code, out = run_cli(["odds", "--sea", "--attacker", "germany", "--attack", "1 bb, 2 dd", "--defender", "russia",
                         "--defend", "1 bb, 1 dd", "--radar-ships", "1"], capsys)
    assert code == 0 and "germany: 1 battleship (bb), 2 destroyers/cruisers (dd)" in out
    assert "russia: 1 battleship (bb), 1 destroyer/cruiser (dd)" in out and "radar aboard 1 ship:" in out


def test_the_readmes_raid_and_rebase_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    examples = re.findall(r"^\.venv/bin/moderator (odds --(?:raid|rebase) .*)$", readme, flags=re.M)
    assert len(examples) >= 2
    for line in examples:
        code, out = run_cli(shlex.split(line), capsys)
        assert code == 0 and "simulated: the engine flew this" in out, (line, out)


def test_a_rebasing_fighter_over_an_enemy_fighter_as_the_rules_say() -> None:
    # As tests/test_engine_rebase_flights.py on the real map: a German fighter of Improved
    # Fighters 3 (12 fuel rebasing, 4 for the way over one enemy place: rounds to spare)
    # against one Russian fighter (fighting at 1 to its 2); the German falls in a round
    # when the guard hits (0.1) after k rounds both missed (0.72^k), while the guard's
    # tank lasts (the Russian fighter's fuel: its rounds).
    from moderator.engine.context import TurnContext
    from moderator.engine.odds import _levels
    from moderator.engine.state import Unit
    from moderator.world.model import World

    o = flight_odds.flight_odds(SCEN, "germany", {"fighter": 1}, "russia", mission="rebase", distance=2,
                                way=[Guarded(fighters=1)], tech={"germany": {"improved_fighters": 3}})
    ctx = TurnContext(_levels(SCEN, {"russia": {}}), {}, World({}, {}), SCEN)
    tank = ctx.stats("russia", "fighter", Unit("r", "russia", "fighter", "")).fuel  # type: ignore[union-attr]
    lost = sum(0.72 ** k * 0.1 for k in range(tank))
    assert near(o.lost, lost, o.samples) and o.turned_back == 0
    assert o.all_through == pytest.approx(1 - o.lost)


def test_the_players_choices_and_the_way_home_reach_the_engine() -> None:
    # 4.5: LET THROUGH lets every plane by; BREAK OFF AIR COMBAT after a round sends the
    # raiders home unbombed while interceptors remain
    args = ("germany", {"bomber": 2}, "russia")
    guarded = {"fighter": 2}
    passed = flight_odds.flight_odds(SCEN, *args, mission="tactical", defend=guarded, let_through=True)
    assert passed.through == {2: pytest.approx(1.0)} and passed.rounds == 0
    fought = flight_odds.flight_odds(SCEN, *args, mission="tactical", defend=guarded,
                                     tech={"germany": {"improved_bombers": 3}})
    broke = flight_odds.flight_odds(SCEN, *args, mission="tactical", defend=guarded,
                                    tech={"germany": {"improved_bombers": 3}}, break_off=[("rounds", 1)])
    assert broke.broke_off > 0.3 and broke.rounds == pytest.approx(1.0) and fought.rounds > 1.2
    assert broke.expected_through < fought.expected_through
    # Fighters: there, the run, and back to friendly land; nearer friendly land (--home)
    # leaves the fuel for the way there
    with pytest.raises(ValueError, match="friendly territory"):
        flight_odds.flight_odds(SCEN, *args, mission="city", distance=3, tech=BOMBERS_2)
    near_home = flight_odds.flight_odds(SCEN, *args, mission="city", distance=3, home=1, tech=BOMBERS_2)
    assert near_home.through == {2: pytest.approx(1.0)} and near_home.damage == pytest.approx(2.0)
