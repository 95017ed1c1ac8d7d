"""The homes of the Phase 4 orders at sea and in the air (engine/orders/: bombing, rockets,
rebase, task_forces, submarines, naval_invasion, artillery_support, defend).

Each home's refusals are checked twice: by the order checker (the receipt) and by the
engine (an "order-refused" event with the same code), on the hand-built world of
tests/test_orders_world.py. Orders the engine does not resolve yet go to the moderator
("order-referred"), with the units they use claimed so nothing else can use them.
"""

from __future__ import annotations

import dataclasses

import pytest

from moderator.engine import fuel
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.orders.checker import check_text
from moderator.orders.messages import catalogue
from moderator.orders.parser import parse_orders
from moderator.reports.render import event_text
from moderator.world.loader import load_world
from moderator.world.scenario import load_scenario, validate_scenario
from moderator.world.scenario_model import Scenario, UnrestrictedTarget
from tests.test_orders_world import make_scenario, make_state, make_world

NATIONS = {"Germany": "germany", "Britain": "britain"}


def scenario_with(**fuel_of: int) -> Scenario:
    """The fixture scenario with other fuel for some aircraft, e.g. fighter=3."""
    s = make_scenario()
    default = dict(s.units["default"])
    for kind, tank in fuel_of.items():
        default[kind] = dataclasses.replace(default[kind], fuel=tank)
    return dataclasses.replace(s, units={"default": default})


def receipt(text: str, nation: str = "Germany", state: GameState | None = None,
            scenario: Scenario | None = None) -> list[tuple[str, str, int]]:
    """(severity, code, line) of every diagnostic the checker gives."""
    r = check_text(text, nation, state or make_state(), make_world(), scenario or make_scenario())
    return sorted((d.severity, d.code, d.line) for d in r.diagnostics)


def turn(text: str, nation: str = "Germany", state: GameState | None = None,
         scenario: Scenario | None = None) -> tuple[GameState, list[Event]]:
    orders = parse_orders(text).orders
    return resolve(state or make_state(), {NATIONS[nation]: orders}, make_world(), scenario or make_scenario(),
                   Dice("phase4-homes", 1))


def refused(events: list[Event]) -> list[tuple[str, int]]:
    """(reason, line) of the engine's refusals (order index + 1 is the line without a header)."""
    return sorted((e.args["reason"], e.args["order"] + 1) for e in events if e.code == "order-refused")


def referred(events: list[Event]) -> list[tuple[str, int]]:
    return sorted((e.args["why"], e.args["order"] + 1) for e in events if e.code == "order-referred")


def errors(text: str, **kw: object) -> list[tuple[str, int]]:
    return [(code, line) for severity, code, line in receipt(text, **kw) if severity == "error"]  # type: ignore[arg-type]


def britain_at_war(calm_seas: bool = True) -> GameState:
    """Britain joins the Allies against Germany, holds Belgium, and has two fighters in London.
    calm_seas: no German ships in the North Sea or the English Channel."""
    state = make_state()
    state.nations["britain"].side = "allied"
    state.nations["britain"].at_war_with = ["germany"]
    state.nations["germany"].at_war_with = sorted({*state.nations["germany"].at_war_with, "britain"})
    state.control["Belgium"] = "britain"
    if calm_seas:
        state.units = [u for u in state.units if not (u.nation == "germany" and u.location in
                                                      ("North Sea", "English Channel"))]
    for _ in range(2):
        state.new_unit("britain", "fighter", "London")
    return state


# ---- the refusals, checker and engine alike -----------------------------------------------

def _rockets_and_tech() -> GameState:
    state = make_state()
    state.new_unit("germany", "rocket", "Metz")
    return state


REFUSALS = [
    # 4.1.1 bombing
    ("BOMB INDUSTRY 2 ftr FROM Ruhr TO Paris", "bomb-units"),
    ("BOMB TACTICAL 1 bmb FROM Ruhr TO Belgium", "bomb-not-enemy"),
    ("BOMB INDUSTRY 1 bmb FROM Ruhr TO Paris", "bomb-tech"),  # Improved Bombers 1 < 2
    ("BOMB TACTICAL 2 ftr FROM Ruhr TO Paris", "no-fuel-home"),  # 3 there, 1 round, 2 back > 4
    ("BOMB TACTICAL 3 ftr FROM Ruhr TO Verdun", "not-enough-units"),
    # Rockets
    ("FIRE 1 rkt FROM Metz AT Belgium", "fire-not-enemy"),
    ("FIRE 1 rkt FROM Metz AT Paris", "rocket-range"),  # two away; the basic rocket reaches one
    ("FIRE CITY 1 rkt FROM Metz AT Verdun", "fire-no-target"),
    ("FIRE 2 rkt FROM Metz AT Verdun", "not-enough-units"),
    # 4.1.2 rebasing
    ("REBASE 2 ftr FROM Ruhr TO Ruhr", "move-same"),
    ("REBASE 2 ftr FROM Ruhr TO Verdun", "rebase-not-friendly"),
    ("REBASE 2 ftr FROM Ruhr TO Togo", "rebase-out-of-range"),  # no way over the sea from Europe
    # 4.2 task forces
    ("TF 1 AT Kiel: 1 bb", "tf-on-land"),
    ("TF 1 AT North Sea: 1 bb\nTF 1 AT North Sea: 1 bb", "tf-twice"),
    ("TF 9 PATROL TO English Channel", "tf-unknown"),
    ("TF 1 AT North Sea: 2 bb\nTF 1 ESCORT 2", "tf-unknown"),  # TF 2 is not formed before it
    ("TF 2 AT Baltic Sea: 2 tr\nTF 2 ESCORT 1", "tf-mission"),  # only destroyers and battleships
    ("TF 3 AT English Channel: 2 ss\nTF 3 PATROL", "tf-mission"),  # submarines: no surface missions
    ("TF 2 AT Baltic Sea: 2 tr\nTF 2 DETECT", "tf-mission"),  # transports cannot detect
    ("TF 1 AT North Sea: 2 dd\nTF 1 BOMBARD Belgium", "tf-mission"),  # "Destroyers cannot shore bombard"
    ("TF 1 AT North Sea: 2 bb\nTF 1 CARRIER", "tf-mission"),  # "must have at least one aircraft carrier"
    ("TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 1 inf FROM Kiel\nTF 2 MOVE", "tf-loaded"),
    ("TF 1 AT North Sea: 2 bb\nTF 1 BLOCKADE TO English Channel", "tf-stays"),
    ("TF 1 AT North Sea: 2 bb\nTF 1 PATROL TO Belgium", "tf-not-sea"),
    ("TF 2 AT Baltic Sea: 2 tr\nTF 2 MOVE TO English Channel", "tf-not-adjacent"),
    ("TF 1 AT North Sea: 3 dd\nTF 1 PATROL TO English Channel\nTF 1 MOVE TO North Sea\n"
     "TF 1 PATROL TO English Channel\nTF 1 BLOCKADE", "tf-too-far"),  # 3 points, 4 missions
    ("TF 2 AT Baltic Sea: 1 tr\nTF 2 LOAD 3 inf FROM East Prussia", "tf-capacity"),
    ("TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 1 inf FROM Berlin", "tf-not-adjacent"),
    ("TF 1 AT North Sea: 2 bb\nTF 1 BOMBARD Paris", "tf-not-adjacent"),
    ("TF 3 AT English Channel: 2 ss\nTF 3 DOCK", "dock-not-friendly"),
    # Phase 4 guideline 6: splitting and joining task forces
    ("TF 1 AT North Sea: 2 bb, 1 dd\nTF 1 SPLIT 2 dd INTO TF 3", "tf-split-ships"),  # ships not in the TF
    ("TF 1 AT North Sea: 2 bb, 3 dd\nTF 1 SPLIT 1 dd INTO TF 3\nTF 3 SPLIT 1 bb INTO TF 4", "tf-split-ships"),
    ("TF 1 AT North Sea: 2 bb\nTF 1 SPLIT 2 bb INTO TF 3", "tf-split-all"),  # nothing left in TF 1
    ("TF 1 AT North Sea: 3 dd\nTF 1 PATROL\nTF 1 SPLIT 1 dd INTO TF 3\nTF 3 PATROL\nTF 3 PATROL\nTF 3 PATROL",
     "tf-too-far"),  # the half has spent the point its ships spent before the split
    ("TF 1 AT North Sea: 3 dd\nTF 3 AT North Sea: 2 bb\nTF 1 PATROL\nTF 3 PATROL\nTF 3 JOIN TF 1\nTF 1 PATROL\n"
     "TF 1 PATROL", "tf-too-far"),  # joined by battleships, TF 1 has their 2 points
    ("TF 1 AT North Sea: 2 bb, 1 dd\nTF 1 SPLIT 1 dd INTO TF 3 AT English Channel", "tf-split-where"),
    ("TF 1 AT North Sea: 2 bb, 3 dd\nTF 1 PATROL TO English Channel\nTF 1 SPLIT 1 dd INTO TF 3 AT North Sea",
     "tf-split-where"),  # it has left the North Sea at this point of the orders
    ("TF 1 AT North Sea: 2 bb\nTF 2 AT North Sea: 1 dd\nTF 1 SPLIT 1 bb INTO TF 2", "tf-twice"),
    ("TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 1 inf FROM Kiel\nTF 2 SPLIT 1 tr INTO TF 3", "tf-split-loaded"),
    ("TF 9 SPLIT 1 bb INTO TF 3", "tf-unknown"),
    ("TF 1 AT North Sea: 2 bb\nTF 1 JOIN TF 4", "tf-unknown"),
    ("TF 1 AT North Sea: 2 bb\nTF 1 JOIN TF 1", "tf-unknown"),
    ("TF 1 AT North Sea: 2 bb\nTF 3 AT North Sea: 1 dd\nTF 3 PATROL\nTF 3 JOIN TF 1", "tf-join-apart"),
    ("TF 1 AT North Sea: 2 bb\nTF 3 AT North Sea: 1 dd\nTF 3 PATROL TO English Channel\nTF 1 PATROL\n"
     "TF 3 JOIN TF 1", "tf-join-apart"),  # same points, other zones
    ("TF 1 AT North Sea: 2 bb\nTF 3 AT North Sea: 1 dd\nTF 3 JOIN TF 1\nTF 3 PATROL", "tf-joined"),
    ("TF 1 AT North Sea: 2 bb\nTF 3 AT North Sea: 1 dd\nTF 4 AT North Sea: 1 dd\nTF 3 JOIN TF 1\nTF 4 JOIN TF 3",
     "tf-joined"),
    # loaded transports sail alone (4.2.1): joined with other ships they could take no step
    ("TF 2 AT Baltic Sea: 2 tr\nTF 4 AT Baltic Sea: 1 ss\nTF 2 LOAD 1 inf FROM Kiel\nTF 2 JOIN TF 4", "tf-join-loaded"),
    ("TF 2 AT Baltic Sea: 2 tr\nTF 4 AT Baltic Sea: 1 ss\nTF 2 LOAD 1 inf FROM Kiel\nTF 4 JOIN TF 2", "tf-join-loaded"),
    # 4.2.9, 4.2.10 submarines
    ("DETECT SUBS IN Kiel WITH 1 dd", "detect-land"),
    ("DETECT SUBS IN Baltic Sea WITH 2 tr", "detect-units"),
    ("DETECT SUBS IN North Sea WITH 1 bmb", "detect-air"),  # only fighters take off at sea
    ("DETECT SUBS IN North Sea WITH 1 bmb FROM Baltic Sea", "bombers-aboard"),
    ("DETECT SUBS IN North Sea WITH 2 ftr", "sea-combat-fuel"),  # off carriers: fuel 4 < 5 (Fighters)
    ("DETECT SUBS IN North Sea WITH 2 ftr FROM Ruhr", "sea-combat-fuel"),  # fuel 4 < 5 (Fighters)
    ("DETECT SUBS IN North Sea WITH 4 dd", "not-enough-units"),
    ("INTERCEPT WITH 1 ss IN Kiel", "intercept-land"),
    ("INTERCEPT WITH 3 ss IN English Channel", "not-enough-units"),
    ("INTERCEPT WITH 1 ss IN North Sea AGAINST TF B OF Germany", "intercept-own"),
    # 4.4, 4.6.1 naval invasions
    ("INVADE 1 inf FROM North Sea TO Paris", "invasion-coast"),
    ("INVADE 1 tank FROM English Channel TO Picardy", "invasion-tanks"),
    ("INVADE 1 inf FROM Baltic Sea TO East Prussia", "invasion-not-loaded"),
    # Artillery, Industrial complexes, Ports
    ("SUPPORT 1 art FROM Metz TO Paris", "not-adjacent"),
    ("SUPPORT 3 art FROM Metz TO Verdun", "not-enough-units"),
    ("DEFEND WITH PORT AT Picardy", "defend-not-held"),
    ("DEFEND WITH INDUSTRY AT Kiel", "defend-nothing"),
]


# Unit kinds the parser already refuses in these orders ("wrong-unit"); the homes say why
# too, for orders that reach the engine another way.
KIND_REFUSALS = [
    (m.Bombing("tactical", (m.UnitCount("infantry", 1),), "Metz", "Verdun"), "bomb-units"),
    (m.Rebase((m.UnitCount("infantry", 1),), "Metz", "Berlin"), "rebase-units"),
    (m.TaskForce("1", "North Sea", (m.UnitCount("battleship", 2), m.UnitCount("infantry", 1))), "tf-units"),
    (m.SubDetection("North Sea", (m.UnitCount("cruiser", 2),), "Kiel"), "detect-from"),
]


@pytest.mark.parametrize("order,code", KIND_REFUSALS, ids=[c for _, c in KIND_REFUSALS])
def test_unit_kinds_are_refused_by_the_homes_too(order: m.Order, code: str) -> None:
    _, events = resolve(make_state(), {"germany": [order]}, make_world(), make_scenario(), Dice("kinds", 1))
    assert refused(events) == [(code, 1)]
    assert code in catalogue()


def test_load_takes_land_and_air_units_only() -> None:
    orders: list[m.Order] = [m.TaskForce("2", "Baltic Sea", (m.UnitCount("transport", 2),)),
                             m.TaskForceMission("2", "load", units=(m.UnitCount("submarine", 1),), origin="Kiel")]
    _, events = resolve(make_state(), {"germany": orders}, make_world(), make_scenario(), Dice("kinds", 1))
    assert refused(events) == [("load-units", 2)]


@pytest.mark.parametrize("text,code", REFUSALS, ids=[f"{c}:{t.splitlines()[-1]}" for t, c in REFUSALS])
def test_each_home_refuses_by_the_rules_in_the_checker_and_the_engine(text: str, code: str) -> None:
    last = len(text.splitlines())
    assert errors(text, state=_rockets_and_tech()) == [(code, last)]
    _, events = turn(text, state=_rockets_and_tech())
    assert refused(events) == [(code, last)]


def test_a_loaded_task_force_with_other_ships_is_told_to_split_its_transports_off() -> None:
    # Troops left aboard at sea: a task force formed of the transports and a submarine takes
    # them aboard (engine/orders/task_forces.py), and can do no mission but split the
    # transports off (4.2.1: loaded transports do troop transport only, and alone).
    state = make_state()
    state.new_unit("germany", "infantry", "Baltic Sea")
    text = "TF 2 AT Baltic Sea: 2 tr, 1 ss\nTF 2 MOVE"
    assert errors(text, state=state) == [("tf-loaded", 2)]
    r = check_text(text, "Germany", state, make_world(), make_scenario())
    assert "split them off first (TF 2 SPLIT 2 tr INTO TF <new name>)" in r.diagnostics[0].message
    assert errors("TF 2 AT Baltic Sea: 2 tr, 1 ss\nTF 2 SPLIT 2 tr INTO TF 3\nTF 3 TRANSPORT", state=state) == []


def test_a_refused_hunt_or_interception_never_fights_with_the_units_there() -> None:
    # The engine refuses DETECT with 4 destroyers where Germany has 3, and INTERCEPT with 3
    # submarines where it has 1; neither may then hunt or strike with what is there (the
    # naval step reads only the orders the engine kept: submarines.hunts, submarines.kept).
    state = make_state()
    for a, b in (("britain", "germany"), ("germany", "britain")):
        state.nations[a].at_war_with = [b]
    state.new_unit("britain", "submarine", "North Sea")
    state.new_unit("germany", "submarine", "North Sea")
    orders = {"germany": parse_orders("DETECT SUBS IN North Sea WITH 4 dd\nINTERCEPT WITH 3 ss IN North Sea").orders,
              "britain": parse_orders("TF 1 AT North Sea: 1 bb\nTF 1 MOVE TO English Channel").orders}
    _, events = resolve(state, orders, make_world(), make_scenario(), Dice("refused-hunt", 1))
    assert [e.args["reason"] for e in events if e.code == "order-refused"] == ["not-enough-units"] * 2
    assert not [e for e in events if e.code == "naval-battle"]


def test_every_refusal_reads_as_a_sentence_citing_its_rule() -> None:
    for text, code in REFUSALS:
        r = check_text(text, "Germany", _rockets_and_tech(), make_world(), make_scenario())
        d = next(d for d in r.diagnostics if d.code == code)
        assert not d.message.startswith(code), d.message  # rendered, not the plain fallback
    for code, msg in catalogue().items():
        if msg.source == "combat.toml":
            assert msg.rule, code


# ---- what the rules allow ------------------------------------------------------------------

def test_legal_phase4_orders_are_kept_without_remarks() -> None:
    state = _rockets_and_tech()
    state.nations["germany"].tech.update(improved_bombers=2)
    state.new_unit("germany", "bomber", "Ruhr")
    text = ("BOMB TACTICAL 2 ftr FROM Ruhr TO Verdun\n"  # 2 there, 1 round, 1 back to Metz: fuel 4
            "BOMB INDUSTRY 1 bmb FROM Ruhr TO Paris\n"  # 3 + 1 + 2 = fuel 6
            "FIRE 1 rkt FROM Metz AT Verdun\n"
            "TF 1 AT North Sea: 2 bb, 3 dd\nTF 1 PATROL TO English Channel\nTF 1 BLOCKADE\n"
            "TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 3 inf FROM East Prussia\nTF 2 TRANSPORT\n"
            "INVADE 3 inf FROM Baltic Sea TO East Prussia\n"
            "INTERCEPT WITH 2 ss IN English Channel AGAINST transports\n"
            "TF 4 AT Baltic Sea: 1 ss\nTF 4 DOCK\n"  # Kiel is a German port on the Baltic
            "DETECT SUBS IN North Sea WITH 1 bmb FROM Ruhr\n"  # 3 there, 1 round, 2 back: fuel 6
            "SUPPORT 1 art FROM Metz TO Ruhr\nDEFEND WITH PORT AT Kiel")
    assert receipt(text, state=state) == []


def test_rebasing_has_twice_the_fuel_and_lands_only_where_aircraft_may() -> None:
    assert receipt("REBASE 2 ftr FROM Ruhr TO Berlin") == []
    # 4.1.2: "double movement points": with fuel 1, Ruhr - Berlin - Posen (2) is a rebase but no move.
    one = scenario_with(fighter=1)
    assert receipt("REBASE 2 ftr FROM Ruhr TO Posen", scenario=one) == []
    assert errors("MOVE 2 ftr FROM Ruhr TO Posen", scenario=one) == [("out-of-range", 1)]
    assert errors("REBASE 2 ftr FROM Ruhr TO East Prussia", scenario=one) == [("rebase-out-of-range", 1)]
    state = make_state()
    state.control["Switzerland"] = "germany"
    alps = dataclasses.replace(make_scenario(), terrain=load_scenario("1914").terrain)
    assert errors("REBASE 2 ftr FROM Ruhr TO Switzerland", state=state, scenario=alps) == [("cannot-land", 1)]


def test_rockets_reach_farther_with_the_third_advance() -> None:
    state = _rockets_and_tech()
    state.nations["germany"].tech["rockets"] = 3
    assert receipt("FIRE 1 rkt FROM Metz AT Paris", state=state) == []
    state.nations["germany"].tech["rockets"] = 2
    assert errors("FIRE 1 rkt FROM Metz AT Paris", state=state) == [("rocket-range", 1)]


def test_warnings_kept_orders() -> None:
    assert receipt("DEFEND WITH AA AT Kiel") == [("warning", "aa-automatic", 1)]
    assert receipt("SUPPORT 1 art FROM Metz TO Verdun") == [("warning", "support-nothing", 1)]
    assert receipt("ATTACK 6 inf FROM Metz TO Verdun\nSUPPORT 1 art FROM Metz TO Verdun") == []
    assert receipt("TF 1 AT North Sea: 2 bb\nTF 1 BOMBARD Belgium") == [("warning", "bombard-no-invasion", 2)]
    # An escort written before the escorted task force's move: it is not there yet.
    text = ("TF 1 AT North Sea: 3 dd\nTF 2 AT North Sea: 2 bb\nTF 1 ESCORT 2 TO English Channel\n"
            "TF 2 PATROL TO English Channel")
    assert receipt(text) == [("warning", "escort-apart", 3)]
    text = ("TF 1 AT North Sea: 3 dd\nTF 2 AT North Sea: 2 bb\nTF 2 PATROL TO English Channel\n"
            "TF 1 ESCORT 2 TO English Channel")
    assert receipt(text) == []


def test_a_damaged_battleship_does_not_bombard() -> None:
    state = make_state()
    for u in state.units:
        if u.nation == "germany" and u.kind == "battleship":
            u.damage = 1
    assert errors("TF 1 AT North Sea: 2 bb\nTF 1 BOMBARD Belgium", state=state) == [("bombard-damaged", 2)]


def test_an_invasion_of_a_nation_not_at_war_is_warned_and_aa_do_not_attack() -> None:
    state = make_state()
    state.new_unit("germany", "aa", "Kiel")
    text = ("TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 1 inf, 1 aa FROM Kiel\n"
            "INVADE 1 inf, 1 aa FROM Baltic Sea TO East Prussia")
    assert receipt(text, state=state) == []  # a landing on one's own coast is no invasion
    state.control["East Prussia"] = "belgium"  # (a neutral's coast, for the test)
    assert receipt(text, state=state) == [("warning", "never-attack", 3), ("warning", "undeclared-attack", 3)]


# ---- the task-force ledger: later orders meet the task force as earlier ones left it -------

def test_an_invasion_needs_the_troops_aboard_a_task_force_ending_in_its_sea_zone() -> None:
    state = make_state()
    for _ in range(2):
        state.new_unit("germany", "transport", "North Sea")
    load = "TF 5 AT North Sea: 2 tr\nTF 5 LOAD 1 inf FROM Kiel\nTF 5 TRANSPORT TO English Channel\n"
    # The transports left the North Sea: nothing lands from there (4.4).
    assert errors(load + "INVADE 1 inf FROM North Sea TO Belgium", state=state) == [("invasion-not-loaded", 4)]
    assert receipt(load + "INVADE 1 inf FROM English Channel TO Picardy", state=state) == []
    # Troops land once: the second landing finds nobody aboard.
    twice = load + "INVADE 1 inf FROM English Channel TO Picardy\nINVADE 1 inf FROM English Channel TO Belgium"
    assert errors(twice, state=state) == [("invasion-not-loaded", 5)]
    _, events = turn(twice, state=state)
    assert refused(events) == [("invasion-not-loaded", 5)]
    # The transports sailed with the infantry, which landed on the French coast: a beach landing.
    landing = next(e for e in events if e.code == "battle")
    assert landing.args["territory"] == "Picardy" and landing.args["origins"] == ["English Channel"]
    assert [e.args["path"] for e in events if e.code == "task-force"] == [["North Sea", "English Channel"]]


def test_missions_are_read_in_order_one_movement_point_each() -> None:
    # Battleships have 2 movement points: patrol in the zone, then move; a third task is one too many.
    assert receipt("TF 1 AT North Sea: 2 bb\nTF 1 PATROL\nTF 1 MOVE TO English Channel") == []
    assert errors("TF 1 AT North Sea: 2 bb\nTF 1 PATROL\nTF 1 MOVE TO English Channel\nTF 1 BLOCKADE") == [
        ("tf-too-far", 4)]
    # Loading is part of the transport mission and spends no point of its own.
    assert receipt("TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 1 inf FROM Kiel\nTF 2 LOAD 2 inf FROM East Prussia\n"
                   "TF 2 TRANSPORT\nTF 2 TRANSPORT") == []


# ---- units have one order a turn --------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "BOMB TACTICAL 2 ftr FROM Ruhr TO Verdun\nMOVE 2 ftr FROM Ruhr TO Metz",
    "MOVE 2 ftr FROM Ruhr TO Metz\nBOMB TACTICAL 2 ftr FROM Ruhr TO Verdun",  # 4.1.1 comes first anyway
    "BOMB TACTICAL 2 ftr FROM Ruhr TO Verdun\nREBASE 2 ftr FROM Ruhr TO Berlin",
])
def test_aircraft_that_bomb_cannot_also_move_or_rebase(text: str) -> None:
    later = 1 if text.startswith("MOVE") else 2
    assert errors(text) == [("not-enough-units", later)]
    new, events = turn(text)
    assert refused(events) == [("not-enough-units", later)]
    assert [e.args["order"] + 1 for e in events if e.code == "air-raid"] == [3 - later]
    assert sum(1 for u in new.units_at("Ruhr", "germany") if u.kind == "fighter") == 2  # still home


@pytest.mark.parametrize("text,busy", [
    ("FIRE 1 rkt FROM Metz AT Verdun\nMOVE 1 rkt FROM Metz TO Ruhr", 2),  # "cannot fire on any turn that it moves"
    ("SUPPORT 2 art FROM Metz TO Verdun\nMOVE 2 art FROM Metz TO Ruhr", 2),
    ("TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 4 inf FROM East Prussia\nMOVE 1 inf FROM East Prussia TO Posen", 3),
    ("TF 1 AT North Sea: 3 dd\nDETECT SUBS IN North Sea WITH 1 dd", 2),
    ("INTERCEPT WITH 1 ss IN Baltic Sea\nTF 4 AT Baltic Sea: 1 ss", 2),
    ("DETECT SUBS IN North Sea WITH 1 bmb FROM Ruhr\nMOVE 1 bmb FROM Ruhr TO Metz", 2),  # 4.4: not after detection
])
def test_units_with_a_phase4_order_are_busy(text: str, busy: int) -> None:
    assert errors(text, state=_rockets_and_tech()) == [("not-enough-units", busy)]


# ---- one fuel rule ---------------------------------------------------------------------------

def test_london_north_sea_belgium_costs_four_fuel_for_checker_and_engine() -> None:
    """Fighters: "Movement into or out of a sea zone requires 2 fuel points": into the North
    Sea 2, out of it into Belgium 2 (the old checker charged the sea only on entering: 3)."""
    world = make_world()
    assert fuel.cheapest(world, "London", "Belgium") == 4
    for tank, kept in ((4, True), (3, False)):
        scenario = scenario_with(fighter=tank)
        text = "MOVE 1 ftr FROM London TO Belgium"
        assert receipt(text, "Britain", britain_at_war(), scenario) == ([] if kept else [("error", "out-of-range", 1)])
        new, events = turn(text, "Britain", britain_at_war(), scenario)
        assert refused(events) == ([] if kept else [("out-of-range", 1)])
        assert sum(1 for u in new.units_at("Belgium", "britain") if u.kind == "fighter") == (1 if kept else 0)


def test_rebasing_costs_double_over_enemy_sea_zones() -> None:
    """4.1.2: "double movement points ... if it must fly over enemy controlled sea zone or
    province, then movement costs double" (Bombers: "4 movement points instead of 2")."""
    scenario = scenario_with(fighter=2)  # rebasing budget 4
    text = "REBASE 1 ftr FROM London TO Belgium"
    assert receipt(text, "Britain", britain_at_war(calm_seas=True), scenario) == []
    new, events = turn(text, "Britain", britain_at_war(calm_seas=True), scenario)
    assert referred(events) == [] and refused(events) == []
    # In the air until Phase 7, then landed (4.1.2: "The rebasing mission ends during phase 7").
    assert [(e.code, e.phase) for e in events if e.code in ("rebasing", "strategic-arrived")] == [
        ("rebasing", "4.1.2"), ("strategic-arrived", "7")]
    assert sum(1 for u in new.units_at("Belgium", "britain") if u.kind == "fighter") == 1
    # German submarines in the English Channel control nothing: that way still costs 4.
    assert receipt(text, "Britain", britain_at_war(calm_seas=False), scenario) == []
    # German surface ships in both sea zones between: 2 x 2 + 2 x 2 = 8 > 4.
    state = britain_at_war(calm_seas=False)
    state.new_unit("germany", "cruiser", "English Channel")
    assert receipt(text, "Britain", state, scenario) == [("error", "rebase-out-of-range", 1)]
    _, events = turn(text, "Britain", state, scenario)
    assert refused(events) == [("rebase-out-of-range", 1)]


# ---- referred to the moderator, and reported --------------------------------------------------

def test_orders_not_automated_yet_are_referred_and_reported() -> None:
    state = _rockets_and_tech()
    text = ("BOMB TACTICAL 2 ftr FROM Ruhr TO Verdun\nFIRE 1 rkt FROM Metz AT Verdun\n"
            "REBASE 1 bmb FROM Ruhr TO Berlin\nTF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 2 inf FROM East Prussia\n"
            "INVADE 2 inf FROM Baltic Sea TO East Prussia\nDETECT SUBS IN North Sea WITH 1 dd\n"
            "INTERCEPT WITH 1 ss IN Baltic Sea\nSUPPORT 1 art FROM Metz TO Verdun\nDEFEND WITH PORT AT Kiel\n"
            "DEFEND WITH AA AT Kiel")
    before = state.nations["germany"].saved
    new, events = turn(text, state=state)
    assert refused(events) == []
    assert referred(events) == sorted([
        ])
    # AA guns need no order (Anti Air Guns): nothing to refer. Rockets fire (rocket_fire);
    # SUPPORT and DEFEND WITH fight (phase4_land); bombing, rebasing, task forces, the
    # landing on own land, detection by ships and interception are the engine's
    # (phase4_air, phase4_sea).
    assert all(e.args["cost"] == 0 and e.seen_by == ("germany", "moderator")
               for e in events if e.code == "order-referred")
    assert new.nations["germany"].saved >= before  # nothing charged (income comes on top)
    # The two infantry went aboard and landed back on their own land.
    assert sum(1 for u in new.units_at("East Prussia", "germany")) == 4
    assert "landed, rebased, at Berlin from Ruhr" in event_text(next(e for e in events if e.code == "strategic-arrived"),
                                                                str)


# ---- the Phase 1.4 table is scenario data ------------------------------------------------------

def test_the_unrestricted_submarine_warfare_table_is_checked_against_the_map() -> None:
    world = load_world("1914")
    scenario = load_scenario("1914")
    assert validate_scenario(scenario, world) == []
    bad = dict(scenario.unrestricted)
    bad["france"] = UnrestrictedTarget("france", ("Brest",), ("Brest", "London"), 12)
    problems = validate_scenario(dataclasses.replace(scenario, unrestricted=bad), world)
    assert any("'Brest' is not a sea zone" in p for p in problems)
    assert any("London is not france's own territory" in p for p in problems)
    assert any("value 12, but the targeted territories are worth" in p for p in problems)


def test_a_carrier_alone_may_detect_only_with_fighters_aboard_checker_and_engine_alike() -> None:
    # 4.2.9: fighters detect at 2; Aircraft Carriers: "A damaged carrier cannot launch fighters".
    text = "TF 9 AT Baltic Sea: 1 cv\nTF 9 DETECT"

    def carrier(fighters: int, damaged: bool = False) -> GameState:
        state = make_state()
        state.nations["germany"].tech.update(aircraft_carriers=1)
        state.new_unit("germany", "carrier", "Baltic Sea").damage = 1 if damaged else 0
        for _ in range(fighters):
            state.new_unit("germany", "fighter", "Baltic Sea")
        return state

    s = make_scenario()
    default = dict(s.units["default"])
    default["carrier"] = dataclasses.replace(default["carrier"], capacity=2)  # the fixture's carries none
    two = dataclasses.replace(s, units={"default": default})
    for state, code in ((carrier(0), ["tf-mission"]), (carrier(1, damaged=True), ["tf-mission"]), (carrier(1), [])):
        assert [c for c, _ in errors(text, state=state, scenario=two)] == code
        _, events = turn(text, state=state, scenario=two)
        assert [c for c, _ in refused(events)] == code
