"""3.3 passive reconnaissance rolled in the turn: the allies' units next to an enemy place
see it exactly on a hit and as a colour band on a miss; trenches cover every border; the
3.2.2.4 countermeasure shows a false colour; the record each nation keeps for this turn."""

from __future__ import annotations

from dataclasses import replace

from moderator.engine import phase3_passive_recon as recon
from moderator.engine.dice import ScriptedDice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.world.scenario import load_scenario
from moderator.world.scenario_model import Scenario
from tests import engine_fixture as fx

REAL = load_scenario("1914")


def scenario() -> Scenario:
    return replace(fx.scenario(), recon=REAL.recon)


def example() -> GameState:
    # The rules' example: "4 inf units in province A and 2 inf units and 1 art unit in
    # province B, both adjacent to province C ... =47%". A = Posen, B = Silesia, C = Warsaw.
    return fx.state([("germany", "infantry", "Posen", 4), ("germany", "infantry", "Silesia", 2),
                     ("germany", "artillery", "Silesia", 1), ("russia", "infantry", "Warsaw", 3)])


def run(s: GameState, rolls: list[int], orders: dict[str, list[m.Order]] | None = None,
        more: dict[str, list[int]] | None = None) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice({"3.3": rolls, **(more or {})}, s.turn)
    new, events = resolve(s, orders or {}, fx.world(), scenario(), dice)
    assert dice.unused() == {}
    return new, events


def report(events: list[Event], place: str, group: tuple[str, ...]) -> dict[str, object]:
    return next(e.args for e in events if e.code == "recon-report" and e.args["place"] == place
                and e.seen_by == group)


CENTRAL, ALLIED = ("austria", "germany"), ("france", "russia")


def test_the_47_percent_example_hits_on_468_of_1000_and_shows_the_exact_units() -> None:
    # Rolls: the Central Powers' look at Warsaw, then the Allies' at Posen and Silesia.
    new, events = run(example(), [468, 1000, 1000])
    seen = report(events, "Warsaw", CENTRAL)
    assert seen["percent"] == 47 and seen["seen"] == "exact" and seen["units"] == {"russia": {"infantry": 3}}
    assert new.nations["germany"].flags[recon.KNOWN]["Warsaw"] == {"seen": "exact", "units": {"russia": {"infantry": 3}}}
    assert new.nations["austria"].flags[recon.KNOWN] == new.nations["germany"].flags[recon.KNOWN]  # allies share
    assert report(events, "Silesia", ALLIED) == {"place": "Silesia", "seen": "band", "units": {}, "band": "black",
                                                  "percent": 27}  # 3 infantry: 1 - 0.9^3
    assert "Warsaw" not in new.nations["russia"].flags[recon.KNOWN]  # its own land


def test_a_miss_shows_the_colour_band() -> None:
    s = example()
    fx.add_units(s, "russia", "infantry", "Warsaw", 4)  # 7 units: yellow
    _, events = run(s, [469, 1000, 1000])
    seen = report(events, "Warsaw", CENTRAL)
    assert (seen["seen"], seen["band"]) == ("band", "yellow")
    assert [recon.band(n) for n in (0, 5, 6, 20, 21)] == ["black", "black", "yellow", "yellow", "red"]


def test_a_trench_halves_every_border() -> None:
    s = example()
    fx.add_units(s, "russia", "trench", "Warsaw", 1)
    _, events = run(s, [251, 1000, 1000])
    seen = report(events, "Warsaw", CENTRAL)
    assert seen["percent"] == 25 and seen["seen"] == "band"  # 1-(1-34.39%/2)(1-19%/2) = 25.06%


def test_a_trench_covers_only_the_border_it_faces() -> None:
    # 3.3: "If A and B of nation 1 are bordering province C of nation 2, and C has trench
    # against A and not against B, then trenches will reduce effectiveness only for units
    # in A": Warsaw's trench faces Posen (A, 4 infantry), not Silesia (B, 2 infantry).
    s = example()
    (trench,) = fx.add_units(s, "russia", "trench", "Warsaw", 1)
    s.nations["russia"].flags["trench_facing"] = {trench.id: "Posen"}
    _, events = run(s, [329, 1000, 1000])
    seen = report(events, "Warsaw", CENTRAL)
    assert seen["percent"] == 33 and seen["seen"] == "exact"  # 1-(1-34.39%/2)(1-19%) = 32.93%: hits on 329
    s.nations["russia"].flags["trench_facing"] = {trench.id: "Silesia"}
    _, events = run(s, [1, 1000, 1000])
    assert report(events, "Warsaw", CENTRAL)["percent"] == 41  # facing B instead: 1-(1-34.39%)(1-19%/2) = 40.6%


def test_the_countermeasure_shows_a_false_colour_even_on_a_hit() -> None:
    mask = {"russia": [m.CounterEspionage("recon", place="Warsaw")]}  # 3.2.2.4, succeeds on 1-5
    _, events = run(example(), [1, 1000, 1000], mask, {"3.2": [4]})
    seen = report(events, "Warsaw", CENTRAL)
    assert (seen["seen"], seen["band"]) == ("band", "yellow")  # three units are black: a false colour


def test_only_enemies_are_reconnoitred_and_last_turns_record_is_gone() -> None:
    s = example()
    s.nations["germany"].flags[recon.KNOWN] = {"Paris": {"seen": "band", "band": "red"}}
    new, events = run(s, [1000, 1000, 1000])
    assert sorted(new.nations["germany"].flags[recon.KNOWN]) == ["Warsaw"]
    assert all(e.args["place"] != "Brussels" for e in events if e.code == "recon-report")  # Belgium is neutral


def test_no_table_no_reconnaissance() -> None:
    _, events = resolve(example(), {}, fx.world(), fx.scenario(), ScriptedDice({}, 1))
    assert not [e for e in events if e.code == "recon-report"]
