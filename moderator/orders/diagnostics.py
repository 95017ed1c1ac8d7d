"""Diagnostics: every problem found in a player's orders, with where and why.

Severities (issue 4): "error" = the order is dropped; "warning" = kept, the player
should look; "flag" = kept and sent to the moderator's review queue because its
legality depends on the moderator's judgement.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

ERROR = "error"
WARNING = "warning"
FLAG = "flag"
SEVERITIES = (ERROR, WARNING, FLAG)


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "flag"
    line: int
    column: int
    text: str  # the offending text, as typed
    message: str  # plain-English reason and how to fix it
    code: str  # stable id, e.g. "syntax", "unknown-territory"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def render(self) -> str:
        where = f"line {self.line}, column {self.column}" if self.line else "orders"
        quoted = f' "{self.text}"' if self.text else ""
        return f"{where}: {self.severity}:{quoted}: {self.message} [{self.code}]"


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity == ERROR for d in diagnostics)
