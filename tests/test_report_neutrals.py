"""What a nation's report tells of the neutrals (Neutrals; Phase 1.2; 3.2.1.1): the minors'
public starting stands, a minor's points only where its own espionage saw them, a major's
government leaning (never its points), its own influence attempts; no neutral's current
points otherwise, and nothing another nation learned."""

from __future__ import annotations

import functools

from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.reports.build import nation_mail
from moderator.reports.content import TurnInfo
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario
from tests.report_text import flat

INFO = TurnInfo("g", "War", 1, "August 1914", 2, "October 1914", "soon")


@functools.cache
def start() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914", strict=False), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "neutrals")


def section(state: GameState, events: list[Event], nation: str = "germany") -> str:
    world, scenario, _ = start()
    text = nation_mail(state, events, scenario, world, INFO, nation).text
    part = text.split("== What you know of the neutrals ==\n")[1].split("\n\n")[0]
    return "\n".join(flat(bullet) for bullet in part.split("\n- ")).replace("\n", "\n- ")  # one line each, unwrapped


def spied(nation: str, target: str, standing: int) -> Event:
    return Event("spied-neutral", "3.2", (nation, "moderator"),
                 {"nation": nation, "order": 0, "target": target, "standing": standing})


def test_the_public_stands_and_only_the_readers_own_espionage() -> None:
    _, _, state = start()
    events = [spied("germany", "persia", 3), spied("russia", "romania", -7),
              Event("spied-affiliation", "3.2", ("germany", "moderator"),
                    {"nation": "germany", "order": 1, "target": "italy", "leaning": "central"}),
              Event("influence-attempt", "1.2", ("germany", "moderator"),
                    {"nation": "germany", "order": 2, "target": "bulgaria", "success": False})]
    text = section(state, events)
    lines = text.splitlines()
    assert "- Persia (minor neutral, completely neutral (0) at the start): your agents saw its standing at +3" \
        in text
    assert any(x.startswith("- Kingdom of Italy: ") and "leans towards the Central Powers" in x for x in lines)
    assert "Tsardom of Bulgaria (minor neutral, favourable to the Central Powers (-5) at the start): your " \
           "influence attempt this turn failed." in text
    romania = next(x for x in lines if "Kingdom of Romania" in x)
    assert romania.startswith("- Minor neutrals favourable to the Allies (+5) at the start") and "-7" not in text
    assert "Kingdom of Italy (leaning towards the Allied Powers at the start)" in text  # the rules' public leaning


def test_the_current_points_never_show_and_a_neutral_that_joined_is_no_longer_listed() -> None:
    _, _, base = start()
    moved = base.copy()
    moved.nations["italy"].standing, moved.nations["persia"].standing = -9, 8
    assert section(moved, []) == section(base, [])  # what the points are now is secret
    joined = base.copy()
    joined.nations["bulgaria"].side = "central"
    assert "Bulgaria" in section(base, []) and "Bulgaria" not in section(joined, [])


def test_a_neutral_reader_is_not_listed_among_the_others() -> None:
    _, _, state = start()
    assert "Persia" not in section(state, [], "persia") and "Kingdom of Italy" in section(state, [], "persia")
