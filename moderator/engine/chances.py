"""Single-roll chances the rules state outright, each as a named function of the turn's Dice.

Every function rolls exactly the dice the rule describes (normally one D10), logs it
with a purpose naming the rule, and returns the outcome. Where the rules give the faces
("9 or 10 on D10") those faces are used; where they only say "N in 10", the engine
uses faces 1..N (Dice.chance), which has the same probability.

Multi-outcome rolls return one of the string constants below.
"""

from __future__ import annotations

from moderator.engine.dice import Dice

SUCCESS = "success"
BACKFIRE = "backfire"
NOTHING = "nothing"


def _faces(dice: Dice, purpose: str, low: int, high: int) -> bool:
    """One D10, true when it shows low..high."""
    return low <= dice.d10(purpose) <= high


def _split(face: int, success: tuple[int, int], backfire: tuple[int, int]) -> str:
    """Read one face of a roll that can succeed, backfire or do nothing."""
    if success[0] <= face <= success[1]:
        return SUCCESS
    if backfire[0] <= face <= backfire[1]:
        return BACKFIRE
    return NOTHING


# --- Phase 1.2, Phase 2.1, Phase 3.2 -------------------------------------------------


def diplomatic_influence(dice: Dice, starred: bool = False) -> bool:
    """Phase 1.2: "2 in 10 per attempt (hit 9 or 10)"; a nation marked * only on a 10.

    Also US Option #5 ("just like any standard diplomatic roll").
    """
    return _faces(dice, "diplomatic influence (Phase 1.2)", 10 if starred else 9, 10)


def _for(purpose: str, who: str) -> str:
    """The purpose a roll is logged with, naming whose roll it is when told."""
    return f"{purpose}: {who}" if who else purpose


def research(dice: Dice, espionage_bonus: bool = False, who: str = "") -> bool:
    """Phase 2.1: success on 9 or 10; 8-10 after successful industrial espionage (Phase 3.2.1.3)."""
    return _faces(dice, _for("technology research (Phase 2.1)", who), 8 if espionage_bonus else 9, 10)


def espionage(dice: Dice, countered: bool = False, who: str = "") -> bool:
    """Phase 3.2.1: 50% (1-5 on D10); 20% (1-2) against successful counter-espionage (Phase 3.2.2)."""
    return _faces(dice, _for("espionage (Phase 3.2.1)", who), 1, 2 if countered else 5)


def counter_espionage(dice: Dice, who: str = "") -> bool:
    """Phase 3.2.2.3 / 3.2.2.4: industrial counter-espionage and recon countermeasure, 50% (1-5)."""
    return _faces(dice, _for("counter-espionage (Phase 3.2.2)", who), 1, 5)


# --- US Playing Options and US entry -------------------------------------------------


def us_declaration_approved(dice: Dice, major: bool) -> bool:
    """US Option #2: Congress approves war on a minor "4 in 10", on a major "2 in 10"."""
    return dice.chance(2 if major else 4, "US declaration of war (US Option #2)")


def us_lend_backlash(dice: Dice, to_favoured_side: bool) -> bool:
    """US Option #3: opinion shifts after a gift: 1 in 10 to the favoured side, 2 in 10 otherwise."""
    return dice.chance(1 if to_favoured_side else 2, "US lend backlash (US Option #3)")


def us_opinion_campaign(dice: Dice) -> str:
    """US Option #4: 7-10 moves opinion the wanted way (0-2); a 1 moves it 0-6 the other way."""
    return _split(dice.d10("US media campaign (US Option #4)"), (7, 10), (1, 1))


def us_influence_discovered(dice: Dice) -> bool:
    """US Option #5: "1 in 10 chance (1 on D10 die)", a roll independent of the diplomatic one."""
    return _faces(dice, "US influence discovered (US Option #5)", 1, 1)


def us_economic_roll(dice: Dice) -> str:
    """US entry, end-of-turn roll: 8-10 toward the bigger producer (SUCCESS), 1 toward the smaller (BACKFIRE)."""
    return _split(dice.d10("US economic roll (US entry 11)"), (8, 10), (1, 1))


def us_joins_china(dice: Dice, first_turn: bool) -> bool:
    """Neutral war table note: USA allies China against Japan, 50% the first turn, 20% each later turn."""
    return dice.chance(5 if first_turn else 2, "USA allies China (declarations of war)")


def us_declares_on_japan(dice: Dice) -> bool:
    """US entry 5: Japan declares war on neutral China, USA declares war "1-5 on D10"."""
    return _faces(dice, "USA declares war on Japan (US entry 5)", 1, 5)


def us_blockade_outcry(dice: Dice, receiver: str) -> bool:
    """US entry 2 and 3: a naval blockade of US trade to a nation, "2 in 10 chance of" 0-2."""
    return dice.chance(2, f"US Entry: blockade of the trade to {receiver} (US entry 2-3)")


def propaganda(dice: Dice, success_from: int, purpose: str) -> str:
    """2D10 propaganda: SUCCESS at or above `success_from`, BACKFIRE on a 2.

    British Option #3 uses 18 (18, 19 or 20), German Option #2 uses 19 (19 or 20).
    """
    total = dice.roll(2, 10, purpose)
    if total >= success_from:
        return SUCCESS
    return BACKFIRE if total == 2 else NOTHING


# --- Nations' options and special rules ----------------------------------------------


def ottoman_civil_war(dice: Dice) -> bool:
    """Ottoman Empire: declaring war on the Central Powers starts a civil war "7 in 10"."""
    return dice.chance(7, "Ottoman civil war (Ottoman Empire)")


def ottoman_unit_rebels(dice: Dice) -> bool:
    """Ottoman Empire: in the civil war each unit outside Constantinople rebels "4 in 10"."""
    return dice.chance(4, "Ottoman unit rebels (Ottoman Empire)")


def chinese_unit_turns_imperial(dice: Dice) -> bool:
    """China: in the civil war "on 1-6 units remain as republican units ..., and on 7-10
    units become imperial units"."""
    return _faces(dice, "Chinese unit turns imperial (China)", 7, 10)


def seek_italy_favour(dice: Dice) -> str:
    """France Option #5 / Austria-Hungary Option #2: 7-10 SUCCESS (4 in 10), 1 BACKFIRE (1 in 10)."""
    return _split(dice.d10("Seek Italy's favour"), (7, 10), (1, 1))


def coax_italy(dice: Dice) -> bool:
    """Italy: switch its affiliation, "10% chance (1 on D10 die)"."""
    return _faces(dice, "coax Italy (Italy)", 1, 1)


def court_italy(dice: Dice) -> bool:
    """Italy / France Option #3: "20% chance (1-2 on D10)"."""
    return _faces(dice, "France courts Italy (France Option #3)", 1, 2)


ALLIED_20, TOWARD_ALLIES, NO_CHANGE, TOWARD_CENTRAL, CENTRAL_20 = (
    "allied-20", "toward-allies", "no-change", "toward-central", "central-20")
TWICE = "twice-allied"  # not rolled: Italy already 6 or more toward the Allies
ITALY_AND_BRITAIN = ((1, ALLIED_20), (3, TOWARD_ALLIES), (4, NO_CHANGE), (8, TOWARD_CENTRAL), (10, CENTRAL_20))


def italy_and_britain(dice: Dice) -> tuple[int, str]:
    """Italy, the British Empire entering unprovoked: 1 twenty points for the Allies, 2-3
    toward the Allies, 4 no change, 5-8 toward the Central Powers, 9-10 twenty points for
    the Central Powers. Returns the face and the outcome."""
    face = dice.d10("Italy's table: the British Empire entered unprovoked (Italy)")
    return face, next(name for top, name in ITALY_AND_BRITAIN if face <= top)


def spain_goes_to_war(dice: Dice) -> bool:
    """Spain, option 3: war on a major neutral "only if hit 1 or 2 on D10 die"."""
    return _faces(dice, "Spain declares war on a major neutral (Spain, option 3)", 1, 2)


def spanish_relations(dice: Dice) -> bool:
    """France Option #1: Spain normalises relations on "7-10"."""
    return _faces(dice, "Spanish relations (France Option #1)", 7, 10)


def china_favour(dice: Dice, in_ten: int) -> bool:
    """Seek Chinese favour: Britain 1 in 10, France and Germany 2 in 10 (their Options)."""
    return dice.chance(in_ten, "Chinese favour")


def japan_objects(dice: Dice) -> bool:
    """Seek Chinese favour: Japan declares war, "1 in 10"."""
    return dice.chance(1, "Japan objects to Chinese favour")


def irish_rebellion(dice: Dice) -> str:
    """Germany Option #3: "on a 1 the Irish support the Brits (BACKFIRE), on a 9 or 10 they rebel"."""
    return _split(dice.d10("Irish rebellion (Germany Option #3)"), (9, 10), (1, 1))


def zimmerman_note(dice: Dice) -> str:
    """Germany Option #4: 9-10 Mexico gets 10-20 points (SUCCESS); 1-3 US opinion rises (BACKFIRE)."""
    return _split(dice.d10("Zimmerman note (Germany Option #4)"), (9, 10), (1, 3))


def serbian_peace(dice: Dice) -> bool:
    """Austria-Hungary Option #1: Serbia accepts peace, "50/50"."""
    return dice.chance(5, "Peace with Serbia (Austria-Hungary Option #1)")


def revolution_in_ten(year: int, german_support: bool = False, russian_supply: bool = False) -> int:
    """The Russian Revolution: 1 in 10 in 1915, 2 in 1916, 3 in 1917, 4 in 1918, "etc.".

    Shifted 1 up by Germany Option #6 and 1 down by Russia Option #3; kept within 0..10.
    """
    base = year - 1914 + (1 if german_support else 0) - (1 if russian_supply else 0)
    return min(max(base, 0), 10)


def russian_revolution(
    dice: Dice, year: int, german_support: bool = False, russian_supply: bool = False
) -> bool:
    """The Russian Revolution: this turn's roll (Phase 9)."""
    return dice.chance(
        revolution_in_ten(year, german_support, russian_supply), "Russian revolution (Phase 9)"
    )


def unit_turns_revolutionary(dice: Dice) -> bool:
    """The Russian Revolution, first turn: each unit built becomes revolutionary on 1-7."""
    return _faces(dice, "unit joins the revolution (Phase 9)", 1, 7)


def unit_defects(dice: Dice) -> bool:
    """The Russian Revolution, later turns: a Russian build defects on 8-10."""
    return _faces(dice, "unit defects to the Bolsheviks (Phase 9)", 8, 10)


def spanish_garrison(dice: Dice, first_time: bool) -> bool:
    """Spanish Garrison: Spain turns on France "50/50" the first time, "2 in 10" after."""
    return dice.chance(5 if first_time else 2, "Spanish garrison (Phase 9)")


def spain_resents_us(dice: Dice) -> bool:
    """Spanish / American Relations: "2 in 10" when the US enters the war."""
    return dice.chance(2, "Spain resents US entry (Phase 9)")


def mutiny(dice: Dice) -> bool:
    """Mutinies: building infantry past the manpower limit, "2 in 10"."""
    return dice.chance(2, "mutiny (Phase 9)")


MUTINY_SEVERITY = ((4, "small"), (7, "large"), (10, "disastrous"))


def mutiny_severity(dice: Dice) -> str:
    """Mutinies: 1-4 small, 5-7 large, 8-10 disastrous."""
    face = dice.d10("mutiny severity (Phase 9)")
    return next(name for top, name in MUTINY_SEVERITY if face <= top)


def mutiny_revolution(dice: Dice) -> bool:
    """Mutinies: a repeated mutiny starts a revolution "on roll of 1-5"."""
    return _faces(dice, "revolution after mutinies (Phase 9)", 1, 5)
