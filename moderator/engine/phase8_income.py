"""Phase 8: Collect Resources.

Each nation adds up the resources of the incorporated territories it controls (what
each yields follows the Phase 6 delay table, phase6_incorporation.territory_yield), then
the neutral income rule in NationState.income_rule limits what it collects:
    "full"                                 everything
    "half", "quarter", "three-quarters"    that fraction, rounded up (Ottoman Empire,
                                           Italy, Spain, British Empire while neutral,
                                           dominions, non-player minors: Phase 8 note)
    "percent:N"                            N% rounded up (China's 60%, Japan's 40%)
    "fixed:N"                              at most N, never more than the full value
                                           (Japan 15, China 12, USA 15/35)
Conquest: a nation holding none of its original territories collects nothing.
Gifts (Phase 8 note) are handed over after collection, in resolution order, out of
what the giver holds then: between allies 50% arrives (rounded up); all of it between the
British Empire, Canada and Australia ("Major nations and colonies") and from the neutral
USA to a nation in the main war (US option #3, at least 5). The US public-opinion roll
that may follow a US gift is Phase 9 work, not done yet.
Not yet: resource transfers from separated territories, US trade, war tribute.
"""

from __future__ import annotations

from fractions import Fraction

from moderator.engine.context import TurnContext
from moderator.engine.phase6_incorporation import territory_yield
from moderator.engine.state import GameState
from moderator.orders.model import Gift
from moderator.world.model import World

PHASE = "8"
FRACTIONS = {"full": Fraction(1), "half": Fraction(1, 2), "quarter": Fraction(1, 4),
             "three-quarters": Fraction(3, 4)}


def apply_income_rule(rule: str, full: int) -> int:
    """What a nation collects of its `full` income under `rule` (see module docstring)."""
    if rule in FRACTIONS:
        return _round_up(full * FRACTIONS[rule])
    kind, _, arg = rule.partition(":")
    if kind == "percent" and arg.isdigit():
        return _round_up(full * Fraction(int(arg), 100))
    if kind == "fixed" and arg.isdigit():
        return min(int(arg), full)
    raise ValueError(f"unknown income rule {rule!r} (use full, half, quarter, three-quarters, "
                     "percent:N or fixed:N)")


def _round_up(x: Fraction) -> int:
    return -(-x.numerator // x.denominator)


def full_income(world: World, state: GameState, nation: str, turn: int) -> int:
    return sum(territory_yield(world, state, t, turn)
               for t in sorted(state.control) if state.control[t] == nation)


def conquered(world: World, state: GameState, nation: str) -> bool:
    """Conquest: all supply centres (original territories) lost. Nations with none never are."""
    home = [t.name for t in world.lands() if t.owner == nation]
    return bool(home) and all(state.controller(t) != nation for t in home)


def collect_resources(ctx: TurnContext) -> None:
    for nation in sorted(ctx.state.nations):
        ns = ctx.state.nations[nation]
        full = full_income(ctx.world, ctx.state, nation, ctx.turn)
        if conquered(ctx.world, ctx.state, nation):
            collected = 0
        else:
            collected = apply_income_rule(ns.income_rule, full)
        ns.saved += collected
        ctx.tell(nation, "income", PHASE, full=full, rule=ns.income_rule,
                 amount=collected, saved=ns.saved)


# Rules exceptions to the 50% gift loss, by the 1914 scenario's nation ids; a scenario
# may replace them with extra["full_gift_groups"] / extra["neutral_full_gifts"].
FULL_GIFT_GROUPS: tuple[frozenset[str], ...] = (frozenset({"britain", "canada", "australia"}),)
NEUTRAL_FULL_GIFTS = frozenset({"usa"})
US_MIN_GIFT = 5


def _full_gift_groups(ctx: TurnContext) -> tuple[frozenset[str], ...]:
    raw = ctx.scenario.extra.get("full_gift_groups")
    if isinstance(raw, list):
        return tuple(frozenset(str(n) for n in group) for group in raw)
    return FULL_GIFT_GROUPS


def _neutral_givers(ctx: TurnContext) -> frozenset[str]:
    raw = ctx.scenario.extra.get("neutral_full_gifts")
    return frozenset(str(n) for n in raw) if isinstance(raw, list) else NEUTRAL_FULL_GIFTS


def gift_terms(ctx: TurnContext, giver: str, receiver: str) -> tuple[str, bool]:
    """(problem, arrives in full) for a gift from giver to receiver."""
    state = ctx.state
    if receiver not in state.nations or receiver == giver:
        return "unknown-nation", False
    neutral_giver = state.nations[giver].side == "neutral"
    if neutral_giver and giver in _neutral_givers(ctx):
        if state.nations[receiver].side == "neutral":
            return "receiver-not-in-main-war", False
        return "", True
    if not state.allies(giver, receiver):
        return "not-allies", False
    full = any({giver, receiver} <= group for group in _full_gift_groups(ctx))
    return "", full


def transfers(ctx: TurnContext) -> None:
    """Phase 8: gifts between allies (transfers between separated territories: not yet)."""
    for nation, index, order in ctx.orders_of(Gift):
        problem, full = gift_terms(ctx, nation, order.to)
        ns = ctx.state.nations[nation]
        if not problem and order.amount < (US_MIN_GIFT if nation in _neutral_givers(ctx) else 1):
            problem = "too-small"
        if not problem and order.amount > ns.saved:
            problem = "insufficient-funds"
        if problem:
            ctx.refuse(nation, PHASE, index, order, problem, to=order.to, amount=order.amount)
            continue
        arrives = order.amount if full else _round_up(Fraction(order.amount, 2))
        ns.saved -= order.amount
        ctx.state.nations[order.to].saved += arrives
        ctx.emit("gift", PHASE, tuple(sorted({nation, order.to})), giver=nation, receiver=order.to,
                 sent=order.amount, arrived=arrives)
