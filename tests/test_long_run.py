"""A seeded 26-turn game on the real 1914 map with scripted orders: the Russian
Revolution, a mutiny and the starvation of Britain happen as the rules describe, and the
Victory Conditions' table is shown to everyone at the historical end."""

from __future__ import annotations

import pytest

from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.orders import model as m
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario

SEED = "issue9-long-run"
CORDON = ("North Sea", "Northern Atlantic", "Middle Atlantic", "English Channel")


@pytest.mark.slow
def test_twenty_six_turns_bring_revolution_mutiny_starvation_and_a_victory_table() -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, SEED)
    # Britain at war with Germany, whose submarines hold every sea zone around the Isles.
    state.nations["britain"].side = "allied"
    state.nations["britain"].at_war_with.append("germany")
    state.nations["germany"].at_war_with.append("britain")
    for zone in CORDON:
        state.new_unit("germany", "submarine", zone)
    # Russia's manpower is spent: every infantry it buys risks a mutiny.
    russia = state.nations["russia"]
    russia.manpower_limit = russia.infantry_built
    events: list[Event] = []
    manpower = [state.nations["britain"].manpower_limit]
    for _ in range(scenario.turns):
        state.nations["russia"].saved = max(state.nations["russia"].saved, 40)
        orders: dict[str, list[m.Order]] = {"russia": [m.Build("infantry", 2, "Moscow")]}
        state, new = resolve(state, orders, world, scenario, Dice(SEED, state.turn))
        events += [e for e in new if e.phase == "9"]
        manpower.append(state.nations["britain"].manpower_limit)
    codes = [e.code for e in events]
    # The revolution: a first hit (the Republic), then the rising.
    stages = [e.args["stage"] for e in events if e.code == "revolution"]
    assert stages[:2] == [1, 2], stages
    # Mutinies follow infantry bought past the limit (2 in 10 a turn: some in 26 turns).
    assert "mutiny" in codes
    # Starvation: none on the first turn of the cordon, then 3, 6, 12, ... off the limit.
    # (Britain's only: rebels with no manpower of their own to lose are not counted.)
    losses = [e.args["lost"] for e in events if e.code == "starvation" and e.args["nation"] == "britain"
              and not e.args["land"]]  # the Isles' cordon, not a shut-in colony
    assert losses[:3] == [3, 6, 12], losses
    assert manpower[1] == manpower[0] and manpower[2] == manpower[0] - 3
    # The historical end: the table for everyone.
    final = [e for e in events if e.code == "victory-standing" and not e.seen_by]
    assert {e.args["nation"] for e in final} >= {"germany", "russia", "britain", "france"}
    assert state.turn == scenario.turns + 1
