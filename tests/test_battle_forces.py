"""Each nation that fought a land battle is told its forces as it saw them (engine/battle_forces.py):
its own side exactly, the enemy as its reconnaissance recorded the place (3.3: "all data collected
would be given to appropriate units in combat phase"), else the colour band (3.2.2.4); and its
report lists that line under the battle."""

from __future__ import annotations

from moderator.engine.dice import ScriptedDice
from moderator.engine.events import Event
from moderator.engine.phase3_passive_recon import KNOWN
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.model import Move, UnitCount
from moderator.reports.build import nation_mail
from moderator.reports.content import TurnInfo
from tests import engine_fixture as fx
from tests.report_text import says

INFO = TurnInfo("g", "Forces War", 4, "April 1915", 5, "June 1915", "soon")


def minsk() -> GameState:
    """Germany attacks Minsk from Warsaw with 3 infantry; Russia and France hold it with one each."""
    s = fx.state([("germany", "infantry", "Warsaw", 3), ("russia", "infantry", "Minsk", 1),
                  ("france", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    return s


def fight(s: GameState) -> tuple[GameState, list[Event]]:
    rolls = [10, 10, 10, 1, 10,  # round 1: one defensive hit takes the fictive unit
             1, 1, 10, 10, 10]   # round 2: two hits, one each; Minsk falls
    dice = ScriptedDice(rolls)
    order = Move((UnitCount("infantry", 3),), "Warsaw", "Minsk")
    return resolve(s, {"germany": [order]}, fx.world(), fx.scenario(), dice)


def forces(events: list[Event]) -> dict[str, dict[str, object]]:
    return {e.args["nation"]: e.args for e in events if e.code == "battle-forces"}


def test_each_participant_sees_its_side_exactly_and_the_enemy_as_a_band() -> None:
    _, events = fight(minsk())
    told = forces(events)
    assert sorted(told) == ["france", "germany", "russia"]
    assert all(e.seen_by == (e.args["nation"],) for e in events if e.code == "battle-forces")
    g = told["germany"]
    assert g["role"] == "attacker" and g["own"] == {"germany": {"infantry": 3}}
    assert (g["seen"], g["enemy"], g["band"]) == ("band", {}, "black")  # two defenders: 0-5
    r = told["russia"]  # its ally fought beside it: both exact, the fictive unit is no unit
    assert r["role"] == "defender" and r["own"] == {"france": {"infantry": 1}, "russia": {"infantry": 1}}
    assert (r["seen"], r["band"]) == ("band", "black")
    # Emitted right after the battle, so the reports list the forces under it.
    codes = [e.code for e in events]
    assert codes[codes.index("battle") + 1] == "battle-forces"


def test_the_attackers_reconnaissance_record_shows_the_enemy_exactly_or_its_colour() -> None:
    s = minsk()
    s.nations["germany"].flags[KNOWN] = {"Minsk": {"seen": "exact", "units": {"russia": {"infantry": 1}}}}
    g = forces(fight(s)[1])["germany"]
    assert (g["seen"], g["enemy"], g["band"]) == ("exact", {"russia": {"infantry": 1}}, "")  # what it saw, no more
    s = minsk()
    s.nations["germany"].flags[KNOWN] = {"Minsk": {"seen": "band", "band": "yellow"}}  # a countermeasure's false colour
    g = forces(fight(s)[1])["germany"]
    assert (g["seen"], g["enemy"], g["band"]) == ("band", {}, "yellow")


def test_many_enemies_show_a_higher_band_and_losses_count_as_engaged() -> None:
    s = fx.state([("germany", "infantry", "Warsaw", 7), ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    dice = ScriptedDice([1] * 7 + [1])  # every attacker hits; the defender hits once
    _, events = resolve(s, {"germany": [Move((UnitCount("infantry", 7),), "Warsaw", "Minsk")]}, fx.world(),
                        fx.scenario(), dice)
    told = forces(events)
    assert told["germany"]["own"] == {"germany": {"infantry": 7}}  # the fallen one included
    assert told["russia"]["band"] == "yellow"  # seven attackers: 6-20


def test_the_report_lists_the_forces_under_the_battle() -> None:
    new, events = fight(minsk())
    text = nation_mail(new, events, fx.scenario(), fx.world(), INFO, "russia").text
    battle = text.index("- Battle at Minsk")
    assert text.index("\n  - Forces at Minsk as Russia saw them: France 1 infantry;") > battle  # under it
    assert says(text, "Forces at Minsk as Russia saw them: France 1 infantry; Russia 1 infantry; against them 0-5 "
                      "enemy units (black).")
    assert "as Germany saw them" not in text  # Germany's view is Germany's


def test_a_defender_with_only_the_places_own_defences_is_told_so() -> None:
    # The demo's Estonia: a landing met only the coastal defence unit (4.6), no Russian unit.
    from moderator.reports.render import event_text

    e = Event("battle-forces", "4.6", ("russia",), {"nation": "russia", "territory": "Estonia", "role": "defender",
                                                     "own": {"russia": {}}, "seen": "band", "enemy": {}, "band": "black"})
    assert event_text(e, str.title) == ("Forces at Estonia as Russia saw them: Russia no units (only the place's own "
                                        "defences fought); against them 0-5 enemy units (black).")
