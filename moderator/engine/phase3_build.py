"""Phase 3: espionage (3.2), reconnaissance (3.3), repairs (3.4).

Phase 3.1, building new units, is the BUILD order's home (engine/orders/build.py) with
the placement rules of Phase 7 (engine/placement.py).
"""

from __future__ import annotations

from moderator.engine.context import TurnContext


def espionage(ctx: TurnContext) -> None:
    """Phase 3.2 (espionage and counter-espionage): not implemented yet; emits nothing."""


def reconnaissance(ctx: TurnContext) -> None:
    """Phase 3.3 (reconnaissance): not implemented yet; emits nothing."""


def repair_ships(ctx: TurnContext) -> None:
    """Phase 3.4 (repairing damaged ships): not implemented yet; emits nothing."""
