"""MOVE / ATTACK units FROM a TO b (Phase 4.4: Land Movement, and the land combat of 4.6).

A move takes land units to an adjacent land territory, and aircraft as far as their fuel
goes ("Fighters": 1 fuel into land, 2 into or out of a sea zone; fuel.py). Into friendly
land it is just a move; into empty enemy land infantry or tanks capture it (4.4: "Only
infantry or tanks can capture territories"); into enemy land with units it is an attack
(4.6, combat_land). Mountains keep units out (terrain.py, the map's features).

Phase 1.1: "If the war is not declared, then nation (and the block she is in) suffer double
penalty for US entry": an attack on a nation not yet at war with the mover is allowed,
starts the war without a declaration, and is flagged for the moderator (the US penalty).

Kept from the rules, held back at resolution (the rest of the order goes on): AA guns and
rockets never attack (Anti Air Guns, Rockets); artillery fires from home and does not
advance ("Artillery units cannot accompany units moving in enemy territory"); only
infantry and artillery attack across a strait (Straits).
This home judges each order on the position as the land moves begin and claims its units
(a unit moves once a turn), recording a Leg; every nation's legs are then resolved
together by the step's own work, phase4_land.land_moves (Phase 4 guidelines 1-2: the
defenders' own moves first, then one battle per attacked territory), so nothing depends
on nation ids or the order of lines. An ATTACK by aircraft from land on a sea zone is flown
in the naval step (engine/phase4_air_sea.py), and so is a MOVE of aircraft from land to a
sea zone (cover for the ships there; fighters of that MOVE land aboard their nation's
carriers there when these have room). A MOVE of fighters from a sea zone, off their
carriers, to friendly land is flown off here (Aircraft Carriers: "A damaged carrier cannot
launch fighters"; the fuel of any flight): they land there before the land battles, as
the defenders' own moves come first (Phase 4 guideline 1). An ATTACK by fighters off
their carriers in a sea zone on land, or a MOVE of them into enemy land (an attack, as any
MOVE into enemy land is), is a Leg like any other (carrier_attack): the fighters take off
from the zone, fight in the land battle with their fuel counted from the zone (2 out of
it, "Fighters"), and fly back to their nation's carriers there, or to friendly land
(phase4_land.land). Fighters off their carriers flown at another sea zone (an ATTACK, or
a MOVE into a zone where enemy aircraft are) strike it in the naval step as aircraft from
land do (carrier_strike; engine/phase4_air_sea.py), and come back aboard; a MOVE of them
is judged on what the nation knows, and finding no enemy aircraft there they land aboard
its carriers in that zone (carrier_flight). Bombers never take off at sea (only fighters
launch, from carriers): in a sea zone they are aboard transports, and a MOVE or ATTACK of
them out of it is refused (bombers-aboard; INVADE sets them ashore). No flight is referred.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import filterfalse

from moderator.engine import bolsheviks, combat_land, fuel, garrison_apart, terrain
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders import declare_war
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.state import AIR_UNITS, LAND_UNITS, Unit, kinds
from moderator.orders.model import Attack, Move, NavalInvasion
from moderator.world.model import World

PHASE = "4.4"
MOVABLE = frozenset(LAND_UNITS) | frozenset(AIR_UNITS)
NEVER_ATTACK = frozenset({"aa", "rocket"})
STAYS_AT_HOME = frozenset({"artillery"})  # fires in support, does not advance
LAUNCHED = frozenset({"fighter"})  # Aircraft Carriers: the one kind that takes off from a ship
SEA_COMBAT_FUEL = 5  # Fighters: "a minimum of 5 fuel points before they can enter into a sea zone for combat"


@dataclass
class Leg:
    """One Move order (or a landing from the sea) being carried out, with the units it took."""

    nation: str
    index: int
    order: Move | NavalInvasion
    units: list[Unit]
    attack: bool = False  # hostile when the land moves began (an attack, not a deployment)
    beach: bool = False  # landing from transports in the sea zone `origin` (4.6.1; phase4_land.land_from_sea)
    support: bool = False  # SUPPORT: artillery protecting the adjacent `dest` from home (phase4_land.support)

    @property
    def origin(self) -> str:
        return self.order.origin

    @property
    def dest(self) -> str:
        return self.order.dest


def strait_between(world: World, a: str, b: str) -> bool:
    """Straits: does the step a -> b cross one of the rules' straits (incl. the Suez Canal)?"""
    return world.is_strait(a, b)


def hostile(pos: Position, nation: str, dest: str) -> bool:
    """Does moving into `dest` attack someone (an enemy, or a nation not yet at war)?"""
    holder = pos.controller(dest)
    if holder is not None and not pos.allies(nation, holder):
        return True
    return bool(enemy_units(pos, nation, dest))


def enemy_units(pos: Position, nation: str, place: str) -> list[Unit]:
    """Units at `place` that would fight `nation`: not its own or allied, not on the rails."""
    here = pos.units_at(place)
    if not here:
        return []
    friends = pos.state.allies_of(nation)  # allies() asked once, the nation among them
    return sorted((u for u in here if u.kind in MOVABLE and u.id not in pos.in_transit
                   and u.nation not in friends), key=lambda u: u.id)


def landing_places(pos: Position, nation: str) -> list[str]:
    """Friendly land where aircraft may land (not the mountains: terrain.no_landing, by feature)."""
    lands = pos.friendly_lands(nation)
    barred = terrain.no_landing_features(pos.scenario)
    if not barred:
        return lands
    return list(filterfalse(terrain.with_features(pos.world, barred).__contains__, lands))


def air_problem(pos: Position, nation: str, order: Move, combat: bool) -> Problem | None:
    """Fighters and Bombers: fuel to get there, a round of combat, and back to a friend
    (for fighters off a carrier: friendly land or back to the carrier's zone)."""
    for kind in sorted({u.kind for u in order.units if u.kind in AIR_UNITS}):
        stats = pos.stats(nation, kind)
        tank = stats.fuel if stats else 0
        out = fuel.cheapest(pos.world, order.origin, order.dest, limit=tank)
        if out is None:
            return problem("out-of-range", order.dest, kind=kind, dest=order.dest, origin=order.origin, fuel=tank)
        if not combat:
            if carrier_flight(pos, order):
                continue  # where they come down is the engine's question (carrier_flight)
            if terrain.no_landing(pos.world, pos.scenario, order.dest) or pos.is_sea(order.dest):
                return problem("cannot-land", order.dest, kind=kind, place=order.dest)
            continue
        if pos.is_sea(order.dest) and tank < SEA_COMBAT_FUEL:
            return problem("sea-combat-fuel", order.dest, kind=kind, fuel=tank)
        back = fuel.to_nearest(pos.world, order.dest, returns(pos, nation, order.origin, pos.is_sea(order.origin)),
                               limit=tank)
        if back is None or out + fuel.ROUND + back > tank:
            return problem("no-fuel-home", order.dest, kind=kind, dest=order.dest, fuel=tank)
    return None


def returns(pos: Position, nation: str, origin: str, carried: bool) -> list[str]:
    """Where aircraft flown from `origin` may come down: friendly land, and for fighters
    off a carrier (`carried`) their carrier's zone (Aircraft Carriers; whether it still has
    room when they come back is phase4_land.land's question)."""
    return landing_places(pos, nation) + ([origin] if carried else [])


def standing_problem(pos: Position, nation: str, order: Move) -> Problem | None:
    """What no battle of the turn can change: the order's shape, the map, the terrain and
    the units it names. Checked first, so that when several reasons apply the checker and
    the engine give the same one."""
    kinds = {u.kind for u in order.units}
    if order.origin == order.dest:
        return problem("move-same", order.dest, place=order.dest)
    ships = sorted(kinds - MOVABLE)
    if ships:
        return problem("move-ships", kinds=ships)
    ground = kinds - set(AIR_UNITS)
    if ground and at_sea(pos, order):
        return problem("move-sea", order.dest)
    if pos.is_sea(order.origin) and kinds - LAUNCHED:
        # Bombers: "Bombers may not be stationed on aircraft carriers", and only carriers
        # launch aircraft (Aircraft Carriers): bombers in a sea zone are cargo aboard
        # transports (Transports: "all other land and air units require two troop
        # points"), which go ashore as any troops do (4.4: units picked up by transports
        # "may move into a territory adjacent to the sea zone"; INVADE/LAND)
        return problem("bombers-aboard", order.origin, zone=order.origin, kinds=sorted(kinds - LAUNCHED))
    if ground and not pos.adjacent(order.origin, order.dest):
        # 4.2.1: "Troop transporting ... is the only mean for transports to load, move and
        # unload troops": land with no land path between says so (London -> Paris)
        code = "not-adjacent" if pos.world.joined_by_land(order.origin, order.dest) else "not-adjacent-water"
        return problem(code, order.dest, origin=order.origin, dest=order.dest)
    for kind in sorted(kinds):
        if not terrain.may_enter(pos.world, pos.scenario, nation, kind, order.dest):
            return problem("terrain-barred", order.dest, kind=kind, place=order.dest)
    why = bolsheviks.outside_russia(pos, nation, order.dest)  # Phase 9: Russian soil only
    if why is None:
        why = garrison_apart.apart_problem(pos, nation, order.dest)  # French #1: allied France and Spain
    if why is not None:
        return why
    return missing_units(pos, nation, order.origin, order.units)


def attacks(pos: Position, nation: str, order: Move) -> bool:
    """Does the order attack (a MOVE into enemy land is one)? Never a MOVE of fighters off
    carriers to another zone, whose verdict may not hang on the enemy there (carrier_flight)."""
    return not blind_move(pos, order) and hostile(pos, nation, order.dest)


def fighting_problem(pos: Position, nation: str, order: Move, attack: bool) -> Problem | None:
    """What the turn's battles can change: whether the destination is enemy land
    (`attack`: attacks()), hence the aircraft's fuel home and who may go in."""
    # fuel to fight at sea: a strike or cover from land, an ATTACK off carriers; never a
    # MOVE off carriers, whose verdict may not hang on the enemy aircraft (carrier_flight)
    combat = attack or flies_to_sea(pos, order) or (carrier_flight(pos, order) and isinstance(order, Attack))
    why = air_problem(pos, nation, order, combat)
    if why is not None:
        return why
    kinds = {u.kind for u in order.units}
    if attack and not kinds & combat_land.CAPTURERS and undefended(pos, nation, order.dest):
        # 4.4: "Only infantry or tanks can capture territories"; nothing else may go in.
        return problem("cannot-capture", order.dest, place=order.dest)
    return None


def undefended(pos: Position, nation: str, place: str) -> bool:
    """Is `place` empty of units that would fight `nation`, as far as this rule may ask?

    The engine asks as the moves begin. The checker may not: which enemy units stand in
    a place is what reconnaissance and espionage reveal (3.2, 3.3), and a receipt that
    refused an attack by artillery or aircraft "because nobody defends Liege" would tell
    the player for free. So the checker answers no, and remarks() warns instead
    ("if-undefended") in words that hold whatever stands there."""
    return not pos.checking and not enemy_units(pos, nation, place)


def capture_warning(pos: Position, nation: str, place: str, kinds: set[str]) -> list[Problem]:
    """The checker's word on an attack that cannot take its target (4.4), said the same
    whether or not anyone defends it (see undefended)."""
    if pos.checking and not kinds & combat_land.CAPTURERS:
        return [warning("if-undefended", place, place=place)]
    return []


def at_sea(pos: Position, order: Move) -> bool:
    return pos.is_sea(order.origin) or pos.is_sea(order.dest)


def flies_to_sea(pos: Position, order: Move) -> bool:
    """Aircraft alone flown from land into a sea zone: flown in the naval step
    (engine/phase4_air_sea.py), counted here."""
    return pos.is_sea(order.dest) and not pos.is_sea(order.origin) and all(u.kind in AIR_UNITS for u in order.units)


def strikes_at_sea(pos: Position, order: Move) -> bool:
    """An ATTACK by aircraft from land on the ships in a sea zone (4.2: "Aircraft being
    sent into a sea zone without any accompanying ships to attack an enemy fleet")."""
    return isinstance(order, Attack) and flies_to_sea(pos, order)


def covers_at_sea(pos: Position, order: Move) -> bool:
    """A MOVE of aircraft from land to a sea zone: cover for the ships there (4.2: "Aircraft
    may be sent into a sea zone during naval movement and assigned to a task force as
    cover"); like a strike, it needs the fuel to fight a round there and fly back."""
    return not isinstance(order, Attack) and flies_to_sea(pos, order)


def carrier_strike(pos: Position, nation: str, order: Move) -> bool:
    """Fighters off their carriers in a sea zone flown at another sea zone: an ATTACK on the
    ships there, or a MOVE into a zone where enemy aircraft were as the turn began (an
    attack, as a MOVE into enemy land is; judged on the turn's start, so that the strike's
    own air combat does not turn it into another order when step 4.4 counts it). Aircraft Carriers: "an aircraft carrier allows extended aerial
    operations for a limited number of fighters"; 4.2: "Aircraft being sent into a sea zone
    without any accompanying ships to attack an enemy fleet also move during naval
    movement"; Fighters: 2 fuel out, a round, 2 back to the carrier = the 5 "before they
    can enter into a sea zone for combat". Flown with the strikes from land
    (engine/phase4_air_sea.py), the enemy's fighters there intercepting first (4.5)."""
    return (pos.is_sea(order.origin) and pos.is_sea(order.dest) and all(u.kind == "fighter" for u in order.units)
            and (isinstance(order, Attack) or enemy_aircraft_at_start(pos, nation, order.dest)))


def carrier_flight(pos: Position, order: Move) -> bool:
    """Fighters alone off their carriers in a sea zone flown to another sea zone (Aircraft
    Carriers: "an aircraft carrier allows extended aerial operations").

    A MOVE of them is judged on what the nation knows: its fighters, its carriers, their
    fuel and the map (2 fuel into a sea zone, "Fighters"). Whether enemy aircraft wait in
    the zone is what reconnaissance reveals (3.2), so a receipt that refused the MOVE
    "because nothing is there to fight" would tell it for free. The engine decides at
    resolution (engine/phase4_air_sea.py take_flights): enemy aircraft there as the turn
    began make it a strike (carrier_strike) when the fighters have the fuel to fight
    there, else they turn back; with none, the fighters land aboard their nation's
    carriers in the zone with room, else fly back to their own carrier or to friendly
    land, else are lost (phase4_sea.fly_home)."""
    return pos.is_sea(order.origin) and pos.is_sea(order.dest) and all(u.kind == "fighter" for u in order.units)


def blind_move(pos: Position, order: Move) -> bool:
    """A MOVE (not an ATTACK) of fighters off carriers to another sea zone: judged without
    a look at the enemy there (carrier_flight)."""
    return carrier_flight(pos, order) and not isinstance(order, Attack)


def combat_ready(pos: Position, nation: str, order: Move) -> bool:
    """Have the fighters of a MOVE the fuel to fight a round in the zone and fly back
    (Fighters: "a minimum of 5 fuel points before they can enter into a sea zone for combat")?"""
    return air_problem(pos, nation, order, True) is None


def enemy_aircraft_at_start(pos: Position, nation: str, zone: str) -> bool:
    return any(count > 0 and place == zone and kind in AIR_UNITS and n != nation and not pos.allies(nation, n)
               for (n, place, kind), count in pos.start.items())


def flown_at_sea(pos: Position, nation: str, order: Move) -> bool:
    """Flown in the naval step (engine/phase4_air_sea.py): from land to a sea zone, or off
    carriers at another zone."""
    return flies_to_sea(pos, order) or carrier_flight(pos, order)


def flies_off(pos: Position, nation: str, order: Move) -> bool:
    """A MOVE of fighters off their carriers in a sea zone to friendly land (Aircraft Carriers)."""
    return (not isinstance(order, Attack) and pos.is_sea(order.origin) and not pos.is_sea(order.dest)
            and all(u.kind == "fighter" for u in order.units) and not hostile(pos, nation, order.dest))


def from_carrier(pos: Position, order: Move) -> bool:
    """Fighters off their carriers in a sea zone flown to land (Aircraft Carriers: "an
    aircraft carrier allows extended aerial operations"): to friendly land (flies_off) or
    at enemy land (carrier_attack)."""
    return pos.is_sea(order.origin) and not pos.is_sea(order.dest) and all(u.kind == "fighter" for u in order.units)


def carrier_attack(pos: Position, nation: str, order: Move) -> bool:
    """An ATTACK by fighters off their carriers on land, or a MOVE of them into enemy land
    (4.4-4.6: moving into enemy land is an attack): flown as a Leg."""
    return from_carrier(pos, order) and not flies_off(pos, nation, order)


TOOK_OFF = ("took-off-at-sea",)  # memo: the (nation, order) flights off carriers flown in the naval step


def take_off(pos: Position, nation: str, order: Move) -> None:
    """The naval step flew this order's fighters off their carriers (phase4_air_sea.take_flights)."""
    pos.memo.setdefault(TOOK_OFF, set()).add((nation, order))


def took_off(pos: Position, nation: str, order: Move) -> bool:
    """Were the fighters of this order off carriers flown in the naval step? Then whether
    their carriers may launch was judged as they took off; step 4.4, which counts the
    order, does not judge it again on carriers a strike may have sunk or damaged since."""
    return (nation, order) in pos.memo.get(TOOK_OFF, ())


def launch_problem(pos: Position, nation: str, order: Move) -> Problem | None:
    """Aircraft Carriers: "A damaged carrier cannot launch fighters": the fighters the
    nation's undamaged carriers in the zone hold."""
    carriers = [u for u in pos.units_at(order.origin, nation) if u.kind == "carrier" and not u.damage]
    room = sum((stats.capacity if (stats := pos.stats(nation, "carrier", u)) else 0) for u in carriers)
    asked = sum(u.count for u in order.units)
    if room < asked:
        return problem("carrier-cannot-launch", order.origin, place=order.origin, room=room)
    return None


class MoveRule(OrderRule[Move]):
    order = Move
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Move) -> Problem | None:
        # A war the nation may not declare is asked before the fight (Phase 1.1: an attack
        # without a declaration is one): the engine, which sees who defends the place,
        # would otherwise answer "cannot-capture" where the checker, which may not ask
        # (undefended), names the bar.
        why = standing_problem(pos, nation, order)
        if why is not None:
            return why
        attack = attacks(pos, nation, order)  # (asked once: both questions below turn on it)
        return ((declare_war.attack_barred(pos, nation, order.dest) if attack else None)
                or fighting_problem(pos, nation, order, attack)
                or (launch_problem(pos, nation, order)
                    if (from_carrier(pos, order) or carrier_flight(pos, order)) and not took_off(pos, nation, order)
                    else None))

    def remarks(self, pos: Position, nation: str, order: Move) -> list[Problem]:
        kinds = {u.kind for u in order.units}
        out: list[Problem] = []
        if at_sea(pos, order) and not carrier_attack(pos, nation, order):
            return []  # flown in the naval step, or off the carriers (flown_at_sea, flies_off)
        attack = hostile(pos, nation, order.dest)
        holder = pos.controller(order.dest)
        strangers = sorted({u.nation for u in enemy_units(pos, nation, order.dest)} | ({holder} if holder else set()))
        strangers = [n for n in strangers if not pos.at_war(nation, n) and not pos.allies(nation, n)]
        if attack and strangers:
            out.append(warning("undeclared-attack", order.dest, place=order.dest, nations=strangers))
        if attack and kinds & NEVER_ATTACK:
            out.append(warning("never-attack", kinds=sorted(kinds & NEVER_ATTACK)))
        if attack and strait_between(pos.world, order.origin, order.dest) and kinds - combat_land.STRAIT_ATTACKERS:
            out.append(warning("strait-units", order.dest, kinds=sorted(kinds - combat_land.STRAIT_ATTACKERS)))
        if not attack and isinstance(order, Attack):
            out.append(warning("attack-friendly", order.dest, place=order.dest))
        if attack:
            out += capture_warning(pos, nation, order.dest, kinds)
        return out

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Move) -> None:
        """The units are claimed and the move waits for the others (phase4_land)."""
        units = take_units(ctx, nation, order.origin, order.units, None if ctx.checking else index)
        if not at_sea(ctx, order) or carrier_attack(ctx, nation, order):
            ctx.legs.append(Leg(nation, index, order, units, hostile(ctx, nation, order.dest)))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Move) -> None:
        if flown_at_sea(ctx, nation, order):  # flown in step 4.3 (which claimed the aircraft); counted now
            for uc in order.units:
                ctx.claimed[(nation, order.origin, uc.kind)] += uc.count
            return
        if flies_off(ctx, nation, order):  # off the carriers: they land before the land battles
            planes = take_units(ctx, nation, order.origin, order.units, index)
            for u in planes:
                u.location = order.dest
            ctx.tell(nation, "moved", PHASE, order=index, origin=order.origin, dest=order.dest, units=kinds(planes))
            return
        self.commit(ctx, nation, index, order)


def capturers(world: World, leg: Leg) -> set[str]:
    """The kinds of a leg that can take the land it attacks (4.4: infantry or tanks; across
    a strait only infantry attacks of those, Straits)."""
    kinds = {u.kind for u in leg.order.units} & combat_land.CAPTURERS
    return kinds & combat_land.STRAIT_ATTACKERS if strait_between(world, leg.origin, leg.dest) else kinds


RULE = MoveRule()
