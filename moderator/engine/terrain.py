"""Special territories of the map that change land movement and combat.

Switzerland: neither artillery nor aircraft with fuel under 5 may enter; infantry there
defend at 8; no aircraft may land. Afghanistan, Tibet: only infantry may enter; infantry
there defend at 7. Gibraltar: each defending infantry rolls 3 dice (still one hit each).
The rules name these territories, so they are keyed by name; a map without them simply
has no special terrain. Not yet: Afghanistan's rebellion roll.
"""

from __future__ import annotations

from moderator.world.scenario_model import Scenario

INFANTRY_DEFENSE = {"Switzerland": 8, "Afghanistan": 7, "Tibet": 7}
INFANTRY_ONLY = frozenset({"Afghanistan", "Tibet"})
FORTRESS_DICE = {"Gibraltar": 3}
AIRCRAFT = frozenset({"fighter", "bomber"})
SWISS_MIN_FUEL = 5


def may_enter(scenario: Scenario, nation: str, kind: str, territory: str) -> bool:
    if territory in INFANTRY_ONLY:
        return kind == "infantry"
    if territory == "Switzerland":
        if kind == "artillery":
            return False
        if kind in AIRCRAFT:
            return scenario.stats(nation, kind).fuel >= SWISS_MIN_FUEL
    return True


def defense(territory: str, kind: str, base: int) -> int:
    if kind == "infantry" and territory in INFANTRY_DEFENSE:
        return INFANTRY_DEFENSE[territory]
    return base


def defense_dice(territory: str, kind: str) -> int:
    return FORTRESS_DICE.get(territory, 1) if kind == "infantry" else 1
