"""The British Empire's causes to enter the war, and its unprovoked entry
(engine/british_entry.py, British Empire (while neutral), Italy) on the real 1914 map."""

from __future__ import annotations

import functools

from moderator.engine import british_entry as be
from moderator.engine import chances, wars
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.engine.state import GameState, Unit
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "british-entry")


def context(rolls: list[int] | None = None) -> TurnContext:
    world, scenario, start = real()
    return TurnContext(start.copy(), {}, world, scenario, dice_root=ScriptedDice(rolls or [], start.turn))


def causes(ctx: TurnContext) -> dict[str, str]:
    return {side: cause for side, (cause, _turn) in ctx.state.nations["britain"].flags.get(be.CAUSES, {}).items()}


def test_the_opening_gives_no_cause() -> None:
    ctx = context()
    be.fleet_and_provinces(ctx)  # the High Seas Fleet in the Skagerrak, a cruiser in the Yellow Sea
    assert causes(ctx) == {}
    assert not be.provoked(ctx, "allied") and not be.provoked(ctx, "central")


def test_a_german_warship_or_a_loaded_transport_beyond_the_skagerrak_is_a_cause() -> None:
    ctx = context()
    ctx.state.units.append(Unit("germany-transport-9000", "germany", "transport", "North Sea"))
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {}  # "empty transports excluded"
    ctx.state.units.append(Unit("germany-infantry-9001", "germany", "infantry", "North Sea"))  # aboard
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {"allied": "german-fleet-at-sea"}
    ctx = context()
    ctx.state.units.append(Unit("germany-submarine-9002", "germany", "submarine", "Irish Sea"))
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {"allied": "german-fleet-at-sea"}  # "including submarines"


def test_provinces_lost_count_at_three_for_russia_two_for_the_central_powers_and_alsace_at_once() -> None:
    ctx = context()
    russian = sorted(ctx.world.home_of("russia"))
    for place in russian[:2]:
        ctx.state.control[place] = "germany"
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {}
    ctx.state.control[russian[2]] = "austria-hungary"
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {"allied": "russia-lost-three"}
    ctx = context()
    ctx.state.control[sorted(ctx.world.home_of("germany"))[0]] = "france"
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {}
    ctx.state.control[sorted(ctx.world.home_of("austria-hungary"))[0]] = "russia"
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {"allied": "central-powers-lost-two"}
    ctx = context()
    ctx.state.control["Alsace-Lorraine"] = "germany"
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {"allied": "alsace-lorraine-taken"}


def test_japan_at_full_war_with_russia_counts_with_the_central_powers() -> None:
    ctx = context()
    for place in sorted(ctx.world.home_of("russia"))[:3]:
        ctx.state.control[place] = "japan"
    for a, b in (("japan", "russia"), ("russia", "japan")):
        ctx.state.nations[a].at_war_with.append(b)
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {}  # a limited war: no loss "to Central Powers"
    ctx.state.nations["japan"].flags["full_war_russia"] = 1  # option #4's FULL WAR
    be.fleet_and_provinces(ctx)
    assert causes(ctx) == {"allied": "russia-lost-three"}


def test_wars_give_causes_by_the_lists() -> None:
    ctx = context()
    ctx.checking = True  # the checker's projection keeps the cause too
    wars.begin(ctx, "germany", "denmark", "1.1", surprise=False)
    assert causes(ctx) == {"allied": "attacked-belgium-or-denmark"}
    ctx = context()
    ctx.checking = True
    wars.begin(ctx, "japan", "australia", "1.1", surprise=False)  # "Japan is counted as Allied Power"
    assert causes(ctx) == {"central": "attacked-the-empire"}
    ctx = context()
    ctx.checking = True
    wars.begin(ctx, "france", "spain", "1.1", surprise=False)
    assert causes(ctx) == {"central": "france-attacked-spain"}
    ctx = context()
    ctx.checking = True
    wars.begin(ctx, "russia", "ottoman", "1.1", surprise=False)  # attacked into the Central Powers
    assert causes(ctx) == {}
    wars.join(ctx, "italy", "central", "1.5", why="points")  # entering by its own points
    assert causes(ctx) == {"allied": "a-major-joined-the-central-powers"}
    ctx = context()
    ctx.checking = True
    wars.begin(ctx, "germany", "britain", "1.1", surprise=False)  # attacked: joins, provoked
    assert ctx.state.nations["britain"].side == "allied" and ctx.state.nations["canada"].side == "allied"


def test_a_cause_of_one_list_does_not_provoke_the_other_side() -> None:
    ctx = context()
    be.note(ctx, "allied", "alsace-lorraine-taken", "9")
    assert be.provoked(ctx, "allied") and not be.provoked(ctx, "central")


def test_italys_table_turns_or_doubles_its_leaning() -> None:
    for face, leaning, twice, standing in ((1, "allied", None, 10), (2, "allied", "allied", 0), (4, "allied", None, 0),
                                          (6, "central", None, 0), (9, "allied", None, -10)):
        ctx = context([face])
        be.italy_table(ctx, "1.5")
        flags = ctx.state.nations["italy"].flags
        assert (flags.get("leaning", "allied"), flags.get(be.TWICE), ctx.state.nations["italy"].standing) == (
            leaning, twice, standing), face
    ctx = context([3])
    ctx.state.nations["italy"].flags["leaning"] = "central"
    be.italy_table(ctx, "1.5")
    assert ctx.state.nations["italy"].flags["leaning"] == "allied"  # 2-3: "changes affiliation to Allied Powers"
    ctx = context([7])
    ctx.state.nations["italy"].flags["leaning"] = "central"
    be.italy_table(ctx, "1.5")
    assert ctx.state.nations["italy"].flags[be.TWICE] == "central"  # 5-8 leaning to the CP: twice toward them
    ctx = context([])
    ctx.state.nations["italy"].standing = 6
    be.italy_table(ctx, "1.5")  # no roll: "simply be attracted twice toward Allied Powers side"
    assert ctx.state.nations["italy"].flags[be.TWICE] == "allied"
    assert [e.args["outcome"] for e in ctx.events if e.code == "italy-table"] == [chances.TWICE]
