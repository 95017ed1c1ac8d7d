"""Conditional orders that steer a land battle ("Conditional orders"; Phase 4.6).

ATTACK ... WITHDRAW AFTER n ROUNDS / IF LOSSES EXCEED n / WHEN n KILLS, and CASUALTIES:
kinds in the order the nation gives them up. They do nothing by themselves: the battle
reads them (combat_orders.for_battle). Their legality is here: a condition needs an
attack on its territory among the nation's orders, or (WITHDRAW FROM a territory the
nation defends: units there, or moving in) it is the defenders' disengagement (4.6:
"both attacker and defender can choose to disengage"; WITHDRAW FROM a TO b names the
neighbour they go to, else the engine picks one); beach landings cannot withdraw
(4.6.1); at sea, a task force's withdrawal from a naval battle (engine/naval_retreat.py); one condition of a kind per territory. "Attack only if reconnaissance shows at
most n defenders" is decided on the nation's reconnaissance record of the turn when
step 4.4 resolves the moves (engine/recon_conditions.py).
"""

from __future__ import annotations

from moderator.engine import naval_retreat
from moderator.engine.combat_orders import WITHDRAWALS
from moderator.engine.context import Position
from moderator.engine.orders.base import OrderRule, said_twice, written_by_class
from moderator.engine.orders.move import MOVABLE, hostile
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import Attack, CasualtyOrder, CombatCondition, Move, NavalInvasion

PHASE = "4.4"


class CombatConditionRule(OrderRule[CombatCondition]):
    order = CombatCondition
    section = PHASE

    def problem(self, pos: Position, nation: str, order: CombatCondition) -> Problem | None:
        if pos.is_sea(order.dest):  # a naval battle's withdrawal (4.3 step 6)
            return naval_retreat.condition_problem(pos, nation, order) or self.twice(pos, nation, order)
        if order.kind in naval_retreat.SEA_ONLY:
            return problem("condition-sea-only", order.dest, place=order.dest)
        attacks = moves_into(pos, nation, order.dest)
        if not attacks and not (order.kind in WITHDRAWALS and defends(pos, nation, order.dest)):
            return problem("condition-no-attack", order.dest, place=order.dest)
        if attacks and order.kind != "max-defenders" and all(isinstance(o, NavalInvasion) for o in attacks):
            return problem("invasion-no-retreat", order.dest)
        if order.to is not None:  # 4.6: where defenders that disengage go
            if hostile(pos, nation, order.dest):
                return problem("withdraw-to-attacker", order.dest, place=order.dest)
            if pos.is_sea(order.to) or not pos.adjacent(order.dest, order.to):
                return problem("not-adjacent", order.to, origin=order.dest, dest=order.to)
        return self.twice(pos, nation, order)

    def twice(self, pos: Position, nation: str, order: CombatCondition) -> Problem | None:
        return said_twice(pos, nation, order, order.dest)

    def remarks(self, pos: Position, nation: str, order: CombatCondition) -> list[Problem]:
        if order.kind not in WITHDRAWALS and order.kind not in naval_retreat.SEA_ONLY:
            return [warning("recon-condition", order.dest, place=order.dest, value=order.value)]
        return []


def moves_into(pos: Position, nation: str, place: str) -> list[Move | NavalInvasion]:
    """The nation's MOVE, ATTACK and landing orders into `place`, by class (not in the
    order written): read from its orders of those classes, not every line it wrote."""
    by_class = written_by_class(pos, nation)
    return [o for cls in MOVING_IN for o in by_class.get(cls, ()) if isinstance(o, (Move, NavalInvasion))
            and o.dest == place]


MOVING_IN = (Move, Attack, NavalInvasion)  # the classes of the orders that move units into a place (moves_into)


def defends(pos: Position, nation: str, place: str) -> bool:
    """The nation had units at `place` when the turn began that could fight there, or it
    moves some in. Judged on the turn's opening position, what the player could know (as
    Position.unclaimed), so the checker and the engine agree even when an earlier step
    (rail moves, reconnaissance flights) has taken the units away by 4.4."""
    here = any(pos.start[(nation, place, kind)] for kind in MOVABLE)
    return here or any(isinstance(o, Move) and o.dest == place for o in pos.orders.get(nation, ()))


class CasualtyOrderRule(OrderRule[CasualtyOrder]):
    order = CasualtyOrder
    section = PHASE


CONDITION = CombatConditionRule()
CASUALTIES = CasualtyOrderRule()
