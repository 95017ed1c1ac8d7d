"""BREAKTHROUGH n tank FROM a TO b (Tanks, 4th advance: Breakthrough).

Tanks: "Breakthrough means the tank can go on to move into or attack a second territory
after successfully capturing the first. Any combats that happen as a result of a
breakthrough are determined after all other combats are resolved."

Legal when the nation has the 4th tank advance (`tanks` level 4), `b` is land next to
`a` that tanks may enter, and the nation's own MOVE/ATTACK orders send at least `n` tanks
into `a` this turn (those tanks are the ones that go on; the order claims nothing more).

Carried out in step 4.6.1, after every land battle of step 4.4: if `a` was captured this
turn by the nation or an ally and the nation's tanks stand in it, up to `n` of them go on
into `b` through phase4_land (a leg like any move: onto friendly land a move, onto other
land an attack in the step's battles, with the landings of 4.6.1 on the same place). If
the capture failed, the nation is told (`breakthrough-stopped`), not refused: the
checker, which takes every attack for a capture, keeps the order.
"""

from __future__ import annotations

from moderator.engine import terrain
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.orders.move import Leg, hostile
from moderator.engine.problems import Problem, problem
from moderator.orders.model import Breakthrough, Move, UnitCount

PHASE = "4.6.1"
TANK_TECH = "tanks"
BREAKTHROUGH_LEVEL = 4  # Tanks: "4th Advance: +1 attack, +2 cost & Breakthrough"


def as_move(order: Breakthrough) -> Move:
    """The breakthrough as the move it is, for the land step (its text kept for reports)."""
    return Move(units=(UnitCount("tank", order.count),), origin=order.origin, dest=order.dest, span=order.span)


def tanks_sent(pos: Position, nation: str, place: str) -> int:
    """Tanks the nation's own MOVE/ATTACK orders send into `place` this turn."""
    return sum(uc.count for o in pos.orders.get(nation, ()) if isinstance(o, Move) and o.dest == place
               for uc in o.units if uc.kind == "tank")


class BreakthroughRule(OrderRule[Breakthrough]):
    order = Breakthrough
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Breakthrough) -> Problem | None:
        if pos.tech(nation, TANK_TECH) < BREAKTHROUGH_LEVEL:
            return problem("breakthrough-tech", order.dest, level=BREAKTHROUGH_LEVEL)
        if pos.is_sea(order.dest) or pos.is_sea(order.origin) or not pos.adjacent(order.origin, order.dest):
            return problem("not-adjacent", order.dest, origin=order.origin, dest=order.dest)
        if not terrain.may_enter(pos.world, pos.scenario, nation, "tank", order.dest):
            return problem("terrain-barred", order.dest, kind="tank", place=order.dest)
        if tanks_sent(pos, nation, order.origin) < order.count:
            return problem("breakthrough-no-attack", order.origin, place=order.origin, count=order.count)
        return None

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Breakthrough) -> None:
        """The checker: the leg for assume_captures (which reads the kinds the order names)."""
        ctx.legs.append(Leg(nation, index, as_move(order), [], hostile(ctx, nation, order.dest)))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Breakthrough) -> None:
        taken = any(e.code == "captured" and e.args["territory"] == order.origin
                    and ctx.allies(nation, e.args["nation"]) for e in ctx.events)
        tanks = sorted((u for u in ctx.units_at(order.origin, nation) if u.kind == "tank"), key=lambda u: u.id)
        if not taken or not tanks:
            ctx.tell(nation, "breakthrough-stopped", PHASE, order=index, origin=order.origin, dest=order.dest)
            return
        going = tanks[: order.count]
        ctx.legs.append(Leg(nation, index, as_move(order), going, hostile(ctx, nation, order.dest)))


RULE = BreakthroughRule()
