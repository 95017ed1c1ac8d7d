"""Phase 1: Diplomatic Actions.

Implemented: 1.1 declarations of war. Not yet: 1.2 influence, 1.3 surrender,
1.4 other declarations (unrestricted submarine warfare), 1.5 special rule options.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.orders.model import DeclareWar

PHASE = "1.1"


def declarations_of_war(ctx: TurnContext) -> None:
    """Phase 1.1: a nation must declare war before it attacks; war is mutual.

    The neutral-entry consequences of a declaration (US entry, neutral points, limited
    and local wars) are Phase 9 / neutral rules and are not applied yet.
    """
    state = ctx.state
    for nation, index, order in ctx.orders_of(DeclareWar):
        target = order.target
        if target not in state.nations or target == nation:
            ctx.refuse(nation, PHASE, index, order, "unknown-nation", target=target)
            continue
        if state.at_war(nation, target):
            ctx.refuse(nation, PHASE, index, order, "already-at-war", target=target)
            continue
        for a, b in ((nation, target), (target, nation)):
            ns = state.nations[a]
            ns.at_war_with = sorted({*ns.at_war_with, b})
        # Declarations of war are public news.
        ctx.emit("war-declared", PHASE, (), nation=nation, target=target)


def diplomatic_influence(ctx: TurnContext) -> None:
    """Phase 1.2 (diplomatic influence on neutrals): not implemented yet; emits nothing."""


def surrender(ctx: TurnContext) -> None:
    """Phase 1.3 (surrender offers and terms): not implemented yet; emits nothing."""


def other_declarations(ctx: TurnContext) -> None:
    """Phase 1.4 (unrestricted submarine warfare and other declarations): not implemented yet."""


def special_options(ctx: TurnContext) -> None:
    """Phase 1.5 (national special rule options): not implemented yet; emits nothing."""
