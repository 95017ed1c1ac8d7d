"""Phase 3.2 espionage and counter-espionage, resolved: every action with its chance,
anonymous to the target, its result told only to the spying nation (and the moderator)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from moderator.engine import phase3_espionage
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.orders.research import SPIED
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.world.scenario import load_scenario
from moderator.world.scenario_model import Scenario
from tests import engine_fixture as fx

REAL = load_scenario("1914")


def scenario(belgium: str = "minor") -> Scenario:
    base = fx.scenario()
    nations = {**base.nations, "belgium": replace(base.nations["belgium"], kind=belgium)}
    return replace(base, technologies=REAL.technologies, nations=nations)


def run(s: GameState, orders: dict[str, list[m.Order]], dice: dict[str, list[int]],
        scen: Scenario | None = None) -> tuple[GameState, list[Event]]:
    return resolve(s, orders, fx.world(), scen or scenario(), ScriptedDice(dice, s.turn))


def one(events: list[Event], code: str) -> Event:
    found = [e for e in events if e.code == code]
    assert len(found) == 1, [e.code for e in events]
    return found[0]


def test_a_minor_neutrals_status_on_1_to_5() -> None:
    s = fx.state()
    s.nations["belgium"].standing = -5
    _, events = run(s, {"germany": [m.Espionage("neutral", target="belgium")]}, {"3.2": [5]})
    seen = one(events, "spied-neutral")
    assert (seen.args["standing"], seen.seen_by) == (-5, ("germany", MODERATOR))
    _, events = run(s, {"germany": [m.Espionage("neutral", target="belgium")]}, {"3.2": [6]})
    assert one(events, "espionage-failed").seen_by == ("germany", MODERATOR)


def test_army_staff_sees_the_units_built_this_turn_not_where() -> None:
    s = fx.state()
    orders = {"russia": [m.Build("infantry", 2, "Moscow"), m.Build("artillery", 1, "Moscow")],
              "germany": [m.Espionage("army", target="russia")]}
    _, events = run(s, orders, {"3.2": [1]})
    seen = one(events, "spied-army")
    assert seen.args["units"] == {"artillery": 1, "infantry": 2} and "place" not in seen.args
    # "no one will know which nation attempted the espionage mission": Russia is told nothing of it.
    assert not [e for e in events if "russia" in e.seen_by and e.phase == "3.2"]


def test_army_counter_espionage_lowers_the_chance_to_1_or_2() -> None:
    s = fx.state()
    orders = {"russia": [m.CounterEspionage("army", against="germany")],
              "germany": [m.Espionage("army", target="russia")]}
    _, events = run(s, orders, {"3.2": [3]})  # no roll for the counter itself (3.2.2.2)
    assert one(events, "espionage-failed")
    assert one(events, "counter-espionage").args["success"] is True
    _, events = run(s, orders, {"3.2": [2]})
    assert one(events, "spied-army")
    # Against another nation, it does not protect from Germany.
    orders["russia"] = [m.CounterEspionage("army", against="austria")]
    _, events = run(s, orders, {"3.2": [3]})
    assert one(events, "spied-army")


def test_industrial_espionage_raises_the_research_chance_until_the_level_is_found() -> None:
    s = fx.state(saved=50)
    s.nations["russia"].tech["improved_artillery"] = 2
    new, events = run(s, {"germany": [m.Espionage("industrial", target="russia", tech="improved_artillery")]},
                      {"3.2": [4]})
    seen = one(events, "spied-industrial")
    assert (seen.args["level"], seen.args["raised"]) == (2, True)
    assert new.nations["germany"].flags[SPIED] == {"improved_artillery": 2}
    # Next turn an 8 researches level 1, and the turn after level 2; then the 8 fails again.
    new.nations["germany"].saved = 50
    for face, code in ((8, "researched"), (8, "researched"), (8, "research-failed")):
        new, events = run(new, {"germany": [m.Research("improved_artillery")]}, {"2.1": [face]})
        assert one(events, code)


def test_industrial_counter_espionage_rolls_then_lowers_the_chance() -> None:
    s = fx.state()
    s.nations["austria"].tech["tanks"] = 2
    orders = {"austria": [m.CounterEspionage("industrial", tech="tanks")],
              "france": [m.Espionage("industrial", target="austria", tech="tanks")]}
    _, events = run(s, orders, {"3.2": [5, 3]})  # the counter succeeds (1-5); 3 misses at 1-2
    assert one(events, "counter-espionage").args["success"] is True
    assert one(events, "espionage-failed")
    _, events = run(s, orders, {"3.2": [6, 3]})  # the counter fails: 3 is within 1-5
    assert one(events, "counter-espionage").args["success"] is False
    assert one(events, "spied-industrial").args["level"] == 2


def test_a_major_neutrals_affiliation_not_its_points() -> None:
    s = fx.state()
    s.nations["belgium"].standing = 7
    scen = scenario(belgium="major")
    _, events = run(s, {"germany": [m.Espionage("affiliation", target="belgium")]}, {"3.2": [1]}, scen)
    seen = one(events, "spied-affiliation")
    assert seen.args["leaning"] == "allied" and "standing" not in seen.args
    orders = {"belgium": [m.CounterEspionage("affiliation", against="germany")],
              "germany": [m.Espionage("affiliation", target="belgium")]}
    _, events = run(s, orders, {"3.2": [3]}, scen)
    assert one(events, "espionage-failed")


def test_combat_intelligence_is_handed_over_after_the_battles() -> None:
    s = fx.state([("germany", "infantry", "Posen", 3), ("russia", "infantry", "Warsaw", 1),
                  ("russia", "artillery", "Warsaw", 1)])
    orders = {"germany": [m.Espionage("combat", place="Warsaw"),
                          m.Attack((m.UnitCount("infantry", 3),), "Posen", "Warsaw")]}
    # 3.2: the spy succeeds. 4.4, round 1: German 1 1 1 (three hits); Russian infantry 10,
    # artillery 10 (unsupported? it has infantry: defends at 2), the city 10.
    new, events = run(s, orders, {"3.2": [2], "4.4": [1, 1, 1, 10, 10, 10]})
    assert new.controller("Warsaw") == "germany"
    seen = one(events, "spied-combat")
    assert (seen.phase, seen.seen_by, seen.args["fought"]) == ("9", ("germany", MODERATOR), True)
    assert seen.args["units"] == {"russia": {"artillery": 1, "infantry": 1}}


def test_a_reconnaissance_countermeasure_masks_the_province_for_this_turn() -> None:
    s = fx.state()
    new, events = run(s, {"germany": [m.CounterEspionage("recon", place="Posen")]}, {"3.2": [4]})
    assert new.nations["germany"].flags[phase3_espionage.MASKED] == ["Posen"]
    new, _ = run(new, {}, {})
    assert phase3_espionage.MASKED not in new.nations["germany"].flags


TRIALS = 4000


@pytest.mark.parametrize("counter,chance", [(False, 0.5), (True, 0.2)])
def test_espionage_succeeds_at_the_stated_rate(counter: bool, chance: float) -> None:
    """3.2.1: 50% (1-5 on D10); 20% (1-2) against counter-espionage."""
    s = fx.state()
    dice = Dice(f"espionage-rate/{counter}", 1)
    counters = {("army", "russia", "germany")} if counter else set()
    won = 0
    for _ in range(TRIALS):
        ctx = TurnContext(s.copy(), {}, fx.world(), scenario(), dice_root=dice)
        phase3_espionage.spy(ctx, "germany", 0, m.Espionage("army", target="russia"), counters)
        won += ctx.events[-1].code == "spied-army"
    sigma = math.sqrt(chance * (1 - chance) / TRIALS)
    assert abs(won / TRIALS - chance) <= 4 * sigma, won
