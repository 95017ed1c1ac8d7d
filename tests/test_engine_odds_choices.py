"""`moderator odds` with technology levels, the defenders' disengagement (4.6) and
artillery that supports one round (Artillery), checked against the engine's own
combat_land.fight() rolled with fixed seeds on the same battle (odds.matchup), and the
aircraft that flew home reported apart from the attackers holding the field."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from moderator.engine import combat_land, odds
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.world.model import World
from moderator.world.scenario import load_scenario

SCEN = load_scenario("1914")


def fought(attack: Mapping[str, int], defend: Mapping[str, int], n: int, tag: str,
           **setup: object) -> dict[str, float]:
    """Frequencies of each outcome over n engine battles of the matchup, seeds 0..n-1."""
    counts = dict.fromkeys(odds.OUTCOMES, 0)
    for i in range(n):
        mu = odds.matchup(SCEN, "germany", attack, "russia", defend, **setup)  # type: ignore[arg-type]
        ctx = TurnContext(odds._levels(SCEN, mu.tech), {}, World({}, {}), SCEN, dice_root=Dice(tag, i))
        ctx.state.units = [*mu.attackers, *mu.defenders]
        battle = combat_land.fight(ctx, "", [], "germany", mu.attackers, mu.defenders, orders=mu.orders,
                                   front=mu.front)
        alive = combat_land.survivors(battle)
        home = [f for f in battle.departed if f.nation == "germany"]  # not the supporting artillery gone home
        if combat_land.defenders_left(battle):
            outcome = "stopped" if alive or home else "repulsed"
        elif not alive and not home:
            outcome = "both_destroyed"
        else:
            outcome = "captured" if any(u.kind in combat_land.CAPTURERS for u in alive) else "cleared"
        counts[outcome] += 1
    return {k: c / n for k, c in counts.items()}


def agree(exact: odds.Odds, seen: Mapping[str, float], n: int) -> None:
    assert sum(exact.outcomes.values()) == pytest.approx(1.0, abs=1e-9)
    for outcome, p in exact.outcomes.items():
        assert abs(seen[outcome] - p) <= 4.5 * (p * (1 - p) / n) ** 0.5 + 1.5 / n, (outcome, seen[outcome], p)


CASES: Sequence[tuple[str, dict[str, int], dict[str, int], dict[str, object]]] = (
    # Improved Fighters 2 against 0: the fighter table gives the Germans 2, the Russians 1,
    # and the German fighters one more fuel point (two rounds from next door).
    ("fighter-levels", {"fighter": 3, "infantry": 2}, {"fighter": 2, "infantry": 2},
     {"tech": {"germany": {"improved_fighters": 2}}}),
    # The Russians disengage once they have lost one unit: infantry leaves, artillery stays.
    ("disengage", {"infantry": 4}, {"infantry": 3, "artillery": 1}, {"disengage": (("losses", 0),)}),
    # Two Russian artillery next door support one round, then go home to their own battle.
    ("support-one-round", {"infantry": 4}, {"infantry": 2}, {"support": 2, "support_rounds": 1}),
    # Level-2 German fighters (three rounds of fuel) break off the air combat once one of
    # them is down, while Russian fighters remain (4.5 step 3).
    ("break-off", {"fighter": 3, "infantry": 2}, {"fighter": 2, "infantry": 2},
     {"tech": {"germany": {"improved_fighters": 2}}, "break_off": (("losses", 0),)}),
    # ... and once they have downed one Russian fighter while the other still flies
    # (BREAK OFF AIR COMBAT ... WHEN 1 KILLS).
    ("break-off-kills", {"fighter": 3, "infantry": 2}, {"fighter": 2, "infantry": 2},
     {"tech": {"germany": {"improved_fighters": 2}}, "break_off": (("kills", 1),)}),
    # The Russian fighters let the German aircraft go: no air combat (4.5).
    ("let-through", {"fighter": 3, "infantry": 2}, {"fighter": 2, "infantry": 2}, {"let_through": True}),
    # Two Russian AA guns fire their free roll at the German aircraft before the first round
    # (Anti Air Guns, 4.6), and their presence spares the defenders the all-air -3 (Fighters).
    ("aa-free-roll", {"fighter": 4}, {"aa": 2, "infantry": 1}, {}),
    # Improved Russian AA guns: the free roll at 2, then once more at the aircraft every round.
    ("improved-aa", {"fighter": 4, "infantry": 2}, {"aa": 2, "infantry": 2}, {"tech": {"russia": {"improved_aa": 1}}}),
    # A Russian radar in the territory: the German aircraft have -1 in the air and on the ground (Radar).
    ("radar", {"fighter": 3, "infantry": 2}, {"fighter": 2, "infantry": 2}, {"radar": True}),
)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_odds_match_the_engine(case: tuple[str, dict[str, int], dict[str, int], dict[str, object]]) -> None:
    name, attack, defend, setup = case
    n = 1500
    exact = odds.odds_for(SCEN, "germany", attack, "russia", defend, **setup)  # type: ignore[arg-type]
    agree(exact, fought(attack, defend, n, f"odds-{name}", **setup), n)


def test_fighter_levels_change_the_air_combat() -> None:
    base = odds.odds_for(SCEN, "germany", {"fighter": 3}, "russia", {"fighter": 2, "infantry": 1})
    better = odds.odds_for(SCEN, "germany", {"fighter": 3}, "russia", {"fighter": 2, "infantry": 1},
                           tech={"germany": {"improved_fighters": 2}})
    # Level 0 against 0, fuel 3: one air round, 2 against 2: Germany loses 2 x 0.2, Russia
    # min(Bin(3, 0.2), 2) = 0.6 - 0.008 (test_engine_air_combat, the same battle).
    assert base.attacker_losses == pytest.approx(0.4, abs=1e-12)
    assert base.defender_losses == pytest.approx(0.592, abs=1e-12)
    assert base.flown_home == pytest.approx(2.6, abs=1e-12) and base.attackers_left == 0.0
    assert better.defender_losses > base.defender_losses and better.attacker_losses > 0


def test_breaking_off_and_letting_through_change_the_air_combat() -> None:
    army, guards = {"fighter": 3}, {"fighter": 2, "infantry": 1}
    level = {"germany": {"improved_fighters": 2}}
    stay = odds.odds_for(SCEN, "germany", army, "russia", guards, tech=level)
    leave = odds.odds_for(SCEN, "germany", army, "russia", guards, tech=level, break_off=(("rounds", 1),))
    # Breaking off after one air round: the Germans never fight a ground round unless the
    # Russian fighters fell in it (both German hits among three at 2: 0.104), and lose
    # what that round cost (two Russian dice at 1: 0.2 on average) and, in those 10.4%,
    # the ground rounds'.
    assert leave.rounds.get(1, 0.0) + leave.rounds.get(2, 0.0) == pytest.approx(0.104, abs=1e-9)
    assert 0.2 <= leave.attacker_losses < stay.attacker_losses
    through = odds.odds_for(SCEN, "germany", army, "russia", guards, let_through=True)
    assert through.defender_losses > 0 and through.outcomes["cleared"] > 0


def test_disengaging_defenders_escape_and_are_not_losses() -> None:
    # Four German infantry against three Russian infantry that disengage after the first
    # round: the battle always ends after one round, the Russians that did not fall escape.
    o = odds.odds_for(SCEN, "germany", {"infantry": 4}, "russia", {"infantry": 3}, disengage=(("rounds", 1),))
    assert o.rounds == {1: pytest.approx(1.0)}
    assert o.defender_losses + o.defenders_escaped == pytest.approx(3.0)
    assert o.outcomes["captured"] + o.outcomes["both_destroyed"] == pytest.approx(1.0)


def test_aircraft_flown_home_are_reported_apart() -> None:
    # Six fighters against one infantry (issue 10): they clear it about 74% of the time,
    # and in every battle the survivors flew home after their one round: none holds the field.
    o = odds.odds_for(SCEN, "germany", {"fighter": 6}, "russia", {"infantry": 1})
    assert o.outcomes["cleared"] == pytest.approx(1 - 0.8**6, abs=1e-12)
    assert o.attackers_left == 0.0
    assert o.flown_home == pytest.approx(6 - 0.2, abs=1e-12)


def test_odds_with_a_radar() -> None:
    # Radar: "Enemy planes receive -1 to their attack when radar is present": six fighters
    # (attack 2, one round of fuel) hit the lone infantry at 1, clearing it 1 - 0.9^6 of the
    # time instead of 1 - 0.8^6; the infantry, at 5 - 3 against aircraft alone (the radar is
    # no AA gun), downs a fighter 2 times in 10 either way.
    o = odds.odds_for(SCEN, "germany", {"fighter": 6}, "russia", {"infantry": 1}, radar=True)
    assert o.outcomes["cleared"] == pytest.approx(1 - 0.9**6, abs=1e-12)
    assert o.attacker_losses == pytest.approx(0.2, abs=1e-12)


def test_the_aa_guns_free_roll_in_a_land_battle() -> None:
    # Anti Air Guns: "Each AA unit gets only one die roll against enemy planes entering the
    # given territory ... Planes destroyed do not get to attack." One fighter (one round of
    # fuel) against an infantry and an AA gun: shot down first 1 time in 10, else it hits at
    # 2; the infantry (5: the AA gun spares it the all-air -3) and the gun (1) roll back.
    o = odds.odds_for(SCEN, "germany", {"fighter": 1}, "russia", {"aa": 1, "infantry": 1})
    assert o.defender_losses == pytest.approx(0.9 * 0.2, abs=1e-12)
    assert o.attacker_losses == pytest.approx(0.1 + 0.9 * (1 - 0.5 * 0.9), abs=1e-12)


def test_improved_aa_guns_fire_every_round() -> None:
    # Improved Anti-Aircraft Guns: +1 defense and "fire once every round of an attack ... in
    # addition to the one die roll they receive when aircraft first enter". One fighter (one
    # round of fuel) against an infantry and an improved AA gun: shot down first 2 times in
    # 10; else in the round the infantry (5), the gun as a defender (2) and the gun's fire at
    # the aircraft (2) down it with 1 - 0.5 x 0.8 x 0.8; it hits at 2 meanwhile.
    o = odds.odds_for(SCEN, "germany", {"fighter": 1}, "russia", {"aa": 1, "infantry": 1},
                      tech={"russia": {"improved_aa": 1}})
    assert o.attacker_losses == pytest.approx(0.2 + 0.8 * (1 - 0.5 * 0.8 * 0.8), abs=1e-12)
    assert o.defender_losses == pytest.approx(0.8 * 0.2, abs=1e-12)


def test_cli_takes_technology_disengagement_and_one_round_support(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.test_engine_odds import run_cli

    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "3 ftr, 2 inf", "--defender", "russia",
                         "--defend", "2 ftr, 2 inf", "--attacker-tech", "Improved Fighters 2",
                         "--disengage-losses", "1", "--support", "2", "--support-one-round"], capsys)
    assert code == 0
    assert "technology germany: Improved Fighters 2" in out and "defenders disengage at losses:1" in out
    assert "for one round" in out and "aircraft flown home" in out and "defenders escaped" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "3 ftr", "--defender", "russia",
                         "--defend", "2 inf", "--attacker-tech", "fighters 9"], capsys)
    assert code == 2 and "Improved Fighters has 4 advances, not 9" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "3 inf", "--defender", "russia",
                         "--defend", "2 inf", "--disengage-after", "0"], capsys)
    assert code == 2 and "at least one round" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "3 ftr", "--defender", "russia",
                         "--defend", "2 ftr, 1 inf", "--attacker-tech", "fighters 2", "--break-off-after", "1",
                         "--let-through"], capsys)
    assert code == 0 and "break off at rounds:1" in out and "let the aircraft through" in out
