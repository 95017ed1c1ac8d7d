"""A seeded 26-turn game on the real 1914 map with scripted orders: the Russian
Revolution, a mutiny and the starvation of Britain happen as the rules describe, the
Ottoman Empire and Italy drift and join the main war (issue 8), and the Victory
Conditions' table is shown to everyone at the historical end."""

from __future__ import annotations

import pytest

from moderator.engine import points
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.orders import model as m
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario

SEED = "issue9-long-run"
CORDON = ("North Sea", "Northern Atlantic", "Middle Atlantic", "English Channel")
DRIFTERS = {"ottoman": ("central", 7), "italy": ("allied", 3)}  # diplomacy.toml [drift]: side, most a turn
# The turns each joins in. Earliest by the rules: the Ottomans need two turns of 0-7 to reach
# 10 and JOIN the turn after ("Each turn Ottomans can have 0-7 points toward CP side"; Neutrals:
# "must collect 10 points ... to be able to declare themselves"), so turn 3 (history: October
# 1914, turn 2, which these rules cannot give); Italy four turns of 0-3, so turn 5 (history: May
# 1915, turn 5). Latest: the runs of 12 other seeds joined by turn 7 and 12; the bands leave room
# for the other tables' pulls (Italy drifts back when the Ottomans join).
JOIN_BAND = {"ottoman": range(3, 9), "italy": range(5, 15)}


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
    drifts: list[Event] = []
    joined: dict[str, tuple[int, str]] = {}
    manpower = [state.nations["britain"].manpower_limit]
    for _ in range(scenario.turns):
        state.nations["russia"].saved = max(state.nations["russia"].saved, 40)
        orders: dict[str, list[m.Order]] = {"russia": [m.Build("infantry", 2, "Moscow")]}
        for nation in DRIFTERS:  # their players JOIN as soon as the points allow it
            camp = points.camp_of(state.nations[nation].standing)
            if state.nations[nation].side == "neutral" and camp:
                orders[nation] = [m.JoinSide(camp)]
        turn = state.turn
        state, new = resolve(state, orders, world, scenario, Dice(SEED, turn))
        events += [e for e in new if e.phase == "9"]
        drifts += [e for e in new if e.code == "points" and e.args["why"] == "drift"]
        joined |= {n: (turn, state.nations[n].side) for n in DRIFTERS
                   if n not in joined and state.nations[n].side != "neutral"}
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
    # The neutrals: each turn's points only toward their side, within their range, until they
    # join it, by their own JOIN, in a plausible band of turns (see JOIN_BAND).
    for nation, (side, most) in DRIFTERS.items():
        turn, camp = joined[nation]
        assert camp == side and turn in JOIN_BAND[nation], (nation, turn, camp)
        moves = [e.args["change"] * points.sign(side) for e in drifts if e.args["nation"] == nation]
        assert all(1 <= change <= most for change in moves), (nation, moves)
        assert sum(moves) >= points.CAMP and len(moves) >= points.CAMP // most, (nation, moves)
    # The historical end: the table for everyone.
    final = [e for e in events if e.code == "victory-standing" and not e.seen_by]
    assert {e.args["nation"] for e in final} >= {"germany", "russia", "britain", "france"}
    assert state.turn == scenario.turns + 1
