"""Phase 9: Special Rules Resolution.

"During this last part of the player's turn there would be roll for those special events
which can have a profound effect in the course of the war", each through step 9's dice
stream with its purpose, in this order: combat intelligence owed from 3.2.1.4 ("after
turn update"), the Russian Revolution (phase9_revolution), mutinies (phase9_mutiny),
starvation behind a sea cordon or shut in (phase9_starvation, after the mutinies: "starvation effect
won't raise rebellion in the same turn"), the US economic roll, the Spanish garrison,
Spanish-American relations and the rebellion of a conquered nation that rises
(phase9_neutrals), the US Entry's events of the turn (us_entry: trade cut, conquests, the
USA allying China) and the pace of its gear-up at war with a major (us_entry: US option #2),
allied France and Spain standing together under the Spanish Garrison rule (garrison_apart),
the Russian fleet gone from the Black Sea and Paris taken (neutral_triggers), the British Empire's causes to enter the war (british_entry), the neutrals' third table (standing_events) and the liberation of
governments in exile (exile); last, the Victory Conditions' table (victory).
"""

from __future__ import annotations

from moderator.engine import (
    british_entry,
    china_split,
    exile,
    garrison_apart,
    japan,
    local_war_table,
    neutral_triggers,
    ottoman_civil_war,
    phase3_espionage,
    phase9_mutiny,
    phase9_neutrals,
    phase9_revolution,
    phase9_starvation,
    standing_events,
    us_entry,
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
    us_entry.trade_cut_events(ctx, PHASE)  # US Entry 1-3: the trade cut in Phase 8
    us_entry.conquests(ctx, PHASE)  # US Entry 9
    us_entry.us_allies_china(ctx, PHASE)  # US Entry 5: a later turn of Japan's war on China
    us_entry.war_production_pace(ctx, PHASE)  # US option #2: the gear-up's pace, each turn until full
    garrison_apart.together(ctx, PHASE)  # French #1: allied France and Spain standing together
    neutral_triggers.russian_fleet_left(ctx, PHASE)  # the Ottomans: 0-10 toward the CP, once
    neutral_triggers.paris_fallen(ctx, PHASE)  # Italy: 0-20 toward the CP and its leaning, once
    british_entry.fleet_and_provinces(ctx)  # the British Empire's causes to enter: the fleet, the provinces
    japan.end_of_turn(ctx)  # Japan: the limited war with Russia decided, an original territory lost
    ottoman_civil_war.end_of_turn(ctx)  # the Ottomans' war on a Central Power begun by an attack
    china_split.end_of_turn(ctx)  # China: its two blocks at their camps begin a civil war; its end
    local_war_table.turns_after(ctx)  # a neutral keeping on its local war with a nation of the main war
    standing_events.closed_passages(ctx, PHASE)  # the third table, rows 1-4
    standing_events.submarine_warfare(ctx, PHASE)  # the third table, row 5
    standing_events.massed_on_borders(ctx, PHASE)  # the third table, row 6
    exile.liberation(ctx, PHASE)  # Conquest: a capital held two full turns ends an exile
    victory.victory_conditions(ctx)  # last: the table reads the turn's final position
