"""Phase 1: Diplomatic Actions.

1.1 declarations of war: the DECLARE WAR order's home (engine/orders/declare_war.py).
Not yet: 1.2 influence, 1.3 surrender, 1.4 other declarations (unrestricted submarine
warfare), 1.5 special rule options: their orders are referred to the moderator.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext


def diplomatic_influence(ctx: TurnContext) -> None:
    """Phase 1.2 (diplomatic influence on neutrals): not implemented yet; emits nothing."""


def surrender(ctx: TurnContext) -> None:
    """Phase 1.3 (surrender offers and terms): not implemented yet; emits nothing."""


def other_declarations(ctx: TurnContext) -> None:
    """Phase 1.4 (unrestricted submarine warfare and other declarations): not implemented yet."""


def special_options(ctx: TurnContext) -> None:
    """Phase 1.5 (national special rule options): not implemented yet; emits nothing."""
