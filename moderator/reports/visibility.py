"""What each audience may see ("Miscellaneous": before each turn players receive the
positions of their units and their resources; each alliance receives the common status
and positions of all members' units; neutrals, Japan included, receive only their own).

Everything a report shows passes through here; templates and maps get only these views,
so nothing outside them can leak into a mail.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from moderator.engine.events import Event
from moderator.engine.manpower import COLONIAL, COLONIAL_BUILT
from moderator.engine.placement import DISMANTLED
from moderator.engine.state import GameState
from moderator.engine.treasuries import HELD
from moderator.reports.sightings import Sighting, sightings
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

# Short labels used on maps and in unit tables.
UNIT_ABBREV = {
    "infantry": "inf", "artillery": "art", "tank": "tank", "aa": "AA", "rocket": "rkt",
    "fighter": "ftr", "bomber": "bmb", "battleship": "BB", "cruiser": "DD", "transport": "TR",
    "carrier": "CV", "submarine": "SS", "super_trench": "super-trench",  # one word: a space starts a nation prefix
}


@dataclass
class NationStatus:
    nation: str
    name: str
    side: str
    saved: int
    manpower_limit: int
    infantry_built: int
    at_war_with: list[str]
    territories: list[str]
    units: dict[str, dict[str, int]]  # location -> kind -> count
    tech: dict[str, int]
    to_deploy: dict[str, int] = field(default_factory=dict)  # Initial Deployment: free units still to place
    standing: int = 0  # a neutral's diplomatic standing (Phase 1.2), -10 CP .. +10 AP
    income_rule: str = "full"  # Phase 8: the share of its income a nation collects
    incorporated: dict[str, int] = field(default_factory=dict)  # own territory -> turn incorporated (Phase 6)
    damaged: dict[str, dict[str, int]] = field(default_factory=dict)  # location -> kind -> hits taken
    held_apart: dict[str, int] = field(default_factory=dict)  # 3.1: treasuries of separated land, by territory
    colonial_limit: int | None = None  # the colonies' manpower limit, apart (engine/manpower.py); None: none
    colonial_built: int = 0  # infantry built in the colonies
    # Its units one by one (id, kind, location, damage, the land a trench faces or ""), sorted:
    # the ids its trenches' facings name (a player's tool needs them; report.json's `units`).
    pieces: list[tuple[str, str, str, int, str]] = field(default_factory=list)
    # The map's facilities of its land that a plunder dismantled (Phase 5; by whoever held it
    # then): territory -> "industry", "port". What stands in its own land is its own status.
    dismantled: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class View:
    """One audience's view of the game after a turn."""

    audience: str  # a nation id, or "alliance:<side>"
    members: list[str]  # the nations whose details are shown
    statuses: list[NationStatus]
    events: list[Event]
    control: dict[str, str]  # public: who holds each land territory (the public map)
    map_units: dict[str, dict[str, int]] = field(default_factory=dict)  # location -> label -> count
    turn: int = 0  # the turn about to be played (income schedules count from it)
    sides: dict[str, str] = field(default_factory=dict)  # public: every nation's camp
    sightings: list[Sighting] = field(default_factory=list)  # what its units see of the enemy (3.3)
    trenches: list[tuple[str, str, str, str]] = field(default_factory=list)  # members' (nation, place, facing, kind)
    wars: dict[str, list[str]] = field(default_factory=dict)  # public: who is at war with whom (_wars)


def _trenches(state: GameState, members: list[str]) -> list[tuple[str, str, str, str]]:
    """The members' trenches with the territory each faces (NationState.flags["trench_facing"])."""
    out = []
    for n in members:
        facing = state.nations[n].flags.get("trench_facing", {}) if n in state.nations else {}
        for u in state.nation_units(n):
            if u.kind in ("trench", "super_trench") and isinstance(facing, dict) and facing.get(u.id):
                out.append((n, u.location, str(facing[u.id]), u.kind))
    return sorted(set(out))


def _status(state: GameState, scenario: Scenario, nation: str) -> NationStatus:
    ns = state.nations[nation]
    units: dict[str, Counter[str]] = {}
    damaged: dict[str, Counter[str]] = {}
    pieces = []
    facing = ns.flags.get("trench_facing")
    facing = facing if isinstance(facing, dict) else {}
    for u in sorted(state.nation_units(nation), key=lambda u: (u.location, u.kind, u.id)):
        pieces.append((u.id, u.kind, u.location, u.damage, str(facing.get(u.id) or "")))
        units.setdefault(u.location, Counter())[u.kind] += 1
        if u.damage:
            damaged.setdefault(u.location, Counter())[u.kind] += u.damage
    territories = sorted(t for t, n in state.control.items() if n == nation)
    return NationStatus(
        nation=nation,
        name=scenario.nations[nation].name if nation in scenario.nations else nation,
        side=ns.side,
        saved=ns.saved,
        manpower_limit=ns.manpower_limit,
        infantry_built=ns.infantry_built,
        colonial_limit=int(ns.flags[COLONIAL]) if COLONIAL in ns.flags else None,
        colonial_built=int(ns.flags.get(COLONIAL_BUILT, 0)),
        at_war_with=sorted(ns.at_war_with),
        territories=territories,
        units={loc: dict(sorted(c.items())) for loc, c in sorted(units.items())},
        tech=dict(sorted(ns.tech.items())),
        to_deploy=_to_deploy(ns.flags.get("to_deploy", ())),
        standing=ns.standing,
        income_rule=ns.income_rule,
        incorporated={t: state.incorporated[t] for t in territories if t in state.incorporated},
        damaged={loc: dict(sorted(c.items())) for loc, c in sorted(damaged.items())},
        held_apart=treasuries_held(ns.flags.get(HELD)),
        pieces=pieces,
        dismantled=_dismantled(state, territories),
    )


def _dismantled(state: GameState, territories: list[str]) -> dict[str, list[str]]:
    """The map's facilities of these territories dismantled for plunder, by anyone (the
    plunderers' records, engine/placement.py DISMANTLED)."""
    held = set(territories)
    out: dict[str, set[str]] = {}
    for ns in state.nations.values():
        record = ns.flags.get(DISMANTLED)
        for place, kinds in (record.items() if isinstance(record, dict) else ()):
            if place in held:
                out.setdefault(place, set()).update(kinds)
    return {p: sorted(k) for p, k in sorted(out.items())}


def treasuries_held(raw: object) -> dict[str, int]:
    """The separated treasuries as the state keeps them (engine/treasuries.py)."""
    return {str(k): int(v) for k, v in sorted(raw.items())} if isinstance(raw, dict) else {}


def _to_deploy(items: object) -> dict[str, int]:
    counts: Counter[str] = Counter()
    for item in items if isinstance(items, list) else ():
        counts[str(item["kind"])] += int(item["count"])
    return dict(sorted(counts.items()))


def short_code(nation: str) -> str:
    """A short, unambiguous prefix for alliance map labels: "ger", "aus" (Australia) but
    "aus-hun" (Austria-Hungary), "sou-afr", so two allies never share one."""
    return "-".join(part[:3] for part in nation.split("-"))


def _map_units(statuses: list[NationStatus], several: bool) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for st in statuses:
        for loc, kinds in st.units.items():
            for kind, n in kinds.items():
                label = f"{short_code(st.nation)} {UNIT_ABBREV.get(kind, kind)}" if several else UNIT_ABBREV.get(kind, kind)
                out.setdefault(loc, {})[label] = out.get(loc, {}).get(label, 0) + n
    return out


def nation_view(state: GameState, scenario: Scenario, events: list[Event], nation: str,
                world: World | None = None) -> View:
    """A nation's own report: its own status and units, the events it took part in, and
    (given the world's borders) the colour bands of the enemy its own units see."""
    statuses = [_status(state, scenario, nation)]
    seen = [e for e in events if e.visible_to(nation)]
    return View(
        audience=nation,
        members=[nation],
        statuses=statuses,
        events=seen,
        control=dict(state.control),
        map_units=_map_units(statuses, several=False),
        turn=state.turn,
        sides=_sides(state),
        sightings=sightings(state, scenario, world, [nation], seen) if world is not None else [],
        trenches=_trenches(state, [nation]),
    )


def alliance_members(state: GameState, side: str) -> list[str]:
    return sorted(n for n, ns in state.nations.items() if ns.side == side)


def alliance_view(state: GameState, scenario: Scenario, events: list[Event], side: str,
                  world: World | None = None) -> View:
    """The shared status report of an alliance (neutrals get none: only their own), with
    what all members' units see of the enemy."""
    if side == "neutral":
        raise ValueError("neutrals receive only their own status, never a shared one")
    members = alliance_members(state, side)
    statuses = [_status(state, scenario, n) for n in members]
    seen = [e for e in events if not e.seen_by or set(e.seen_by) & set(members)]
    return View(
        audience=f"alliance:{side}",
        members=members,
        statuses=statuses,
        events=seen,
        control=dict(state.control),
        map_units=_map_units(statuses, several=True),
        turn=state.turn,
        sides=_sides(state),
        sightings=sightings(state, scenario, world, members, seen) if world is not None else [],
        trenches=_trenches(state, members),
    )


def public_view(state: GameState, events: list[Event]) -> View:
    """What every player may know: who holds what, the camps, and the public news
    (events with an empty seen_by: declarations, conquests, nations joining a camp)."""
    return View(audience="public", members=[], statuses=[], events=[e for e in events if not e.seen_by],
                control=dict(state.control), turn=state.turn, sides=_sides(state), wars=_wars(state))


def _wars(state: GameState) -> dict[str, list[str]]:
    """Who is at war with whom, for every nation on the map (_sides) at war: public, since
    a war begins by a public declaration (war-declared), a public join or the scenario's
    start, and ends by public news (peace, a surrender accepted)."""
    present = _sides(state)
    return {n: sorted(state.nations[n].at_war_with) for n in present if state.nations[n].at_war_with}


def _sides(state: GameState) -> dict[str, str]:
    """Each nation's camp: public (declarations and joining a camp are public news). Only
    nations on the map (holding land or units) are listed: the Bolsheviks' seat exists from
    the start but the Bolsheviks only from the revolution (Phase 9)."""
    present = set(state.control.values()) | {u.nation for u in state.units}
    return {n: ns.side for n, ns in sorted(state.nations.items()) if n in present}
