"""Phase 3: repairs (3.4), the step's own work.

Phase 3.1, building new units, is the homes of BUILD (engine/orders/build.py, with the
placement rules of Phase 7 in engine/placement.py), trenches (engine/orders/trenches.py)
and radar and sonar (engine/orders/ship_gear.py). Reconnaissance (3.3) is phase3_recon.
Espionage (3.2) is phase3_espionage. REPAIR orders are charged and referred to the
moderator by their home (engine/orders/repair.py).
"""

from __future__ import annotations

from moderator.engine.context import TurnContext


def repair_ships(ctx: TurnContext) -> None:
    """Phase 3.4 (repairs finished in Phase 7 unless the ship is attacked): not
    implemented yet; emits nothing."""
