"""Phase 4.6 probabilities with fixed seeds: the per-roll hit rate, and whole battles
against the exact Markov-chain odds computed here."""

from __future__ import annotations

from functools import cache
from math import comb

import pytest

from moderator.engine import combat_land
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.world.scenario_model import UnitStats
from tests import engine_fixture as fx


def context(seed: str, attack: int, defense: int) -> TurnContext:
    stats = dict(fx.STATS)
    stats["infantry"] = UnitStats("infantry", cost=4, attack=attack, defense=defense)
    return TurnContext(fx.state(), {}, fx.world(), fx.scenario(stats), Dice(seed, 1))


@pytest.mark.parametrize("value", [1, 3, 5, 8])
def test_a_unit_hits_with_probability_value_over_ten(value: int) -> None:
    ctx = context(f"per-roll-{value}", value, 5)
    battle = combat_land.Battle("Minsk", ["Warsaw"], "germany", False, None,
                                combat_land.Side("attacker", []), combat_land.Side("defender", []))
    battle.attack.fighters = [combat_land.Fighter("germany", "infantry", u)
                              for u in fx.add_units(ctx.state, "germany", "infantry", "Warsaw", 100)]
    n = 200 * 100
    hits = sum(combat_land.roll_side(ctx, battle, battle.attack) for _ in range(200))
    p = value / 10
    sigma = (p * (1 - p) / n) ** 0.5
    assert abs(hits / n - p) < 4 * sigma + 1e-9
    assert len(ctx.dice.log) == n


def exact_attacker_wins(a: int, d: int, p: float, q: float) -> float:
    """P(attacker ends with units and no defenders) for a attackers hitting with p each
    round and d defenders hitting with q, simultaneous fire, to the end (no city)."""

    def binom(n: int, k: int, x: float) -> float:
        return comb(n, k) * x**k * (1 - x) ** (n - k)

    @cache
    def win(na: int, nd: int) -> float:
        if nd == 0:
            return 1.0 if na > 0 else 0.0
        if na == 0:
            return 0.0
        stay = binom(na, 0, p) * binom(nd, 0, q)
        total = 0.0
        for ha in range(na + 1):
            for hd in range(nd + 1):
                if ha == 0 and hd == 0:
                    continue
                total += binom(na, ha, p) * binom(nd, hd, q) * win(max(0, na - hd), max(0, nd - ha))
        return total / (1 - stay)

    return win(a, d)


@pytest.mark.parametrize(("a", "d", "att", "dfn", "n"), [(1, 1, 3, 5, 4000), (3, 2, 3, 5, 2000), (2, 2, 5, 2, 2000)])
def test_battles_match_the_markov_chain(a: int, d: int, att: int, dfn: int, n: int) -> None:
    wins = 0
    for i in range(n):
        ctx = context(f"battle-{a}-{d}-{i}", att, dfn)
        attackers = fx.add_units(ctx.state, "germany", "infantry", "Warsaw", a)
        defenders = fx.add_units(ctx.state, "russia", "infantry", "Minsk", d)  # Minsk: no city
        b = combat_land.fight(ctx, "Minsk", ["Warsaw"], "germany", attackers, defenders)
        wins += bool(combat_land.survivors(b)) and not combat_land.defenders_left(b)
    expected = exact_attacker_wins(a, d, att / 10, dfn / 10)
    sigma = (expected * (1 - expected) / n) ** 0.5
    assert abs(wins / n - expected) < 4 * sigma, (wins / n, expected)


def test_markov_chain_one_on_one_closed_form() -> None:
    # 1 v 1: attacker wins when it hits and the defender misses, before anything else.
    p, q = 0.3, 0.5
    assert exact_attacker_wins(1, 1, p, q) == pytest.approx(p * (1 - q) / (1 - (1 - p) * (1 - q)))
