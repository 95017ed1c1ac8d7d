"""The moderator's rulings: typed orders, checked on the position and carried out in
step "R" before Phase 1, or at once; replayable like any order (issue 7, point 7)."""

from __future__ import annotations

import pytest

from moderator.engine.context import MODERATOR
from moderator.engine.dice import Dice
from moderator.engine.resolve import apply_rulings, resolve
from moderator.orders import model as m
from moderator.orders.checker import check_rulings
from moderator.orders.rulings import normalize_rulings, parse_rulings
from tests import engine_fixture as fx

EVERY_KIND = """SET SAVED OF France TO 40
ADJUST SAVED OF Germany BY -10
SET MANPOWER OF Germany TO 120
SET BUILT OF Germany TO 7
SET POINTS OF Belgium TO 5
SET TECH Improved Weapons OF Germany TO 1
SET FLAG gear_up OF Belgium TO true
SET SIDE OF Belgium TO Allies
ADD 2 inf, 1 art OF Germany AT Posen
REMOVE 1 inf OF Russia AT Warsaw
MOVE 1 inf OF Russia FROM Warsaw TO Minsk
REMOVE ALL inf OF Russia AT Minsk
CONTROL Warsaw TO Germany INCORPORATED
CONTROL Minsk TO Germany INCORPORATED IN TURN 0
UNINCORPORATE Kiev
WAR Germany AND Belgium
ROLL "US entry" 7
"""


def test_every_ruling_reads_back_from_its_own_echo() -> None:
    parsed = parse_rulings(EVERY_KIND)
    assert not parsed.diagnostics and len(parsed.orders) == 17
    assert parse_rulings(normalize_rulings(parsed.orders)).orders == parsed.orders


def test_rulings_change_the_position_at_once_and_say_so() -> None:
    s = fx.state([("russia", "infantry", "Warsaw", 3)])
    checked = check_rulings(EVERY_KIND, s, fx.world(), fx.scenario())
    assert [d.render() for d in checked.diagnostics] == []
    new, events = apply_rulings(s, checked.orders, fx.world(), fx.scenario(), Dice("now", 1))
    g, f, b = new.nations["germany"], new.nations["france"], new.nations["belgium"]
    assert (f.saved, g.saved, g.manpower_limit, g.infantry_built) == (40, 90, 120, 7)
    assert g.tech["improved_weapons"] == 1 and b.standing == 5 and b.side == "allied" and b.flags["gear_up"] is True
    assert fx.count(new, "germany", "infantry", "Posen") == 2 and fx.count(new, "germany", "artillery", "Posen") == 1
    assert fx.count(new, "russia", "infantry", "Warsaw") == 1 and fx.count(new, "russia", "infantry", "Minsk") == 0
    assert new.incorporated["Minsk"] == 0 and new.control["Minsk"] == "germany"
    assert new.control["Warsaw"] == "germany" and new.incorporated["Warsaw"] == 1 and "Kiev" not in new.incorporated
    assert new.at_war("germany", "belgium") and new.turn == s.turn
    rulings = [e for e in events if e.code == "ruling"]
    assert len(rulings) == 17
    treasury = rulings[0]
    assert treasury.seen_by == (MODERATOR, "france") and treasury.args["details"] == {
        "field": "saved", "before": 100, "after": 40}
    points = rulings[4]  # a neutral's points are secret: the moderator and the neutral only
    assert points.seen_by == (MODERATOR, "belgium")


def test_impossible_rulings_are_refused_with_the_reason() -> None:
    s = fx.state([("russia", "infantry", "Warsaw", 1)])
    checked = check_rulings("REMOVE 2 inf OF Russia AT Warsaw\nSET POINTS OF Belgium TO 12\n"
                            "ADD 1 bb OF Germany AT Berlin\nSET TECH Tanks OF Germany TO 9\nSET SAVED OF Atlantis TO 3\n",
                            s, fx.world(), fx.scenario())
    assert [d.code for d in checked.diagnostics] == [
        "ruling-units", "ruling-points", "ruling-place", "ruling-tech-level", "unknown-nation"]
    assert checked.orders == []
    assert "only 1 inf in Warsaw to remove, not 2" in checked.diagnostics[0].message


def test_rulings_for_the_next_resolution_run_before_phase_1() -> None:
    # The moderator gives Germany 30: its BUILD in Phase 3.1 can use it the same turn.
    s = fx.state(saved=0)
    rulings = parse_rulings("SET SAVED OF Germany TO 30\nROLL \"Italy's points\" 4\n").orders
    new, events = resolve(s, {MODERATOR: rulings, "germany": [m.Build("infantry", 2, "Berlin")]},
                          fx.world(), fx.scenario(), dice := Dice("r", 1))
    built = [e for e in events if e.code == "built"]
    assert built and built[0].args["cost"] == 8
    assert [(r.step, r.purpose, r.result) for r in dice.log] == [("R", "moderator: Italy's points", 4)]
    assert [e.phase for e in events if e.code == "ruling"] == ["R", "R"]


@pytest.mark.parametrize("bad", ["SET SAVED France 40", "GIVE 3 inf TO Germany"])
def test_unreadable_rulings_say_how_they_read(bad: str) -> None:
    d = parse_rulings(bad).diagnostics
    assert [x.code for x in d] == ["syntax"] and "SET SAVED OF France TO 40" in d[0].message


def test_a_name_holding_a_ruling_word_reads_only_quoted() -> None:
    # "to" ends the place of CONTROL wherever it stands: such a name needs its quotes
    plain = parse_rulings("CONTROL Sea to Sky TO France").diagnostics
    assert [x.code for x in plain] == ["syntax"] and 'goes in "quotes"' in plain[0].message
    quoted = parse_rulings('CONTROL "Sea to Sky" TO France')
    assert not quoted.diagnostics and quoted.orders[0].place == "Sea to Sky"


def test_remove_all_clears_a_place_without_counting_first() -> None:
    # What a moderator setting up or repairing a position wants: "the Russian army in
    # Warsaw is gone", however many units that is (structures included).
    s = fx.state([("russia", "infantry", "Warsaw", 3), ("russia", "artillery", "Warsaw", 2),
                  ("germany", "infantry", "Warsaw", 1)])
    text = "REMOVE ALL art OF Russia AT Warsaw\nDISBAND ALL OF Russia AT Warsaw\n"
    checked = check_rulings(text, s, fx.world(), fx.scenario())
    assert [d.render() for d in checked.diagnostics] == []
    assert normalize_rulings(checked.orders) == (
        "REMOVE ALL art OF russia AT Warsaw\nREMOVE ALL OF russia AT Warsaw\n")
    new, events = apply_rulings(s, checked.orders, fx.world(), fx.scenario(), Dice("now", 1))
    assert fx.count(new, "russia", "infantry", "Warsaw") == 0 and fx.count(new, "russia", "artillery", "Warsaw") == 0
    assert fx.count(new, "germany", "infantry", "Warsaw") == 1  # only the nation named
    removed = [e.args["details"]["units"] for e in events if e.code == "ruling"]
    assert [len(r) for r in removed] == [2, 3]


def test_remove_all_where_there_is_nothing_is_kept_with_a_warning() -> None:
    s = fx.state([("russia", "infantry", "Warsaw", 1)])
    checked = check_rulings("REMOVE ALL tank OF Russia AT Warsaw\nREMOVE ALL foo OF Russia AT Warsaw\n",
                            s, fx.world(), fx.scenario())
    assert [(d.severity, d.code, d.line) for d in checked.diagnostics] == [
        ("warning", "ruling-nothing-there", 1), ("error", "unknown-unit", 2)]
    assert "Russia has no tank units in Warsaw" in checked.diagnostics[0].message
    assert len(checked.orders) == 1


def test_incorporation_can_be_dated_for_the_phase_6_delay() -> None:
    # Phase 6: the income delay counts turns from the incorporation, so a moderator
    # restoring a position says since when ("IN TURN n"); never a turn still to come.
    s = fx.state()
    s.turn = 5
    checked = check_rulings("CONTROL Warsaw TO Germany INCORPORATED IN TURN 2\n"
                            "CONTROL Minsk TO Germany INCORPORATED\n"
                            "CONTROL Kiev TO Germany INCORPORATED IN TURN 6\n", s, fx.world(), fx.scenario())
    assert [(d.code, d.line) for d in checked.diagnostics] == [("ruling-turn", 3)]
    assert "between 0 (since the start of the game) and this turn, 5; not 6" in checked.diagnostics[0].message
    assert parse_rulings(normalize_rulings(checked.orders)).orders == checked.orders
    new, _ = apply_rulings(s, checked.orders, fx.world(), fx.scenario(), Dice("now", 5))
    assert (new.incorporated["Warsaw"], new.incorporated["Minsk"]) == (2, 5)
    assert new.control["Warsaw"] == new.control["Minsk"] == "germany"


def test_an_income_ruling_stands_until_lifted() -> None:
    # Phase 8 through engine/neutral_income.py: the moderator's rule wins over the state's.
    s = fx.state([("germany", "infantry", "Berlin", 1)])
    checked = check_rulings("SET INCOME OF Germany TO half\n", s, fx.world(), fx.scenario())
    assert not checked.diagnostics
    new, events = apply_rulings(s, checked.orders, fx.world(), fx.scenario(), Dice("now", 1))
    assert new.nations["germany"].flags["income_ruling"] == "half"
    assert [e.args["details"] for e in events if e.code == "ruling"] == [{"before": "rules", "after": "half"}]
    lifted = check_rulings("SET INCOME OF Germany TO rules\n", new, fx.world(), fx.scenario())
    again, _ = apply_rulings(new, lifted.orders, fx.world(), fx.scenario(), Dice("now", 1))
    assert "income_ruling" not in again.nations["germany"].flags
    assert parse_rulings("SET INCOME OF Germany TO most\n").diagnostics  # only the rules' words


# Every ruling form that names a place or a nation, with names of the 1914 map and
# scenario that hold a keyword of the rulings ("of", "and"): written plainly they read
# as they do in players' orders, and as they read when quoted.
PLAIN_NAMES = [
    "SET SAVED OF Kingdom of Italy TO 40",
    "ADJUST SAVED OF Kingdom of Italy BY -10",
    "SET SAVED OF Germany AT Sea of Japan TO 5",
    "ADJUST SAVED OF Kingdom of Italy AT Gulf of Finland BY +3",
    "SET TECH Improved Weapons OF Kingdom of Italy TO 1",
    "SET FLAG gear_up OF Kingdom of Italy TO true",
    "SET SIDE OF Kingdom of Italy TO Allies",
    "SET INCOME OF Kingdom of Italy TO half",
    "ADD 1 cruiser OF Germany AT Sea of Japan",
    "PLACE 2 inf and 1 art OF Kingdom of Italy AT Jammu and Kashmir",
    "REMOVE 1 ss OF Germany AT Bay of Biscay",
    "REMOVE ALL OF Spain AT Bay of Biscay",
    "REMOVE ALL inf OF Kingdom of Italy AT Upper Senegal and Niger",
    "MOVE 1 bb OF Britain FROM Bay of Biscay TO Gulf of Lyon",
    "DAMAGE 1 bb OF Britain AT Sea of Okhotsk",
    "REPAIR 1 bb OF Britain AT Strait of Malacca",
    "CONTROL Isthmus of Tehuantepec TO Kingdom of Italy",
    "CONTROL Jammu and Kashmir TO Germany INCORPORATED IN TURN 2",
    "UNINCORPORATE Cape of Good Hope",
    "WAR Kingdom of Italy AND Republic of China",
    "PEACE Republic of China AND Kingdom of Italy",
]


@pytest.mark.parametrize("line", PLAIN_NAMES)
def test_names_holding_of_or_and_read_unquoted_as_quoted(line: str) -> None:
    plain = parse_rulings(line)
    assert not plain.diagnostics and len(plain.orders) == 1
    # the echo quotes every name; it reads back to the same ruling
    echo = normalize_rulings(plain.orders)
    assert '"' in echo and parse_rulings(echo).orders == plain.orders
    names = {str(value) for value in plain.orders[0].__dict__.values()}
    assert names & {"Kingdom of Italy", "Sea of Japan", "Gulf of Finland", "Bay of Biscay", "Gulf of Lyon",
                    "Jammu and Kashmir", "Upper Senegal and Niger", "Sea of Okhotsk", "Strait of Malacca",
                    "Isthmus of Tehuantepec", "Cape of Good Hope", "Republic of China"}


def test_a_trench_is_added_with_the_border_it_faces() -> None:
    # Trenches: a trench guards one territory against one land neighbour; a ruling adds it
    # so (a super trench, say, where the position needs one), once on each border.
    from moderator.engine.orders.trenches import FACING

    s = fx.state([("germany", "infantry", "Posen", 1)])
    text = ("ADD 1 supertrench OF Germany AT Posen FACING Warsaw\n"
            "ADD 1 trench OF Germany AT Posen FACING Konigsberg\n"
            "ADD 1 trench OF Germany AT Posen FACING Paris\n"  # not a neighbour
            "ADD 2 trench OF Germany AT Posen FACING Berlin\n"  # one on a border
            "ADD 1 trench OF Germany AT Posen\n"  # which border?
            "ADD 1 inf OF Germany AT Posen FACING Warsaw\n")  # only trenches face
    checked = check_rulings(text, s, fx.world(), fx.scenario())
    assert [(d.code, d.line) for d in checked.diagnostics] == [
        ("trench-facing", 3), ("trench-exists", 4), ("syntax", 5), ("syntax", 6)]
    assert "FACING <the neighbour it faces>" in checked.diagnostics[2].message
    assert normalize_rulings(checked.orders) == ("ADD 1 supertrench OF germany AT Posen FACING Warsaw\n"
                                                 "ADD 1 trench OF germany AT Posen FACING Konigsberg\n")
    new, _ = apply_rulings(s, checked.orders, fx.world(), fx.scenario(), Dice("now", 1))
    faced = new.nations["germany"].flags[FACING]
    dug = sorted((u.kind, faced[u.id]) for u in new.units if u.kind in ("trench", "super_trench"))
    assert dug == [("super_trench", "Warsaw"), ("trench", "Konigsberg")]
    again = check_rulings("ADD 1 trench OF Germany AT Posen FACING Warsaw\n", new, fx.world(), fx.scenario())
    assert [d.code for d in again.diagnostics] == ["trench-exists"]
