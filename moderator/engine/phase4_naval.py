"""Phase 4.2-4.3 at sea: the naval combat step, and the rules' functions it will use.

Rules, Phase 4.2: each ship (and aircraft) of the aggressive task force rolls its
aggressive factor on a D10; "If at least one ship in aggresive task force sights enemy
then the combat will occur". The enemy task force lowers every factor by its defensive
factor, which "is not cumulative, only higher value is taken"; an aggressive factor
"cannot be less then 1". Transports and carriers have no aggressive factor (N/A).
"Combat and engagement chance is calculated after each move" (guideline 4): the naval
step (phase4_sea.py) moves every task force point by point and rolls contact after each
move, and naval_combat.py fights the battles (4.3).

The orders of naval movement (4.2: task forces and missions, 4.2.9-4.2.10 submarine
detection and interception) have their homes in engine/orders/task_forces.py and
engine/orders/submarines.py; naval invasions (4.6.1) in engine/orders/naval_invasion.py;
submarine warfare (4.7) is engine/phase4_submarine_warfare.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.state import SEA_UNITS

SURFACE_SHIPS = frozenset(SEA_UNITS) - {"submarine"}

# Phase 4.2 table: kind -> (aggressive factor on D10, defensive factor against enemy TF).
# None is the table's N/A. Kind ids are engine/state.py's ("cruiser" = destroyers/cruisers).
# A carrier's defensive factor "depends of aircrafts on deck, base is 0": pass its
# aircraft as their own entries.
RECON_FACTORS: Mapping[str, tuple[int | None, int]] = {
    "carrier": (None, 0),
    "battleship": (3, 1),
    "cruiser": (5, 2),
    "submarine": (2, 1),
    "transport": (None, 0),
    "fighter": (2, 1),
    "bomber": (4, 2),
}
MIN_FACTOR = 1  # Phase 4.2: "aggresive factor cannot be less then 1"
RADAR_BONUS = 2  # Phase 4.2: "can be increased by two if radar unit is mounted"


def defensive_factor(task_force: Iterable[str]) -> int:
    """The task force's defensive factor: the highest of its members', not summed (Phase 4.2)."""
    return max((RECON_FACTORS[kind][1] for kind in task_force), default=0)


def aggressive_factors(task_force: Iterable[str], enemy: Iterable[str], radar: bool = False) -> list[int]:
    """Each member's sighting number on a D10 against `enemy` (Phase 4.2), in input order."""
    penalty = defensive_factor(enemy)
    bonus = RADAR_BONUS if radar else 0
    out = []
    for kind in task_force:
        base = RECON_FACTORS[kind][0]
        if base is not None:
            out.append(min(max(base + bonus - penalty, MIN_FACTOR), 10))
    return out


def contact_chance(factors: Iterable[int]) -> Fraction:
    """Chance that at least one roll of 1..factor on a D10 comes up: 1 - product(1 - f/10)."""
    miss = Fraction(1)
    for f in factors:
        miss *= 1 - Fraction(f, 10)
    return 1 - miss


def printed_percent(chance: Fraction) -> int:
    """The chance as the rules print it in the Phase 4.2 example: whole percent, rounded down."""
    return int(chance * 100)


def engages(factors: Iterable[int], dice: Dice, purpose: str) -> bool:
    """Roll the sighting: one D10 per factor, contact if any roll is at or under its factor.

    Every member rolls even after a sighting so the logged dice do not depend on order.
    """
    hits = [dice.chance(f, f"{purpose}: sighting {i + 1}") for i, f in enumerate(factors)]
    return any(hits)


def naval_combat(ctx: TurnContext) -> None:
    """Phases 4.2-4.3: the task forces the orders of step 4.2 planned move point by point,
    with contact and naval combat after each move (guideline 4), in phase4_sea."""
    from moderator.engine import phase4_sea  # it uses this module's recon factors

    phase4_sea.naval_movement(ctx)
