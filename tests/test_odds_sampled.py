"""`moderator odds` for a battle too large to work out exactly (issue 10: "exact where the
state space allows, seeded simulation of the same engine code otherwise, with a progress
bar on long runs"): engine/odds_sampled.py fights the battle with combat_land.play, the
engine's own code, with fixed dice."""

from __future__ import annotations

import json

import pytest

from moderator.engine import odds, odds_sampled
from moderator.world.scenario import load_scenario
from tests.test_engine_odds import run_cli

SCEN = load_scenario("1914")
SMALL = ({"infantry": 4, "artillery": 1, "fighter": 1}, {"infantry": 3, "aa": 1})


def test_the_walk_gives_way_past_its_budget() -> None:
    mu = odds.matchup(SCEN, "germany", *SMALL[:1], "russia", SMALL[1])
    with pytest.raises(odds.TooLarge):
        odds.battle_odds(SCEN, "", "germany", mu.attackers, mu.defenders, holder="russia", front=mu.front,
                         budget=3)
    exact = odds.battle_odds(SCEN, "", "germany", mu.attackers, mu.defenders, holder="russia", front=mu.front,
                             budget=odds.STEP_BUDGET)
    assert exact.samples == 0


def test_rolled_odds_agree_with_the_exact_ones_and_repeat_to_the_byte() -> None:
    exact = odds.odds_for(SCEN, "germany", SMALL[0], "russia", SMALL[1])
    seen: list[tuple[int, int]] = []
    rolled = odds.odds_for(SCEN, "germany", SMALL[0], "russia", SMALL[1], budget=0,
                           progress=lambda done, total: seen.append((done, total)))
    n = odds_sampled.SAMPLES
    assert rolled.samples == n and exact.samples == 0
    assert seen[-1] == (n, n) and len(seen) == n // odds_sampled.PROGRESS_EVERY
    assert sum(rolled.outcomes.values()) == pytest.approx(1.0)
    for outcome, p in exact.outcomes.items():
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(rolled.outcomes[outcome] - p) <= 4.5 * sigma + 1.5 / n, (outcome, rolled.outcomes[outcome], p)
    # the averages too: losses within a few tenths of a unit over 2000 battles
    assert rolled.attacker_losses == pytest.approx(exact.attacker_losses, abs=0.15)
    assert rolled.defender_losses == pytest.approx(exact.defender_losses, abs=0.15)
    assert rolled.expected_rounds == pytest.approx(exact.expected_rounds, abs=0.15)
    again = odds.odds_for(SCEN, "germany", SMALL[0], "russia", SMALL[1], budget=0)
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(rolled.to_json(), sort_keys=True)


def test_a_withdrawal_after_n_rounds_is_the_engines_condition_when_rolled() -> None:
    args = ("germany", {"infantry": 5}, "russia", {"infantry": 5})
    exact = odds.odds_for(SCEN, *args, max_rounds=1)
    rolled = odds.odds_for(SCEN, *args, max_rounds=1, budget=0)
    assert set(rolled.rounds) == {1} and set(exact.rounds) == {1}
    assert rolled.outcomes["stopped"] == pytest.approx(exact.outcomes["stopped"], abs=0.04)


def test_the_cli_says_when_it_rolled_the_battle(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["odds", "--attacker", "germany", "--defender", "russia", "--attack", "4 infantry, 1 fighter",
            "--defend", "3 infantry"]
    code, out = run_cli(argv, capsys)
    assert code == 0 and "simulated" not in out
    monkeypatch.setattr("moderator.analysis_commands.STEP_BUDGET", 0)
    code, out = run_cli(argv, capsys)
    assert code == 0
    assert f"the engine fought this battle {odds_sampled.SAMPLES} times with fixed dice" in out
    assert "within about 2.2%" in out
    code, out = run_cli([*argv, "--json"], capsys)
    data = json.loads(out)
    assert data["odds"]["method"] == "simulated" and data["odds"]["samples"] == odds_sampled.SAMPLES


def test_the_exact_walk_tells_its_progress_towards_its_budget() -> None:
    # issue 10: "a progress bar on long runs" - the exact walk too, not only the rolled battles
    mu = odds.matchup(SCEN, "germany", {"infantry": 12, "artillery": 3}, "russia", {"infantry": 10})
    told: list[tuple[int, int]] = []
    exact = odds.battle_odds(SCEN, "", "germany", mu.attackers, mu.defenders, holder="russia", front=mu.front,
                             budget=odds.STEP_BUDGET, walking=lambda done, total: told.append((done, total)))
    assert exact.samples == 0 and len(told) > 3
    assert all(total == odds.STEP_BUDGET for _, total in told)
    steps = [done for done, _ in told]
    assert steps == sorted(steps) and steps[0] > 0 and steps[-1] <= odds.STEP_BUDGET
    closed: list[tuple[int, int]] = []  # past its budget the walk's bar closes before the battles are rolled
    rolled = odds.odds_for(SCEN, "germany", *SMALL[:1], "russia", SMALL[1], budget=3,
                           walking=lambda done, total: closed.append((done, total)))
    assert rolled.samples == odds_sampled.SAMPLES and closed[-1] == (3, 3)
