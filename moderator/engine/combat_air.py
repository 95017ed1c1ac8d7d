"""Air combat (Phase 4.5): the air-combat value of fighters by technology level ("Fighters").

The rules print the table as one number per line; rebuilt here as rows "level of own
fighters" 0..4 by columns "level of enemy fighters" 0..4. The two worked examples in
the same section (tests/test_engine_examples.py) pin the reconstruction: a row reads
across the enemy's levels, so an older fighter loses value against a newer one.
Air combat happens inside the battles that start it: interception of bombing raids
(phase4_air.raid) and of attacking aircraft before a land battle's ground rounds
(combat_land.air_combat). Both read a plane's value here (dogfight_value).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from moderator.engine.context import Position
    from moderator.engine.state import Unit

MAX_LEVEL = 4
FIGHTER_TECH = "improved_fighters"
BOMBER_VALUE = 1  # Bombers: "giving all bombers a combat value of 1 in air combats"

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


def fighter_level(pos: Position, nation: str) -> int:
    """The nation's fighter technology level, the table's row or column (Improved Fighters)."""
    return min(pos.tech(nation, FIGHTER_TECH), MAX_LEVEL)


def dogfight_value(pos: Position, plane: Unit, enemy: str) -> int:
    """A plane's value in air combat against the fighters of `enemy` (4.5: bombers at 1)."""
    if plane.kind != "fighter":
        return BOMBER_VALUE
    return air_combat_value(fighter_level(pos, plane.nation), fighter_level(pos, enemy))
