"""Phase 7: upgrades and new technology take effect.

Phase 2.2: "units will not be upgraded until phase 7"; Phase 7: "In this phase all ships
finish repairing actions and all units finish upgrading." Step 7.0, before the new units
are placed: the upgrades paid in 2.2 become the units'. Step 7.2, after: the levels
researched in 2.1 become the nation's (and Troop Mechanization raises the manpower
limit). The bookkeeping is engine/technology.py's.
"""

from __future__ import annotations

from moderator.engine import technology
from moderator.engine.context import TurnContext


def finish_upgrades(ctx: TurnContext) -> None:
    """Step 7.0: every UPGRADE paid this turn takes effect."""
    technology.finish_upgrades(ctx)


def new_technology(ctx: TurnContext) -> None:
    """Step 7.2: every level researched this turn becomes the nation's."""
    technology.take_effect(ctx)
