"""Typed results of resolution. Words are the templates' job; the engine only says what happened."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Event:
    """One thing that happened during resolution.

    code: a stable identifier such as "battle", "moved", "income"; templates key on it.
    phase: the rules phase that produced it ("4.4", "8", ...).
    seen_by: nation ids that may learn of it; an empty tuple means public news.
    args: structured details (territories, units, losses, dice indexes).
    """

    code: str
    phase: str
    seen_by: tuple[str, ...] = ()
    args: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def visible_to(self, nation: str) -> bool:
        return not self.seen_by or nation in self.seen_by
