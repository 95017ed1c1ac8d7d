"""The aircraft of a land attack from further than next door, on their way (4.4 with 4.5).

4.5: "When aircraft move into a territory (or sea zone) containing enemy fighters, the
enemy fighters have the option of intercepting or letting them go ... the mission the
aircraft had originally been sent on ... may continue, assuming those planes still have
enough fuel points remaining to do so. This could mean moving beyond the territory the
air combat took place in ... or merely to attack the territory that the air battle
occurred in." The aircraft of an ATTACK (or MOVE into enemy land) fly the way
engine/air_route.py finds, as a bombing raid does (cheapest in fuel, then past the fewest
guarded places, then by name), and meet the enemy fighters of every land territory
between: engine/air_passage.py, every attack of the step at once (raids of allies over
one place at one time fight together, the result never depends on the order of nations
or lines). The battle at the target, its AA guns and its fighters are the land battle's
(combat_land).

Fuel (Fighters: "1 fuel point for each round of combat"): an attacking plane fights on
the way while it keeps the fuel for one round of the battle and the flight to friendly
land after it (4.6: "Aircraft *must* disengage with enough fuel points to safely return
to a friendly territory"), else it turns back; rounds fought on the way are taken from
those it may fight in the battle (spent_on_the_way, read by phase4_land). Planes that
turn back or break off (BREAK OFF AIR COMBAT at the place or at the target) fly home and
take no part in the battle; the nation is told what befell its flight (attack-intercepted).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from moderator.engine import air_passage, air_route, fuel
from moderator.engine.air_passage import tank_of
from moderator.engine.context import TurnContext
from moderator.engine.orders import interception
from moderator.engine.orders.move import Leg
from moderator.engine.state import AIR_UNITS, Unit, kinds

PHASE = "4.4"
SPENT = "air-rounds-on-the-way"  # ctx.memo key prefix: unit id -> air-combat rounds fought on the way
WAY = "air-way-to-the-battle"  # ctx.memo key prefix: unit id -> the places flown over, start to target


def spent_on_the_way(ctx: TurnContext, plane: Unit) -> int:
    """Rounds of air combat the plane fought on its way to this step's battle."""
    return int(ctx.memo.get((SPENT, plane.id), 0))


def way_flown(ctx: TurnContext, leg: Leg, plane: Unit) -> list[str]:
    """The places the plane flew to the leg's battle, start and target included (the
    start and the target when it came from next door)."""
    return list(ctx.memo.get((WAY, plane.id), (leg.origin, leg.dest)))


def guarded(ctx: TurnContext, nation: str, away: Collection[str]) -> Callable[[str], bool]:
    """Whether `nation`'s enemies' fighters or AA guns defend a place (air_route's choice of way)."""
    return lambda place: air_passage.defended(ctx, nation, place, away)


def flown(ctx: TurnContext, leg: Leg, away: Collection[str]) -> list[str] | None:
    """The way a leg's aircraft fly over other places to its goal, or None: no aircraft,
    from next door (nothing between), carried by sea (they come by the coastal route,
    4.6.1) or artillery's support."""
    planes = [u for u in leg.units if u.kind in AIR_UNITS]
    if not planes or leg.beach or leg.support:
        return None
    tank = max(tank_of(ctx, u) for u in planes)
    way = air_route.way(ctx.world, leg.origin, leg.dest, guarded(ctx, leg.nation, away), tank)
    return way if way is not None and len(way) > 2 else None


def on_the_way(ctx: TurnContext, legs: Sequence[Leg], away: Collection[str],
               rounds: Callable[[Leg, Unit], int]) -> None:
    """Fly every attack's aircraft to its target over the places between (`away`: units
    flying or moving elsewhere, which do not intercept; rounds(leg, plane): the rounds of
    combat its fuel allows at the target). The legs keep the planes that arrive."""
    flights: list[tuple[Leg, air_passage.Flight]] = []
    for leg in legs:
        way = flown(ctx, leg, away)
        if way is None:
            continue
        planes = [u for u in leg.units if u.kind in AIR_UNITS]
        key = (leg.nation, leg.origin, leg.dest, min(u.id for u in planes))
        if leg.attack:
            spare = {u.id: rounds(leg, u) - 1 for u in planes}  # keep one round for the battle
        else:  # a MOVE to friendly land: what its fuel leaves once there
            cost = fuel.path_cost([ctx.is_sea(p) for p in way])
            spare = {u.id: tank_of(ctx, u) - cost for u in planes}
        retreat = interception.retreat_conditions(ctx, leg.nation, leg.dest)
        flights.append((leg, air_passage.flight(ctx, leg.nation, key, planes, way, spare, retreat)))
    if not flights:
        return
    air_passage.fly(ctx, [f for _, f in flights], away)
    for leg, f in sorted(flights, key=lambda lf: lf[1].key):  # told in the flights' order, never the lines
        gone = {u.id for u in (*f.lost, *f.turned_back, *f.broke_off)}
        leg.units = [u for u in leg.units if u.id not in gone]
        if not leg.attack:  # those turned back or broken off are still at the start
            air_passage.tell_flight(ctx, f, leg.index, leg.origin, leg.dest, rebase=False)
            continue
        for u in f.planes:
            ctx.memo[(WAY, u.id)] = tuple(f.way)
            if f.rounds:
                ctx.memo[(SPENT, u.id)] = f.rounds
        if f.over or f.aa_hits:
            seen = sorted({leg.nation, *f.fought, *f.aa_by})
            ctx.emit("attack-intercepted", PHASE, seen, nation=leg.nation, order=leg.index, dest=leg.dest,
                     via=f.via, intercepted_over=f.over, rounds=f.rounds, lost=kinds(f.lost),
                     interceptors_lost=kinds(f.guards_lost), turned_back=kinds(f.turned_back),
                     broke_off=kinds(f.broke_off), through=kinds(f.planes),
                     aa_over=list(f.aa_hits), aa_hits=sum(f.aa_hits.values()))
