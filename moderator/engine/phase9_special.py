"""Phase 9: Special Rules Resolution."""

from __future__ import annotations

from moderator.engine import phase3_espionage
from moderator.engine.context import TurnContext

PHASE = "9"


def special_rules(ctx: TurnContext) -> None:
    """Phase 9. First what the turn owes from earlier phases: combat intelligence (3.2.1.4)
    "after turn update". The special rules' rolls are not implemented yet."""
    phase3_espionage.hand_over_combat_intelligence(ctx, PHASE)
