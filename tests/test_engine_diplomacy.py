"""The homes of the Phase 1 diplomatic orders (engine/orders/influence, surrender,
declarations, special_options, neutrals, peace, exile): each refusal reason, each cost
charged once when its step runs (the checker's projection and resolve() spend the same),
and the referral to the moderator with its cost (event "order-referred").

Two settings: the hand-built orders fixture (tests/test_orders_world.py: Germany at war
with France and Russia; Britain, Italy, the USA, the Ottomans, Belgium, Switzerland
neutral) and the real 1914 opening (China, Spain, Japan, Hong Kong, ...).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from moderator.engine import points, treasuries
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.checker import check_text
from moderator.orders.parser import parse_orders
from moderator.world.model import World
from moderator.world.scenario_model import Scenario
from tests.test_orders_world import make_scenario, make_state, make_world

Codes = list[tuple[str, str]]


# ---- settings ---------------------------------------------------------------------------
@functools.cache
def real() -> tuple[World, Scenario]:
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    return load_world("1914", strict=False), load_scenario("1914")


def opening(change: Callable[[GameState], None] | None = None) -> GameState:
    from moderator.world.scenario import initial_state

    world, scenario = real()
    state = initial_state(scenario, world, "diplomacy")
    if change is not None:
        change(state)
    return state


def codes(text: str, nation: str = "Germany", state: GameState | None = None) -> Codes:
    """The receipt's (severity, code) pairs on the hand-built fixture."""
    r = check_text(text, nation, state or make_state(), make_world(), make_scenario())
    return [(d.severity, d.code) for d in r.diagnostics]


def codes_1914(text: str, nation: str, state: GameState | None = None) -> Codes:
    world, scenario = real()
    r = check_text(text, nation, state or opening(), world, scenario)
    return [(d.severity, d.code) for d in r.diagnostics]


def errors(found: Codes) -> list[str]:
    return [c for s, c in found if s == "error"]


def run_1914(orders: dict[str, str], state: GameState | None = None) -> tuple[GameState, list[Event]]:
    world, scenario = real()
    parsed = {n: parse_orders(text).orders for n, text in orders.items()}
    return resolve(state or opening(), parsed, world, scenario, Dice("diplomacy", 1))


def run_fixture(orders: dict[str, str], state: GameState | None = None) -> tuple[GameState, list[Event]]:
    parsed = {n: parse_orders(text).orders for n, text in orders.items()}
    return resolve(state or make_state(), parsed, make_world(), make_scenario(), Dice("diplomacy", 1))


def set_flags(nation: str, turn: int | None = None, side: str | None = None, **flags: object) -> Callable[[GameState], None]:
    def change(state: GameState) -> None:
        state.nations[nation].flags.update(flags)
        if side is not None:
            state.nations[nation].side = side
        if turn is not None:
            state.turn = turn
    return change


def referred(events: list[Event], nation: str) -> list[tuple[str, int, str]]:
    return [(e.args["type"], e.args["cost"], e.args["why"]) for e in events
            if e.code == "order-referred" and e.args["nation"] == nation]


def refused(events: list[Event], nation: str) -> list[str]:
    return [e.args["reason"] for e in events if e.code == "order-refused" and e.args["nation"] == nation]


# ---- Phase 1.2: influence ------------------------------------------------------------------
def test_influence_refusals_on_the_fixture() -> None:
    assert codes("INFLUENCE Belgium") == []
    assert errors(codes("INFLUENCE France")) == ["influence-not-neutral"]
    assert errors(codes("INFLUENCE Belgium", "Britain")) == ["influence-neutral"]  # not in the main war
    assert errors(codes("INFLUENCE Ottoman Empire")) == ["influence-barred"]  # enters by its own rules
    assert errors(codes("INFLUENCE Belgium TOWARD Allies")) == ["influence-side"]  # only toward your side
    assert errors(codes("INFLUENCE Belgium\nINFLUENCE Belgium")) == ["influence-twice"]
    at_war = make_state()
    at_war.nations["germany"].at_war_with.append("belgium")
    at_war.nations["belgium"].at_war_with.append("germany")
    assert errors(codes("INFLUENCE Belgium", state=at_war)) == ["influence-enemy"]
    # Italy: influenced as a minor only after the Austrian option #2 case (considered neutral).
    assert errors(codes("INFLUENCE Italy")) == ["influence-italy"]


def test_the_neutral_us_influences_minors_toward_a_side_for_15() -> None:
    # US option #5: "It cost the US 15 resources to attempt this while neutral"; minor nations.
    assert errors(codes("INFLUENCE Belgium", "USA")) == ["influence-side"]
    assert errors(codes("INFLUENCE Ottoman Empire TOWARD Allies", "USA")) == ["influence-minor-only"]
    assert codes("INFLUENCE Belgium TOWARD Allies\nOPTION 5 ON Switzerland TOWARD Allies", "USA") == [
        ("warning", "influence-ten")]
    # 50 saved: three attempts of 15 fit, the fourth does not.
    text = "\n".join(f"INFLUENCE {n} TOWARD Allies" for n in ("Belgium", "Switzerland", "Belgium"))
    assert errors(codes(text, "USA")) == ["influence-twice"]


def test_influence_on_china_spain_and_dominions_in_1914() -> None:
    # China: "At the start of play no nations may attempt to influence China".
    assert errors(codes_1914("INFLUENCE China", "Germany")) == ["influence-not-opened"]
    # ... until the nation gave it a territory by its option (German #1), from the next turn on.
    opened = opening(set_flags("germany", turn=3, options_used={"1": 2}))
    assert codes_1914("INFLUENCE China", "Germany", opened) == []
    same_turn = opening(set_flags("germany", turn=2, options_used={"1": 2}))
    assert errors(codes_1914("INFLUENCE China", "Germany", same_turn)) == ["influence-not-opened"]
    # Spain: "United States cannot influence Spain"; France not under the Spanish Garrison rule.
    assert errors(codes_1914("INFLUENCE Spain TOWARD Allies", "USA")) == ["influence-never"]
    assert errors(codes_1914("INFLUENCE Spain", "France")) == ["influence-garrison"]
    tried = opening(set_flags("france", turn=2, options_used={"1": 1}))  # tried, failed
    assert errors(codes_1914("INFLUENCE Spain", "France", tried)) == ["influence-garrison"]
    voided = opening(set_flags("france", turn=2, options_used={"1": 1}, options_succeeded={"1": 1}))
    assert codes_1914("INFLUENCE Spain", "France", voided) == []  # "on future turns"
    assert codes_1914("INFLUENCE Spain", "Germany") == []
    # Dominions follow the British Empire (Major nations and colonies).
    assert errors(codes_1914("INFLUENCE Canada", "Germany")) == ["influence-barred"]
    assert errors(codes_1914("INFLUENCE Bolsheviks", "Germany")) == ["influence-barred"]  # not on the board


def test_self_influence_by_the_rules_of_each_neutral() -> None:
    assert codes("INFLUENCE SELF TOWARD Allies", "Ottoman Empire") == []
    assert errors(codes("INFLUENCE SELF TOWARD CP", "Ottoman Empire")) == ["influence-side"]
    assert errors(codes("INFLUENCE SELF TOWARD CP")) == ["self-influence"]
    assert errors(codes("INFLUENCE SELF TOWARD CP", "Italy")) == ["self-influence"]  # Italy's section has none
    # Spain and China only once their economy is raised (the gear-up, on an earlier turn).
    assert errors(codes_1914("INFLUENCE SELF TOWARD Allies", "Spain")) == ["self-influence-gear-up"]
    geared = opening(set_flags("spain", turn=2, geared_up=1))
    assert codes_1914("INFLUENCE SELF TOWARD Allies", "Spain", geared) == []
    assert codes_1914("OPTION 2 TOWARD Allies", "Spain", geared) == []  # the same rule as option 2 ...
    assert errors(codes_1914("INFLUENCE SELF TOWARD Allies\nOPTION 2 TOWARD Allies", "Spain", geared)) == [
        "influence-twice"]  # ... and the same attempt of the turn
    china = opening(set_flags("china", turn=2, geared_up=1, side=None))
    assert errors(codes_1914("INFLUENCE SELF", "China", china)) == ["influence-side"]
    joined = opening(set_flags("ottoman", side="central"))
    assert errors(codes_1914("INFLUENCE SELF TOWARD Allies", "Ottoman Empire", joined)) == ["self-influence-joined"]


def test_coax_italy() -> None:
    assert codes("COAX Italy") == []
    assert errors(codes("COAX Italy", "Italy")) == ["coax-not-italy"]
    assert errors(codes("COAX Italy\nCOAX Italy")) == ["coax-twice"]
    joined = make_state()
    joined.nations["italy"].side = "allied"
    assert errors(codes("COAX Italy", state=joined)) == ["coax-not-neutral"]


# ---- Phase 1.3: surrender ----------------------------------------------------------------------
def test_surrender_offers_and_votes() -> None:
    assert codes("OFFER SURRENDER") == []
    assert errors(codes("OFFER SURRENDER TO Belgium")) == ["not-at-war"]
    assert errors(codes("OFFER SURRENDER", "Italy")) == ["surrender-no-war"]
    assert errors(codes("OFFER SURRENDER\nOFFER SURRENDER")) == ["surrender-again"]
    once = make_state()
    once.nations["germany"].flags["surrendered"] = 2
    assert errors(codes("OFFER SURRENDER", state=once)) == ["surrender-twice"]
    # A nation in the main war surrenders to the whole opposing side.
    assert codes("OFFER SURRENDER TO France") == [("warning", "surrender-to-side")]
    assert codes("ACCEPT SURRENDER OF France\nREFUSE SURRENDER OF Russia") == []
    assert errors(codes("ACCEPT SURRENDER OF Austria")) == ["vote-not-enemy"]
    assert errors(codes("ACCEPT SURRENDER OF France\nREFUSE SURRENDER OF France")) == ["vote-twice"]


# ---- Phase 1.4: other declarations ---------------------------------------------------------------
def test_closing_a_passage_needs_its_holder() -> None:
    assert codes("CLOSE Kiel Canal TO France") == []
    assert errors(codes("CLOSE Kiel Canal TO Germany", "France")) == ["passage-not-held"]
    assert errors(codes("CLOSE Kiel Canal TO France\nOPEN Kiel Canal")) == ["passage-twice"]


def test_unrestricted_submarine_warfare_and_its_retraction() -> None:
    assert codes("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Allies") == [("warning", "subs-consequence")]
    assert errors(codes("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Central Powers")) == ["subs-own-side"]
    assert errors(codes("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Austria")) == ["subs-ally"]
    assert errors(codes("RETRACT UNRESTRICTED SUBMARINE WARFARE")) == ["subs-not-declared"]
    waging = make_state()
    waging.nations["germany"].flags["unrestricted_subs"] = "allied"
    assert codes("RETRACT UNRESTRICTED SUBMARINE WARFARE", state=waging) == [("warning", "subs-retract-final")]
    poor = make_state()
    poor.nations["germany"].flags["unrestricted_subs"] = "allied"
    poor.nations["germany"].saved = 24
    assert errors(codes("RETRACT UNRESTRICTED SUBMARINE WARFARE", state=poor)) == ["over-budget"]
    done = make_state()
    done.nations["germany"].flags["unrestricted_subs_retracted"] = 2
    assert errors(codes("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Allies", state=done)) == ["subs-retracted"]


def test_declaring_then_retracting_is_recorded_and_the_retraction_costs_25() -> None:
    new, events = run_fixture({"germany": "DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Allies"})
    assert new.nations["germany"].flags["unrestricted_subs"] == "allied"
    assert referred(events, "germany") == []  # resolved: the damage, the neutrals' row 5, the US trade
    [declared] = [e for e in events if e.code == "submarine-warfare-declared"]
    assert (declared.args["target"], declared.args["retracted"], declared.seen_by) == ("allied", False, ())  # public
    before = new.nations["germany"].saved
    quiet, _ = run_fixture({}, new)
    later, events = run_fixture({"germany": "RETRACT UNRESTRICTED SUBMARINE WARFARE"}, new)
    assert later.nations["germany"].saved == quiet.nations["germany"].saved - 25 and before > 25
    assert "unrestricted_subs" not in later.nations["germany"].flags
    assert later.nations["germany"].flags["unrestricted_subs_retracted"] == new.turn
    assert referred(events, "germany") == []
    [retracted] = [e for e in events if e.code == "submarine-warfare-declared"]
    assert (retracted.args["retracted"], retracted.args["cost"]) == (True, 25)


def test_blockades_need_a_ship_in_the_zones_of_the_phase_1_4_table() -> None:
    assert errors(codes_1914("BLOCKADE Germany", "Britain")) == ["blockade-neutral"]
    assert errors(codes_1914("BLOCKADE Spain", "France")) == ["not-at-war"]
    assert errors(codes_1914("BLOCKADE Germany", "France")) == ["blockade-no-ship"]  # nothing in the Skagerrak
    assert errors(codes_1914("BLOCKADE Serbia", "Germany")) == ["blockade-no-zones"]
    assert errors(codes_1914("BLOCKADE US TRADE TO Serbia", "Germany")) == ["blockade-no-us-trade"]

    def french_ships(state: GameState) -> None:
        state.new_unit("france", "cruiser", "Skagerrak")
        state.new_unit("france", "submarine", "Middle Atlantic")

    ships = opening(french_ships)
    assert codes_1914("BLOCKADE Germany\nBLOCKADE US TRADE TO Germany", "France", ships) == []
    assert errors(codes_1914("BLOCKADE Germany\nBLOCKADE Germany", "France", ships)) == ["blockade-twice"]
    # A submarine cuts US trade (Variable US Trade) but makes no naval blockade (a surface ship does).
    subs_only = opening(lambda s: s.new_unit("germany", "submarine", "Middle Atlantic"))
    assert codes_1914("BLOCKADE US TRADE TO France", "Germany", subs_only) == []
    assert errors(codes_1914("BLOCKADE France", "Germany", subs_only)) == ["blockade-no-ship"]
    # On a map without the table's zones (the fixture) the moderator checks.
    assert codes("BLOCKADE France") == [("flag", "blockade-zones-unknown")]


# ---- Phase 1.5: special options ---------------------------------------------------------------------
def test_option_tables_arguments_and_limits() -> None:
    assert errors(codes("OPTION 1", "Britain")) == ["no-options"]  # "cannot use below options while neutral"
    assert errors(codes("OPTION 9")) == ["unknown-option"]
    assert errors(codes("OPTION 2", "USA")) == ["option-args"]
    assert errors(codes("OPTION 4 FULL WAR")) == ["option-full"]
    assert errors(codes("OPTION 3 TO France 3", "USA")) == ["option-amount"]  # "at least 5"
    assert errors(codes("OPTION 3 TO Belgium 10", "USA")) == ["option-target"]  # "active in the main war"
    assert errors(codes("OPTION 4 TOWARD Allies\nOPTION 4 TOWARD Allies", "USA")) == ["option-twice"]
    supplied = make_state()
    supplied.nations["russia"].flags["options_used"] = {"3": 1}
    assert errors(codes("OPTION 3", "Russia", supplied)) == ["option-once"]
    assert errors(codes("OPTION 3\nOPTION 3", "Russia")) == ["option-once"]  # the second in the same turn too


def test_option_conditions_the_position_settles() -> None:
    # German #6: "once the moderator has begin to roll for the Russian Revolution" (turn 7).
    assert errors(codes_1914("OPTION 6", "Germany")) == ["option-too-early"]
    turn7 = opening(set_flags("germany", turn=7))
    assert codes_1914("OPTION 6", "Germany", turn7) == []
    # British #2 as an Allied Power: gives Hong Kong, held by Britain at start, once.
    allied = opening(set_flags("britain", side="allied"))
    assert codes_1914("OPTION 2", "Britain", allied) == []
    lost = opening(set_flags("britain", side="allied"))
    lost.control["Hong Kong"] = "japan"
    assert errors(codes_1914("OPTION 2", "Britain", lost)) == ["option-holds"]
    # Japan's wars come "the turn following" the gear-up, not the same turn.
    assert errors(codes_1914("GEAR UP\nOPTION 1", "Japan")) == ["option-gear-up"]
    geared = opening(set_flags("japan", turn=2, geared_up=1))
    assert codes_1914("OPTION 1", "Japan", geared) == []
    assert errors(codes_1914("OPTION 4 FULL WAR", "Japan", geared)) == ["option-needs-option"]
    assert errors(codes_1914("OPTION 3", "Japan", geared)) == ["option-war"]  # not at war with the Ottomans
    # Spain declares war on a minor only after boosting its economy, and only on a minor neutral.
    assert errors(codes_1914("OPTION 1 ON Portugal", "Spain")) == ["option-gear-up"]
    boosted = opening(set_flags("spain", turn=2, geared_up=1))
    assert codes_1914("OPTION 1 ON Portugal", "Spain", boosted) == []
    assert errors(codes_1914("OPTION 1 ON Italy", "Spain", boosted)) == ["option-target"]
    # Irish rebellion: Britain an Allied Power and a German submarine in the Irish Sea.
    irish = opening(set_flags("britain", side="allied"))
    assert errors(codes_1914("OPTION 3", "Germany", irish)) == ["option-unit"]
    irish.new_unit("germany", "submarine", "Irish Sea")
    assert codes_1914("OPTION 3", "Germany", irish) == []


def test_gear_up_once_and_only_for_the_neutrals_that_have_one() -> None:
    assert errors(codes("GEAR UP")) == ["no-gear-up"]
    assert codes("GEAR UP", "USA") == []
    assert errors(codes("GEAR UP\nOPTION 1", "USA")) == ["already-geared"]  # US option #1 is the same gear-up
    assert errors(codes_1914("GEAR UP", "Spain")) == ["over-budget"]  # 40, with 10 saved


# ---- JOIN, PEACE, EXILE, neutral declarations of war ---------------------------------------------------
def test_join_peace_and_exile() -> None:
    assert errors(codes("JOIN Allies")) == ["already-joined"]
    assert codes("JOIN Allies", "Italy") == [("error", "join-points")]  # 0 points as the turn begins

    def at_ten(state: GameState) -> None:
        state.nations["italy"].standing = 10

    assert codes_1914("JOIN Allies", "Italy", opening(at_ten)) == []  # Neutrals: 10 points for that side
    assert errors(codes_1914("JOIN Central Powers", "Italy", opening(at_ten))) == ["join-points"]
    assert codes_1914("JOIN Central Powers", "Japan") == []  # "except Japan and British Empire"
    assert codes_1914("JOIN Allies", "Britain") == [("warning", "join-unprovoked")]  # allowed, answered

    def provoked(state: GameState) -> None:  # an entry event of the Allied list (engine/british_entry.py)
        state.nations["britain"].flags["casus_belli"] = {"allied": ["attacked-belgium-or-denmark", 1]}

    assert codes_1914("JOIN Allies", "Britain", opening(provoked)) == []
    assert codes_1914("JOIN Central Powers", "Britain", opening(provoked)) == [("warning", "join-unprovoked")]
    assert errors(codes_1914("JOIN Allies", "Canada")) == ["join-with-parent"]

    def local_war(state: GameState) -> None:
        state.nations["ottoman"].at_war_with.append("greece")
        state.nations["greece"].at_war_with.append("ottoman")

    assert errors(codes_1914("JOIN Central Powers", "Ottoman Empire", opening(local_war))) == ["join-in-local-war"]
    assert errors(codes("PEACE WITH France")) == ["peace-main-war"]
    assert errors(codes("PEACE WITH Belgium")) == ["not-at-war"]
    war = make_state()
    war.nations["germany"].at_war_with.append("belgium")
    war.nations["belgium"].at_war_with.append("germany")
    assert codes("PEACE WITH Belgium", state=war) == []
    assert errors(codes("GOVERNMENT IN EXILE WITH Austria")) == ["exile-not-conquered"]
    assert errors(codes("GOVERNMENT IN EXILE WITH France")) == ["exile-host"]
    conquered = make_state()
    for place, holder in list(conquered.control.items()):
        if holder == "germany":
            conquered.control[place] = "france"
    assert codes("GOVERNMENT IN EXILE WITH Austria", state=conquered) == []

    def red_ally(state: GameState) -> None:  # found by the bots: the Bolsheviks hold no land of their own
        state.nations["bolsheviks"].side = state.nations["germany"].side = "central"

    assert errors(codes_1914("GOVERNMENT IN EXILE WITH Germany", "Bolsheviks", opening(red_ally))) == ["exile-no-homeland"]


def test_a_neutral_britain_declares_no_war_on_a_neutral() -> None:
    assert errors(codes("DECLARE WAR ON Belgium", "Britain")) == ["war-neutral-on-neutral"]
    assert codes("DECLARE WAR ON Germany", "Britain") == [("warning", "join-unprovoked")]  # its entry
    assert codes("DECLARE WAR ON Belgium", "Italy") == [("flag", "war-by-neutral")]  # a local war


# ---- costs: charged once, when the step runs, the same in the checker and the engine ----------------------
PHASE1 = "INFLUENCE Belgium\nCOAX Italy\nOPTION 4\nDECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Allies"
PHASE1_COST = 10 + 20 + 15  # influence, coax, the Zimmerman note; the declaration is free


def test_the_checker_projection_spends_what_the_engine_charges() -> None:
    # Germany has 100: Phase 1 leaves 55, exactly eleven infantry in Phase 3.1.
    fits = codes(PHASE1 + "\nBUILD 11 inf AT Berlin")
    assert [c for _, c in fits] == ["subs-consequence"]
    assert ("warning", "build-cut") in codes(PHASE1 + "\nBUILD 12 inf AT Berlin")
    quiet, _ = run_fixture({})
    new, events = run_fixture({"germany": PHASE1 + "\nBUILD 11 inf AT Berlin"})
    assert new.nations["germany"].saved == quiet.nations["germany"].saved - PHASE1_COST - 55
    assert refused(events, "germany") == []


def test_a_referred_order_is_charged_once_and_reported_with_its_cost() -> None:
    quiet, _ = run_fixture({})
    new, events = run_fixture({"germany": PHASE1})
    assert new.nations["germany"].saved == quiet.nations["germany"].saved - PHASE1_COST
    assert referred(events, "germany") == []  # every one of them resolved
    # The Zimmerman note (German #4) is resolved: Germany learns what it did and its cost.
    [note] = [e for e in events if e.code == "option-outcome"]
    assert (note.args["number"], note.args["cost"], note.phase) == (4, 15, "1.5")
    # The influence attempt is resolved (Phase 1.2): Germany learns whether, never the points.
    attempts = [e for e in events if e.code == "influence-attempt"]  # COAX Italy is one too
    assert [e.args["target"] for e in attempts] == ["belgium", "italy"]
    assert attempts[0].seen_by == ("germany", "moderator")
    # "Italy gets to keep the 20 resources": at once.
    assert new.nations["italy"].saved == quiet.nations["italy"].saved + 20
    assert any(e.code == "gift" and e.args == {"giver": "germany", "receiver": "italy", "sent": 20, "arrived": 20}
               for e in events)


def test_the_engine_refuses_what_the_treasury_no_longer_covers_at_that_step() -> None:
    poor = make_state()
    poor.nations["germany"].saved = 24
    # The influence (10, Phase 1.2) is paid first though written last: 14 are left for the
    # Zimmerman note (15, Phase 1.5).
    new, events = run_fixture({"germany": "OPTION 4\nINFLUENCE Belgium"}, poor)
    assert referred(events, "germany") == []
    assert [e.args["target"] for e in events if e.code == "influence-attempt"] == ["belgium"]
    assert refused(events, "germany") == ["over-budget"]
    assert new.nations["germany"].saved == run_fixture({}, poor)[0].nations["germany"].saved - 10


def test_options_pay_the_receivers_the_rules_name_at_once() -> None:
    quiet, _ = run_fixture({})
    # French #2: 5, and the amount arrives at full value in Russia.
    new, events = run_fixture({"france": "OPTION 2 20"})
    assert new.nations["france"].saved == quiet.nations["france"].saved - 25
    assert new.nations["russia"].saved == quiet.nations["russia"].saved + 20
    assert referred(events, "france") == []  # nothing left to roll: resolved
    [told] = [e for e in events if e.code == "option-outcome"]
    assert (told.args["number"], told.args["outcome"], told.args["cost"]) == (2, "delivered", 25)
    # German #6 from turn 7: the 12 "are kept by Bolshevik player".
    turn7 = opening(set_flags("germany", turn=7))
    base, _ = run_1914({}, turn7)
    after, events = run_1914({"germany": "OPTION 6"}, opening(set_flags("germany", turn=7)))
    assert after.nations["germany"].saved == base.nations["germany"].saved - 12
    assert after.nations["bolsheviks"].saved == base.nations["bolsheviks"].saved + 12
    assert after.nations["germany"].flags["options_used"] == {"6": 7}
    assert referred(events, "germany") == []


def test_russia_properly_supplying_its_army_pays_6_for_infantry_from_the_turn_it_plays_it() -> None:
    base, _ = run_1914({"russia": "BUILD 2 inf AT Moscow"})
    after, events = run_1914({"russia": "OPTION 3\nBUILD 2 inf AT Moscow"})
    assert after.nations["russia"].saved == base.nations["russia"].saved - 2 * 1  # 6 each, not 5
    assert referred(events, "russia") == []
    assert [e.args["outcome"] for e in events if e.code == "option-outcome"] == ["adopted"]
    later, _ = run_1914({"russia": "BUILD 1 inf AT Moscow"}, after)
    again, _ = run_1914({}, after)
    assert later.nations["russia"].saved == again.nations["russia"].saved - 6  # "for the remainder of the war"


def test_gear_up_is_recorded_for_the_turns_that_follow() -> None:
    new, events = run_1914({"japan": "GEAR UP"})
    assert new.nations["japan"].flags["geared_up"] == 1
    assert referred(events, "japan") == []  # resolved: paid, and the income rule raised at once
    apart = sum(new.nations["japan"].flags[treasuries.HELD].values())  # Kyushu, Korea, ...: 3.1
    assert new.nations["japan"].income_rule == "fixed:30" and new.nations["japan"].saved + apart == 25 - 25 + 30
    world, scenario = real()
    r = check_text("OPTION 1", "Japan", new, world, scenario)  # turn 2: the turn following
    assert not [d for d in r.diagnostics if d.severity == "error"]
    again = check_text("GEAR UP", "Japan", new, world, scenario)
    assert [d.code for d in again.diagnostics] == ["already-geared"]


def test_the_engine_refuses_with_the_rules_reason() -> None:
    _, events = run_1914({"germany": "INFLUENCE China\nOPTION 6", "britain": "DECLARE WAR ON Belgium"})
    assert refused(events, "germany") == ["influence-not-opened", "option-too-early"]
    assert refused(events, "britain") == ["war-neutral-on-neutral"]
    assert referred(events, "germany") == []


# ---- the readings of the Phase 1 homes (docs/rules-coverage.md, "Readings of ambiguous rules") ----------
def saving(nation: str, amount: int, turn: int | None = None, **flags: object) -> Callable[[GameState], None]:
    def change(state: GameState) -> None:
        state.nations[nation].saved = amount
        state.nations[nation].flags.update(flags)
        if turn is not None:
            state.turn = turn
    return change


def test_only_spain_and_an_opened_china_take_plain_influence_among_the_major_neutrals() -> None:
    # Austria-Hungary is at war with none of them in 1914 (Germany is at war with Japan).
    for major in ("Ottoman Empire", "Japan", "USA", "Britain"):
        assert errors(codes_1914(f"INFLUENCE {major}", "Austria-Hungary")) == ["influence-barred"], major
    assert codes_1914("INFLUENCE Spain", "Austria-Hungary") == []
    assert errors(codes_1914("INFLUENCE Italy", "Austria-Hungary")) == ["influence-italy"]


def test_italy_considered_neutral_by_the_austrian_option_2_is_influenced_as_a_minor() -> None:
    """Austro-Hungarian option #2: "in that case, if isuccessful, then Italy is considered
    neutral and can be influenced as any other minor neutral". The option's home records
    the case (Italy's flags["considered_neutral"], the turn); from then on an attempt on
    Italy is an ordinary one (10, 9-10 on a D10, 0-8 points toward the influencer's side),
    resolved by the engine, never referred; before it, the checker refuses it."""
    from moderator.engine.orders.influence import CONSIDERED_NEUTRAL

    assert errors(codes_1914("INFLUENCE Italy", "Germany")) == ["influence-italy"]
    case = opening(set_flags("italy", turn=2, **{CONSIDERED_NEUTRAL: 1}))
    assert codes_1914("INFLUENCE Italy", "Germany", case) == []
    assert codes_1914("INFLUENCE Italy", "France", case) == []
    assert errors(codes_1914("INFLUENCE Italy\nINFLUENCE Italy", "Germany", case)) == ["influence-twice"]
    world, scenario = real()
    orders = {"germany": parse_orders("INFLUENCE Italy").orders}
    quiet, _ = resolve(case, {}, world, scenario, Dice("italy-case", 1))
    outcomes: list[tuple[bool, int]] = []
    for seed in range(40):
        new, events = resolve(case, orders, world, scenario, Dice("italy-case", seed))
        assert referred(events, "germany") == []
        assert new.nations["germany"].saved == quiet.nations["germany"].saved - 10
        [attempt] = [e for e in events if e.code == "influence-attempt" and e.args["target"] == "italy"]
        moved = sum(e.args["change"] for e in events
                    if e.code == "points" and e.args["nation"] == "italy" and e.args["why"] == "influence")
        outcomes.append((attempt.args["success"], moved))
    assert all(moved == 0 for success, moved in outcomes if not success)
    assert any(success for success, _ in outcomes)  # 2 in 10: seen in 40 seeds
    assert all(-8 <= moved <= 0 for success, moved in outcomes if success)  # 0-8 toward the Central Powers
    assert any(moved < 0 for _, moved in outcomes)


def test_any_nation_in_the_main_war_may_influence_minors_included() -> None:
    serbia = opening(saving("serbia", 20))
    assert codes_1914("INFLUENCE Greece", "Serbia", serbia) == []
    assert errors(codes_1914("INFLUENCE Greece", "Bulgaria")) == ["influence-neutral"]


def test_china_raises_its_economy_before_it_influences_itself() -> None:
    assert errors(codes_1914("INFLUENCE SELF TOWARD Allies", "China")) == ["self-influence-gear-up"]
    # The gear-up is Phase 1.5, after the influence of 1.2: never the same turn.
    assert errors(codes_1914("GEAR UP\nINFLUENCE SELF TOWARD Allies", "China")) == ["self-influence-gear-up"]
    geared = opening(set_flags("china", turn=2, geared_up=1))
    assert codes_1914("INFLUENCE SELF TOWARD Allies", "China", geared) == []


def test_italy_has_no_self_influence_its_italian_influence_is_the_coaxing_of_others() -> None:
    """Austro-Hungarian option #2's "Italian influence (option 2 at Italian option list)" is
    read as other nations' coaxing of Italy, not Italy's own act: "if Allied Powers succeed
    once to do the former", and the coaxing's block makes Italy "leaning twice toward that
    side". Italy's section lists no self-influence (the Ottomans', Spain's and China's do).
    So Italy's INFLUENCE SELF and an OPTION 2 are refused with the reason, charged nothing,
    and no flag reaches the moderator; COAX stays open to every other nation."""
    for text in ("INFLUENCE SELF TOWARD Allies", "INFLUENCE SELF TOWARD CP"):
        [(severity, code)] = codes_1914(text, "Italy")
        assert (severity, code) == ("error", "self-influence"), text
    world, scenario = real()
    [refusal] = check_text("INFLUENCE SELF TOWARD Allies", "Italy", opening(), world, scenario).diagnostics
    assert "coaxing of Italy" in refusal.message and "Austro-Hungarian option #2" in refusal.message
    [spain] = check_text("INFLUENCE SELF TOWARD Allies", "Spain", opening(), world, scenario).diagnostics
    assert "coaxing" not in spain.message  # only Italy is told about the coaxing
    assert errors(codes_1914("OPTION 2 TOWARD Allies", "Italy")) == ["no-options"]
    assert codes_1914("COAX Italy", "France") == [] and codes_1914("COAX Italy", "Germany") == []
    quiet, _ = run_1914({})
    new, events = run_1914({"italy": "INFLUENCE SELF TOWARD Allies"})
    assert not [e for e in events if e.code == "influence-attempt" and e.args["target"] == "italy"]
    assert not [e for e in events if e.code == "moderator-flag"
                and e.args["reason"] in ("self-influence-default", "review")]
    assert new.nations["italy"].saved == quiet.nations["italy"].saved  # refused: nothing paid


def test_us_option_2_accepts_a_gear_up_earlier_in_the_same_turn() -> None:
    rich = opening(saving("usa", 60))
    assert codes_1914("GEAR UP\nOPTION 2 ON Mexico", "USA", rich) == []
    assert errors(codes_1914("OPTION 2 ON Mexico\nGEAR UP", "USA", rich)) == ["option-gear-up"]


def test_per_turn_limits_of_the_declarations_join_peace_and_exile() -> None:
    # Declaring and retracting unrestricted submarine warfare are one declaration a turn.
    assert errors(codes("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Allies\n"
                        "RETRACT UNRESTRICTED SUBMARINE WARFARE")) == ["subs-twice"]
    ready = make_state()
    ready.nations["italy"].standing = 10
    assert errors(codes("JOIN Allies\nJOIN Allies", "Italy", state=ready)) == ["already-joined"]  # the first joined
    war = make_state()
    war.nations["germany"].at_war_with.append("belgium")
    war.nations["belgium"].at_war_with.append("germany")
    assert errors(codes("PEACE WITH Belgium\nPEACE WITH Belgium", state=war)) == ["peace-twice"]
    conquered = make_state()
    for place, holder in list(conquered.control.items()):
        if holder == "germany":
            conquered.control[place] = "france"
    assert errors(codes("GOVERNMENT IN EXILE WITH Austria\nGOVERNMENT IN EXILE WITH Austria",
                        state=conquered)) == ["exile-already"]  # the first made the exile


def test_options_without_a_stated_limit_may_be_used_twice_and_the_once_options_once() -> None:
    allied = opening(saving("britain", 40))
    allied.nations["britain"].side = "allied"
    assert codes_1914("OPTION 3\nOPTION 3", "Britain", allied) == []  # British #3: no limit
    used = opening(saving("germany", 30, turn=3, options_used={"1": 2}))
    assert errors(codes_1914("OPTION 1", "Germany", used)) == ["option-once"]  # German #1: "only once"
    fiasco = opening(saving("britain", 40, turn=3, options_used={"1": 2}))
    fiasco.nations["britain"].side = "allied"
    assert errors(codes_1914("OPTION 1", "Britain", fiasco)) == ["option-once"]  # British #1


def test_a_china_option_pays_china_10_and_serbia_takes_the_austrian_25_with_the_peace() -> None:
    quiet, _ = run_1914({})
    new, events = run_1914({"germany": "OPTION 1"})
    # German #1 gives Jiaozhou back to China: its income goes with it in this turn's Phase 8
    # (the income a colony cut off from Germany keeps there: 3.1, engine/treasuries.py).
    jiaozhou = real()[0].territories["Jiaozhou"].value
    assert quiet.nations["germany"].flags[treasuries.HELD]["Jiaozhou"] == jiaozhou
    assert "Jiaozhou" not in new.nations["germany"].flags[treasuries.HELD]
    assert new.nations["germany"].saved == quiet.nations["germany"].saved - 10
    assert new.nations["china"].saved == quiet.nations["china"].saved + 10
    assert new.control["Jiaozhou"] == "china" and new.incorporated["Jiaozhou"] == 1
    rich = saving("austria-hungary", 40)
    base, _ = run_1914({}, opening(rich))
    after, events = run_1914({"austria-hungary": "OPTION 1"}, opening(rich))
    assert referred(events, "austria-hungary") == []  # rolled: 50/50 (engine/option_effects.py)
    [outcome] = [e.args["outcome"] for e in events if e.code == "option-outcome"]
    assert ("serbia" in after.nations["austria-hungary"].at_war_with) == (outcome != "success")
    assert after.nations["austria-hungary"].saved == base.nations["austria-hungary"].saved - 25  # spent either way
    received = 25 if outcome == "success" else 0  # Serbia's with the treaty only (reading)
    assert after.nations["serbia"].saved == base.nations["serbia"].saved + received
    assert codes_1914("OPTION 1", "Austria-Hungary", opening(rich)) == []  # no flag: the engine judges it all


def test_a_naval_blockade_counts_transports_and_a_us_trade_blockade_submarines() -> None:
    transport = opening(lambda s: s.new_unit("germany", "transport", "Middle Atlantic"))
    assert codes_1914("BLOCKADE France", "Germany", transport) == []
    assert errors(codes_1914("BLOCKADE US TRADE TO France", "Germany", transport)) == ["blockade-no-ship"]
    # One ship in any one zone of the row (Britain: North Sea or Middle Atlantic).
    one_zone = opening(lambda s: s.new_unit("germany", "cruiser", "Middle Atlantic"))
    one_zone.nations["britain"].side = "allied"
    for a, b in (("germany", "britain"), ("britain", "germany")):
        one_zone.nations[a].at_war_with.append(b)
    assert codes_1914("BLOCKADE Britain\nBLOCKADE US TRADE TO Britain", "Germany", one_zone) == []


def test_unrestricted_submarine_warfare_may_name_an_enemy_nation_but_not_oneself() -> None:
    assert codes("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST France") == [("warning", "subs-consequence")]
    assert errors(codes("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Germany")) == ["subs-ally"]


def test_a_surrender_vote_on_an_enemy_or_on_the_opposing_side_of_the_main_war() -> None:
    state = opening()
    state.nations["britain"].side = "allied"  # on the Allied side, not (yet) at war with Germany
    assert codes_1914("ACCEPT SURRENDER OF Britain", "Germany", state) == []
    assert codes_1914("REFUSE SURRENDER OF Japan", "Germany") == []  # at war, though Japan is neutral
    assert errors(codes_1914("REFUSE SURRENDER OF Japan", "Austria-Hungary")) == ["vote-not-enemy"]
    assert codes_1914("OFFER SURRENDER TO Russia", "Austria-Hungary") == [("warning", "surrender-to-side")]


def test_only_a_neutral_britain_is_barred_from_war_on_neutrals_and_dominions_not_alone() -> None:
    allied = opening()
    allied.nations["britain"].side = "allied"
    assert codes_1914("DECLARE WAR ON Netherlands", "Britain", allied) == []
    # "Canada and Australia cannot declare war to any minor neutral alone" (Major nations and colonies)
    assert errors(codes_1914("DECLARE WAR ON Netherlands", "Canada")) == ["war-not-alone"]
    assert errors(codes_1914("DECLARE WAR ON Netherlands", "Australia")) == ["war-not-alone"]
    beside = opening()
    beside.nations["britain"].at_war_with = ["netherlands"]
    beside.nations["netherlands"].at_war_with = ["britain"]
    assert codes_1914("DECLARE WAR ON Netherlands", "Canada", beside) == [("flag", "war-by-neutral")]
    assert codes_1914("DECLARE WAR ON Netherlands", "India") == [("flag", "war-by-neutral")]  # not named


def test_what_the_rules_decide_of_a_neutral_declaration_and_what_the_moderator_does() -> None:
    """Phase 1.1 with the neutrals' sections: Spain's and the neutral USA's wars are their
    options; China's limited wars on the four majors come after its gear-up, a bordering
    minor "freely"; the Ottomans and Italy "may opt to declare war on neutral minor nations
    and neutral major nations". The flag stays only where the moderator acts: a minor
    neutral attacked ("moderator should fill the position from replacement list")."""
    assert errors(codes_1914("DECLARE WAR ON Portugal", "Spain")) == ["war-by-option"]
    assert errors(codes_1914("DECLARE WAR ON Italy", "Spain")) == ["war-by-option"]
    assert errors(codes_1914("DECLARE WAR ON Mexico", "USA")) == ["war-by-option"]
    world, scenario = real()
    [us] = check_text("DECLARE WAR ON Mexico", "USA", opening(), world, scenario).diagnostics
    assert "#2 (OPTION 2 ON" in us.message
    [spain] = check_text("DECLARE WAR ON Germany", "Spain", opening(), world, scenario).diagnostics
    assert "#1 or #3, or by joining" in spain.message  # no option names a nation at war
    assert errors(codes_1914("DECLARE WAR ON Germany", "China")) == ["war-limited-gear-up"]
    assert errors(codes_1914("GEAR UP\nDECLARE WAR ON Russia", "China")) == ["war-limited-gear-up"]  # 1.5 after 1.1
    geared = opening(set_flags("china", turn=2, geared_up=1))
    assert codes_1914("DECLARE WAR ON Germany", "China", geared) == []  # a limited war: no flag
    assert codes_1914("DECLARE WAR ON Mongolia", "China") == [("flag", "war-by-neutral")]  # freely: no gear-up
    assert codes_1914("DECLARE WAR ON Spain", "Italy") == []  # two players' nations: the tables answer it
    assert codes_1914("DECLARE WAR ON Italy", "Ottoman Empire") == []
    assert codes_1914("DECLARE WAR ON Greece", "Ottoman Empire") == [("flag", "war-by-neutral")]
    assert codes_1914("DECLARE WAR ON Russia", "Japan") == []  # a full war (the US Entry's event 4)
    joined = opening(set_flags("spain", side="allied"))
    assert errors(codes_1914("DECLARE WAR ON Portugal", "Spain", joined)) == []  # in the main war: any nation
    # The engine carries out what the checker keeps, and nothing of what it refuses.
    new, events = run_1914({"spain": "DECLARE WAR ON Portugal", "italy": "DECLARE WAR ON Spain"})
    assert "portugal" not in new.nations["spain"].at_war_with
    assert "spain" in new.nations["italy"].at_war_with and new.nations["spain"].side == "neutral"
    assert not [e for e in events if e.code == "moderator-flag"]  # a war of two players' nations
    # The moderator's queue gets the attacked minor (the receipt's flag alone never reaches it).
    _, events = run_1914({"ottoman": "DECLARE WAR ON Greece"})
    [flagged] = [e for e in events if e.code == "moderator-flag"]
    assert flagged.args["reason"] == "war-by-neutral" and flagged.args["nation"] == "greece"
    assert flagged.args["details"] == {"attacker": "ottoman", "target": "greece"}


def test_a_non_player_minor_attacked_into_the_main_war_asks_for_a_player_from_the_pool() -> None:
    """Replacement Pool: "If minor neutral joins the main war ... the side with vacant
    position can pick the player from the list"; Phase 8 note: the moderator defends a
    non-player minor and "When they join the main war ... [it] would be replaced with human
    player". The attacked minor joins at once and the moderator is flagged, declared or not."""
    new, events = run_1914({"germany": "DECLARE WAR ON Belgium"})
    assert new.nations["belgium"].side == "allied"
    [flagged] = [e for e in events if e.code == "moderator-flag"]
    assert flagged.args["reason"] == "minor-attacked-replacement-pool" and flagged.args["nation"] == "belgium"
    assert flagged.args["details"] == {"attacker": "germany", "side": "allied"} and flagged.seen_by == ("moderator",)
    # A player seated on it (SET FLAG player OF Belgium TO 1): its own player commands it, no question.
    seated = opening(lambda state: state.nations["belgium"].flags.update(player=1))
    new, events = run_1914({"germany": "DECLARE WAR ON Belgium"}, seated)
    assert new.nations["belgium"].side == "allied" and not [e for e in events if e.code == "moderator-flag"]
    # A playable minor (Serbia's seat is taken from the start) is never the pool's.
    world, scenario = real()
    assert not points.seatless(TurnContext(opening(), {}, world, scenario, dice_root=Dice("x", 1)), "serbia")


def test_allied_france_and_spain_keep_apart_while_the_garrison_rule_stands() -> None:
    """French option #1: "If France and Spain are allied by other means and Spanish
    Garrison rule still exists, then they cannot share the same provinces or waters. Any
    such attempt will end in combat, although they won't change affiliation." Reading
    (engine/garrison_apart.py): the attempt is refused (`garrison-apart`), on land and at sea."""
    allied = opening(set_flags("spain", side="allied"))
    assert errors(codes_1914("MOVE 1 inf FROM Toulouse TO Barcelona", "France", allied)) == ["garrison-apart"]
    assert errors(codes_1914("MOVE 1 inf FROM Zaragoza TO Toulouse", "Spain", allied)) == ["garrison-apart"]
    # Waters: a Spanish cruiser and transport stand in the Western Mediterranean. (In the Bay of Biscay a
    # French and a Spanish cruiser stand together from the start: left as they are.)
    fleet = "TF 1 AT Gulf of Lyon: 1 cruiser\nTF 1 PATROL TO Western Mediterranean"
    assert errors(codes_1914(fleet, "France", allied)) == ["garrison-apart"]
    assert errors(codes_1914("MOVE 1 inf FROM Toulouse TO Marseille", "France", allied)) == []  # its own land
    # The engine refuses it the same way, and nobody fights.
    new, events = run_1914({"france": "MOVE 1 inf FROM Toulouse TO Barcelona"}, allied)
    assert [e.args["reason"] for e in events if e.code == "order-refused"] == ["garrison-apart"]
    assert not new.units_at("Barcelona", "france") and new.nations["spain"].side == "allied"
    # French option #1's success voids the rule from the next turn; not allied: not this rule.
    voided = opening(set_flags("france", turn=3, options_succeeded={"1": 2}))
    set_flags("spain", side="allied")(voided)
    assert errors(codes_1914("MOVE 1 inf FROM Toulouse TO Barcelona", "France", voided)) == []
    same_turn = opening(set_flags("france", turn=2, options_succeeded={"1": 2}))
    set_flags("spain", side="allied")(same_turn)
    assert errors(codes_1914("MOVE 1 inf FROM Toulouse TO Barcelona", "France", same_turn)) == ["garrison-apart"]
    assert "garrison-apart" not in errors(codes_1914("MOVE 1 inf FROM Toulouse TO Barcelona", "France"))


def test_allied_france_and_spain_found_together_at_the_end_of_a_turn_are_flagged() -> None:
    """French option #1: "they cannot share the same provinces or waters. Any such attempt
    will end in combat". What the refusals cannot foresee (units together when the two
    became allies, two moves of one turn into one empty zone) is flagged at the end of the
    turn for the moderator (`garrison-together`, reading 32); they stay by default."""
    def together(events: list[Event]) -> list[str]:
        return [e.args["details"]["place"] for e in events
                if e.code == "moderator-flag" and e.args["reason"] == "garrison-together"]

    allied = opening(set_flags("spain", side="allied"))
    _, events = run_1914({}, allied)  # French and Spanish ships share two zones from the start
    assert together(events) == ["Bay of Biscay", "Western Mediterranean"]
    both = {n: "TF 1 AT Bay of Biscay: 1 cruiser\nTF 1 MOVE TO Southern Atlantic" for n in ("france", "spain")}
    new, events = run_1914(both, allied)
    assert not [e for e in events if e.code == "order-refused"]
    assert new.units_at("Southern Atlantic", "france") and new.units_at("Southern Atlantic", "spain")
    assert together(events) == ["Southern Atlantic", "Western Mediterranean"]
    _, events = run_1914(both)  # Spain neutral: not this rule
    assert together(events) == []


def test_china_declares_war_only_on_its_four_majors_and_on_minor_neutrals_it_borders() -> None:
    """China: "China can enter into limited wars with Germany, Britain, France, and/or
    Russia or with adjacent minor neutrals ... China may also freely declare war on any
    minor neutral nation which it shares a border with." Read as the whole list of China's
    wars while neutral; the border is land next to land, as both hold it now."""
    for minor in ("Mongolia", "Tibet", "Afghanistan"):  # China's land touches theirs in 1914
        assert codes_1914(f"DECLARE WAR ON {minor}", "China") == [("flag", "war-by-neutral")], minor
    for distant in ("Siam", "Persia", "Greece", "Netherlands"):
        assert errors(codes_1914(f"DECLARE WAR ON {distant}", "China")) == ["war-not-listed"], distant
    for other in ("Japan", "Ottoman Empire", "USA"):  # neutrals, not among its limited wars
        assert errors(codes_1914(f"DECLARE WAR ON {other}", "China")) == ["war-not-listed"], other
    # A camp's member outside the four: the Neutrals' 10 points decide (see the next test).
    assert errors(codes_1914("DECLARE WAR ON Austria-Hungary", "China")) == ["war-camp-before-ten"]
    world, scenario = real()
    [why] = check_text("DECLARE WAR ON Siam", "China", opening(), world, scenario).diagnostics
    assert "(now Emirate of Afghanistan, Bogd Khanate of Mongolia, Tibet); Kingdom of Siam is a minor neutral it does not border" in why.message
    # Indochina given to China (French option 4) borders Siam: now China's neighbour.
    indochina = opening(lambda s: s.control.__setitem__("Indochina", "china"))
    assert codes_1914("DECLARE WAR ON Siam", "China", indochina) == [("flag", "war-by-neutral")]
    # Once at war, or in the main war, the bar is gone; other nations are not barred by it.
    joined = opening(set_flags("china", side="allied"))
    assert errors(codes_1914("DECLARE WAR ON Siam", "China", joined)) == []
    assert codes_1914("DECLARE WAR ON Greece", "Ottoman Empire") == [("flag", "war-by-neutral")]
    # The engine refuses it too, with the same reason, and no war begins.
    new, events = run_1914({"china": "DECLARE WAR ON Siam"})
    assert "siam" not in new.nations["china"].at_war_with and refused(events, "china") == ["war-not-listed"]
    new, _ = run_1914({"china": "DECLARE WAR ON Tibet"})
    assert "tibet" in new.nations["china"].at_war_with


def test_a_neutral_declares_war_on_the_main_wars_camps_only_with_its_10_points() -> None:
    """Neutrals: "All neutrals, except Japan and British Empire, must collect 10 points for
    one side or another to be able to declare themselves as a member ... and to declare war
    against oposite camp"; the Ottomans and Italy "may opt to declare war on neutral minor
    and neutral major nations". The points as the turn began, as for JOIN (reading 31:
    the JOIN in the same mail makes it a member)."""
    for nation, target in (("Ottoman Empire", "Russia"), ("Italy", "Austria-Hungary"), ("Italy", "France"),
                           ("Netherlands", "Germany"), ("Persia", "Russia"), ("Canada", "Germany")):
        assert errors(codes_1914(f"DECLARE WAR ON {target}", nation)) == ["war-camp-before-ten"], (nation, target)
    world, scenario = real()
    [why] = check_text("DECLARE WAR ON Russia", "Ottoman Empire", opening(), world, scenario).diagnostics
    assert "one of the Allied Powers" in why.message and "10 points for the other camp" in why.message
    allied = opening(lambda s: setattr(s.nations["italy"], "standing", 10))
    assert errors(codes_1914("DECLARE WAR ON Austria-Hungary\nJOIN Allies", "Italy", allied)) == []
    assert errors(codes_1914("DECLARE WAR ON France", "Italy", allied)) == ["war-camp-before-ten"]  # its own camp-to-be
    spain = opening(lambda s: setattr(s.nations["spain"], "standing", 10))  # its entry: no option needed
    assert errors(codes_1914("DECLARE WAR ON Germany\nJOIN Allies", "Spain", spain)) == []
    assert errors(codes_1914("DECLARE WAR ON Portugal", "Spain", spain)) == ["war-by-option"]  # a neutral still
    central = opening(lambda s: setattr(s.nations["china"], "standing", -10))
    assert errors(codes_1914("DECLARE WAR ON France\nJOIN Central Powers", "China", central)) == []
    assert errors(codes_1914("DECLARE WAR ON Italy", "Ottoman Empire")) == []  # a neutral major: its section's
    assert codes_1914("DECLARE WAR ON Russia", "Japan") == []  # "except Japan and British Empire"
    assert codes_1914("DECLARE WAR ON Germany", "Britain") == [("warning", "join-unprovoked")]  # its entry
    geared = opening(set_flags("china", turn=2, geared_up=1))
    assert codes_1914("DECLARE WAR ON Germany", "China", geared) == []  # a limited war of its section
    # The engine refuses it too: the Ottomans stay at peace with Russia.
    new, events = run_1914({"ottoman": "DECLARE WAR ON Russia"})
    assert "russia" not in new.nations["ottoman"].at_war_with and refused(events, "ottoman") == ["war-camp-before-ten"]


def test_the_war_options_of_japan_and_spain_declare_their_wars() -> None:
    japan = opening(set_flags("japan", turn=2, geared_up=1))
    new, events = run_1914({"japan": "OPTION 1"}, japan)
    assert referred(events, "japan") == []  # engine/japan.py: the war, and its 10 a turn in Phase 8
    assert "ottoman" in new.nations["japan"].at_war_with
    assert any(e.code == "war-declared" and e.args["target"] == "ottoman" and not e.seen_by for e in events)
    spain = opening(set_flags("spain", turn=2, geared_up=1))
    new, events = run_1914({"spain": "OPTION 1 ON Portugal"}, spain)
    assert referred(events, "spain") == []  # Spain 1: the war at once
    assert "portugal" in new.nations["spain"].at_war_with
    new, events = run_1914({"spain": "OPTION 3 ON Italy"}, spain)  # 1-2 on a D10
    [outcome] = [e.args["outcome"] for e in events if e.code == "option-outcome"]
    assert referred(events, "spain") == [] and ("italy" in new.nations["spain"].at_war_with) == (outcome == "success")
    locked = opening(set_flags("spain", turn=2, geared_up=1, reached_ten=1))
    new, events = run_1914({"spain": "OPTION 1 ON Portugal"}, locked)
    assert "portugal" not in new.nations["spain"].at_war_with  # "cannot declare new war against neutrals"
    usa = opening(saving("usa", 40, turn=2, geared_up=1))
    new, events = run_1914({"usa": "OPTION 2 ON Mexico"}, usa)
    assert referred(events, "usa") == []  # US #2 is the Congress vote, rolled (engine/option_effects.py)
    [outcome] = [e.args["outcome"] for e in events if e.code == "option-outcome"]
    assert ("mexico" in new.nations["usa"].at_war_with) == (outcome == "success")


def test_an_attack_without_a_declaration_is_barred_where_the_declaration_would_be() -> None:
    """Phase 1.1: "For any nation the player intends to attack this turn, if the player is
    not yet at war with that nation, then they must declare war on them", so an undeclared
    attack is a declaration and meets the same refusals (declare_war.attack_barred asks
    war_problem, DECLARE WAR's own bars): Spain's and the neutral USA's options, Canada and
    Australia not alone on a minor, China's limited war after its gear-up; the checker and
    the engine alike (tests/test_drift.py holds both to the same reason)."""
    assert errors(codes_1914("MOVE 1 inf FROM Madrid TO Lisbon", "Spain")) == ["war-by-option"]
    assert errors(codes_1914("MOVE 1 inf FROM LA TO Northern Mexico", "USA")) == ["war-by-option"]
    assert errors(codes_1914("MOVE 1 inf FROM Shandong TO Jiaozhou", "China")) == ["war-limited-gear-up"]
    # A landing from the sea is an attack too (INVADE reads the same rule before its loading).
    assert errors(codes_1914("INVADE 1 inf FROM Gulf of Mexico TO Northern Mexico", "USA")) == ["war-by-option"]
    geared = opening(set_flags("china", turn=2, geared_up=1))
    assert "war-limited-gear-up" not in errors(codes_1914("MOVE 1 inf FROM Shandong TO Jiaozhou", "China", geared))
    joined = opening(set_flags("spain", side="allied"))
    assert "war-by-option" not in errors(codes_1914("MOVE 1 inf FROM Madrid TO Lisbon", "Spain", joined))
    # Canada beside a minor neutral (a land given it here): not alone, unless Britain fights the minor.
    world, _ = real()
    state = opening()
    land, minor = next((t, n) for t in sorted(world.territories) if not world.territories[t].is_sea
                       for n in sorted(world.neighbours(t)) if not world.territories[n].is_sea
                       and state.controller(n) == "netherlands" and state.controller(t) != "netherlands")
    state.control[land] = "canada"
    state.new_unit("canada", "infantry", land)
    move = f"MOVE 1 inf FROM {land} TO {minor}"
    assert errors(codes_1914(move, "Canada", state)) == ["war-not-alone"]
    beside = state.copy()
    beside.nations["britain"].at_war_with = ["netherlands"]
    beside.nations["netherlands"].at_war_with = ["britain"]
    assert "war-not-alone" not in errors(codes_1914(move, "Canada", beside))
    # The engine refuses what the checker refuses: Spain's infantry stay home, and no war begins.
    new, _ = run_1914({"spain": "MOVE 1 inf FROM Madrid TO Lisbon"})
    assert "portugal" not in new.nations["spain"].at_war_with
    assert not [u for u in new.units if u.nation == "spain" and u.location == "Lisbon"]
    assert new.controller("Lisbon") == "portugal"
