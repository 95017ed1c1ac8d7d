"""A clock a test moves by hand (Service(clock=...)): `now` is what the service reads."""

from __future__ import annotations

from datetime import UTC, datetime


class Clock:
    def __init__(self, now: datetime | None = None) -> None:
        self.now = now or datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now
