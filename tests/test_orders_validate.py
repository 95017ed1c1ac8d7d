"""validate(): orders checked against a small hand-built game state (tests/test_orders_world.py)."""

from __future__ import annotations

import pytest

from moderator.orders import model as m
from moderator.orders.checker import check, check_text, validate
from moderator.orders.parser import parse_orders
from tests.test_orders_world import make_scenario, make_state, make_world


def run(text: str, nation: str = "Germany", state=None):  # type: ignore[no-untyped-def]
    return check_text(text, nation, state or make_state(), make_world(), make_scenario())


def codes(text: str, nation: str = "Germany", state=None) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(d.severity, d.code) for d in run(text, nation, state).diagnostics]


def test_validate_is_separate_from_parsing_and_returns_diagnostics() -> None:
    parsed = parse_orders("MOVE 3 inf FROM Metz TO Verdun\nMOVE 1 inf FROM Berlin TO Paris")
    diags = validate(parsed.orders, "Germany", make_state(), make_world(), make_scenario())
    assert [(d.line, d.code) for d in diags] == [(2, "not-adjacent")]
    assert diags[0].text == "Paris" and diags[0].column == 27


def test_kept_orders_use_canonical_names() -> None:
    r = run("MOVE 3 inf FROM alsace-lorraine TO verdun\nDECLARE WAR ON Deutschland's neighbour\n"
            "DECLARE WAR ON belgium")
    assert r.orders[0] == m.Move((m.UnitCount("infantry", 3),), "Metz", "Verdun")
    assert m.DeclareWar("belgium") in r.orders


def test_canonical_keeps_an_order_already_canonical_and_remakes_one_with_an_alias() -> None:
    from moderator.engine.names import canonical

    world, scenario = make_world(), make_scenario()
    kept = m.Move((m.UnitCount("infantry", 3),), "Metz", "Verdun")
    assert canonical(world, scenario, "germany", kept) is kept  # nothing to change: no copy (issue 14)
    typed = m.Move((m.UnitCount("infantry", 3),), "alsace-lorraine", "Verdun")
    assert canonical(world, scenario, "germany", typed) == kept
    listed = m.OfferSurrender(to=("belgium",))
    assert canonical(world, scenario, "germany", listed) is listed
    as_list = m.OfferSurrender(to=["belgium"])  # type: ignore[arg-type]  # a list is made the tuple it is declared
    assert type(canonical(world, scenario, "germany", as_list).to) is tuple  # type: ignore[union-attr]


def test_unknown_territory_suggests_a_name() -> None:
    d = run("MOVE 1 inf FROM Berlin TO Posenn").diagnostics[0]
    assert d.code == "unknown-territory" and "Posen" in d.message and d.text == "Posenn"


def test_units_are_committed_once() -> None:
    r = run("MOVE 8 inf FROM Metz TO Verdun\nMOVE 5 inf FROM Metz TO Belgium")
    assert [d.code for d in r.diagnostics if d.severity == "error"] == ["not-enough-units"]
    assert "4 inf free in Metz" in r.diagnostics[-1].message
    assert len(r.orders) == 1


def test_ships_do_not_walk_and_land_units_do_not_swim() -> None:
    assert ("error", "move-sea") in codes("MOVE 1 inf FROM Kiel TO North Sea")
    assert ("error", "wrong-unit") in codes("MOVE 1 bb FROM North Sea TO Kiel")


def test_fighter_range_and_fuel() -> None:
    # 2 fuel there, 1 round, back in 1 (fuel 4); fighters alone cannot take Verdun (4.4)
    assert codes("MOVE 2 ftr FROM Ruhr TO Verdun") == [("warning", "if-undefended")]
    # Fighters: fuel there, one round, and back to a friend (1 into land, 2 into or out of a sea zone).
    assert ("error", "no-fuel-home") in codes("ATTACK 2 ftr FROM Ruhr TO Paris")
    # The same fuel rule for bombing (4.1.1) and, with twice the fuel, for rebasing (4.1.2).
    assert codes("BOMB TACTICAL 2 ftr FROM Ruhr TO Verdun") == []
    assert ("error", "no-fuel-home") in codes("BOMB TACTICAL 2 ftr FROM Ruhr TO Paris")
    assert codes("REBASE 2 ftr FROM Ruhr TO East Prussia") == []  # 3 fuel, within 2 x 4
    assert ("error", "rebase-out-of-range") in codes("REBASE 2 ftr FROM Ruhr TO Togo")


def test_undeclared_attack_on_a_neutral_is_warned() -> None:
    # Phase 1.1: an attack without a declaration starts the war and doubles the US penalty.
    assert ("warning", "undeclared-attack") in codes("ATTACK 2 inf FROM Ruhr TO Belgium")
    assert codes("DECLARE WAR ON Belgium\nATTACK 2 inf FROM Ruhr TO Belgium") == []


def test_aa_guns_do_not_attack() -> None:
    state = make_state()
    state.new_unit("germany", "aa", "Metz")
    # Anti Air Guns: "AA units may not be used in an attack": they stay behind (kept, warned).
    assert ("warning", "never-attack") in codes("ATTACK 1 aa FROM Metz TO Verdun", state=state)


def test_costs_are_summed_against_saved_resources() -> None:
    r = run("BUILD 10 inf AT Berlin\nBUILD 1 bb AT North Sea\nCOAX Italy\nINFLUENCE Belgium")
    # Charged in the Sequence of Play: coaxing Italy 20 and influence 10 (Phase 1.2), then
    # the builds (3.1) in the order written: 50 infantry leaves 20, too little for a battleship (30).
    assert [(d.line, d.code) for d in r.diagnostics if d.severity == "error"] == [(2, "over-budget")]
    assert "only 20 saved resources are left" in r.diagnostics[0].message


def test_research_and_builds_are_charged_in_the_sequence_of_play() -> None:
    r = run("BUILD 10 inf AT Berlin\nBUILD 4 art AT Ruhr\nRESEARCH Radar\nINFLUENCE Belgium")
    # Charged in the Sequence of Play: influence 10 and research 10 (Phases 1-2), then the
    # builds in the order written: 50 infantry leaves 30, enough for 3 of the 4 artillery
    # (the BUILD home buys what the treasury covers, Phase 3.1, and says so).
    assert [(d.line, d.severity, d.code) for d in r.diagnostics] == [(2, "warning", "build-cut")]
    assert "only 3 of the 4" in r.diagnostics[0].message


def test_manpower_limit_doubles_infantry_cost() -> None:
    state = make_state()
    state.nations["germany"].infantry_built = 48
    r = run("BUILD 4 inf AT Berlin", state=state)
    assert [d.code for d in r.diagnostics] == ["manpower"] and "2 of these" in r.diagnostics[0].message
    r = run("BUILD 4 inf AT Berlin\nBUILD 15 inf AT Ruhr", state=state)
    # 15 more at double cost do not fit the treasury: the default buys what it can, and says so.
    assert ("warning", "build-cut") in [(d.severity, d.code) for d in r.diagnostics]


def test_tech_prerequisite_for_builds() -> None:
    assert ("error", "needs-tech") in codes("BUILD 1 rkt AT Ruhr")
    assert codes("BUILD 1 tank AT Ruhr") == []


@pytest.mark.parametrize("text,code", [
    ("BUILD 2 art AT Posen", "place-no-industry"),
    ("BUILD 2 inf AT Paris", "place-not-held"),
    ("BUILD 1 bb AT Kiel", "place-ship-land"),
    ("BUILD 1 bb AT English Channel", "place-no-port"),
])
def test_placement_rules(text: str, code: str) -> None:
    assert ("error", code) in codes(text)


def test_colony_allowance_limits_what_is_bought() -> None:
    # Phase 7 item 8: a minor colony's city builds half its value (rounded up) per turn.
    # Togo is cut off from Germany: it pays from its own treasury (3.1, engine/treasuries.py).
    state = make_state()
    state.nations["germany"].flags["held_apart"] = {"Togo": 40}
    assert codes("BUILD 3 inf AT Togo", state=state) == [("warning", "build-cut")]
    assert ("error", "colony-allowance") in codes("BUILD 1 inf AT Togo\nBUILD 1 inf AT Togo", state=state)
    assert codes("BUILD 1 inf AT Togo") == [("error", "over-budget")]  # nothing kept there


def test_placement_surcharges_are_warnings() -> None:
    r = run("BUILD 2 inf AT Posen\nBUILD 1 art AT Kiel\nBUILD 1 bb AT North Sea")
    assert [(d.severity, d.code) for d in r.diagnostics] == [("warning", "infantry-no-city"), ("warning", "artillery-city")]
    assert len(r.orders) == 3


def test_per_turn_limits() -> None:
    found = codes("INFLUENCE Belgium\nINFLUENCE belgium\nRESEARCH Tanks\nRESEARCH tanks")
    assert ("error", "influence-twice") in found and ("error", "research-twice") in found


def test_influence_only_on_neutrals_and_star_nations_warned() -> None:
    assert ("error", "influence-not-neutral") in codes("INFLUENCE France")
    assert ("warning", "influence-ten") in codes("INFLUENCE Switzerland")
    assert ("error", "influence-neutral") in codes("INFLUENCE Belgium", nation="Britain")


def test_self_influence_rules() -> None:
    assert codes("INFLUENCE SELF TOWARD Allies", nation="Ottoman Empire") == []
    assert ("error", "influence-side") in codes("INFLUENCE SELF TOWARD CP", nation="Ottoman Empire")
    assert ("error", "self-influence") in codes("INFLUENCE SELF TOWARD CP")


def test_special_options_by_number() -> None:
    r = run("OPTION 8")
    assert r.diagnostics[0].code == "unknown-option" and "#7 Build subs in Adriatic Sea" in r.diagnostics[0].message
    assert codes("OPTION 4") == []  # Zimmerman note, 15
    # Irish rebellion: only "if British is Allied Power" (neutral here) and with a sub in the Irish Sea.
    assert ("error", "option-side") in codes("OPTION 3")
    # a sub railed to the Adriatic needs Trieste held by a Central Power: none on the fixture
    assert ("error", "option-held") in codes("OPTION 7")
    assert ("error", "no-options") in codes("OPTION 1", nation="Britain")  # neutral Britain
    assert ("error", "option-args") in codes("OPTION 3 ON France", nation="USA")
    assert codes("OPTION 3 ON France 10", nation="USA") == []


def test_gifts_and_gear_up() -> None:
    assert ("error", "gift-not-ally") in codes("GIFT 10 TO France")
    assert ("warning", "gift-half") in codes("GIFT 10 TO Austria")
    assert codes("GEAR UP", nation="USA") == []
    assert ("error", "no-gear-up") in codes("GEAR UP")


def test_trenches() -> None:
    assert codes("BUILD TRENCH AT Metz FACING Verdun") == []
    assert ("error", "trench-facing") in codes("BUILD TRENCH AT Kiel FACING North Sea")
    assert ("error", "trench-infantry") in codes("BUILD TRENCH AT Posen FACING Warsaw")
    assert ("error", "needs-tech") in codes("BUILD SUPER TRENCH AT Metz FACING Verdun")
    assert codes("BUILD HOME TRENCHES AT Berlin") == []
    assert ("error", "trench-infantry") in codes("BUILD HOME TRENCHES AT Kiel")


def test_task_force_transport_and_invasion() -> None:
    text = ("TF 1 AT North Sea: 2 bb\nTF 1 BOMBARD Belgium\nTF 2 AT Baltic Sea: 2 tr\n"
            "TF 2 LOAD 2 inf FROM Kiel\n")
    assert ("error", "not-enough-units") in codes(text)  # only one infantry in Kiel
    good = ("DECLARE WAR ON Belgium\nINVADE 2 inf FROM Baltic Sea TO East Prussia\nTF 2 AT Baltic Sea: 2 tr\n"
            "TF 2 LOAD 2 inf FROM East Prussia\n")
    assert codes(good) == []
    assert ("error", "tf-capacity") in codes("TF 2 AT Baltic Sea: 1 tr\nTF 2 LOAD 3 inf FROM East Prussia")
    assert ("error", "invasion-not-loaded") in codes("INVADE 2 inf FROM Baltic Sea TO East Prussia")
    assert ("error", "tf-mission") in codes("TF 1 AT North Sea: 1 bb, 1 dd\nTF 1 CARRIER TO English Channel")
    assert ("error", "tf-too-far") in codes("TF 1 AT North Sea: 2 bb\nTF 1 PATROL TO English Channel\n"
                                            "TF 1 PATROL TO North Sea\nTF 1 PATROL TO English Channel")
    assert ("error", "tf-unknown") in codes("TF 9 PATROL TO English Channel")


def test_conditions_need_an_attack_and_beach_landings_cannot_withdraw() -> None:
    assert ("error", "condition-no-attack") in codes("WITHDRAW FROM Verdun AFTER 2 ROUNDS")
    assert codes("ATTACK 6 inf FROM Metz TO Verdun WITHDRAW AFTER 2 ROUNDS") == []
    text = ("TF 2 AT Baltic Sea: 2 tr\nTF 2 LOAD 2 inf FROM East Prussia\n"
            "INVADE 2 inf FROM Baltic Sea TO East Prussia\nWITHDRAW FROM East Prussia AFTER 1 ROUND")
    assert ("error", "invasion-no-retreat") in codes(text)


def test_strategic_move_capacity_and_path() -> None:
    assert codes("STRATEGIC MOVE 3 inf FROM East Prussia TO Berlin") == [("warning", "smove-cut")]
    assert ("error", "smove-capacity") in codes("STRATEGIC MOVE 2 inf FROM East Prussia TO Berlin\n"
                                                "STRATEGIC MOVE 2 inf FROM East Prussia TO Berlin")
    assert ("error", "smove-no-path") in codes("STRATEGIC MOVE 1 inf FROM Metz TO Togo")


def test_notes_are_flagged_never_dropped() -> None:
    r = run("NOTE please double-check my trench")
    assert isinstance(r.orders[0], m.Note) and r.diagnostics[0].severity == "flag"


def test_unknown_nation_for_the_whole_set() -> None:
    v = check([m.GearUp()], "Atlantis", make_state(), make_world(), make_scenario())
    assert not v.orders and v.diagnostics[0].code == "unknown-nation"


def test_header_mismatches() -> None:
    assert ("error", "header-nation") in codes("NATION France\nRESEARCH Tanks")
    assert ("warning", "header-turn") in codes("TURN 9\nRESEARCH Tanks")


def test_espionage_kinds_and_fees() -> None:
    r = run("ESPIONAGE NEUTRAL ON Belgium\nESPIONAGE AFFILIATION ON Italy\nESPIONAGE ARMY ON France\n"
            "ESPIONAGE INDUSTRIAL ON France FOR Tanks\nESPIONAGE COMBAT AT Verdun\n"
            "COUNTERESPIONAGE ARMY AGAINST France\nCOUNTERESPIONAGE INDUSTRIAL FOR Tanks\nCOUNTERESPIONAGE RECON AT Metz")
    assert [d.code for d in r.diagnostics] == ["espionage-no-unit"] and len(r.orders) == 8
    assert ("error", "espionage-target") in codes("ESPIONAGE NEUTRAL ON Italy")
    assert ("error", "counter-kind") in codes("COUNTERESPIONAGE AFFILIATION")
