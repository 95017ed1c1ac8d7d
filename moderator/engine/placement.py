"""Where new units may be placed (Phase 7, rules 1-8; Cities; Industrial complexes; Ports).

The BUILD order checks these rules when it is paid for in Phase 3.1, so nobody pays for
a unit that could never be placed; Phase 7 asks again whether the place is still held
("if the territory where unit should be placed is lost during the turn, then money for
building is lost"). One module, read by both.

1) only in territories the nation owned at the start and had incorporated before this
   turn; 2)-3) infantry in cities, or outside them for 5 more each and at most the
   territory's value per turn (the exception: Russia, China and the minors without a
   designated capital pay nothing more); 4) other land units and aircraft where the
   nation has an industrial complex; 5) artillery in a city without one, for 10 more;
   6) ships in a sea zone next to a port the nation owns; 8) colonies: a city of a major
   colony builds at most its value per turn, of a minor colony half of it (rounded up).
   Rule 8 speaks of city territories: colony land without a city takes infantry by rule 3
   alone (at most its value, as anywhere outside a city), and what is built out of an
   industrial complex or a port there ("any builds made out of one of these facilities
   must be subtracted from the build allowance of a city from that colony") counts against
   the colony's most valuable city the nation holds (then by name): none held, nothing is
   built out of it. Ships count against the allowance of the colony port they are built
   out of: a port of the nation's outside any colony beside the zone first (no allowance),
   else a colony city's port, else the first colony port beside it by name
   (`built_out_of`, `colony_city`, `colony_room`). Gear placed by rule 7 (radar, sonar,
   AA guns on ships) is not built out of a colony: rule 7, unlike rules 3-6 and 8, refers
   to no rule 1, and gear is fitted onto a ship already afloat ("Cost +13, placed on any
   ship"), so it counts against no allowance (a reading, docs/rules-coverage.md).
   German option #5 adds two units to German East Africa's allowance and makes its
   artillery cheaper on the turn it is played (engine/colony_supplies.py).
Aircraft Carriers: "Fighters may be built DIRECTLY onto a carrier if it is in a sea zone
adjacent to a territory with an industrial complex controlled by the carrier's nation",
fighters of fuel 5 at least ("a fighter needs 5 fuel points before it can be used on an
Aircraft carrier"), as many as the nation's carriers there have room for (their capacity
less the fighters aboard and those already bought for the zone this turn; damaged ones
too: "fighters may still land on it").
Industrial complexes and ports themselves: "In a territory originally held by the
nation" and "Territory under the nation's current control"; a port needs a coast.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter, methodcaller

from moderator.engine import bolsheviks, colony_supplies
from moderator.engine.context import Position
from moderator.engine.problems import Problem, problem
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, Unit

NON_CITY_INFANTRY_EXTRA = 5  # Cities / Phase 7 rule 3
CITY_ARTILLERY_EXTRA = 10  # Cities / Phase 7 rule 5
FACILITIES = ("industry", "port")  # Industrial complexes, Ports: built with BUILD too
# Rule 7's gear (radar on land or ships, sonar; and Improved AA guns on ships, kind "aa" at
# sea): not counted against rule 8's colony allowance (reading "Gear and the colonies' allowance")
RULE7_GEAR = ("radar", "sonar")
DISMANTLED = "dismantled"  # NationState.flags of a plunderer: place -> the map's facilities it dismantled (Phase 5)


@dataclass(frozen=True)
class Placement:
    """A legal place for a build: what each unit costs on top of its price, and how many
    units the place can still take this turn (None: no limit)."""

    extra: int = 0
    room: int | None = None


def map_facility(pos: Position, place: str, kind: str) -> bool:
    """The map's industrial complex or port ("industry", "port") at `place`, unless it was
    dismantled for plunder (Phase 5; the PLUNDER order's home records it)."""
    terr = pos.place(place)
    if not (terr.industry if kind == "industry" else terr.port):
        return False
    # the plunderers' records picked out by C's loops (filter, map): asked for every build,
    # and few nations have plundered (issue 14)
    records = filter(None, map(_DISMANTLED_OF, map(_FLAGS, pos.state.nations.values())))
    return not any(kind in done.get(place, ()) for done in records)


_FLAGS = attrgetter("flags")
_DISMANTLED_OF = methodcaller("get", DISMANTLED)


def has_industry(pos: Position, nation: str, place: str) -> bool:
    """An industrial complex (on the map, or built) in a territory the nation controls."""
    if pos.controller(place) != nation:
        return False
    return map_facility(pos, place, "industry") or pos.count(nation, place, "industry") > 0


def has_port(pos: Position, nation: str, place: str) -> bool:
    terr = pos.place(place)
    return terr.is_land and (map_facility(pos, place, "port") or pos.count(nation, place, "port") > 0)


def home_land_problem(pos: Position, nation: str, place: str) -> Problem | None:
    """Phase 7 rule 1: originally the nation's, controlled, and incorporated before this turn."""
    terr = pos.place(place)
    if not terr.is_land:
        return problem("place-sea", place, place=place)
    if pos.controller(place) != nation:
        return problem("place-not-held", place, place=place)
    if terr.owner != bolsheviks.original_owner(nation):  # the Bolsheviks': Russia's start land
        return problem("place-not-original", place, place=place)
    since = pos.state.incorporated.get(place)
    if since is None or since >= pos.turn:
        return problem("place-not-incorporated", place, place=place)
    return None


def own_port_beside(pos: Position, nation: str, sea: str) -> str | None:
    """Rule 6: a land territory next to `sea` with a port of the nation's (rule 1 applies)."""
    for land in sorted(pos.world.neighbours(sea)):
        if has_port(pos, nation, land) and home_land_problem(pos, nation, land) is None:
            return land
    return None


def no_city_surcharge(pos: Position, nation: str) -> bool:
    """Rule 3's exception: "Russia and China and some minor nations that don't have a
    designated capital do not have to pay the additional 5 resources"."""
    n = pos.scenario.nations.get(nation)
    return n is not None and (n.capital is None or n.no_city_infantry_surcharge)


def pending(pos: Position, nation: str, place: str, kind: str | None = None) -> int:
    """Units already bought this turn for `place` (of `kind`, or of any kind)."""
    return sum(b.count for b in pos.builds if b.nation == nation and b.place == place
               and (kind is None or b.kind == kind))


def allowance(pos: Position, city: str) -> int:
    """Rule 8: a major colony's city builds its value a turn, a minor colony's half (rounded up)."""
    terr = pos.place(city)
    return terr.value if terr.colony == "major" else -(-terr.value // 2)


def built_out_of(pos: Position, nation: str, kind: str, place: str) -> str | None:
    """The colony territory a build of `kind` for `place` is made out of (rule 8), or None:
    the place itself in a colony (infantry outside a city excepted: rule 3 places it, no
    facility); for a ship, its port (a port outside colonies first: no allowance); radar,
    sonar and AA guns put on ships are placed by rule 7, out of nothing (a reading)."""
    if kind in RULE7_GEAR or (kind == "aa" and pos.is_sea(place)):
        return None
    if pos.is_sea(place):
        ports = [land for land in sorted(pos.world.neighbours(place))
                 if has_port(pos, nation, land) and home_land_problem(pos, nation, land) is None]
        # a port outside colonies first (no allowance), then a colony city's own port, then by name
        ports.sort(key=lambda land: (bool(pos.place(land).colony), not pos.place(land).city))
        return ports[0] if ports and pos.place(ports[0]).colony else None
    terr = pos.place(place)
    if not terr.colony or (not terr.city and kind in ("infantry", *FACILITIES)):
        return None  # outside a city: rule 3's infantry, and the facilities themselves, are built out of nothing
    return place


def colony_city(pos: Position, nation: str, place: str) -> str | None:
    """The city whose allowance a build out of the colony territory `place` counts against:
    the place if a city, else the colony's most valuable city the nation holds (then by name)."""
    terr = pos.place(place)
    if terr.city:
        return place
    cities = [t for t in pos.world.home_of(terr.owner) if pos.place(t).colony == terr.colony
              and pos.place(t).city and pos.controller(t) == nation] if terr.owner else []
    return min(cities, key=lambda t: (-pos.place(t).value, t)) if cities else None


def colony_room(pos: Position, nation: str, place: str, kind: str) -> int | None:
    """Rule 8: units of `kind` the colony can still build this turn for `place` (a territory
    or a sea zone), or None where rule 8 sets no limit."""
    source = built_out_of(pos, nation, kind, place)
    if source is None:
        return None
    city = colony_city(pos, nation, source)
    if city is None:
        return 0
    used = 0
    for b in pos.builds:
        if b.nation != nation:
            continue
        other = built_out_of(pos, nation, b.kind, b.place)
        if other is not None and colony_city(pos, nation, other) == city:
            used += b.count
    return max(0, allowance(pos, city) + colony_supplies.extra_room(pos, nation, city) - used)


def placement(pos: Position, nation: str, kind: str, place: str) -> Placement | Problem:
    """Where a unit of `kind` bought now can be placed in Phase 7, or why it cannot."""
    if kind in SEA_UNITS:
        if not pos.is_sea(place):
            seas = [n for n in sorted(pos.world.neighbours(place)) if pos.is_sea(n)]
            return problem("place-ship-land", place, seas=seas)
        if own_port_beside(pos, nation, place) is None:
            return problem("place-no-port", place, place=place)
        room = colony_room(pos, nation, place, kind)
        if room == 0:
            port = built_out_of(pos, nation, kind, place) or place
            return problem("colony-allowance", place, place=port, colony=pos.place(port).colony,
                           allowance=pos.place(port).value)
        return Placement(room=room)
    if kind == "fighter" and pos.is_sea(place):
        return onto_carrier(pos, nation, place)
    if kind not in LAND_UNITS and kind not in AIR_UNITS and kind not in FACILITIES:
        return problem("cannot-build", kind=kind)
    if kind == "infantry":  # Phase 9: Bolshevik infantry in Russian land without Russian troops
        free = bolsheviks.free_land(pos, nation, place)
        if isinstance(free, Problem):
            return free
        if free is not None:
            return Placement(room=free[0])
    why = home_land_problem(pos, nation, place)
    if why is not None:
        return why
    room = colony_room(pos, nation, place, kind)
    if room == 0:
        return problem("colony-allowance", place, place=place, colony=pos.place(place).colony,
                       allowance=pos.place(place).value)
    if kind in FACILITIES:
        if kind == "port" and not any(pos.is_sea(n) for n in pos.world.neighbours(place)):
            return problem("port-inland", place, place=place)
        return Placement(room=room)
    if kind == "infantry":
        return _infantry(pos, nation, place, room)
    if has_industry(pos, nation, place):
        return Placement(room=room)
    if kind == "artillery" and pos.place(place).city:
        return Placement(colony_supplies.artillery_extra(pos, nation, place, CITY_ARTILLERY_EXTRA), room)
    return problem("place-no-industry", place, kind=kind, place=place)


CARRIER_FUEL = 5  # Fighters: "a fighter needs 5 fuel points before it can be used on an Aircraft Carrier"


def carrier_capacity(pos: Position, nation: str, sea: str) -> int:
    """The fighters the nation's carriers in the zone hold, damaged ones too (with its technology)."""
    return sum((stats.capacity if (stats := pos.stats(nation, "carrier", u)) else 0)
               for u in pos.units_at(sea, nation) if u.kind == "carrier")


def carrier_room(pos: Position, nation: str, sea: str) -> int:
    """Fighters the nation's carriers in the zone can still take: their capacity (with its
    technology) less the fighters of the nation in the zone."""
    fighters = sum(1 for u in pos.units_at(sea, nation) if u.kind == "fighter")
    return max(0, carrier_capacity(pos, nation, sea) - fighters)


def berth(pos: Position, plane: Unit, sea: str) -> bool:
    """Aircraft Carriers: may a fighter back from a flight land on its nation's carriers in
    the zone (damaged ones too: "fighters may still land on it")? Their capacity less the
    other fighters of the nation there (the plane itself is still counted there)."""
    others = sum(1 for u in pos.units_at(sea, plane.nation) if u.kind == "fighter" and u.id != plane.id)
    return plane.kind == "fighter" and others < carrier_capacity(pos, plane.nation, sea)


def industry_beside(pos: Position, nation: str, sea: str) -> bool:
    return any(has_industry(pos, nation, land) for land in pos.world.neighbours(sea) if pos.place(land).is_land)


def onto_carrier(pos: Position, nation: str, sea: str) -> Placement | Problem:
    """Fighters built directly onto the nation's carriers in a sea zone (Aircraft Carriers)."""
    stats = pos.stats(nation, "fighter")
    if stats is None or stats.fuel < CARRIER_FUEL:
        return problem("carrier-fighter-fuel", fuel=stats.fuel if stats else 0)
    if not industry_beside(pos, nation, sea):
        return problem("carrier-no-industry", sea, place=sea)
    room = carrier_room(pos, nation, sea) - pending(pos, nation, sea, "fighter")
    if room <= 0:
        return problem("carrier-no-room", sea, place=sea)
    return Placement(room=room)


def _infantry(pos: Position, nation: str, place: str, room: int | None) -> Placement | Problem:
    terr = pos.place(place)
    if terr.city:
        return Placement(room=room)
    # Rule 3: "cannot place more infantry in this fashion into a single territory in one
    # turn than the resource value of that territory" -- exempt nations included.
    left = max(0, terr.value - pending(pos, nation, place, "infantry"))
    if left == 0:
        return problem("place-outside-city-full", place, place=place, value=terr.value)
    room = left if room is None else min(room, left)
    return Placement(0 if no_city_surcharge(pos, nation) else NON_CITY_INFANTRY_EXTRA, room)


def still_placeable(pos: Position, nation: str, kind: str, place: str) -> bool:
    """Phase 7: is the place of a paid build still the nation's? (Only what the turn can
    have changed: control of the territory, or of the port beside the sea zone.)"""
    if pos.place(place).is_sea and kind == "fighter":  # onto a carrier still there, with room
        return industry_beside(pos, nation, place) and carrier_room(pos, nation, place) > 0
    if pos.place(place).is_sea:
        return own_port_beside(pos, nation, place) is not None
    return pos.controller(place) == nation or bolsheviks.may_rise(pos, nation, kind, place)
