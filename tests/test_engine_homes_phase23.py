"""The homes of the Phase 2, 3 (other than BUILD), 5 and 8.1 orders: RESEARCH, UPGRADE,
trenches, radar and sonar, ESPIONAGE, COUNTERESPIONAGE, RECON, REPAIR, PLUNDER, TRANSFER.

Each home's refusals, in the checker and the engine alike; each cost charged once, so
the treasury the checker projects for a nation's orders is the one resolve() leaves;
orders referred to the moderator reported with what they cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from moderator.engine import battlefield, check, gear_aboard
from moderator.engine.check import Verdict, check_orders
from moderator.engine.conquest import take_territory
from moderator.engine.context import PendingBuild, TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.gear_aboard import GEAR
from moderator.engine.orders.trenches import FACING
from moderator.engine.placement import has_industry, map_facility
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.orders.messages import message
from moderator.world.scenario import load_scenario
from moderator.world.scenario_model import Scenario, UnitStats
from tests import engine_fixture as fx

REAL = load_scenario("1914")


def scenario(real_data: bool = True) -> Scenario:
    """The fixture scenario, with the 1914 technologies and recon tables (or without them)."""
    base = fx.scenario()
    return replace(base, technologies=REAL.technologies, recon=REAL.recon) if real_data else base


def run(s: GameState, orders: dict[str, list[m.Order]], scen: Scenario | None = None) -> tuple[GameState, list[Event]]:
    return resolve(s, orders, fx.world(), scen or scenario(), Dice("phase23", s.turn))


def project(monkeypatch: pytest.MonkeyPatch, s: GameState, nation: str, orders: Sequence[m.Order],
            scen: Scenario | None = None) -> tuple[list[Verdict], TurnContext]:
    """The checker's verdicts and the position it projects (the walk's own context)."""
    seen: list[TurnContext] = []

    class Watched(TurnContext):
        def __post_init__(self) -> None:
            super().__post_init__()
            seen.append(self)

    monkeypatch.setattr(check, "TurnContext", Watched)
    verdicts = check_orders(list(orders), nation, s, fx.world(), scen or scenario())
    return verdicts, seen[0]


def errors(verdicts: list[Verdict]) -> list[str]:
    return [p.code for v in verdicts for p in v.problems if p.refuses]


def refused(events: list[Event]) -> list[str]:
    return [e.args["reason"] for e in events if e.code == "order-refused"]


def referred(events: list[Event]) -> list[tuple[str, int, str]]:
    return [(e.args["type"], e.args["cost"], e.args["why"]) for e in events if e.code == "order-referred"]


def same_treasury(monkeypatch: pytest.MonkeyPatch, s: GameState, nation: str, orders: list[m.Order],
                  scen: Scenario | None = None) -> tuple[int, list[Event]]:
    """Resolve the orders and check the checker projected the same treasury; returns it."""
    _, ctx = project(monkeypatch, s, nation, orders, scen)
    new, events = run(s, {nation: orders}, scen)
    assert ctx.state.nations[nation].saved == new.nations[nation].saved
    return new.nations[nation].saved, events


def attempts(events: list[Event]) -> list[tuple[str, int]]:
    """The research rolls made: (researched or research-failed, what the attempt cost)."""
    return [(e.code, e.args["cost"]) for e in events if e.code in ("researched", "research-failed")]


def income(events: list[Event], nation: str) -> int:
    return next(e.args["amount"] for e in events if e.code == "income" and e.args["nation"] == nation)


# ---- Phase 2.1 research ----------------------------------------------------------------------


def test_research_is_charged_once_and_rolled(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state(saved=30)
    orders: list[m.Order] = [m.Research("rockets"), m.Research("rockets"), m.Research("improved_weapons")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["research-twice"]  # "only one attempt ... for each technology per turn"
    saved, events = same_treasury(monkeypatch, s, "germany", orders)
    assert saved == 30 - 10 - 10 + income(events, "germany")
    assert [cost for _, cost in attempts(events)] == [10, 10] and referred(events) == []
    assert refused(events) == ["research-twice"]


def test_research_costs_7_when_the_camp_has_it_but_never_for_the_basic_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state(saved=50)
    s.nations["austria"].tech.update(tanks=2, improved_weapons=1, rockets=1)
    s.nations["germany"].tech["tanks"] = 1
    orders: list[m.Order] = [m.Research("tanks"), m.Research("improved_weapons"), m.Research("rockets")]
    _, events = same_treasury(monkeypatch, s, "germany", orders)
    # Advanced tanks and basic rockets at 7; Improved Weapons "always at 10" (Phase 2.1).
    assert [cost for _, cost in attempts(events)] == [7, 10, 7]
    s.nations["france"].tech["tanks"] = 1  # Basic Tanks Technology: always 10
    _, events = run(s, {"russia": [m.Research("tanks")]})
    assert [cost for _, cost in attempts(events)] == [10]


def test_research_met_on_the_battlefield_costs_9(monkeypatch: pytest.MonkeyPatch) -> None:
    # Phase 2.1: "Nations that meet advanced weaponry on the battlefield at the hands of the
    # enemy ... can spend only 9 resources to research that technology."
    s = fx.state(units=[("germany", "infantry", "Posen", 3), ("russia", "artillery", "Warsaw", 1)])
    s.nations["russia"].tech["improved_artillery"] = 1
    s.nations["russia"].flags["upgraded"] = {"artillery": {"improved_artillery": 1}}  # fielded, not only researched
    verdicts, _ = project(monkeypatch, s, "germany", [m.Research("improved_artillery")])
    assert [p.code for v in verdicts for p in v.problems] == []  # nothing to refer any more
    _, events = run(s, {"germany": [m.Research("improved_artillery")]})
    assert [cost for _, cost in attempts(events)] == [10]  # held by the enemy, not yet met: 10
    # Germany attacks Warsaw and meets the improved artillery there; the next turn it pays 9.
    new, events = run(s, {"germany": [m.Move((m.UnitCount("infantry", 3),), "Posen", "Warsaw")]})
    assert any(e.code == "battle" for e in events)
    assert new.nations["germany"].flags.get(battlefield.MET, {}).get("improved_artillery", 0) == 1
    assert new.nations["russia"].flags.get(battlefield.MET, {}).get("improved_weapons", 0) == 0  # the German infantry carry nothing new
    new.turn += 1
    _, events = run(new, {"germany": [m.Research("improved_artillery")]})
    assert [cost for _, cost in attempts(events)] == [9]
    assert not [e for e in events if e.code == "moderator-flag" and e.args["reason"] == "research-battlefield"]


def test_research_of_a_level_only_researched_by_the_enemy_is_not_met() -> None:
    # Researched but never upgraded: the units in battle do not carry it.
    s = fx.state(units=[("germany", "infantry", "Posen", 3), ("russia", "artillery", "Warsaw", 1)])
    s.nations["russia"].tech["improved_artillery"] = 1
    new, _ = run(s, {"germany": [m.Move((m.UnitCount("infantry", 3),), "Posen", "Warsaw")]})
    assert new.nations["germany"].flags.get(battlefield.MET, {}).get("improved_artillery", 0) == 0


def test_research_refusals(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state(saved=15)
    s.nations["germany"].tech["radar"] = 1
    orders: list[m.Order] = [m.Research("radar"), m.Research("sonar"), m.Research("tanks")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["tech-complete", "over-budget"]
    _, events = run(s, {"germany": orders})
    assert refused(events) == ["tech-complete", "over-budget"]


# ---- Phase 2.2 upgrades ----------------------------------------------------------------------


def test_upgrade_worked_example_50_infantry_cost_100(monkeypatch: pytest.MonkeyPatch) -> None:
    """Phase 2.1: "the player had 50 infantry in play and the cost for improved weapons is +1
    for every infantry, 10% of value is also 1 ... It would cost the player 100 resources"."""
    s = fx.state([("germany", "infantry", "Berlin", 50)], saved=120)
    s.nations["germany"].tech["improved_weapons"] = 1
    saved, events = same_treasury(monkeypatch, s, "germany", [m.Upgrade("infantry")])
    assert saved == 120 - 100 + income(events, "germany")
    done = next(e for e in events if e.code == "upgraded")
    assert (done.args["count"], done.args["cost"]) == (50, 100)
    new, _ = run(s, {"germany": [m.Upgrade("infantry")]})
    assert new.nations["germany"].flags["upgraded"]["infantry"]["improved_weapons"] == 1
    assert "upgrading" not in new.nations["germany"].flags  # in effect from Phase 7
    # Paid for: the next turn finds nothing to upgrade.
    _, events = run(new, {"germany": [m.Upgrade("infantry")]})
    assert refused(events) == ["nothing-to-upgrade"]


def test_upgrade_pays_each_level_since_the_last_upgrade() -> None:
    # Improved Battleships 1 and 2 (+5, +6) at once on two battleships of cost 30.
    stats = {**fx.STATS, "battleship": UnitStats("battleship", cost=30, attack=7, defense=7, move=2, hits=2)}
    scen = replace(scenario(), units={"default": stats})
    s = fx.state([("germany", "battleship", "Baltic Sea", 2)], saved=100)
    s.nations["germany"].tech["improved_battleships"] = 2
    _, events = run(s, {"germany": [m.Upgrade("battleship")]}, scen)
    assert next(e for e in events if e.code == "upgraded").args["cost"] == 2 * (11 + 5)  # 41: +11 and 5


def test_upgrade_refused_or_referred(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "infantry", "Berlin", 3)], saved=10)
    verdicts, _ = project(monkeypatch, s, "germany", [m.Upgrade("infantry")])
    assert errors(verdicts) == ["nothing-to-upgrade"]
    # After a research of this turn: kept if it succeeds (the checker assumes it does);
    # when the roll fails there is nothing to buy and nothing is charged.
    s.nations["germany"].saved = 30
    orders: list[m.Order] = [m.Research("improved_weapons"), m.Upgrade("infantry")]
    verdicts, ctx = project(monkeypatch, s, "germany", orders)
    assert [p.code for p in verdicts[1].problems] == ["if-researched"]
    failed = ScriptedDice({"2.1": [8]}, s.turn)
    new, events = resolve(s, {"germany": orders}, fx.world(), scenario(), failed)
    assert [e.code for e in events if e.args.get("nation") == "germany" and e.phase in ("2.1", "2.2")] == [
        "research-failed", "upgrade-nothing-new"]
    assert new.nations["germany"].saved == 30 - 10 + income(events, "germany")
    rolled = ScriptedDice({"2.1": [9]}, s.turn)
    new, events = resolve(s, {"germany": orders}, fx.world(), scenario(), rolled)
    assert next(e for e in events if e.code == "upgraded").args["cost"] == 6  # 3 x (1 + 1)
    assert new.nations["germany"].saved == ctx.state.nations["germany"].saved == 30 - 16 + income(events, "germany")
    assert new.nations["germany"].tech["improved_weapons"] == 1
    assert new.nations["germany"].flags["upgraded"]["infantry"] == {"improved_weapons": 1, "chemical_warfare": 0}
    s.nations["germany"].saved = 10
    # A scenario without the Advancements table cannot price it: referred, nothing charged.
    s.nations["germany"].tech["improved_weapons"] = 1
    _, events = run(s, {"germany": [m.Upgrade("infantry")]}, scenario(real_data=False))
    assert referred(events) == [("Upgrade", 0, "upgrade-cost-unknown")]
    _, events = run(s, {"germany": [m.Upgrade("infantry"), m.Upgrade("infantry")]})
    assert refused(events) == ["upgrade-twice"]
    s.nations["germany"].saved = 5  # 3 x (1 + 1) = 6
    _, events = run(s, {"germany": [m.Upgrade("infantry")]})
    assert refused(events) == ["over-budget"]


# ---- Phase 3.1 trenches --------------------------------------------------------------------


def test_a_trench_is_a_unit_facing_one_border(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "infantry", "Posen", 2)], saved=20)
    orders: list[m.Order] = [m.BuildTrench("Posen", "Warsaw"), m.BuildTrench("Posen", "Warsaw")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["trench-exists"]
    new, events = run(s, {"germany": orders})
    saved, _ = same_treasury(monkeypatch, s, "germany", orders)
    assert saved == 20 - 5 + income(events, "germany")
    trench = next(u for u in new.units if u.kind == "trench")
    assert trench.location == "Posen" and new.nations["germany"].flags[FACING] == {trench.id: "Warsaw"}
    built = next(e for e in events if e.code == "trench-built")
    assert (built.args["place"], built.args["facing"], built.args["cost"]) == ("Posen", ["Warsaw"], 5)


@pytest.mark.parametrize("order,code", [
    (m.BuildTrench("Posen", "Baltic Sea"), "trench-facing"),  # "not ... along a coastline"
    (m.BuildTrench("Posen", "Vienna"), "trench-facing"),  # not a neighbour
    (m.BuildTrench("Silesia", "Warsaw"), "trench-infantry"),  # no infantry at the start of the turn
    (m.BuildTrench("Warsaw", "Posen"), "trench-not-own"),
    (m.BuildTrench("Posen", "Warsaw", super=True), "needs-tech"),
    (m.BuildHomeTrenches("Silesia"), "trench-infantry"),  # 5 infantry needed
    (m.BuildHomeTrenches("Posen"), "home-trench"),  # not a city
])
def test_trench_refusals(monkeypatch: pytest.MonkeyPatch, order: m.Order, code: str) -> None:
    s = fx.state([("germany", "infantry", "Posen", 2), ("germany", "infantry", "Silesia", 0)])
    verdicts, _ = project(monkeypatch, s, "germany", [order])
    assert errors(verdicts) == [code]
    _, events = run(s, {"germany": [order]})
    assert refused(events) == [code]


def test_super_trench_upgrades_a_trench_that_stood_when_the_turn_began(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "infantry", "Posen", 10)], saved=60)
    s.nations["germany"].tech["super_trenches"] = 1
    same_turn: list[m.Order] = [m.BuildTrench("Posen", "Warsaw"), m.BuildTrench("Posen", "Warsaw", super=True)]
    verdicts, _ = project(monkeypatch, s, "germany", same_turn)
    assert errors(verdicts) == ["super-trench-base"]  # "where it already has a normal trench"
    after, _ = run(s, {"germany": [m.BuildTrench("Posen", "Warsaw")]})
    upgrade: list[m.Order] = [m.BuildTrench("Posen", "Warsaw", super=True)]
    saved, events = same_treasury(monkeypatch, after, "germany", upgrade)
    assert saved == after.nations["germany"].saved - 20 + income(events, "germany")
    new, _ = run(after, {"germany": upgrade})
    assert [u.kind for u in new.units if u.location == "Posen" and u.kind in ("trench", "super_trench")] == ["super_trench"]
    assert next(e for e in events if e.code == "trench-built").args["cost"] == 20


def test_home_city_trenches_face_every_land_neighbour(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "infantry", "Berlin", 5)], saved=20)
    saved, events = same_treasury(monkeypatch, s, "germany", [m.BuildHomeTrenches("Berlin")])
    assert saved == 20 - 10 + income(events, "germany")
    built = next(e for e in events if e.code == "trench-built")
    assert built.args["facing"] == ["Brussels", "Posen", "Silesia"]  # not the Baltic Sea
    new, _ = run(s, {"germany": [m.BuildHomeTrenches("Berlin")]})
    _, events = run(new, {"germany": [m.BuildHomeTrenches("Berlin")]})
    assert refused(events) == ["home-trenches-exist"]
    # "This rule is not available for conquered cities."
    s.control["Warsaw"] = "germany"
    fx.add_units(s, "germany", "infantry", "Warsaw", 5)
    _, events = run(s, {"germany": [m.BuildHomeTrenches("Warsaw")]})
    assert refused(events) == ["home-trench"]


def test_capture_destroys_the_trenches_and_radar_of_the_territory() -> None:
    s = fx.state([("germany", "infantry", "Posen", 1)])
    s.new_unit("germany", "trench", "Posen")
    s.new_unit("germany", "radar", "Posen")
    ctx = TurnContext(s.copy(), {}, fx.world(), scenario(), dice_root=Dice("capture", 1))
    take_territory(ctx, "Posen", "russia", "4.4")
    assert not [u for u in ctx.state.units if u.kind in ("trench", "radar")]


# ---- Phase 3.1 radar and sonar -----------------------------------------------------------


def test_radar_on_land_and_sonar_on_a_ship_are_placed_in_phase_7(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "cruiser", "Baltic Sea", 1)], saved=40)
    s.nations["germany"].tech.update(radar=1, sonar=1)
    orders: list[m.Order] = [m.BuildShipGear("radar", "Berlin"), m.BuildShipGear("sonar", "Baltic Sea", "cruiser"),
                             m.BuildShipGear("sonar", "Baltic Sea", "cruiser")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["gear-no-ship"]  # one cruiser, one piece of gear
    saved, events = same_treasury(monkeypatch, s, "germany", orders)
    assert saved == 40 - 18 - 13 + income(events, "germany")
    assert referred(events) == []
    new, events = run(s, {"germany": orders})
    assert [u.location for u in new.units if u.kind == "radar"] == ["Berlin"]
    cruiser = next(u for u in new.units if u.kind == "cruiser")
    assert new.nations["germany"].flags[GEAR] == {cruiser.id: ["sonar"]}
    assert [(e.args["kind"], e.args["place"]) for e in events if e.code == "placed"] == [
        ("radar", "Berlin"), ("sonar", "Baltic Sea")]


def test_a_ship_already_carrying_that_gear_takes_no_second(monkeypatch: pytest.MonkeyPatch) -> None:
    """One radar and one sonar a ship (gear_aboard.room): a second would be paid for and lost in
    Phase 7, so the checker and the engine refuse it; another kind of gear still goes aboard."""
    s = fx.state([("germany", "cruiser", "Baltic Sea", 2)], saved=60)
    s.nations["germany"].tech.update(sonar=1, improved_aa=1)
    first, second = sorted((u for u in s.units if u.kind == "cruiser"), key=lambda u: u.id)
    s.nations["germany"].flags[GEAR] = {first.id: ["sonar"]}
    sonar = m.BuildShipGear("sonar", "Baltic Sea", "cruiser")
    orders: list[m.Order] = [sonar, sonar, m.BuildShipGear("aa", "Baltic Sea", "cruiser")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["gear-no-ship"]  # the second sonar: only one cruiser is bare
    new, events = run(s, {"germany": orders})
    assert refused(events) == ["gear-no-ship"]
    assert new.nations["germany"].flags[GEAR] == {first.id: ["aa", "sonar"], second.id: ["sonar"]}
    assert not [e for e in events if e.code == "build-lost"]
    text = message(next(p for v in verdicts for p in v.problems))
    assert "1 carry no sonar yet" in text, text


def test_gear_for_a_ship_gone_by_phase_7_is_lost_and_sunk_ships_lose_theirs() -> None:
    s = fx.state([("germany", "cruiser", "Baltic Sea", 2)])
    first, second = sorted((u for u in s.units if u.kind == "cruiser"), key=lambda u: u.id)
    s.nations["germany"].flags[GEAR] = {first.id: ["sonar"], "germany-battleship-9999": ["radar"]}  # one sunk
    ctx = TurnContext(s.copy(), {}, fx.world(), scenario(), dice_root=Dice("gear", 1))
    gear_aboard.drop_sunk(ctx)
    for _ in range(2):  # the first cruiser has sonar already: the second takes one, then none is left
        gear_aboard.mount(ctx, PendingBuild("germany", "sonar", 1, "Baltic Sea", 13, 0, on="cruiser"))
    assert ctx.state.nations["germany"].flags[GEAR] == {first.id: ["sonar"], second.id: ["sonar"]}
    assert [e.code for e in ctx.events] == ["placed", "build-lost"]


@pytest.mark.parametrize("order,code", [
    (m.BuildShipGear("radar", "Baltic Sea", "cruiser"), "radar-ship"),  # battleships or carriers only
    (m.BuildShipGear("radar", "Warsaw"), "place-not-held"),
    (m.BuildShipGear("radar", "Baltic Sea"), "gear-needs-ship"),
    (m.BuildShipGear("sonar", "Berlin", "cruiser"), "place-ship-land"),
    (m.BuildShipGear("sonar", "Baltic Sea", "battleship"), "gear-no-ship"),
])
def test_gear_refusals(order: m.BuildShipGear, code: str) -> None:
    s = fx.state([("germany", "cruiser", "Baltic Sea", 1)])
    s.nations["germany"].tech.update(radar=1, sonar=1)
    _, events = run(s, {"germany": [order]})
    assert refused(events) == [code]
    s.nations["germany"].tech.clear()
    _, events = run(s, {"germany": [order]})
    assert refused(events) == ["needs-tech"]


# ---- Phase 3.2 espionage ------------------------------------------------------------------


def test_espionage_fees_are_charged_and_the_rolls_made(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "infantry", "Posen", 1)], saved=30)
    orders: list[m.Order] = [
        m.Espionage("neutral", target="belgium"), m.Espionage("army", target="russia"),
        m.Espionage("industrial", target="austria", tech="tanks"), m.Espionage("combat", place="Warsaw"),
        m.CounterEspionage("army", against="france"), m.CounterEspionage("recon", place="Posen"),
        m.CounterEspionage("industrial", tech="tanks"),
    ]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert [p.code for v in verdicts for p in v.problems] == ["espionage-no-unit"]  # no unit in Warsaw
    saved, events = same_treasury(monkeypatch, s, "germany", orders)
    assert saved == 30 - (4 + 5 + 3 + 1) - 3 + income(events, "germany")
    assert referred(events) == []
    rolled = [e.code for e in events if e.phase == "3.2"]
    # One event per counter-espionage and per espionage; a successful combat intelligence's
    # comes after the battles (Phase 9).
    later = sum(e.code == "spied-combat" and e.phase == "9" for e in events)
    assert rolled.count("counter-espionage") == 3 and len(rolled) == 3 + 4 - later


@pytest.mark.parametrize("order,code", [
    (m.Espionage("neutral", target="russia"), "espionage-target"),  # not neutral
    (m.Espionage("affiliation", target="belgium"), "espionage-target"),  # a minor neutral
    (m.Espionage("army", target="belgium"), "espionage-target"),  # not an enemy
    (m.Espionage("industrial", target="germany", tech="tanks"), "espionage-target"),
    (m.Espionage("combat", place="Baltic Sea"), "espionage-target"),
    (m.CounterEspionage("affiliation"), "counter-kind"),  # major neutrals only
    (m.CounterEspionage("army", against="austria"), "counter-target"),
    (m.CounterEspionage("recon", place="Warsaw"), "counter-place"),
])
def test_espionage_refusals(order: m.Order, code: str) -> None:
    _, events = run(fx.state(), {"germany": [order, order]})
    assert refused(events) == [code, code]


def test_the_same_espionage_twice_is_refused() -> None:
    _, events = run(fx.state(), {"germany": [m.Espionage("army", target="russia")] * 2})
    assert refused(events) == ["espionage-twice"]


# ---- Phase 3.3 reconnaissance -------------------------------------------------------------


def test_recon_units_are_claimed_and_the_mission_flown(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "infantry", "Posen", 2), ("russia", "infantry", "Warsaw", 1)])
    orders: list[m.Order] = [m.Recon((m.UnitCount("infantry", 2),), "Posen", "Warsaw"),
                             m.Move((m.UnitCount("infantry", 1),), "Posen", "Berlin")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["not-enough-units"]  # "such units cannot be used in combat"
    new, events = run(s, {"germany": orders})
    assert referred(events) == []  # flown by the engine (tests/test_recon_missions.py)
    (flown,) = [e.args for e in events if e.code == "recon-mission"]
    lost = flown["lost"].get("infantry", 0)
    assert refused(events) == ["not-enough-units"] and fx.count(new, "germany", "infantry", "Posen") == 2 - lost


@pytest.mark.parametrize("units,origin,target,code", [
    ((m.UnitCount("artillery", 1),), "Posen", "Warsaw", "recon-units"),  # "cannot see at all"
    ((m.UnitCount("infantry", 1),), "Posen", "Minsk", "recon-not-adjacent"),
    ((m.UnitCount("cruiser", 1),), "Baltic Sea", "Riga", "recon-units"),  # ships look at sea only
    ((m.UnitCount("fighter", 1),), "Riga", "Paris", "out-of-range"),  # fuel 4: 5 to get there
    ((m.UnitCount("fighter", 1),), "Posen", "Moscow", "no-fuel-home"),  # 3 there, 3 back
    ((m.UnitCount("infantry", 3),), "Posen", "Warsaw", "not-enough-units"),
])
def test_recon_refusals(units: m.Units, origin: str, target: str, code: str) -> None:
    s = fx.state([("germany", "infantry", "Posen", 2), ("germany", "artillery", "Posen", 1),
                  ("germany", "fighter", "Posen", 1), ("germany", "fighter", "Riga", 1),
                  ("germany", "cruiser", "Baltic Sea", 1)])
    _, events = run(s, {"germany": [m.Recon(units, origin, target)]})
    assert refused(events) == [code]


def test_ships_recon_their_own_sea_zone_only() -> None:
    s = fx.state([("germany", "cruiser", "Baltic Sea", 1)])
    _, events = run(s, {"germany": [m.Recon((m.UnitCount("cruiser", 1),), "Baltic Sea", "Baltic Sea")]})
    assert [e.args["place"] for e in events if e.code == "recon-mission"] == ["Baltic Sea"]


def test_recon_needs_the_scenario_table() -> None:
    s = fx.state([("germany", "infantry", "Posen", 1)])
    _, events = run(s, {"germany": [m.Recon((m.UnitCount("infantry", 1),), "Posen", "Warsaw")]},
                    scenario(real_data=False))
    assert refused(events) == ["recon-units"]


# ---- Phase 3.4 repairs -------------------------------------------------------------------


def test_repairs_are_paid_the_ships_claimed_and_finished_in_phase_7(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state(saved=50)
    bb, cv = fx.add_units(s, "germany", "battleship", "Baltic Sea", 2), fx.add_units(s, "germany", "carrier",
                                                                                      "Baltic Sea", 1)
    bb[0].damage = cv[0].damage = 1
    orders: list[m.Order] = [m.Repair("battleship", 1, "Baltic Sea"), m.Repair("carrier", 1, "Baltic Sea"),
                             m.Repair("battleship", 1, "Baltic Sea")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["nothing-to-repair"]  # the second battleship is not damaged
    saved, events = same_treasury(monkeypatch, s, "germany", orders)
    assert saved == 50 - 20 - 25 + income(events, "germany")
    assert referred(events) == []
    assert sorted(e.args["kind"] for e in events if e.code == "ship-repaired" and e.phase == "7") == [
        "battleship", "carrier"]
    new, _ = run(s, {"germany": orders[:2]})
    assert all(u.damage == 0 for u in new.units if u.nation == "germany")
    assert "repairing" not in new.nations["germany"].flags
    s.control["Berlin"] = "russia"  # no friendly port on the Baltic any more
    _, events = run(s, {"germany": orders[:1]})
    assert refused(events) == ["repair-no-port"]


def test_a_repair_broken_off_by_an_enemy_warship_loses_its_money() -> None:
    s = fx.state(saved=50)
    fx.add_units(s, "germany", "battleship", "Baltic Sea", 1)[0].damage = 1
    fx.add_units(s, "russia", "cruiser", "Baltic Sea", 1)  # still there in Phase 7: the ship was attacked
    new, events = run(s, {"germany": [m.Repair("battleship", 1, "Baltic Sea")]})
    (cancelled,) = [e for e in events if e.code == "repair-cancelled"]
    assert cancelled.args["reason"] == "enemy-in-zone" and cancelled.seen_by == ("germany",)
    assert [u.damage for u in new.units if u.kind == "battleship"] == [1]
    assert new.nations["germany"].saved == 50 - 20 + income(events, "germany")


# ---- Phase 5 plunder ---------------------------------------------------------------------


def conquered_moscow(incorporated_in: int) -> GameState:
    s = fx.state(saved=10)
    s.turn = 3
    s.control["Moscow"] = "germany"
    s.incorporated["Moscow"] = incorporated_in
    return s


def test_plunder_adds_25_and_the_complex_is_gone(monkeypatch: pytest.MonkeyPatch) -> None:
    s = conquered_moscow(incorporated_in=1)
    orders: list[m.Order] = [m.Plunder("industry", "Moscow"), m.Plunder("industry", "Moscow")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == ["plunder-nothing"]  # dismantled by the first
    saved, events = same_treasury(monkeypatch, s, "germany", orders)
    assert saved == 10 + 25 + income(events, "germany")
    assert [e.args["gained"] for e in events if e.code == "plundered"] == [25]
    new, _ = run(s, {"germany": orders})
    ctx = TurnContext(new, {}, fx.world(), scenario(), dice_root=Dice("p", 1))
    assert not map_facility(ctx, "Moscow", "industry")
    new.control["Moscow"] = "russia"  # recaptured: nothing to build tanks with there
    assert not has_industry(ctx, "russia", "Moscow")


def test_a_built_port_is_plundered_for_15() -> None:
    s = conquered_moscow(incorporated_in=1)
    s.new_unit("russia", "port", "Moscow")
    new, events = run(s, {"germany": [m.Plunder("port", "Moscow")]})
    assert [e.args["gained"] for e in events if e.code == "plundered"] == [15]
    assert not [u for u in new.units if u.kind == "port"]


@pytest.mark.parametrize("order,incorporated_in,code", [
    (m.Plunder("industry", "Moscow"), 2, "plunder-too-soon"),  # "at least one full turn"
    (m.Plunder("port", "Moscow"), 1, "plunder-nothing"),
    (m.Plunder("industry", "Berlin"), 1, "plunder-own"),
    (m.Plunder("industry", "Paris"), 1, "plunder-not-held"),
])
def test_plunder_refusals(order: m.Order, incorporated_in: int, code: str) -> None:
    _, events = run(conquered_moscow(incorporated_in), {"germany": [order]})
    assert refused(events) == [code]


def test_plunder_needs_incorporation() -> None:
    s = conquered_moscow(incorporated_in=1)
    del s.incorporated["Moscow"]
    _, events = run(s, {"germany": [m.Plunder("industry", "Moscow")]})
    assert refused(events) == ["plunder-too-soon"]


# ---- Phase 8 transfers -------------------------------------------------------------------


def test_transfers_are_checked_after_income_and_carried(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state(saved=0)
    s.control["Riga"], s.control["Konigsberg"] = "germany", "russia"  # Riga: cut off, on the Baltic
    orders: list[m.Order] = [m.Transfer(2, "Riga", "Berlin")]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert verdicts[0].kept and not verdicts[0].problems  # Riga's income (2) comes first
    saved, events = same_treasury(monkeypatch, s, "germany", orders)
    assert referred(events) == [] and saved == income(events, "germany")  # all of it home again
    s.control["Moscow"] = "germany"  # inland: no sea path home
    _, events = run(s, {"germany": [m.Transfer(99, "Riga", "Berlin"), m.Transfer(1, "Riga", "Riga"),
                                    m.Transfer(1, "Warsaw", "Berlin"), m.Transfer(1, "Moscow", "Berlin")]})
    assert refused(events) == ["transfer-too-much", "transfer-same", "transfer-not-held", "transfer-no-path"]
    verdicts, _ = project(monkeypatch, s, "germany", [m.Transfer(1, "Posen", "Berlin")])
    assert [p.code for p in verdicts[0].problems] == ["transfer-connected"]


# ---- everything at once ------------------------------------------------------------------


def test_a_full_turn_of_these_orders_is_charged_once(monkeypatch: pytest.MonkeyPatch) -> None:
    s = fx.state([("germany", "infantry", "Posen", 2), ("germany", "infantry", "Berlin", 5),
                  ("germany", "cruiser", "Baltic Sea", 1)], saved=100)
    s.nations["germany"].tech.update(improved_weapons=1, sonar=1)
    orders: list[m.Order] = [
        m.Research("tanks"), m.Upgrade("infantry"), m.BuildTrench("Posen", "Warsaw"), m.BuildHomeTrenches("Berlin"),
        m.BuildShipGear("sonar", "Baltic Sea", "cruiser"), m.Espionage("army", target="russia"),
        m.CounterEspionage("industrial", tech="tanks"), m.Build("infantry", 2, "Berlin"),
    ]
    verdicts, _ = project(monkeypatch, s, "germany", orders)
    assert errors(verdicts) == []
    saved, events = same_treasury(monkeypatch, s, "germany", orders)
    # 10 research, 7 x (1 + 1) upgrade, 5 + 10 trenches, 13 sonar, 5 + 1 spies, 2 infantry at
    # 4 + 1 (Improved Weapons: "every new infantry ... will cost the increased amount").
    assert saved == 100 - 10 - 14 - 15 - 13 - 6 - 10 + income(events, "germany")


def test_a_unit_built_behind_its_kind_is_met_at_its_own_levels() -> None:
    # Phase 2.1: the levels a unit itself fights with. The plain artillery carries the
    # nation's fielded levels (none); the other one its own record (built with the
    # improvement): met although a plain unit of its nation and kind came first.
    s = fx.state(units=[("germany", "infantry", "Posen", 3), ("russia", "artillery", "Warsaw", 2)])
    last = sorted(u.id for u in s.units if u.kind == "artillery")[-1]
    s.nations["russia"].flags["built_at"] = {last: {"improved_artillery": 1}}
    new, events = run(s, {"germany": [m.Move((m.UnitCount("infantry", 3),), "Posen", "Warsaw")]})
    assert any(e.code == "battle" for e in events)
    assert new.nations["germany"].flags.get(battlefield.MET, {}).get("improved_artillery", 0) == 1
