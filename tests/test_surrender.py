"""Surrender (engine/surrender.py) on the real 1914 map: the answers counted, the terms,
the tribute and the wars the surrender bars (the catalog's surrender-*.txt cases run
whole turns)."""

from __future__ import annotations

import functools

from moderator.engine import surrender
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.engine.orders import declare_war
from moderator.engine.state import GameState
from moderator.orders.model import DeclareWar, OfferSurrender, Span
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "surrender")


def context(rolls: list[int] | None = None) -> TurnContext:
    world, scenario, start = real()
    return TurnContext(start.copy(), {}, world, scenario, dice_root=ScriptedDice(rolls or [], start.turn))


def war(ctx: TurnContext, a: str, b: str) -> None:
    for x, y in ((a, b), (b, a)):
        ctx.state.nations[x].at_war_with = sorted({*ctx.state.nations[x].at_war_with, y})


SPAN = Span(line=1, column=1, text="")


def test_a_victor_never_declares_war_on_the_loser_and_the_loser_waits_three_turns() -> None:
    ctx = context()
    surrender.terms(ctx, "serbia", ["austria-hungary", "germany"])
    rule = declare_war.RULE
    problem = rule.problem(ctx, "germany", DeclareWar(span=SPAN, target="serbia"))
    assert problem is not None and problem.code == "war-on-surrendered"
    problem = rule.problem(ctx, "serbia", DeclareWar(span=SPAN, target="germany"))
    assert problem is not None and problem.code == "war-after-surrender-too-soon"
    ctx.state.turn += surrender.QUIET_TURNS  # surrendered in turn 1: from turn 4
    assert rule.problem(ctx, "serbia", DeclareWar(span=SPAN, target="germany")) is None
    assert ctx.state.nations["serbia"].flags[surrender.SURRENDERED] == 1


def test_a_victor_never_attacks_the_loser_without_a_declaration_either() -> None:
    from moderator.engine.orders import move
    from moderator.orders.model import Move, UnitCount

    ctx = context()
    surrender.terms(ctx, "serbia", ["austria-hungary", "germany"])
    serbian, bosnian = next((s, t) for s in sorted(ctx.world.home_of("serbia")) for t in ctx.world.neighbours(s)
                            if ctx.controller(t) == "austria-hungary")
    ctx.state.new_unit("austria-hungary", "infantry", bosnian)
    assert declare_war.attack_barred(ctx, "austria-hungary", serbian) is not None
    order = Move(span=SPAN, units=(UnitCount("infantry", 1),), origin=bosnian, dest=serbian)
    found = move.RULE.problem(ctx, "austria-hungary", order)
    assert found is not None and found.code == "war-on-surrendered"
    assert declare_war.attack_barred(ctx, "russia", serbian) is None  # an ally of Serbia's


def test_tribute_is_a_quarter_rounded_up_shared_for_twelve_turns_while_at_peace() -> None:
    ctx = context()
    surrender.terms(ctx, "serbia", ["austria-hungary", "germany"])
    before = {n: ctx.state.nations[n].saved for n in ("austria-hungary", "germany")}
    assert surrender.tribute(ctx, "serbia", 9, "8") == 3  # 9/4 rounded up
    assert ctx.state.nations["austria-hungary"].saved - before["austria-hungary"] == 2  # the remainder: first by id
    assert ctx.state.nations["germany"].saved - before["germany"] == 1
    war(ctx, "serbia", "germany")  # "until ... the surrendering nation is again at war with the victorious nation(s)"
    assert surrender.tribute(ctx, "serbia", 8, "8") == 2  # all of it to Austria-Hungary now
    ctx.state.turn += surrender.TRIBUTE_TURNS  # "or two full years have passed (12 turns)"
    assert surrender.tribute(ctx, "serbia", 8, "8") == 0


def test_a_neutral_s_offer_is_answered_by_each_nation_for_itself() -> None:
    ctx = context([0])  # the US Entry's draw for Austria-Hungary's refusal
    war(ctx, "italy", "switzerland")
    war(ctx, "italy", "austria-hungary")
    surrender.offer(ctx, "italy", ())  # to all it is at war with
    ctx.state.turn += 1
    surrender.vote(ctx, "austria-hungary", "italy", accept=False)
    surrender.vote(ctx, "switzerland", "italy", accept=True)
    surrender.decide_offers(ctx)
    assert not ctx.at_war("italy", "switzerland") and ctx.at_war("italy", "austria-hungary")
    assert ctx.state.nations["italy"].flags[surrender.VICTORS] == ["switzerland"]
    assert surrender.OFFER not in ctx.state.nations["italy"].flags


def test_silence_is_no_acceptance() -> None:
    ctx = context()
    surrender.offer(ctx, "serbia", ())
    ctx.state.turn += 1
    surrender.decide_offers(ctx)  # nobody answered: still at war, nobody counted as declining
    assert ctx.at_war("serbia", "austria-hungary") and surrender.SURRENDERED not in ctx.state.nations["serbia"].flags
    (decided,) = [e for e in ctx.events if e.code == "surrender-decided"]
    assert decided.args["accepted"] is False and decided.args["refused_by"] == []


def test_an_offer_waits_a_turn_and_a_second_one_is_refused_meanwhile() -> None:
    from moderator.engine.orders.surrender import OFFER as HOME

    ctx = context()
    surrender.offer(ctx, "serbia", ())
    surrender.decide_offers(ctx)  # the same turn: nothing counted yet
    assert ctx.at_war("serbia", "austria-hungary")
    ctx.state.turn += 1  # the next turn, before its Phase 1.3 counts the answers
    problem = HOME.problem(ctx, "serbia", OfferSurrender(span=SPAN))
    assert problem is not None and problem.code == "surrender-pending"


def test_units_withdraw_to_the_nearest_land_still_held_or_the_moderator_is_told() -> None:
    ctx = context()
    assert surrender.nearest_held(ctx, "serbia", "Bosnia") in ctx.world.home_of("serbia")
    # "by the fastest routes possible": troops march home over land, not over the sea
    assert surrender.nearest_held(ctx, "germany", "Brest") == "Cologne"  # over the sea: Bremen
    assert surrender.nearest_held(ctx, "austria-hungary", "Rome") == "Innsbruck"  # over the Adriatic: Croatia
    assert surrender.nearest_held(ctx, "germany", "London") == "Bremen"  # an island: by sea
    for place in ctx.world.home_of("serbia"):
        ctx.state.control[place] = "austria-hungary"
    ctx.state.control["Bosnia"] = "serbia"
    ctx.state.new_unit("serbia", "infantry", "Bosnia")
    surrender.terms(ctx, "serbia", ["austria-hungary"])
    assert [e.args["reason"] for e in ctx.events if e.code == "moderator-flag"] == ["surrender-units-stranded"]


def test_the_losers_troops_leave_the_victors_land_its_allies_hold_too() -> None:
    """1.3: "If the nation has any troops on territories which belonged to the opposing
    side, then the player must begin removing all troops from those territories"."""
    ctx = context()
    war(ctx, "germany", "serbia")
    ctx.state.control["Serbia"] = "austria-hungary"  # Austria holds Belgrade's land, Germans stand in it
    ctx.state.new_unit("germany", "infantry", "Serbia")
    surrender.terms(ctx, "germany", ["serbia"])
    assert ctx.state.controller("Serbia") == "austria-hungary"  # not the loser's: it stays with its holder
    assert not ctx.state.units_at("Serbia", "germany")
    [gone] = [e for e in ctx.events if e.code == "units-withdrawn"]
    assert (gone.args["place"], gone.args["to"]) == ("Serbia", surrender.nearest_held(ctx, "germany", "Serbia"))
