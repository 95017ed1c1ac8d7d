"""Phase 3: repairs (3.4), the step's own work.

Phase 3.1, building new units, is the homes of BUILD (engine/orders/build.py, with the
placement rules of Phase 7 in engine/placement.py), trenches (engine/orders/trenches.py)
and radar and sonar (engine/orders/ship_gear.py). Reconnaissance (3.3) is phase3_recon.
Espionage (3.2) is phase3_espionage. REPAIR orders are paid and the ships claimed by their
home (engine/orders/repair.py); Phase 7 finishes the repairs (engine/phase7_repair.py).
"""

from __future__ import annotations

from moderator.engine.context import TurnContext


def repair_ships(ctx: TurnContext) -> None:
    """Phase 3.4: the step has no work of its own; each REPAIR order starts its repair
    (the order's home) and Phase 7 finishes it (step 7.3)."""
