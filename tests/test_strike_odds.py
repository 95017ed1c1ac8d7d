"""`moderator odds --sea` with aircraft striking ships (engine/strike_odds.py) against the
engine's strikes (phase4_air_sea.strike in phase4_sea.naval_movement) with fixed seeds:
the carriers' fighters intercepting first (4.3 step 1), the players' LET THROUGH and BREAK
OFF AIR COMBAT for the zone (4.5), radar's -1 to the aircraft and its warning (Radar), and
the command line."""

from __future__ import annotations

import json
import statistics
from typing import Any

import pytest

from moderator.engine import phase4_sea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.naval_odds import naval_odds_for
from moderator.engine.state import GameState
from tests.test_engine_air_at_sea import count, scenario, strike, strike_state
from tests.test_engine_examples import within_four_sigma
from tests.test_engine_naval import WORLD, parsed_orders
from tests.test_engine_odds import run_cli
from tests.test_engine_sea_choices import WARNED, radar_bbs
from tests.test_engine_sea_choices import strike as warned_strike

LEVELS = {"britain": {"improved_fighters": 3}, "germany": {"improved_fighters": 2}}


def close(seen: float, n: int, p: float, spread: float = 1.0) -> bool:
    """Within four standard errors of the engine's count (spread: the outcome's largest
    value, for a mean), the odds' own sampling error under a tenth of it."""
    return abs(seen / n - p) <= 4 * spread * (max(p * (1 - p), 1e-3) / n) ** 0.5 + 0.01


def test_the_carriers_fighter_intercepts_before_the_strike_as_the_engine_flies_it() -> None:
    # Three British fighters of level 3 (fuel 6: two rounds at sea) strike a German carrier
    # and cruiser with one fighter of level 2 aboard: one air round first, keeping one for
    # the ships; the strikers go on only if the guard falls, else they turn back.
    exact = naval_odds_for(scenario(6), "britain", {"fighter": 3}, "germany", {"carrier": 1, "cruiser": 1},
                           max_rounds=2, tech=LEVELS, carrier_fighters=1)
    assert sum(exact.outcomes.values()) + exact.pruned == pytest.approx(1.0, abs=1e-9)
    assert 0.2 < exact.rounds[0] < 0.8  # the guard stops the strike a good part of the time
    state = strike_state(fighters=3, fighter_level=3, carrier=1, cruiser=1, fighter=1)
    n, no_battle, lost, sunk = 1000, 0, 0, 0
    for seed in range(n):
        ctx = strike(state, "ATTACK 3 ftr FROM London TO North Sea", Dice("strike-odds-guard", seed), fuel=6)
        no_battle += not any(e.code == "naval-battle" for e in ctx.events)
        lost += 3 - count(ctx, "britain", "fighter")
        sunk += 2 - count(ctx, "germany", "carrier") - count(ctx, "germany", "cruiser")
    assert close(no_battle, n, exact.rounds[0])
    assert close(lost, n, exact.attacker_losses, spread=3)
    assert close(sunk, n, exact.defender_losses, spread=2)
    plain = naval_odds_for(scenario(6), "britain", {"fighter": 3}, "germany", {"carrier": 1, "cruiser": 1},
                           max_rounds=2, tech=LEVELS)
    assert plain.defender_losses > 2 * exact.defender_losses  # the guard matters


def test_a_radar_aboard_lowers_the_strikers_and_warns_the_ships_as_the_engine_does() -> None:
    # One British fighter (fuel 5: one round) on a German battleship carrying radar: the
    # fighter attacks at one less (Radar); with WITHDRAW ... IF RADAR WARNS the ships sail
    # away half the time before anything is fired.
    exact = naval_odds_for(scenario(5), "britain", {"fighter": 1}, "germany", {"battleship": 1}, radar_ships=1)
    blind = naval_odds_for(scenario(5), "britain", {"fighter": 1}, "germany", {"battleship": 1})
    assert exact.defender_damaged < blind.defender_damaged
    warned = naval_odds_for(scenario(5), "britain", {"fighter": 1}, "germany", {"battleship": 1}, radar_ships=1,
                            radar_retreat=True)
    assert warned.outcomes["evaded"] == pytest.approx(0.5)
    assert warned.defender_damaged == pytest.approx(exact.defender_damaged / 2)
    n, damaged, gone = 1500, 0, 0
    for seed in range(n):
        ctx = warned_strike(radar_bbs(), "", Dice("strike-odds-radar", seed))
        damaged += sum(1 for u in ctx.state.units if u.kind == "battleship" and u.damage)
    assert within_four_sigma(damaged, n, exact.defender_damaged)
    for seed in range(n):
        ctx = warned_strike(radar_bbs(), WARNED, Dice("strike-odds-warned", seed))
        gone += any(e.code == "radar-retreat" for e in ctx.events)
    assert within_four_sigma(gone, n, warned.outcomes["evaded"])


def test_sonar_aboard_lowers_the_attacking_submarines() -> None:
    # Sonar: "all subs attacking a task force with a sonar unit in it receive -1 to their
    # attack": a submarine's free round and its rounds hit less often.
    kw = dict(attack_mission="patrol", free="attacker", max_rounds=1)
    sonar = naval_odds_for(scenario(5), "germany", {"submarine": 2}, "britain", {"transport": 2}, sonar=True, **kw)
    none = naval_odds_for(scenario(5), "germany", {"submarine": 2}, "britain", {"transport": 2}, **kw)
    sub = scenario(5).stats("germany", "submarine").attack
    assert sub == 2 and none.defender_losses > sonar.defender_losses > 0


def test_the_cli_takes_the_defenders_fighters_and_gear(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["odds", "--sea", "--attacker", "britain", "--attack", "3 ftr", "--defender", "germany",
            "--defend", "1 cv, 1 bb", "--rounds", "2", "--attacker-tech", "fighters 2, carriers 1",
            "--defender-tech", "fighters 2, carriers 1", "--json"]
    code, out = run_cli([*base, "--carrier-fighters", "2", "--cover", "1", "--cover-rounds", "2", "--radar-ships",
                         "1", "--radar-retreat"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["carrier_fighters"] == 2 and data["battle"]["radar_ships"] == 1
    assert data["odds"]["outcomes"]["evaded"] == pytest.approx(0.5)
    code, out = run_cli([*base, "--carrier-fighters", "9"], capsys)
    assert code == 2 and "hold" in out
    code, out = run_cli([*base, "--radar-ships", "3"], capsys)
    assert code == 2 and "battleships and carriers" in out
    code, out = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 dd", "--defender", "germany",
                         "--defend", "1 dd", "--carrier-fighters", "1"], capsys)
    assert code == 2 and "aircraft" in out


def test_the_progress_bar_shows_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse
    import io

    from moderator.analysis_commands import progress_bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    show = progress_bar("flying the way", argparse.Namespace(json=False))
    assert show is not None
    for i in range(1, 201):
        show(i, 200)
    assert "[###############...............] 100/200" in screen.getvalue() and "200/200" in screen.getvalue()
    assert progress_bar("flying the way", argparse.Namespace(json=True)) is None
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert progress_bar("flying the way", argparse.Namespace(json=False)) is None


def strike_with(state: GameState, britain: str, germany: str, dice: Dice, fuel: int) -> TurnContext:
    """The engine's strike (phase4_sea.naval_movement) with orders of both nations."""
    orders = {"britain": parsed_orders(britain), "germany": parsed_orders(germany) if germany else []}
    ctx = TurnContext(state.copy(), orders, WORLD, scenario(fuel), dice_root=dice)
    phase4_sea.naval_movement(ctx)
    return ctx


CHOICES = (
    # BREAK OFF AIR COMBAT AT North Sea AFTER 1 ROUND: with fuel 8 the strikers have four
    # rounds at sea, three of them for the air combat; they leave after the first one
    # whenever the carrier's fighter still flies, instead of fighting it on.
    ("break-off", "BREAK OFF AIR COMBAT AT North Sea AFTER 1 ROUND", "", {"break_off": [("rounds", 1)]}, 1),
    # ... WHEN 1 KILLS, against the carrier's two fighters: once one is down and the other
    # still flies, the strikers go home.
    ("break-off-kills", "BREAK OFF AIR COMBAT AT North Sea WHEN 1 KILLS", "", {"break_off": [("kills", 1)]}, 2),
    # LET THROUGH AT North Sea: the carrier's fighter lets them go: no air combat, and it
    # does not defend with the ships in the rounds either (as the engine plays it).
    ("let-through", "", "LET THROUGH AT North Sea", {"let_through": True}, 1),
)


@pytest.mark.parametrize("case", CHOICES, ids=[c[0] for c in CHOICES])
def test_the_players_air_combat_choices_at_sea_change_the_strike_as_in_the_engine(
        case: tuple[str, str, str, dict[str, object], int]) -> None:
    name, britain, germany, choice, guards = case
    kw: dict[str, Any] = dict(max_rounds=4, tech=LEVELS, carrier_fighters=guards)
    exact = naval_odds_for(scenario(8), "britain", {"fighter": 3}, "germany", {"carrier": 1, "cruiser": 1},
                           **kw, **choice)
    plain = naval_odds_for(scenario(8), "britain", {"fighter": 3}, "germany", {"carrier": 1, "cruiser": 1}, **kw)
    assert sum(exact.outcomes.values()) + exact.pruned == pytest.approx(1.0, abs=1e-9)
    # the choice matters well beyond the checks' spread below: the test can tell it from none
    assert abs(exact.rounds.get(0, 0.0) - plain.rounds.get(0, 0.0)) > 0.15  # no strike: 0.16 without a choice
    state = strike_state(fighters=3, fighter_level=3, carrier=1, cruiser=1, fighter=guards)
    n, no_battle, lost, sunk = 1000, 0, [], []
    for seed in range(n):
        ctx = strike_with(state, f"ATTACK 3 ftr FROM London TO North Sea\n{britain}", germany,
                          Dice(f"strike-odds-{name}", seed), fuel=8)
        no_battle += not any(e.code == "naval-battle" for e in ctx.events)
        lost.append(3 - count(ctx, "britain", "fighter"))
        sunk.append(2 - count(ctx, "germany", "carrier") - count(ctx, "germany", "cruiser"))
    assert close(no_battle, n, exact.rounds.get(0, 0.0))
    assert mean_close(lost, exact.attacker_losses) and mean_close(sunk, exact.defender_losses)


def mean_close(seen: list[int], expected: float) -> bool:
    """The engine's mean within four of its standard errors (and the odds' sampling, 0.01)."""
    sd = statistics.pstdev(seen) or 0.03
    return abs(statistics.fmean(seen) - expected) <= 4 * sd / len(seen) ** 0.5 + 0.01


def test_the_cli_takes_the_air_combat_choices_at_sea(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["odds", "--sea", "--attacker", "britain", "--attack", "3 ftr", "--defender", "germany",
            "--defend", "1 cv, 1 bb", "--rounds", "3", "--attacker-tech", "fighters 4, carriers 1",
            "--defender-tech", "fighters 2, carriers 1", "--carrier-fighters", "2", "--json"]
    code, out = run_cli(base, capsys)
    plain = json.loads(out)["odds"]
    code, out = run_cli([*base, "--let-through"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["let_through"] and "0" not in data["odds"]["rounds"]
    assert data["odds"]["defender_losses"] > plain["defender_losses"]
    code, out = run_cli([*base, "--break-off-after", "1"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["break_off"] == ["rounds:1"]
    assert data["odds"]["rounds"]["0"] > plain["rounds"]["0"]
    code, out = run_cli([*base[:-1], "--break-off-losses", "0"], capsys)
    assert code == 0 and "break off the air combat at losses:0" in out
    code, out = run_cli([*base, "--break-off-kills", "1"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["break_off"] == ["kills:1"]
    assert data["odds"]["rounds"]["0"] > plain["rounds"]["0"]
    code, out = run_cli([*base, "--break-off-after", "0"], capsys)
    assert code == 2 and "at least one round" in out
    code, out = run_cli([*base, "--break-off-kills", "0"], capsys)
    assert code == 2 and "1 or more" in out
    ships = ["odds", "--sea", "--attacker", "britain", "--attack", "1 dd", "--defender", "germany", "--defend", "1 dd"]
    for flag in (["--let-through"], ["--break-off-after", "1"]):
        code, out = run_cli([*ships, *flag], capsys)
        assert code == 2 and "--attack names aircraft" in out
