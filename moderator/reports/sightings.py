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
  industry or ports);
- a place the audience's side holds with no enemy in it now is not reported, whatever
  Phase 3.3 recorded there before the turn's conquests.

Exact numbers come from a roll: Phase 3.3 (engine/phase3_passive_recon.py) rolls passive
reconnaissance for each group of allies at war and records, in every member's
NationState.flags["recon"], each place it looked into: the exact troops on a hit, the band on
a miss, a false band where the enemy masked it (3.2.2.4). A place the audience's units look
into shows that record's entry where it has one (the band of a masked place is the false
one: the report never tells more than the roll did), the exact enemy units a combat
espionage of the audience watched there (3.2.1.4, the "spied-combat" event), else the band
computed from the position as above.
Reading (docs/rules-coverage.md): the places are those the audience's own units look into
as they stand after the turn (a nation's report: its own units; the alliance report: all
members'), so a report never shows a place none of its readers' units borders.
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
    units: dict[str, int] | None = None  # exact (kind -> count), where reconnaissance or espionage saw
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


def _exact(units: object) -> dict[str, int]:
    """kind -> count of the troops an engine record or event names (nation -> kind -> count),
    the enemy nations summed: the place's holder is named beside them."""
    out: dict[str, int] = {}
    if isinstance(units, dict):
        for _, kinds in sorted(units.items()):
            if isinstance(kinds, dict):
                for k, n in sorted(kinds.items()):
                    if k in UNIT_KINDS and int(n) > 0:
                        out[k] = out.get(k, 0) + int(n)
    return dict(sorted(out.items()))


def _exact_sighting(place: str, holder: str, units: dict[str, int], by: list[str]) -> Sighting:
    colour, span = band(sum(units.values()))
    return Sighting(place, holder, colour, span, units=units, by=by)


def sightings(state: GameState, scenario: Scenario, world: World, watchers: list[str],
              events: Iterable[Event] = ()) -> list[Sighting]:
    """The enemy places the `watchers` nations' units look into (as they stand after the
    turn), each with what is known there: the Phase 3.3 record's entry where it has the
    place (exact troops, or the recorded band), the exact units a combat espionage of
    theirs watched there (`events`: those the audience may see), else the band computed
    from the position."""
    looked = _looked(state, scenario, world, watchers)
    record = _recorded(state, watchers) or {}
    spied: dict[str, dict[str, int]] = {}
    for e in events:  # 3.2.1.4: "the enemy units engaged in combat in a province, after the battles"
        if e.code == "spied-combat" and e.args.get("nation") in watchers and isinstance(e.args.get("place"), str):
            spied[str(e.args["place"])] = _exact(e.args.get("units"))
    foes: set[str] = set()
    for n in watchers:
        foes |= set(state.nations[n].at_war_with)
    foes -= set(watchers)
    counts: dict[str, int] = {}
    for foe in sorted(foes):
        for u in state.nation_units(foe):
            if u.location in looked and u.kind in UNIT_KINDS:
                counts[u.location] = counts.get(u.location, 0) + 1
    out = []
    for place in sorted(looked):
        holder, by = state.control.get(place, ""), sorted(looked[place])
        entry = record.get(place)
        if place not in spied and not counts.get(place) and any(state.allies(holder, n) for n in watchers):
            # Phase 3.3 looked before Phase 4's conquests: a recorded look at land the
            # side now holds, with no enemy left there, is stale (Germany's report
            # listed its own Liege as "0-5 enemy units"). Enemies standing in the side's
            # own land are still reported.
            continue
        if place in spied:
            out.append(_exact_sighting(place, holder, spied[place], by))
        elif entry is not None and entry.get("seen") == "exact":
            out.append(_exact_sighting(place, holder, _exact(entry.get("units")), by))
        elif entry is not None:
            colour = str(entry.get("band", "black"))
            out.append(Sighting(place, holder, colour, SPANS.get(colour, "0-5"), by=by))
        elif holder in foes or counts.get(place):
            colour, span = band(counts.get(place, 0))
            out.append(Sighting(place, holder, colour, span, by=by))
    return out
