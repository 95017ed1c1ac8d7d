"""Problem: what an order's legality says about it, in codes and arguments, not words.

An order's home (moderator/engine/orders/) returns a Problem when the rules refuse the
order (severity "error"), or a list of them as remarks (a "warning" the player should
read, a "flag" for the moderator's review). The words live in templates/problems/*.toml
(one file per group of orders), keyed by code: the receipt and the report render the
same sentence, so a player reads one reason whether the checker or the engine refused
the order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

ERROR = "error"  # the order is refused
WARNING = "warning"  # kept; the player should look
FLAG = "flag"  # kept; the moderator reviews it
SEVERITIES = (ERROR, WARNING, FLAG)


@dataclass(frozen=True)
class Problem:
    code: str  # stable id, e.g. "not-adjacent"; the message catalogue's key
    args: dict[str, Any] = field(default_factory=dict)  # what the message names
    severity: str = ERROR
    at: str = ""  # the offending words as typed, so the receipt can point at them

    @property
    def refuses(self) -> bool:
        return self.severity == ERROR


def problem(code: str, at: str = "", **args: Any) -> Problem:
    """An error: the rules refuse the order."""
    return Problem(code, dict(args), ERROR, at)


def warning(code: str, at: str = "", **args: Any) -> Problem:
    return Problem(code, dict(args), WARNING, at)


def flag(code: str, at: str = "", **args: Any) -> Problem:
    """Kept, and sent to the moderator: legality or effect is the moderator's judgement."""
    return Problem(code, dict(args), FLAG, at)
