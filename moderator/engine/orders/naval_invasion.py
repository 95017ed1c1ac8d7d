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

Carried out in step 4.4 with the land moves (4.4: the landing is a land move from the
sea zone): the troops actually aboard the nation's transports in the zone when the
naval step is over (phase4_sea.py; fewer if transports were sunk: "units-missing") go
ashore. Onto own or allied land they just move; onto other land it is a naval invasion,
fought by `landing_battle`, the one call from the sea side into land combat.
"""

from __future__ import annotations

from collections import Counter

from moderator.engine import combat_land, combat_orders
from moderator.engine.combat_land import CAPTURERS
from moderator.engine.conquest import seize, take_territory
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.orders.move import NEVER_ATTACK, enemy_units, start_war
from moderator.engine.orders.task_forces import TaskForceRecord
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.state import Unit, kinds
from moderator.orders.model import NavalInvasion

PHASE = "4.4"  # 4.4: "Units that were picked up by transports ... may move into a territory"
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
        kinds = {u.kind for u in order.units}
        if kinds & NO_INVASION and invades(pos, nation, order.dest):
            return problem("invasion-tanks", order.dest, kinds=sorted(kinds & NO_INVASION))
        carried = aboard(pos, nation, order.origin)
        for uc in order.units:
            if carried[uc.kind] < uc.count:
                return problem("invasion-not-loaded", order.origin, kind=uc.kind, count=uc.count,
                               aboard=carried[uc.kind], zone=order.origin)
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
        return out

    def commit(self, ctx: TurnContext, nation: str, index: int, order: NavalInvasion) -> None:
        """The troops go ashore: taken off the task forces in the zone, in name order."""
        for uc in order.units:
            left = uc.count
            for tf in carriers(ctx, nation, order.origin):
                n = min(left, tf.aboard[uc.kind] - tf.landed[uc.kind])
                tf.landed[uc.kind] += n
                left -= n

    def assume(self, ctx: TurnContext, nation: str, index: int, order: NavalInvasion) -> None:
        """The checker takes an invasion with infantry for a capture, as it does an attack
        (the Move home's assume): the defenders destroyed, the land seized."""
        if not invades(ctx, nation, order.dest) or not any(u.kind in CAPTURERS for u in order.units):
            return
        defenders = {u.id for u in enemy_units(ctx, nation, order.dest)}
        ctx.state.units = [u for u in ctx.state.units if u.id not in defenders]
        seize(ctx, order.dest, nation)
        ctx.assumed[f"control:{order.dest}"] = f"your landing on {order.dest}"

    def execute(self, ctx: TurnContext, nation: str, index: int, order: NavalInvasion) -> None:
        self.commit(ctx, nation, index, order)
        units: list[Unit] = []
        for uc in order.units:
            here = sorted((u for u in ctx.units_at(order.origin, nation) if u.kind == uc.kind), key=lambda u: u.id)
            units += here[: uc.count]
            if len(here) < uc.count:
                ctx.tell(nation, "units-missing", PHASE, order=index, kind=uc.kind, place=order.origin,
                         ordered=uc.count, present=len(here))
        if not units:
            return
        if not invades(ctx, nation, order.dest):
            for u in units:
                u.location = order.dest
            ctx.tell(nation, "moved", PHASE, order=index, origin=order.origin, dest=order.dest, units=kinds(units))
            return
        landing_battle(ctx, nation, index, order, units)


def landing_battle(ctx: TurnContext, nation: str, index: int, order: NavalInvasion, units: list[Unit]) -> None:
    """4.6.1: the beach landing, fought by today's land combat: the coastal defence unit
    ("a 1 defense factor coastal defense unit ... always the first unit lost") and no
    retreat (no withdrawal conditions; "lasts until one side or another achieves
    victory"). The coastal defender and the attack penalty are those land combat gives an
    attack across a strait (-2 for infantry and artillery, where 4.6.1 says -3 and -4)
    until the land side's landing (phase4_land.land_from_sea) is in main: then this body
    becomes that one call. Survivors of a failed landing stay aboard; a won landing puts
    them all ashore (artillery too: it has nowhere else to fire from)."""
    defenders = enemy_units(ctx, nation, order.dest)
    start_war(ctx, nation, order.dest, defenders)
    landers = [u for u in units if u.kind not in NEVER_ATTACK]
    if not landers:
        return
    steer = combat_orders.BattleOrders(
        combat_orders.casualty_preferences(ctx, [nation, *(u.nation for u in defenders)], order.dest))
    battle = combat_land.fight(ctx, order.dest, [order.origin], nation, landers, defenders,
                               {u.id for u in landers}, steer)
    alive = combat_land.survivors(battle)
    captured = not combat_land.defenders_left(battle) and any(u.kind in CAPTURERS for u in alive)
    combat_land.battle_event(ctx, battle, captured)
    if captured:
        for u in alive:
            u.location = order.dest
        take_territory(ctx, order.dest, nation, combat_land.PHASE)


RULE = NavalInvasionRule()
