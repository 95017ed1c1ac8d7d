"""Phase 4.1.1 (industrial and tactical bombing) and 4.1.2 (rebasing of aircraft)."""

from __future__ import annotations

from moderator.engine.context import TurnContext


def bombing(ctx: TurnContext) -> None:
    """Phase 4.1.1 (industrial and tactical bombing): not implemented yet; emits nothing."""


def rebasing(ctx: TurnContext) -> None:
    """Phase 4.1.2 (rebasing of aircraft): not implemented yet; emits nothing."""
