"""The end of the local and limited wars a capture decided (Phase 1.1 note, Local War).

"The war between two neutrals lasts until either side capture one province from oposite
side ... After that no war activities are allowed and either nation must declare war
again if they want to continue." Local War: "until one side or another conquer one
province (or more in the same turn)". Run after the turn's movement and combat (the
naval invasions of 4.6.1 are the last captures of a turn); the rule is engine/wars.py.
"""

from __future__ import annotations

from moderator.engine import phase4_land, wars
from moderator.engine.context import TurnContext

PHASE = "4.6.1"


def end_decided_wars(ctx: TurnContext) -> None:
    wars.end_decided_wars(ctx, PHASE)


def invasions_then_peace(ctx: TurnContext) -> None:
    """The 4.6.1 step: the landings fight (phase4_land), then the decided wars end."""
    phase4_land.land_moves(ctx)
    end_decided_wars(ctx)


def assume_invasions_then_peace(ctx: TurnContext) -> None:
    """The checker's 4.6.1: the landings take their targets, then the decided wars end
    (no dice in either, so the checker sees what the engine will)."""
    phase4_land.assume_captures(ctx)
    end_decided_wars(ctx)
