"""Parser tests: the orders language as players write it in mail (issue 4)."""

from __future__ import annotations

import pytest

from moderator.orders import model as m
from moderator.orders.echo import normalize
from moderator.orders.parser import parse_orders


def one(text: str) -> m.Order:
    r = parse_orders(text)
    assert not r.diagnostics, [d.render() for d in r.diagnostics]
    assert len(r.orders) == 1, r.orders
    return r.orders[0]


def test_header_lines_are_read_and_secret_accepted_under_both_names() -> None:
    r = parse_orders("GAME wwi-7\nNATION German Empire\nTURN 4\nSECRET open sesame\n")
    assert (r.header.game, r.header.nation, r.header.turn, r.header.secret) == (
        "wwi-7", "German Empire", 4, "open sesame")
    assert parse_orders("password x#1").header.secret == "x#1"


def test_secret_is_never_echoed() -> None:
    r = parse_orders("PASSWORD tiger-lily\nMOVE 1 inf FROM Berlin TO Posen")
    text = normalize(r.orders, r.header)
    assert "tiger-lily" not in text and "PASSWORD ******" in text


def test_move_with_unit_list_and_abbreviations() -> None:
    o = one("move 3 inf, 2 art and 1 tnk from East Prussia to Warsaw")
    assert o == m.Move((m.UnitCount("infantry", 3), m.UnitCount("artillery", 2), m.UnitCount("tank", 1)),
                       "East Prussia", "Warsaw")
    assert o.span.line == 1 and o.span.column == 1


@pytest.mark.parametrize("word,kind", [
    ("inf", "infantry"), ("art", "artillery"), ("tank", "tank"), ("tnk", "tank"), ("aa", "aa"),
    ("AA guns", "aa"), ("rkt", "rocket"), ("ftr", "fighter"), ("bmb", "bomber"), ("bb", "battleship"),
    ("dd", "cruiser"), ("ca", "cruiser"), ("cruiser", "cruiser"), ("destroyers", "cruiser"),
    ("tr", "transport"), ("cv", "carrier"), ("ss", "submarine"), ("sub", "submarine"),
])
def test_unit_abbreviations(word: str, kind: str) -> None:
    o = one(f"BUILD 2 {word} AT Somewhere")
    assert isinstance(o, m.Build) and o.kind == kind and o.count == 2


def test_keywords_are_case_insensitive() -> None:
    assert one("DeClArE wAr On Serbia") == m.DeclareWar("Serbia")


def test_a_bad_line_does_not_hide_the_good_ones() -> None:
    r = parse_orders("MOVE 3 inf FROM A TO B\nMOVE 3 widgets FROM A TO B\nfrobnicate the enemy\nRESEARCH Tanks")
    assert [type(o) for o in r.orders] == [m.Move, m.Research]
    assert [(d.line, d.code) for d in r.diagnostics] == [(2, "unknown-unit"), (3, "unknown-order")]
    widgets = r.diagnostics[0]
    assert widgets.column == 6 and "widgets" in widgets.text and widgets.severity == "error"


def test_unknown_verb_suggests_the_right_one() -> None:
    d = parse_orders("MVOE 3 inf FROM A TO B").diagnostics[0]
    assert d.code == "unknown-order" and "MOVE" in d.message


def test_truncated_order_shows_a_model_line() -> None:
    d = parse_orders("MOVE 3 inf FROM Berlin").diagnostics[0]
    assert d.code == "syntax" and "MOVE 3 inf, 1 art FROM Metz TO Verdun" in d.message


def test_comments_bullets_semicolons_and_periods() -> None:
    r = parse_orders("# my turn\n- MOVE 1 inf FROM A TO B.  # push\n2) RESEARCH Tanks; RESEARCH Radar\n")
    assert r.orders == [m.Move((m.UnitCount("infantry", 1),), "A", "B"), m.Research("tanks"), m.Research("radar")]
    assert r.orders[2].span.column > r.orders[1].span.column


def test_begin_end_markers_cut_the_body() -> None:
    text = "Dear moderator, here goes\nBEGIN\nRESEARCH Tanks\nEND\nThanks! Move fast.\n"
    r = parse_orders(text)
    assert r.orders == [m.Research("tanks")] and not r.diagnostics


def test_quotes_signature_and_html_are_ignored() -> None:
    text = "RESEARCH Tanks\n> MOVE 9 inf FROM X TO Y\nOn Mon, Bob wrote:\n-- \nJohn\nMOVE 1 inf FROM A TO B\n"
    assert parse_orders(text).orders == [m.Research("tanks")]
    html = "<html><body><p>RESEARCH Radar</p><div>GEAR&nbsp;UP<br></div></body></html>"
    assert parse_orders(html).orders == [m.Research("radar"), m.GearUp()]


def test_phase_headings_are_optional_and_ignored() -> None:
    r = parse_orders("Phase 1: diplomacy\nDECLARE WAR ON Belgium\n[Phase 4]\nMOVE 1 inf FROM A TO B")
    assert [type(o) for o in r.orders] == [m.DeclareWar, m.Move] and not r.diagnostics


def test_note_is_kept_as_an_order() -> None:
    o = one("NOTE: I would like to discuss my trenches near Verdun #2")
    assert isinstance(o, m.Note) and "Verdun #2" in o.text


def test_quoted_names_may_hold_keywords() -> None:
    o = one('MOVE 1 inf FROM "Bosnia and Herzegovina" TO "Land of the Free"')
    assert isinstance(o, m.Move) and o.origin == "Bosnia and Herzegovina" and o.dest == "Land of the Free"
    assert one(normalize([o]).strip()) == o


def test_inline_conditions_become_condition_orders() -> None:
    r = parse_orders("ATTACK 6 inf FROM Metz TO Verdun WITHDRAW AFTER 2 ROUNDS, IF LOSSES EXCEED 3, "
                     "WHEN 4 ENEMY UNITS DESTROYED, ONLY IF AT MOST 5 DEFENDERS")
    assert r.orders[0] == m.Attack((m.UnitCount("infantry", 6),), "Metz", "Verdun")
    assert r.orders[1:] == [m.CombatCondition("Verdun", "rounds", 2), m.CombatCondition("Verdun", "losses", 3),
                            m.CombatCondition("Verdun", "kills", 4), m.CombatCondition("Verdun", "max-defenders", 5)]


def test_withdraw_after_zero_rounds_is_refused() -> None:
    d = parse_orders("WITHDRAW FROM Verdun AFTER 0 ROUNDS").diagnostics
    assert [x.code for x in d] == ["withdraw-rounds"]


@pytest.mark.parametrize("text,expected", [
    ("INFLUENCE Persia", m.Influence("Persia")),
    ("INFLUENCE SELF TOWARD the Allies", m.Influence("SELF", "allied")),
    ("OFFER SURRENDER TO France, Russia", m.OfferSurrender(("France", "Russia"))),
    ("REFUSE SURRENDER OF Serbia", m.SurrenderVote("Serbia", False)),
    ("CLOSE Dardanelles TO Russia", m.ClosePassage("Dardanelles", ("Russia",))),
    ("CLOSE Suez Canal TO ALL", m.ClosePassage("Suez Canal", ())),
    ("OPEN Kiel Canal", m.ClosePassage("Kiel Canal", (), False)),
    ("DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Allied Powers", m.SubWarfare("allied")),
    ("RETRACT UNRESTRICTED SUB WARFARE", m.SubWarfare(None, retract=True)),
    ("BLOCKADE US TRADE TO Germany", m.Blockade("Germany", us_trade=True)),
    ("OPTION #4 FULL WAR", m.SpecialOption(4, full=True)),
    ("OPTION 3 TO Serbia 10 resources", m.SpecialOption(3, "Serbia", 10)),
    ("OPTION 4 TOWARD CP", m.SpecialOption(4, toward="central")),
    ("GEAR UP PRODUCTION", m.GearUp()), ("BOOST ECONOMY", m.GearUp()), ("COAX Italy", m.CoaxItaly()),
    ("JOIN the Central Powers", m.JoinSide("central")), ("PEACE WITH Serbia", m.Peace("Serbia")),
    ("GIFT 10 RESOURCES TO Serbia", m.Gift(10, "Serbia")),
    ("GOVERNMENT IN EXILE WITH France", m.Exile("France")),
    ("RESEARCH Improved Anti-Aircraft Guns", m.Research("improved_aa")),
    ("UPGRADE artillery", m.Upgrade("artillery")),
    ("BUILD TRENCH AT Metz FACING Verdun", m.BuildTrench("Metz", "Verdun")),
    ("BUILD SUPER TRENCH AT Metz FACING Verdun", m.BuildTrench("Metz", "Verdun", True)),
    ("BUILD HOME TRENCHES AT Berlin", m.BuildHomeTrenches("Berlin")),
    ("BUILD SONAR ON dd AT North Sea", m.BuildShipGear("sonar", "North Sea", "cruiser")),
    ("BUILD 1 industrial complex AT Posen", m.Build("industry", 1, "Posen")),
    ("ESPIONAGE NEUTRAL ON Persia", m.Espionage("neutral", "Persia")),
    ("SPY INDUSTRIAL ON Britain FOR Tanks", m.Espionage("industrial", "Britain", tech="tanks")),
    ("COUNTERESPIONAGE RECON AT Alsace", m.CounterEspionage("recon", place="Alsace")),
    ("RECON 1 ftr FROM Metz TO Verdun", m.Recon((m.UnitCount("fighter", 1),), "Metz", "Verdun")),
    ("REPAIR 1 bb AT North Sea", m.Repair("battleship", 1, "North Sea")),
    ("BOMB CITY 2 bmb FROM Ruhr TO Paris", m.Bombing("city", (m.UnitCount("bomber", 2),), "Ruhr", "Paris")),
    ("REBASE 2 ftr FROM Berlin TO Metz", m.Rebase((m.UnitCount("fighter", 2),), "Berlin", "Metz")),
    ("STRATEGIC MOVE 4 inf FROM Berlin TO Posen", m.StrategicMove((m.UnitCount("infantry", 4),), "Berlin", "Posen")),
    ("TF 1 AT North Sea: 2 bb, 3 dd", m.TaskForce("1", "North Sea", (m.UnitCount("battleship", 2), m.UnitCount("cruiser", 3)))),
    ("TF A ESCORT B TO Skagerrak", m.TaskForceMission("A", "escort", "Skagerrak", escort_of="B")),
    ("DETECT SUBS IN North Sea WITH 2 dd", m.SubDetection("North Sea", (m.UnitCount("cruiser", 2),))),
    ("INTERCEPT WITH 2 ss IN North Sea AGAINST transports", m.SubInterception(2, "North Sea", "transport")),
    ("INVADE 2 inf FROM English Channel TO Picardy", m.NavalInvasion((m.UnitCount("infantry", 2),), "English Channel", "Picardy")),
    ("SUPPORT 2 art FROM Metz TO Verdun", m.ArtillerySupport(2, "Metz", "Verdun")),
    ("BREAKTHROUGH 3 tanks FROM Verdun TO Paris", m.Breakthrough(3, "Verdun", "Paris")),
    ("WITHDRAW FROM Verdun TO Paris AFTER 1 ROUND", m.CombatCondition("Verdun", "rounds", 1, "Paris")),
    ("DEFEND WITH PORT AT Kiel", m.DefendWith("port", "Kiel")),
    ("LET THROUGH AT Verdun", m.LetPass("Verdun")),
    ("NO INTERCEPTION AT Lower Rhine", m.LetPass("Lower Rhine")),
    ("do not intercept in Verdun", m.LetPass("Verdun")),
    ("BREAK OFF AIR COMBAT AT Verdun AFTER 1 ROUND", m.AirRetreat("Verdun", "rounds", 1)),
    ("DISENGAGE FROM AIR COMBAT AT Verdun IF LOSSES EXCEED 2", m.AirRetreat("Verdun", "losses", 2)),
    ("BREAK OFF AIR AT Verdun AFTER 2 KILLS", m.AirRetreat("Verdun", "kills", 2)),
    ("FIRE INDUSTRY 1 rkt FROM Metz AT Paris", m.RocketFire(1, "Metz", "Paris", "industry")),
    ("CASUALTIES: inf, art, tank", m.CasualtyOrder(("infantry", "artillery", "tank"))),
    ("PLUNDER INDUSTRY AT Lille", m.Plunder("industry", "Lille")),
    ("INCORPORATE Belgium", m.Incorporate("Belgium")),
    ("TRANSFER 10 FROM Algeria TO Paris", m.Transfer(10, "Algeria", "Paris")),
])
def test_every_order_kind_parses(text: str, expected: m.Order) -> None:
    assert one(text) == expected


def test_task_force_steps_in_one_line() -> None:
    r = parse_orders("TF 2: LOAD 2 inf FROM Kent, TRANSPORT TO English Channel")
    assert r.orders == [m.TaskForceMission("2", "load", units=(m.UnitCount("infantry", 2),), origin="Kent"),
                        m.TaskForceMission("2", "transport", "English Channel")]


def test_trench_needs_facing_and_sonar_needs_a_ship() -> None:
    codes = [d.code for d in parse_orders("BUILD TRENCH AT Metz\nBUILD SONAR AT Kiel").diagnostics]
    assert codes == ["trench-facing", "sonar-ship"]


def test_unknown_technology_lists_the_rules_names() -> None:
    d = parse_orders("RESEARCH improvd weapns").diagnostics[0]
    assert d.code == "unknown-tech" and "Improved Weapons" in d.message


def test_huge_numbers_are_refused_not_crashed() -> None:
    r = parse_orders("MOVE " + "9" * 5000 + " inf FROM A TO B\nTURN 99999999999")
    assert not r.orders and {d.code for d in r.diagnostics} == {"bad-number"}


def test_recurring_header_and_talk_lines_are_parsed_once_and_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 11, CPU per mail: a burst of mail parses each GAME, NATION and TURN line and
    each greeting once per distinct text; orders, and lines that hold (or may hold) a
    password, are parsed every time, and no password is kept."""
    import moderator.orders.parser as parser

    monkeypatch.setattr(parser, "_kept", {})
    monkeypatch.setattr(parser, "READ_SHAPES", False)  # lines of a known shape: tests/test_orders_shapes.py
    lines: list[str] = []
    real = parser.grammar()

    class Counting:
        def parse(self, text: str) -> object:
            lines.append(text)
            return real.parse(text)

    mail = ("Hello Tom,\nGAME g\nNATION Germany\nTURN 1\nPASSWORD tiger-lily\nPasword: tiger-lily\n"
            "MOVE 2 inf FROM Ruhr TO Cologne\nMOVE 1 inf FROM Ruhr TO Warsw\nThanks!\n")
    first = parse_orders(mail)
    monkeypatch.setattr(parser, "grammar", lambda: Counting())
    again = parse_orders(mail)
    assert again == first
    assert lines == ["PASSWORD tiger-lily", "Pasword: tiger-lily", "MOVE 2 inf FROM Ruhr TO Cologne",
                     "MOVE 1 inf FROM Ruhr TO Warsw"]
    assert not any("tiger" in text for text in parser._kept)
    assert [d.code for d in again.diagnostics] == ["unknown-order", "unknown-order", "unknown-order"]


def test_the_lines_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import moderator.orders.parser as parser

    monkeypatch.setattr(parser, "_KEPT_MOST", 10)
    monkeypatch.setattr(parser, "_kept", {})
    parse_orders("\n".join(f"Greetings number {n}!" for n in range(25)) + "\n" + "x" * 500)
    assert 0 < len(parser._kept) <= 10 and all(len(text) <= parser._KEPT_LONGEST for text in parser._kept)
