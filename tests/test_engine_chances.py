"""moderator.engine.chances: every chance the rules state, checked two ways.

1. Statistically: N rolls with a fixed-seed Dice; each outcome's rate must be within
   4 standard errors of the rules' stated chance (tolerance from the sample size).
2. Exactly, for the one-D10 rolls: the outcome is compared with the logged face, so the
   faces the rules name ("9 or 10", "1-5") are the ones used.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pytest

from moderator.engine import chances as ch
from moderator.engine.dice import Dice

TRIALS = 6_000


@dataclass(frozen=True)
class Stated:
    """A rule's stated chance: outcome -> (probability, D10 faces giving it, if one D10)."""

    name: str
    roll: Callable[[Dice], object]
    outcomes: dict[object, tuple[Fraction, frozenset[int] | None]]


def faces(low: int, high: int) -> frozenset[int]:
    return frozenset(range(low, high + 1))


def yes_no(name: str, roll: Callable[[Dice], object], low: int, high: int) -> Stated:
    p = Fraction(high - low + 1, 10)
    return Stated(name, roll, {True: (p, faces(low, high)), False: (1 - p, faces(1, 10) - faces(low, high))})


def three_way(
    name: str, roll: Callable[[Dice], object], win: tuple[int, int], lose: tuple[int, int]
) -> Stated:
    w, lo = faces(*win), faces(*lose)
    rest = faces(1, 10) - w - lo
    return Stated(
        name,
        roll,
        {
            ch.SUCCESS: (Fraction(len(w), 10), w),
            ch.BACKFIRE: (Fraction(len(lo), 10), lo),
            ch.NOTHING: (Fraction(len(rest), 10), rest),
        },
    )


def two_d10(at_least: int) -> dict[object, tuple[Fraction, frozenset[int] | None]]:
    pairs = [(a, b) for a in range(1, 11) for b in range(1, 11)]
    win = Fraction(sum(a + b >= at_least for a, b in pairs), 100)
    lose = Fraction(1, 100)  # only 1+1 makes 2
    return {ch.SUCCESS: (win, None), ch.BACKFIRE: (lose, None), ch.NOTHING: (1 - win - lose, None)}


STATED = [
    # Phase 1.2: "2 in 10 per attempt (hit 9 or 10 on 10 sided die)"; * nations "only ... on a roll of 10".
    yes_no("diplomatic influence", ch.diplomatic_influence, 9, 10),
    yes_no("diplomatic influence *", lambda d: ch.diplomatic_influence(d, starred=True), 10, 10),
    # Phase 2.1: "On a roll of a 9 or 10"; Phase 3.2.1.3: "increased by 10% - 8-10 on D10 die".
    yes_no("research", ch.research, 9, 10),
    yes_no("research after espionage", lambda d: ch.research(d, espionage_bonus=True), 8, 10),
    # Phase 3.2.1: "50% (1-5 on D10 die)"; 3.2.2: "lowered to 20% (1-2 on D10 die)".
    yes_no("espionage", ch.espionage, 1, 5),
    yes_no("espionage countered", lambda d: ch.espionage(d, countered=True), 1, 2),
    yes_no("counter-espionage", ch.counter_espionage, 1, 5),
    # US Option #2: "4 in 10" on a minor, "2 in 10" on a major.
    yes_no("US war on minor", lambda d: ch.us_declaration_approved(d, major=False), 1, 4),
    yes_no("US war on major", lambda d: ch.us_declaration_approved(d, major=True), 1, 2),
    # US Option #3: "1 in 10" gifting to the favoured side, "2 in 10" to the other.
    yes_no("US lend to favoured", lambda d: ch.us_lend_backlash(d, to_favoured_side=True), 1, 1),
    yes_no("US lend to other", lambda d: ch.us_lend_backlash(d, to_favoured_side=False), 1, 2),
    # US Option #4: "On a 7, 8, 9, or 10 ... On a roll of a 1 ... the opposite direction".
    three_way("US media campaign", ch.us_opinion_campaign, (7, 10), (1, 1)),
    # US Option #5: "1 in 10 chance (1 on D10 die)" of discovery.
    yes_no("US influence discovered", ch.us_influence_discovered, 1, 1),
    # US entry 11: "On a roll of 8, 9 or 10 ... On a roll of 1".
    three_way("US economic roll", ch.us_economic_roll, (8, 10), (1, 1)),
    # Declarations table note: "50% chance ... 20% is chance for each following turn".
    yes_no("USA allies China, first turn", lambda d: ch.us_joins_china(d, first_turn=True), 1, 5),
    yes_no("USA allies China, later", lambda d: ch.us_joins_china(d, first_turn=False), 1, 2),
    # US entry 5: "(1-5 on D10 die)".
    yes_no("USA declares on Japan", ch.us_declares_on_japan, 1, 5),
    # US entry 2 and 3: "Naval blockade of US trade to ...: 2 in 10 chance of ... 0-2".
    yes_no("US blockade outcry", lambda d: ch.us_blockade_outcry(d, "germany"), 1, 2),
    # British Option #3: 2D10 "On a 18, 19, or 20 ... On a result of 2".
    Stated("British propaganda", lambda d: ch.propaganda(d, 18, "British Option #3"), two_d10(18)),
    # German Option #2: 2D10 "On a 19 or 20 ... On a 2".
    Stated("German propaganda", lambda d: ch.propaganda(d, 19, "German Option #2"), two_d10(19)),
    # Ottoman Empire: "There is a 7 in 10 chance"; units: "a 4 in 10 chance that it will ... rebel".
    yes_no("Ottoman civil war", ch.ottoman_civil_war, 1, 7),
    yes_no("Ottoman unit rebels", ch.ottoman_unit_rebels, 1, 4),
    yes_no("Chinese unit turns imperial", ch.chinese_unit_turns_imperial, 7, 10),
    # France Option #5 / A-H Option #2: "4 in 10 chance (7, 8, 9 and 10 ...) ... 1 in 10 chance (1 ...)".
    three_way("seek Italy's favour", ch.seek_italy_favour, (7, 10), (1, 1)),
    # Italy: "10% chance (1 on D10 die)" and "20% chance (1-2 on D10)".
    yes_no("coax Italy", ch.coax_italy, 1, 1),
    yes_no("court Italy", ch.court_italy, 1, 2),
    # France Option #1: "there is a 7-10 chance Spain will normalize relations".
    yes_no("Spanish relations", ch.spanish_relations, 7, 10),
    # Seek Chinese favour: Britain "1 in 10", France and Germany "2 in 10"; Japan "1 in 10".
    yes_no("Chinese favour, Britain", lambda d: ch.china_favour(d, 1), 1, 1),
    yes_no("Chinese favour, Germany", lambda d: ch.china_favour(d, 2), 1, 2),
    yes_no("Japan objects", ch.japan_objects, 1, 1),
    # Germany Option #3: "on a 1 the Irish support the Brits, on a 9 or 10 they rebel".
    three_way("Irish rebellion", ch.irish_rebellion, (9, 10), (1, 1)),
    # Germany Option #4: "On a 9 or a 10 ... On a 1-3".
    three_way("Zimmerman note", ch.zimmerman_note, (9, 10), (1, 3)),
    # Austria-Hungary Option #1: "a 50/50 chance of Serbia accepting".
    yes_no("peace with Serbia", ch.serbian_peace, 1, 5),
    # The Russian Revolution: "1 in 10 ... 1915, 2 in 10 ... 1916, a 3 in 10 ... 1917, 4 in 10 ... 1918".
    yes_no("revolution 1915", lambda d: ch.russian_revolution(d, 1915), 1, 1),
    yes_no("revolution 1916", lambda d: ch.russian_revolution(d, 1916), 1, 2),
    yes_no("revolution 1917", lambda d: ch.russian_revolution(d, 1917), 1, 3),
    yes_no("revolution 1918", lambda d: ch.russian_revolution(d, 1918), 1, 4),
    # "... shifted up or down 1 point": Germany Option #6 "+1 in 10", Russia Option #3 "1 in 10 less".
    yes_no(
        "revolution 1916 + German support",
        lambda d: ch.russian_revolution(d, 1916, german_support=True),
        1,
        3,
    ),
    yes_no(
        "revolution 1917 - Russian supply",
        lambda d: ch.russian_revolution(d, 1917, russian_supply=True),
        1,
        2,
    ),
    # "On a 1-7 the unit will become a revolutionary"; later "on an 8-10 it defects".
    yes_no("unit turns revolutionary", ch.unit_turns_revolutionary, 1, 7),
    yes_no("unit defects", ch.unit_defects, 8, 10),
    # Spanish Garrison: "50/50 ... the first time", then "2 in 10"; Spanish/American: "2 in 10".
    yes_no("Spanish garrison, first", lambda d: ch.spanish_garrison(d, first_time=True), 1, 5),
    yes_no("Spanish garrison, later", lambda d: ch.spanish_garrison(d, first_time=False), 1, 2),
    yes_no("Spain resents US entry", ch.spain_resents_us, 1, 2),
    # Mutinies: "2 in 10 chance of a mutiny"; "1-4 ... small ... 5-7 ... large, and 8-10 a disastrous";
    # "On roll of 1-5 on a D10, a revolution will happen".
    # Italy, the British Empire entering unprovoked: "1 ... 20 points for the Allied Powers side,
    # 2-3 ... 4 No changes, 5-8 ... 9-10 Italy gets 20 points for the Central Powers side".
    Stated(
        "Italy's table after Britain's unprovoked entry",
        lambda d: ch.italy_and_britain(d)[1],
        {
            ch.ALLIED_20: (Fraction(1, 10), faces(1, 1)),
            ch.TOWARD_ALLIES: (Fraction(2, 10), faces(2, 3)),
            ch.NO_CHANGE: (Fraction(1, 10), faces(4, 4)),
            ch.TOWARD_CENTRAL: (Fraction(4, 10), faces(5, 8)),
            ch.CENTRAL_20: (Fraction(2, 10), faces(9, 10)),
        },
    ),
    yes_no("Spain's war on a major neutral", ch.spain_goes_to_war, 1, 2),
    yes_no("mutiny", ch.mutiny, 1, 2),
    Stated(
        "mutiny severity",
        ch.mutiny_severity,
        {
            "small": (Fraction(4, 10), faces(1, 4)),
            "large": (Fraction(3, 10), faces(5, 7)),
            "disastrous": (Fraction(3, 10), faces(8, 10)),
        },
    ),
    yes_no("revolution after mutinies", ch.mutiny_revolution, 1, 5),
]


def test_stated_probabilities_sum_to_one() -> None:
    for s in STATED:
        assert sum(p for p, _ in s.outcomes.values()) == 1, s.name


@pytest.mark.parametrize("stated", STATED, ids=[s.name for s in STATED])
def test_rate_matches_stated_chance(stated: Stated) -> None:
    dice = Dice(f"chances/{stated.name}", 1)
    seen = Counter(stated.roll(dice) for _ in range(TRIALS))
    assert set(seen) <= set(stated.outcomes)
    for outcome, (p, _) in stated.outcomes.items():
        sigma = math.sqrt(float(p * (1 - p)) / TRIALS)
        assert abs(seen[outcome] / TRIALS - float(p)) <= 4 * sigma + 1e-12, (outcome, seen)


@pytest.mark.parametrize(
    "stated", [s for s in STATED if all(f for _, f in s.outcomes.values())], ids=lambda s: s.name
)
def test_one_d10_uses_the_stated_faces(stated: Stated) -> None:
    dice = Dice(f"faces/{stated.name}", 1)
    for _ in range(200):
        outcome = stated.roll(dice)
        last = dice.log[-1]
        assert last.dice == "1D10"
        face_set = stated.outcomes[outcome][1]
        assert face_set is not None and last.result in face_set, (outcome, last.result)


def test_every_roll_is_logged_with_a_purpose() -> None:
    dice = Dice("chances-purpose", 1)
    for s in STATED:
        before = len(dice.log)
        s.roll(dice)
        assert len(dice.log) == before + 1, s.name
        assert dice.log[-1].purpose


def test_revolution_chance_by_year() -> None:
    """Phase 9, The Russian Revolution: "1 in 10 ... 1915, 2 in 10 ... 1916, a 3 in 10 ... 1917,
    and a 4 in 10 ... 1918, etc."; shifted 1 by the German and Russian options."""
    assert [ch.revolution_in_ten(y) for y in range(1914, 1920)] == [0, 1, 2, 3, 4, 5]
    assert ch.revolution_in_ten(1915, russian_supply=True) == 0
    assert ch.revolution_in_ten(1918, german_support=True) == 5
    assert ch.revolution_in_ten(1930) == 10
