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


def test_british_option_2_moves_the_neutral_ottomans_0_10_toward_the_allies() -> None:
    """The Ottoman Empire: "if British Option #2 is done when British Empire is alligned with
    the Allied Powers, then 0-10 points toward Allied Powers side" (engine/neutral_triggers.py
    british_option_2, after the option's own China and Japan rolls)."""
    allied = with_(lambda s: setattr(s.nations["britain"], "side", "allied"))
    new, events = play("britain", "OPTION 2", [5, 4, 7], allied)  # China: no (1 in 10); Japan: no; the Ottomans 7
    assert outcome(events) == "nothing" and new.control["Hong Kong"] == "china"
    assert moved(events, "ottoman") == [7]
    [ottoman] = [e for e in events if e.code == "points" and e.args["nation"] == "ottoman" and e.args["why"] == "option"]
    assert set(ottoman.seen_by) == {"ottoman", "moderator"}  # known only to the Ottomans
    _, events = play("britain", "OPTION 2", [1, 6, 4, 10], allied)  # China (0-20) toward the Allies too
    assert moved(events, "china") == [6] and moved(events, "ottoman") == [10]
    # The Ottomans in the main war: no draw (the option's own rolls only).
    joined = with_(lambda s: (setattr(s.nations["britain"], "side", "allied"),
                              setattr(s.nations["ottoman"], "side", "central")))
    _, events = play("britain", "OPTION 2", [5, 4], joined)
    assert moved(events, "ottoman") == []


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


def test_a_second_courtship_moves_italy_again_but_its_turns_stay_0_4() -> None:
    """French #3: "0-4 points each turn instead 0-3" replaces the range, it does not add
    to it; "they may continue to use this option to attempt to advance it even further" is
    the 0-4 of each new success (reading 24 of Phase 1, docs/rules-coverage.md)."""
    world, scenario = real()
    first, _ = play("france", "OPTION 3", [2, 3])
    first.turn, first.nations["italy"].standing = 2, 0  # room below the camp for the 0-4s
    second, events = play("france", "OPTION 3", [1, 4], first)
    assert outcome(events) == "success" and moved(events, "italy") == [4]
    dice = Dice("courted twice", 3)
    second.turn = 3
    resolve(second, {}, world, scenario, dice)
    [drift] = [r for r in dice.log if r.purpose.startswith("Kingdom of Italy's points of the turn")]
    assert drift.dice == "0-4"  # not 0-5


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
    """Austro-Hungarian #1: the 25 are Serbia's with the treaty, spent on a refusal
    (reading); refused while an Allied unit but Serbia's stands in Serbian land."""
    from tests.test_engine_diplomacy import codes_1914, errors

    rich = with_(lambda s: setattr(s.nations["austria-hungary"], "saved", 40))
    serbia = rich.nations["serbia"].saved
    new, events = play("austria-hungary", "OPTION 1", [5], rich)
    assert "serbia" not in new.nations["austria-hungary"].at_war_with and any(e.code == "peace-made" for e in events)
    assert [e.args["sent"] for e in events if e.code == "gift" and e.args["receiver"] == "serbia"] == [25]
    assert new.nations["serbia"].saved - serbia >= 25 and outcome(events) == "success"
    new, events = play("austria-hungary", "OPTION 1", [6], rich)
    assert "serbia" in new.nations["austria-hungary"].at_war_with and outcome(events) == "refused"
    assert not [e for e in events if e.code == "gift" and e.args["receiver"] == "serbia"]
    paid = [e for e in events if e.code == "income" and e.args["nation"] == "austria-hungary"]
    assert new.nations["austria-hungary"].saved == 40 - 25 + sum(e.args["amount"] for e in paid)  # spent
    assert errors(codes_1914("OPTION 1", "Austria-Hungary", rich)) == []

    def russians_in_serbia(state: GameState) -> None:
        state.nations["austria-hungary"].saved = 40
        state.new_unit("russia", "infantry", "Macedonia")

    assert errors(codes_1914("OPTION 1", "Austria-Hungary", with_(russians_in_serbia))) == ["option-allied-units"]


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
    """British #1: 0-6 toward the Allies; Britain's oldest battleship leaves the map at once
    and joins the Ottoman fleet where most of its ships are (the Aegean: a cruiser and a
    transport, against one cruiser in the Western Black Sea); later British orders no
    longer name it. No fleet: beside an Ottoman port, flagged."""
    from tests.test_engine_diplomacy import codes_1914, errors

    allied = with_(lambda s: setattr(s.nations["britain"], "side", "allied"))
    oldest = min((u for u in allied.units if u.nation == "britain" and u.kind == "battleship"),
                 key=lambda u: int(u.id.rsplit("-", 1)[1]))
    new, events = play("britain", "OPTION 1", [5], allied)
    assert moved(events, "ottoman") == [5]  # 0-6 toward the Allies
    assert oldest.id not in {u.id for u in new.units}
    assert sum(1 for u in new.units_at("Aegean Sea", "ottoman") if u.kind == "battleship") == 1
    [over] = [e for e in events if e.code == "battleship-handed-over"]
    assert (over.args["origin"], over.args["zone"]) == ("North Sea", "Aegean Sea")
    assert set(over.seen_by) == {"britain", "ottoman", "moderator"}
    assert not [e for e in events if e.code == "moderator-flag" and e.args["reason"] == "option-battleship-to-ottomans"]
    # "instantly": in the checker's projection too, the two battleships of the North Sea are one
    assert errors(codes_1914("TF B AT North Sea: 2 bb\nTF B PATROL", "Britain", allied)) == []
    assert errors(codes_1914("OPTION 1\nTF B AT North Sea: 2 bb\nTF B PATROL", "Britain", allied))[0] == (
        "not-enough-units")

    def no_fleet(state: GameState) -> None:
        state.nations["britain"].side = "allied"
        state.units = [u for u in state.units if not (u.nation == "ottoman" and state_is_ship(u.kind))]

    new, events = play("britain", "OPTION 1", [2], with_(no_fleet))
    [flagged] = [e for e in events if e.code == "moderator-flag" and e.args["reason"] == "option-battleship-to-ottomans"]
    zone = flagged.args["details"]["zone"]
    assert [u.location for u in new.units if u.nation == "ottoman" and u.kind == "battleship"] == [zone]


def state_is_ship(kind: str) -> bool:
    from moderator.engine.state import SEA_UNITS

    return kind in SEA_UNITS


def test_seek_italys_favour_while_italy_leans_twice_toward_the_allies_makes_it_considered_neutral() -> None:
    """Austro-Hungarian #2: "Above is done only if Italy has not twice leaned toward Allied
    Powers ...; in that case, if isuccessful, then Italy is considered neutral and can be
    influenced as any other minor neutral": no points, no leaning, the fact recorded
    (flags["considered_neutral"]); no points of the turn for Italy from then on. A
    backfire still gives the Allies their 0-20; French #5 knows no such case."""
    from moderator.engine import british_entry
    from moderator.engine.option_effects import CONSIDERED_NEUTRAL

    twice = with_(lambda s: s.nations["italy"].flags.update({british_entry.TWICE: "allied"}))
    new, events = play("austria-hungary", "OPTION 2", [8], twice)
    assert outcome(events) == "neutral" and moved(events, "italy") == []
    flags = new.nations["italy"].flags
    assert flags[CONSIDERED_NEUTRAL] == 1 and flags["leaning"] == "neutral" and british_entry.TWICE not in flags
    assert new.control["Trieste"] == "italy"
    [told] = [e for e in events if e.code == "leaning-changed"]
    assert told.seen_by == ("italy",) and told.args["side"] == "neutral"
    world, scenario = real()
    dice = Dice("neutral", 2)
    new.turn = 2
    resolve(new, {}, world, scenario, dice)
    assert not [r for r in dice.log if r.purpose.startswith("Kingdom of Italy's points of the turn")]
    new, events = play("austria-hungary", "OPTION 2", [1, 6], twice)  # the sign of weakness all the same
    assert outcome(events) == "backfire" and moved(events, "italy") == [6]
    new, events = play("france", "OPTION 5", [8, 4], twice)
    assert outcome(events) == "success" and moved(events, "italy") == [4]
    assert CONSIDERED_NEUTRAL not in new.nations["italy"].flags
    once = opening()  # leaning once (the start): full success, toward the Central Powers
    new, events = play("austria-hungary", "OPTION 2", [8, 5], once)
    assert moved(events, "italy") == [-5] and new.nations["italy"].flags["leaning"] == "central"


def test_a_submarine_railed_to_the_adriatic() -> None:
    """German #7: the submarine's price, one a turn, built in a home port whose rails reach
    Trieste; at once in the Adriatic, so an interception there names it this turn; the
    port's rails less 6 and Trieste's closed to strategic moves."""
    from moderator.engine import adriatic_submarine
    from moderator.engine.context import TurnContext
    from moderator.engine.orders.special_options import RULE
    from moderator.orders.model import SpecialOption
    from tests.test_engine_diplomacy import codes_1914, errors

    world, scenario = real()
    stats = TurnContext(opening(), {}, world, scenario).stats("germany", "submarine")
    assert stats is not None
    new, events = play("germany", "OPTION 7", [], opening())
    assert outcome(events) == "delivered"
    assert [e.args["cost"] for e in events if e.code == "option-outcome"] == [stats.cost]
    subs = [u for u in new.units if u.nation == "germany" and u.kind == "submarine" and u.location == "Adriatic Sea"]
    assert len(subs) == 1 and [e.args["place"] for e in events if e.code == "placed" and e.phase == "1.5"] == [
        "Adriatic Sea"]
    assert errors(codes_1914("INTERCEPT WITH 1 ss IN Adriatic Sea", "Germany")) == ["not-enough-units"]
    assert errors(codes_1914("OPTION 7\nINTERCEPT WITH 1 ss IN Adriatic Sea", "Germany")) == []
    assert errors(codes_1914("OPTION 7\nOPTION 7", "Germany")) == ["option-twice"]
    assert errors(codes_1914("OPTION 7 AT Togo", "Germany")) == ["option-place"]
    # the rails: Hamburg (15, the most left) loses 6, Trieste all of its allowance
    ctx = TurnContext(opening(), {}, world, scenario, checking=True)
    order = SpecialOption(number=7)
    spec = scenario.diplomacy.options_for("germany", "central")[7]
    RULE.commit(ctx, "germany", 0, order)
    assert ctx.rail_used == {"Hamburg": 6, "Trieste": world.territories["Trieste"].value}
    assert adriatic_submarine.rail_left(ctx, "Hamburg") == world.territories["Hamburg"].value - 6
    assert adriatic_submarine.port(ctx, "germany", SpecialOption(number=7, place="Bremen"), spec) == "Bremen"

    def trieste_italian(state: GameState) -> None:
        state.control["Trieste"] = "italy"

    assert errors(codes_1914("OPTION 7", "Germany", with_(trieste_italian))) == ["option-held"]


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


def test_a_given_lands_garrison_marches_home_or_sails_to_the_nearest_port() -> None:
    """A territory given by an option: the giver's units there march at once to its
    nearest land through its own and its allies' land (Trieste: Croatia, by name among the
    nearest), and this turn's orders name them there; with no such march home (Jiaozhou:
    Chinese land all round) they sail by default to the giver's nearest port, flagged for
    the moderator (docs/moderating.md)."""
    from tests.test_engine_diplomacy import codes_1914, errors

    def garrisoned(state: GameState) -> None:
        state.new_unit("austria-hungary", "infantry", "Trieste")

    new, events = play("austria-hungary", "OPTION 2", [3], with_(garrisoned))
    [left] = [e for e in events if e.code == "units-withdrawn"]
    assert (left.args["place"], left.args["to"], left.args["units"]) == ("Trieste", "Croatia", 1)
    assert not new.units_at("Trieste", "austria-hungary") and new.controller("Trieste") == "italy"
    assert not [e for e in events if e.code == "moderator-flag"]
    here = sum(1 for u in opening().units_at("Croatia", "austria-hungary") if u.kind == "infantry")
    march = f"MOVE {here + 1} inf FROM Croatia TO Bosnia"  # the garrison with Croatia's own
    assert errors(codes_1914(march, "Austria-Hungary", with_(garrisoned))) == ["not-enough-units"]
    assert errors(codes_1914("OPTION 2\n" + march, "Austria-Hungary", with_(garrisoned))) == []
    assert errors(codes_1914("OPTION 2\nMOVE 1 inf FROM Trieste TO Croatia", "Austria-Hungary",
                             with_(garrisoned))) == ["not-enough-units"]
    # Jiaozhou: two sea zones to the Carolines and the Marianas (equal value: by name).
    garrison = len(opening().units_at("Jiaozhou", "germany"))
    islands = len(opening().units_at("Caroline Islands", "germany"))
    new, events = play("germany", "OPTION 1", [3, 2])
    [flagged] = [e.args for e in events if e.code == "moderator-flag"
                 and e.args["reason"] in ("option-gift-units-shipped", "option-gift-units-left")]
    assert flagged["reason"] == "option-gift-units-shipped" and flagged["nation"] == "germany"
    assert flagged["details"] == {"place": "Jiaozhou", "to": "china", "port": "Caroline Islands", "units": garrison}
    [sailed] = [e.args for e in events if e.code == "units-withdrawn"]
    assert (sailed["place"], sailed["to"], sailed["units"]) == ("Jiaozhou", "Caroline Islands", garrison)
    assert not new.units_at("Jiaozhou", "germany")
    assert len(new.units_at("Caroline Islands", "germany")) == islands + garrison


def test_the_nearest_port_of_a_garrison_with_no_march_home() -> None:
    """The default's port (engine/option_effects.shipped_to): fewest sea zones, then the
    most valuable land, then by name; none from a land with no coast."""
    from moderator.engine.context import Position
    from moderator.engine.option_effects import shipped_to

    world, scenario = real()
    pos = Position(opening(), {}, world, scenario)
    assert shipped_to(pos, "britain", "Hong Kong") == "Malaya"  # value 3, before British Borneo's 1, one zone away
    assert shipped_to(pos, "france", "Indochina") == "New Caledonia"
    assert shipped_to(pos, "germany", "Jiaozhou") == "Caroline Islands"
    assert shipped_to(pos, "germany", "Switzerland") is None  # no coast: the units stay, flagged


def test_a_ruling_overrides_the_default_for_a_shipped_garrison() -> None:
    """The moderator's answer to `option-gift-units-shipped`: a MOVE ruling sends the units
    elsewhere, a REMOVE ruling interns them (docs/moderating.md, the neutrals' flags)."""
    from moderator.engine.resolve import apply_rulings
    from moderator.orders.checker import check_rulings

    world, scenario = real()
    new, _ = play("germany", "OPTION 1", [3, 2])
    here = len(new.units_at("Caroline Islands", "germany"))
    for text, left, marianas in (("REMOVE 1 inf OF Germany AT Caroline Islands", here - 1, 0),
                                 ("MOVE 1 inf OF Germany FROM Caroline Islands TO Mariana Islands", here - 1, 1)):
        checked = check_rulings(text, new, world, scenario)
        assert [d.render() for d in checked.diagnostics] == []
        after, events = apply_rulings(new, checked.orders, world, scenario, Dice("ruling", 1))
        assert [e.code for e in events] == ["ruling"]
        assert len(after.units_at("Caroline Islands", "germany")) == left
        gained = len(after.units_at("Mariana Islands", "germany")) - len(new.units_at("Mariana Islands", "germany"))
        assert gained == marianas
