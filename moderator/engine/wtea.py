"""The ruleset of "The War to End All Wars" ("wtea-1914"): its phase table and its homes.

One ordered, named table of steps, in the rules' Sequence of Play. Each step names the
order types it carries out (each through its home in engine/orders/) and its own work.
Land combat (4.6) and air combat (4.5) happen inside step 4.4, which resolves every
nation's land moves together (phase4_land.py; their rules: combat_land.py, combat_air.py). A step
without work of its own is done by its orders' homes (4.1.1 bombing ... 4.2 naval
movement; naval invasions are step 4.4's, with the land moves). Steps whose docstring says "not implemented yet" are deliberate no-ops. Step "R" runs first in every table: the moderator's rulings and the
players' notes.

OPENING is the table of turn 0, which exists only in games created with a deployment
turn (Initial Deployment: "Game starts after all active players deploy their units on
the map"). It is not a tenth phase: it runs instead of PHASES, once, before turn 1.
"""

from __future__ import annotations

from pathlib import Path

from moderator.engine import (
    phase0_deploy,
    phase1_diplomacy,
    phase2_technology,
    phase3_build,
    phase3_espionage,
    phase3_passive_recon,
    phase3_recon_missions,
    phase4_air,
    phase4_air_choices,
    phase4_land,
    phase4_local_wars,
    phase4_naval,
    phase4_rebase,
    phase4_strategic,
    phase4_submarine_warfare,
    phase7_place,
    phase7_repair,
    phase7_technology,
    phase8_income,
    phase9_special,
    victory,
)
from moderator.engine.event_codes import SCHEMA
from moderator.engine.orders import (
    artillery_support,
    bombing,
    breakthrough,
    build,
    conditions,
    declarations,
    declare_war,
    defend,
    deploy,
    espionage,
    exile,
    gift,
    incorporate,
    influence,
    interception,
    move,
    naval_invasion,
    neutrals,
    note,
    peace,
    plunder,
    rebase,
    recon,
    repair,
    research,
    rockets,
    rulings,
    ship_gear,
    special_options,
    strategic_move,
    submarines,
    surrender,
    task_forces,
    transfer,
    trenches,
    upgrade,
)
from moderator.engine.orders.base import OrderRule
from moderator.engine.ruleset import Ruleset, Step
from moderator.orders import model as m

NAME = "wtea-1914"
VERSION = 44  # 1: before "One rule, one home" (one dice stream per turn); 2: before issue 8 (neutrals);
# 3: before separated treasuries, surrender, the US Entry events, air combat over land, landings in 4.4;
# 4: before the Mutineers (a disastrous mutiny's rebels), the Bolsheviks' wars after their victory, and
# reconnaissance missions at sea helping their side's task forces in 4.2, new ships attacking in Phase 7,
# radar and sonar aboard ships, aircraft striking ships and hunting submarines from land, naval retreat,
# 4.5's LET THROUGH and BREAK OFF AIR COMBAT, closed straits (CLOSE resolved) and troops massed on
# a border costing points with the neutrals (the third points table, rows 1-4 and 6)
# 5: before the socialist revolution's army was given to the Bolshevik player (issue 9), starvation of
# nations without manpower, colony land without a city and the revolutionaries' placement
# 6: before China's split into two blocks and its civil war (a new nation, china_empire)
# 7: before every raid of 4.1.1 flew at once (air_passage) and attacking aircraft were intercepted on the way
# 8: before the ships' AA guns (4.3 step 3), radar warnings at sea and the sea's order outcomes
# 9: before each land battle's participants were told its forces as they saw them (battle-forces)
# 10: before only the interceptors still in the air (fuel left) could be hit in an air combat on the way
# 11: before German option #3 (the Irish rebellion) was resolved by the engine (option-settled)
# 12: before an ATTACK by fighters off a carrier on land was flown by the engine (not referred)
# 13: before each naval battle's participants were told its forces as they saw them (naval-forces)
# 14: before starvation of shut-in land counted per territory (pockets), not per nation, and the
#     colonies' manpower limit was apart from the home one (builds, mutinies, starvation)
# 15: before German option #5 (supplies to German East Africa) was resolved by the engine and PEACE
# between China's two factions in its civil war was refused, a minor ready for a camp flagged once per camp,
# and the Irish rebels of German option #3 placed by the German player and put on the map (irish-rebels)
# 16: before AA guns fired at planes flying over their territory, and MOVE and REBASE flights were intercepted
# 17: before fighters off a carrier flew a MOVE into enemy land and strikes at other sea zones (not referred),
# and cover from land joined battles with intercepting submarines, and ships fought with their technology
# (Improved Battleships 3 rolling twice when it attacks)
# 18: before German option #5's infantry in German East Africa counted against the home manpower limit
# 19: before a second radar or sonar for a ship already carrying one was refused (it was paid, then lost)
# 20: before a land MOVE between lands no land path joins was refused as not-adjacent-water (needs transports)
# 21: before naval-battle's `damaged` told only ships left afloat damaged, and the fighters aboard a sunk
# carrier flew to friendly land (or were lost) instead of staying at sea with no carrier, and a side at sea
# took as many hits in a round as its battleships and carriers can absorb (not one a ship)
# 22: before a MOVE of fighters off a carrier to another sea zone was judged without a look at the enemy there
# (it was refused cannot-land unless enemy aircraft were there) and landed aboard own carriers there
# 23: before an outright victory counted the surrendered nations of a side as beaten, showed everyone the
# table in its turn, and the moderator was told the game is over (flag game-over: outright, or the main war
# over from the historical end on)
# 24: before the engine resolved German option #7 (the submarine railed to the Adriatic), British #1's
# battleship handed to the Ottoman fleet, Austro-Hungarian #1's 25 (Serbia's with the peace, spent on a
# refusal; refused with Allied units in Serbian land) and #2's "considered neutral" case, and a given land's
# garrison marched home through friendly land (it stayed, flagged)
# 25: before Italy's self-influence (the "Italian influence" read as a default like Spain's, flagged) was
# refused: that "Italian influence" is other nations' coaxing of Italy (issue 8), and before a neutral's
# DECLARE WAR that its section forbids was refused (Spain's and the USA's wars by options, Canada and
# Australia alone on a minor, China's limited war before its gear-up), and before an attempt on Italy was
# refused (or, once Austro-Hungarian #2 made Italy "considered neutral", resolved) instead of referred
# 26: before a MOVE or ATTACK of bombers out of a sea zone (aboard transports) was refused (bombers-aboard;
# it was referred as air-at-sea), fighters back from a flight over a sea zone that cannot reach home landed
# aboard their nation's carriers there (not on land), and a flight off carriers flown in step 4.3 was not
# refused in 4.4 when a strike had meanwhile sunk or damaged its carrier, and before the other ships of the
# target's side in the zone joined a submarine interception after the free attack (note after 4.3), and
# before a carrier's fighters with no orders counted in its task force's contact rolls (4.2.4) and fought in
# its naval battles (4.3 step 4)
# 27: before flights of camps not allied to each other over one place met its fighters by lot (camp_order),
# and three or more attackers not allied clashed in an order drawn by lot, and allies even at the end of a
# won battle drew lots for the land, not by first nation id
# 28: before players' orders read place names holding "and" unquoted ("FROM Jammu and Kashmir" was a
# syntax error) and a list kept a real map name holding "and" whole ("INCORPORATE Upper Senegal and
# Niger" was two territories, "Upper Senegal" unknown)
# 29: before a successful coaxing of Italy by the side it leans to lasted (Italy leaning twice toward it,
# "twice attracted", until the other side's next success counteracts it; it was a same-turn block only)
# 30: before a carrier's fighters on deck hunted submarines with their task force's DETECT mission (4.2.9)
# 31: before the odd hit between allies of equal shares of the casualties (Phase 4 guideline 2; land, sea
# and air) was drawn by lot, not given to the first nation id (issue 10)
# 32: before a MOVE, INVADE or SUPPORT that attacks without a declaration was refused like the DECLARE WAR it
# is (war-by-option, war-not-alone, war-limited-gear-up, war-neutral-on-neutral, war-after-ten; Phase 1.1,
# issue 8), asked before "cannot-capture"
# 33: before a neutral China's DECLARE WAR was refused on a minor it does not border and on a nation
# outside its four limited wars (China; issue 8), and before the garrison of a land given by an option with
# no march home (Hong Kong, Indochina, Jiaozhou) sailed to the giver's nearest port, flagged (it stayed), and
# before a neutral (not Japan, Britain) needed its 10 points for the other camp to declare war on a camp's member
# (and such an entry was answered as an aggression of the neutrals' second table too)
# 34: before the hits an ally cannot take were shared among the other allies by strength again, not
# in nation-id order (Phase 4 guideline 2), a task force of carriers alone with fighters aboard could
# take DETECT (4.2.9), and the fighters on deck of an intercepted task force fought the submarines and
# held them while they had fuel (4.2.10) (issue 10)
# 35: before intercepting submarines drew their target by lot among the task forces passing at once
# (4.2.10; it was the first by nation id and name) or took the one their order names, and before defenders
# disengaging into a neighbour attacked in the same step joined its defence whatever the names (4.6; issue 10)
# 36: before Spain or the USA with its 10 points for a camp could declare war on the other camp in the mail
# of its JOIN (reading 31; it was war-by-option; issue 8)
# 37: before a non-player minor attacked into the main war was flagged for a player from the pool
# (minor-attacked-replacement-pool; issue 8 audit), and a neutral USA at war with a major was flagged for the
# pace of its gear-up to full war production (us-war-production), and before France and Spain allied while
# the Spanish Garrison rule stands were refused to share provinces or waters (garrison-apart), and Japanese
# ships counted toward the blockade of Russia's US trade during Japan's limited war (only at full war now)
# 38: before fighters aboard carriers could DETECT as a plain order (in their carriers' zone without FROM, or
# FROM it at a zone in range; 4.2.9, Aircraft Carriers; it was refused detect-air), and before a DETECT or
# INTERCEPT the engine refused still hunted or struck with the units there (issue 10), and before the flag
# us-war-production came back each turn until the USA's income is full (reading 33; issue 8), and before
# allied France and Spain standing together at the end of a turn were flagged (garrison-together, reading 32)
# and a non-player minor's treasury reaching an infantry's price was flagged (minor-funds, reading 34)
# 39: before a task force's SPLIT took the ships its order named at check time (lowest ids), failing or going
# short when one of them was sunk earlier in the move; it takes the kinds and counts among those afloat now
# (Phase 4 guideline 6; issue 10), and before a JOIN putting loaded transports with other ships was kept
# (now refused, tf-join-loaded: such a task force could take no step, 4.2.1)
# 40: before allied submarines intercepting one task force at one point fought it one nation after another
# by nation id (now one battle, Phase 4 guideline 2), and interceptions in one zone at one point came in the
# order of nation ids and lines (now zone by zone, by lot), and before allied DETECT orders (and allied task
# forces on a detect mission) in one zone were one hunt (one free round, one battle) instead of one a nation
# by id, and before a transfer past an enemy
# patrol or bombardment was flagged for the moderator (transfer-past-enemy-fleet, 4.2.6 Note)
# 41: before aircraft coming by sea (carrier fighters) took the -3 of a front-line trench (4.6.1: no
# penalties "via the sea-borne coastal route"), and before the odd resources of a transfer cut by several
# nations went to the first nation id (now by lot, Phase 8)
# 42: before nations whose strategic moves compete for one territory's rails were served by nation id (the
# lower id always won the capacity; now in an order drawn by lot, 4.1.3, issue 10)
# 43: before radar, sonar and AA guns put on ships (and radar placed on land) counted against a colony
# city's build allowance (Phase 7 rule 8; now rule 7's gear counts against none: engine/placement.py)
ROOT = Path(__file__).resolve().parents[2]

RULES: tuple[OrderRule, ...] = (  # type: ignore[type-arg]
    # one home per order type (engine/orders/); its `section` says which step carries it out
    *rulings.RULES,
    note.RULE,
    deploy.RULE,
    declare_war.RULE,
    influence.RULE,
    *surrender.RULES,
    *declarations.RULES,
    special_options.RULE,
    *neutrals.RULES,
    peace.RULE,
    exile.RULE,
    research.RULE,
    upgrade.RULE,
    build.RULE,
    trenches.TRENCH_RULE,
    trenches.HOME_TRENCHES,
    ship_gear.RULE,
    espionage.ESPIONAGE,
    espionage.COUNTER,
    recon.RULE,
    repair.RULE,
    bombing.RULE,
    rockets.RULE,
    rebase.RULE,
    strategic_move.RULE,
    *task_forces.RULES,
    *submarines.RULES,
    move.RULE,
    conditions.CONDITION,
    conditions.CASUALTIES,
    *interception.RULES,
    artillery_support.RULE,
    defend.RULE,
    naval_invasion.RULE,
    breakthrough.RULE,
    plunder.RULE,
    incorporate.RULE,
    gift.RULE,
    transfer.RULE,
)


def _orders(section: str) -> tuple[type[m.Order], ...]:
    """The order types whose homes say they are carried out in step `section`."""
    return tuple(r.order for r in RULES if r.section == section)


RULINGS = Step("R", "moderator's rulings and players' notes", orders=_orders("R"))

PHASES: tuple[Step, ...] = (
    RULINGS,
    Step("1.1", "declarations of war", orders=_orders("1.1")),
    Step("1.2", "diplomatic influence", phase1_diplomacy.diplomatic_influence, _orders("1.2")),
    Step("1.3", "surrender", phase1_diplomacy.surrender, _orders("1.3"),
         assume=phase1_diplomacy.surrender),  # the checker: the votes it knows (no one else's)
    Step("1.4", "other declarations", phase1_diplomacy.other_declarations, _orders("1.4")),
    Step("1.5", "special rule options", phase1_diplomacy.special_options, _orders("1.5")),
    Step("2.1", "research of technology", phase2_technology.research, _orders("2.1")),
    Step("2.2", "purchase of technology", orders=_orders("2.2")),
    Step("3.1", "building new units", orders=_orders("3.1")),
    Step("3.2", "espionage", phase3_espionage.espionage, _orders("3.2")),
    Step("3.3", "reconnaissance", phase3_passive_recon.passive_reconnaissance, _orders("3.3")),
    # The RECON missions the 3.3 orders sent, after the passive looks, in their own dice stream.
    Step("3.3.1", "active reconnaissance missions", phase3_recon_missions.fly_missions),
    Step("3.4", "repairing ships", phase3_build.repair_ships, _orders("3.4")),
    Step("4.1.1", "industrial and tactical bombing", phase4_air.fly_pending, _orders("4.1.1")),
    Step("4.1.2", "rebasing of aircraft", phase4_rebase.fly_pending, _orders("4.1.2")),
    Step("4.1.3", "strategic movement", orders=_orders("4.1.3"), serve=phase4_strategic.serve),
    Step("4.2", "naval movement", orders=_orders("4.2")),
    Step("4.3", "naval combat", phase4_naval.naval_combat),
    Step("4.4", "land movement and land combat", phase4_land.land_moves, _orders("4.4"),
         assume=phase4_land.assume_captures),
    # Landings (INVADE) are 4.4's, with the land moves; here tank breakthroughs, then the end of decided local wars.
    Step("4.6.1", "naval invasions; the end of won local wars", phase4_local_wars.invasions_then_peace,
         _orders("4.6.1"), assume=phase4_local_wars.assume_invasions_then_peace),
    Step("4.7", "submarine warfare", phase4_submarine_warfare.submarine_warfare),
    # 4.5's choices told when they met nothing, once every fight of Phase 4 is over
    Step("4.5", "LET THROUGH and BREAK OFF AIR COMBAT that met no aircraft", phase4_air_choices.unused),
    Step("5", "plunder", orders=_orders("5")),
    Step("6", "incorporation", orders=_orders("6")),
    Step("7.0", "units finish upgrading", phase7_technology.finish_upgrades),
    Step("7", "place new units", phase7_place.place_new_units),
    Step("7.1", "end of strategic moves", phase7_place.end_strategic_moves),
    Step("7.2", "new technology takes effect", phase7_technology.new_technology),
    Step("7.3", "ship repairs finished", phase7_repair.finish_repairs),
    Step("8", "collect resources", phase8_income.collect_resources, deterministic=True),
    Step("8.1", "transfers", orders=_orders("8.1")),
    Step("9", "special rules", phase9_special.special_rules),
)

OPENING: tuple[Step, ...] = (
    RULINGS,
    Step("0", "initial deployment", phase0_deploy.initial_deployment, _orders("0")),
)


def ruleset() -> Ruleset:
    from moderator.world.scenario import initial_state

    return Ruleset(
        name=NAME, version=VERSION, title="The War to End All Wars",
        grammar=ROOT / "grammar" / "orders.lark", rules=RULES, phases=PHASES, opening=OPENING,
        events=SCHEMA, templates=ROOT / "templates",
        initial_state=lambda scenario, world, game, deploy_free: initial_state(
            scenario, world, game, deploy_free=deploy_free),
        victory=victory.table,
        scenarios=("1914",),
    )
