"""4.3 step 6: where a task force that withdraws from a naval battle goes, and when its
withdrawal may be ordered.

"The attacking force may now opt to retreat into any allied occupied or empty sea zone."
The conditions are the land battle's (Conditional orders: WITHDRAW FROM <sea zone> AFTER n
ROUNDS / IF LOSSES EXCEED n / WHEN n KILLS), written for a sea zone where the nation has
ships when the turn begins or where one of its task forces sails; WITHDRAW FROM <zone>
INTO <zone> names the neighbouring sea zone to retreat to. naval_combat.fight reads them
after every round (for a side that sought the battle); phase4_sea moves the task forces.

Reading (docs/rules-coverage.md): the task force goes to the zone it names if that zone is
open (no ship of a nation that is not its own or an ally's), else back where it came
from if that is open, else to the first open neighbouring sea zone by name; with none open
it stays where it fought (flagged for the moderator). Either way it stops for the turn.
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.problems import Problem, problem
from moderator.engine.state import SEA_UNITS
from moderator.orders.model import CombatCondition

PHASE = "4.3"
# Conditions read at sea only: WITHDRAW FROM <zone> IF CONTACT LOST (4.2: after contact is
# lost, "cancel mission and return to the sea zone from where they came") and IF RADAR
# WARNS (Radar: "the ships have the option of retreating to an adjacent sea zone").
SEA_ONLY = ("contact-lost", "radar")


def condition_problem(pos: Position, nation: str, order: CombatCondition) -> Problem | None:
    """A withdrawal condition on a sea zone (the land checks are conditions.py's)."""
    if order.kind == "max-defenders" or not sails(pos, nation, order.dest):
        return problem("condition-no-attack", order.dest, place=order.dest)
    if order.kind == "contact-lost" and order.to is not None:
        return problem("contact-lost-goes-back", order.to, place=order.dest)
    if order.to is not None and (not pos.is_sea(order.to) or not pos.adjacent(order.dest, order.to)):
        return problem("not-adjacent", order.to, origin=order.dest, dest=order.to)
    return None


def sails(pos: Position, nation: str, zone: str) -> bool:
    """The nation has ships in the zone as the turn begins, or a task force of its sails there."""
    if any(pos.start[(nation, zone, kind)] for kind in SEA_UNITS):
        return True
    return any(n == nation and zone in tf.path for (n, _), tf in pos.task_forces.items())


def open_to(ctx: TurnContext, nation: str, zone: str) -> bool:
    """"Allied occupied or empty": no ship there of a nation that is not the nation or an ally."""
    return not any(u.kind in SEA_UNITS and u.nation != nation and not ctx.allies(nation, u.nation)
                   for u in ctx.units_at(zone))


def retreat_zone(ctx: TurnContext, nation: str, zone: str, came_from: str | None, named: str | None) -> str | None:
    """Where a withdrawing task force goes (None: nowhere open, it stays)."""
    seas = sorted(n for n in ctx.world.neighbours(zone) if ctx.is_sea(n))
    for choice in (named, came_from, *seas):
        if choice is not None and choice != zone and choice in seas and open_to(ctx, nation, choice):
            return choice
    return None


def named_zone(ctx: TurnContext, nation: str, zone: str) -> str | None:
    """The INTO zone of the nation's withdrawal conditions for this sea zone, if any."""
    return next((c.to for n, _, c in ctx.orders_of(CombatCondition)
                 if n == nation and c.to and ctx.name(c.dest) == zone), None)
