"""moderator.engine.odds: the exact battle odds (Phase 4.6) against closed forms and
against the real engine's combat_land.fight() rolled many times with fixed seeds."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.analysis_commands import parse_units, register
from moderator.engine import combat_land, odds
from moderator.engine.combat_orders import BattleOrders
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.state import GameState, Unit
from moderator.orders.model import CombatCondition
from tests import engine_fixture as fx

SCEN = fx.scenario()


def test_one_on_one_closed_form() -> None:
    # Fixture infantry: attack 3, defense 5. A round decides unless both miss (s).
    p, q = 0.3, 0.5
    s = (1 - p) * (1 - q)
    o = odds.odds_for(SCEN, "germany", {"infantry": 1}, "russia", {"infantry": 1})
    assert o.outcomes["captured"] == pytest.approx(p * (1 - q) / (1 - s), abs=1e-12)
    assert o.outcomes["both_destroyed"] == pytest.approx(p * q / (1 - s), abs=1e-12)
    assert o.outcomes["repulsed"] == pytest.approx((1 - p) * q / (1 - s), abs=1e-12)
    assert o.outcomes["cleared"] == o.outcomes["stopped"] == 0.0
    for r in (1, 2, 5):  # rounds are geometric
        assert o.rounds[r] == pytest.approx(s ** (r - 1) * (1 - s), abs=1e-12)
    assert o.expected_rounds == pytest.approx(1 / (1 - s), abs=1e-9)
    assert o.attacker_losses == pytest.approx(q / (1 - s), abs=1e-12)
    assert o.defender_losses == pytest.approx(p / (1 - s), abs=1e-12)


def test_max_rounds_one_is_a_single_round_of_binomials() -> None:
    o = odds.odds_for(SCEN, "germany", {"infantry": 1}, "russia", {"infantry": 1}, max_rounds=1)
    assert o.rounds == {1: pytest.approx(1.0)}
    assert o.outcomes["stopped"] == pytest.approx(0.7 * 0.5)


def test_artillery_alone_fights_one_round() -> None:
    o = odds.odds_for(SCEN, "germany", {"artillery": 2}, "russia", {"infantry": 1})
    assert o.rounds == {1: pytest.approx(1.0)}
    assert o.outcomes["captured"] == 0.0  # Artillery never captures (4.4)
    # Fixture artillery attack at 5: any hit kills the lone defender, whose one die
    # can never destroy both attackers; the attack stops after the round either way.
    assert o.outcomes["cleared"] == pytest.approx(1 - 0.5**2)
    assert o.outcomes["stopped"] == pytest.approx(0.5**2)
    assert o.outcomes["both_destroyed"] == 0.0


army = st.dictionaries(st.sampled_from(["infantry", "artillery", "tank"]), st.integers(1, 4), min_size=1, max_size=3)


@settings(max_examples=30, deadline=None)
@given(attack=army, defend=army, city=st.booleans(), strait=st.booleans(), rounds=st.none() | st.integers(1, 4))
def test_probabilities_sum_to_one(attack: dict[str, int], defend: dict[str, int], city: bool, strait: bool,
                                  rounds: int | None) -> None:
    if strait:
        attack = {k: n for k, n in attack.items() if k in combat_land.STRAIT_ATTACKERS} or {"infantry": 1}
    o = odds.odds_for(SCEN, "germany", attack, "russia", defend, city=city, strait=strait, max_rounds=rounds)
    assert sum(o.outcomes.values()) + o.pruned == pytest.approx(1.0, abs=1e-12)
    assert sum(o.rounds.values()) + o.pruned == pytest.approx(1.0, abs=1e-12)
    assert o.pruned < 1e-9
    # Expected losses are sums of probability-weighted floats: allow rounding in the last bits.
    assert 0 <= o.attacker_losses <= sum(attack.values()) + 1e-9
    assert 0 <= o.defender_losses <= sum(defend.values()) + 1e-9
    if rounds is not None:
        assert max(o.rounds) <= rounds


def test_city_and_mountains_favour_the_defender() -> None:
    # Special terrain is the real map's features with the 1914 scenario's terrain table.
    from dataclasses import replace

    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    world, scen = load_world("1914", strict=False), replace(SCEN, terrain=load_scenario("1914").terrain)
    base = odds.odds_for(scen, "germany", {"infantry": 5}, "russia", {"infantry": 3})
    city = odds.odds_for(scen, "germany", {"infantry": 5}, "russia", {"infantry": 3}, city=True)
    swiss = odds.odds_for(scen, "germany", {"infantry": 5}, "russia", {"infantry": 3}, territory="Switzerland",
                          world=world)
    gib = odds.odds_for(scen, "germany", {"infantry": 5}, "russia", {"infantry": 3}, territory="Gibraltar",
                        world=world)
    assert city.attacker_wins < base.attacker_wins
    assert swiss.attacker_wins < base.attacker_wins  # Switzerland: infantry defend at 8
    assert gib.attacker_wins < base.attacker_wins  # Gibraltar: three dice per infantry


# ---- the engine, rolled --------------------------------------------------------------------

Army = tuple[tuple[str, str, int], ...]  # (nation, kind, count)


@dataclass(frozen=True)
class Case:
    name: str
    where: str  # a fixture territory, attacked from Posen
    attack: Army
    defend: Army
    strait: bool = False
    orders: BattleOrders | None = None

    def armies(self, gs: GameState) -> tuple[list[Unit], list[Unit]]:
        """The units, created in one order so ids sort alike in simulation and odds."""
        attackers = [u for nation, kind, k in self.attack for u in fx.add_units(gs, nation, kind, "Posen", k)]
        defenders = [u for nation, kind, k in self.defend for u in fx.add_units(gs, nation, kind, self.where, k)]
        return attackers, defenders


def simulate(case: Case, n: int) -> dict[str, float]:
    """Frequencies of each outcome over n engine battles with seeds 0..n-1."""
    counts = dict.fromkeys(odds.OUTCOMES, 0)
    for i in range(n):
        ctx = TurnContext(fx.state(), {}, fx.world(), SCEN, Dice(f"odds-{case.name}", i))
        attackers, defenders = case.armies(ctx.state)
        across = {u.id for u in attackers} if case.strait else set()
        battle = combat_land.fight(ctx, case.where, ["Posen"], "germany", attackers, defenders, across, case.orders)
        counts[outcome_of(battle)] += 1
    return {k: c / n for k, c in counts.items()}


def outcome_of(battle: combat_land.Battle) -> str:
    alive = combat_land.survivors(battle)
    if combat_land.defenders_left(battle):
        return "stopped" if alive else "repulsed"
    if not alive:
        return "both_destroyed"
    return "captured" if any(u.kind in combat_land.CAPTURERS for u in alive) else "cleared"


def exact(case: Case) -> odds.Odds:
    gs = fx.state()
    attackers, defenders = case.armies(gs)
    across = {u.id for u in attackers} if case.strait else set()
    return odds.battle_odds(SCEN, case.where, "germany", attackers, defenders, holder=gs.controller(case.where),
                            city=fx.world().territories[case.where].city, across=across, orders=case.orders)


GER, AUS, RUS, FRA, BEL = "germany", "austria", "russia", "france", "belgium"
CASES = [
    Case("mixed-city", "Warsaw", ((GER, "infantry", 4), (GER, "artillery", 2)), ((RUS, "infantry", 3),)),
    Case("strait", "Riga", ((GER, "infantry", 3), (GER, "artillery", 1)), ((RUS, "infantry", 1),),
         strait=True),  # coastal defender; -2 per attacker
    Case("unsupported-art", "Minsk", ((GER, "infantry", 3), (GER, "tank", 1)),
         ((RUS, "infantry", 1), (RUS, "artillery", 2))),
    Case("multinational", "Minsk", ((GER, "infantry", 3), (AUS, "infantry", 2)),
         ((RUS, "infantry", 3),)),  # casualty sharing and the fictive unit
    Case("equal-allies", "Minsk", ((GER, "infantry", 2), (AUS, "infantry", 2)),
         ((RUS, "infantry", 3),)),  # equal shares: the odd hit by lot (issue 10), every way followed
    Case("three-allies", "Minsk", ((GER, "infantry", 8),),
         ((BEL, "artillery", 2), (FRA, "artillery", 1), (FRA, "tank", 2), (RUS, "infantry", 2))),
    # three defending nations: what one cannot take is shared by the others' strength again
    Case("withdraw", "Minsk", ((GER, "infantry", 4),), ((RUS, "infantry", 3),),
         orders=BattleOrders({}, (CombatCondition("Minsk", "rounds", 2), CombatCondition("Minsk", "losses", 1)))),
    Case("casualty-order", "Minsk", ((GER, "infantry", 2), (GER, "tank", 2)), ((RUS, "infantry", 3),),
         orders=BattleOrders({GER: ("tank",)})),  # tanks given up first: fewer captures later
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_engine_battles_match_the_exact_odds(case: Case) -> None:
    n = 3000
    seen = simulate(case, n)
    expected = exact(case)
    for outcome, p in expected.outcomes.items():
        sigma = (p * (1 - p) / n) ** 0.5
        # 4.5 sigma each (a false alarm well under 1 in 10^4 per comparison), plus a
        # floor for outcomes so rare that a single battle would exceed 4.5 sigma.
        assert abs(seen[outcome] - p) <= 4.5 * sigma + 1.5 / n, (outcome, seen[outcome], p)


def test_exact_odds_cover_the_multinational_case() -> None:
    o = exact(CASES[3])
    assert sum(o.outcomes.values()) == pytest.approx(1.0, abs=1e-12)
    assert o.defenders == 3 and o.attackers == 5  # the fictive unit is no real loss


def test_exact_odds_follow_every_way_the_odd_hit_lot_falls() -> None:
    # two equal allies: a lot gives the odd hit, and the odds weigh both branches alike
    probe = odds._ProbeDice()
    seen = odds.every_lot(probe, lambda: (probe.pick(["a", "b"], "x"), probe.pick(["c", "d", "e"], "y")))
    assert sorted(seen) == sorted((1 / 6, (p, q)) for p in "ab" for q in "cde")
    o = exact(CASES[4])
    assert sum(o.outcomes.values()) + o.pruned == pytest.approx(1.0, abs=1e-12)


# ---- the CLI ---------------------------------------------------------------------------

def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(argv)
    code = args.func(args)
    return code, capsys.readouterr().out


def test_parse_units() -> None:
    assert parse_units("6 inf, 2 art") == {"infantry": 6, "artillery": 2}
    assert parse_units("tank + 2 Infantry and 1 inf") == {"tank": 1, "infantry": 3}
    with pytest.raises(ValueError):
        parse_units("3 battleships")
    with pytest.raises(ValueError):
        parse_units("3 wizards")


def test_cli_on_the_real_1914_data(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(["odds", "--attacker", "Germany", "--attack", "6 inf, 2 art", "--defender", "france",
                         "--defend", "4 inf", "--territory", "paris", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["battle"]["territory"] == "Paris" and data["battle"]["city"] is True
    total = sum(data["odds"]["outcomes"].values()) + data["odds"]["pruned"]
    assert total == pytest.approx(1.0)
    code, text = run_cli(["odds", "--attacker", "germany", "--attack", "6 inf, 2 art", "--defender", "france",
                          "--defend", "4 inf"], capsys)
    assert code == 0 and "expected losses" in text
    open_field = float(text.split("attacker wins")[1].split("%")[0]) / 100
    assert data["odds"]["attacker_wins"] < open_field  # Paris's city defends too


def test_cli_refuses_impossible_attacks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "2 tank", "--defender", "france",
                         "--defend", "1 inf", "--strait"], capsys)
    assert code == 2 and "strait" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "1 inf", "--defender", "france",
                         "--territory", "Atlantis"], capsys)
    assert code == 2 and "Atlantis" in out


def test_cli_suggests_names_like_check_does(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(["odds", "--attacker", "germny", "--attack", "1 inf", "--defender", "france",
                         "--defend", "1 inf"], capsys)
    assert code == 2 and "unknown nation 'germny' (did you mean German Empire?)" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "6 infantyr", "--defender", "france",
                         "--defend", "1 inf"], capsys)
    assert code == 2 and "not a unit: '6 infantyr' (did you mean infantry?)" in out
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "1 inf", "--defender", "france",
                         "--territory", "Pariss"], capsys)
    assert code == 2 and "did you mean Paris" in out
