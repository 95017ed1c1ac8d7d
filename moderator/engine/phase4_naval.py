"""Phase 4.2 naval movement, 4.3 naval combat, 4.6.1 naval invasions, 4.7 submarine warfare."""

from __future__ import annotations

from moderator.engine.context import TurnContext


def naval_movement(ctx: TurnContext) -> None:
    """Phase 4.2 (task forces, transport, escort, patrol, blockade, ...): not implemented yet."""


def naval_combat(ctx: TurnContext) -> None:
    """Phase 4.3 (naval combat): not implemented yet; emits nothing."""


def naval_invasions(ctx: TurnContext) -> None:
    """Phase 4.6.1 (naval invasions from transports): not implemented yet; emits nothing."""


def submarine_warfare(ctx: TurnContext) -> None:
    """Phase 4.7 (submarine warfare against resource transfers and US trade): not implemented yet."""
