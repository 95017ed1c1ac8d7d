"""What an audience sees of its enemies (3.3 Reconaissance, 3.2.2.4).

Passive reconnaissance: "many units have a chance to detect enemies in the same sea zone
or in nearby land province"; "artillery units, rockets and AA guns cannot see at all".
"Usually the size of the troops is valued by the color of units (0-5 is black, 6-20 is
yellow, and over 21 is red)" (3.2.2.4). So a report shows, for every place its watchers
look into, the colour band of the enemy troops there - never their kinds or exact number:

- watchers are the audience's own units (a nation's report) or all members' units (the
  alliance's report: "Reconaissance value is calculated for all allied units") of a kind
  the scenario's Phase 3.3 table gives a passive chance (infantry, tanks, trenches, ships,
  aircraft; not artillery, AA guns, rockets, transports);
- a land watcher looks into the land territories next to its own (its passive_land
  chance); a unit at sea looks at its own sea zone (passive_sea);
- a place is reported when an enemy (a nation at war with a watcher's nation) holds it
  or has units in it; the band counts every enemy unit there (troops: not trenches,
  industry or ports).

Exact numbers come from a roll: Phase 3.3 (engine/phase3_passive_recon.py) rolls passive
reconnaissance for each group of allies at war and records, in every member's
NationState.flags["recon"], each place it looked into: the exact troops on a hit, the band on
a miss, a false band where the enemy masked it (3.2.2.4). Where that record exists it is
what the audience knows (the band of a masked place is the false one: the report never
tells more than the roll did); a successful combat espionage (3.2.1.4, the "spied-combat"
event the spy's nation sees) gives the exact enemy units of its province. Where no record
exists (a scenario without the 3.3 table, a position no turn has resolved) the bands are
computed from the position as described above.
Reading (docs/rules-coverage.md): reconnaissance "is calculated for all allied units", so
with the engine's record a nation's report shows what its group saw, the places its own
units look into listing them under `by`; without the record, a nation's own report uses its
own units only and the alliance report all members' units.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from moderator.engine.events import Event
from moderator.engine.phase3_passive_recon import KNOWN
from moderator.engine.state import UNIT_KINDS, GameState
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

# 3.2.2.4: 0-5 black, 6-20 yellow, "over 21" red (21 itself read as red: no count is left out).
BANDS = ((5, "black", "0-5"), (20, "yellow", "6-20"), (None, "red", "21+"))
SPANS = {colour: span for _, colour, span in BANDS}


def band(count: int) -> tuple[str, str]:
    """(colour, range) of a number of troops (3.2.2.4)."""
    for top, colour, span in BANDS:
        if top is None or count <= top:
            return colour, span
    raise AssertionError("unreachable")


@dataclass
class Sighting:
    place: str
    holder: str  # who controls the place (public), "" for a sea zone
    band: str  # "black", "yellow" or "red"
    span: str  # "0-5", "6-20", "21+"
    # Exact, where reconnaissance or espionage saw: nation id -> unit kind -> count.
    units: dict[str, dict[str, int]] | None = None
    by: list[str] = field(default_factory=list)  # where the watchers stand

    @property
    def text(self) -> str:
        return f"{self.span} enemy units ({self.band})"


def _watching(scenario: Scenario, kind: str, at_sea: bool) -> bool:
    row = scenario.recon.get(kind)
    if row is None:
        return False
    return bool(row.passive_sea if at_sea else row.passive_land)


def _looked(state: GameState, scenario: Scenario, world: World, watchers: list[str]) -> dict[str, set[str]]:
    """Place -> where the watchers' units that look into it stand."""
    looked: dict[str, set[str]] = {}
    for n in watchers:
        for u in state.nation_units(n):
            terr = world.territories.get(u.location)
            if terr is None:
                continue
            at_sea = not terr.is_land
            if not _watching(scenario, u.kind, at_sea):
                continue
            if at_sea:
                looked.setdefault(u.location, set()).add(u.location)
                continue
            for near in world.neighbours(u.location):
                other = world.territories.get(near)
                if other is not None and other.is_land:
                    looked.setdefault(near, set()).add(u.location)
    return looked


def _recorded(state: GameState, watchers: list[str]) -> dict[str, Mapping[str, object]] | None:
    """The watchers' Phase 3.3 record merged (an exact entry wins over a band), or None when
    none of them has one."""
    records = [state.nations[n].flags[KNOWN] for n in watchers
               if n in state.nations and isinstance(state.nations[n].flags.get(KNOWN), dict)]
    if not records:
        return None
    out: dict[str, Mapping[str, object]] = {}
    for record in records:
        for place, entry in sorted(record.items()):
            if isinstance(entry, dict) and (place not in out or entry.get("seen") == "exact"):
                out[place] = entry
    return out


def _exact(units: object) -> dict[str, dict[str, int]]:
    """nation -> kind -> count, troops only, from an engine record or event."""
    out: dict[str, dict[str, int]] = {}
    if isinstance(units, dict):
        for nation, kinds in sorted(units.items()):
            if isinstance(kinds, dict):
                mine = {k: int(n) for k, n in sorted(kinds.items()) if k in UNIT_KINDS and int(n) > 0}
                if mine:
                    out[str(nation)] = mine
    return out


def _exact_sighting(place: str, holder: str, units: dict[str, dict[str, int]], by: list[str]) -> Sighting:
    colour, span = band(sum(n for kinds in units.values() for n in kinds.values()))
    return Sighting(place, holder, colour, span, units=units, by=by)


def sightings(state: GameState, scenario: Scenario, world: World, watchers: list[str],
              events: Iterable[Event] = ()) -> list[Sighting]:
    """The enemy places the `watchers` nations know of, each with its band or exact troops:
    from their Phase 3.3 record where there is one, else computed from where their units
    stand; then the provinces their combat espionage saw (`events`: those the audience may see)."""
    looked = _looked(state, scenario, world, watchers)
    record = _recorded(state, watchers)
    out: dict[str, Sighting] = {}
    if record is not None:
        for place, entry in sorted(record.items()):
            holder = state.control.get(place, "")
            by = sorted(looked.get(place, ()))
            if entry.get("seen") == "exact":
                out[place] = _exact_sighting(place, holder, _exact(entry.get("units")), by)
            else:
                colour = str(entry.get("band", "black"))
                out[place] = Sighting(place, holder, colour, SPANS.get(colour, "0-5"), by=by)
    else:
        foes: set[str] = set()
        for n in watchers:
            foes |= set(state.nations[n].at_war_with)
        foes -= set(watchers)
        counts: dict[str, int] = {}
        for foe in sorted(foes):
            for u in state.nation_units(foe):
                if u.location in looked and u.kind in UNIT_KINDS:
                    counts[u.location] = counts.get(u.location, 0) + 1
        for place in sorted(looked):
            holder = state.control.get(place, "")
            if holder not in foes and not counts.get(place):
                continue
            colour, span = band(counts.get(place, 0))
            out[place] = Sighting(place, holder, colour, span, by=sorted(looked[place]))
    for e in events:  # 3.2.1.4: "the enemy units engaged in combat in a province, after the battles"
        if e.code == "spied-combat" and e.args.get("nation") in watchers and isinstance(e.args.get("place"), str):
            place = str(e.args["place"])
            out[place] = _exact_sighting(place, state.control.get(place, ""), _exact(e.args.get("units")),
                                         sorted(looked.get(place, ())))
    return [out[p] for p in sorted(out)]
