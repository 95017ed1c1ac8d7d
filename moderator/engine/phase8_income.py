"""Phase 8: Collect Resources.

Each nation adds up the resources of the incorporated territories it controls (what
each yields follows the Phase 6 delay table, phase6_incorporation.territory_yield), then
its income rule limits what it collects (which rule, from the nation's state: neutral,
at war, in the main war, geared up, a moderator's ruling: neutral_income.income_rule):
    "full"                                 everything
    "half", "quarter", "three-quarters"    that fraction, rounded up (Ottoman Empire,
                                           Italy, Spain, British Empire while neutral,
                                           dominions, non-player minors: Phase 8 note)
    "percent:N"                            N% rounded down (China: "60% of full income
                                           per turn (initially 25)", of 42)
    "fixed:N"                              at most N, never more than the full value
                                           (Japan 15, China 12, USA 15/35)
Conquest: a nation holding none of its original territories collects nothing.
Gifts (Phase 8 note) are handed over after collection (the GIFT order's home,
engine/orders/gift.py). The US trade (Variable US Trade) is added after income
(us_trade.py). War tribute (Surrender): a quarter of what a nation that surrendered
collects goes to its victors (engine/surrender.py tribute). Territories separated from the
mainland keep their share of the income in their own treasuries (engine/treasuries.py:
settled first, then held apart); the TRANSFER home (8.1) sends it on. A non-player
minor's money waits for the moderator to spend it (engine/minor_funds.py).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import compress, repeat
from operator import ge

from moderator.engine import exile, minor_funds, phase9_revolution, surrender, treasuries
from moderator.engine.context import TurnContext
from moderator.engine.neutral_income import income_rule
from moderator.engine.per_map import once_per
from moderator.engine.phase6_incorporation import SINCE_START, territory_yield
from moderator.engine.state import GameState, holdings
from moderator.engine.us_trade import collect_us_trade
from moderator.world.model import World

PHASE = "8"
FRACTIONS = {"full": Fraction(1), "half": Fraction(1, 2), "quarter": Fraction(1, 4),
             "three-quarters": Fraction(3, 4)}


def apply_income_rule(rule: str, full: int) -> int:
    """What a nation collects of its `full` income under `rule` (see module docstring)."""
    share = FRACTIONS.get(rule)
    if share is not None:  # round_up(full * share), in whole numbers (no Fraction made: every nation, every turn)
        return -(-full * share.numerator // share.denominator)
    kind, _, arg = rule.partition(":")
    if kind == "percent" and arg.isdigit():
        return full * int(arg) // 100  # China's "initially 25" is 60% of 42 rounded down
    if kind == "fixed" and arg.isdigit():
        return min(int(arg), full)
    raise ValueError(f"unknown income rule {rule!r} (use full, half, quarter, three-quarters, "
                     "percent:N or fixed:N)")


def round_up(x: Fraction) -> int:
    return -(-x.numerator // x.denominator)


def full_income(world: World, state: GameState, nation: str, turn: int) -> int:
    return full_incomes(world, state, turn).get(nation, 0)


def full_incomes(world: World, state: GameState, turn: int) -> dict[str, int]:
    """Every nation's full income at once (one pass over the map, not one per nation).

    Land held since the start (most of the map) yields its value (Phase 6 table): it is
    summed by holder in C's loops (state.holdings, sum), the rest asked of territory_yield
    one by one; a Python step per territory was most of the cost (issue 14)."""
    since_of = state.incorporated
    value = _values(world)
    since_start = set(compress(since_of, map(ge, repeat(SINCE_START), since_of.values())))
    out: dict[str, int] = {}
    for holder, places in holdings(state.control).items():  # (kept for the treasuries' search of the same map)
        full = places & since_start
        out[holder] = sum(map(value.__getitem__, full)) + sum(
            territory_yield(world, state, t, turn) for t in places - full)
    return out


_VALUES: dict[int, tuple[World, dict[str, int]]] = {}  # id of a map -> (the map, place -> its value)


def _values(world: World) -> dict[str, int]:
    """Every place's value: once per map, which never changes (the entry holds the map, so
    its id cannot be reused while the entry lives)."""
    return once_per(_VALUES, world, lambda world: {t: p.value for t, p in world.territories.items()})


def conquered(world: World, state: GameState, nation: str) -> bool:
    """Conquest: all supply centres (original territories) lost. Nations with none never are."""
    home = world.home_of(nation)
    return bool(home) and nation not in map(state.control.get, home)  # (the holders tested at C speed: every nation)


def collect_resources(ctx: TurnContext) -> None:
    before = {nation: ns.saved for nation, ns in ctx.state.nations.items()}
    fulls = full_incomes(ctx.world, ctx.state, ctx.turn)
    exile.merge_incomes(ctx.state, fulls)  # Conquest: the host collects an exiled nation's land
    for nation in sorted(ctx.state.nations):
        ns = ctx.state.nations[nation]
        full = fulls.get(nation, 0)
        rule = income_rule(ctx.state, ctx.scenario, nation)
        if conquered(ctx.world, ctx.state, nation):
            collected = 0
        else:
            collected = apply_income_rule(rule, full)
        collected = phase9_revolution.russian_income(ctx, nation, collected)  # after the first hit: half
        collected = max(0, collected - ns.flags.pop("income_lost_at_sea", 0))  # 4.7: unrestricted submarine warfare
        collected -= surrender.tribute(ctx, nation, collected, PHASE)  # Surrender: a quarter to the victors
        treasuries.settle(ctx, nation)
        home = treasuries.hold_apart(ctx, nation, collected, full)  # separated land keeps its share
        ns.saved += home
        ctx.tell(nation, "income", PHASE, full=full, rule=rule,
                 amount=collected, saved=ns.saved, kept_apart=collected - home)
    collect_us_trade(ctx)
    minor_funds.remind(ctx, before, PHASE)  # Phase 8 note: the moderator spends a non-player minor's money
