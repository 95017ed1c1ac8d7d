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

Exact numbers come only from a successful roll of passive or active reconnaissance or of
espionage: the engine's Phase 3.3 does not roll them yet (engine/phase3_recon.py), so
every sighting is a band; Sighting.units is where such a roll's result will go.
Reading (docs/rules-coverage.md): a nation's own report uses its own units only, so it
never depends on where its allies' units stand; the alliance report, which every member
receives, has the sightings of all members' units.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.engine.state import UNIT_KINDS, GameState
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

# 3.2.2.4: 0-5 black, 6-20 yellow, "over 21" red (21 itself read as red: no count is left out).
BANDS = ((5, "black", "0-5"), (20, "yellow", "6-20"), (None, "red", "21+"))


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
    units: dict[str, int] | None = None  # exact, where reconnaissance or espionage saw
    by: list[str] = field(default_factory=list)  # where the watchers stand

    @property
    def text(self) -> str:
        return f"{self.span} enemy units ({self.band})"


def _watching(scenario: Scenario, kind: str, at_sea: bool) -> bool:
    row = scenario.recon.get(kind)
    if row is None:
        return False
    return bool(row.passive_sea if at_sea else row.passive_land)


def sightings(state: GameState, scenario: Scenario, world: World, watchers: list[str]) -> list[Sighting]:
    """The enemy places the `watchers` nations' units look into, each with its band."""
    foes: set[str] = set()
    for n in watchers:
        foes |= set(state.nations[n].at_war_with)
    foes -= set(watchers)
    looked: dict[str, set[str]] = {}  # place -> where the watchers stand
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
    counts: dict[str, int] = {}
    for foe in sorted(foes):
        for u in state.nation_units(foe):
            if u.location in looked and u.kind in UNIT_KINDS:
                counts[u.location] = counts.get(u.location, 0) + 1
    out = []
    for place in sorted(looked):
        holder = state.control.get(place, "")
        if holder not in foes and not counts.get(place):
            continue
        colour, span = band(counts.get(place, 0))
        out.append(Sighting(place, holder, colour, span, by=sorted(looked[place])))
    return out
