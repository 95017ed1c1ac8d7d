"""China's split into two blocks and its civil war (engine/china_split.py; China) on the
real 1914 map."""

from __future__ import annotations

import functools

from moderator.engine import china_split as cs
from moderator.engine import points, wars
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.neutral_income import income_rule
from moderator.engine.state import GameState
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario
from tests.test_engine_diplomacy import codes_1914, errors
from tests.test_engine_points import QUIET, of, turn

CHINA, EMPIRE = cs.CHINA, cs.EMPIRE


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "china-split")


def split_state(standing: int, opposition: int, leans: str = "allied",
                units: list[tuple[str, str]] | None = None) -> GameState:
    _, _, start = real()
    state = start.copy()
    china = state.nations[CHINA]
    china.standing = standing
    china.flags.update({cs.SPLIT: 1, cs.LEANS: leans, cs.OPPOSITION: opposition, "geared_up": 0})
    china.income_rule = "percent:60"
    if units is not None:
        state.units = [u for u in state.units if u.nation != CHINA]
        for kind, place in units:
            state.new_unit(CHINA, kind, place)
    return state


def context(state: GameState, rolls: list[int] | None = None) -> TurnContext:
    world, scenario, _ = real()
    dice = ScriptedDice(rolls, state.turn) if rolls is not None else Dice("china-split", state.turn)
    return TurnContext(state, {}, world, scenario, dice_root=dice)


# ---- the two tracks ---------------------------------------------------------------------------
def test_the_worlds_events_move_both_tracks_each_stopping_at_its_own_camp() -> None:
    ctx = context(split_state(9, -9))
    points.move(ctx, CHINA, "central", 4, "drift", "9")
    assert (ctx.state.nations[CHINA].standing, ctx.state.nations[CHINA].flags[cs.OPPOSITION]) == (5, -10)
    points.move(ctx, CHINA, "allied", 7, "drift", "9")
    assert (ctx.state.nations[CHINA].standing, ctx.state.nations[CHINA].flags[cs.OPPOSITION]) == (10, -3)
    [moved] = of(ctx.events, "opposition-points", change=7)
    assert (moved.args["side"], moved.args["standing"], moved.seen_by) == ("central", -3, ("china", "moderator"))


def test_after_the_split_one_self_influence_draws_for_each_bloc_whatever_side_it_names() -> None:
    state = split_state(3, 3)
    state.turn = 3
    new, events = turn({"china": "INFLUENCE SELF TOWARD CP"}, [2, 1, *QUIET], state)
    assert new.nations[CHINA].standing == 5  # the republic's bloc: 0-2 toward the Allies
    assert new.nations[CHINA].flags[cs.OPPOSITION] == 2  # the other bloc: 0-2 toward the Central Powers
    assert new.nations[CHINA].saved == turn({}, QUIET, state)[0].nations[CHINA].saved - 15  # the same price


def test_either_track_at_its_camp_as_the_turn_began_lets_china_join_that_camp() -> None:
    state = split_state(4, -10)
    assert codes_1914("JOIN Central Powers", "China", state) == []
    assert errors(codes_1914("JOIN Allies", "China", state)) == ["join-points"]
    assert errors(codes_1914("JOIN Allies", "China", split_state(4, -9))) == ["join-points"]


def test_a_joining_ends_the_split() -> None:
    ctx = context(split_state(4, -10))
    wars.join(ctx, CHINA, "central", "1.5", why="points")
    cs.end_of_turn(ctx)
    assert not {cs.SPLIT, cs.LEANS, cs.OPPOSITION} & set(ctx.state.nations[CHINA].flags)


# ---- the civil war ----------------------------------------------------------------------------
def test_no_civil_war_while_only_one_bloc_stands_at_its_camp() -> None:
    ctx = context(split_state(10, -9), [])
    cs.end_of_turn(ctx)
    assert ctx.state.nations[CHINA].flags.get(cs.CIVIL_WAR) is None and not of(ctx.events, "china-civil-war")


def test_both_blocs_at_their_camps_split_the_army_seven_to_ten_imperial() -> None:
    units = [("infantry", "Yunnan"), ("artillery", "Gansu"), ("infantry", "Sichuan"), ("cruiser", "Yellow Sea")]
    # by unit id: artillery (Gansu), cruiser, infantry (Yunnan), infantry (Sichuan)
    ctx = context(split_state(10, -10, units=units), [7, 10, 6, 1])
    cs.end_of_turn(ctx)
    where = sorted((u.nation, u.kind, u.location) for u in ctx.state.units if u.nation in (CHINA, EMPIRE))
    assert where == [("china", "infantry", "Sichuan"), ("china", "infantry", "Yunnan"),
                     ("china_empire", "artillery", "Gansu"), ("china_empire", "cruiser", "Yellow Sea")]
    assert ctx.state.controller("Gansu") == EMPIRE and ctx.state.incorporated.get("Gansu") is not None
    assert ctx.state.controller("Yunnan") == CHINA
    assert ctx.at_war(CHINA, EMPIRE) and not wars.ends_on_capture(ctx, CHINA, EMPIRE)
    [event] = of(ctx.events, "china-civil-war")
    assert event.seen_by == () and event.args["went"] == {"artillery": 1, "cruiser": 1}
    assert (event.args["held"], event.args["republic"], event.args["empire"]) == (["Gansu"], "allied", "central")
    assert of(ctx.events, "moderator-flag", reason="china-civil-war")
    empire = ctx.state.nations[EMPIRE]
    assert empire.standing == -10 and empire.flags.get("active") is None
    for nation in (CHINA, EMPIRE):  # "both sides collect full amount of resources"
        assert income_rule(ctx.state, ctx.scenario, nation) == "full"
    assert errors(codes_1914("JOIN Allies", "China", ctx.state)) == ["join-in-local-war"]


def test_republicans_and_imperials_in_one_province_clash_both_attacking() -> None:
    # the first of three turns imperial (7); the clash: the republicans 1 1 (hits), the imperial 10
    ctx = context(split_state(10, -10, units=[("infantry", "Sichuan")] * 3), [7, 3, 2, 1, 1, 10])
    cs.end_of_turn(ctx)
    assert sorted(u.nation for u in ctx.state.units if u.location == "Sichuan") == [CHINA, CHINA]
    [battle] = of(ctx.events, "battle", territory="Sichuan")
    assert battle.args["clash"] and battle.args["attackers"] == [CHINA, EMPIRE]
    assert battle.args["losses"] == {"china": {}, "china_empire": {"infantry": 1}}
    [event] = of(ctx.events, "china-civil-war")
    assert (event.args["battles"], event.args["held"]) == (["Sichuan"], [])


def test_the_civil_war_ends_when_one_faction_holds_no_land_of_china_and_the_winner_takes_it_all() -> None:
    ctx = context(split_state(10, -10, units=[("infantry", "Yunnan"), ("infantry", "Gansu")]), [8, 2])
    cs.end_of_turn(ctx)  # the Empire holds Yunnan
    ctx.state.control["Yunnan"] = CHINA  # the republic takes it back
    cs.end_of_turn(ctx)
    china = ctx.state.nations[CHINA]
    assert {u.nation for u in ctx.state.units if u.location in ("Yunnan", "Gansu")} == {CHINA}
    assert china.standing == 10 and not {cs.CIVIL_WAR, cs.SPLIT, cs.OPPOSITION} & set(china.flags)
    assert not ctx.at_war(CHINA, EMPIRE) and ctx.state.nations[EMPIRE].flags == {"active": False}
    assert income_rule(ctx.state, ctx.scenario, CHINA) == "percent:60"  # "China collects 60% ..."
    [ended] = of(ctx.events, "china-civil-war-ended")
    assert (ended.args["winner"], ended.args["side"]) == (CHINA, "allied")
    assert not of(ctx.events, "moderator-flag", reason="china-civil-war-ended")


def test_an_imperial_victory_hands_china_to_the_emperor_and_his_side() -> None:
    ctx = context(split_state(10, -10, units=[("infantry", "Yunnan")]), [9])
    cs.end_of_turn(ctx)
    for place, holder in list(ctx.state.control.items()):
        if holder == CHINA:
            ctx.state.control[place] = EMPIRE
    cs.end_of_turn(ctx)
    assert ctx.state.controller("Beijing") == CHINA and ctx.state.nations[CHINA].standing == -10
    assert of(ctx.events, "china-civil-war-ended", winner=EMPIRE, side="central")
    assert of(ctx.events, "moderator-flag", reason="china-civil-war-ended")


def test_the_factions_cannot_make_peace_but_a_peace_the_moderator_rules_ends_it_for_the_capitals_holder() -> None:
    """"until the end of hostilities and after that the winner takes the charge over China":
    the civil war ends with a winner, so PEACE WITH between the factions is refused; a
    peace the moderator rules ends it, the holder of Beijing winning."""
    ctx = context(split_state(10, -10, units=[("infantry", "Beijing"), ("infantry", "Yunnan")]), [9, 1])
    cs.end_of_turn(ctx)
    assert ctx.state.controller("Beijing") == EMPIRE and ctx.state.controller("Yunnan") == CHINA
    cs.end_of_turn(ctx)
    assert not of(ctx.events, "china-civil-war-ended")  # both hold land and fight on
    assert errors(codes_1914("PEACE WITH Chinese Empire", "China", ctx.state)) == ["peace-civil-war"]
    assert errors(codes_1914("PEACE WITH China", "china_empire", ctx.state)) == ["peace-civil-war"]
    wars.make_peace(ctx, CHINA, EMPIRE, "1.1")
    cs.end_of_turn(ctx)
    assert of(ctx.events, "china-civil-war-ended", winner=EMPIRE, side="central")
