"""Phase 9: Special Rules Resolution.

"During this last part of the player's turn there would be roll for those special events
which can have a profound effect in the course of the war", each through step 9's dice
stream with its purpose, in this order: combat intelligence owed from 3.2.1.4 ("after
turn update"), the Russian Revolution (phase9_revolution), mutinies (phase9_mutiny),
starvation behind a sea cordon (phase9_starvation, after the mutinies: "starvation effect
won't raise rebellion in the same turn"), the US economic roll, the Spanish garrison,
Spanish-American relations and the rebellion of a conquered nation that rises
(phase9_neutrals); last, the Victory Conditions' table (victory). Not yet: the starvation of encircled land territories, governments in
exile and liberation.
"""

from __future__ import annotations

from moderator.engine import (
    phase3_espionage,
    phase9_mutiny,
    phase9_neutrals,
    phase9_revolution,
    phase9_starvation,
    victory,
)
from moderator.engine.context import TurnContext

PHASE = "9"


def special_rules(ctx: TurnContext) -> None:
    phase3_espionage.hand_over_combat_intelligence(ctx, PHASE)
    phase9_revolution.russian_revolution(ctx)
    phase9_mutiny.mutinies(ctx)
    phase9_starvation.starvation(ctx)
    phase9_neutrals.us_economic_roll(ctx)
    phase9_neutrals.spanish_garrison(ctx)
    phase9_neutrals.spanish_american_relations(ctx)
    phase9_neutrals.rebellions(ctx)
    victory.victory_conditions(ctx)  # last: the table reads the turn's final position
