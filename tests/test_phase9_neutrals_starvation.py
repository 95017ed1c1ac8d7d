"""Phase 9 on the real 1914 map: the starvation cordons around Britain and Japan, the US
economic roll, the Spanish garrison and Spanish-American relations (their first cases
are in tests/catalog/resolve/phase9-*.txt)."""

from __future__ import annotations

import functools

from moderator.engine import phase9_neutrals, phase9_starvation
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.engine.event_codes import SCHEMA
from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario

BRITISH_CORDON = ("North Sea", "Northern Atlantic", "Middle Atlantic", "English Channel")


@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario, GameState]:
    world, scenario = load_world("1914"), load_scenario("1914")
    return world, scenario, initial_state(scenario, world, "phase9")


def context(rolls: list[int] | None = None) -> TurnContext:
    """The 1914 opening; its events checked against their declarations as a turn's are."""
    world, scenario, start = real()
    return TurnContext(start.copy(), {}, world, scenario, dice_root=ScriptedDice(rolls or [], start.turn),
                       schema=SCHEMA)


def war(ctx: TurnContext, a: str, b: str) -> None:
    ctx.state.nations[a].at_war_with.append(b)
    ctx.state.nations[b].at_war_with.append(a)


def of(ctx: TurnContext, code: str) -> list[Event]:
    return [e for e in ctx.events if e.code == code]


def test_the_cordons_are_sea_zones_of_the_map() -> None:
    world, scenario, _ = real()
    assert scenario.nations["britain"].starvation_cordon == BRITISH_CORDON
    for nation in ("britain", "japan"):
        for zone in scenario.nations[nation].starvation_cordon:
            assert not world.territories[zone].is_land, zone
            assert any(world.adjacent(zone, t) for t in world.home_of(nation)), zone
        isles = world.groups[scenario.nations[nation].starvation_land]  # the home islands it starves
        assert all(world.territories[t].owner == nation for t in isles)


def test_britain_starves_from_the_second_turn_of_the_cordon_3_6_12_then_it_ends() -> None:
    ctx = context()
    war(ctx, "britain", "germany")
    for zone in BRITISH_CORDON:
        ctx.state.new_unit("germany", "submarine" if zone != "English Channel" else "cruiser", zone)
    limit = ctx.state.nations["britain"].manpower_limit
    lost = []
    for _ in range(4):
        ctx.events.clear()
        phase9_starvation.starvation(ctx)
        lost.append(sum(e.args["lost"] for e in of(ctx, "starvation")))
    assert lost == [0, 3, 6, 12]  # the first turn of the cordon costs nothing
    assert ctx.state.nations["britain"].manpower_limit == limit - 21
    assert of(ctx, "starvation")[0].seen_by == ("britain", MODERATOR)
    # One zone free of enemy warships: the starvation ends and must start over.
    ctx.state.units = [u for u in ctx.state.units if u.location != "North Sea" or u.nation != "germany"]
    ctx.events.clear()
    phase9_starvation.starvation(ctx)
    assert of(ctx, "starvation-ended")[0].args["turns"] == 4
    ctx.state.new_unit("germany", "submarine", "North Sea")
    ctx.events.clear()
    phase9_starvation.starvation(ctx)
    assert not of(ctx, "starvation")


def test_a_transport_or_a_ship_not_at_war_holds_no_zone() -> None:
    ctx = context()
    for zone in BRITISH_CORDON:
        ctx.state.new_unit("germany", "submarine", zone)  # Britain is neutral in 1914: no enemy
    phase9_starvation.starvation(ctx)
    phase9_starvation.starvation(ctx)
    assert not of(ctx, "starvation")
    war(ctx, "britain", "germany")
    ctx.state.units = [u for u in ctx.state.units if not (u.nation == "germany" and u.location == "North Sea")]
    ctx.state.new_unit("germany", "transport", "North Sea")
    phase9_starvation.starvation(ctx)
    phase9_starvation.starvation(ctx)
    assert not of(ctx, "starvation")


def test_japan_starves_1_then_2() -> None:
    ctx = context()
    war(ctx, "japan", "germany")
    for zone in ("Yellow Sea", "Sea of Japan", "Sea of Okhotsk"):
        ctx.state.new_unit("germany", "cruiser", zone)
    for _ in range(3):
        phase9_starvation.starvation(ctx)
    assert [e.args["lost"] for e in of(ctx, "starvation")] == [1, 2]


def test_the_us_economic_roll_moves_nothing_on_2_to_7() -> None:
    ctx = context([7])
    phase9_neutrals.us_economic_roll(ctx)
    assert not of(ctx, "points") and ctx.state.nations["usa"].standing == 0


def test_the_us_economic_roll_counts_japan_with_the_allies_unless_at_war_with_them() -> None:
    ctx = context()
    ctx.emit("income", "8", ("japan",), nation="japan", full=0, rule="full", amount=50, saved=0, kept_apart=0)
    assert phase9_neutrals.production(ctx) == {"allied": 50, "central": 0}
    war(ctx, "japan", "britain")
    assert phase9_neutrals.production(ctx) == {"allied": 0, "central": 0}


def test_the_garrison_check_is_2_in_10_after_the_first_time_and_void_after_french_option_1() -> None:
    ctx = context([3, 2])
    ctx.state.units = [u for u in ctx.state.units if u.location != "Bordeaux"]
    ctx.state.nations["spain"].flags[phase9_neutrals.GARRISON_CHECKS] = 1
    phase9_neutrals.spanish_garrison(ctx)  # 3: not on 1-2
    assert not of(ctx, "points")
    phase9_neutrals.spanish_garrison(ctx)
    assert of(ctx, "points")[0].args["standing"] == -10  # the track stops at the camp
    ctx.state.nations["france"].flags["options_used"] = {"1": 1}  # tried, failed: the rule holds
    ctx.state.nations["france"].flags["options_succeeded"] = {"1": 1}  # "the Spanish Garrison rule will be void"
    phase9_neutrals.spanish_garrison(ctx)  # no die: the rule is void


def test_spain_resents_the_us_entry_once_2_in_10() -> None:
    ctx = context([2])
    ctx.state.nations["usa"].side = "allied"
    phase9_neutrals.spanish_american_relations(ctx)
    (moved,) = of(ctx, "points")
    assert (moved.args["nation"], moved.args["standing"]) == ("spain", -10)
    phase9_neutrals.spanish_american_relations(ctx)  # rolled once, when the US entered: no die


def test_encircled_land_starves_as_japan_and_ends_when_a_neutral_is_in_reach() -> None:
    from tests import engine_fixture as fx

    # On the fixture map Russia is shut in: its neighbours are German and Austrian, and the
    # Baltic only leads to German coasts; no neutral is in reach.
    ctx = TurnContext(fx.state(), {}, fx.world(), fx.scenario(), schema=SCHEMA)
    assert not phase9_starvation.reaches_a_neutral(ctx, "russia")
    assert phase9_starvation.reaches_a_neutral(ctx, "germany")  # Belgium borders Berlin
    russia = ["Kiev", "Minsk", "Moscow", "Riga", "Vilna", "Warsaw"]
    assert phase9_starvation.pockets(ctx, "russia") == [russia]  # one closed circle: one pocket
    for _ in range(3):
        phase9_starvation.starvation(ctx)
    assert [(e.args["nation"], e.args["lost"]) for e in of(ctx, "starvation")] == [("russia", 1), ("russia", 2)]
    assert ctx.state.nations["russia"].manpower_limit == 50 - 3
    ctx.state.control["Konigsberg"] = "belgium"  # a neutral's land next to Riga
    phase9_starvation.starvation(ctx)
    assert of(ctx, "starvation-ended")[0].args == {"nation": "russia", "turns": 3, "land": russia}
    assert phase9_starvation.POCKETS not in ctx.state.nations["russia"].flags


def test_encircled_land_starves_per_territory_while_the_rest_of_the_nation_reaches_a_neutral() -> None:
    from tests import engine_fixture as fx

    # "all territories can suffer from starvation effect": Riga reaches Belgium's Konigsberg,
    # and so does Vilna through it; a German army standing in Vilna shuts Warsaw, Minsk, Kiev
    # and Moscow in (German and Austrian land all round). They starve as one pocket; Riga and
    # Vilna do not.
    pocket = ["Kiev", "Minsk", "Moscow", "Warsaw"]
    s = fx.state()
    s.control["Konigsberg"] = "belgium"
    s.new_unit("germany", "infantry", "Vilna")
    ctx = TurnContext(s, {}, fx.world(), fx.scenario(), schema=SCHEMA)
    assert phase9_starvation.pockets(ctx, "russia") == [pocket]
    for _ in range(3):
        phase9_starvation.starvation(ctx)
    found = [(e.args["nation"], e.args["land"], e.args["lost"]) for e in of(ctx, "starvation")]
    assert found == [("russia", pocket, 1), ("russia", pocket, 2)]
    assert ctx.state.nations["russia"].manpower_limit == 50 - 3
    # The Germans leave Vilna: the pocket reaches the neutral again, its starvation ends.
    s.units = [u for u in s.units if not (u.nation == "germany" and u.location == "Vilna")]
    ctx.events.clear()
    phase9_starvation.starvation(ctx)
    assert [e.args for e in of(ctx, "starvation-ended")] == [{"nation": "russia", "turns": 3, "land": pocket}]
    assert not of(ctx, "starvation")


def test_a_nation_count_of_an_earlier_version_carries_over_to_its_pockets() -> None:
    from tests import engine_fixture as fx

    s = fx.state()
    s.nations["russia"].flags[phase9_starvation.OLD_COUNT] = 2  # saved before the count was per territory
    ctx = TurnContext(s, {}, fx.world(), fx.scenario(), schema=SCHEMA)
    phase9_starvation.starvation(ctx)
    assert [(e.args["turns"], e.args["lost"]) for e in of(ctx, "starvation")] == [(3, 2)]
    assert phase9_starvation.OLD_COUNT not in s.nations["russia"].flags


def test_the_british_isles_starve_by_their_cordon_only_and_the_colonies_by_the_general_rule() -> None:
    world, _, _ = real()
    ctx = context()
    war(ctx, "britain", "germany")
    for zone in world.groups["Seas around Britain"]:  # the Irish Sea too: the Isles reach nobody
        ctx.state.new_unit("germany", "submarine", zone)
    assert phase9_starvation.pockets(ctx, "britain") == []  # the Isles: the cordon's, not a pocket
    # Malta shut in by German warships in every sea around it: a pocket of its own.
    for zone in sorted(world.neighbours("Malta")):
        ctx.state.new_unit("germany", "cruiser", zone)
    assert phase9_starvation.pockets(ctx, "britain") == [["Malta"]]
    for _ in range(2):
        ctx.events.clear()
        phase9_starvation.starvation(ctx)
    assert sorted((e.args["land"] or [], e.args["lost"]) for e in of(ctx, "starvation")) == [([], 3), (["Malta"], 1)]


def test_a_nation_without_manpower_of_its_own_starves_its_pool_and_one_without_any_does_not() -> None:
    from dataclasses import replace

    from moderator.engine.state import NationState
    from moderator.world.scenario_model import Nation
    from tests import engine_fixture as fx

    # The Bolsheviks' infantry "count against Russia's total manpower limit": shut in on the
    # fixture map (Russia's land, German and Austrian neighbours), they starve Russia's limit.
    # The Mutineers (a limit of 0) have nothing to lose: no count, nothing told.
    base = fx.scenario()
    nations = {**base.nations,
               "bolsheviks": Nation("bolsheviks", "Bolsheviks", "minor", "neutral", manpower_pool="russia"),
               "mutineers": Nation("mutineers", "Mutineers", "minor", "neutral", playable=False)}
    s = fx.state()
    s.nations["russia"].at_war_with = []  # only the Bolsheviks' land is at stake
    for t in ("Kiev", "Minsk"):
        s.control[t] = "bolsheviks"
    s.control["Vilna"] = "mutineers"
    s.nations["bolsheviks"] = NationState("bolsheviks", side="neutral", at_war_with=["germany"])
    s.nations["mutineers"] = NationState("mutineers", side="neutral", at_war_with=["germany"])
    ctx = TurnContext(s, {}, fx.world(), replace(base, nations=nations), schema=SCHEMA)
    for _ in range(3):
        phase9_starvation.starvation(ctx)
    # Kiev and Minsk touch only Russian Moscow (not an ally) and the foe: two pockets, each
    # starving apart (1, then 2).
    found = [(e.args["nation"], e.args["land"], e.args["lost"], e.args.get("pool"), e.seen_by)
             for e in of(ctx, "starvation")]
    told = ("bolsheviks", "russia", MODERATOR)
    assert found == [("bolsheviks", ["Kiev"], 1, "russia", told), ("bolsheviks", ["Minsk"], 1, "russia", told),
                     ("bolsheviks", ["Kiev"], 2, "russia", told), ("bolsheviks", ["Minsk"], 2, "russia", told)]
    assert ctx.state.nations["russia"].manpower_limit == 50 - 6
    assert ctx.state.nations["bolsheviks"].manpower_limit == 0
    assert phase9_starvation.POCKETS not in ctx.state.nations["mutineers"].flags
