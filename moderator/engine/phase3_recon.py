"""Phase 3.3: Reconnaissance, the rules' chances (the step, passive recon rolled, is
phase3_passive_recon; active missions are the RECON home's, engine/orders/recon.py).

The base chance of each unit is the scenario's table (scenarios/<name>/recon.toml,
Scenario.recon: "The base recon chance for each unit is shown in the following table").
The RECON order's home (engine/orders/recon.py) reads the table's active columns to say
which units may fly or go on a mission; the missions themselves go to the moderator.

Passive recon: every allied unit next to an enemy province (or in the same sea zone)
has a base chance to see the exact enemy deployment. Units behind one border combine
as independent tries, 1 - product(1 - Bi); a trench across that border halves the
border's chance and a super trench quarters it ("Trenches can decrease effectiveness of
reconaissance by 50% and supertrenches by 75% ... for provinces with trenches the
maximum is 50%"); the borders then combine as independent tries again. This is the
rules' formula C = 1 - Pc(1-Bi) * Pt(...) * Ps(...), read so that both worked examples
and the 50%/25% maxima hold (tests/test_engine_examples.py).

Chances are exact fractions (percent / 100) so printed percentages can be checked
without float noise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from moderator.engine.dice import Dice
from moderator.world.scenario_model import ReconChances

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

# Phase 3.3: "Land units in recon mission have 5 times basic chance for success, air units
# 8 times, and ships three times". The table's land column follows this; its sea column
# does not (e.g. destroyers 50% -> 80%, not 150%), so the table's figures are used.
MISSION_MULTIPLIER = {"land_unit": 5, "air": 8, "ship": 3}

Table = Mapping[str, ReconChances]


def percent_in_table(table: Table, kind: str, where: str = LAND, active: bool = False) -> int | None:
    """The table's entry for one unit kind, in percent; None is the table's "n/a"."""
    row = table.get(kind)
    if row is None:
        return None
    if where == LAND:
        return row.active_land if active else row.passive_land
    return row.active_sea if active else row.passive_sea


def base_chance(table: Table, kind: str, where: str = LAND, active: bool = False) -> Fraction:
    """One unit's recon chance from the Phase 3.3 table (0 where the table says n/a)."""
    return Fraction(percent_in_table(table, kind, where, active) or 0, 100)


def any_hit(chances: Iterable[Fraction]) -> Fraction:
    """Chance that at least one of independent tries succeeds: 1 - product(1 - c).

    The product is taken in whole numbers (numerators and denominators) and made a Fraction
    once: the same exact value as Fraction arithmetic step by step, which reduced every
    partial product and was a third of the passive reconnaissance step (issue 14)."""
    miss, out_of = 1, 1
    for c in chances:
        miss *= c.denominator - c.numerator
        out_of *= c.denominator
    return Fraction(out_of - miss, out_of)


_BORDERS: dict[tuple[int, tuple[tuple[str, int], ...], str, str], tuple[Table, Fraction]] = {}


def border_chance(table: Table, units: Mapping[str, int], cover: str = OPEN, where: str = LAND) -> Fraction:
    """Passive recon chance of the units behind one border (Phase 3.3), after the target's cover.
    Asked for every border of every front each turn, mostly with the same few stacks, so the
    answers are kept per table (the entry holds the table: its id cannot be reused meanwhile)."""
    key = (id(table), tuple(sorted(units.items())), cover, where)
    hit = _BORDERS.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    tries = [base_chance(table, kind, where) for kind in sorted(units) for _ in range(units[kind])]
    found = COVER_FACTOR[cover] * any_hit(tries)
    if len(_BORDERS) > 4096:
        _BORDERS.clear()
    _BORDERS[key] = (table, found)
    return found


def recon_chance(table: Table, borders: Iterable[tuple[Mapping[str, int], str]], where: str = LAND) -> Fraction:
    """Combined passive recon chance over several borders, each (units, cover) (Phase 3.3)."""
    return any_hit(border_chance(table, units, cover, where) for units, cover in borders)


def _truncated(numerator: int, denominator: int) -> int:
    """int() of numerator / denominator (denominator > 0): toward zero, as int(Fraction) is,
    without making the Fraction (asked for every look of every turn)."""
    whole = abs(numerator) // denominator
    return whole if numerator >= 0 else -whole


def percent(chance: Fraction) -> int:
    """A chance as the nearest whole percent, as the rules print it: int(chance * 100 + 1/2)."""
    return _truncated(200 * chance.numerator + chance.denominator, 2 * chance.denominator)


def roll_recon(chance: Fraction, dice: Dice, purpose: str) -> bool:
    """Roll a recon chance with the turn's dice: a 1..1000 draw at or under chance*1000.

    Recon chances are products of the table's percentages, so a D10 cannot express them;
    a per-mille draw keeps the roll logged and is exact to 0.1%.
    """
    return dice.between(1, 1000, purpose) <= _truncated(1000 * chance.numerator, chance.denominator)  # int(chance * 1000)

