"""DEFEND WITH INDUSTRY|PORT|AA AT place (Industrial complexes, Ports, Anti Air Guns; 4.6).

Industrial complexes: "If a player chooses, the Industrial Complex may participate in the
defense of the territory it is in, but if it does it is subject to possible destruction
like any other unit." Ports: "have the option of participating in combat if the territory
they are in is attacked." "Note: By default both Industrial complexes and ports would not
participate in any defense of a territory. Any nation willing to use it for a defense
must give an order." So: a territory the nation holds, with the complex or port in it.
Anti Air Guns fire at attacking aircraft without an order ("The AA roll against aircraft
happens before any other combat"): the order is kept with a warning, and changes nothing.

A complex or port ordered to defend joins the land battles of the step at its territory
(phase4_land.structures: at 1, a casualty like any unit; a port brings its virtual
defenders, combat_land).
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import DefendWith

PHASE = "4.4"
DEFENDING = "defend-with"  # ctx.done key: (DEFENDING, nation, kind, place), read by phase4_land.structures


def has_structure(pos: Position, kind: str, place: str) -> bool:
    """An industrial complex or port at `place`: printed on the map, or built."""
    terr = pos.place(place)
    printed = terr.industry if kind == "industry" else terr.port
    return printed or any(u.kind == kind for u in pos.units_at(place))


class DefendWithRule(OrderRule[DefendWith]):
    order = DefendWith
    section = PHASE

    def problem(self, pos: Position, nation: str, order: DefendWith) -> Problem | None:
        if pos.controller(order.place) != nation:
            return problem("defend-not-held", order.place, place=order.place)
        if order.kind != "aa" and not has_structure(pos, order.kind, order.place):
            return problem("defend-nothing", order.place, kind=order.kind, place=order.place)
        return None

    def remarks(self, pos: Position, nation: str, order: DefendWith) -> list[Problem]:
        return [warning("aa-automatic")] if order.kind == "aa" else []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: DefendWith) -> None:
        if order.kind != "aa":
            ctx.use((DEFENDING, nation, order.kind, order.place))


RULE = DefendWithRule()
