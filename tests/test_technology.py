"""Technology in the turn (Phase 2.1, 2.2, Phase 7): the research roll, knowledge shared,
the Advancements table's numbers in a unit's values, and when they take effect.

The worked numbers are the rules' own: the Advancements table on the 1914 units, the
Victory Conditions' best-army example ("fighters (att/def=2/3)" after Improved Fighters
1), Phase 2.1's "It would cost the player 100 resources" (tests/test_engine_homes_phase23).
"""

from __future__ import annotations

import math
from dataclasses import replace
from functools import cache

import pytest

from moderator.engine import technology
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.orders import research
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario, UnitStats
from tests import engine_fixture as fx

MISSES = [1000] * 100  # 3.3: every passive reconnaissance roll of a real turn misses
REAL = load_scenario("1914")


def scenario() -> Scenario:
    return replace(fx.scenario(), technologies=REAL.technologies)


@cache
def real_world() -> World:
    return load_world("1914", strict=False)


def at(nation: str, kind: str, **levels: int) -> UnitStats:
    got = technology.values(REAL, nation, kind, levels)
    assert got is not None
    return got


def values(s: UnitStats) -> tuple[int, ...]:
    return (s.attack, s.defense, s.move, s.fuel, s.capacity, s.hits, s.bombard, s.cost)


# ---- the Advancements table, on the 1914 units ---------------------------------------------------


@pytest.mark.parametrize("kind,levels,expected", [
    # attack, defense, move, fuel, capacity, hits, bombard, cost
    ("infantry", {}, (3, 5, 1, 0, 0, 1, 0, 5)),
    ("infantry", {"improved_weapons": 1}, (4, 6, 1, 0, 0, 1, 0, 6)),  # +1 attack, +1 defense, +1 cost
    ("infantry", {"improved_weapons": 1, "chemical_warfare": 2}, (6, 6, 1, 0, 0, 1, 0, 6)),  # +1, +1 attack
    ("artillery", {"improved_artillery": 2}, (7, 3, 1, 0, 0, 1, 0, 8)),  # the BA example's 7/3 artillery
    ("artillery", {"improved_artillery": 3}, (8, 3, 1, 0, 0, 1, 0, 8)),
    ("tank", {"tanks": 2}, (7, 1, 2, 0, 0, 1, 0, 13)),  # 2nd advance: +1 attack, +1 move, +1 cost
    ("tank", {"tanks": 4}, (9, 1, 2, 0, 0, 1, 0, 16)),  # 3rd +1/+1, 4th +1/+2
    ("aa", {"improved_aa": 1}, (0, 2, 1, 0, 0, 1, 0, 3)),
    ("rocket", {"rockets": 4}, (7, 1, 1, 0, 0, 1, 0, 19)),  # +2, +3, +4 cost
    ("battleship", {"improved_battleships": 1}, (7, 7, 2, 0, 0, 3, 5, 45)),  # "3 hits to sink", +5
    ("battleship", {"improved_battleships": 2}, (8, 7, 2, 0, 0, 4, 6, 51)),  # "4 hits to sink", +6
    ("battleship", {"improved_battleships": 3, "faster_ships": 1}, (8, 7, 3, 0, 0, 4, 6, 63)),  # +7, +5
    ("cruiser", {"improved_cruisers": 3}, (6, 4, 3, 0, 0, 1, 0, 21)),
    ("cruiser", {"faster_ships": 1}, (4, 3, 4, 0, 0, 1, 0, 16)),  # +1 movement, +2 cost to DD
    ("transport", {"improved_transports": 3}, (0, 2, 2, 0, 4, 1, 0, 15)),  # +1, +1 troop point, +1 defense
    ("submarine", {"improved_submarines": 2}, (4, 2, 2, 0, 0, 1, 0, 15)),
    ("carrier", {"aircraft_carriers": 3}, (2, 2, 2, 0, 4, 3, 0, 111)),  # +1, +1 fighter, 3 to sink, +7, +9
    ("fighter", {"improved_fighters": 1}, (2, 3, 4, 4, 0, 1, 0, 11)),  # the BA example's 2/3 fighters
    ("fighter", {"improved_fighters": 2}, (2, 4, 5, 5, 0, 1, 0, 12)),  # fuel 5: "naval ready"
    ("fighter", {"improved_fighters": 4}, (3, 6, 7, 7, 0, 1, 0, 14)),
    ("bomber", {"improved_bombers": 4}, (7, 1, 10, 10, 0, 1, 0, 21)),  # +1 attack, +2 fuel, +2 cost, thrice
])
def test_the_advancements_table_on_the_1914_units(kind: str, levels: dict[str, int],
                                                  expected: tuple[int, ...]) -> None:
    assert values(at("serbia" if kind in ("artillery", "submarine") else "germany", kind, **levels)) == expected


def test_a_nations_own_units_change_from_its_own_values() -> None:
    assert values(at("britain", "battleship", improved_battleships=1))[-1] == 36 + 5
    assert at("germany", "artillery", improved_artillery=1).attack == 7 + 1  # Krupp's 7


@pytest.mark.parametrize("kind,level,cost", [
    ("artillery", 1, 7), ("artillery", 2, 6),  # 8: less 10% (0.8, rounded up to 1); less 20% (1.6 -> 2)
    ("battleship", 1, 36), ("battleship", 2, 32),  # "not cumulative from 1st industrial tech"
    ("fighter", 2, 8),
    ("infantry", 2, 5),  # "doesn't include infantry or trenches"
    ("trench", 2, 5),
])
def test_improved_industrial_technology_discounts_new_units(kind: str, level: int, cost: int) -> None:
    assert at("germany", kind, improved_industry=level).cost == cost


def test_the_discount_applies_after_the_technology_cost() -> None:
    # A battleship with Improved Battleships 1 costs 45; 10% off, rounded up, is 5 off.
    assert at("germany", "battleship", improved_battleships=1, improved_industry=1).cost == 40


# ---- a unit fights with the levels it was built or upgraded at -------------------------------------


def ctx_of(s: GameState) -> TurnContext:
    return TurnContext(s, {}, fx.world(), scenario())


def test_deployed_units_keep_their_levels_until_upgraded() -> None:
    s = fx.state([("germany", "infantry", "Berlin", 2)])
    s.nations["germany"].tech["improved_weapons"] = 1
    old = s.units[0]
    ctx = ctx_of(s)
    assert (ctx.stats("germany", "infantry", old).attack, ctx.stats("germany", "infantry").attack) == (3, 4)
    new, _ = resolve(s, {"germany": [m.Upgrade("infantry")]}, fx.world(), scenario(), Dice("tech", 1))
    unit = next(u for u in new.units if u.id == old.id)
    assert ctx_of(new).stats("germany", "infantry", unit).attack == 4


def test_units_built_behind_keep_the_levels_they_were_built_at() -> None:
    s = fx.state([("germany", "infantry", "Berlin", 1)])
    s.nations["germany"].tech["improved_weapons"] = 1
    new, events = resolve(s, {"germany": [m.Build("infantry", 1, "Berlin")]}, fx.world(), scenario(),
                          Dice("tech", 1))
    assert next(e for e in events if e.code == "built").args["cost"] == 5  # 4 + 1: the new price
    ctx = ctx_of(new)
    old, built = sorted(new.units, key=lambda u: u.id)
    assert (ctx.stats("germany", "infantry", old).attack, ctx.stats("germany", "infantry", built).attack) == (3, 4)
    # The upgrade pays for the old unit only; the new one is at the nation's levels already.
    new, events = resolve(new, {"germany": [m.Upgrade("infantry")]}, fx.world(), scenario(), Dice("tech", 2))
    assert next(e for e in events if e.code == "upgraded").args == {
        "nation": "germany", "order": 0, "kind": "infantry", "count": 1, "cost": 2}
    assert technology.BUILT_AT not in new.nations["germany"].flags
    assert {ctx_of(new).stats("germany", "infantry", u).attack for u in new.units} == {4}


def test_the_values_kept_follow_every_change_of_levels_on_the_same_position() -> None:
    """technology.stats keeps its answers by what they are made of: a level changed in
    place (Phase 7.2 raises NationState.tech; 7.0 rewrites the upgraded levels) or a unit
    built behind its kind is seen at once."""
    s = fx.state([("germany", "infantry", "Berlin", 2)])
    ctx = ctx_of(s)
    first, second = s.units[0], s.units[1]
    assert (ctx.stats("germany", "infantry").attack, ctx.stats("germany", "infantry", first).attack) == (3, 3)
    s.nations["germany"].tech["improved_weapons"] = 1  # researched: the units it builds now
    assert (ctx.stats("germany", "infantry").attack, ctx.stats("germany", "infantry", first).attack) == (4, 3)
    s.nations["germany"].flags[technology.UPGRADED] = {"infantry": {"improved_weapons": 1}}
    assert ctx.stats("germany", "infantry", first).attack == 4  # upgraded: the deployed ones too
    s.nations["germany"].flags[technology.UPGRADED]["infantry"]["improved_weapons"] = 0  # changed in place
    assert ctx.stats("germany", "infantry", first).attack == 3
    s.nations["germany"].flags[technology.BUILT_AT] = {second.id: {"improved_weapons": 1}}
    assert (ctx.stats("germany", "infantry", first).attack, ctx.stats("germany", "infantry", second).attack) == (3, 4)


def test_combat_reads_the_units_technology() -> None:
    """One attacking infantry at 4 (Improved Weapons, upgraded) hits on a 4; at 3 it would not."""
    s = fx.state([("germany", "infantry", "Posen", 1), ("russia", "infantry", "Warsaw", 1)])
    s.nations["germany"].tech["improved_weapons"] = 1
    s.nations["germany"].flags[technology.UPGRADED] = {"infantry": {"improved_weapons": 1}}
    orders = {"germany": [m.Attack((m.UnitCount("infantry", 1),), "Posen", "Warsaw")]}
    # round 1: attacker rolls 4 (a hit at 4), defender and city roll 10 (misses): Warsaw is taken.
    new, events = resolve(s, orders, fx.world(), scenario(), ScriptedDice({"4.4": [4, 10, 10]}, 1))
    assert new.controller("Warsaw") == "germany"


# ---- the research roll ----------------------------------------------------------------------------


def rolls(events: list[Event]) -> list[str]:
    return [e.code for e in events if e.code in ("researched", "research-failed")]


def test_research_succeeds_on_9_or_10_and_the_level_is_the_nations_from_phase_7() -> None:
    s = fx.state(saved=30)
    for face, outcome in ((8, "research-failed"), (9, "researched"), (10, "researched")):
        new, events = resolve(s, {"germany": [m.Research("improved_weapons")]}, fx.world(), scenario(),
                              ScriptedDice({"2.1": [face]}, 1))
        assert rolls(events) == [outcome]
        assert new.nations["germany"].tech.get("improved_weapons", 0) == (outcome == "researched")
        assert technology.RESEARCHED not in new.nations["germany"].flags


def test_industrial_espionage_makes_an_8_succeed_until_the_level_is_found() -> None:
    s = fx.state(saved=30)
    s.nations["germany"].flags[research.SPIED] = {"improved_artillery": 2}
    for level, outcome in ((0, "researched"), (1, "researched"), (2, "research-failed")):
        s.nations["germany"].tech["improved_artillery"] = level
        _, events = resolve(s, {"germany": [m.Research("improved_artillery")]}, fx.world(), scenario(),
                            ScriptedDice({"2.1": [8]}, 1))
        assert rolls(events) == [outcome], level


def test_the_roll_is_logged_with_its_purpose() -> None:
    s = fx.state(saved=30)
    dice = Dice("tech-log", 1)
    resolve(s, {"germany": [m.Research("rockets")]}, fx.world(), scenario(), dice)
    assert [(r.step, r.purpose) for r in dice.log if "research" in r.purpose] == [
        ("2.1", "technology research (Phase 2.1): germany, rockets 1")]


TRIALS = 4000


@pytest.mark.parametrize("spied,chance", [(False, 0.2), (True, 0.3)])
def test_research_succeeds_at_the_stated_rate(spied: bool, chance: float) -> None:
    """Phase 2.1: 9 or 10 (20%); 8-10 (30%) after industrial espionage (3.2.1.3)."""
    s = fx.state(saved=10)
    if spied:
        s.nations["germany"].flags[research.SPIED] = {"rockets": 1}
    dice = Dice(f"research-rate/{spied}", 1)
    won = 0
    for _ in range(TRIALS):
        ctx = TurnContext(s.copy(), {}, fx.world(), scenario(), dice_root=dice)
        research.RULE.execute(ctx, "germany", 0, m.Research("rockets"))
        won += ctx.events[-1].code == "researched"
    sigma = math.sqrt(chance * (1 - chance) / TRIALS)
    assert abs(won / TRIALS - chance) <= 4 * sigma, won


# ---- knowledge shared: the Commonwealth -------------------------------------------------------------


@cache
def real_start() -> GameState:
    return initial_state(REAL, real_world(), "tech")


def test_the_commonwealth_makes_one_attempt_per_technology_and_shares_a_success() -> None:
    s = real_start().copy()
    for n in ("britain", "canada"):
        s.nations[n].saved = 50
    orders = {"canada": [m.Research("improved_weapons")], "britain": [m.Research("improved_weapons")]}
    new, events = resolve(s, orders, real_world(), REAL, ScriptedDice({"1.2": [0, 0], "2.1": [10], "3.3": MISSES, "9": [5]}, s.turn))  # 9: the US economic roll, nothing; 1.2: the neutrals' points, none
    # Nations by id: Britain's attempt is the group's one attempt; Canada's is refused.
    assert [(e.args["nation"], e.args["reason"]) for e in events if e.code == "order-refused"] == [
        ("canada", "research-twice")]
    done = next(e for e in events if e.code == "researched")
    assert set(done.seen_by) >= {"britain", "canada", "india", "australia", "south-africa"}
    assert all(new.nations[n].tech.get("improved_weapons") == 1
               for n in ("britain", "canada", "india", "australia", "south-africa", "new-zealand"))
    assert new.nations["france"].tech.get("improved_weapons", 0) == 0


def test_troop_mechanization_raises_the_manpower_limit_by_30_percent() -> None:
    s = fx.state(saved=30, manpower=50)
    new, events = resolve(s, {"germany": [m.Research("troop_mechanization")]}, fx.world(), scenario(),
                          ScriptedDice({"1.2": [0, 0], "2.1": [9], "3.3": MISSES, "9": [5]}, 1))
    assert new.nations["germany"].manpower_limit == 65
    assert [e.args["after"] for e in events if e.code == "manpower-raised"] == [65]


def test_troop_mechanization_raises_the_colonies_limit_too() -> None:
    s = fx.state(saved=30, manpower=50)
    s.nations["germany"].flags["colonial_manpower"] = 6  # the colonies' limit (engine/manpower.py)
    new, events = resolve(s, {"germany": [m.Research("troop_mechanization")]}, fx.world(), scenario(),
                          ScriptedDice({"1.2": [0, 0], "2.1": [9], "3.3": MISSES, "9": [5]}, 1))
    assert (new.nations["germany"].manpower_limit, new.nations["germany"].flags["colonial_manpower"]) == (65, 8)
    raised = [(e.args["after"], e.args.get("colonies")) for e in events if e.code == "manpower-raised"]
    assert raised == [(65, None), (8, True)]
