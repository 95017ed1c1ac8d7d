"""Victory Conditions: the five criteria, their geometric mean, best army and best naval force.

"If either side manages to conquer the opposing side, then they win outright ... The
historical scenario lasts 26 turns ... the game can lasts longer if main participants
(nations in main war) don't agree with peace terms." Otherwise the five criteria:

1. "More production against starting production ... by side by percentage";
2. "... by nation by percentage (maximum 200%)";
3. "enemy losses against own losses (in resources spent) by percentage";
4. "enemy losses against own losses (in manpower lost) by percentage";
5. "special objectives ... Starting value is 100%, if any objective is taken it is added to
   total for this criteria. However, if losses are more then acceptable then no objective
   is added and value is cut to 50%."
"Combined geometric mean of each of five criteria can give the winner of the war (as
total) and the winning side (as average)."

Best naval force (BNF): every ship attack x defense x hits; a carrier at "full capacity":
(attack + capacity x fighter attack) x (defense + capacity x fighter defense) x hits, the
fighter being the nation's own (its technology). Best army (BA): every land and air unit
attack x defense. Values are each unit's own (Position.stats: its technology levels).

Readings (docs/rules-coverage.md, "Victory"):
* production is full income (what the incorporated land held yields, Phase 8's `full`),
  so a neutral's reduced collection is not a fall in production; the start is the first
  turn's (recorded in NationState.flags[LEDGER] the first time this step runs);
* losses are counted by kind from turn to turn: the units of the last count plus those
  placed this turn, less the units standing now (disbanded, sunk, killed, gone over to
  another nation: all lost); resources at the nation's price of the kind, manpower as
  infantry; turn 1 starts from the scenario's forces. "Enemy losses" are those of every
  nation at war with it. The ratio is held between 50% and 200% (criterion 2's maximum,
  and its mirror): a nation that lost next to nothing while its enemies lost much would
  otherwise score thousands of percent and make the mean its own; no losses on either
  side is parity, 100%;
* objectives (scenarios/<id>/objectives.toml): take and control count per target, the
  other kinds only when all their targets are met; take needs the nation itself to hold
  the place, control the nation or an ally (a passage: any of its controlling territories,
  or both ends of a strait); knock-out means conquered (all supply centres lost) or the
  flag `surrendered` set; naval, army and colonial rank the nation among all nations
  ("med": the map group "Mediterranean"; "pacific": the sea zones of the Asia/Pacific map
  section and those named Pacific); an objective "as allied" / "as central" counts only
  on that side; acceptable losses: a territory of its start held by no one of its side,
  outside the list, cuts the criterion to 50%.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, repeat
from operator import attrgetter, eq, itemgetter, not_

from moderator.engine import technology
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.per_map import once_per
from moderator.engine.phase8_income import conquered
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, GameState, Unit, stand_in
from moderator.world.model import Passage, World
from moderator.world.scenario import group_members
from moderator.world.scenario_model import Objective, Scenario, UnitStats

PHASE = "9"
LEDGER = "victory"  # NationState.flags: {"start": full income at start, "units": {kind: n}, "resources": lost, "manpower": lost}
SURRENDERED = "surrendered"  # NationState.flags: set by the surrender rules or a ruling
COLONIAL_GROUPS = ("Africa", "Southern Asia", "Asian Islands")  # map groups (Victory Conditions)
NO_COLONIES = ("china",)  # "China is not calculated as colonial power"
MED = "Mediterranean"  # map group
PACIFIC_SECTION = "P"
CAP = 200  # criterion 2: "maximum 200%"; criteria 3 and 4 are held below it too (see ratio)
FLOOR = 100 * 100 // CAP  # criteria 3 and 4: the cap's mirror, so two enemies' ratios stay reciprocal
CUT = 50  # criterion 5 when losses are more than acceptable
COUNTED = LAND_UNITS + AIR_UNITS + SEA_UNITS
LAND_OR_AIR = LAND_UNITS + AIR_UNITS  # what best army counts


# ---- the two formulas ---------------------------------------------------------------------
def army_value(units: Iterable[UnitStats]) -> int:
    """Best army: the sum of attack x defense of land and air units."""
    return sum(s.attack * s.defense for s in units)


def naval_value(ships: Iterable[UnitStats], fighter: UnitStats | None = None) -> int:
    """Best naval force: attack x defense x hits per ship; carriers at full capacity with
    the nation's fighters."""
    return sum(ship_value(s, fighter) for s in ships)


def ship_value(s: UnitStats, fighter: UnitStats | None) -> int:
    """One ship's share of the best naval force."""
    attack, defense = s.attack, s.defense
    if s.kind == "carrier" and fighter is not None:
        attack += s.capacity * fighter.attack
        defense += s.capacity * fighter.defense
    return attack * defense * max(s.hits, 1)


_Seen = dict[tuple[str, str, tuple[tuple[str, int], ...] | None], UnitStats | None]


def _stats(pos: Position, units: Iterable[Unit]) -> list[UnitStats]:
    """Each unit's own values; units of one nation, kind and levels share one lookup."""
    seen: _Seen = {}
    return [s for u in units if (s := _unit_stats(pos, u, seen)) is not None]


def _unit_stats(pos: Position, u: Unit, seen: _Seen) -> UnitStats | None:
    # a unit not built behind its kind has its kind's levels (technology.unit_levels)
    built = pos.nation(u.nation).flags.get(technology.BUILT_AT, {}).get(u.id)
    key = (u.nation, u.kind, tuple(sorted(built.items())) if built is not None else None)
    if key not in seen:
        seen[key] = pos.stats(u.nation, u.kind, u)
    return seen[key]


def best_army(pos: Position, nation: str, units: Iterable[Unit] | None = None) -> int:
    """`units`: the nation's units when the caller has them at hand (else all are searched)."""
    mine = units if units is not None else (u for u in pos.state.units if u.nation == nation)
    return army_value(_stats(pos, (u for u in mine if u.kind in LAND_OR_AIR)))


def in_area(pos: Position, zone: str, area: str) -> bool:
    return area == "world" or zone in _area_zones(pos.world, area)


_AREAS: dict[tuple[int, str], tuple[World, frozenset[str]]] = {}  # (id of a map, area) -> (the map, _area_zones)


def _area_zones(world: World, area: str) -> frozenset[str]:
    """The places of an area but "world" (every place): "med", the map group; "pacific", the
    sea zones of the Asia/Pacific map section and those named Pacific; none for another.
    The map never changes, so once per map and area (the entry holds the map, so its id
    cannot be reused while the entry lives): every turn's table asks it of every fleet."""
    hit = _AREAS.get((id(world), area))
    if hit is None or hit[0] is not world:
        if len(_AREAS) > 64:
            _AREAS.clear()
        if area == "med":
            zones = frozenset(world.groups.get(MED, ()))
        elif area == "pacific":
            zones = frozenset(name for name, t in world.territories.items()
                              if not t.is_land and (t.section == PACIFIC_SECTION or "Pacific" in name))
        else:
            zones = frozenset()
        hit = _AREAS[(id(world), area)] = (world, zones)
    return hit[1]


def best_naval_force(pos: Position, nation: str, area: str = "world", units: Iterable[Unit] | None = None) -> int:
    mine = units if units is not None else (u for u in pos.state.units if u.nation == nation)
    ships = [u for u in mine if u.kind in SEA_UNITS and in_area(pos, u.location, area)]
    return naval_value(_stats(pos, ships), pos.stats(nation, "fighter"))


def colonial_power(pos: Position, nation: str) -> int:
    """"A sum of values of all territories in Africa, Southern Asia ... and Asian Islands
    (other then Japan)" the nation holds; China counts none."""
    if nation in NO_COLONIES:
        return 0
    return sum(pos.place(t).value for t in _colonial_places(pos.world) if pos.controller(t) == nation)


_COLONIAL: dict[int, tuple[World, list[str], list[int]]] = {}  # id of the map -> (the map, _colonial_land)


def _colonial_places(world: World) -> list[str]:
    """The colonial groups' land, sorted."""
    return _colonial_land(world)[0]


def _colonial_land(world: World) -> tuple[list[str], list[int]]:
    """The colonial groups' land, sorted, and the value of each: the map never changes, so
    once per map (the entry holds the map, so its id cannot be reused while the entry lives)."""
    hit = _COLONIAL.get(id(world))
    if hit is None or hit[0] is not world:
        if len(_COLONIAL) > 64:
            _COLONIAL.clear()
        places = sorted({t for g in COLONIAL_GROUPS for t in world.groups.get(g, ())})
        # (a group's name that is no territory is held by no one: worth nothing)
        hit = _COLONIAL[id(world)] = (world, places, [t.value if (t := world.territories.get(name)) is not None else 0 for name in places])
    return hit[1], hit[2]


# ---- the ledger ---------------------------------------------------------------------------
def _all_counts(pos: Position) -> dict[str, dict[str, int]]:
    """nation -> its counted units by kind, each in the order of its first unit (the
    ledger keeps them so): counted in one pass by Counter's own loop, which keeps that order."""
    out: dict[str, dict[str, int]] = {}
    for (nation, kind), n in Counter(map(_NATION_KIND, pos.state.units)).items():
        if kind in COUNTED:
            out.setdefault(nation, {})[kind] = n
    return out


_NATION_KIND = attrgetter("nation", "kind")
_PLACED = attrgetter("nation", "kind", "location")
_KIND = attrgetter("kind")
_NATION = attrgetter("nation")
_SIDE = attrgetter("side")
_ID = attrgetter("id")
_VALUE = itemgetter(1)  # of a (place, value) of Ranks._fleet
_IS_SHIP = frozenset(SEA_UNITS).__contains__
Stack = tuple[str, int, UnitStats]  # place, how many alike units, their values (Ranks.forces)
Counts = dict[str, dict[str, int]]  # nation -> its counted units by kind (_all_counts)
Counted = tuple[Counts, dict[str, list[tuple[str, str, int]]]]


def _start_counts(pos: Position) -> dict[str, dict[str, int]]:
    """nation -> its counted units by kind at the start (the scenario's forces), not to be
    changed by the caller. The scenario never changes, and the first turn of every game
    counted its forces again (issue 14, the engine's cost): once per scenario (the entry
    holds the scenario, so its id cannot be reused while the entry lives)."""
    scenario = pos.scenario
    def build(scenario: Scenario) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for f in scenario.forces:
            if f.kind in COUNTED:
                mine = out.setdefault(f.nation, {})
                mine[f.kind] = mine.get(f.kind, 0) + f.count
        return out

    return once_per(_STARTS, scenario, build)


_CODE = attrgetter("code")
_LEDGER_CODES = frozenset(("placed", "income"))  # the events record_losses reads
_STARTS: dict[int, tuple[Scenario, dict[str, dict[str, int]]]] = {}  # id of a scenario -> (it, _start_counts)


def record_losses(ctx: TurnContext, counts: Counts | None = None) -> None:
    """This turn's losses of every nation, added to its ledger (see module docstring).
    `counts`: _all_counts of the position, when the caller has them (victory_conditions)."""
    placed: dict[tuple[str, str], int] = {}
    fulls: dict[str, int] = {}
    # one pass over the turn's events for both, the two codes picked out by C's loops (compress):
    # a turn has hundreds of events, a few dozen of them these (issue 14)
    events = ctx.events
    for e in compress(events, map(_LEDGER_CODES.__contains__, map(_CODE, events))):
        if e.code == "placed":
            if e.phase == "7":
                key = (e.args["nation"], e.args["kind"])
                placed[key] = placed.get(key, 0) + e.args["count"]
        elif e.code == "income":
            fulls[e.args["nation"]] = e.args["full"]
    placing = {nation for nation, _ in placed}
    counts = _all_counts(ctx) if counts is None else counts
    first = ctx.turn <= 1
    start = _start_counts(ctx) if first else {}
    nations = ctx.state.nations
    for nation in sorted(nations):
        flags = nations[nation].flags
        ledger = dict(flags.get(LEDGER, {}))
        now = dict(counts.get(nation, {}))
        before = ledger.get("units") or (start.get(nation, {}) if first else now)
        if before != now or nation in placing:  # else nothing lost (most nations, most turns)
            for kind in sorted(set(before) | set(now)):
                lost = max(0, before.get(kind, 0) + placed.get((nation, kind), 0) - now.get(kind, 0))
                if lost:
                    stats = ctx.stats(nation, kind)
                    ledger["resources"] = ledger.get("resources", 0) + lost * (stats.cost if stats else 0)
                    if kind == "infantry":
                        ledger["manpower"] = ledger.get("manpower", 0) + lost
        full = fulls.get(nation, 0)
        ledger["units"] = now
        ledger.setdefault("start", full)
        ledger["production"] = full
        flags[LEDGER] = ledger


# ---- the criteria -------------------------------------------------------------------------
@dataclass(frozen=True)
class Standing:
    nation: str
    side: str
    production_side: float
    production: float
    resources: float
    manpower: float
    objectives: float
    army: int
    navy: int

    @property
    def criteria(self) -> tuple[float, float, float, float, float]:
        return (self.production_side, self.production, self.resources, self.manpower, self.objectives)

    @property
    def mean(self) -> float:
        return geometric_mean(self.criteria)


def geometric_mean(values: Iterable[float]) -> float:
    vals = list(values)
    if not vals or any(v <= 0 for v in vals):
        return 0.0
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def ratio(ours: int, theirs: int) -> float:
    """Criteria 3 and 4: enemy losses against own losses, 100 x theirs / ours, held between
    FLOOR (50%) and CAP (200%). The rules bound no ratio but production's ("maximum 200%");
    unbounded, a nation with no losses of its own scores 100 x its enemies' losses (Japan,
    untouched while Germany bled on every front, showed 103700%) and that one criterion
    decides the geometric mean. The floor is the cap's mirror: of two nations at war only
    with each other, one's ratio is 100 x 100 / the other's, and stays so when held.
    Nothing lost on either side is parity (100%); nothing lost by the nation alone, the cap."""
    if ours <= 0:
        return float(CAP) if theirs > 0 else 100.0
    return min(float(CAP), max(float(FLOOR), 100 * theirs / ours))


def _ledger(pos: Position, nation: str) -> dict[str, int]:
    raw = pos.nation(nation).flags.get(LEDGER, {})
    return {k: v for k, v in raw.items() if isinstance(v, int)}


def friendly(pos: Position, nation: str, holder: str | None) -> bool:
    if holder is None:
        return False
    return holder == nation or pos.state.allies(nation, holder)


def place_met(pos: Position, nation: str, target: str, allies_count: bool) -> bool:
    """A take (the nation holds it) or control (the nation or an ally) target."""
    def held(t: str) -> bool:
        h = pos.controller(t)
        return h == nation if not allies_count else friendly(pos, nation, h)

    passage = _passages(pos.world).get(target)
    if passage is not None:
        if passage.controllers:
            return any(held(t) for t in passage.controllers)
        return all(held(t) for t in passage.ends if pos.world.territories.get(t, None) is not None
                   and pos.place(t).is_land)
    members = _members(pos, target, nation)
    if members is not None:
        spec = pos.scenario.groups.get(target)
        lands = [m for m in members if m in pos.world.territories]
        if spec is not None and spec.any:
            return any(held(t) for t in lands)
        return bool(lands) and all(held(t) for t in lands)
    name = pos.world.resolve(target)
    return name is not None and held(name)


_PASSAGES: dict[int, tuple[World, dict[str, Passage]]] = {}  # id of a map -> (map, name -> its first passage)


def _passages(world: World) -> dict[str, Passage]:
    """The map's passages by name (the first of a name, as a search in order finds): asked
    for every take and control target every turn; the map never changes, so once per map
    (the entry holds the map, so its id cannot be reused while the entry lives)."""
    def build(world: World) -> dict[str, Passage]:
        by_name: dict[str, Passage] = {}
        for p in world.passages:
            by_name.setdefault(p.name, p)
        return by_name

    return once_per(_PASSAGES, world, build)


_MEMBERS: dict[tuple[int, int, str, str], tuple[Scenario, World, list[str] | None]] = {}
_OBJECTIVES: dict[int, tuple[Scenario, dict[str, list[Objective]]]] = {}  # id of a scenario -> (it, its objectives by nation)


def _objectives_by_nation(scenario: Scenario) -> dict[str, list[Objective]]:
    """The scenario's objectives sorted out by nation, each nation's in the scenario's
    order: the scenario never changes, and every turn's table read all of them again
    (issue 14): once per scenario (the entry holds it, so its id cannot be reused while
    the entry lives)."""
    def build(scenario: Scenario) -> dict[str, list[Objective]]:
        found: dict[str, list[Objective]] = {}
        for o in scenario.objectives:
            found.setdefault(o.nation, []).append(o)
        return found

    return once_per(_OBJECTIVES, scenario, build)


def _members(pos: Position, group: str, nation: str) -> list[str] | None:
    """group_members of the position's scenario and map, kept: both never change (the entry
    holds them, so their ids cannot be reused while it lives), and every nation's
    objectives ask for the same groups every turn."""
    key = (id(pos.scenario), id(pos.world), group, nation)
    hit = _MEMBERS.get(key)
    if hit is None or hit[0] is not pos.scenario or hit[1] is not pos.world:
        if len(_MEMBERS) > 4096:
            _MEMBERS.clear()
        hit = _MEMBERS[key] = (pos.scenario, pos.world, group_members(pos.scenario, pos.world, group, nation))
    return None if hit[2] is None else list(hit[2])


class Ranks:
    """Every nation's best army, naval force (by area) and colonial power, computed once
    per table (the objectives of every nation rank against the same values)."""

    def __init__(self, pos: Position, kinds: Counts | None = None) -> None:
        """`kinds`: _all_counts of the position, when the caller has them (a pass over every
        unit less: victory_conditions counts them for the ledger too)."""
        self.pos = pos
        self._values: dict[str, dict[str, int]] = {}
        self._kinds = kinds
        self._counts: Counted | None = None
        self._forces: dict[str, tuple[int, list[Stack]]] = {}
        self._fleets: dict[str, list[tuple[str, int]]] = {}  # nation -> _fleet
        self._sides: dict[str, list[str]] = {}  # side -> its nations (side)
        self._production: dict[str, tuple[int, int]] = {}  # side -> side_production
        self._sorted: dict[tuple[str, str], list[int]] = {}  # (kind, area) -> values(kind, area), sorted (rank)
        self._ledgers: dict[str, dict[str, int]] = {}  # nation -> _ledger: every standing reads its side's and enemies'

    def objectives(self, nation: str) -> list[Objective]:
        """The scenario's objectives of the nation, in the scenario's order (not to be
        changed by the caller)."""
        return _objectives_by_nation(self.pos.scenario).get(nation, [])

    def side(self, side: str) -> list[str]:
        """The nations on `side`, in the state's order: found once for the whole table
        (every contender of a side sums its side's ledgers)."""
        found = self._sides.get(side)
        if found is None:
            nations = self.pos.state.nations
            found = self._sides[side] = list(compress(nations, map(eq, repeat(side), map(_SIDE, nations.values()))))
        return found

    def side_production(self, side: str) -> tuple[int, int]:
        """The side's production now and at the start (its nations' ledgers summed): once
        for the whole table, every contender of the side reads the same."""
        found = self._production.get(side)
        if found is None:
            members = self.side(side)
            found = self._production[side] = (sum(self.ledger(n).get("production", 0) for n in members),
                                              sum(self.ledger(n).get("start", 0) for n in members))
        return found

    def ledger(self, nation: str) -> dict[str, int]:
        """_ledger(pos, nation), read once for the whole table (the ledgers do not change
        while it is drawn up)."""
        found = self._ledgers.get(nation)
        if found is None:
            found = self._ledgers[nation] = _ledger(self.pos, nation)
        return found

    def forces(self, nation: str) -> tuple[int, list[Stack]]:
        """The nation's best army and its ships (place, how many alike, their values),
        looked up once for the whole table: the army and the three naval areas read the
        same values (best_army and best_naval_force give the same sums, n alike units
        counting n times one).

        Units are counted by nation and kind (ships by place too) in C's loops (Counter),
        not one by one in ours: the table is drawn up every turn, and a unit at a time was
        most of its cost. A nation whose units all have their kind's values (none built
        behind its kind, none fighting as another nation's) asks each kind's values once;
        the others' units are looked up one by one, those of one kind, levels and values
        owner (technology.values_of) sharing one lookup: all technology.stats reads of a unit."""
        found = self._forces.get(nation)
        if found is not None:
            return found
        flags = self.pos.nation(nation).flags
        built_at, fights_as = flags.get(technology.BUILT_AT, {}), flags.get(technology.FIGHTS_AS, {})
        army, ships = 0, []
        if not built_at and not fights_as:
            kinds, fleets = self._counted()
            # any unit of the nation and kind has the kind's values here: a stand-in for them,
            # not one of its units found in a pass over the map's (issue 14)
            by_kind = {kind: self.pos.stats(nation, kind, stand_in("", nation, kind, ""))
                       for kind in kinds.get(nation, {})}
            for kind, count in kinds.get(nation, {}).items():
                if kind in LAND_OR_AIR and (s := by_kind[kind]) is not None:
                    army += count * s.attack * s.defense
            ships = [(where, count, s) for kind, where, count in fleets.get(nation, ()) if (s := by_kind[kind]) is not None]
        else:
            # Only the units built behind their kind or fighting as another nation's are looked
            # up one by one; the others have their kind's values and are counted as above, less
            # the odd ones (a few of a nation's units: issue 14), valued as a kind's stand-in.
            # The odd ones are picked out by their ids in C's loops over the map's units, not
            # a Python step per unit of the nation.
            kinds, fleets = self._counted()
            odd_ids, units = built_at.keys() | fights_as.keys(), self.pos.state.units
            odd = [u for u in compress(units, map(odd_ids.__contains__, map(_ID, units))) if u.nation == nation]
            left = dict(kinds.get(nation, {}))
            ships_left = {(kind, where): count for kind, where, count in fleets.get(nation, ())}
            seen: dict[tuple[str, tuple[tuple[str, int], ...] | None, object], UnitStats | None] = {}
            for u in odd:
                if u.kind not in COUNTED:
                    continue
                left[u.kind] -= 1
                if u.kind in SEA_UNITS:
                    ships_left[(u.kind, u.location)] -= 1
                built = built_at.get(u.id)
                key = (u.kind, tuple(sorted(built.items())) if built is not None else None, fights_as.get(u.id))
                if key not in seen:
                    seen[key] = self.pos.stats(nation, u.kind, u)
                if (s := seen[key]) is None:
                    continue
                if u.kind in LAND_OR_AIR:
                    army += s.attack * s.defense
                elif u.kind in SEA_UNITS:
                    ships.append((u.location, 1, s))
            by_kind = {kind: self.pos.stats(nation, kind, stand_in("", nation, kind, "")) for kind, count in left.items() if count}
            for kind, count in left.items():
                if count and kind in LAND_OR_AIR and (s := by_kind[kind]) is not None:
                    army += count * s.attack * s.defense
            ships += [(where, count, s) for (kind, where), count in ships_left.items()
                      if count and (s := by_kind[kind]) is not None]
        found = self._forces[nation] = (army, ships)
        return found

    def _counted(self) -> Counted:
        """nation -> {kind: how many} of its counted units (_all_counts); nation -> (kind,
        place, how many) of its ships."""
        if self._counts is None:
            units = self.pos.state.units
            kinds = _all_counts(self.pos) if self._kinds is None else self._kinds
            fleets: dict[str, list[tuple[str, str, int]]] = {}
            ships = compress(units, map(_IS_SHIP, map(_KIND, units)))  # picked out by C's loops: a few of the units
            for (nation, kind, where), count in Counter(map(_PLACED, ships)).items():
                fleets.setdefault(nation, []).append((kind, where, count))
            self._counts = (kinds, fleets)
        return self._counts

    def _naval(self, nation: str, area: str) -> int:
        """best_naval_force from the values looked up once."""
        fleet = self._fleet(nation)
        if not fleet or area == "world":  # no ships (most nations), or every zone (in_area)
            return sum(map(_VALUE, fleet))
        zones = _area_zones(self.pos.world, area)
        return sum(value for where, value in fleet if where in zones)

    def _fleet(self, nation: str) -> list[tuple[str, int]]:
        """(place, the naval force there) of each of the nation's stacks of alike ships:
        worked out once for the three areas that rank them (world, med, pacific), with the
        nation's fighter only where a carrier needs it (naval_value reads it for carriers alone)."""
        found = self._fleets.get(nation)
        if found is None:
            ships = self.forces(nation)[1]
            fighter = self.pos.stats(nation, "fighter") if any(s.kind == "carrier" for _, _, s in ships) else None
            found = self._fleets[nation] = [(where, count * ship_value(s, fighter)) for where, count, s in ships]
        return found

    def rank(self, kind: str, area: str, nation: str) -> int:
        """The nation's place among all nations in values(kind, area): one more than the
        nations valued higher; with nothing of its own, after all of them. Found by a
        search in the values sorted once (every nation's objectives rank against them)."""
        values = self.values(kind, area)
        mine = values.get(nation, 0)
        if mine <= 0:
            return len(values) + 1
        ordered = self._sorted.get((kind, area))
        if ordered is None:
            ordered = self._sorted[(kind, area)] = sorted(values.values())
        return 1 + len(ordered) - bisect_right(ordered, mine)

    def values(self, kind: str, area: str) -> dict[str, int]:
        key = f"{kind}:{area}"
        if key not in self._values:
            nations = sorted(self.pos.state.nations)
            # a nation with no counted unit (no ship) has no army (navy): not looked up
            kinds, fleets = self._counted()
            found = self._values[key] = dict.fromkeys(nations, 0)  # (each key where the nations' order has it)
            if kind == "naval":
                for n in fleets:
                    if n in found:
                        found[n] = self._naval(n, area)
            elif kind == "army":
                for n in kinds:
                    if n in found:
                        found[n] = self.forces(n)[0]
            else:  # colonial power, every nation's in one pass over the colonial land
                held: dict[str, int] = {}
                places, worth = _colonial_land(self.pos.world)
                for holder, value in zip(map(self.pos.state.control.get, places), worth, strict=True):
                    if holder is not None:
                        held[holder] = held.get(holder, 0) + value
                for n in found:
                    found[n] = 0 if n in NO_COLONIES else held.get(n, 0)
        return self._values[key]


def objective_met(pos: Position, o: Objective, nation: str, ranks: Ranks | None = None) -> int:
    """The percent the objective adds now (0 if not met)."""
    if o.kind in ("take", "control"):
        return o.weight * sum(place_met(pos, nation, t, o.kind == "control") for t in o.targets)
    if o.kind == "knock-out":
        ok = all(t in pos.state.nations and (conquered(pos.world, pos.state, t)
                                              or bool(pos.nation(t).flags.get(SURRENDERED)))
                 for t in o.targets)
        return o.weight if ok and o.targets else 0
    if o.kind in ("naval", "army", "colonial"):
        ranks = ranks or Ranks(pos)
        for target in o.targets:
            area, _, rank = target.partition(":")
            if not rank.isdigit() or ranks.rank(o.kind, area, nation) > int(rank):
                return 0
        return o.weight
    return 0


def applies(pos: Position, o: Objective, nation: str) -> bool:
    side = _as_side(o.condition)
    return side is None or pos.nation(nation).side == side


@lru_cache(maxsize=1024)
def _as_side(condition: str) -> str | None:
    """The side an objective "as allied" / "as central" counts on, None for any; read once
    a condition (a pure function of the text: every turn's table asks it of every objective)."""
    cond = condition.strip().lower()
    return cond[3:] if cond.startswith("as ") else None


def losses_acceptable(pos: Position, nation: str, objectives: list[Objective]) -> bool:
    # its home land held by no one of its side (friendly: the nation or an ally, allies_of),
    # picked out by C's loops; most nations, most turns, have lost none, and the list of
    # the acceptable is not needed
    friends, home = pos.state.allies_of(nation), pos.world.home_of(nation)
    lost = list(compress(home, map(not_, map(friends.__contains__, map(pos.state.control.get, home)))))
    if not lost:
        return True
    allowed: set[str] = set()
    for o in objectives:
        if o.kind == "acceptable-losses":
            for t in o.targets:
                members = _members(pos, t, nation)
                allowed |= set(members) if members is not None else {pos.world.resolve(t) or t}
    return allowed.issuperset(lost)


def objectives_criterion(pos: Position, nation: str, ranks: Ranks | None = None) -> float:
    ranks = ranks or Ranks(pos)
    mine = [o for o in ranks.objectives(nation) if applies(pos, o, nation)]
    if not losses_acceptable(pos, nation, mine):
        return CUT
    return 100 + sum(objective_met(pos, o, nation, ranks) for o in mine)


def standing(pos: Position, nation: str, ranks: Ranks | None = None) -> Standing:
    ns = pos.nation(nation)
    ranks = ranks or Ranks(pos)
    ledger = ranks.ledger(nation)
    side = ns.side
    side_now, side_start = ranks.side_production(side) if side != "neutral" else (
        ledger.get("production", 0), ledger.get("start", 0))
    start, now = ledger.get("start", 0), ledger.get("production", 0)
    at_war = set(ns.at_war_with)  # GameState.at_war(nation, n) for each n, read once
    enemies = list(filter(at_war.__contains__, pos.state.nations))  # in the state's order, by C's loop
    enemy_res = sum(ranks.ledger(n).get("resources", 0) for n in enemies)
    enemy_men = sum(ranks.ledger(n).get("manpower", 0) for n in enemies)
    return Standing(
        nation=nation, side=side,
        production_side=100 * side_now / side_start if side_start else 100.0,
        production=min(CAP, 100 * now / start) if start else 100.0,
        resources=ratio(ledger.get("resources", 0), enemy_res),
        manpower=ratio(ledger.get("manpower", 0), enemy_men),
        objectives=objectives_criterion(pos, nation, ranks),
        army=ranks.values("army", "world")[nation], navy=ranks.values("naval", "world")[nation])


def table(state: GameState, world: World, scenario: Scenario) -> list[Standing]:
    """The Victory Conditions' table of a position (Ruleset.victory): what the moderator's
    report shows every turn."""
    return standings(Position(state, {}, world, scenario))


def contenders(pos: Position) -> list[str]:
    """"Only major nations can win the war, minor nations can only be second"."""
    return sorted(n for n in pos.state.nations  # not a faction off the board (China's Empire)
                  if (spec := pos.scenario.nations.get(n)) is not None and spec.kind == "major"
                  and pos.nation(n).flags.get("active") is not False)


def standings(pos: Position, kinds: Counts | None = None) -> list[Standing]:
    """`kinds`: _all_counts of the position, when the caller has them."""
    ranks = Ranks(pos, kinds)
    return [standing(pos, n, ranks) for n in contenders(pos)]


def side_means(rows: list[Standing]) -> dict[str, float]:
    out: dict[str, list[float]] = {}
    for r in rows:
        if r.side in ("allied", "central"):
            out.setdefault(r.side, []).append(r.mean)
    return {s: sum(v) / len(v) for s, v in sorted(out.items())}


def side_conquered(pos: Position, side: str) -> list[str]:
    """The side's main-war nations, when every one of them is conquered or has surrendered
    (else []): "to force oposition to surrender or to conquer them--full victory"."""
    members = sorted(n for n, s in pos.state.nations.items() if s.side == side and pos.world.home_of(n))
    if members and all(conquered(pos.world, pos.state, n) or pos.nation(n).flags.get(SURRENDERED)
                       for n in members):
        return members
    return []


def main_war_goes_on(pos: Position) -> bool:
    return any(pos.state.nations[a].side == "allied" and pos.state.nations[b].side == "central"
               for a in pos.state.nations for b in pos.state.nations[a].at_war_with if b in pos.state.nations)


# ---- the step ------------------------------------------------------------------------------
def victory_conditions(ctx: TurnContext) -> None:
    """Every turn, after the special rules: the ledger, then the table for the moderator
    (for everyone from the historical end on, and in the turn a side wins outright), and
    outright victory. "If either side manages to conquer the opposing side, then they win
    outright ... The historical scenario lasts 26 turns ... the game can lasts longer if main
    participants (nations in main war) don't agree with peace terms": the game is over at an
    outright victory, or from the historical end on once the main war is over; the moderator
    is told (flag `game-over`) and finishes the game (`moderator game finish`)."""
    counts = _all_counts(ctx)  # the units do not change in this step: counted once for the ledger and the table
    record_losses(ctx, counts)
    winners = [(side, beaten) for side, other in (("allied", "central"), ("central", "allied"))
               if (beaten := side_conquered(ctx, other))]
    historical = ctx.turn >= ctx.scenario.turns
    over = bool(winners) or (historical and not main_war_goes_on(ctx))
    audience = () if historical or over else (MODERATOR,)
    rows = standings(ctx, counts)
    for r in rows:
        ctx.emit("victory-standing", PHASE, audience, nation=r.nation, side=r.side,
                 production_side=round(r.production_side), production=round(r.production),
                 resources=round(r.resources), manpower=round(r.manpower), objectives=round(r.objectives),
                 mean=round(r.mean), army=r.army, navy=r.navy)
    for side, mean in side_means(rows).items():
        ctx.emit("victory-side", PHASE, audience, side=side, mean=round(mean))
    for side, beaten in winners:
        ctx.emit("victory-outright", PHASE, (), side=side, conquered=beaten)
    if ctx.turn == ctx.scenario.turns:
        ctx.flag(PHASE, "historical-end", None, turn=ctx.turn, goes_on=main_war_goes_on(ctx),
                 default="the table is shown to everyone; the game goes on while the main war does")
    if over:
        ctx.flag(PHASE, "game-over", None, turn=ctx.turn, outright=[side for side, _ in winners],
                 default="this turn's victory table, shown to everyone, is the result: finish the game "
                         "(moderator game finish)")
