"""The colonies' manpower limit, apart from the home one (Manpower limits; Mutinies: "no
matter if the mutiny started because of loss of manpower in colonies or in mainland";
German option #5; the Starvation Rule), on the real 1914 map: the price of infantry
built in a colony, what placing them counts against, the mutiny roll they risk, the
warning in the receipt, and starvation of a shut-in colony."""

from __future__ import annotations

import functools

from moderator.engine import manpower, phase9_mutiny, phase9_starvation, treasuries
from moderator.engine.check import check_orders
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.event_codes import SCHEMA
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "colonial-manpower")


def france(colonial_built: int = 0, saved: int = 200) -> GameState:
    """France with `saved` at home and in French North Africa's own treasury (separated
    from the mainland: units built there are paid there, engine/treasuries.py)."""
    world, scenario, start = real()
    s = start.copy()
    s.nations["france"].flags[manpower.COLONIAL_BUILT] = colonial_built
    s.nations["france"].saved = saved
    ctx = TurnContext(s, {}, world, scenario)
    key = treasuries.treasury_of(ctx, "france", "Morocco")
    assert key is not None
    s.nations["france"].flags[treasuries.HELD] = {key: saved}
    return s


def turn(s: GameState, orders: dict[str, list[m.Order]]) -> tuple[GameState, list[Event], TurnContext]:
    """The turn resolved (seeded dice), and a context holding its events for the mutiny
    check; the purposes of its rolls in ctx.__dict__["dice_log"]."""
    world, scenario, _ = real()
    dice = Dice("colonial-manpower", s.turn)
    new, events = resolve(s, orders, world, scenario, dice)
    ctx = TurnContext(new, {}, world, scenario)
    ctx.events.extend(events)
    ctx.__dict__["dice_log"] = [r.purpose for r in dice.log]
    return new, events, ctx


def built(events: list[Event], place: str) -> Event:
    (e,) = [e for e in events if e.code == "built" and e.args["place"] == place]
    return e


def test_the_scenario_gives_the_colonial_empires_a_colonies_limit() -> None:
    _, scenario, start = real()
    assert start.nations["france"].flags[manpower.COLONIAL] == scenario.nations["france"].colonial_manpower == 12
    assert manpower.COLONIAL not in start.nations["russia"].flags  # one limit for all its land


def test_a_colony_counts_against_the_colonies_limit_and_home_against_the_home_one() -> None:
    world, scenario, start = real()
    ctx = TurnContext(start.copy(), {}, world, scenario)
    assert manpower.colonial(ctx, "france", "Morocco") and manpower.colonial(ctx, "france", "Algeria")
    assert not manpower.colonial(ctx, "france", "Paris")
    assert not manpower.colonial(ctx, "russia", "Vladivostok")  # Russia has no colonies' limit
    assert not manpower.colonial(ctx, "france", None)


def test_infantry_past_the_colonies_limit_cost_double_while_home_infantry_do_not() -> None:
    s = france(colonial_built=11)  # one left of the 12
    home_before = s.nations["france"].infantry_built
    new, events, _ = turn(s, {"france": [m.Build("infantry", 3, "Morocco"), m.Build("infantry", 2, "Paris")]})
    at_home = built(events, "Paris").args
    price = at_home["cost"] // 2
    assert at_home["count"] == 2 and at_home["cost"] == 2 * price  # within the home limit: no surcharge
    colony = built(events, "Morocco").args
    assert colony["count"] == 3 and colony["cost"] == price + 2 * price + 2 * price
    assert new.nations["france"].flags[manpower.COLONIAL_BUILT] == 14
    assert new.nations["france"].infantry_built == home_before + 2


def test_german_east_africa_builds_against_the_colonies_limit_unless_supplied() -> None:
    # Without German option #5 the colony's infantry are the colonies'; on a supplied turn
    # they are the mainland's (the catalog case option-germany-sneaks-supplies-to-east-africa).
    world, scenario, start = real()
    s = start.copy()
    germany = s.nations["germany"]
    germany.saved = 100
    ctx = TurnContext(s, {}, world, scenario)
    key = treasuries.treasury_of(ctx, "germany", "German East Africa")
    assert key is not None
    germany.flags[treasuries.HELD] = {key: 20}
    before = germany.infantry_built
    new, _, _ = turn(s, {"germany": [m.Build("infantry", 1, "German East Africa")]})
    assert (new.nations["germany"].infantry_built - before, new.nations["germany"].flags[manpower.COLONIAL_BUILT]) == (0, 1)


def test_the_colonies_limit_spent_risks_a_mutiny_the_home_one_not_spent_does_not() -> None:
    _, events, ctx = turn(france(colonial_built=12), {"france": [m.Build("infantry", 1, "Morocco")]})
    assert phase9_mutiny.infantry_past_the_limit(ctx) == ["france"]
    assert ctx.__dict__["dice_log"].count("mutiny (Phase 9)") == 1  # rolled
    _, _, ctx = turn(france(colonial_built=11), {"france": [m.Build("infantry", 1, "Morocco")]})
    assert phase9_mutiny.infantry_past_the_limit(ctx) == []  # the last one within the limit
    assert "mutiny (Phase 9)" not in ctx.__dict__["dice_log"]
    # The home limit spent does not make colonial infantry dearer, nor the other way round.
    s = france(colonial_built=0)
    s.nations["france"].manpower_limit = s.nations["france"].infantry_built
    _, events, ctx = turn(s, {"france": [m.Build("infantry", 2, "Morocco"), m.Build("infantry", 1, "Paris")]})
    price = built(events, "Paris").args["cost"] // 2  # the home limit spent: double
    assert built(events, "Morocco").args["cost"] == 2 * price  # the colonies' not: normal
    assert phase9_mutiny.infantry_past_the_limit(ctx) == ["france"]  # by the home builds

def test_the_receipt_warns_of_the_colonies_limit() -> None:
    world, scenario, _ = real()
    s = france(colonial_built=12)
    (verdict,) = check_orders([m.Build("infantry", 2, "Morocco")], "france", s, world, scenario)
    (w,) = [p for p in verdict.problems if p.code == "manpower"]
    assert w.args == {"over": 2, "limit": 12, "colonies": True}


def test_a_shut_in_colony_starves_the_colonies_limit_and_the_home_land_the_home_one() -> None:
    world, scenario, start = real()
    s = start.copy()
    # Germany's Togo: British Gold Coast, French Dahomey and French West Africa around it,
    # and a British cruiser in every sea beside it. Its pocket starves Germany's colonies' limit.
    for zone in sorted(t for t in world.neighbours("Togo") if world.territories[t].is_sea):
        s.new_unit("britain", "cruiser", zone)
    s.nations["britain"].side = "allied"
    s.nations["britain"].at_war_with.append("germany")
    s.nations["germany"].at_war_with.append("britain")
    ctx = TurnContext(s, {}, world, scenario, schema=SCHEMA)
    assert ["Togo"] in phase9_starvation.pockets(ctx, "germany")
    home = s.nations["germany"].manpower_limit
    for _ in range(2):
        phase9_starvation.starvation(ctx)
    (e,) = [e for e in ctx.events if e.code == "starvation" and e.args["land"] == ["Togo"]]
    assert (e.args["lost"], e.args["colonies"], e.args["manpower"]) == (1, True, 5)
    assert s.nations["germany"].flags[manpower.COLONIAL] == 5
    assert s.nations["germany"].manpower_limit == home


def test_the_report_shows_the_colonies_limit_to_a_nation_that_has_one() -> None:
    from moderator.reports.build import build_reports
    from moderator.reports.content import TurnInfo
    from tests.report_text import flat

    world, scenario, _ = real()
    s = france(colonial_built=5)
    info = TurnInfo("t", "Test", 1, "August 1914", 2, "October 1914", "soon")
    reports = {r.audience: r.text for r in build_reports(s, [], scenario, world, info, ["france", "russia"],
                                                         lambda v, t: b"")}
    assert "Colonies' manpower (infantry built in the colonies): 5 built of a limit of 12; 7 left" in flat(
        reports["france"])
    assert "Colonies' manpower" not in flat(reports["russia"])  # one limit for all its land
