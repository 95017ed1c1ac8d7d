"""REPAIR n ships AT sea zone (Phase 3.4: Repairing of damaged ships).

"In this phase, any ship, that is in the sea zone with a friendly (own or allied) port,
can start to repair herself. Because repairing lasts full turn, if the ship is attacked
during the repairing action, ship will have to defend herself and cancel repairing
action. Also, all money intended to be spent for repairing is lost. Repairing lasts
until phase 7 ... battleships are fully repaired for the cost of 20, and aircraft
carriers for the cost of 25." Battleships: "the battleship cannot take any action that
turn"; Aircraft Carriers: "Damaged carriers require 25 resources to repair."

The repair is paid when step 3.4 runs and the damaged ships are claimed (no other order
may use them this turn); Phase 7 (engine/phase7_repair.py) finishes it unless the ship
was attacked, and then the money is lost.
"""

from __future__ import annotations

from moderator.engine import phase7_repair
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford
from moderator.engine.placement import map_facility
from moderator.engine.problems import Problem, problem
from moderator.engine.state import Unit
from moderator.orders.model import Repair

PHASE = "3.4"
PRICES = {"battleship": 20, "carrier": 25}  # 3.4, Battleships, Aircraft Carriers


def friendly_port(pos: Position, nation: str, sea: str) -> str | None:
    """A land territory next to `sea` held by the nation or an ally, with a port."""
    for land in sorted(pos.world.neighbours(sea)):
        if not pos.place(land).is_land or not pos.friendly(nation, land):
            continue
        if map_facility(pos, land, "port") or any(u.kind == "port" for u in pos.units_at(land)):
            return land
    return None


def damaged(pos: Position, nation: str, order: Repair) -> list[Unit]:
    """The nation's damaged ships of the kind in the zone that no order has used yet."""
    return sorted((u for u in pos.units_at(order.place, nation)
                   if u.kind == order.kind and u.damage > 0 and u.id not in pos.moved), key=lambda u: u.id)


def cost(order: Repair) -> int:
    return PRICES[order.kind] * order.count


def claim(ctx: TurnContext, nation: str, order: Repair) -> list[Unit]:
    ships = damaged(ctx, nation, order)[: order.count]
    ctx.claimed[(nation, order.place, order.kind)] += len(ships)
    ctx.claim(ships)
    return ships


class RepairRule(OrderRule[Repair]):
    order = Repair
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Repair) -> Problem | None:
        if order.kind not in PRICES:
            return problem("nothing-to-repair", kind=order.kind, place=order.place, have=0, wanted=order.count)
        if not pos.is_sea(order.place) or friendly_port(pos, nation, order.place) is None:
            return problem("repair-no-port", order.place, place=order.place)
        have = len(damaged(pos, nation, order))
        if have < order.count:
            return problem("nothing-to-repair", order.place, kind=order.kind, place=order.place, have=have,
                           wanted=order.count)
        return afford(pos, nation, cost(order), "the repair")

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Repair) -> None:
        ctx.pay(nation, cost(order))
        claim(ctx, nation, order)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Repair) -> None:
        ctx.pay(nation, cost(order))
        phase7_repair.start(ctx, nation, claim(ctx, nation, order))  # finished in Phase 7 (step 7.3)


RULE = RepairRule()
