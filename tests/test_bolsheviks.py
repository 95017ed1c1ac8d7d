"""The Bolshevik seat after the rising (Phase 9, The Russian Revolution): their placements
in Russian land, infantry rising where no Russian troops stand, captures between the two
keeping the incorporation, and their war kept on Russian soil."""

from __future__ import annotations

import functools

from moderator.engine import phase9_revolution as revolution
from moderator.engine.conquest import seize
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario

RUSSIA, REDS = "russia", "bolsheviks"


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario]:
    return load_world("1914"), load_scenario("1914")


def after_the_rising() -> GameState:
    """Turn 10: the revolution has begun; the Bolsheviks hold Kazan and Chita, with a few
    infantry, and 40 resources."""
    world, scenario = real()
    s = initial_state(scenario, world, "reds")
    s.turn = 10
    s.nations[RUSSIA].flags[revolution.STAGE] = 2
    reds = s.nations[REDS]
    reds.flags.pop("active", None)
    reds.saved = 40
    reds.tech = dict(s.nations[RUSSIA].tech)
    reds.at_war_with = [RUSSIA]
    s.nations[RUSSIA].at_war_with = sorted([*s.nations[RUSSIA].at_war_with, REDS])
    for place in ("Kazan", "Chita"):
        s.control[place] = REDS
        s.units = [u for u in s.units if u.location != place]
        s.new_unit(REDS, "infantry", place)
    return s


def refused(events: list[Event], nation: str) -> list[str]:
    return [e.args["reason"] for e in events if e.code == "order-refused" and e.args["nation"] == nation]


def test_bolshevik_infantry_rises_in_russian_land_without_russian_troops() -> None:
    world, scenario = real()
    s = after_the_rising()
    orders: list[m.Order] = [
        m.Build("infantry", 3, "Samara"),  # Russia's, no Russian troops, no city: its value, 1
        m.Build("infantry", 2, "Kazan"),  # their own city
        m.Build("infantry", 1, "Moscow"),  # Russian troops stand there
    ]
    new, events = resolve(s, {REDS: orders}, world, scenario, Dice("reds", 10))
    built = [(e.args["place"], e.args["count"], e.args["cost"]) for e in events
             if e.code == "built" and e.args["nation"] == REDS]
    assert built == [("Samara", 1, 4), ("Kazan", 2, 8)]  # Bolshevik infantry costs 4
    assert refused(events, REDS) == ["place-not-held"]
    assert new.control["Samara"] == REDS and new.incorporated["Samara"] == s.incorporated["Samara"]
    assert sum(1 for u in new.units if u.nation == REDS and u.location == "Samara") == 1
    assert new.nations[RUSSIA].infantry_built == s.nations[RUSSIA].infantry_built + 3  # Russia's manpower pool


def test_the_bolsheviks_fight_on_russian_soil_only() -> None:
    world, scenario = real()
    s = after_the_rising()
    s.nations[REDS].at_war_with = sorted([RUSSIA, "germany"])
    s.nations["germany"].at_war_with = sorted([*s.nations["germany"].at_war_with, REDS])
    new, events = resolve(s, {REDS: [m.Attack((m.UnitCount("infantry", 1),), "Chita", "Mongolia")]},
                          world, scenario, Dice("reds-out", 10))
    assert refused(events, REDS) == ["bolsheviks-outside-russia"]


def test_a_capture_in_the_civil_war_keeps_the_incorporation() -> None:
    world, scenario = real()
    s = after_the_rising()
    ctx = TurnContext(s, {}, world, scenario)
    before = s.incorporated["Moscow"]
    assert seize(ctx, "Moscow", REDS) == REDS and s.incorporated["Moscow"] == before
    assert seize(ctx, "Moscow", RUSSIA) == RUSSIA and s.incorporated["Moscow"] == before
    assert seize(ctx, "Konigsberg", RUSSIA) == RUSSIA and "Konigsberg" not in s.incorporated  # not Russia's: conquered
