"""The special options the engine resolves (engine/option_effects.py), on the real 1914
opening with the Phase 1.5 dice scripted (every other step rolls seeded dice): each
option's stated faces and points, the territory it gives, what it leaves for later turns.
The stated chances themselves are measured in test_engine_chances.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.option_effects import EFFECTS
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.checker import check_text
from moderator.orders.parser import parse_orders
from tests.test_engine_diplomacy import opening, real


class StepDice(Dice):
    """Seeded dice whose step 1.5 replays `rolls` (all of them must be used)."""

    def __init__(self, rolls: Sequence[int], turn: int) -> None:
        super().__init__("options", turn)
        self.scripted = ScriptedDice({"1.5": list(rolls)}, turn, step="1.5", log=self.log)

    def _child(self, section: str) -> Dice:
        if section == "9":  # the quiet end of turn: Phase 9's own rolls move no points here
            return QuietPhase9(self._seed, self._turn, step=section, log=self.log, scheme=self.scheme)
        return self.scripted if section == "1.5" else super()._child(section)


class QuietPhase9(Dice):
    """Phase 9 rolling 6 wherever it can (the US economic roll moves nothing on 2-7, no
    Spanish garrison turn, no revolution or mutiny): the options' points stand alone."""

    def _int(self, low: int, high: int, purpose: str) -> int:
        return 6 if low <= 6 <= high else super()._int(low, high, purpose)


def play(nation: str, text: str, rolls: Sequence[int], state: GameState | None = None
         ) -> tuple[GameState, list[Event]]:
    world, scenario = real()
    start = state or opening()
    dice = StepDice(rolls, start.turn)
    new, events = resolve(start, {nation: parse_orders(text).orders}, world, scenario, dice)
    assert dice.scripted.unused() == {}, "every scripted Phase 1.5 die is used"
    assert not [e for e in events if e.code in ("order-refused", "order-referred")], events
    return new, events


def outcome(events: list[Event]) -> str:
    [e] = [e for e in events if e.code == "option-outcome"]
    return str(e.args["outcome"])


def moved(events: list[Event], nation: str) -> list[int]:
    """The option's points for `nation` (the turn's other draws apart)."""
    return [e.args["change"] for e in events if e.code == "points" and e.args["nation"] == nation
            and e.args["why"] in ("option", "influence-found-out")]


def with_(change: Callable[[GameState], object]) -> GameState:
    state = opening()
    change(state)
    return state


def test_every_effect_the_scenario_names_exists() -> None:
    _, scenario = real()
    named = {o.effect for o in scenario.diplomacy.options if o.effect}
    assert named <= set(EFFECTS) and len(named) == len(EFFECTS)


def test_seek_italys_favour_succeeds_on_7_10_backfires_on_1_and_gives_the_land() -> None:
    new, events = play("france", "OPTION 5", [7, 15])
    assert outcome(events) == "success" and moved(events, "italy")[0] > 0  # 15, stopped at the camp (+10)
    assert new.nations["italy"].flags["leaning"] == "allied"
    assert new.control["Marseille"] == "italy" and new.incorporated["Marseille"] == 1
    new, events = play("austria-hungary", "OPTION 2", [1, 12])  # "seen as a sign of weakness"
    assert outcome(events) == "backfire" and moved(events, "italy")[0] > 0  # 12 toward the Allies, stopped at +10
    assert "leaning" not in new.nations["italy"].flags and new.control["Trieste"] == "italy"
    new, events = play("austria-hungary", "OPTION 2", [9, 8])
    assert moved(events, "italy") == [-8] and new.nations["italy"].flags["leaning"] == "central"
    new, events = play("france", "OPTION 5", [4])
    assert outcome(events) == "nothing" and moved(events, "italy") == []


def test_seek_chinese_favour_and_japan_answering() -> None:
    new, events = play("germany", "OPTION 1", [2, 9, 1])  # 2 in 10: a 2; 0-20: 9; Japan objects: a 1
    assert outcome(events) == "success" and new.nations["china"].standing == -9
    assert new.control["Jiaozhou"] == "china"
    # "Japan will instantly go up to full production and declare war on the rest of the Central Powers"
    assert new.nations["japan"].income_rule == "full" and "austria-hungary" in new.nations["japan"].at_war_with
    new, events = play("germany", "OPTION 1", [3, 2])
    assert outcome(events) == "nothing" and new.nations["china"].standing == 0
    assert "austria-hungary" not in new.nations["japan"].at_war_with


def test_propaganda_moves_the_us_entry() -> None:
    allied = with_(lambda s: setattr(s.nations["britain"], "side", "allied"))
    assert play("britain", "OPTION 3", [18], allied)[0].nations["usa"].standing == 1
    assert play("britain", "OPTION 3", [2], allied)[0].nations["usa"].standing == -3
    assert play("britain", "OPTION 3", [17], allied)[0].nations["usa"].standing == 0
    assert play("germany", "OPTION 2", [19, 2])[0].nations["usa"].standing == -2
    assert play("germany", "OPTION 2", [18])[0].nations["usa"].standing == 0  # Germany needs 19
    assert play("germany", "OPTION 2", [2, 4])[0].nations["usa"].standing == 4


def test_the_zimmerman_note() -> None:
    new, events = play("germany", "OPTION 4", [9, 10])
    assert new.nations["mexico"].standing == -10  # 10-20 toward the Central Powers
    new, events = play("germany", "OPTION 4", [3, 4])
    assert outcome(events) == "backfire" and new.nations["usa"].standing == 4


def test_france_courts_italy_for_0_4_now_and_each_turn() -> None:
    new, events = play("france", "OPTION 3", [2, 3])
    assert moved(events, "italy") == [3] and new.nations["italy"].flags["courted"] == 1
    world, scenario = real()
    dice = Dice("courted", 2)
    new.turn = 2
    resolve(new, {}, world, scenario, dice)
    [drift] = [r for r in dice.log if r.purpose.startswith("Kingdom of Italy's points of the turn")]
    assert drift.dice == "0-4"  # "0-4 points each turn instead 0-3"
    leaning_cp = with_(lambda s: s.nations["italy"].flags.update(leaning="central"))
    new, events = play("france", "OPTION 3", [1], leaning_cp)  # "only while Italy is leaning towards the Allied side"
    assert moved(events, "italy") == [] and "courted" not in new.nations["italy"].flags


def test_spanish_relations_lift_the_garrison_rule_from_the_next_turn() -> None:
    world, scenario = real()
    new, events = play("france", "OPTION 1", [7])
    assert outcome(events) == "success"
    new.turn = 2
    assert check_text("INFLUENCE Spain", "France", new, world, scenario).diagnostics == []
    failed, _ = play("france", "OPTION 1", [6])
    failed.turn = 2
    assert [d.code for d in check_text("INFLUENCE Spain", "France", failed, world, scenario).diagnostics] == [
        "influence-garrison"]


def test_peace_with_serbia_on_a_50_50() -> None:
    rich = with_(lambda s: setattr(s.nations["austria-hungary"], "saved", 40))
    new, events = play("austria-hungary", "OPTION 1", [5], rich)
    assert "serbia" not in new.nations["austria-hungary"].at_war_with and any(e.code == "peace-made" for e in events)
    new, _ = play("austria-hungary", "OPTION 1", [6], rich)
    assert "serbia" in new.nations["austria-hungary"].at_war_with


def test_the_us_options() -> None:
    geared = with_(lambda s: (s.nations["usa"].flags.update(geared_up=1), setattr(s, "turn", 2),
                              setattr(s.nations["usa"], "saved", 40), setattr(s.nations["usa"], "standing", 3)))
    new, events = play("usa", "OPTION 2 ON Mexico", [4], geared)  # a minor: 4 in 10
    assert "mexico" in new.nations["usa"].at_war_with
    new, events = play("usa", "OPTION 2 ON Mexico", [5, 2], geared)  # refused: 0-2 toward zero
    assert "mexico" not in new.nations["usa"].at_war_with and new.nations["usa"].standing == 1
    assert play("usa", "OPTION 4 TOWARD Allies", [7, 2], geared)[0].nations["usa"].standing == 5
    assert play("usa", "OPTION 4 TOWARD Allies", [1, 6], geared)[0].nations["usa"].standing == -3
    assert play("usa", "OPTION 4 TOWARD Allies", [6], geared)[0].nations["usa"].standing == 3


def test_the_ottoman_trade_fiasco() -> None:
    allied = with_(lambda s: setattr(s.nations["britain"], "side", "allied"))
    new, events = play("britain", "OPTION 1", [5], allied)
    assert moved(events, "ottoman") == [5]  # 0-6 toward the Allies
    assert any(e.code == "moderator-flag" and e.args["reason"] == "option-battleship-to-ottomans" for e in events)


def irish_ready(state: GameState) -> None:
    """Germany may play #3; no British troops in Ireland (no battle: the catalog fights one)."""
    state.nations["britain"].side = "allied"
    state.new_unit("germany", "submarine", "Irish Sea")
    state.units = [u for u in state.units if u.location not in ("Ireland", "Northern Ireland")]


def test_the_irish_rebel_on_9_10_with_1d10_infantry_and_support_britain_on_1_then_no_more_attempts() -> None:
    from tests.test_engine_diplomacy import codes_1914, errors

    new, events = play("germany", "OPTION 3", [5], with_(irish_ready))  # 2-8: nothing, try again
    assert outcome(events) == "nothing" and codes_1914("OPTION 3", "Germany", new) == []
    before = opening().nations["britain"].manpower_limit
    new, events = play("germany", "OPTION 3", [1], with_(irish_ready))  # 1: the Irish learn of it
    assert outcome(events) == "backfire" and new.nations["britain"].manpower_limit == before + 20
    assert [e.args["after"] - e.args["before"] for e in events if e.code == "manpower-raised"] == [20]
    assert errors(codes_1914("OPTION 3", "Germany", new)) == ["option-settled"]  # "no further attempts"
    new, events = play("germany", "OPTION 3", [10, 7], with_(irish_ready))  # 9-10: they rise, 1D10 infantry
    assert outcome(events) == "success"
    [rising] = [e for e in events if e.code == "moderator-flag" and e.args["reason"] == "irish-rebellion"]
    assert (rising.args["details"]["infantry"], rising.args["details"]["artillery"]) == (7, 1)
    assert errors(codes_1914("OPTION 3", "Germany", new)) == ["option-settled"]


def test_east_africa_supplies_last_the_turn_they_are_played() -> None:
    """German #5: without the option German East Africa builds 2 units a turn (rule 8) from
    its own (empty) treasury, artillery at rule 5's 10 more; with it 4, the artillery at 8
    more, paid from home. Once a turn, and only while Germany holds German East Africa."""
    from tests.test_engine_diplomacy import codes_1914, errors

    def rich(state: GameState) -> None:
        state.nations["germany"].saved = 100

    builds = "BUILD 3 inf AT German East Africa\n"
    assert errors(codes_1914(builds, "Germany", with_(rich))) == ["over-budget"]  # cut off, nothing there
    found = codes_1914("OPTION 5\n" + builds, "Germany", with_(rich))
    assert errors(found) == [] and ("warning", "build-cut") not in found
    assert ("warning", "build-cut") in codes_1914("OPTION 5\nBUILD 5 inf AT German East Africa", "Germany", with_(rich))
    assert errors(codes_1914("OPTION 5\nOPTION 5", "Germany", with_(rich))) == ["option-twice"]
    new, events = play("germany", "OPTION 5\nBUILD 1 art AT German East Africa", [], with_(rich))
    assert outcome(events) == "delivered"
    assert [e.args["cost"] for e in events if e.code == "built"] == [16]  # 8 + 8, not 8 + 10

    def lost(state: GameState) -> None:
        rich(state)
        state.control["German East Africa"] = "britain"

    assert errors(codes_1914("OPTION 5", "Germany", with_(lost))) == ["option-holds"]


def test_the_german_player_places_the_irish_rebels_with_the_option() -> None:
    """"The German player gets to place these forces in Ireland's two territories however
    they chose": OPTION 3 [n] AT place, the artillery and n infantry there, the rest in the
    other; without a place, all where the British have the fewest land units (flagged)."""
    from tests.test_engine_diplomacy import codes_1914, errors

    def placed(text: str, state: GameState | None = None) -> tuple[object, bool]:
        new, events = play("germany", text, [10, 7], state or with_(irish_ready))  # they rise, 7 infantry
        [rising] = [e for e in events if e.code == "moderator-flag" and e.args["reason"] == "irish-rebellion"]
        where = rising.args["details"]["placed"]
        on_map = {t: {k: sum(1 for u in new.units_at(t, "irish-rebels") if u.kind == k) for k in kinds}
                  for t, kinds in where.items()}
        assert on_map == where and new.at_war("irish-rebels", "britain") and new.at_war("britain", "irish-rebels")
        assert all(new.controller(t) == "irish-rebels" for t in where)  # no British troops there: theirs
        return where, rising.args["details"]["by_order"]

    assert placed("OPTION 3 2 AT Northern Ireland") == (
        {"Ireland": {"infantry": 5}, "Northern Ireland": {"artillery": 1, "infantry": 2}}, True)
    assert placed("OPTION 3 AT Ireland") == ({"Ireland": {"artillery": 1, "infantry": 7}}, True)
    assert placed("OPTION 3 0 IN Ireland") == ({"Ireland": {"artillery": 1}, "Northern Ireland": {"infantry": 7}}, True)
    assert placed("OPTION 3 12 AT Ireland")[0] == {"Ireland": {"artillery": 1, "infantry": 7}}  # all there is

    def guarded(state: GameState) -> None:
        irish_ready(state)
        state.units = [u for u in state.units if u.location not in ("Ireland", "Northern Ireland")]
        state.new_unit("britain", "infantry", "Ireland")

    assert placed("OPTION 3", with_(guarded)) == ({"Northern Ireland": {"artillery": 1, "infantry": 7}}, False)
    assert errors(codes_1914("OPTION 3 AT Glasgow", "Germany", with_(irish_ready))) == ["option-place"]
    assert errors(codes_1914("OPTION 2 AT Ireland", "Germany")) == ["option-place"]


def test_east_africa_supplies_count_its_infantry_against_the_home_manpower() -> None:
    """German #5: "at normal cost and reducing manpower in mainland, not colonial": that
    turn German East Africa's infantry count against the home limit; other turns against
    the colonies' (engine/manpower.py)."""
    from moderator.engine import manpower, treasuries

    def rich(state: GameState) -> None:
        state.nations["germany"].saved = 100
        state.nations["germany"].flags[treasuries.HELD] = {"German East Africa": 20}

    start = with_(rich)
    home, abroad = start.nations["germany"].infantry_built, start.nations["germany"].flags.get(manpower.COLONIAL_BUILT, 0)
    new, _ = play("germany", "OPTION 5\nBUILD 2 inf AT German East Africa", [], start)
    assert new.nations["germany"].infantry_built == home + 2
    assert new.nations["germany"].flags.get(manpower.COLONIAL_BUILT, 0) == abroad
    new, _ = play("germany", "BUILD 2 inf AT German East Africa", [], with_(rich))
    assert new.nations["germany"].infantry_built == home
    assert new.nations["germany"].flags.get(manpower.COLONIAL_BUILT, 0) == abroad + 2
