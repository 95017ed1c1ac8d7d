"""Phase 2: Technology."""

from __future__ import annotations

from moderator.engine.context import TurnContext


def research(ctx: TurnContext) -> None:
    """Phase 2.1 (research of technology): not implemented yet; emits nothing."""


def purchase(ctx: TurnContext) -> None:
    """Phase 2.2 (purchase of technology): not implemented yet; emits nothing."""
