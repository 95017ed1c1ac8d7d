"""Phase 9: Special Rules Resolution."""

from __future__ import annotations

from moderator.engine.context import TurnContext


def special_rules(ctx: TurnContext) -> None:
    """Phase 9 (Russian revolution, starvation, US entry roll, neutral points): not implemented yet."""
