"""Separated territories keep their own treasuries (Phase 3.1), collect their own income and
send it home by TRANSFER along the shortest sea path, lost to a blockade (half to the
blockader) or sunk by submarines (Phase 8, 4.7)."""

from __future__ import annotations

import functools

from moderator.engine import sea_lanes, treasuries
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import Control, GameState, same_control
from moderator.orders import model as m
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario
from tests import engine_fixture as fx
from tests.report_text import flat


def riga_cut_off(saved: int = 0) -> GameState:
    """Germany holds Riga, on the Baltic, with Konigsberg between it and Berlin in Russia's hands."""
    s = fx.state(saved=saved)
    s.control["Riga"], s.control["Konigsberg"] = "germany", "russia"
    return s


def events_of(events: list[Event], code: str, nation: str = "germany") -> list[dict[str, object]]:
    return [e.args for e in events if e.code == code and e.args.get("nation") == nation]


def test_the_groups_and_the_mainland() -> None:
    s = riga_cut_off()
    ctx = TurnContext(s, {}, fx.world(), fx.scenario())
    assert treasuries.separated(ctx, "germany") == [("Riga", ("Riga",))]
    assert treasuries.treasury_of(ctx, "germany", "Posen") is None  # the mainland's
    assert treasuries.treasury_of(ctx, "germany", "Riga") == "Riga"
    s.control["Konigsberg"] = "austria"  # joined through an ally's land: one treasury
    assert treasuries.separated(ctx, "germany") == []


def test_the_groups_remembered_follow_control_and_alliances() -> None:
    """groups() keeps its answers in the position's memo (the search was a fifth of a turn):
    a change of who holds what or of a nation's side is seen at once, as a new search."""
    s = riga_cut_off()
    ctx = TurnContext(s, {}, fx.world(), fx.scenario())
    s.control["Konigsberg"] = "austria"
    assert treasuries.groups(ctx, "germany") == treasuries.groups(TurnContext(s, {}, fx.world(), fx.scenario()), "germany")
    assert treasuries.separated(ctx, "germany") == []
    s.nations["austria"].side = "neutral"  # no longer an ally: Konigsberg cuts Riga off again
    assert treasuries.separated(ctx, "germany") == [("Riga", ("Riga",))]
    s.nations["austria"].side = s.nations["germany"].side
    assert treasuries.separated(ctx, "germany") == []
    s.control["Konigsberg"] = "russia"
    assert treasuries.separated(ctx, "germany") == [("Riga", ("Riga",))]


def test_the_control_map_marks_every_change() -> None:
    """GameState.control is a Control: every way of changing it takes a fresh mark, which
    is how a remembered answer knows at once that the map is the same (issue 14)."""
    s = riga_cut_off()
    assert isinstance(s.control, Control)
    marks = {s.control.mark}
    changes = [lambda c: c.__setitem__("Riga", "russia"), lambda c: c.pop("Riga"), lambda c: c.setdefault("Riga", "x"),
               lambda c: c.update({"Riga": "germany"}), lambda c: c.__delitem__("Riga"), lambda c: c.__ior__({"Riga": "y"}),
               lambda c: c.popitem(), lambda c: c.clear()]
    for change in changes:
        change(s.control)
        assert s.control.mark not in marks
        marks.add(s.control.mark)
    for other in (s.copy(), GameState.from_json(s.to_json()), GameState("g", "1914", 1, control={"Riga": "russia"})):
        assert isinstance(other.control, Control) and other.control.mark not in marks


def test_an_answer_is_kept_only_for_the_map_it_was_made_on() -> None:
    """same_control: the same Control unchanged holds at once; changed since (even back to
    what it was), it no longer tells what the map was; a copy is compared entry by entry."""
    control = Control({"Riga": "germany"})
    mark = control.mark
    assert same_control(control, control, mark)
    assert same_control(Control({"Riga": "germany"}), control, mark)  # another map, equal to it
    control["Riga"] = "germany"  # the same entry again: still a change
    assert not same_control(control, control, mark)
    assert same_control(control, {"Riga": "germany"}, -1)
    assert not same_control(control, {"Riga": "russia"}, -1)


def test_the_groups_follow_a_plain_dict_put_in_place_of_the_control_map() -> None:
    """A control map replaced by a plain dict (no marks) is compared entry by entry."""
    s = riga_cut_off()
    ctx = TurnContext(s, {}, fx.world(), fx.scenario())
    assert treasuries.separated(ctx, "germany") == [("Riga", ("Riga",))]
    s.control = dict(s.control)
    s.control["Konigsberg"] = "germany"
    assert treasuries.separated(ctx, "germany") == []
    s.control["Konigsberg"] = "russia"
    assert treasuries.separated(ctx, "germany") == [("Riga", ("Riga",))]


def test_the_separated_groups_remembered_follow_the_money_held_apart() -> None:
    """separated() is remembered too, with the keys of the money held apart (key_of reads
    them): money kept at another territory of the group changes the key at once."""
    s = riga_cut_off()
    s.control["Vilna"] = "germany"
    ctx = TurnContext(s, {}, fx.world(), fx.scenario())
    (key, group), = treasuries.separated(ctx, "germany")
    other = next(t for t in group if t != key)
    s.nations["germany"].flags[treasuries.HELD] = {other: 3}
    assert treasuries.separated(ctx, "germany") == [(other, group)]
    assert treasuries.separated(ctx, "germany") == treasuries.separated(TurnContext(s, {}, fx.world(), fx.scenario()),
                                                                        "germany")


def test_the_separated_groups_stand_while_the_nations_own_groups_do() -> None:
    """separated() asked again after someone's land changed hands (Phase 8 asks after the
    battles) keeps its answer while the nation's own groups are the same (they and the
    keys make it), and finds the new one when they changed."""
    s = riga_cut_off()
    s.control["Vilna"] = "germany"
    ctx = TurnContext(s, {}, fx.world(), fx.scenario())
    before = treasuries.separated(ctx, "germany")
    assert before == [("Riga", ("Riga", "Vilna"))]
    s.control["Paris"] = "belgium"  # far from Germany's land: its groups are the same
    assert treasuries.separated(ctx, "germany") == before
    assert treasuries.separated(TurnContext(s, {}, fx.world(), fx.scenario()), "germany") == before
    s.control["Konigsberg"] = "germany"  # Riga and Vilna join the mainland
    assert treasuries.separated(ctx, "germany") == []
    s.control["Konigsberg"], s.control["Moscow"] = "russia", "germany"  # apart again, with Moscow (worth most)
    assert treasuries.separated(ctx, "germany") == [("Moscow", ("Moscow", "Riga", "Vilna"))]
    assert treasuries.separated(ctx, "germany") == treasuries.separated(TurnContext(s, {}, fx.world(), fx.scenario()),
                                                                        "germany")


def test_the_sea_paths_remembered_follow_control_and_alliances() -> None:
    """sea_lanes.sea_paths() keeps its answers in the position's memo (a transfer asks
    whether it may go, then as it goes): the land around an end changing hands, or an
    ally turning neutral, is seen at once."""
    s = riga_cut_off()
    s.control["Vilna"], s.control["Riga"] = "germany", "russia"  # inland Vilna, cut off from the coast
    ctx = TurnContext(s, {}, fx.world(), fx.scenario())
    assert sea_lanes.sea_paths(ctx, "germany", "Vilna", "Berlin") == []
    s.control["Riga"] = "austria"  # an ally's coast: the Baltic is reached
    assert sea_lanes.sea_paths(ctx, "germany", "Vilna", "Berlin") == [("Baltic Sea",)]
    s.nations["austria"].side = "neutral"  # no longer an ally: cut off again
    assert sea_lanes.sea_paths(ctx, "germany", "Vilna", "Berlin") == []
    s.nations["austria"].side = s.nations["germany"].side
    assert sea_lanes.sea_paths(ctx, "germany", "Vilna", "Berlin") == [("Baltic Sea",)]
    s.control["Riga"] = "russia"
    assert sea_lanes.sea_paths(ctx, "germany", "Vilna", "Berlin") == []


def test_the_groups_remembered_are_a_new_search_on_the_real_map() -> None:
    """Every nation of the 1914 opening, asked in turn in one position (allies share one
    search) and each in a position of its own, gets the same groups."""
    world, scenario = load_world("1914"), load_scenario("1914")
    s = initial_state(scenario, world, "groups")
    s.control["Brussels"] = "germany"  # a piece of land changes hands before the questions
    shared = TurnContext(s, {}, world, scenario)
    for nid in sorted(s.nations):
        alone = TurnContext(s, {}, world, scenario)
        assert treasuries.groups(shared, nid) == treasuries.groups(alone, nid), nid
        assert treasuries.groups(shared, nid) == treasuries.groups(alone, nid), nid  # remembered
        assert s.allies_of(nid) == {b for b in [*s.nations, "nobody"] if s.allies(nid, b)}  # who shares


def test_the_camps_searched_again_after_a_change_are_a_new_search() -> None:
    """The pieces of each camp are kept by its land (treasuries._search): after land changes
    hands in the same position (Phase 8 after the battles), every nation's groups are those
    of a new search, the camps that changed searched again and the others found as kept."""
    world, scenario = load_world("1914"), load_scenario("1914")
    s = initial_state(scenario, world, "pieces")
    ctx = TurnContext(s, {}, world, scenario)
    before = {nid: treasuries.groups(ctx, nid) for nid in sorted(s.nations)}
    s.control["Brussels"], s.control["Konigsberg"] = "germany", "russia"  # Belgium cut in two, East Prussia lost
    for nid in sorted(s.nations):
        assert treasuries.groups(ctx, nid) == treasuries.groups(TurnContext(s, {}, world, scenario), nid), nid
    assert treasuries.groups(ctx, "switzerland") == before["switzerland"]  # a camp nobody touched
    assert treasuries.groups(ctx, "belgium") != before["belgium"]


def test_the_holdings_of_a_map_follow_its_changes() -> None:
    """state.holdings: each holder's land, kept with a Control's mark and made again after
    any change; a plain dict is answered alike."""
    from moderator.engine.state import holdings

    control = Control({"Paris": "france", "Lyon": "france", "Berlin": "germany"})
    first = holdings(control)
    assert dict(first) == {"france": frozenset({"Paris", "Lyon"}), "germany": frozenset({"Berlin"})}
    assert list(first) == ["france", "germany"] and holdings(control) is first
    control["Lyon"] = "germany"
    assert dict(holdings(control)) == {"france": frozenset({"Paris"}), "germany": frozenset({"Berlin", "Lyon"})}
    assert dict(holdings(dict(control))) == dict(holdings(control))


def test_a_separated_territory_keeps_its_income_and_sends_it_home() -> None:
    s = riga_cut_off(saved=0)
    new, events = resolve(s, {}, fx.world(), fx.scenario(), ScriptedDice({}, 1))
    (inc,) = events_of(events, "income")
    (apart,) = events_of(events, "income-held-apart")
    riga = apart["amounts"]["Riga"]  # type: ignore[index]
    assert riga == 2 and new.nations["germany"].saved == inc["amount"] - 2  # Riga's value stays in Riga
    assert new.nations["germany"].flags[treasuries.HELD] == {"Riga": 2}
    again, events = resolve(new, {"germany": [m.Transfer(4, "Riga", "Berlin")]}, fx.world(), fx.scenario(),
                            ScriptedDice({}, 2))
    (made,) = events_of(events, "transfer-by-sea")
    assert (made["amount"], made["sunk"]) == (4, 0)  # last turn's 2 and this turn's
    (inc2,) = events_of(events, "income")
    assert again.nations["germany"].saved == new.nations["germany"].saved + inc2["amount"] - 2 + 4
    assert treasuries.HELD not in again.nations["germany"].flags  # Riga's treasury is empty


def test_money_rejoins_the_mainland_when_the_land_joins_it_and_is_lost_with_its_territory() -> None:
    s = fx.state(saved=0)
    s.control["Riga"] = "germany"  # joined to Konigsberg, so to Berlin
    s.control["Moscow"] = "germany"
    s.nations["germany"].flags[treasuries.HELD] = {"Riga": 5, "Minsk": 3}  # Minsk is Russia's again
    new, events = resolve(s, {}, fx.world(), fx.scenario(), ScriptedDice({}, 1))
    assert events_of(events, "held-apart-lost") == [{"nation": "germany", "place": "Minsk", "amount": 3}]
    (inc,) = events_of(events, "income")
    assert new.nations["germany"].flags[treasuries.HELD] == {"Moscow": 8}  # inland Moscow keeps its own
    assert new.nations["germany"].saved == 5 + inc["amount"] - 8


# ---- the 1914 map ------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def real() -> tuple[World, Scenario]:
    return load_world("1914"), load_scenario("1914")


def test_a_colony_builds_from_its_own_treasury() -> None:
    world, scenario = real()
    s = initial_state(scenario, world, "apart")
    s.nations["germany"].flags[treasuries.HELD] = {"German East Africa": 9}
    saved = s.nations["germany"].saved
    orders: list[m.Order] = [m.Build("infantry", 3, "German East Africa")]
    new, events = resolve(s, {"germany": orders}, world, scenario, Dice("apart", 1))  # no roll touches this
    (built,) = events_of(events, "built")
    assert (built["count"], built["cost"]) == (1, 5)  # 9 there: one at 5, not the mainland's 30
    (inc,) = events_of(events, "income")
    (apart,) = events_of(events, "income-held-apart")
    kept = apart["amounts"]  # the colonies' income stays in the colonies
    trade = sum(int(a["amount"]) for a in events_of(events, "us-trade"))  # 3.1: the mainland's
    assert new.nations["germany"].saved == saved + inc["amount"] - sum(kept.values()) + trade  # type: ignore[union-attr]
    assert new.nations["germany"].flags[treasuries.HELD]["German East Africa"] == 4 + kept["German East Africa"]  # type: ignore[index]


def test_the_moderator_sets_a_separated_treasury_by_ruling() -> None:
    # SET SAVED OF Germany sets the mainland's; with AT, the treasury of the place's group.
    from moderator.engine.dice import Dice
    from moderator.engine.resolve import apply_rulings
    from moderator.orders.checker import check_rulings

    s = riga_cut_off(saved=50)
    s.nations["germany"].flags[treasuries.HELD] = {"Riga": 3}
    checked = check_rulings("SET SAVED OF Germany AT Riga TO 12\nADJUST TREASURY OF Germany IN Riga BY -2\n"
                            "SET SAVED OF Germany TO 40\n", s, fx.world(), fx.scenario())
    assert [d.render() for d in checked.diagnostics] == []
    new, events = apply_rulings(s, checked.orders, fx.world(), fx.scenario(), Dice("now", 1))
    assert new.nations["germany"].flags[treasuries.HELD] == {"Riga": 10} and new.nations["germany"].saved == 40
    ruled = [e.args["details"] for e in events if e.code == "ruling"]
    assert ruled[:2] == [{"field": "saved", "place": "Riga", "before": 3, "after": 12},
                         {"field": "saved", "place": "Riga", "before": 12, "after": 10}]
    refused = check_rulings("SET SAVED OF Germany AT Posen TO 5\nSET SAVED OF Germany AT Warsaw TO 5\n"
                            "ADJUST SAVED OF Germany AT Riga BY -4\n", s, fx.world(), fx.scenario())
    assert [d.code for d in refused.diagnostics] == ["ruling-held-mainland", "ruling-held-not-held",
                                                     "ruling-held-negative"]
    assert "Posen is joined to Germany's mainland" in refused.diagnostics[0].message


def test_the_report_shows_what_stayed_apart_and_each_separated_treasury() -> None:
    # The income event says how much of the amount stayed overseas (the saved figure is the
    # mainland's); the nation's status (text, HTML, JSON) lists every separated treasury,
    # and so does the position a bot reads (Position.held_apart).
    from moderator.reports.build import nation_mail
    from moderator.reports.content import TurnInfo

    s = riga_cut_off(saved=0)
    s.nations["germany"].flags[treasuries.HELD] = {"Riga": 3}
    new, events = resolve(s, {}, fx.world(), fx.scenario(), ScriptedDice({}, 1))
    (inc,) = events_of(events, "income")
    assert inc["kept_apart"] == 2 and inc["saved"] == new.nations["germany"].saved
    info = TurnInfo("g1", "War", 1, "August 1914", 2, "October 1914", "Friday")
    report = nation_mail(new, events, fx.scenario(), fx.world(), info, "germany")
    assert (f"collected {inc['amount']} resources (full value {inc['full']}, income rule \"full\"), 2 of them kept "
            f"in territories separated from the mainland (3.1); saved resources on the mainland now {inc['saved']}."
            ) in flat(report.text)
    assert (f"Treasury: {inc['saved']} resources saved on the mainland; 5 more kept apart in 1 separated territory "
            "(3.1: spent there, or sent by sea):") in flat(report.text)
    assert "\n  Riga                         5\n" in report.text
    assert '<td>Riga</td><td align="right"><b>5</b></td>' in report.html
    assert report.data["sheet"]["held_apart"] == {"Riga": 5}
    assert TurnContext(new, {}, fx.world(), fx.scenario()).held_apart("germany") == {"Riga": 5}
