"""BUILD RADAR / SONAR [ON ship] AT place (Phase 3.1; Radar, Sonar; Phase 7, item 7).

Phase 3.1: "Radar Unit: 18, Sonar: 13", the same for every nation; each needs its
technology (Phase 2.1, Radar and Sonar). Phase 7, item 7: "Sonar units can only be
placed onto ships in a sea zone adjacent to a territory with a Port controlled by that
nation. Radar unit can be placed on any territory or can be placed onto ships in a sea
zone adjacent to territory with a Port controlled by that nation." Radar: "may be
placed on battleships or carriers"; Sonar: "placed on any ship".

A radar on land is a unit like any other: paid now, placed in Phase 7 if the territory
is still the nation's, destroyed when the territory is captured ("A radar unit is
destroyed if ... the territory it is in is captured in combat"; engine/conquest.py).
Gear on a ship is paid now and mounted in Phase 7 on a ship of that kind still in the
sea zone (engine/gear_aboard.py, which also says what it does at sea).

Improved Anti-Aircraft Guns: "Improved AA guns may also be put on ships. Battleships and
carriers may hold 2 improved AA guns, while cruisers and transports may carry 1." BUILD AA
ON <ship> AT <sea zone> needs that technology, pays the nation's AA gun and is mounted in
Phase 7 like the other gear (a reading: the rules name no place for it, so it goes aboard
where radar and sonar go, beside an own port); the guns fire in 4.3 step 3.

Readings: "any territory" for a land radar is any the nation controls (item 7 does not
refer to item 1 as items 3-6 do); one piece of gear per ship ordered each turn, against
the ships of that kind in the sea zone when the turn began that do not carry that gear yet
(one radar and one sonar a ship, engine/gear_aboard.py).
"""

from __future__ import annotations

from moderator.engine.context import PendingBuild, Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford
from moderator.engine.placement import map_facility
from moderator.engine.problems import Problem, problem
from moderator.orders.model import BuildShipGear

PHASE = "3.1"
PRICES = {"radar": 18, "sonar": 13}  # Phase 3.1 (the scenario's units.toml when it has them)
RADAR_SHIPS = ("battleship", "carrier")  # Radar: "may be placed on battleships or carriers"
# Improved Anti-Aircraft Guns: "Battleships and carriers may hold 2 improved AA guns, while
# cruisers and transports may carry 1."
AA_ROOM = {"battleship": 2, "carrier": 2, "cruiser": 1, "transport": 1}
TECH = {"radar": "radar", "sonar": "sonar", "aa": "improved_aa"}


def price(pos: Position, nation: str, kind: str) -> int:
    stats = pos.stats(nation, kind)
    return stats.cost if stats is not None else PRICES[kind]


def port_beside(pos: Position, nation: str, sea: str) -> str | None:
    """Item 7: a land territory next to `sea`, controlled by the nation, with a port."""
    for land in sorted(pos.world.neighbours(sea)):
        if not pos.place(land).is_land or pos.controller(land) != nation:
            continue
        if map_facility(pos, land, "port") or any(u.kind == "port" for u in pos.units_at(land)):
            return land
    return None


def tally_key(nation: str, order: BuildShipGear) -> tuple[str, ...]:
    return ("gear", nation, order.place, order.ship or "", order.kind if order.kind == "aa" else "")


def aa_room(pos: Position, nation: str, place: str, ship: str) -> int:
    """The AA guns still to be put on the nation's ships of that kind in the zone (each its
    AA_ROOM less the guns it carries), counted on the units there now."""
    from moderator.engine.gear_aboard import aboard

    return sum(max(0, AA_ROOM[ship] - aboard(pos, u).count("aa"))
               for u in pos.units_at(place, nation) if u.kind == ship)


def without(pos: Position, nation: str, place: str, ship: str, kind: str) -> int:
    """The nation's ships of that kind in the zone with no `kind` of gear aboard yet: a ship
    holds one radar and one sonar (gear_aboard.room), so a second would be paid for and then
    lost in Phase 7."""
    from moderator.engine.gear_aboard import aboard

    return sum(1 for u in pos.units_at(place, nation) if u.kind == ship and kind not in aboard(pos, u))


class ShipGearRule(OrderRule[BuildShipGear]):
    order = BuildShipGear
    section = PHASE

    def problem(self, pos: Position, nation: str, order: BuildShipGear) -> Problem | None:
        if pos.tech(nation, TECH[order.kind]) < 1:
            return problem("needs-tech", kind=order.kind, tech=TECH[order.kind])
        place = order.place
        if order.ship is None:
            if pos.is_sea(place):
                return problem("gear-needs-ship", order.place, kind=order.kind, place=place)
            if pos.controller(place) != nation:
                return problem("place-not-held", order.place, place=place)
        else:
            if order.kind == "radar" and order.ship not in RADAR_SHIPS:
                return problem("radar-ship", kind=order.ship)
            if order.kind == "aa" and order.ship not in AA_ROOM:
                return problem("aa-ship", kind=order.ship)
            if not pos.is_sea(place):
                seas = [n for n in sorted(pos.world.neighbours(place)) if pos.is_sea(n)]
                return problem("place-ship-land", order.place, seas=seas)
            if port_beside(pos, nation, place) is None:
                return problem("gear-no-port", order.place, place=place)
            if order.kind == "aa":
                room = aa_room(pos, nation, place, order.ship)
                if room <= pos.tally[tally_key(nation, order)]:
                    return problem("aa-no-room", order.place, kind=order.ship, place=place, room=room)
            else:
                ships = pos.start[(nation, place, order.ship)]
                bare = min(ships, without(pos, nation, place, order.ship, order.kind))
                if bare <= pos.tally[tally_key(nation, order)]:
                    return problem("gear-no-ship", order.place, kind=order.ship, place=place, have=ships,
                                   bare=bare, gear=order.kind)
        return afford(pos, nation, price(pos, nation, order.kind), order.kind)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: BuildShipGear) -> None:
        cost = price(ctx, nation, order.kind)
        ctx.pay(nation, cost)
        ctx.builds.append(PendingBuild(nation, order.kind, 1, order.place, cost, index, on=order.ship or ""))
        if order.ship is not None:
            ctx.tally[tally_key(nation, order)] += 1

    def execute(self, ctx: TurnContext, nation: str, index: int, order: BuildShipGear) -> None:
        self.commit(ctx, nation, index, order)
        ctx.tell(nation, "built", PHASE, order=index, kind=order.kind, count=1, place=order.place,
                 cost=price(ctx, nation, order.kind))


RULE = ShipGearRule()
