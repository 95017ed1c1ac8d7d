"""Phase 2: Technology.

2.1: the RESEARCH order's home (engine/orders/research.py) charges each attempt and
refers it to the moderator; the step's own work would be the rolls. 2.2: the UPGRADE
order's home (engine/orders/upgrade.py) does all of it.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext


def research(ctx: TurnContext) -> None:
    """Phase 2.1 (the research rolls, 9 or 10 on D10: engine/chances.research): not
    implemented yet; emits nothing. Each attempt was charged and referred by its home."""
