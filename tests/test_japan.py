"""Japan's war options and income (engine/japan.py; Japan, options 1-6) on the real 1914 map."""

from __future__ import annotations

import functools

from moderator.engine import japan as jp
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.engine.neutral_income import income_rule
from moderator.engine.phase8_income import apply_income_rule, full_income
from moderator.engine.state import GameState
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "japan")


def context(geared: bool = True) -> TurnContext:
    world, scenario, start = real()
    state = start.copy()
    if geared:
        state.nations["japan"].income_rule = "fixed:30"
    return TurnContext(state, {}, world, scenario, dice_root=ScriptedDice([], state.turn))


def war(ctx: TurnContext, other: str, option: int | None = None) -> None:
    for a, b in (("japan", other), (other, "japan")):
        ctx.state.nations[a].at_war_with = sorted({*ctx.state.nations[a].at_war_with, b})
    if option is not None:
        ctx.state.nations["japan"].flags.setdefault("options_used", {})[str(option)] = 1
    if option == 4:
        ctx.state.nations["japan"].flags[jp.LIMITED_RUSSIA] = 1  # as option #4 begins it


def rule(ctx: TurnContext) -> str:
    return income_rule(ctx.state, ctx.scenario, "japan")


def test_each_war_option_adds_10_while_its_war_lasts() -> None:
    ctx = context()
    assert rule(ctx) == "fixed:30"  # at war with Germany from the start: no bonus
    war(ctx, "ottoman", 1)
    assert rule(ctx) == "fixed:40"
    war(ctx, "austria-hungary", 2)
    assert rule(ctx) == "fixed:50"
    ctx.state.nations["japan"].flags["options_used"]["3"] = 1  # the Suez bonus
    assert rule(ctx) == "fixed:60"
    war(ctx, "russia", 4)  # the limited war
    assert rule(ctx) == "fixed:70"
    ctx.state.nations["japan"].at_war_with.remove("ottoman")  # a war over: its bonus and Suez's end
    assert rule(ctx) == "fixed:50"


def test_the_bonuses_never_pass_the_full_income() -> None:
    ctx = context()
    for other, option in (("ottoman", 1), ("austria-hungary", 2), ("russia", 4)):
        war(ctx, other, option)
    ctx.state.nations["japan"].flags["options_used"]["3"] = 1
    full = full_income(ctx.world, ctx.state, "japan", ctx.turn)
    assert apply_income_rule(rule(ctx), full) == min(70, full)


def test_full_wars_and_a_lost_homeland_pay_in_full() -> None:
    ctx = context()
    war(ctx, "russia", 4)
    ctx.state.nations["japan"].flags[jp.FULL_WAR_RUSSIA] = 1
    assert rule(ctx) == "full"
    ctx = context()
    war(ctx, "china", 5)
    assert rule(ctx) == "full"
    ctx = context()
    ctx.state.nations["japan"].flags.setdefault("options_used", {})["6"] = 1  # "until the end of the game"
    assert rule(ctx) == "full"
    ctx = context(geared=False)
    ctx.state.control["Formosa"] = "germany"
    jp.end_of_turn(ctx)
    assert rule(ctx) == "full" and ctx.state.nations["japan"].flags[jp.LOST_HOME] == ctx.turn


def test_the_limited_war_with_russia_ends_with_korea_or_two_russian_provinces() -> None:
    ctx = context()
    war(ctx, "russia", 4)
    ctx.state.control["Korea"] = "russia"
    jp.end_of_turn(ctx)
    assert "russia" not in ctx.state.nations["japan"].at_war_with
    assert jp.LOST_HOME not in ctx.state.nations["japan"].flags  # "other than Russia capturing Korea"
    [ended] = [e for e in ctx.events if e.code == "local-war-ended"]
    assert ended.args["winners"] == ["russia"]
    ctx = context()
    war(ctx, "russia", 4)
    russian = sorted(ctx.world.home_of("russia"))
    ctx.state.control[russian[0]] = "japan"
    jp.end_of_turn(ctx)
    assert "russia" in ctx.state.nations["japan"].at_war_with
    ctx.state.control[russian[1]] = "japan"
    jp.end_of_turn(ctx)
    assert "russia" not in ctx.state.nations["japan"].at_war_with
    assert ctx.state.nations["japan"].flags[jp.WON_RUSSIA] == ctx.turn
    ctx = context()
    war(ctx, "russia", 4)
    ctx.state.nations["japan"].flags[jp.FULL_WAR_RUSSIA] = 1
    ctx.state.control[russian[0]] = ctx.state.control[russian[1]] = "japan"
    jp.end_of_turn(ctx)
    assert "russia" in ctx.state.nations["japan"].at_war_with  # a full war goes on


def test_war_on_a_china_in_the_war_is_war_on_its_side_and_option_6_spares_russia() -> None:
    ctx = context()
    assert jp.targets(ctx, 5) == ["china"]
    ctx.state.nations["china"].side = "central"
    assert jp.targets(ctx, 5) == sorted(n for n, ns in ctx.state.nations.items() if ns.side == "central")
    assert "russia" not in jp.targets(ctx, 6) and "france" in jp.targets(ctx, 6)
