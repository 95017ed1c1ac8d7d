"""The one source of randomness for a turn, one stream per phase step.

Every roll goes through a Dice object built from the game's secret seed and the turn
number, and every roll is recorded with its purpose and its step, so a turn can be
audited and replayed byte for byte (design.md, "Rules for the engine").

Each phase step draws from its own stream, `dice.for_step("4.6")`, seeded from the
seed, the turn and the step's rules section. Adding or changing one step therefore never
shifts the rolls of another: the revolution roll of Phase 9 is the same whether or not
a battle was fought in Phase 4. All streams write to one log, in the order rolled.

ScriptedDice replays given results instead of random ones (the resolution catalog and
the moderator's "record a roll made by hand" use it); an unscripted roll is an error,
so a catalog case states every die it relies on.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Roll:
    """One recorded roll: what was rolled, why, in which step, and what came up."""

    index: int
    purpose: str
    dice: str  # e.g. "1D10", "2D10", "0-5", "choice/3"
    result: int
    step: str = ""  # the rules section of the step that rolled ("4.6")

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "step": self.step, "purpose": self.purpose, "dice": self.dice,
                "result": self.result}


class Dice:
    """Seeded dice with an audit log.

    The seed string is hashed by random.Random (version 2 seeding), which is stable
    across Python versions and platforms, so the same seed, turn and step give the same
    rolls. The root object (step "") is what the service creates; steps roll on
    `for_step(section)`, which shares the root's log.
    """

    def __init__(self, seed: str, turn: int, *, step: str = "", log: list[Roll] | None = None) -> None:
        self._seed, self._turn, self.step = seed, turn, step
        suffix = f"/step-{step}" if step else ""
        self._rng = random.Random(f"{seed}/turn-{turn}{suffix}")
        self.log: list[Roll] = log if log is not None else []
        self._steps: dict[str, Dice] = {}

    def for_step(self, section: str) -> Dice:
        """The stream of one phase step (same object on every call for that section)."""
        if section not in self._steps:
            self._steps[section] = self._child(section)
        return self._steps[section]

    def _child(self, section: str) -> Dice:
        return Dice(self._seed, self._turn, step=section, log=self.log)

    def _record(self, purpose: str, dice: str, result: int) -> int:
        self.log.append(Roll(len(self.log), purpose, dice, result, self.step))
        return result

    def _int(self, low: int, high: int, purpose: str) -> int:
        return self._rng.randint(low, high)

    def d10(self, purpose: str) -> int:
        """One ten-sided die, 1..10: the game's basic roll."""
        return self._record(purpose, "1D10", self._int(1, 10, purpose))

    def roll(self, count: int, sides: int, purpose: str) -> int:
        """Sum of `count` dice with `sides` sides (e.g. 2D10 for the propaganda rolls)."""
        total = sum(self._int(1, sides, purpose) for _ in range(count))
        return self._record(purpose, f"{count}D{sides}", total)

    def between(self, low: int, high: int, purpose: str) -> int:
        """A random whole number from low to high inclusive: the rules' "0-5 points"."""
        return self._record(purpose, f"{low}-{high}", self._int(low, high, purpose))

    def chance(self, in_ten: int, purpose: str) -> bool:
        """True with probability in_ten/10, rolled as 1..in_ten on one D10."""
        return self.d10(purpose) <= in_ten

    def by_hand(self, purpose: str, result: int, dice: str = "by hand") -> int:
        """A roll the moderator made by hand (a ruling): logged like any other."""
        return self._record(purpose, dice, result)

    def pick(self, options: Sequence[T], purpose: str) -> T:
        """Choose one of `options` (which the caller must have sorted) uniformly."""
        if not options:
            raise ValueError("pick() from an empty sequence")
        i = self._int(0, len(options) - 1, purpose)
        self._record(purpose, f"choice/{len(options)}", i)
        return options[i]


class DiceScriptError(LookupError):
    """A scripted roll is missing, out of range, or left unused."""


ANY_STEP = "*"


class ScriptedDice(Dice):
    """Dice whose results are given per step: {"4.6": [3, 7, 10], "9": [1]}, or as one
    list that every step draws from in the order rolled.

    Each roll takes the next number of its step's list (a sum for roll(), the index for
    pick()). Running out, or a number outside the roll's range, raises DiceScriptError.
    """

    def __init__(self, script: Mapping[str, Sequence[int]] | Sequence[int], turn: int = 0, *, step: str = "",
                 log: list[Roll] | None = None, _left: dict[str, list[int]] | None = None) -> None:
        super().__init__("scripted", turn, step=step, log=log)
        if _left is not None:
            self._left = _left
        elif isinstance(script, Mapping):
            self._left = {k: list(v) for k, v in script.items()}
        else:
            self._left = {ANY_STEP: list(script)}

    def _child(self, section: str) -> Dice:
        return ScriptedDice({}, self._turn, step=section, log=self.log, _left=self._left)

    def _int(self, low: int, high: int, purpose: str) -> int:
        queue = self._left.get(ANY_STEP) if ANY_STEP in self._left else self._left.get(self.step)
        if not queue:
            raise DiceScriptError(f"no scripted roll left for step {self.step or '(none)'}: {purpose}")
        value = queue.pop(0)
        if not low <= value <= high:
            raise DiceScriptError(f"scripted roll {value} for {purpose} is outside {low}-{high}")
        return value

    def roll(self, count: int, sides: int, purpose: str) -> int:
        # A scripted total stands for the whole roll (the rules read the sum).
        return self._record(purpose, f"{count}D{sides}", self._int(count, count * sides, purpose))

    def unused(self) -> dict[str, list[int]]:
        """Scripted results nobody rolled (a catalog case must use them all)."""
        return {k: v for k, v in sorted(self._left.items()) if v}


class NoDice(Dice):
    """The checker's dice: legality never depends on luck, so any roll is a bug."""

    def __init__(self) -> None:
        super().__init__("no-dice", 0)

    def _child(self, section: str) -> Dice:
        return self

    def _int(self, low: int, high: int, purpose: str) -> int:
        raise RuntimeError(f"the order checker tried to roll a die ({purpose})")
