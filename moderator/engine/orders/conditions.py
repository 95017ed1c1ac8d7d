"""Conditional orders that steer a land battle ("Conditional orders"; Phase 4.6).

ATTACK ... WITHDRAW AFTER n ROUNDS / IF LOSSES EXCEED n / WHEN n KILLS, and CASUALTIES:
kinds in the order the nation gives them up. They do nothing by themselves: the battle
reads them (combat_orders.for_battle). Their legality is here: a condition needs an
attack on its territory among the nation's orders; beach landings cannot withdraw
(4.6.1); one condition of a kind per territory. "Attack only if reconnaissance shows at
most n defenders" is decided on the nation's reconnaissance record of the turn when
step 4.4 resolves the moves (engine/recon_conditions.py).
"""

from __future__ import annotations

from moderator.engine.combat_orders import WITHDRAWALS
from moderator.engine.context import Position
from moderator.engine.orders.base import OrderRule
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import CasualtyOrder, CombatCondition, Move, NavalInvasion

PHASE = "4.4"


class CombatConditionRule(OrderRule[CombatCondition]):
    order = CombatCondition
    section = PHASE

    def problem(self, pos: Position, nation: str, order: CombatCondition) -> Problem | None:
        attacks = [o for o in pos.orders.get(nation, ()) if isinstance(o, (Move, NavalInvasion))
                   and o.dest == order.dest]
        if not attacks:
            return problem("condition-no-attack", order.dest, place=order.dest)
        if order.kind != "max-defenders" and all(isinstance(o, NavalInvasion) for o in attacks):
            return problem("invasion-no-retreat", order.dest)
        same = [o for o in pos.orders.get(nation, ()) if isinstance(o, CombatCondition)
                and o.dest == order.dest and o.kind == order.kind]
        if same and same[0] is not order:
            return problem("condition-twice", order.dest, place=order.dest)
        return None

    def remarks(self, pos: Position, nation: str, order: CombatCondition) -> list[Problem]:
        if order.kind not in WITHDRAWALS:
            return [warning("recon-condition", order.dest, place=order.dest, value=order.value)]
        return []


class CasualtyOrderRule(OrderRule[CasualtyOrder]):
    order = CasualtyOrder
    section = PHASE


CONDITION = CombatConditionRule()
CASUALTIES = CasualtyOrderRule()
