"""Phase 1: Diplomatic Actions.

1.1 declarations of war: the DECLARE WAR order's home (engine/orders/declare_war.py).
1.2-1.5: the homes of INFLUENCE, COAX, SURRENDER, CLOSE, UNRESTRICTED SUBMARINE WARFARE,
BLOCKADE, OPTION, GEAR UP, JOIN, PEACE and EXILE (engine/orders/influence.py, neutrals.py,
surrender.py, declarations.py, special_options.py, peace.py, exile.py) judge them and
charge their cost; their effects (rolls, points, votes) are referred to the moderator, so
the steps' own work below is not implemented yet.
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
