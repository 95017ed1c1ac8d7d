"""`moderator odds --sea` for a naval battle too large to walk exactly (issue 10: "exact
where the state space allows, seeded simulation of the same engine code otherwise, with a
progress bar on long runs"): engine/naval_odds_sampled.py fights the battle with
naval_combat.fight, the engine's own code, with fixed dice."""

from __future__ import annotations

import json

import pytest

from moderator.engine import naval_odds, naval_odds_sampled
from moderator.engine.odds import TooLarge
from moderator.world.scenario import load_scenario
from tests.test_engine_odds import run_cli

SCEN = load_scenario("1914")
# A medium battle: both patrol (both attack, contact may be lost), battleships taking two
# hits, fighters on deck leaving with their carrier, a free round, a withdrawal.
MEDIUM = ("britain", {"battleship": 2, "cruiser": 2, "carrier": 1}, "germany",
          {"battleship": 2, "cruiser": 3, "carrier": 1, "submarine": 1})
SETUP = dict(defend_mission="patrol", attack_deck=1, defend_deck=1, free="attacker", max_rounds=3)


def test_the_naval_walk_gives_way_past_its_budget() -> None:
    ships = naval_odds.task_force("germany", MEDIUM[3], "patrol", "d")
    fleet = naval_odds.task_force("britain", MEDIUM[1], "patrol", "a")
    with pytest.raises(TooLarge):
        naval_odds.naval_battle_odds(SCEN, fleet, ships, defenders_sought=True, budget=10)
    assert naval_odds.naval_battle_odds(SCEN, fleet, ships, defenders_sought=True,
                                        budget=naval_odds.step_budget(11)).samples == 0


def test_rolled_naval_odds_agree_with_the_exact_ones_within_their_stated_error() -> None:
    exact = naval_odds.naval_odds_for(SCEN, *MEDIUM, **SETUP)  # type: ignore[arg-type]
    seen: list[tuple[int, int]] = []
    rolled = naval_odds.naval_odds_for(SCEN, *MEDIUM, budget=0,  # type: ignore[arg-type]
                                       progress=lambda done, total: seen.append((done, total)), **SETUP)
    n = naval_odds_sampled.SAMPLES
    assert exact.samples == 0 and rolled.samples == n
    assert seen[-1] == (n, n) and len(seen) == n // naval_odds_sampled.PROGRESS_EVERY
    assert sum(rolled.outcomes.values()) == pytest.approx(1.0)
    assert min(exact.outcomes[k] for k in ("withdrawn", "contact_lost", "defenders_sunk")) > 0.05  # paths taken
    assert exact.defender_planes_lost > 0.5
    stated = 2 * (0.25 / n) ** 0.5  # what the answer states: two standard errors at 50%
    for outcome, p in exact.outcomes.items():
        assert abs(rolled.outcomes[outcome] - p) <= stated, (outcome, rolled.outcomes[outcome], p)
    for name in ("attacker_losses", "defender_losses", "attacker_damaged", "defender_damaged",
                 "defender_planes_lost", "expected_rounds"):
        assert getattr(rolled, name) == pytest.approx(getattr(exact, name), abs=0.12), name
    again = naval_odds.naval_odds_for(SCEN, *MEDIUM, budget=0, **SETUP)  # type: ignore[arg-type]
    assert json.dumps(again.to_json(), sort_keys=True) == json.dumps(rolled.to_json(), sort_keys=True)


def test_the_cli_says_when_it_rolled_the_naval_battle(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["odds", "--sea", "--attacker", "britain", "--attack", "1 bb, 2 dd", "--defender", "germany",
            "--defend", "3 dd"]
    code, out = run_cli(argv, capsys)
    assert code == 0 and "simulated" not in out
    monkeypatch.setattr("moderator.engine.naval_odds.STEPS_PER_SHIP", 0)
    code, out = run_cli(argv, capsys)
    assert code == 0
    assert f"the engine fought this battle {naval_odds_sampled.SAMPLES} times with fixed dice" in out
    assert "within about 2.2%" in out
    code, out = run_cli([*argv, "--json"], capsys)
    data = json.loads(out)
    assert data["odds"]["method"] == "simulated" and data["odds"]["samples"] == naval_odds_sampled.SAMPLES


def test_submarines_hits_fall_on_ships_only_in_the_walk_as_in_the_engine() -> None:
    # 4.3 step 5: "hits scored by submarines can only be applied to ships". Four submarines
    # against a carrier with two fighters on deck and a cruiser: the fighters (cheapest)
    # are never hit, the ships are; the walk took the hits as one count before, downing a
    # fighter a third of the time where the engine never does.
    args = ("britain", {"submarine": 4}, "germany", {"carrier": 1, "cruiser": 1})
    exact = naval_odds.naval_odds_for(SCEN, *args, defend_deck=2, max_rounds=2)  # type: ignore[arg-type]
    rolled = naval_odds.naval_odds_for(SCEN, *args, defend_deck=2, max_rounds=2, budget=0)  # type: ignore[arg-type]
    assert exact.defender_planes_lost == 0 and rolled.defender_planes_lost == 0
    assert exact.defender_losses > 0.2
    assert rolled.defender_losses == pytest.approx(exact.defender_losses, abs=0.05)
    stated = 2 * (0.25 / rolled.samples) ** 0.5
    for outcome, p in exact.outcomes.items():
        assert abs(rolled.outcomes[outcome] - p) <= stated, (outcome, rolled.outcomes[outcome], p)


def test_the_exact_naval_walk_tells_its_progress_and_the_cli_draws_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 10: "a progress bar on long runs" - the exact walk too, drawn on a terminal and closed
    import io

    from moderator.analysis_commands import WALKING
    from moderator.cli import main

    ships = naval_odds.task_force("germany", MEDIUM[3], "patrol", "d")
    fleet = naval_odds.task_force("britain", MEDIUM[1], "patrol", "a")
    budget = naval_odds.step_budget(11)
    told: list[tuple[int, int]] = []
    naval_odds.naval_battle_odds(SCEN, fleet, ships, defenders_sought=True, budget=budget,
                                 walking=lambda done, total: told.append((done, total)))
    steps = [done for done, total in told if total == budget]
    assert len(steps) == len(told) > 3 and steps == sorted(steps) and steps[-1] <= budget

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    assert main(["odds", "--sea", "--attacker", "britain", "--attack", "2 bb, 2 ca, 1 cv", "--defender", "germany",
                 "--defend", "2 bb, 3 ca, 1 cv, 1 ss", "--defend-mission", "patrol"]) == 0
    drawn = screen.getvalue()
    assert f"  {WALKING} [" in drawn and drawn.endswith("\r")  # drawn, then the line cleared
