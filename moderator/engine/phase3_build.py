"""Phase 3: espionage (3.2) and repairs (3.4), the steps' own work.

Phase 3.1, building new units, is the homes of BUILD (engine/orders/build.py, with the
placement rules of Phase 7 in engine/placement.py), trenches (engine/orders/trenches.py)
and radar and sonar (engine/orders/ship_gear.py). Reconnaissance (3.3) is phase3_recon.
ESPIONAGE, COUNTERESPIONAGE and REPAIR orders are charged and referred to the moderator
by their homes (engine/orders/espionage.py, repair.py).
"""

from __future__ import annotations

from moderator.engine.context import TurnContext


def espionage(ctx: TurnContext) -> None:
    """Phase 3.2 (the espionage and counter-espionage rolls, engine/chances.espionage and
    counter_espionage, and what they reveal): not implemented yet; emits nothing."""


def repair_ships(ctx: TurnContext) -> None:
    """Phase 3.4 (repairs finished in Phase 7 unless the ship is attacked): not
    implemented yet; emits nothing."""
