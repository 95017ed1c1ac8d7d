"""Air combat (Phase 4.5): the air-combat value of fighters by technology level ("Fighters").

The rules print the table as one number per line; rebuilt here as rows "level of own
fighters" 0..4 by columns "level of enemy fighters" 0..4. The two worked examples in
the same section (tests/test_engine_examples.py) pin the reconstruction: a row reads
across the enemy's levels, so an older fighter loses value against a newer one.
Air combat happens inside the battles that start it: interception of bombing raids
(phase4_air.raid) and of attacking aircraft before a land battle's ground rounds
(combat_land.air_combat). Both read a plane's value here (dogfight_value).

Whose level: a fighter's row is its own level, the level its kind was last upgraded to or
it was built at (engine/technology.py), as for every other value of the unit: Phase 2.1
"If the new technology is to be applied to existing units then nation must spend ...".
The column is the highest level among the fighters it fights (0 against bombers alone).
Radar on land: "Enemy planes receive -1 to their attack when radar is present"
(radar_against; never below 1).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moderator.engine.context import Position
    from moderator.engine.state import Unit

MAX_LEVEL = 4
FIGHTER_TECH = "improved_fighters"
BOMBER_VALUE = 1  # Bombers: "giving all bombers a combat value of 1 in air combats"
RADAR_PENALTY = 1  # Radar: "Enemy planes receive -1 to their attack when radar is present"

# Rules, "Fighters": own level (row) against enemy level (column).
AIR_COMBAT_VALUE: tuple[tuple[int, ...], ...] = (
    (2, 1, 1, 1, 1),
    (2, 2, 1, 1, 1),
    (2, 2, 2, 1, 1),
    (2, 2, 2, 2, 2),
    (3, 3, 3, 3, 3),
)


def air_combat_value(own_level: int, enemy_level: int) -> int:
    """Attack value in air combat of a fighter of `own_level` against `enemy_level` ("Fighters")."""
    for level in (own_level, enemy_level):
        if not 0 <= level <= MAX_LEVEL:
            raise ValueError(f"fighter level {level} is outside 0..{MAX_LEVEL}")
    return AIR_COMBAT_VALUE[own_level][enemy_level]


def dogfight_values(level_a: int, level_b: int) -> tuple[int, int]:
    """Both sides' air-combat values when fighters of level_a meet fighters of level_b."""
    return air_combat_value(level_a, level_b), air_combat_value(level_b, level_a)


def plane_level(pos: Position, plane: Unit) -> int:
    """The plane's own Improved Fighters level, the table's row: the level its kind was last
    upgraded to or it was built at (engine/technology.py), not the nation's newest. Phase
    2.1: "If the new technology is to be applied to existing units then nation must spend
    ..."; Phase 2.2: "units will not be upgraded until phase 7". Bombers have none (0)."""
    if plane.kind != "fighter":
        return 0
    from moderator.engine import technology  # technology reads a Position

    return min(technology.unit_levels(pos, plane).get(FIGHTER_TECH, 0), MAX_LEVEL)


def enemy_level(pos: Position, planes: Iterable[Unit]) -> int:
    """The table's column for those who fight `planes`: the highest level among their
    fighters (a reading), 0 when they are bombers alone (bombers are no fighters of any
    level: "giving all bombers a combat value of 1 in air combats")."""
    return max((plane_level(pos, u) for u in planes if u.kind == "fighter"), default=0)


def dogfight_value(pos: Position, plane: Unit, against: int, radar: bool = False) -> int:
    """A plane's value in air combat against fighters of level `against` (4.5: bombers at
    1). radar: a radar of the other side stands where they fight (Radar: "Enemy planes
    receive -1 to their attack when radar is present"), never below 1 (the floor of every
    penalty to attacking units, 4.6 and Trenches)."""
    value = BOMBER_VALUE if plane.kind != "fighter" else air_combat_value(plane_level(pos, plane), against)
    return max(1, value - RADAR_PENALTY) if radar else value


def radar_against(pos: Position, territory: str, nation: str) -> bool:
    """A radar unit stands in `territory` for a nation at war with `nation`: its planes
    fighting there have -1 (Radar: "Enemy planes receive -1 to their attack when radar is
    present"; Phase 7 rule 7: "Radar unit can be placed on any territory")."""
    return any(u.kind == "radar" and pos.at_war(nation, u.nation) for u in pos.units_at(territory))
