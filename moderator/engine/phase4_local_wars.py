"""The end of the local and limited wars a capture decided (Phase 1.1 note, Local War).

"The war between two neutrals lasts until either side capture one province from oposite
side ... After that no war activities are allowed and either nation must declare war
again if they want to continue." Local War: "until one side or another conquer one
province (or more in the same turn)". Run after the turn's movement and combat (the
naval invasions of 4.6.1 are the last captures of a turn); the rule is engine/wars.py.
"""

from __future__ import annotations

from moderator.engine import wars
from moderator.engine.context import TurnContext

PHASE = "4.6.1"


def end_decided_wars(ctx: TurnContext) -> None:
    wars.end_decided_wars(ctx, PHASE)
