"""Phase 4.1.1 bombing raids: AA fire, interception by fighters (4.5), then the damage.

The BOMB order's home (orders/bombing.py) checks the raid; raid() flies it:

1. AA (Anti Air Guns): "Each AA unit gets only one die roll against enemy planes entering
   the given territory ... The AA roll against aircraft happens before any other
   combat. Planes destroyed do not get to attack": each AA gun of the target's side in
   the territory rolls once at its defense value; a hit downs one plane.
0. On the way (4.5, the same words below): the raid flies the way engine/air_route.py
   finds; over every land territory on it with enemy fighters they intercept as at the
   target (intercept()), before the raid reaches the target's AA guns.
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

Casualties are the owner's choice; the default downs the cheapest plane first, then by
kind and id. The planes that survive stay at their base: "The aircraft cannot move,
re-base, or participate in combat on any turn it does a bombing mission."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from moderator.engine import air_route, fuel
from moderator.engine.combat_air import dogfight_value, enemy_level, radar_against
from moderator.engine.combat_orders import withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.orders import interception
from moderator.engine.orders.move import landing_places
from moderator.engine.state import Unit, kinds
from moderator.orders.model import Bombing, CombatCondition

PHASE = "4.1.1"
STRIKES_FOR_BONUS = 3  # 4.1.1: "If three or more Tactical Strike Points are scored"


def down(ctx: TurnContext, planes: list[Unit], hits: int) -> list[Unit]:
    """Remove `hits` planes, cheapest first; returns those lost."""
    order = sorted(planes, key=lambda u: (ctx.scenario.stats(u.nation, u.kind).cost, u.kind, u.id))
    lost = order[:hits]
    for u in lost:
        planes.remove(u)
    gone = {u.id for u in lost}
    ctx.state.units = [u for u in ctx.state.units if u.id not in gone]
    return lost


def tank_of(ctx: TurnContext, plane: Unit) -> int:
    """The plane's fuel, by its own technology (Improved Fighters and Bombers add fuel)."""
    stats = ctx.stats(plane.nation, plane.kind, plane)
    return stats.fuel if stats is not None else 0


def spare_rounds(ctx: TurnContext, plane: Unit, origin: str, target: str) -> int:
    """Air-combat rounds a raider can fight and still bomb and fly home (Fighters: fuel)."""
    tank = tank_of(ctx, plane)
    out = fuel.cheapest(ctx.world, origin, target, limit=tank)
    back = fuel.to_nearest(ctx.world, target, landing_places(ctx, plane.nation), limit=tank)
    if out is None or back is None:
        return 0
    return max(0, tank - out - back - fuel.ROUND)


@dataclass
class Flight:
    """A raid on its way: the planes still flying and what befell the others."""

    raiders: list[Unit]
    spare: dict[str, int]  # unit id -> air-combat rounds its fuel allows over the whole raid
    rounds: int = 0  # air-combat rounds fought so far, wherever (a fuel point each)
    lost: list[Unit] = field(default_factory=list)
    turned_back: list[Unit] = field(default_factory=list)
    guards_lost: list[Unit] = field(default_factory=list)
    fought: set[str] = field(default_factory=set)  # nations whose fighters intercepted or let it go
    over: list[str] = field(default_factory=list)  # places on the way where it was intercepted


def guards_at(ctx: TurnContext, nation: str, place: str) -> list[Unit]:
    """Enemy fighters at `place` that may intercept (not those passing through on rails)."""
    return [u for u in ctx.units_at(place) if u.kind == "fighter" and ctx.at_war(nation, u.nation)
            and u.id not in ctx.in_transit]


def intercept(ctx: TurnContext, nation: str, place: str, flight: Flight,
              retreat: tuple[CombatCondition, ...]) -> None:
    """4.5 over `place`: its enemy fighters intercept (unless their nation lets the raid
    through) and air-combat rounds follow while both sides have planes in it: the raiders
    while their fuel leaves the run and the way home (else they turn back), the
    interceptors while their tank lasts. After a round with interceptors left, the raider's
    BREAK OFF AIR COMBAT condition (per air combat: its rounds, the raider's planes downed
    in it, the interceptors downed) sends the raiders home unbombed."""
    fighters = guards_at(ctx, nation, place)
    passing = interception.passing(ctx, place)  # 4.5: "the option of intercepting or letting them go"
    guards = sorted((u for u in fighters if u.nation not in passing), key=lambda u: u.id)
    for other in sorted({u.nation for u in fighters} & passing):
        ctx.tell(other, "let-through", PHASE, territory=place, units=kinds([u for u in fighters if u.nation == other]))
    flight.fought |= {u.nation for u in fighters}
    against_raiders, against_guards = enemy_level(ctx, guards), enemy_level(ctx, flight.raiders)  # fixed as it starts
    radar = radar_against(ctx, place, nation)
    here = 0
    lost: list[Unit] = []
    killed: list[Unit] = []
    while flight.raiders and guards:
        able = [u for u in flight.raiders if flight.spare[u.id] > flight.rounds]
        flight.turned_back += [u for u in flight.raiders if u not in able]
        flight.raiders = able
        fit = [g for g in guards if tank_of(ctx, g) > here]
        if not flight.raiders or not fit:
            break
        here += 1
        flight.rounds += 1
        purpose = f"air combat over {place} round {here}"
        r_hits = sum(ctx.dice.d10(f"{purpose}: {nation} {u.kind}") <= dogfight_value(ctx, u, against_raiders, radar)
                     for u in flight.raiders)
        g_hits = sum(ctx.dice.d10(f"{purpose}: {g.nation} fighter") <= dogfight_value(ctx, g, against_guards)
                     for g in fit)
        killed += down(ctx, guards, r_hits)
        lost += down(ctx, flight.raiders, g_hits)
        fighting = [g for g in guards if tank_of(ctx, g) > here]
        why = withdrawal(retreat, here, len(lost), len(killed)) if fighting and flight.raiders else None
        if why:  # 4.5 step 3: "The attacking player may now decide to retreat" (BREAK OFF AIR COMBAT)
            ctx.emit("air-retreat", PHASE, sorted({nation, *(g.nation for g in (*guards, *killed))}),
                     nation=nation, territory=place, condition=why, rounds=here, units=kinds(flight.raiders))
            flight.raiders = []  # they fly home unbombed: told by air-retreat, not "short of fuel"
    flight.lost += lost
    flight.guards_lost += killed


def raid(ctx: TurnContext, nation: str, index: int, order: Bombing, planes: Sequence[Unit]) -> None:
    target = order.target
    holder = ctx.controller(target) or ""
    flight = Flight(list(planes), {u.id: spare_rounds(ctx, u, order.origin, target) for u in planes})
    retreat = interception.retreat_conditions(ctx, nation, target)
    tank = max((tank_of(ctx, u) for u in planes), default=0)
    places = air_route.way(ctx.world, order.origin, target, lambda p: bool(guards_at(ctx, nation, p)), tank)
    via = air_route.passed(places) if places is not None else []
    for place in via:  # 4.5: "When aircraft move into a territory ... containing enemy fighters"
        if not flight.raiders:
            break
        if ctx.is_sea(place) or not guards_at(ctx, nation, place):
            continue  # at sea, fighters fight with the naval battles
        before = flight.rounds
        intercept(ctx, nation, place, flight, (*interception.retreat_conditions(ctx, nation, place), *retreat))
        if flight.rounds > before:
            flight.over.append(place)
    aa = [u for u in ctx.units_at(target) if u.kind == "aa" and ctx.at_war(nation, u.nation)]
    aa_hits = 0
    for gun in sorted(aa, key=lambda u: u.id):
        value = ctx.scenario.stats(gun.nation, "aa").defense
        if flight.raiders and ctx.dice.d10(f"AA at {target}: {gun.nation} aa") <= value:
            aa_hits += 1
    flight.lost += down(ctx, flight.raiders, aa_hits)
    if flight.raiders:
        intercept(ctx, nation, target, flight, retreat)
    through = flight.raiders
    damage = 0
    if order.aim == "industry" and holder:
        rolled = sum(ctx.dice.d10(f"industrial bombing of {target}: {nation} bomber") for _ in through)
        damage = min(rolled, max(ctx.state.nations[holder].saved, 0))
        ctx.state.nations[holder].saved -= damage
    elif order.aim == "city" and holder:
        damage = min(len(through), max(ctx.state.nations[holder].manpower_limit, 0))
        ctx.state.nations[holder].manpower_limit -= damage
    elif order.aim == "tactical":
        damage = len(through)
        key = ("strike", target)
        ctx.memo[key] = ctx.memo.get(key, 0) + damage
    seen = sorted({nation, *flight.fought, *(u.nation for u in aa)} | ({holder} if holder else set()))
    ctx.emit("air-raid", PHASE, seen, nation=nation, order=index, target=target, aim=order.aim, holder=holder,
             aa_hits=aa_hits, rounds=flight.rounds, lost=kinds(flight.lost),
             interceptors_lost=kinds(flight.guards_lost), turned_back=kinds(flight.turned_back), through=kinds(through),
             damage=damage, strike_points=ctx.memo.get(("strike", target), 0) if order.aim == "tactical" else 0,
             via=via, intercepted_over=flight.over)


def strike_bonus(ctx: TurnContext, territory: str) -> int:
    """4.1.1: +1 to attacking infantry in a territory with three or more strike points this turn."""
    return 1 if ctx.memo.get(("strike", territory), 0) >= STRIKES_FOR_BONUS else 0
