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


def casualty_preferences(ctx: TurnContext, nations: Sequence[str], territory: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for nation in sorted(set(nations)):
        everywhere = [o for n, _, o in ctx.orders_of(CasualtyOrder) if n == nation and o.place is None]
        here = [o for n, _, o in ctx.orders_of(CasualtyOrder)
                if n == nation and o.place is not None and ctx.name(o.place) == territory]
        chosen = here or everywhere
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
    return tuple(o for n, _, o in ctx.orders_of(CombatCondition)
                 if n == nation and o.kind in WITHDRAWALS and ctx.name(o.dest) == territory)


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
