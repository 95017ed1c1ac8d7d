"""The neutrals' points track (engine/points.py) as Phase 1.2 moves it on the real 1914
opening: influence attempts rolled and their points, self-influence by each neutral's
section, the points Italy and the Ottomans take every turn, reaching a camp (JOIN from
the next turn, no new local war), a non-player minor ready for the replacement pool.

Phase 1.2 is scripted (Phase12Dice); every other step rolls seeded dice, so these tests
do not depend on what later steps roll.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from moderator.engine import wtea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.phase1_diplomacy import diplomatic_influence
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.checker import check_text
from moderator.orders.parser import parse_orders
from tests.test_engine_diplomacy import opening, real


class Phase12Dice(Dice):
    """Seeded dice whose step 1.2 replays `rolls` (and must use them all)."""

    def __init__(self, rolls: Sequence[int], turn: int = 1, seed: str = "points") -> None:
        super().__init__(seed, turn)
        self.scripted = ScriptedDice({"1.2": list(rolls)}, turn, step="1.2", log=self.log)

    def _child(self, section: str) -> Dice:
        return self.scripted if section == "1.2" else super()._child(section)


def turn(orders: dict[str, str], rolls: Sequence[int], state: GameState | None = None
         ) -> tuple[GameState, list[Event]]:
    world, scenario = real()
    parsed = {n: parse_orders(text).orders for n, text in orders.items()}
    dice = Phase12Dice(rolls, (state or opening()).turn)
    new, events = resolve(state or opening(), parsed, world, scenario, dice)
    assert dice.scripted.unused() == {}, "every scripted Phase 1.2 die is used"
    return new, events


def of(events: list[Event], code: str, **args: object) -> list[Event]:
    return [e for e in events if e.code == code and all(e.args.get(k) == v for k, v in args.items())]


def points_rolls(events_or_dice: Dice) -> list[tuple[str, str, int]]:
    return [(r.purpose, r.dice, r.result) for r in events_or_dice.log if r.step == "1.2"]


def change(**standing: int) -> Callable[[GameState], None]:
    def apply(state: GameState) -> None:
        for nation, value in standing.items():
            state.nations[nation].standing = value
    return apply


# Italy's and the Ottomans' points of the turn come after the attempts, in nation order:
# Italy (0-3), then the Ottomans (0-7).
QUIET = [0, 0]


# ---- 1.2 influence -----------------------------------------------------------------------
def test_a_successful_attempt_moves_the_minor_0_8_toward_the_influencer_anonymously() -> None:
    quiet, _ = turn({}, QUIET)
    new, events = turn({"germany": "INFLUENCE Persia"}, [9, 6, *QUIET])  # 9: success; 6 of 0-8
    assert new.nations["persia"].standing == -6  # toward the Central Powers: minus
    assert new.nations["germany"].saved == quiet.nations["germany"].saved - 10
    [attempt] = of(events, "influence-attempt")
    assert attempt.args["success"] is True and attempt.seen_by == ("germany", "moderator")
    [moved] = of(events, "points", nation="persia")
    # Persia learns its points, never who moved them; Germany never learns the points.
    assert moved.seen_by == ("persia", "moderator") and moved.args["change"] == -6 and "by" not in moved.args


def test_a_failed_attempt_moves_nothing_and_a_star_nation_needs_a_10() -> None:
    new, events = turn({"germany": "INFLUENCE Persia"}, [8, *QUIET])
    assert new.nations["persia"].standing == 0 and of(events, "influence-attempt", success=False)
    assert of(events, "points", nation="persia") == []
    # Netherlands is a * nation: "such attempts shall only succeed on a roll of 10".
    new, events = turn({"germany": "INFLUENCE Netherlands"}, [9, *QUIET])
    assert of(events, "influence-attempt", success=False) and new.nations["netherlands"].standing == 0
    new, events = turn({"germany": "INFLUENCE Netherlands"}, [10, 8, *QUIET])
    assert new.nations["netherlands"].standing == -8


def test_the_points_a_success_is_worth_by_target() -> None:
    world, scenario = real()
    dice = Phase12Dice([9, 3, *QUIET])
    spanish = opening()
    resolve(spanish, {"germany": parse_orders("INFLUENCE Spain").orders}, world, scenario, dice)
    # Spain: "obtains 0-3 points toward the side that attempts influence".
    assert ("diplomatic influence (Phase 1.2)", "1D10", 9) in points_rolls(dice)
    assert any(dice_ == "0-3" for purpose, dice_, _ in points_rolls(dice) if purpose.startswith("influence points"))
    boosted = opening(lambda s: s.nations["spain"].flags.update(geared_up=0))
    dice = Phase12Dice([9, 5, *QUIET])
    new, _ = resolve(boosted, {"germany": parse_orders("INFLUENCE Spain").orders}, world, scenario, dice)
    assert new.nations["spain"].standing == -5  # "Spain can have 0-5 points" once boosted


def test_the_track_stops_at_the_camps() -> None:
    new, events = turn({"france": "INFLUENCE Portugal"}, [9, 8, *QUIET])  # +5 and 8
    assert new.nations["portugal"].standing == 10
    assert of(events, "points", nation="portugal")[0].args["change"] == 5


# ---- self-influence ------------------------------------------------------------------------
def test_the_ottomans_influence_themselves_toward_the_allies_without_a_roll() -> None:
    new, events = turn({"ottoman": "INFLUENCE SELF TOWARD Allies"}, [7, *QUIET])  # 0-10, then the turn's points
    assert new.nations["ottoman"].standing == 7
    assert of(events, "points", nation="ottoman", why="self-influence")[0].args["change"] == 7
    assert new.nations["ottoman"].saved == turn({}, QUIET)[0].nations["ottoman"].saved - 10


def test_spain_influences_itself_on_9_or_10_for_0_3_once_boosted() -> None:
    boosted = opening(lambda s: (s.nations["spain"].flags.update(geared_up=1), setattr(s, "turn", 2)))
    new, events = turn({"spain": "INFLUENCE SELF TOWARD Allies"}, [9, 3, *QUIET], boosted)
    assert new.nations["spain"].standing == 3
    new, events = turn({"spain": "INFLUENCE SELF TOWARD Allies"}, [8, *QUIET], boosted)
    assert new.nations["spain"].standing == 0 and of(events, "influence-attempt", success=False)


def test_china_rolling_zero_twice_splits_it_into_two_blocks() -> None:
    geared = opening(lambda s: (s.nations["china"].flags.update(geared_up=1), setattr(s, "turn", 2)))
    once, events = turn({"china": "INFLUENCE SELF TOWARD CP"}, [0, *QUIET], geared)
    assert not of(events, "china-split") and "split" not in once.nations["china"].flags
    once.nations["china"].saved = 30
    once.nations["china"].standing = -3
    twice, events = turn({"china": "INFLUENCE SELF TOWARD CP"}, [0, *QUIET], once)
    [split] = of(events, "china-split")
    assert (split.args["side"], split.args["standing"], split.seen_by) == ("central", -3, ("china", "moderator"))
    flags = twice.nations["china"].flags
    assert (flags["republic_leans"], flags["opposition_points"], twice.nations["china"].standing) == ("central", -3, -3)


# ---- the points of the turn ------------------------------------------------------------------
def test_italy_and_the_ottomans_take_their_points_every_turn() -> None:
    new, events = turn({}, [2, 5])
    assert new.nations["ottoman"].standing == -5  # 0-7 toward the Central Powers
    assert new.nations["italy"].standing == 2  # 0-3 toward the Allies, the side it leans to
    leaning_cp = opening(lambda s: s.nations["italy"].flags.update(leaning="central"))
    new, _ = turn({}, [3, 0], leaning_cp)
    assert new.nations["italy"].standing == -3
    joined = opening(lambda s: setattr(s.nations["ottoman"], "side", "central"))
    new, _ = turn({}, [1], joined)  # only Italy rolls: the Ottomans are in the war
    assert new.nations["italy"].standing == 1


# ---- reaching a camp ----------------------------------------------------------------------
def test_reaching_ten_opens_join_next_turn_and_closes_new_local_wars() -> None:
    world, scenario = real()
    near = opening(change(italy=9))
    new, events = turn({"italy": "JOIN Allies"}, [3, 0], near)
    # The JOIN of this turn is judged on the points as the turn began (9): refused.
    assert [e.args["reason"] for e in of(events, "order-refused")] == ["join-points"]
    assert new.nations["italy"].standing == 10 and new.nations["italy"].flags["reached_ten"] == 1
    assert of(events, "camp-reached", nation="italy")[0].seen_by == ("italy",)
    # Next turn: JOIN is kept, a new war on a neutral refused with the rule's reason.
    assert [d.code for d in check_text("JOIN Allies", "Italy", new, world, scenario).diagnostics] == []
    refused = check_text("DECLARE WAR ON Switzerland", "Italy", new, world, scenario).diagnostics
    assert [d.code for d in refused] == ["war-after-ten"]
    # "even if she lose points ... and even if she is below 10 in next turn(s)"
    new.nations["italy"].standing = 4
    refused = check_text("DECLARE WAR ON Switzerland", "Italy", new, world, scenario).diagnostics
    assert [d.code for d in refused] == ["war-after-ten"]
    assert [d.code for d in check_text("JOIN Allies", "Italy", new, world, scenario).diagnostics] == ["join-points"]


def test_join_by_points_makes_the_neutral_a_member_publicly() -> None:
    ready = opening(change(italy=10))
    new, events = turn({"italy": "JOIN Allies"}, QUIET, ready)  # JOIN is Phase 1.5, after the points
    assert new.nations["italy"].side == "allied"
    [joined] = of(events, "joined", nation="italy")
    assert joined.seen_by == () and joined.args["why"] == "points"


def test_joining_a_side_declares_no_war_a_declaration_in_the_same_mail_does() -> None:
    """Neutrals: 10 points let a neutral "declare themselves as a member ... and to declare
    war against oposite camp": the JOIN makes it a member, its wars are its declarations
    (docs/rules-coverage.md, Phase 1 reading 31)."""
    ready = opening(change(italy=10))
    new, _ = turn({"italy": "JOIN Allies"}, QUIET, ready)
    assert new.nations["italy"].side == "allied" and "germany" not in new.nations["italy"].at_war_with
    new, events = turn({"italy": "JOIN Allies\nDECLARE WAR ON Austria-Hungary"}, QUIET, ready)
    assert "austria-hungary" in new.nations["italy"].at_war_with
    assert "italy" in new.nations["austria-hungary"].at_war_with


def test_a_non_player_minor_at_ten_is_announced_to_its_side_not_named() -> None:
    new, events = turn({"france": "INFLUENCE Portugal"}, [9, 6, *QUIET])
    [ready] = of(events, "minor-ready")
    assert ready.args == {"side": "allied"} and "portugal" not in ready.seen_by
    assert "france" in ready.seen_by and "germany" not in ready.seen_by
    [flagged] = of(events, "moderator-flag", reason="minor-ready-replacement-pool")
    assert flagged.args["nation"] == "portugal"
    assert new.nations["portugal"].side == "neutral"  # until a player takes it and JOINs


def test_a_minor_bouncing_at_its_camp_is_announced_once_and_again_after_coming_back_to_the_middle() -> None:
    """The side is told again after the minor came back to 0; the moderator is asked once
    per minor and camp (the same question of the replacement pool)."""
    from moderator.engine import points

    world, scenario = real()
    ctx = TurnContext(opening(change(portugal=9)), {}, world, scenario, dice_root=Dice("bounce", 1))

    def announced() -> int:
        return len(of(ctx.events, "moderator-flag", reason="minor-ready-replacement-pool"))

    points.move(ctx, "portugal", "allied", 1, "drift", "9")
    points.move(ctx, "portugal", "central", 1, "drift", "9")
    points.move(ctx, "portugal", "allied", 1, "drift", "9")  # 10, 9, 10: told once
    assert announced() == 1 and len(of(ctx.events, "minor-ready")) == 1
    points.move(ctx, "portugal", "central", 10, "drift", "9")  # back to 0
    points.move(ctx, "portugal", "allied", 10, "drift", "9")  # the camp again: news for the side ...
    assert len(of(ctx.events, "minor-ready")) == 2 and announced() == 1  # ... not a new question
    points.move(ctx, "portugal", "central", 20, "drift", "9")  # the other camp: news, and a question
    assert [e.args["side"] for e in of(ctx.events, "minor-ready")] == ["allied", "allied", "central"]
    assert [e.args["details"]["side"] for e in of(ctx.events, "moderator-flag")] == ["allied", "central"]


# ---- the stated ranges, measured -------------------------------------------------------------
def test_the_points_of_the_turn_are_uniform_over_their_ranges() -> None:
    """Ottomans 0-7, Italy 0-3 ("random number is drawn between 0 and ..."): 800 seeded turns."""
    world, scenario = real()
    start = opening()
    step = next(s for s in wtea.PHASES if s.section == "1.2")
    seen: dict[str, Counter[int]] = {"ottoman": Counter(), "italy": Counter()}
    for seed in range(800):
        ctx = TurnContext(start.copy(), {}, world, scenario, dice_root=Dice(f"points-{seed}", 1), step=step)
        diplomatic_influence(ctx)  # the step's own work: the points of the turn
        seen["ottoman"][-ctx.state.nations["ottoman"].standing] += 1
        seen["italy"][ctx.state.nations["italy"].standing] += 1
    for nation, top in (("ottoman", 7), ("italy", 3)):
        assert sorted(seen[nation]) == list(range(top + 1))
        expected = 800 / (top + 1)
        sd = (800 * (1 / (top + 1)) * (1 - 1 / (top + 1))) ** 0.5
        for face, n in seen[nation].items():
            assert abs(n - expected) < 4.5 * sd, (nation, face, n)


# ---- COAX Italy ---------------------------------------------------------------------------------
def test_a_coaxing_turns_italys_leaning_unless_the_other_side_blocks_it() -> None:
    # Germany's 1 on the D10: Italy leans to the Central Powers, and takes 0-4 a turn toward them.
    new, events = turn({"germany": "COAX Italy"}, [1, 4, 0])
    assert new.nations["italy"].flags["leaning"] == "central" and new.nations["italy"].standing == -4
    assert [e.seen_by for e in of(events, "leaning-changed")] == [("italy",), ("moderator",)]
    assert new.nations["italy"].saved == turn({}, QUIET)[0].nations["italy"].saved + 20  # "Italy gets to keep"
    # France, on the side Italy leans to, blocks it with its own success (nations by id: France first).
    new, events = turn({"germany": "COAX Italy", "france": "COAX Italy"}, [1, 1, 3, 0])
    assert "leaning" not in new.nations["italy"].flags and new.nations["italy"].standing == 3
    # A failed coaxing changes nothing.
    new, events = turn({"germany": "COAX Italy"}, [2, 0, 0])
    assert "leaning" not in new.nations["italy"].flags and of(events, "influence-attempt", success=False)


def test_a_block_lasts_italy_leans_twice_until_the_other_side_counteracts() -> None:
    """"block a successful attempt made by the opposing side (ie. Italy is leaning twice
    toward that side)"; Austro-Hungarian #2: "if Allied Powers succeed once to do the
    former, then Central Powers must counteract". France's success alone leaves Italy
    leaning twice toward the Allies (its 0-3 of the turn drawn twice, as "twice
    attracted"); Germany's next success takes the second leaning away, and only a further
    one turns Italy."""
    from moderator.engine.british_entry import TWICE

    new, events = turn({"france": "COAX Italy"}, [1, 2, 3, 0])  # the 1, then Italy's 0-3 twice, the Ottomans'
    assert new.nations["italy"].flags[TWICE] == "allied" and new.nations["italy"].standing == 5
    assert "leaning" not in new.nations["italy"].flags and not of(events, "leaning-changed")
    again, events = turn({"germany": "COAX Italy"}, [1, 1, 0], new)  # counteracted: not turned
    assert TWICE not in again.nations["italy"].flags and "leaning" not in again.nations["italy"].flags
    assert not of(events, "leaning-changed") and again.nations["italy"].standing == 6
    turned, events = turn({"germany": "COAX Italy"}, [1, 0, 0], again)  # now it turns
    assert turned.nations["italy"].flags["leaning"] == "central" and of(events, "leaning-changed")


# ---- PEACE -----------------------------------------------------------------------------------
def test_a_peace_both_write_is_made_and_one_sided_is_told() -> None:
    at_war = opening(lambda s: (s.nations["italy"].at_war_with.append("switzerland"),
                                s.nations["switzerland"].at_war_with.append("italy")))
    new, events = turn({"italy": "PEACE WITH Switzerland", "switzerland": "PEACE WITH Italy"}, QUIET, at_war)
    assert "switzerland" not in new.nations["italy"].at_war_with and "italy" not in new.nations["switzerland"].at_war_with
    assert [e.args["nations"] for e in of(events, "peace-made")] == [["italy", "switzerland"]]
    new, events = turn({"italy": "PEACE WITH Switzerland"}, QUIET, at_war)
    assert "switzerland" in new.nations["italy"].at_war_with
    [offered] = of(events, "peace-offered")
    assert offered.seen_by == ("italy", "switzerland", "moderator")
