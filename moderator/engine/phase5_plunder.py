"""Phase 5: Plunder."""

from __future__ import annotations

from moderator.engine.context import TurnContext


def plunder(ctx: TurnContext) -> None:
    """Phase 5 (dismantling industrial complexes and ports for resources): not implemented yet."""
