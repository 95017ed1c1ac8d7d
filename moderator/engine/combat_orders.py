"""Conditional orders that steer a land battle (Phase 4.6, "Conditional orders").

- CasualtyOrder: the kinds a nation gives up first, in one territory or everywhere
  (the territory-specific order wins; the last one written wins among equals). Kinds not
  listed follow the default order (cheapest first).
- CombatCondition on an attack, or on a defence (4.6: "After the first round of combat
  and any subsequent round ... both attacker and defender can choose to disengage"):
  "rounds" withdraws after N rounds,
  "losses" when own losses exceed N, "kills" once N enemy units are destroyed while
  defenders remain. Checked after each round, so there is always one round first
  (Phase 4 guideline 1). "max-defenders" needs reconnaissance reports and goes to the
  moderator (engine/orders/conditions.py).
- 4.5 Air Combat (engine/orders/interception.py): the defending nations whose fighters let
  the attacking aircraft go (LET THROUGH), and each attacking nation's conditions for its
  aircraft to leave the air combat (BREAK OFF AIR COMBAT), checked after each air round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from moderator.engine.context import TurnContext
from moderator.engine.orders import interception
from moderator.orders.model import CasualtyOrder, CombatCondition

WITHDRAWALS = ("rounds", "losses", "kills")


@dataclass(frozen=True)
class BattleOrders:
    casualty: dict[str, tuple[str, ...]] = field(default_factory=dict)  # nation -> kinds first
    conditions: tuple[CombatCondition, ...] = ()  # the attacker's, for this territory
    by_nation: dict[str, tuple[CombatCondition, ...]] = field(default_factory=dict)  # each allied attacker's
    defending: dict[str, tuple[CombatCondition, ...]] = field(default_factory=dict)  # each defender's (4.6)
    let_pass: frozenset[str] = frozenset()  # 4.5: nations whose fighters here do not intercept (LET THROUGH)
    air_retreat: dict[str, tuple[CombatCondition, ...]] = field(default_factory=dict)  # 4.5: BREAK OFF AIR COMBAT


_BY_PLACE = ("combat-orders-by-place",)  # ctx.memo: (orders, their lengths, _ByPlace) of the turn


@dataclass
class _ByPlace:
    """The turn's casualty orders and withdrawal conditions by nation and the place they
    name, in resolution order: every battle asked each nation's again, over every order
    of the kind (issue 14, the engine's cost)."""

    everywhere: dict[str, list[CasualtyOrder]] = field(default_factory=dict)  # nation -> its orders with no place
    casualty: dict[tuple[str, str | None], list[CasualtyOrder]] = field(default_factory=dict)  # (nation, place)
    conditions: dict[tuple[str, str | None], list[CombatCondition]] = field(default_factory=dict)  # withdrawals


def _by_place(ctx: TurnContext) -> _ByPlace:
    """The index, kept while the orders are the same (as Position.orders_of keeps its
    answers: the same mapping, each nation's list as long)."""
    shape = tuple(map(len, ctx.orders.values()))
    kept = ctx.memo.get(_BY_PLACE)
    if kept is None or kept[0] is not ctx.orders or kept[1] != shape:
        index = _ByPlace()
        for n, _, o in ctx.orders_of(CasualtyOrder):
            if o.place is None:
                index.everywhere.setdefault(n, []).append(o)
            else:
                index.casualty.setdefault((n, ctx.name(o.place)), []).append(o)
        for n, _, c in ctx.orders_of(CombatCondition):
            if c.kind in WITHDRAWALS:
                index.conditions.setdefault((n, ctx.name(c.dest)), []).append(c)
        kept = ctx.memo[_BY_PLACE] = (ctx.orders, shape, index)
    return kept[2]


def casualty_preferences(ctx: TurnContext, nations: Sequence[str], territory: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    index = _by_place(ctx)
    for nation in sorted(set(nations)):
        chosen = index.casualty.get((nation, territory)) or index.everywhere.get(nation)
        if chosen:
            out[nation] = tuple(chosen[-1].kinds)
    return out


def for_battle(ctx: TurnContext, attackers: Sequence[str], nations: Sequence[str], territory: str) -> BattleOrders:
    """The casualty orders of every nation in the battle, the attackers' withdrawal
    conditions for it (each allied attacker's own: it withdraws its own units) and the
    defenders' (a nation that does not attack the territory disengages its own)."""
    by_nation = {a: own_conditions(ctx, a, territory) for a in sorted(set(attackers))}
    conditions = tuple(c for a in sorted(by_nation) for c in by_nation[a])
    defending = {d: own_conditions(ctx, d, territory) for d in sorted(set(nations) - set(attackers))}
    air = {a: interception.retreat_conditions(ctx, a, territory) for a in sorted(set(attackers))}
    return BattleOrders(casualty_preferences(ctx, nations, territory), conditions, by_nation,
                        {d: c for d, c in defending.items() if c},
                        interception.passing(ctx, territory) & (set(nations) - set(attackers)),
                        {a: c for a, c in air.items() if c})


def own_conditions(ctx: TurnContext, nation: str, territory: str) -> tuple[CombatCondition, ...]:
    return tuple(_by_place(ctx).conditions.get((nation, territory), ()))


def withdrawal(conditions: Sequence[CombatCondition], rounds: int, own_losses: int, kills: int) -> str | None:
    """The first condition met after a round, as "kind:value", or None to fight on."""
    for c in conditions:
        met = (
            (c.kind == "rounds" and rounds >= c.value)
            or (c.kind == "losses" and own_losses > c.value)
            or (c.kind == "kills" and kills >= c.value)
        )
        if met:
            return f"{c.kind}:{c.value}"
    return None
