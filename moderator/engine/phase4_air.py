"""Phase 4.1.1 bombing raids: AA fire, interception by fighters (4.5), then the damage.

The BOMB order's home (orders/bombing.py) checks the raid and queues it (execute());
once all of step 4.1.1's orders are in, fly_pending() flies every raid together:

1. AA (Anti Air Guns): "Each AA unit gets only one die roll against enemy planes entering
   the given territory ... The AA roll against aircraft happens before any other
   combat. Planes destroyed do not get to attack": each AA gun of the target's side in
   the territory rolls once at its defense value (Improved AA +1); a hit downs one plane.
0. On the way (4.5, the same words below): the raid flies the way engine/air_route.py
   finds; over every land territory on it the AA guns fire and the enemy fighters
   intercept as at the target, before the raid reaches the target (engine/air_passage.py).
   Every raid of the step flies at once (fly_raids): raids over one place at one time
   meet its fighters together, and raids on one target at one time its AA guns, each gun
   rolling once against them all ("this is not one die role per plane"); the result
   never depends on the order of nations or of lines.
2. Interception (4.5): "When aircraft move into a territory ... containing enemy fighters,
   the enemy fighters have the option of intercepting ... (default)". Air combat rounds:
   both sides roll one D10 per aircraft, fighters at their value in the fighter
   technology table (combat_air, Improved Fighters levels), bombers at 1 ("bombers always
   have a combat value of 1"); each hit downs one plane. "Each plane removes 1 fuel
   point": the raiders fight on while they keep the fuel for the bombing run and the
   flight home (4.1.1 reading: the run counts as a round, engine/fuel.py), else they turn
   back without bombing; the interceptors fight over their own land, so only their tank
   limits them. "If the player has aircraft which are intercepted and successfully
   defeat or merely outlast ... the intercepting aircraft, then the mission ... may
   continue". The target's fighters whose nation ordered LET THROUGH there do not
   intercept; the raider's BREAK OFF AIR COMBAT condition, met after a round while
   interceptors with fuel remain, sends the raiders home unbombed (4.5 step 3;
   engine/orders/interception.py).
3. The damage (4.1.1), by every plane that got through: industrial bombing "subtract 1D10
   resources from the target nation's saved resources" each (never below 0) or "1
   Manpower from their Manpower reserves" each; tactical bombing "1 Tactical Strike Point"
   each, "If three or more ... any infantry attacking that territory that turn receives a
   +1" (the points are kept in ctx.memo[("strike", territory)] for land combat).

Casualties are the owner's choice (its CASUALTIES order for the place, or everywhere);
the default downs the cheapest plane first, then by kind and id. The planes that survive stay at their base: "The aircraft cannot move,
re-base, or participate in combat on any turn it does a bombing mission."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from moderator.engine import air_passage, air_route, fuel
from moderator.engine.air_passage import Flight, down, tank_of
from moderator.engine.context import TurnContext
from moderator.engine.orders import interception
from moderator.engine.orders.move import landing_places
from moderator.engine.state import Unit, kinds
from moderator.orders.model import Bombing

PHASE = "4.1.1"
STRIKES_FOR_BONUS = 3  # 4.1.1: "If three or more Tactical Strike Points are scored"
PENDING = ("raids",)  # ctx.memo: the step's raids, flown together once all its orders are in

__all__ = ["down", "tank_of", "raid", "fly_raids", "fly_pending", "strike_bonus"]  # down, tank_of: air_combat_sea


def spare_rounds(ctx: TurnContext, plane: Unit, origin: str, target: str,
                 homes: list[str] | None = None, least: int | None = None) -> int:
    """Air-combat rounds a raider can fight and still bomb and fly home (Fighters: fuel).
    homes: the plane's nation's landing places, when the caller has them already;
    least: the fewest fuel points from origin to target, when the caller knows them."""
    tank = tank_of(ctx, plane)
    if least is None:
        out = fuel.cheapest(ctx.world, origin, target, limit=tank)
    else:  # what the search would find: the fewest, if the tank holds them
        out = least if least <= tank else None
    homes = landing_places(ctx, plane.nation) if homes is None else homes
    back = fuel.to_nearest(ctx.world, target, homes, limit=tank)
    if out is None or back is None:
        return 0
    return max(0, tank - out - back - fuel.ROUND)


@dataclass
class Seen:
    """Answers found while planning the step's raids, kept for its other raids: all are planned
    on the same position before any flies, so whether a place is defended against a nation,
    a nation's landing places and a plane's spare rounds (which hang only on its nation, its
    tank and the raid's ends) are the same for every raid: found once, not once per place
    tried or per plane."""
    defended: dict[tuple[str, str], bool] = field(default_factory=dict)
    homes: dict[str, list[str]] = field(default_factory=dict)
    spare: dict[tuple[str, int, str, str], int] = field(default_factory=dict)


@dataclass
class Raid:
    nation: str
    index: int
    order: Bombing
    holder: str  # the target's holder as the raids begin
    flight: Flight
    aa_hits: int = 0
    aa_nations: frozenset[str] = frozenset()


def plan(ctx: TurnContext, nation: str, index: int, order: Bombing, planes: Sequence[Unit],
         seen: Seen | None = None) -> Raid:
    """The raid on the position as the step's raids begin: its way, its fuel.
    seen: what the step's other raids found already (Seen)."""
    seen = Seen() if seen is None else seen
    target = order.target

    def guarded(place: str) -> bool:
        k = (nation, place)
        if k not in seen.defended:
            seen.defended[k] = air_passage.defended(ctx, nation, place, ctx.moved)
        return seen.defended[k]

    def rounds(plane: Unit) -> int:
        k = (plane.nation, tank_of(ctx, plane), order.origin, target)
        if k not in seen.spare:
            if plane.nation not in seen.homes:
                seen.homes[plane.nation] = landing_places(ctx, plane.nation)
            seen.spare[k] = spare_rounds(ctx, plane, order.origin, target, seen.homes[plane.nation], least)
        return seen.spare[k]

    tank = max((tank_of(ctx, u) for u in planes), default=0)
    places = air_route.way(ctx.world, order.origin, target, guarded, tank)
    # the way is one of the fewest fuel points (air_route.way): their number is every
    # plane's fuel out, where a search for each plane found it again (issue 14)
    least = None if places is None else sum(fuel.move_cost(ctx.world, a, b)
                                            for a, b in zip(places, places[1:], strict=False))
    key = (nation, order.origin, target, order.aim, min((u.id for u in planes), default=""))
    spare = {u.id: rounds(u) for u in planes}
    retreat = interception.retreat_conditions(ctx, nation, target)
    flight = air_passage.flight(ctx, nation, key, planes, places or [order.origin, target], spare, retreat,
                                goal=True)
    return Raid(nation, index, order, ctx.controller(target) or "", flight)


def execute(ctx: TurnContext, nation: str, index: int, order: Bombing, planes: Sequence[Unit]) -> None:
    """The BOMB order's part: the raid waits for the others of the step (fly_pending)."""
    ctx.memo.setdefault(PENDING, []).append((nation, index, order, list(planes)))


def fly_pending(ctx: TurnContext) -> None:
    """Step 4.1.1's own work: every raid ordered in it, flown together."""
    fly_raids(ctx, ctx.memo.pop(PENDING, []))


def raid(ctx: TurnContext, nation: str, index: int, order: Bombing, planes: Sequence[Unit]) -> None:
    """One raid flown alone."""
    fly_raids(ctx, [(nation, index, order, list(planes))])


def fly_raids(ctx: TurnContext, orders: Sequence[tuple[str, int, Bombing, list[Unit]]]) -> None:
    seen = Seen()
    raids = sorted((plan(ctx, *o, seen=seen) for o in orders), key=lambda r: r.flight.key)
    # Raiders do not intercept other raids, nor do units busy with another order this turn
    # (a reconnaissance mission's: "cannot be used in combat in phase 4", 3.3).
    away = {u.id for r in raids for u in r.flight.planes} | set(ctx.moved)

    air_passage.fly(ctx, [r.flight for r in raids], away)  # the AA guns on the way and at the target too
    for r in raids:
        r.aa_hits, r.aa_nations = sum(r.flight.aa_hits.values()), frozenset(r.flight.aa_by)
        damage_and_report(ctx, r)


def damage_and_report(ctx: TurnContext, r: Raid) -> None:
    """4.1.1: the damage of every plane that got through, and the raid's event."""
    flight, target, order, holder = r.flight, r.order.target, r.order, r.holder
    through = flight.planes
    damage = 0
    if order.aim == "industry" and holder:
        rolled = sum(ctx.dice.d10(f"industrial bombing of {target}: {r.nation} bomber") for _ in through)
        damage = min(rolled, max(ctx.state.nations[holder].saved, 0))
        ctx.state.nations[holder].saved -= damage
    elif order.aim == "city" and holder:
        damage = min(len(through), max(ctx.state.nations[holder].manpower_limit, 0))
        ctx.state.nations[holder].manpower_limit -= damage
    elif order.aim == "tactical":
        damage = len(through)
        key = ("strike", target)
        ctx.memo[key] = ctx.memo.get(key, 0) + damage
    seen = sorted({r.nation, *flight.fought, *r.aa_nations} | ({holder} if holder else set()))
    ctx.emit("air-raid", PHASE, seen, nation=r.nation, order=r.index, target=target, aim=order.aim, holder=holder,
             aa_hits=r.aa_hits, rounds=flight.rounds, lost=kinds(flight.lost),
             interceptors_lost=kinds(flight.guards_lost), turned_back=kinds(flight.turned_back), through=kinds(through),
             damage=damage, strike_points=ctx.memo.get(("strike", target), 0) if order.aim == "tactical" else 0,
             via=flight.via, intercepted_over=[p for p in flight.over if p != target],
             aa_over=[p for p in flight.aa_hits if p != target])


def strike_bonus(ctx: TurnContext, territory: str) -> int:
    """4.1.1: +1 to attacking infantry in a territory with three or more strike points this turn."""
    return 1 if ctx.memo.get(("strike", territory), 0) >= STRIKES_FOR_BONUS else 0
