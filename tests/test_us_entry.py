"""The US Entry track's events (engine/us_entry.py) on the real 1914 map: every event
moves the USA's points through engine/points.move, within -10..+10."""

from __future__ import annotations

import functools
from collections import Counter

from moderator.engine import phase9_neutrals, points, us_entry, wars
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario

PHASE = "9"


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "us-entry")


def context(rolls: list[int] | None = None, dice: Dice | None = None) -> TurnContext:
    world, scenario, start = real()
    return TurnContext(start.copy(), {}, world, scenario, dice_root=dice or ScriptedDice(rolls or [], start.turn))


def of(ctx: TurnContext, code: str, **match: object) -> list[Event]:
    return [e for e in ctx.events if e.code == code and all(e.args.get(k) == v for k, v in match.items())]


def entry(ctx: TurnContext) -> int:
    return ctx.state.nations["usa"].standing


def test_japan_s_full_war_on_russia_moves_the_entry_0_2_toward_the_allies_doubled_if_undeclared() -> None:
    ctx = context([2])
    wars.begin(ctx, "japan", "russia", "1.1", surprise=False)
    assert entry(ctx) == 2 and of(ctx, "points", nation="usa", why="japan-war-on-russia")
    ctx = context([2])
    wars.begin(ctx, "japan", "russia", "4.4", surprise=True)  # Phase 1.1: "double penalty for US entry"
    assert entry(ctx) == 4


def test_japan_s_war_on_neutral_china_moves_the_entry_0_4_toward_the_cp_and_the_usa_may_declare() -> None:
    ctx = context([3, 6])  # 3 points; 6: no US declaration (1-5)
    wars.begin(ctx, "japan", "china", "1.1", surprise=False)
    assert entry(ctx) == -3 and not ctx.at_war("usa", "japan")
    assert ctx.state.nations["usa"].flags[us_entry.CHINA_WAR] == ctx.turn
    ctx = context([0, 5])  # 0 points; 5: the USA declares war on Japan
    wars.begin(ctx, "japan", "china", "1.1", surprise=False)
    assert ctx.at_war("usa", "japan") and of(ctx, "war-declared", nation="usa", target="japan")


def test_the_usa_allies_china_2_in_10_each_later_turn_while_that_war_lasts() -> None:
    ctx = context([0, 6, 3, 2])
    wars.begin(ctx, "japan", "china", "1.1", surprise=False)  # 0 points, 6: no
    us_entry.us_allies_china(ctx, PHASE)  # the same turn: no roll
    ctx.state.turn += 1
    us_entry.us_allies_china(ctx, PHASE)  # 3: not 1-2
    assert not ctx.at_war("usa", "japan")
    us_entry.us_allies_china(ctx, PHASE)  # 2
    assert ctx.at_war("usa", "japan") and us_entry.CHINA_WAR not in ctx.state.nations["usa"].flags
    us_entry.us_allies_china(ctx, PHASE)  # nothing left to roll: the script is empty


def test_the_usa_declares_on_japan_half_the_time_when_japan_attacks_china() -> None:
    """US entry 5: "(1-5 on D10 die)", through the engine, fixed seeds."""
    seen = Counter()
    for seed in range(400):
        ctx = context(dice=Dice(f"us-china/{seed}", 1))
        ctx.step = None
        wars.begin(ctx, "japan", "china", "1.1", surprise=False)
        seen[ctx.at_war("usa", "japan")] += 1
    assert 160 <= seen[True] <= 240, seen  # 0.5 within 4 sigma (sigma = 10)


def test_the_trade_cut_to_russia_moves_the_entry_and_a_blockade_2_in_10() -> None:
    ctx = context([2, 2, 1, 3])
    ctx.state.nations["britain"].side = "allied"
    for nation, reason in (("russia", "unrestricted-submarine-warfare"), ("germany", "naval-blockade"),
                           ("france", "unrestricted-submarine-warfare"), ("britain", "us-trade-blockade")):
        ctx.tell(nation, "us-trade-cut", "8", amount=5, reason=reason, by=[])
    us_entry.trade_cut_events(ctx, PHASE)
    # Russia +2; Germany: 2 (on 1-2), -1; France: not a blockade, no roll; Britain: 3, nothing.
    moves = [(e.args["change"], e.args["why"]) for e in of(ctx, "points", nation="usa")]
    assert moves == [(2, "trade-to-russia-cut"), (-1, "blockade")]
    assert entry(ctx) == 1


def test_a_conquest_on_the_favoured_side_counts_once() -> None:
    ctx = context([4])
    ctx.state.nations["usa"].standing = 3  # leaning to the Allies
    for place in ctx.world.home_of("serbia"):
        ctx.state.control[place] = "austria-hungary"
    us_entry.conquests(ctx, PHASE)
    us_entry.conquests(ctx, PHASE)  # noted: no second draw
    assert entry(ctx) == 7 and ctx.state.nations["serbia"].flags[us_entry.CONQUERED] == ctx.turn


def test_surrender_and_refusal_move_the_entry_by_the_side() -> None:
    ctx = context([2, 1])
    ctx.state.nations["usa"].standing = -1  # leaning to the Central Powers
    us_entry.surrendered(ctx, "austria-hungary", "1.3", us_entry.favoured(ctx))  # a CP nation: 2 toward the CP
    us_entry.refused_surrender(ctx, ["germany"], "1.3")  # a CP nation refuses: 1 toward the Allies
    assert entry(ctx) == -2
    us_entry.surrendered(ctx, "france", "1.3", us_entry.favoured(ctx))  # not the favoured side: nothing drawn


def test_the_track_is_bounded_for_every_event_and_the_economic_roll() -> None:
    ctx = context([9])
    ctx.state.nations["usa"].standing = 9
    ctx.emit("income", "8", ("france",), nation="france", full=0, rule="full", amount=50, saved=0, kept_apart=0)
    phase9_neutrals.us_economic_roll(ctx.__class__(ctx.state, {}, ctx.world, ctx.scenario,
                                                    dice_root=ScriptedDice([9, 2], 1), events=ctx.events))
    assert entry(ctx) == points.CAMP  # 9 + 2 stops at the Allied camp
    assert ctx.state.nations["usa"].flags[points.REACHED] == ctx.turn


def test_nothing_moves_the_entry_once_the_usa_is_at_war() -> None:
    ctx = context([])
    ctx.state.nations["usa"].side = "allied"
    wars.begin(ctx, "japan", "russia", "1.1", surprise=False)  # no draw at all
    assert entry(ctx) == 0


def test_the_usa_at_war_with_a_major_asks_the_moderator_for_its_pace_to_full_production() -> None:
    """US option #2: "If at war with a minor nation, the US will not collect any additional
    resources per turn. If at war with a major nation, then the US will begin to gear
    towards full war time production." The pace is the moderator's (flagged); the default
    keeps option #1's 35, and the trade goes on to the nations the US is not at war with
    (Variable US Trade: it stops "going to a nation if the US becomes at war with that nation")."""
    from moderator.engine import us_trade
    from moderator.engine.neutral_income import income_rule

    ctx = context()
    ctx.state.nations["usa"].income_rule = "fixed:35"  # geared up (option #1), as the Congress vote needs
    wars.begin(ctx, "usa", "mexico", "1.5", surprise=False)
    assert income_rule(ctx.state, ctx.scenario, "usa") == "fixed:35" and not of(ctx, "moderator-flag",
                                                                              reason="us-war-production")
    wars.begin(ctx, "usa", "italy", "1.5", surprise=False)
    [flagged] = of(ctx, "moderator-flag", reason="us-war-production")
    assert flagged.args["details"] == {"enemy": "italy", "rule": "fixed:35"} and flagged.seen_by == ("moderator",)
    assert income_rule(ctx.state, ctx.scenario, "usa") == "fixed:35" and us_trade.trade_due(ctx, "germany") == 8
    # The moderator's pace, up to full production, which stops the trade ("geared up to its maximum").
    ctx.state.nations["usa"].flags["income_ruling"] = "full"
    assert income_rule(ctx.state, ctx.scenario, "usa") == "full" and us_trade.trade_due(ctx, "germany") == 0
    # A main-war nation's declaration brings the USA into the war: in full, no question.
    ctx = context(dice=Dice("us-war-production", 1))
    wars.begin(ctx, "germany", "usa", "1.1", surprise=False)
    assert ctx.state.nations["usa"].side == "allied" and not of(ctx, "moderator-flag", reason="us-war-production")


def test_the_usas_gear_up_is_flagged_again_each_turn_until_the_moderator_makes_it_full() -> None:
    """US option #2: "will begin to gear towards full war time production", a gear-up over
    turns (reading 33): the flag comes back in Phase 9 of each later turn, once a turn,
    until the income is full; a war on a minor or no war raises none."""
    world, scenario, _ = real()
    ctx = context()
    ctx.state.nations["usa"].income_rule = "fixed:35"
    wars.begin(ctx, "usa", "italy", "1.5", surprise=False)
    us_entry.war_production_pace(ctx, PHASE)  # the turn the war began: told once
    assert len(of(ctx, "moderator-flag", reason="us-war-production")) == 1
    paces = []
    for ruling in ("", "fixed:45", "full"):
        if ruling:
            ctx.state.nations["usa"].flags["income_ruling"] = ruling
        later = TurnContext(ctx.state.copy(), {}, world, scenario, dice_root=ScriptedDice([]))
        us_entry.war_production_pace(later, PHASE)
        paces.append([(e.args["details"]["enemy"], e.args["details"]["rule"])
                      for e in of(later, "moderator-flag", reason="us-war-production")])
    assert paces == [[("italy", "fixed:35")], [("italy", "fixed:45")], []]
    minor = context()
    wars.begin(minor, "usa", "mexico", "1.5", surprise=False)
    quiet = TurnContext(minor.state.copy(), {}, world, scenario, dice_root=ScriptedDice([]))
    us_entry.war_production_pace(quiet, PHASE)
    assert not of(quiet, "moderator-flag", reason="us-war-production")
