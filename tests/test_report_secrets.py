"""Nobody sees what they may not (Miscellaneous; 3.2 Espionage: "no one will know which
nation attempted the espionage mission"; 3.3 Reconaissance decides what a nation knows of
others). Property: a nation's report, text, HTML and JSON, is the same whatever the other
nations' units, treasuries, manpower, technology and secret events are; an alliance's
report the same whatever its non-members' are. If a unit, an order, a roll or a point
total it may not see leaked into a report, changing it would change the report.
Public facts stay fixed: who holds which territory, the camps, who is at war with whom.

Reconnaissance (3.3) lets a nation's units see into the places next to them: there the
enemy's troops stand the same in both runs (the test fixes every place next to one of the
audience's units, a superset of what its units see), and the report shows only their colour
band; test_only_the_band_of_a_seen_stack_shows says that changing a seen stack within its
band changes nothing, and across bands changes the report. The map's input (the units and
bands a map is given) is compared too."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from moderator.engine.context import MODERATOR
from moderator.engine.event_codes import SCHEMA
from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.reports import mapstory
from moderator.reports.build import build_reports, nation_mail
from moderator.reports.content import TurnInfo
from moderator.reports.visibility import View
from moderator.world.scenario import load_scenario
from tests import engine_fixture as fx

WORLD = fx.world()
SCENARIO = dataclasses.replace(fx.scenario(), recon=load_scenario("1914").recon)  # 3.3: units see
NATIONS = sorted(fx.NATIONS)
PLACES = sorted(WORLD.territories)
KINDS = ["infantry", "artillery", "tank", "fighter", "cruiser", "trench"]
CODES = sorted(SCHEMA.specs)
INFO = TurnInfo("g", "Secret War", 4, "April 1915", 5, "June 1915", "soon", corrections="tomorrow",
                ordered=("germany", "france"), missed={"russia": 1})


@st.composite
def secrets(draw: Any, nations: list[str]) -> dict[str, Any]:
    """Everything about `nations` that only they (and their allies) may know."""
    return {
        "units": draw(st.lists(st.tuples(st.sampled_from(nations), st.sampled_from(KINDS), st.sampled_from(PLACES),
                                         st.integers(0, 2)), max_size=25)),
        "saved": {n: draw(st.integers(0, 999)) for n in nations},
        "built": {n: draw(st.integers(0, 60)) for n in nations},
        "tech": {n: draw(st.dictionaries(st.sampled_from(["tanks", "rockets", "improved_weapons"]),
                                         st.integers(1, 3), max_size=2)) for n in nations},
        "standing": {n: draw(st.integers(-10, 10)) for n in nations},
        "deploy": {n: draw(st.integers(0, 3)) for n in nations},
        # What its Phase 3.3 reconnaissance saw (NationState.flags["recon"]): exact or a band.
        "recon": {n: draw(st.dictionaries(st.sampled_from(PLACES), recon_entry(), max_size=3)) for n in nations},
    }


def recon_entry() -> Any:
    exact = st.fixed_dictionaries({"seen": st.just("exact"), "units": st.dictionaries(
        st.sampled_from(NATIONS), st.dictionaries(st.sampled_from(KINDS), st.integers(1, 30), min_size=1, max_size=2),
        max_size=2)})
    return st.one_of(exact, st.fixed_dictionaries({"seen": st.just("band"),
                                                   "band": st.sampled_from(["black", "yellow", "red"])}))


@st.composite
def event(draw: Any, audiences: list[tuple[str, ...]]) -> Event:
    code = draw(st.sampled_from(CODES))
    args = dict(draw(st.sampled_from(SCHEMA.samples(code))))
    seen = draw(st.sampled_from(audiences))
    for key in ("nation", "giver", "receiver", "attacker"):
        if key in args and seen and seen[0] != MODERATOR:
            args[key] = seen[0]
    if "text" in args:
        args["text"] = f"MOVE {draw(st.integers(1, 99))} inf FROM Posen TO Warsaw"
    for key in ("place", "territory", "origin", "dest", "end"):
        if key in args:
            args[key] = draw(st.sampled_from(PLACES))
    for key in ("amount", "saved", "cost", "count", "full", "sent", "arrived", "gained", "paid"):
        if isinstance(args.get(key), int):  # a number, not a table by nation (transfer-cut's gained)
            args[key] = draw(st.integers(0, 500))
    return Event(code, draw(st.sampled_from(["1.1", "3.1", "4.4", "4.6", "8"])), seen, args)


def position(public_units: list[tuple[str, str, str, int]], secret: dict[str, Any]) -> GameState:
    gs = fx.state()
    gs.turn = 5
    gs.control["Warsaw"], gs.incorporated["Warsaw"] = "germany", 3
    for nation, kind, place, damage in [*public_units, *secret["units"]]:
        fx.add_units(gs, nation, kind, place, 1)[0].damage = damage
    for n, saved in secret["saved"].items():
        ns = gs.nations[n]
        ns.saved, ns.infantry_built, ns.tech = saved, secret["built"][n], secret["tech"][n]
        ns.standing = secret["standing"][n]
        if secret["recon"][n]:
            ns.flags["recon"] = secret["recon"][n]
        if secret["deploy"][n]:
            ns.flags["to_deploy"] = [{"kind": "infantry", "count": secret["deploy"][n], "default": "Berlin"}]
    return gs


def near(units: list[tuple[str, str, str, int]]) -> list[str]:
    """Every place an audience's units could see: where they stand and next to it."""
    places = {u[2] for u in units}
    return sorted(places | {n for p in places for n in WORLD.neighbours(p)})


def with_seen(theirs: dict[str, Any], seen_units: list[tuple[str, str, str, int]], watched: list[str]
              ) -> dict[str, Any]:
    """`theirs` with the units in the watched places replaced by the same `seen_units`."""
    return {**theirs, "units": [u for u in theirs["units"] if u[2] not in watched] + seen_units}


class MapInputs:
    """A map renderer that draws nothing and keeps what it was given: the units, the
    public control, the enemy bands, the turn's story (arrows and markers) and the trenches."""

    def __init__(self) -> None:
        self.given: list[tuple[str, Any, Any, Any]] = []

    def __call__(self, view: View, title: str) -> bytes:
        self.given.append((title, view.map_units, view.control, [(s.place, s.band, s.units) for s in view.sightings],
                           mapstory.marks(view.events), view.trenches))
        return b""


def audiences_outside(insiders: set[str]) -> list[tuple[str, ...]]:
    outsiders = [n for n in NATIONS if n not in insiders]
    return [(MODERATOR,), *[(n,) for n in outsiders], *[(n, MODERATOR) for n in outsiders],
            tuple(outsiders[:2])]


def mixed(visible: list[Event], hidden: list[Event], cuts: list[int]) -> list[Event]:
    """The visible events in their order, with hidden ones slipped in between."""
    out = list(visible)
    for e, cut in zip(hidden, cuts, strict=False):
        out.insert(cut % (len(out) + 1), e)
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from(NATIONS))
def test_a_nation_report_does_not_change_with_what_it_may_not_see(data: Any, nation: str) -> None:
    others = [n for n in NATIONS if n != nation]
    own = data.draw(st.lists(st.tuples(st.just(nation), st.sampled_from(KINDS), st.sampled_from(PLACES),
                                       st.integers(0, 1)), max_size=12))
    mine = data.draw(secrets([nation]))
    insiders = [(nation,), (nation, MODERATOR), (), (nation, others[0])]
    visible = data.draw(st.lists(event(insiders), max_size=8))
    watched = near(own + mine["units"])
    seen = data.draw(st.lists(st.tuples(st.sampled_from(others), st.sampled_from(KINDS), st.sampled_from(watched),
                                        st.integers(0, 2)), max_size=12)) if watched else []
    reports, maps = [], []
    for _ in range(2):
        theirs = with_seen(data.draw(secrets(others)), seen, watched)
        secret = {k: ({**mine[k], **theirs[k]} if isinstance(mine[k], dict) else mine[k] + theirs[k]) for k in mine}
        hidden = data.draw(st.lists(event(audiences_outside({nation})), max_size=8))
        cuts = data.draw(st.lists(st.integers(0, 50), min_size=len(hidden), max_size=len(hidden)))
        gs = position(own, secret)
        drawn = MapInputs()
        reports.append(nation_mail(gs, mixed(visible, hidden, cuts), SCENARIO, WORLD, INFO, nation, drawn))
        maps.append(drawn.given)
    first, second = reports
    assert maps[0] == maps[1]
    assert first.text == second.text
    assert first.html == second.html
    assert first.json_bytes() == second.json_bytes()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data(), st.sampled_from(["central", "allied"]))
def test_an_alliance_report_does_not_change_with_what_no_member_may_see(data: Any, side: str) -> None:
    members = [n for n in NATIONS if fx.NATIONS[n][0] == side]
    others = [n for n in NATIONS if n not in members]
    own = data.draw(st.lists(st.tuples(st.sampled_from(members), st.sampled_from(KINDS), st.sampled_from(PLACES),
                                       st.integers(0, 1)), max_size=12))
    mine = data.draw(secrets(members))
    visible = data.draw(st.lists(event([(m,) for m in members] + [()]), max_size=8))
    watched = near(own + mine["units"])
    seen = data.draw(st.lists(st.tuples(st.sampled_from(others), st.sampled_from(KINDS), st.sampled_from(watched),
                                        st.integers(0, 2)), max_size=12)) if watched else []
    texts = []
    for _ in range(2):
        theirs = with_seen(data.draw(secrets(others)), seen, watched)
        secret = {k: ({**mine[k], **theirs[k]} if isinstance(mine[k], dict) else mine[k] + theirs[k]) for k in mine}
        hidden = data.draw(st.lists(event(audiences_outside(set(members))), max_size=8))
        cuts = data.draw(st.lists(st.integers(0, 50), min_size=len(hidden), max_size=len(hidden)))
        drawn = MapInputs()
        reports = build_reports(position(own, secret), mixed(visible, hidden, cuts), SCENARIO, WORLD, INFO,
                                members, drawn, bulletin_too=False)
        report = next(r for r in reports if r.audience == f"alliance:{side}")
        texts.append((report.text, report.html, report.json_bytes(), drawn.given[-1]))
    assert texts[0] == texts[1]


def test_the_comparison_catches_a_leaky_view(monkeypatch: Any) -> None:
    """The property is not vacuous: with a view that lets every event through, a hidden
    event changes the report and the same comparison fails."""
    from moderator.reports import build, visibility

    def leaky(state: GameState, scenario: Any, events: list[Event], nation: str, world: Any = None
              ) -> visibility.View:
        view = visibility.nation_view(state, scenario, [], nation, world)
        view.events = list(events)
        return view

    hidden = Event("moved", "4.4", ("russia",), {"nation": "russia", "order": 0, "origin": "Minsk",
                                                "dest": "Warsaw", "units": {"infantry": 3}})
    gs = position([], {"units": [], "saved": {}, "built": {}, "tech": {}, "standing": {}, "deploy": {}})
    assert nation_mail(gs, [hidden], SCENARIO, WORLD, INFO, "germany").text == \
        nation_mail(gs, [], SCENARIO, WORLD, INFO, "germany").text
    monkeypatch.setattr(build, "nation_view", leaky)
    assert nation_mail(gs, [hidden], SCENARIO, WORLD, INFO, "germany").text != \
        nation_mail(gs, [], SCENARIO, WORLD, INFO, "germany").text


def test_only_the_band_of_a_seen_stack_shows() -> None:
    """Germany's infantry in Posen sees Warsaw (3.3): 1 or 5 Russian units there read the
    same ("0-5", black), 6 reads "6-20" (yellow); Moscow, two borders away, is never seen;
    artillery alone sees nothing ("artillery units ... cannot see at all")."""
    def report(russians: int, in_moscow: int = 0, watcher: str = "infantry") -> str:
        empty = {"units": [], "saved": {}, "built": {}, "tech": {}, "standing": {}, "deploy": {}, "recon": {}}
        gs = position([("germany", watcher, "Posen", 0)], empty)
        fx.add_units(gs, "russia", "infantry", "Warsaw", russians)
        fx.add_units(gs, "russia", "infantry", "Moscow", in_moscow)
        return nation_mail(gs, [], SCENARIO, WORLD, INFO, "germany").text

    assert report(1) == report(5) == report(5, in_moscow=30)
    # Warsaw is German in this position, Russians in it are seen all the same.
    assert "Warsaw (Germany): 0-5 enemy units (black), seen from Posen" in report(1)
    assert "6-20 enemy units (yellow), seen from Posen" in report(6) != report(5)
    assert "21+ enemy units (red)" in report(21)
    assert "seen from Posen" not in report(30, watcher="artillery")


def test_exact_numbers_come_from_the_audience_own_roll_only() -> None:
    """Phase 3.3's record (NationState.flags["recon"]) gives exact troops where the roll hit
    (in the places the audience's units look into); another nation's record is its own:
    only the audience's shows."""
    hit = {"Warsaw": {"seen": "exact", "units": {"russia": {"infantry": 7, "artillery": 2}}},
           "Minsk": {"seen": "band", "band": "red"}}

    def report(germany: dict[str, Any], russia: dict[str, Any]) -> str:
        empty = {"units": [], "saved": {}, "built": {}, "tech": {}, "standing": {}, "deploy": {}, "recon": {}}
        gs = position([("germany", "infantry", "Posen", 0)], empty)
        for nation, record in (("germany", germany), ("russia", russia)):
            if record:
                gs.nations[nation].flags["recon"] = record
        fx.add_units(gs, "russia", "infantry", "Warsaw", 3)
        return nation_mail(gs, [], SCENARIO, WORLD, INFO, "germany").text

    mine = report(hit, {})
    assert "Warsaw (Germany): exactly 2 artillery, 7 infantry, seen from Posen" in mine
    assert "Minsk" not in mine  # recorded, but no German unit looks into it
    assert "0-5 enemy units" not in mine  # the record, not the position, tells what is known
    assert report({}, hit) == report({}, {}) != mine  # Russia's own record never reaches Germany
