"""INVADE (LAND, UNLOAD) units FROM zone TO land (4.4: Land Movement; 4.6.1: Naval Invasions).

4.4: "Units that were picked up by transports during the naval movement phase may move
into a territory adjacent to the sea zone they are in at this point. If the units move
from the transports into an enemy owned territory (even those territories that are not
occupied by enemy units), then a Naval Invasion will take place." So the troops must be
aboard: loaded (4.2.1 LOAD) by one of the nation's task forces that is in that sea zone
after its missions (the task-force ledger, engine/orders/task_forces.py), and not
already sent ashore by an earlier INVADE. Transports: "the transport may unload units
into different territories so long as all territories are adjacent to the sea zone".

4.6.1: "Tanks may not participate in naval invasions at all" (a landing on friendly land
is no invasion: tanks may land there). "Beachlanding forces can NOT retreat"
(conditions.py refuses a withdrawal). Phase 1.1: an invasion of a nation not at war yet
is warned as for MOVE (the US penalty); the war it starts is the moderator's to write,
with the landing. AA guns and rockets never attack (Anti Air Guns, Rockets): warned.

Carried out in step 4.4, with the land moves: 4.4 says the troops aboard "may move into a
territory adjacent to the sea zone they are in at this point", so a landing and the
attacks by land on the same territory are one battle (Phase 4 guideline 2; the note
after 4.6.1). The troops actually aboard the nation's transports in the zone when the
naval step is over (phase4_sea.py; fewer if transports were sunk: "units-missing") go
ashore through phase4_land.land_from_sea, the land side's one entry for landings; the
step's own work (phase4_land.land_moves) fights them: onto own or allied land a move,
onto other land a beach landing (the penalties, the coastal defence unit, no retreat,
the battleships bombarding the shore: engine/shore_bombardment.py). The checker's
commit() hands the same legs over, so its assumed captures (phase4_land.assume_captures)
take the landings too.
"""

from __future__ import annotations

from collections import Counter

from moderator.engine import garrison_apart, phase4_land
from moderator.engine.combat_land import CAPTURERS
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders import declare_war
from moderator.engine.orders.base import OrderRule
from moderator.engine.orders.move import NEVER_ATTACK, capture_warning, undefended
from moderator.engine.orders.task_forces import TaskForceRecord
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.state import Unit
from moderator.orders.model import NavalInvasion

PHASE = "4.4"  # 4.4: the landing is part of land movement; 4.6.1 its battle's rules
NO_INVASION = frozenset({"tank"})  # 4.6.1: "Tanks may not participate in naval invasions at all"


def carriers(pos: Position, nation: str, zone: str) -> list[TaskForceRecord]:
    """The nation's task forces in `zone` after their missions, by name."""
    return sorted((tf for (n, _), tf in pos.task_forces.items() if n == nation and tf.zone == zone),
                  key=lambda tf: tf.name)


def aboard(pos: Position, nation: str, zone: str) -> Counter[str]:
    """Troops still aboard the nation's task forces in `zone`, by kind."""
    out: Counter[str] = Counter()
    for tf in carriers(pos, nation, zone):
        out += tf.aboard - tf.landed
    return out


def invades(pos: Position, nation: str, dest: str) -> bool:
    """Landing on land that is not the nation's or an ally's is a naval invasion (4.4)."""
    return not pos.friendly(nation, dest)


class NavalInvasionRule(OrderRule[NavalInvasion]):
    order = NavalInvasion
    section = PHASE

    def problem(self, pos: Position, nation: str, order: NavalInvasion) -> Problem | None:
        if not pos.is_sea(order.origin) or pos.is_sea(order.dest) or not pos.adjacent(order.origin, order.dest):
            return problem("invasion-coast", order.dest, zone=order.origin, place=order.dest)
        apart = garrison_apart.apart_problem(pos, nation, order.dest)  # French #1: allied France and Spain
        if apart is not None:
            return apart
        kinds = {u.kind for u in order.units}
        if kinds & NO_INVASION and invades(pos, nation, order.dest):
            return problem("invasion-tanks", order.dest, kinds=sorted(kinds & NO_INVASION))
        if invades(pos, nation, order.dest) and (barred := declare_war.attack_barred(pos, nation, order.dest)):
            return barred  # a war it may not declare (Surrender; a neutral's own sections)
        carried = aboard(pos, nation, order.origin)
        for uc in order.units:
            if carried[uc.kind] < uc.count:
                return problem("invasion-not-loaded", order.origin, kind=uc.kind, count=uc.count,
                               aboard=carried[uc.kind], zone=order.origin)
        if invades(pos, nation, order.dest) and not kinds & CAPTURERS and undefended(pos, nation, order.dest):
            # 4.4: "Only infantry or tanks can capture territories" (the land side refuses the
            # rest), asked last: the checker does not ask who defends the coast (move.undefended)
            return problem("cannot-capture", order.dest, place=order.dest)
        return None

    def remarks(self, pos: Position, nation: str, order: NavalInvasion) -> list[Problem]:
        if not invades(pos, nation, order.dest):
            return []
        out: list[Problem] = []
        holder = pos.controller(order.dest)
        if holder is not None and not pos.at_war(nation, holder):
            out.append(warning("undeclared-attack", order.dest, place=order.dest, nations=[holder]))
        kinds = {u.kind for u in order.units}
        if kinds & NEVER_ATTACK:
            out.append(warning("never-attack", kinds=sorted(kinds & NEVER_ATTACK)))
        return out + capture_warning(pos, nation, order.dest, kinds)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: NavalInvasion) -> None:
        """The troops go ashore: taken off the task forces in the zone, in name order; the
        checker hands their landing to the land side (its assumed captures)."""
        self.ledger(ctx, nation, order)
        if ctx.checking:
            ids = {i for tf in carriers(ctx, nation, order.origin) for i in tf.troops}
            phase4_land.land_from_sea(ctx, nation, index, order, pick(ctx, nation, order, ids, index))

    def ledger(self, ctx: TurnContext, nation: str, order: NavalInvasion) -> None:
        for uc in order.units:
            left = uc.count
            for tf in carriers(ctx, nation, order.origin):
                n = min(left, tf.aboard[uc.kind] - tf.landed[uc.kind])
                tf.landed[uc.kind] += n
                left -= n

    def execute(self, ctx: TurnContext, nation: str, index: int, order: NavalInvasion) -> None:
        self.ledger(ctx, nation, order)
        aboard = {u.id for u in ctx.units_at(order.origin, nation)}  # after the naval step: at sea
        units = pick(ctx, nation, order, aboard, index)
        if units:
            phase4_land.land_from_sea(ctx, nation, index, order, units)


def pick(ctx: TurnContext, nation: str, order: NavalInvasion, ids: set[str], index: int) -> list[Unit]:
    """The order's troops among `ids`, lowest ids first, not landed by an earlier order;
    the nation is told when fewer are there (sunk at sea with their transports)."""
    landed = {u.id for g in ctx.legs for u in g.units}
    aboard = ctx.state.units_with_ids(ids)  # (found by id: not a look at every unit of the map per kind)
    units: list[Unit] = []
    for uc in order.units:
        here = sorted((u for u in aboard if u.kind == uc.kind and u.id not in landed and u not in units),
                      key=lambda u: u.id)
        units += here[: uc.count]
        if len(here) < uc.count and not ctx.checking:
            ctx.tell(nation, "units-missing", PHASE, order=index, kind=uc.kind, place=order.origin,
                     ordered=uc.count, present=len(here))
    return units


RULE = NavalInvasionRule()
