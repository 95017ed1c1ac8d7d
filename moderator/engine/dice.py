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

Verifiable dice (scheme 2, docs/dice.md). Each turn has its own seed, derived from the
game's secret seed by HMAC, whose SHA-256 is published before the turn's orders are due
(the commitment) and which is revealed with the results; every die of the turn is then a
public function of that seed, the step and the draw's index in the step's stream:

    turn_seed  = HMAC-SHA256(key=game seed, msg="turn-<N>")              (64 hex digits)
    commitment = SHA-256(turn_seed)
    draw k of step S = low + (first 8 bytes of HMAC-SHA256(key=turn_seed, msg="<S>/<k>"),
                              big-endian) mod (high - low + 1)

so anyone with the revealed seed recomputes every roll, and nobody, the moderator
included, could have chosen them after seeing the orders. Revealing a turn's seed tells
nothing of the next turn's (HMAC is one-way). The modulo's bias is below 1e-18.

Scheme 1 (random.Random seeded with "<seed>/turn-<N>/step-<S>") is how turns were rolled
before; turns stored with it are replayed with it (TurnRecord.dice_scheme).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True, init=False)
class Roll:
    """One recorded roll: what was rolled, why, in which step, and what came up."""

    index: int
    purpose: str
    dice: str  # e.g. "1D10", "2D10", "0-5", "choice/3"
    result: int
    step: str = ""  # the rules section of the step that rolled ("4.6")

    def __init__(self, index: int, purpose: str, dice: str, result: int, step: str = "") -> None:
        # One update of the dict instead of the frozen dataclass's object.__setattr__ per
        # field: half the cost, a roll logged for each of some 280 dice a turn (issue 14).
        self.__dict__.update(index=index, purpose=purpose, dice=dice, result=result, step=step)

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "step": self.step, "purpose": self.purpose, "dice": self.dice,
                "result": self.result}


_new = object.__new__
_set = object.__setattr__

LEGACY_SCHEME = 1  # random.Random per turn and step: turns stored before verifiable dice
VERIFIABLE_SCHEME = 2  # HMAC-SHA256 of the turn's committed seed, the step and the index
DICE_SCHEME = VERIFIABLE_SCHEME  # what new turns are rolled with


def turn_seed(game_seed: str, turn: int) -> str:
    """The seed of one turn's dice (scheme 2): revealed with the turn's results."""
    return hmac.new(game_seed.encode(), f"turn-{turn}".encode(), hashlib.sha256).hexdigest()


def commitment(seed_of_turn: str) -> str:
    """What is published before the turn: the SHA-256 of its seed (hex)."""
    return hashlib.sha256(seed_of_turn.encode()).hexdigest()


_Keyed = tuple["hashlib._Hash", "hashlib._Hash"]
_KEYED: dict[str, _Keyed] = {}  # turn seed -> the HMAC's inner and outer hashes keyed with it
_BLOCK = 64  # SHA-256's block size in bytes: the HMAC key is padded (or first hashed) to it


def _keyed(seed_of_turn: str) -> _Keyed:
    """HMAC-SHA256 keyed with the turn's seed, as RFC 2104 defines it: SHA-256 of
    (key ^ opad) + SHA-256 of (key ^ ipad) + message. Both hashes start keyed here, and
    each draw copies them: the same digest as hmac.new (tests/test_verifiable_dice.py
    checks it against hmac), without the hmac module's Python wrapper around every copy,
    update and digest (a turn draws some 280 dice: issue 14, the engine's cost)."""
    key = seed_of_turn.encode()
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    return (hashlib.sha256(bytes(b ^ 0x36 for b in key)), hashlib.sha256(bytes(b ^ 0x5C for b in key)))


def draw(seed_of_turn: str, step: str, index: int, low: int, high: int) -> int:
    """Draw `index` (0, 1, ...) of step `step`'s stream: a whole number low..high (scheme 2):
    HMAC-SHA256(turn seed, "step/index"), its first 8 bytes as a number, modulo the range."""
    keyed = _KEYED.get(seed_of_turn)
    if keyed is None:
        if len(_KEYED) > 64:
            _KEYED.clear()
        keyed = _KEYED[seed_of_turn] = _keyed(seed_of_turn)
    inner, outer = keyed[0].copy(), keyed[1].copy()
    inner.update(f"{step}/{index}".encode())
    outer.update(inner.digest())
    return low + int.from_bytes(outer.digest()[:8], "big") % (high - low + 1)


class Dice:
    """Seeded dice with an audit log.

    Scheme 2 (the default): every draw is draw(turn_seed(seed, turn), step, k), k counting
    the draws of the step's stream. Scheme 1: the seed string hashed by random.Random
    (version 2 seeding), stable across Python versions and platforms. Either way the same
    seed, turn and step give the same rolls. The root object (step "") is what the service
    creates; steps roll on `for_step(section)`, which shares the root's log.
    """

    def __init__(self, seed: str, turn: int, *, step: str = "", log: list[Roll] | None = None,
                 scheme: int = DICE_SCHEME) -> None:
        if scheme not in (LEGACY_SCHEME, VERIFIABLE_SCHEME):
            raise ValueError(f"unknown dice scheme {scheme}")
        self._seed, self._turn, self.step, self.scheme = seed, turn, step, scheme
        suffix = f"/step-{step}" if step else ""
        self._rng = random.Random(f"{seed}/turn-{turn}{suffix}") if scheme == LEGACY_SCHEME else None
        self._turn_seed = turn_seed(seed, turn) if scheme == VERIFIABLE_SCHEME else ""
        self._draws = 0  # draws made from this stream (scheme 2's index)
        self.log: list[Roll] = log if log is not None else []
        self._steps: dict[str, Dice] = {}

    @property
    def seed_of_turn(self) -> str:
        """The turn's seed to reveal with its results ("" for scheme 1, which has none)."""
        return self._turn_seed

    def for_step(self, section: str) -> Dice:
        """The stream of one phase step (same object on every call for that section)."""
        if section not in self._steps:
            self._steps[section] = self._child(section)
        return self._steps[section]

    def _child(self, section: str) -> Dice:
        return Dice(self._seed, self._turn, step=section, log=self.log, scheme=self.scheme)

    def _record(self, purpose: str, dice: str, result: int) -> int:
        # Roll(len(log), purpose, dice, result, step), its fields set at once without the
        # call of __init__ (a roll logged for each of some 280 dice a turn: issue 14)
        log = self.log
        roll = _new(Roll)
        _set(roll, "__dict__", {"index": len(log), "purpose": purpose, "dice": dice, "result": result,
                                "step": self.step})
        log.append(roll)
        return result

    def _int(self, low: int, high: int, purpose: str) -> int:
        if self._rng is not None:
            return self._rng.randint(low, high)
        index, self._draws = self._draws, self._draws + 1
        return draw(self._turn_seed, self.step, index, low, high)

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


def recompute(seed_of_turn: str, rolls: Sequence[Mapping[str, object]]) -> list[int | None]:
    """What each logged roll (Roll.to_json()) of a scheme-2 turn must have come up, from the
    revealed seed alone: the draws of each step counted in the order rolled; None for a roll
    made by hand (a ruling), which no seed decides. `moderator verify` compares these with the
    stored log."""
    draws: dict[str, int] = {}
    out: list[int | None] = []

    def take(step: str, low: int, high: int) -> int:
        index = draws.get(step, 0)
        draws[step] = index + 1
        return draw(seed_of_turn, step, index, low, high)

    for roll in rolls:
        step, spec = str(roll.get("step", "")), str(roll["dice"])
        if spec.startswith("choice/"):
            out.append(take(step, 0, int(spec.removeprefix("choice/")) - 1))
        elif "D" in spec and spec.replace("D", "").isdigit():
            count, sides = (int(x) for x in spec.split("D"))
            out.append(sum(take(step, 1, sides) for _ in range(count)))
        elif "-" in spec and spec.replace("-", "").isdigit():
            low, high = (int(x) for x in spec.split("-"))
            out.append(take(step, low, high))
        else:  # "by hand": the moderator's own roll
            out.append(None)
    return out
