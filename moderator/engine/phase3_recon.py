"""Reconnaissance chances (Phase 3.3).

Passive recon: every allied unit next to an enemy province (or in the same sea zone)
has a base chance (the Phase 3.3 table) to see the exact enemy deployment. Units
behind one border combine as independent tries, 1 - product(1 - Bi); a trench across
that border halves the border's chance and a super trench quarters it ("Trenches can
decrease effectiveness of reconaissance by 50% and supertrenches by 75% ... for
provinces with trenches the maximum is 50%"); the borders then combine as independent
tries again. This is the rules' formula C = 1 - Pc(1-Bi) * Pt(...) * Ps(...), read so
that both worked examples and the 50%/25% maxima hold (tests/test_engine_examples.py).

Chances are exact fractions (percent / 100) so printed percentages can be checked
without float noise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from moderator.engine.dice import Dice

LAND = "land"
SEA = "sea"

OPEN = "open"
TRENCH = "trench"
SUPER_TRENCH = "super_trench"
# Phase 3.3: trenches keep 50% of the effectiveness, super trenches 25%.
COVER_FACTOR: Mapping[str, Fraction] = {
    OPEN: Fraction(1),
    TRENCH: Fraction(1, 2),
    SUPER_TRENCH: Fraction(1, 4),
}

# Phase 3.3 table, percent: kind -> (passive land, active land, passive sea, active sea).
# None is the table's "n/a" (cannot recon there). Kind ids are engine/state.py's;
# "cruiser" is the rules' "Destroyers/Cruisers".
RECON_TABLE: Mapping[str, tuple[int | None, int | None, int | None, int | None]] = {
    "infantry": (10, 50, 5, None),
    "artillery": (None, None, None, None),
    "tank": (5, 25, 5, None),
    "trench": (5, None, None, None),  # "alone, without other units present"
    "aa": (None, None, None, None),
    "rocket": (None, None, None, None),
    "battleship": (5, None, 30, 50),
    "cruiser": (5, None, 50, 80),
    "transport": (None, None, None, None),
    "carrier": (5, None, 30, None),
    "submarine": (None, None, 20, 40),
    "fighter": (10, 80, 5, 20),
    "bomber": (10, 80, 5, 50),
}

# Phase 3.3: "Land units in recon mission have 5 times basic chance for success, air units
# 8 times, and ships three times". The table's land column follows this; its sea column
# does not (e.g. destroyers 50% -> 80%, not 150%), so the table's figures are used.
MISSION_MULTIPLIER = {"land_unit": 5, "air": 8, "ship": 3}


def base_chance(kind: str, where: str = LAND, active: bool = False) -> Fraction:
    """One unit's recon chance from the Phase 3.3 table (0 where the table says n/a)."""
    passive_land, active_land, passive_sea, active_sea = RECON_TABLE[kind]
    pick = {
        (LAND, False): passive_land,
        (LAND, True): active_land,
        (SEA, False): passive_sea,
        (SEA, True): active_sea,
    }[(where, active)]
    return Fraction(pick or 0, 100)


def any_hit(chances: Iterable[Fraction]) -> Fraction:
    """Chance that at least one of independent tries succeeds: 1 - product(1 - c)."""
    miss = Fraction(1)
    for c in chances:
        miss *= 1 - c
    return 1 - miss


def border_chance(units: Mapping[str, int], cover: str = OPEN, where: str = LAND) -> Fraction:
    """Passive recon chance of the units behind one border (Phase 3.3), after the target's cover."""
    tries = [base_chance(kind, where) for kind in sorted(units) for _ in range(units[kind])]
    return COVER_FACTOR[cover] * any_hit(tries)


def recon_chance(borders: Iterable[tuple[Mapping[str, int], str]], where: str = LAND) -> Fraction:
    """Combined passive recon chance over several borders, each (units, cover) (Phase 3.3)."""
    return any_hit(border_chance(units, cover, where) for units, cover in borders)


def percent(chance: Fraction) -> int:
    """A chance as the nearest whole percent, as the rules print it."""
    return int(chance * 100 + Fraction(1, 2))


def roll_recon(chance: Fraction, dice: Dice, purpose: str) -> bool:
    """Roll a recon chance with the turn's dice: a 1..1000 draw at or under chance*1000.

    Recon chances are products of the table's percentages, so a D10 cannot express them;
    a per-mille draw keeps the roll logged and is exact to 0.1%.
    """
    return dice.between(1, 1000, purpose) <= int(chance * 1000)
