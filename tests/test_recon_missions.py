"""3.3 active reconnaissance missions flown by the engine: the defenders' fire (1 on a D10),
the table's active chances under the target's trench, what the mission learns (exact, a
band, a false colour) and who is told (the mission's nation only; the defenders that fired)."""

from __future__ import annotations

import math
from dataclasses import replace

from moderator.engine import phase3_passive_recon as passive
from moderator.engine import phase3_recon_missions as missions
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.ruleset import Step
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.world.scenario import load_scenario
from moderator.world.scenario_model import Scenario
from tests import engine_fixture as fx
from tests.report_text import flat

REAL = load_scenario("1914")
MISS = 1000  # a per-mille recon roll that misses any chance under certainty
# The passive looks are step 3.3's dice (phase3_passive_recon): with Germany's units in
# Posen and Russia's in Warsaw, the Central Powers look at Warsaw, the Allies at Posen and
# Silesia. The missions are step 3.3.1's: the defenders' D10s, then the per-mille look.


def scenario() -> Scenario:
    return replace(fx.scenario(), recon=REAL.recon)


def run(s: GameState, orders: dict[str, list[m.Order]], looks: list[int], flown: list[int]) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice({"3.3": looks, "3.3.1": flown}, s.turn)
    new, events = resolve(s, orders, fx.world(), scenario(), dice)
    assert dice.unused() == {}
    return new, events


def mission(events: list[Event]) -> Event:
    (e,) = [e for e in events if e.code == "recon-mission"]
    return e


def inf(n: int) -> tuple[m.UnitCount, ...]:
    return (m.UnitCount("infantry", n),)


def test_an_infantry_mission_survives_the_fire_and_sees_the_exact_units_on_a_hit() -> None:
    s = fx.state([("germany", "infantry", "Posen", 1), ("russia", "infantry", "Warsaw", 3),
                  ("russia", "artillery", "Warsaw", 1)])
    # Passive: Central at Warsaw, Allies at Posen and Silesia (misses); then the four Russian
    # units fire (no 1); then the mission's roll, 50%: 500 of 1000 hits.
    new, events = run(s, {"germany": [m.Recon(inf(1), "Posen", "Warsaw")]}, [MISS, MISS, MISS], [5, 6, 7, 8, 500])
    e = mission(events)
    assert e.seen_by == ("germany", MODERATOR)
    assert e.args == {"nation": "germany", "order": 0, "origin": "Posen", "place": "Warsaw",
                      "units": {"infantry": 1}, "lost": {}, "seen": "exact",
                      "seen_units": {"russia": {"artillery": 1, "infantry": 3}}, "band": "", "percent": 50}
    assert new.nations["germany"].flags[passive.KNOWN]["Warsaw"] == {
        "seen": "exact", "units": {"russia": {"artillery": 1, "infantry": 3}}}
    # Austria, Germany's ally, looked passively but learns nothing of the mission.
    assert new.nations["austria"].flags[passive.KNOWN]["Warsaw"] == {"seen": "band", "band": "black"}
    (fired,) = [e for e in events if e.code == "recon-fired-on"]
    assert fired.seen_by == ("russia", MODERATOR) and fired.args["lost"] == {}
    assert fx.count(new, "germany", "infantry", "Posen") == 1  # the mission does not move it


def test_a_miss_shows_the_band_and_a_1_on_the_defenders_die_kills() -> None:
    s = fx.state([("germany", "infantry", "Posen", 2), ("russia", "infantry", "Warsaw", 1)])
    # The Russian infantry fires once: a 1 kills the first infantry; the other looks, 50%: 501 misses.
    new, events = run(s, {"germany": [m.Recon(inf(2), "Posen", "Warsaw")]}, [MISS, MISS, MISS], [1, 501])
    e = mission(events).args
    assert (e["lost"], e["seen"], e["band"], e["percent"]) == ({"infantry": 1}, "band", "black", 50)
    assert fx.count(new, "germany", "infantry", "Posen") == 1
    (fired,) = [e for e in events if e.code == "recon-fired-on"]
    assert fired.args["lost"] == {"infantry": 1} and fired.args["nations"] == ["russia"]


def test_a_mission_shot_down_learns_nothing() -> None:
    s = fx.state([("germany", "fighter", "Posen", 1), ("russia", "aa", "Warsaw", 1),
                  ("russia", "infantry", "Warsaw", 2)])
    # "Of land units only AA guns can attack aircrafts": the infantry do not fire at the fighter.
    new, events = run(s, {"germany": [m.Recon((m.UnitCount("fighter", 1),), "Posen", "Warsaw")]},
                      [MISS, MISS, MISS], [1])
    e = mission(events).args
    assert (e["lost"], e["seen"], e["seen_units"]) == ({"fighter": 1}, "none", {})
    assert fx.count(new, "germany", "fighter", "Posen") == 0
    assert "Warsaw" not in new.nations["germany"].flags[passive.KNOWN] or \
        new.nations["germany"].flags[passive.KNOWN]["Warsaw"]["seen"] == "band"  # the passive look only


def test_two_infantry_see_on_75_percent_and_a_trench_halves_it() -> None:
    s = fx.state([("germany", "infantry", "Posen", 2), ("russia", "trench", "Warsaw", 1)])
    # No Russian troops fire (a trench is not a unit that fires); 1 - 0.5^2 = 75%, halved: 37.5% = 375.
    # Passive: the Central Powers at Warsaw, the Allies' lone trench at Posen and Silesia.
    _, events = run(s, {"germany": [m.Recon(inf(2), "Posen", "Warsaw")]}, [MISS, MISS, MISS], [375])
    e = mission(events).args
    assert (e["percent"], e["seen"], e["seen_units"]) == (38, "exact", {})
    assert not [e for e in events if e.code == "recon-fired-on"]


def test_the_countermeasure_shows_a_false_colour_to_the_mission_too() -> None:
    s = fx.state([("germany", "infantry", "Posen", 1), ("russia", "infantry", "Warsaw", 1)])
    orders: dict[str, list[m.Order]] = {"germany": [m.Recon(inf(1), "Posen", "Warsaw")],
                                        "russia": [m.CounterEspionage("recon", place="Warsaw")]}
    # 3.2.2.4 holds on a 1; passive looks (missed); the Russian infantry fires; a masked
    # place gives its false colour without a roll.
    dice = ScriptedDice({"3.2": [1], "3.3": [MISS, MISS, MISS], "3.3.1": [6]}, s.turn)
    new, events = resolve(s, orders, fx.world(), scenario(), dice)
    assert dice.unused() == {}
    e = mission(events).args
    assert (e["seen"], e["band"]) == ("band", "yellow")  # 1 unit is black: the next colour
    assert new.nations["germany"].flags[passive.KNOWN]["Warsaw"] == {"seen": "band", "band": "yellow"}


def test_ships_look_at_their_own_zone_and_warships_fire_back() -> None:
    s = fx.state([("germany", "cruiser", "Baltic Sea", 1), ("russia", "cruiser", "Baltic Sea", 1),
                  ("russia", "transport", "Baltic Sea", 2)])
    # Passive: the Central Powers at the Baltic and Riga, the Allies at the Baltic, Berlin
    # and Konigsberg; the Russian cruiser fires (the transports cannot); the German cruiser
    # looks at 80%: 800 hits.
    _, events = run(s, {"germany": [m.Recon((m.UnitCount("cruiser", 1),), "Baltic Sea", "Baltic Sea")]},
                    [MISS] * 5, [2, 800])
    e = mission(events).args
    assert (e["seen"], e["percent"], e["seen_units"]) == ("exact", 80, {"russia": {"cruiser": 1, "transport": 2}})


def test_an_exact_passive_look_is_not_replaced_by_a_missions_band() -> None:
    s = fx.state([("germany", "infantry", "Posen", 2), ("russia", "infantry", "Warsaw", 1)])
    new, _ = run(s, {"germany": [m.Recon(inf(1), "Posen", "Warsaw")]}, [1, MISS, MISS], [6, 999])
    assert new.nations["germany"].flags[passive.KNOWN]["Warsaw"]["seen"] == "exact"


# ---- the stated chances --------------------------------------------------------------------

TRIALS = 3000


def test_an_infantry_mission_is_shot_down_1_in_10_and_sees_half_the_time() -> None:
    """3.3: infantry's active chance 50%; "units in targeted province can fire at them - 1 on D10"."""
    s = fx.state([("germany", "infantry", "Posen", 1), ("russia", "infantry", "Warsaw", 1)])
    dice = Dice("recon-mission-rate", 1)
    lost = exact = 0
    for _ in range(TRIALS):
        ctx = TurnContext(s.copy(), {}, fx.world(), scenario(), dice_root=dice)
        ctx.step = Step("3.3.1", "active reconnaissance missions")
        unit = ctx.state.nation_units("germany")[0]
        missions.fly(ctx, missions.Mission("germany", 0, "Posen", "Warsaw", (unit.id,)))
        e = ctx.events[-1].args
        lost += bool(e["lost"])
        exact += e["seen"] == "exact"
    for got, p in ((lost, 0.1), (exact, 0.9 * 0.5)):
        assert abs(got / TRIALS - p) <= 4 * math.sqrt(p * (1 - p) / TRIALS), (got, p)


# ---- the reports' intelligence section ------------------------------------------------------

def test_the_reports_list_what_recon_and_espionage_learned_to_those_who_learned_it() -> None:
    from moderator.reports.build import build_reports
    from moderator.reports.content import TurnInfo

    s = fx.state([("germany", "infantry", "Posen", 2), ("austria", "infantry", "Vienna", 1),
                  ("russia", "infantry", "Warsaw", 3)])
    central, g = ("austria", "germany"), ("germany", MODERATOR)
    events = [
        Event("recon-report", "3.3", central, {"place": "Warsaw", "seen": "band", "units": {}, "band": "black",
                                                "percent": 19}),
        Event("recon-mission", "3.3", g, {"nation": "germany", "order": 0, "origin": "Posen", "place": "Warsaw",
                                          "units": {"infantry": 1}, "lost": {}, "seen": "exact",
                                          "seen_units": {"russia": {"infantry": 3}}, "band": "", "percent": 50}),
        Event("spied-army", "3.2", g, {"nation": "germany", "order": 1, "target": "russia",
                                       "units": {"infantry": 2}}),
    ]
    info = TurnInfo("g1", "War", 1, "August 1914", 2, "October 1914", "soon")
    texts = {r.audience: r.text for r in build_reports(s, events, scenario(), fx.world(), info,
                                                        ["germany", "austria", "russia"], lambda v, t: b"")}
    germany = texts["germany"]
    section = flat(germany.split("== What your reconnaissance and agents learned ==")[1].split("==")[0])
    assert "mission from Posen to Warsaw (1 infantry, 50%): Russia 3 infantry" in section
    assert "Reconnaissance of Warsaw (19%)" in section and "built this turn: 2 infantry" in section
    assert "Reconnaissance" not in germany.split("== News")[1].split("== Your orders")[0]  # not public news
    austria = texts["austria"]
    assert "Reconnaissance of Warsaw" in austria and "mission" not in austria  # the mission is Germany's own
    assert "reconnaissance and agents learned" not in texts["russia"]  # nothing learned: no section
    alliance = texts["alliance:central"]
    assert "== What the members' reconnaissance and agents learned ==" in alliance and "Russia 3 infantry" in alliance


def test_the_units_of_a_mission_at_sea_help_their_sides_task_forces_sight_and_hide() -> None:
    # 3.3: "the side doing reconaissance may help own TF in the same sea zone to engage enemy
    # or avoid detection (check reconaissance table)": the mission's units that came through
    # add their aggressive factors to their side's sighting and their defensive factor to
    # its task forces' cover, in that zone only; a unit shot down helps no one.
    from moderator.engine import phase4_sea

    s = fx.state([("russia", "battleship", "Baltic Sea", 1), ("germany", "cruiser", "Baltic Sea", 2),
                  ("russia", "bomber", "Riga", 1), ("germany", "fighter", "Berlin", 1)])
    ctx = TurnContext(s, {}, fx.world(), fx.scenario())
    ships = {n: [u for u in s.units if u.nation == n and u.location == "Baltic Sea"] for n in ("russia", "germany")}
    russian = phase4_sea.Fleet("russia", "D", ships["russia"], "Baltic Sea", "patrol")
    german = phase4_sea.Fleet("germany", "E", ships["germany"], "Baltic Sea", "escort")
    assert phase4_sea.sides_in(ctx, russian, german, "Baltic Sea") == (["battleship"], ["cruiser", "cruiser"])
    bomber = next(u for u in s.units if u.kind == "bomber")
    fighter = next(u for u in s.units if u.kind == "fighter")
    missions.send(ctx, "russia", 0, "Riga", "Baltic Sea", [bomber])
    missions.send(ctx, "germany", 0, "Berlin", "Posen", [fighter])  # over land: no help at sea
    assert phase4_sea.sides_in(ctx, russian, german, "Baltic Sea") == (["battleship", "bomber"], ["cruiser", "cruiser"])
    assert phase4_sea.sides_in(ctx, german, russian, "Baltic Sea") == (["cruiser", "cruiser"], ["battleship", "bomber"])
    assert math.isclose(phase4_sea.chance(ctx, russian, german, "Baltic Sea"), 1 - 0.9 * 0.8)  # 3-2=1, 4-2=2
    assert math.isclose(phase4_sea.chance(ctx, german, russian, "Baltic Sea"), 1 - 0.7 * 0.7)  # the bomber's cover
    s.units.remove(bomber)  # shot down in 3.3.1
    assert phase4_sea.sides_in(ctx, russian, german, "Baltic Sea") == (["battleship"], ["cruiser", "cruiser"])
