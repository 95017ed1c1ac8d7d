"""The one source of randomness for a turn.

Every roll goes through a Dice object built from the game's secret seed and the turn
number, and every roll is recorded with its purpose, so a turn can be audited and
replayed byte for byte (design.md, "Rules for the engine").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Roll:
    """One recorded roll: what was rolled, why, and what came up."""

    index: int
    purpose: str
    dice: str  # e.g. "1D10", "2D10", "0-5", "choice/3"
    result: int

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "purpose": self.purpose, "dice": self.dice, "result": self.result}


class Dice:
    """Seeded dice with an audit log.

    The seed string is hashed by random.Random (version 2 seeding), which is stable
    across Python versions and platforms, so the same seed and turn give the same rolls.
    """

    def __init__(self, seed: str, turn: int) -> None:
        self._rng = random.Random(f"{seed}/turn-{turn}")
        self.log: list[Roll] = []

    def _record(self, purpose: str, dice: str, result: int) -> int:
        self.log.append(Roll(len(self.log), purpose, dice, result))
        return result

    def d10(self, purpose: str) -> int:
        """One ten-sided die, 1..10: the game's basic roll."""
        return self._record(purpose, "1D10", self._rng.randint(1, 10))

    def roll(self, count: int, sides: int, purpose: str) -> int:
        """Sum of `count` dice with `sides` sides (e.g. 2D10 for the propaganda rolls)."""
        total = sum(self._rng.randint(1, sides) for _ in range(count))
        return self._record(purpose, f"{count}D{sides}", total)

    def between(self, low: int, high: int, purpose: str) -> int:
        """A random whole number from low to high inclusive: the rules' "0-5 points"."""
        return self._record(purpose, f"{low}-{high}", self._rng.randint(low, high))

    def chance(self, in_ten: int, purpose: str) -> bool:
        """True with probability in_ten/10, rolled as 1..in_ten on one D10."""
        return self.d10(purpose) <= in_ten

    def pick(self, options: Sequence[T], purpose: str) -> T:
        """Choose one of `options` (which the caller must have sorted) uniformly."""
        if not options:
            raise ValueError("pick() from an empty sequence")
        i = self._rng.randrange(len(options))
        self._record(purpose, f"choice/{len(options)}", i)
        return options[i]
