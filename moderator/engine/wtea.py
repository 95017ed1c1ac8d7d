"""The phase table of "The War to End All Wars" (ruleset "wtea-1914").

One ordered, named table of steps, in the rules' sequence of play. Land combat (4.6) and
air combat (4.5) happen inside the moves that start them (4.4), so they are not separate
steps. Steps whose docstring says "not implemented yet" are deliberate no-ops.

OPENING is the table of turn 0, which exists only in games created with a deployment
turn (Initial Deployment: "Game starts after all active players deploy their units on
the map"). It is not a tenth phase: it runs instead of PHASES, once, before turn 1.
"""

from __future__ import annotations

from moderator.engine import (
    phase0_deploy,
    phase1_diplomacy,
    phase2_technology,
    phase3_build,
    phase4_bombing,
    phase4_land,
    phase4_naval,
    phase4_strategic,
    phase5_plunder,
    phase6_incorporation,
    phase7_place,
    phase8_income,
    phase9_special,
    ruleset,
)
from moderator.engine.ruleset import Step
from moderator.orders.model import (
    Build,
    CasualtyOrder,
    CombatCondition,
    DeclareWar,
    Deploy,
    Gift,
    Incorporate,
    Move,
    StrategicMove,
)

NAME = "wtea-1914"

PHASES: tuple[Step, ...] = (
    Step("1.1", "declarations of war", phase1_diplomacy.declarations_of_war, (DeclareWar,)),
    Step("1.2", "diplomatic influence", phase1_diplomacy.diplomatic_influence),
    Step("1.3", "surrender", phase1_diplomacy.surrender),
    Step("1.4", "other declarations", phase1_diplomacy.other_declarations),
    Step("1.5", "special rule options", phase1_diplomacy.special_options),
    Step("2.1", "research of technology", phase2_technology.research),
    Step("2.2", "purchase of technology", phase2_technology.purchase),
    Step("3.1", "building new units", phase3_build.build_new_units, (Build,)),
    Step("3.2", "espionage", phase3_build.espionage),
    Step("3.3", "reconnaissance", phase3_build.reconnaissance),
    Step("3.4", "repairing ships", phase3_build.repair_ships),
    Step("4.1.1", "industrial and tactical bombing", phase4_bombing.bombing),
    Step("4.1.2", "rebasing of aircraft", phase4_bombing.rebasing),
    Step("4.1.3", "strategic movement", phase4_strategic.strategic_movement, (StrategicMove,)),
    Step("4.2", "naval movement", phase4_naval.naval_movement),
    Step("4.3", "naval combat", phase4_naval.naval_combat),
    Step("4.4", "land movement and land combat", phase4_land.land_movement,
         (Move, CombatCondition, CasualtyOrder)),
    Step("4.6.1", "naval invasions", phase4_naval.naval_invasions),
    Step("4.7", "submarine warfare", phase4_naval.submarine_warfare),
    Step("5", "plunder", phase5_plunder.plunder),
    Step("6", "incorporation", phase6_incorporation.incorporation, (Incorporate,)),
    Step("7", "place new units", phase7_place.place_new_units),
    Step("7.1", "end of strategic moves", phase7_place.end_strategic_moves),
    Step("8", "collect resources", phase8_income.collect_resources),
    Step("8.1", "transfers", phase8_income.transfers, (Gift,)),
    Step("9", "special rules", phase9_special.special_rules),
)

OPENING: tuple[Step, ...] = (
    Step("0", "initial deployment", phase0_deploy.initial_deployment, (Deploy,)),
)

ruleset.register(NAME, PHASES, OPENING)
