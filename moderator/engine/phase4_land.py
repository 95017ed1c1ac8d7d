"""Phase 4.4 with 4.6: every nation's land moves resolved together, as one step.

The Move home (orders/move.py) judges each MOVE/ATTACK on the position as the land moves
begin and claims its units, leaving a Leg in ctx.legs. When all of step 4.4's orders are
in, land_moves() resolves the legs of every nation at once, so the result depends
neither on nation ids nor on the order of lines in a mail:

1. Phase 4, guideline 1: "Defending land units always (if able) deploy in their own or
   allied provinces before any combat starts." Every move into land that was the mover's
   own or an ally's when the moves began is carried out first: those units defend where
   they arrive, not where they left.
2. Phase 4, guideline 2 and the note after 4.6.1: every attack on a territory is one
   battle. Attackers allied to each other fight as one side (casualties by each nation's
   share of the total, the fictive unit: combat_land). Attackers not allied to each other
   fight each other first, both as attackers (combat_land.clash); the winner's survivors
   then attack the territory. Three or more clash two by two in an order drawn by lot
   (alliances.by_lot: no nation id decides who meets whom first). Battles are fought
   territory by territory, by name, except that a battle whose defenders may disengage
   into another attacked territory comes before it, so they join its defence (4.6;
   battle_order).
3. Units that attack from a territory have left it and do not defend it, except
   artillery, which fires from home (Artillery: "Artillery units cannot accompany units
   moving in enemy territory"): artillery attacking from a territory that is itself
   attacked by land from elsewhere fires one round, then defends its home ("after
   artillery unit ends supporting (attacking) fire for first round of combat, artillery
   must defend"). AA guns, rockets and units that may not cross a strait stay home too.
   Units on a strategic move (in transit) and units busy with another order (an active
   reconnaissance mission: "cannot be used in combat in phase 4 as neither attackers or
   defenders") do not defend.
4. Aircraft (Fighters; 4.6): an attacking aircraft fights as many rounds as its fuel
   allows after the flight there (fuel.cheapest) with enough left to reach the nearest
   friendly land (fuel.to_nearest); with not even one round it stays home. It then
   leaves the battle and lands at home if its fuel still reaches it, else at the nearest
   friendly land in reach; with none, it is lost. Behind a super trench of the defenders
   facing enemy land, troops cannot be hit from the air (Super Trench): aircraft stay
   home. Aircraft still fighting when the territory is taken land in it. Fighters that
   attacked off a carrier (Aircraft Carriers) count their carrier's zone as home: they
   land back aboard while their nation's carriers there have room (berth).
5. Survivors of a failed attack whose home was taken in another battle of the step fall
   back to the first friendly land next to it, or are lost (a reading).
6. Units landing from transports (4.6.1, through land_from_sea: the seam for the naval
   part) are legs like the others, from their sea zone: onto friendly land a move (they
   deploy first, guideline 1), onto enemy land a naval invasion that joins the one
   battle for the territory, with the beach-landing penalties, the coastal defence unit
   and no retreat (combat_land); tanks and units that never attack stay aboard. If the
   landing takes the territory the landers go ashore (artillery too: it has no home to
   fire from); otherwise survivors stay where the caller keeps them (aboard).
7. Artillery support (Artillery: SUPPORT n art FROM a TO b): artillery protecting a
   friendly neighbour fires in its battle with its attack value, never a casualty (it is
   not there; combat_land), one round only if its own territory is attacked by land from
   elsewhere (then it defends at home). SUPPORT into land the nation attacks is the
   artillery's part in that attack (fired from home, as ATTACK with artillery).

Which nation takes a territory won by allies together: the one with the most infantry
and tanks left (then the one with the larger attack total at the start, then by lot); an
ally's own land is liberated for it (conquest.new_holder).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence

from moderator.engine import (
    attack_flights,
    combat_land,
    combat_orders,
    fuel,
    phase4_air,
    recon_conditions,
    terrain,
    wars,
)
from moderator.engine.alliances import by_alliance, by_lot
from moderator.engine.combat_air import radar_against
from moderator.engine.combat_land import SUPER_TRENCH, TRENCH, Battle, Front
from moderator.engine.conquest import seize, take_territory
from moderator.engine.context import TurnContext
from moderator.engine.orders.defend import DEFENDING
from moderator.engine.orders.move import (
    MOVABLE,
    NEVER_ATTACK,
    STAYS_AT_HOME,
    Leg,
    capturers,
    enemy_units,
    from_carrier,
    hostile,
    landing_places,
    returns,
    strait_between,
)
from moderator.engine.orders.trenches import facing_of
from moderator.engine.placement import DISMANTLED, map_facility
from moderator.engine.state import SEA_UNITS, Unit, ids_of, kinds, stand_in
from moderator.orders.model import ArtillerySupport, Move, NavalInvasion, UnitCount

PHASE = "4.4"
AIR = combat_land.AIR


# ---- the checker's view ---------------------------------------------------------------------


def assume_captures(ctx: TurnContext) -> None:
    """The order checker (one nation's orders): every attack with infantry or tanks takes
    its target, with all that a capture does (the defenders destroyed; conquest.seize)."""
    for dest, legs in sorted(attacks(ctx).items()):
        start_war(ctx, legs[0].nation, dest, enemy_units(ctx, legs[0].nation, dest))  # whatever the dice
        if not any(capturers(ctx.world, g) for g in legs):
            continue
        nation = legs[0].nation
        ctx.state.remove_units(enemy_units(ctx, nation, dest))
        seize(ctx, dest, nation)
        ctx.assumed[f"control:{dest}"] = f"your attack on {dest}"
    ctx.legs.clear()


def attacks(ctx: TurnContext) -> dict[str, list[Leg]]:
    out: dict[str, list[Leg]] = defaultdict(list)
    for leg in ctx.legs:
        if leg.attack:
            out[leg.dest].append(leg)
    return out


# ---- the seam for the naval part -------------------------------------------------------------


NO_LANDING_ATTACK = frozenset({"tank"})  # 4.6.1: "Tanks may not participate in naval invasions at all"


def land_from_sea(ctx: TurnContext, nation: str, index: int, order: NavalInvasion, units: Sequence[Unit]) -> None:
    """Units carried by transports in sea zone `order.origin` go ashore in `order.dest`
    (4.4: "Units that were picked up by transports ... may move into a territory adjacent
    to the sea zone they are in"; 4.6.1). Call it from the landing's home (commit() in
    the checker, execute() in the engine) with the units already claimed; the landing is
    resolved with the other legs of the step by land_moves (the step's own work), and
    assume_captures takes it for the checker. `index` and `order` are what refusals and
    reports name."""
    ctx.legs.append(Leg(nation, index, order, list(units), hostile(ctx, nation, order.dest), beach=True))


def support(ctx: TurnContext, nation: str, index: int, order: ArtillerySupport, units: Sequence[Unit]) -> None:
    """SUPPORT's artillery, claimed by its home (orders/artillery_support.py), waits for the
    battles of the step like a move (the order's text kept for what is reported)."""
    as_move = Move(units=(UnitCount("artillery", len(units)),), origin=order.origin, dest=order.dest,
                   span=order.span)
    ctx.legs.append(Leg(nation, index, as_move, list(units), hostile(ctx, nation, order.dest), support=True))


# ---- the engine -----------------------------------------------------------------------------


def land_moves(ctx: TurnContext) -> None:
    legs = [g for g in ctx.legs if g.units]
    ctx.legs.clear()
    # Units of this step's legs, and of an earlier land step's this turn (4.4 before the
    # landings and breakthroughs of 4.6.1): where they stand now they defend.
    in_legs = ctx.memo.setdefault(("land-legs",), set())
    in_legs |= {u.id for g in legs for u in g.units}
    recon_conditions.call_off(ctx, legs)  # "ONLY IF AT MOST n DEFENDERS": its units stay and defend
    for leg in legs:
        if leg.attack:
            hold_back(ctx, leg, NEVER_ATTACK, "cannot-attack")
            if leg.beach:
                hold_back(ctx, leg, NO_LANDING_ATTACK, "beach-landing")
            if strait_between(ctx.world, leg.origin, leg.dest):
                hold_back(ctx, leg, MOVABLE - combat_land.STRAIT_ATTACKERS, "straits")
    helpers = [g for g in legs if g.support and not g.attack]  # protecting a friend next door
    raids = [g for g in legs if g.attack and g.units]
    busy = {uid for uid in ctx.moved if uid not in in_legs}
    busy -= artillery_ids(ctx, busy)  # another order's units
    flying = {u.id for g in raids for u in g.units if u.kind not in STAYS_AT_HOME}
    moves = [g for g in legs if not g.attack and not g.support]
    # Aircraft moving to friendly land over other places fly with the attacks' aircraft
    # (4.5: they too "move into a territory" on their way); the rest deploy first.
    aloft = [g for g in moves if attack_flights.flown(ctx, g, flying | busy) is not None]
    flying |= {u.id for g in aloft for u in g.units}
    flown = {id(g) for g in aloft}  # (one look per move: a late turn's moves times its flights was quadratic)
    for leg in moves:  # guideline 1: the defenders' own moves first
        if id(leg) not in flown:
            moved(ctx, leg)
    attack_flights.on_the_way(ctx, [*raids, *aloft], flying | busy,
                              lambda leg, u: air_rounds(ctx, leg, u))  # 4.5 on the way
    for leg in aloft:  # they land before the battles, as the defenders' moves
        moved(ctx, leg)
    by_dest: dict[str, list[Leg]] = defaultdict(list)
    for g in raids:
        by_dest[g.dest].append(g)
    shelled = attacked_by_land(raids)
    plans = {}
    for dest in sorted(by_dest):  # on the position before any battle: who faces which trench, fuel
        sides = groups(ctx, by_dest[dest])
        plans[dest] = (sides, {id(grp): front_of(ctx, dest, grp, shelled) for grp in sides})
    away = {u.id for g in raids for u in g.units if u.kind not in STAYS_AT_HOME} | busy
    for dest in battle_order(ctx, plans, away):
        battle_for(ctx, dest, *plans[dest], away, supporters(dest, helpers, shelled), attacked=set(plans))
    fall_back(ctx, raids)


def battle_order(ctx: TurnContext, plans: Mapping[str, object], away: Collection[str]) -> list[str]:
    """The order the step's battles are fought in. 4.6: "If defenders disengage and enter to
    neighbouring friendly provinces that is still under attack, then they join defeders in
    the fight." The rules' battles are simultaneous; the engine fights one after another,
    so a battle whose defenders may disengage (their nation has a WITHDRAW order for it)
    into another territory attacked this step is fought before that one, and whatever the
    names they join its defence. Otherwise by name (nothing else passes between battles
    in that order). Where such battles could fall back into each other, a cycle, which of
    them is fought first is drawn by lot (a logged pick, only then): no name decides."""
    attacked = set(plans)
    into: dict[str, set[str]] = {dest: set() for dest in plans}
    for dest in sorted(plans):
        here = [u for u in ctx.units_at(dest) if u.id not in away]  # (only who and where they go count here)
        for nation in sorted({u.nation for u in here}):
            conds = combat_orders.own_conditions(ctx, nation, dest)
            if not conds:
                continue
            chosen = {nation: next((c.to for c in conds if c.to), None)}
            goes = retreats(ctx, dest, [u for u in here if u.nation == nation], attacked, chosen)
            into[dest] |= {n for n in goes.values() if n in attacked and n != dest}
    if not any(into.values()):
        return sorted(plans)  # (mostly: nobody may fall back into another battle)
    # Each time the first by name of the battles no battle left may fall back into, counted
    # (blockers) rather than asked of every pair again for every battle (issue 14: a late
    # turn's thirty battles asked some 15,000 times).
    blockers = {d: sum(1 for o in plans if d in into[o]) for d in plans}  # (into[o] never holds o)
    order: list[str] = []
    left = set(plans)
    while left:
        ready = [d for d in left if not blockers[d]]
        first = min(ready) if ready else ctx.dice.pick(sorted(left), "battles whose defenders may fall back into "
                                                       "each other: which is fought first: " + " or ".join(sorted(left)))
        order.append(first)
        left.discard(first)
        for d in into[first]:
            blockers[d] -= 1
    return order


def moved(ctx: TurnContext, leg: Leg) -> None:
    """A move into friendly land carried out (guideline 1), and told."""
    relocate(leg.units, leg.dest)
    ctx.tell(leg.nation, "moved", PHASE, order=leg.index, origin=leg.origin, dest=leg.dest, units=kinds(leg.units))


def artillery_ids(ctx: TurnContext, among: Collection[str]) -> set[str]:
    """The ids of `among` that are units staying at home (artillery), the units found by
    id (units_with_ids): not a look at the kind of every unit on the map (issue 14)."""
    return {u.id for u in ctx.state.units_with_ids(among) if u.kind in STAYS_AT_HOME}


def attacked_by_land(raids: Iterable[Leg]) -> dict[str, set[str]]:
    """territory -> the places land units attack it from (air attacks are not counted, Artillery)."""
    out: dict[str, set[str]] = defaultdict(set)
    for g in raids:
        if any(u.kind not in AIR for u in g.units):
            out[g.dest].add(g.origin)
    return out


def relocate(units: Sequence[Unit], dest: str) -> None:
    for u in units:
        u.location = dest


def hold_back(ctx: TurnContext, leg: Leg, kinds_out: Iterable[str], reason: str,
              ids: set[str] | None = None) -> None:
    """Units of `kinds_out` (or with those ids) stay where they are, telling the nation."""
    out = frozenset(kinds_out)
    dropped = [u for u in leg.units if u.kind in out or (ids is not None and u.id in ids)]
    if dropped:  # (mostly none: the leg's list kept, not its units compared with none)
        gone = set(map(id, dropped))
        leg.units = [u for u in leg.units if id(u) not in gone]
        ctx.tell(leg.nation, "units-held-back", PHASE, order=leg.index, reason=reason, units=kinds(dropped))


def groups(ctx: TurnContext, legs: Sequence[Leg]) -> list[list[Leg]]:
    """The attackers by alliance (Cooperation: allies attack together), by first nation id."""
    return by_alliance(ctx.state, legs, lambda g: g.nation, lambda g: g.index)


def supporters(dest: str, helpers: Sequence[Leg], shelled: dict[str, set[str]]) -> list[tuple[Unit, int | None]]:
    """Artillery supporting `dest` from next door, with the rounds it may fire: 1 when its
    own territory is attacked by land from elsewhere (Artillery: "after artillery unit ends
    supporting (attacking) fire for first round of combat, artillery must defend"). That
    first round comes before its own defence, whichever battle is written down first, as
    for artillery attacking from home."""
    return [(u, 1 if shelled.get(g.origin, set()) - {dest} else None) for g in helpers if g.dest == dest for u in g.units]


def battle_for(ctx: TurnContext, dest: str, sides: list[list[Leg]], fronts: dict[int, Front],
               away: set[str], helping: Sequence[tuple[Unit, int | None]] = (),
               attacked: Collection[str] = ()) -> None:
    """Every attack on `dest`, as one battle (after the attackers' clash, if any)."""
    for nation in sorted({g.nation for grp in sides for g in grp}):
        start_war(ctx, nation, dest, enemy_units(ctx, nation, dest))
    if len(sides) > 2:  # three or more not allied: which two clash first is drawn by lot, never by nation id
        sides = by_lot(ctx.dice, sides, lambda grp: " + ".join(sorted({g.nation for g in grp})),
                       f"attackers of {dest} not allied to each other clash in turn")
    winner = sides[0]
    for other in sides[1:]:
        winner = clash(ctx, dest, winner, other, fronts)
    legs = [g for g in winner if g.units]
    if not legs:
        return
    lead = legs[0].nation
    defenders = [u for u in enemy_units(ctx, lead, dest) if u.id not in away]
    front = fronts[id(winner)]
    facilities, boats = structures(ctx, lead, dest)
    defenders += facilities
    if boats:
        front = dataclasses.replace(front, boats=boats)
    across = any(strait_between(ctx.world, g.origin, dest) or g.beach for g in legs)  # a coastal defender
    if not defenders and not across:
        advance(ctx, dest, legs)
        return
    units = [u for g in legs for u in g.units]
    if not defenders and not any(u.kind in combat_land.CAPTURERS for u in units):
        for g in legs:
            if not g.support:
                ctx.refuse(g.nation, PHASE, g.index, g.order, "cannot-capture", place=dest)
        return
    attackers = [u for u in units if u.id in front.rounds or u.kind not in AIR]
    nations = sorted({g.nation for g in legs})
    helpers = [(u, n) for u, n in helping if not ctx.allies(lead, u.nation)] if defenders else []
    if helpers:
        defenders += [u for u, _ in helpers]
        front = dataclasses.replace(front, support=frozenset(u.id for u, _ in helpers), rounds={
            **front.rounds, **{u.id: n for u, n in helpers if n is not None}})
    steer = combat_orders.for_battle(ctx, nations, [*nations, *(u.nation for u in defenders)], dest)
    if steer.defending:
        chosen = {n: next((c.to for c in conds if c.to), None) for n, conds in steer.defending.items()}
        front = dataclasses.replace(front, retreat=retreats(ctx, dest, [u for u in defenders if u.nation in
                                                                         steer.defending], attacked, chosen))
    battle = combat_land.fight(ctx, dest, sorted({g.origin for g in legs}), lead, attackers, defenders,
                               orders=steer, front=front)
    alive = combat_land.survivors(battle)
    captured = not combat_land.defenders_left(battle) and any(u.kind in combat_land.CAPTURERS for u in alive)
    battle.attacker = taker(ctx, battle, legs, captured) or lead
    combat_land.battle_event(ctx, battle, captured)
    air_choices(ctx, battle, attackers, defenders)
    standing = {f.unit.id for f in battle.defend.fighters if f.unit is not None}
    for u in facilities:
        if u.id not in standing and u.id.startswith(MAP_FACILITY):
            dismantle(ctx, dest, u)
    home = [f.unit for f in battle.departed if f.unit is not None]
    withdrew(ctx, battle)
    if captured:
        relocate([u for u in alive if u.kind not in STAYS_AT_HOME or u.id in front.beach], dest)
        take_territory(ctx, dest, battle.attacker, combat_land.PHASE)
    else:
        home += alive
    land(ctx, battle, legs, [u for u in home if u.kind in AIR], front)


DISENGAGING = frozenset({"infantry", "tank", *AIR})  # Artillery, Anti Air Guns, Rockets: cannot move when attacked


def retreats(ctx: TurnContext, dest: str, defenders: Sequence[Unit], attacked: Collection[str],
             chosen: Mapping[str, str | None] | None = None) -> dict[str, str]:
    """Where each defender that may disengage (4.6) would go: "they must move to
    neighbouring friendly provinces, but if there are no free provinces, then they must
    fight to the end". The neighbour its nation named (WITHDRAW FROM a TO b) if it is
    friendly land the unit may enter when the battle begins, else the first friendly land
    next to `dest` by name that it may enter, one not attacked this step first (into one
    under attack "they join defenders in the fight"); artillery, AA guns and rockets never
    leave ("cannot move, as other defenders do, from the territory if they are attacked")."""
    out: dict[str, str] = {}
    near = sorted(ctx.world.neighbours(dest), key=lambda n: (n in attacked, n))
    for u in defenders:
        if u.kind not in DISENGAGING:
            continue
        named = (chosen or {}).get(u.nation)
        for n in ([named] if named in near else []) + near:
            if (ctx.place(n).is_land and ctx.friendly(u.nation, n)
                    and terrain.may_enter(ctx.world, ctx.scenario, u.nation, u.kind, n)
                    and not (u.kind in AIR and terrain.no_landing(ctx.world, ctx.scenario, n))):
                out[u.id] = n
                break
    return out


def withdrew(ctx: TurnContext, battle: Battle) -> None:
    """The defenders that disengaged go to their neighbour (combat_land.disengage)."""
    moved: dict[tuple[str, str], list[Unit]] = defaultdict(list)
    for f in battle.disengaged:
        if f.unit is not None:
            moved[f.unit.nation, battle.retreat[f.unit.id]].append(f.unit)
    for (nation, place), gone in sorted(moved.items()):
        relocate(gone, place)
        ctx.tell(nation, "defenders-withdrew", combat_land.PHASE, battle=battle.territory, dest=place,
                 units=kinds(gone), condition=battle.disengaged_by[nation])


MAP_FACILITY = "map-"  # id prefix of the stand-in for a complex or port printed on the map
BOATS_PER_SHIPS = 3  # Ports: "For each three naval units ... 1 virtual defender (rounded up)"


def structures(ctx: TurnContext, attacker: str, dest: str) -> tuple[list[Unit], int]:
    """The complexes and ports that defend `dest` (Ports, Industrial complexes: "By default
    both Industrial complexes and ports would not participate in any defense of a
    territory. Any nation willing to use it for a defense must give an order": DEFEND WITH,
    orders/defend.py), as units (a stand-in for one printed on the map), and the port's
    virtual defenders: one for each three of the holder's ships in the sea zones beside it,
    rounded up."""
    holder = ctx.controller(dest)
    if holder is None or ctx.allies(attacker, holder):
        return [], 0
    out: list[Unit] = []
    boats = 0
    for kind in ("industry", "port"):
        if not ctx.used((DEFENDING, holder, kind, dest)):
            continue
        built = sorted((u for u in ctx.units_at(dest) if u.kind == kind), key=lambda u: u.id)
        out += built or ([stand_in(f"{MAP_FACILITY}{kind}-{dest}", holder, kind, dest)] if map_facility(ctx, dest, kind)
                         else [])
        if kind == "port":
            ships = sum(1 for n in sorted(ctx.world.neighbours(dest)) if ctx.is_sea(n)
                        for u in ctx.units_at(n, holder) if u.kind in SEA_UNITS)
            boats = -(-ships // BOATS_PER_SHIPS)
    return out, boats


def dismantle(ctx: TurnContext, place: str, stand_in: Unit) -> None:
    """A complex or port of the map destroyed in battle is gone, as if dismantled (the
    record placement.map_facility reads), kept with its holder's flags."""
    flags = ctx.state.nations[stand_in.nation].flags
    record = {p: list(k) for p, k in flags.get(DISMANTLED, {}).items()}
    record[place] = sorted({*record.get(place, []), stand_in.kind})
    flags[DISMANTLED] = dict(sorted(record.items()))


def front_of(ctx: TurnContext, dest: str, legs: list[Leg], shelled: dict[str, set[str]]) -> Front:
    """What the attackers' approach brings: straits, the defenders' trenches they cross,
    the rounds their fuel allows (aircraft) or their home's battle allows (artillery),
    the tactical strike points' +1 to infantry (4.1.1, scored in step 4.1.1's raids).
    Aircraft that may not fight (no fuel, a super trench with no aircraft behind it to
    fight) are held back here."""
    across: set[str] = set()
    trenches: dict[str, str] = {}
    origins: dict[str, str] = {}
    rounds: dict[str, int] = {}
    beach: set[str] = set()
    nation = legs[0].nation
    enemies = enemy_units(ctx, nation, dest)
    defending = {u.nation for u in enemies} | {ctx.controller(dest) or ""}
    dug = [u for u in ctx.units_at(dest) if u.kind in (TRENCH, SUPER_TRENCH) and u.nation in defending]
    front_line = [u for u in dug if front_facing(ctx, u)]
    guarded = any(u.kind == "fighter" for u in enemies)  # aircraft to fight (4.5)
    air_only: set[str] = set()
    # the trench aircraft meet over the front line, whichever leg they fly with (asked once)
    overhead = SUPER_TRENCH if any(u.kind == SUPER_TRENCH for u in front_line) else TRENCH if front_line else None
    for leg in legs:
        crossed = [u.kind for u in dug if facing_of(ctx, u) == leg.origin]
        trench = SUPER_TRENCH if SUPER_TRENCH in crossed else TRENCH if crossed else None
        # 4.6.1: no penalties "via the sea-borne coastal route"
        air_trench = None if overhead is None or leg.beach or by_sea(ctx, leg) else overhead
        if leg.beach:
            beach |= {u.id for u in leg.units if u.kind not in AIR}
        if air_trench == SUPER_TRENCH and guarded:  # Super Trench: "only battle the aircraft there"
            air_only |= {u.id for u in leg.units if u.kind in AIR}
        elif air_trench == SUPER_TRENCH:
            hold_back(ctx, leg, AIR, "super-trench")
        grounded = set()
        strait = strait_between(ctx.world, leg.origin, dest)  # the leg's, asked once (the map's passages)
        called_home = bool(shelled.get(leg.origin, set()) - {dest})  # its home attacked from elsewhere
        for u in leg.units:
            origins[u.id] = leg.origin
            if strait:
                across.add(u.id)
            if u.kind in AIR:
                n = air_rounds(ctx, leg, u)
                if n < 1:
                    grounded.add(u.id)
                rounds[u.id] = n
                if air_trench:
                    trenches[u.id] = air_trench
            else:
                if trench:
                    trenches[u.id] = trench
                if called_home and u.kind in STAYS_AT_HOME:
                    rounds[u.id] = 1  # Artillery: one round, then it defends its home
        if grounded:
            hold_back(ctx, leg, (), "no-fuel", grounded)
    return Front(frozenset(across), trenches, origins, {k: v for k, v in rounds.items() if v >= 1}, bool(dug),
                 frozenset(beach), strike=phase4_air.strike_bonus(ctx, dest), air_only=frozenset(air_only),
                 radar=radar_against(ctx, dest, nation))


def by_sea(ctx: TurnContext, leg: Leg) -> bool:
    """4.6.1: "Aircraft receive no penalties if they enter into the territory via the
    sea-borne coastal route. If the aircraft enter into the sea zone by way of an
    adjoining territory, then they will be subject to the penalties of any trenches they
    cross." The leg's aircraft come by sea when every place they flew from, up to the
    territory, is a sea zone (carrier fighters, or a flight on from one sea zone to the
    next); a flight that set out from land or crossed land on its way takes the trenches."""
    planes = [u for u in leg.units if u.kind in AIR]
    if not planes:
        return False
    way = attack_flights.way_flown(ctx, leg, planes[0])  # one order's planes fly one way
    return all(ctx.is_sea(p) for p in way[:-1])


def front_facing(ctx: TurnContext, trench: Unit) -> bool:
    """Trenches, note: "Trenches protect only units on the first line": a trench shelters
    from the air (and rockets) when it faces land held by an enemy of its owner."""
    faced = facing_of(ctx, trench)
    holder = ctx.controller(faced) if faced else None
    return holder is not None and ctx.at_war(trench.nation, holder)


def air_rounds(ctx: TurnContext, leg: Leg, unit: Unit) -> int:
    """Fighters: "1 fuel point for each round of combat"; the aircraft must keep enough to
    land in friendly territory (4.6 step 3). The rounds it may fight."""
    stats = ctx.stats(unit.nation, unit.kind)
    tank = stats.fuel if stats else 0
    out = fuel.cheapest(ctx.world, leg.origin, leg.dest, limit=tank)
    back = fuel.to_nearest(ctx.world, leg.dest, returns(ctx, unit.nation, leg.origin, carried(ctx, leg)), limit=tank)
    if out is None or back is None:
        return 0
    return max(0, fuel.rounds_paid(tank, out, back) - attack_flights.spent_on_the_way(ctx, unit))


def clash(ctx: TurnContext, dest: str, first: list[Leg], second: list[Leg], fronts: dict[int, Front]) -> list[Leg]:
    """Two attackers not allied to each other fight first (note after 4.6.1); the group
    with units left that can carry an attack goes on, with what it has left."""
    a = [u for g in first for u in g.units]
    b = [u for g in second for u in g.units]
    if not a or not b:
        return first if a else second
    merged = Front(fronts[id(first)].across | fronts[id(second)].across, {},
                   {**fronts[id(first)].origins, **fronts[id(second)].origins},
                   {**fronts[id(first)].rounds, **fronts[id(second)].rounds},
                   beach=fronts[id(first)].beach | fronts[id(second)].beach)
    battle = combat_land.clash(ctx, dest, a, b, merged)
    battle.origins = sorted({g.origin for g in (*first, *second)})
    battle.attackers = tuple(sorted({g.nation for g in (*first, *second)}))
    combat_land.battle_event(ctx, battle, False)
    left = {f.unit.id for side in (battle.attack, battle.defend) for f in side.real() if f.unit}
    won = first if combat_land.attack_goes_on(battle.attack) else second if combat_land.attack_goes_on(
        battle.defend) else []
    for grp in (first, second):
        home = [u for g in grp for u in g.units if u.id not in left or grp is not won]
        alive = ids_of(ctx.state.units)
        land(ctx, battle, grp, [u for u in home if u.kind in AIR and u.id in alive], merged)
        for g in grp:
            g.units = [u for u in g.units if u.id in left and grp is won]
    if won:  # fuel spent in the clash is gone
        spent = fronts[id(won)]
        fronts[id(won)] = dataclasses.replace(
            spent, rounds={k: v - battle.rounds for k, v in spent.rounds.items() if v - battle.rounds >= 1})
        for g in won:
            g.units = [u for u in g.units if u.kind not in AIR or u.id in fronts[id(won)].rounds]
    return won


def advance(ctx: TurnContext, dest: str, legs: list[Leg]) -> None:
    """Into empty enemy land: infantry/tanks capture; nothing else may go in (4.4, Artillery)."""
    movers = []
    for g in legs:
        if g.support:  # artillery support fires from home: with nobody to fire at, it does nothing
            continue
        hold_back(ctx, g, MOVABLE - combat_land.CAPTURERS, "cannot-enter-enemy-land")
        if not g.units:
            ctx.refuse(g.nation, PHASE, g.index, g.order, "cannot-capture", place=dest)
            continue
        relocate(g.units, dest)
        movers.append(g)
        ctx.tell(g.nation, "moved", PHASE, order=g.index, origin=g.origin, dest=dest, units=kinds(g.units))
    if movers:
        counts: dict[str, int] = defaultdict(int)
        for g in movers:
            counts[g.nation] += len(g.units)
        take_territory(ctx, dest, max(sorted(counts), key=lambda n: counts[n]), PHASE)


def air_choices(ctx: TurnContext, battle: Battle, attackers: Sequence[Unit], defenders: Sequence[Unit]) -> None:
    """4.5: what the orders of engine/orders/interception.py did in this battle: fighters
    that let the attacking aircraft go (told to their nation), attacking aircraft that broke
    off the air combat (told to everyone in the battle)."""
    if any(u.kind in AIR for u in attackers):
        for nation in sorted(battle.orders.let_pass):
            held = [u for u in defenders if u.nation == nation and u.kind == "fighter"]
            if held:
                ctx.tell(nation, "let-through", combat_land.PHASE, territory=battle.territory, units=kinds(held))
    seen = sorted({*battle.attackers, *battle.defending_nations})
    for nation, why in sorted(battle.air_retreated.items()):
        gone = [f.unit for f in battle.departed if f.unit is not None and f.nation == nation and f.kind in AIR
                and f.unit.id in battle.spent]
        ctx.emit("air-retreat", combat_land.PHASE, seen, nation=nation, territory=battle.territory, condition=why,
                 rounds=max((battle.spent[u.id] for u in gone), default=battle.air_rounds), units=kinds(gone))


def taker(ctx: TurnContext, battle: Battle, legs: Sequence[Leg], captured: bool = True) -> str | None:
    """The nation that takes the land an allied attack won: most infantry and tanks left,
    then the larger attack total at the start, then, still even, by lot (one logged pick,
    a reading: no nation id decides who takes the land; when nothing is captured the first
    by id only names the battle's attacker)."""
    left: dict[str, int] = defaultdict(int)
    for u in combat_land.survivors(battle):
        if u.kind in combat_land.CAPTURERS:
            left[u.nation] += 1
    if not left:
        return None
    if len(left) == 1:  # one nation with infantry or tanks left takes it: no totals to weigh (issue 14)
        return next(iter(left))
    strength: dict[str, int] = defaultdict(int)
    for g in legs:
        for u in g.units:
            stats = ctx.stats(u.nation, u.kind)
            strength[u.nation] += stats.attack if stats else 0
    best = max((left[n], strength[n]) for n in left)
    even = sorted(n for n in left if (left[n], strength[n]) == best)
    if len(even) > 1 and captured:
        return ctx.dice.pick(even, f"allies even at {battle.territory}, who takes it: {' or '.join(even)}")
    return even[0]


def land(ctx: TurnContext, battle: Battle, legs: Sequence[Leg], planes: Sequence[Unit], front: Front) -> None:
    """Aircraft leaving a battle: home if their fuel still reaches it and it is friendly,
    else the nearest friendly land in reach; with none, they are lost (Fighters). Each
    fought the battle's rounds up to what its fuel allowed (front.rounds)."""
    origin = {u.id: g for g in legs for u in g.units}
    for plane in planes:
        leg = origin.get(plane.id)
        if leg is None:
            continue
        stats = ctx.stats(plane.nation, plane.kind)
        tank = stats.fuel if stats else 0
        out = fuel.cheapest(ctx.world, leg.origin, leg.dest, limit=tank) or 0
        fought = battle.spent.get(plane.id, battle.rounds + battle.air_rounds)
        fought = min(fought, front.rounds.get(plane.id, 0)) + attack_flights.spent_on_the_way(ctx, plane)
        left = tank - out - fought * fuel.ROUND
        places = landing_places(ctx, plane.nation)
        if carried(ctx, leg):  # off a carrier: back aboard if it is still there with room
            if berth(ctx, plane, leg.origin) and fuel.cheapest(ctx.world, leg.dest, leg.origin,
                                                               limit=max(left, 0)) is not None:
                plane.location = leg.origin
                ctx.tell(plane.nation, "aircraft-landed", combat_land.PHASE, place=leg.origin, battle=leg.dest,
                         units={plane.kind: 1}, aboard=True)
                continue
        elif leg.origin in places and (fuel.cheapest(ctx.world, leg.dest, leg.origin, limit=max(left, 0)) is not None):
            plane.location = leg.origin
            continue
        found = fuel.nearest(ctx.world, leg.dest, places, limit=max(left, 0))
        if found is None:
            ctx.state.remove_units([plane])
            ctx.tell(plane.nation, "aircraft-lost", combat_land.PHASE, battle=leg.dest, units={plane.kind: 1})
            continue
        plane.location = found[1]
        ctx.tell(plane.nation, "aircraft-landed", combat_land.PHASE, place=found[1], battle=leg.dest,
                 units={plane.kind: 1}, aboard=False)


def carried(ctx: TurnContext, leg: Leg) -> bool:
    """An ATTACK by fighters off their carriers (not a landing from the sea)."""
    return not leg.beach and isinstance(leg.order, Move) and from_carrier(ctx, leg.order)


def berth(ctx: TurnContext, plane: Unit, zone: str) -> bool:
    """Aircraft Carriers: a fighter back from a land battle lands on its nation's carriers
    in the zone it took off from, damaged ones too ("fighters may still land on it"), if
    they have room for it beside the fighters still aboard (a sunk carrier has none)."""
    here = ctx.units_at(zone, plane.nation)
    room = sum((stats.capacity if (stats := ctx.stats(plane.nation, "carrier", u)) else 0)
               for u in here if u.kind == "carrier")
    aboard = sum(1 for u in here if u.kind == "fighter" and u.id != plane.id)
    return plane.kind == "fighter" and aboard < room


def fall_back(ctx: TurnContext, raids: Sequence[Leg]) -> None:
    """Survivors of a failed attack whose home an enemy took meanwhile: to the first
    friendly land next to it, or lost (a reading: they cannot stay among the enemy)."""
    alive = ctx.state.units_by_id()
    for g in raids:
        for u in g.units:
            unit = alive.get(u.id)
            if unit is None or unit.kind in AIR or ctx.friendly(unit.nation, unit.location):
                continue
            if not ctx.enemy(unit.nation, unit.location):
                continue
            near = [n for n in sorted(ctx.world.neighbours(unit.location))
                    if ctx.place(n).is_land and ctx.friendly(unit.nation, n)]
            if near:
                ctx.tell(unit.nation, "units-fell-back", PHASE, origin=unit.location, dest=near[0],
                         units={unit.kind: 1})
                unit.location = near[0]
            else:
                ctx.tell(unit.nation, "units-fell-back", PHASE, origin=unit.location, dest=None,
                         units={unit.kind: 1})
                ctx.state.remove_units([unit])


def start_war(ctx: TurnContext, nation: str, dest: str, defenders: Sequence[Unit]) -> None:
    """Phase 1.1: attacking a nation not at war yet starts the war, undeclared (US penalty x2)."""
    holder = ctx.controller(dest)
    others = sorted({u.nation for u in defenders} | ({holder} if holder else set()))
    for target in others:
        if target == nation or ctx.at_war(nation, target) or ctx.allies(nation, target):
            continue
        wars.begin(ctx, nation, target, PHASE, surprise=True)  # the attacked neutral joins the other camp
        if not ctx.checking:
            ctx.flag(PHASE, "undeclared-attack-penalty", nation=nation, target=target, place=dest)
