"""Checker and engine cannot drift (issue 7, point 2): the harness in tests/drift.py, run on
the 1914 opening and mid-game positions, and every drift found or listed as a regression
test on the real 1914 map."""

from __future__ import annotations

import dataclasses

from moderator.orders import model as m
from moderator.orders.echo import normalize_order
from tests import drift
from tests.drift import Comparison, Game, compare, opening


def orders(*written: m.Order) -> list[m.Order]:
    return [dataclasses.replace(o, span=m.Span(i + 1, 1, normalize_order(o))) for i, o in enumerate(written)]


def inf(n: int) -> tuple[m.UnitCount, ...]:
    return (m.UnitCount("infantry", n),)


def one(kind: str, n: int = 1) -> tuple[m.UnitCount, ...]:
    return (m.UnitCount(kind, n),)


def judged(game: Game, nation: str, *written: m.Order, seed: str = "drift") -> Comparison:
    """Both judges on the orders; no drift allowed."""
    cmp = compare(game, nation, orders(*written), seed)
    assert cmp.drifts == [], cmp.drifts
    return cmp


def codes(cmp: Comparison, index: int) -> list[str]:
    return [p.code for p in cmp.verdicts[index].problems]


def refused(cmp: Comparison, index: int) -> list[str]:
    return [e.args["reason"] for e in cmp.refusals(index)]


def with_saved(game: Game, **saved: int) -> Game:
    state = game.state.copy()
    for nid, amount in saved.items():
        state.nations[nid].saved = amount
    return dataclasses.replace(game, state=state)


# ---- drifts the harness found -----------------------------------------------------------


def test_incorporating_land_attacked_this_turn_is_kept_with_a_note() -> None:
    # Found: the checker's assumed capture left Liege incorporated (Belgium's), so
    # INCORPORATE Liege was refused "already-incorporated" while the engine, after the real
    # capture, incorporated it. Phase 6: conquered land is not incorporated (conquest.seize).
    game = opening()
    cmp = judged(game, "germany", m.Attack(inf(16), "Cologne", "Liege"), m.Incorporate("Liege"))
    assert cmp.verdicts[1].kept and codes(cmp, 1) == ["if-captured"]
    assert cmp.state.controller("Liege") == "germany" and "Liege" in cmp.state.incorporated
    assert [e.args["cost"] for e in cmp.mine("incorporated")] == [4]


def test_checker_counts_no_income_from_land_it_assumes_captured() -> None:
    # Found: the checker's Phase 8 credited Germany with Liege's 2 (still incorporated on
    # its scratch copy), so a gift needing that income was kept and refused by the engine.
    game = opening()
    income = drift_income(game, "germany")
    cmp = judged(game, "germany", m.Attack(inf(16), "Cologne", "Liege"),
                 m.Gift(game.state.nations["germany"].saved + income + 2, "austria-hungary"))
    assert cmp.state.controller("Liege") == "germany"  # the capture happened, and still no income
    assert not cmp.verdicts[1].kept and codes(cmp, 1) == ["over-budget"] and refused(cmp, 1) == ["over-budget"]


def drift_income(game: Game, nation: str) -> int:
    from moderator.engine.phase8_income import apply_income_rule, full_income

    ns = game.state.nations[nation]
    return apply_income_rule(ns.income_rule, full_income(game.world, game.state, nation, game.state.turn))


def test_a_move_that_joined_a_battle_is_not_refused_afterwards() -> None:
    # Found: the engine's second ATTACK into Northern Mexico joined the first one's battle,
    # then was judged again at its own turn and refused "not-enough-units" (its units had
    # fought). The checker kept it; now the engine does not judge a joined move twice.
    game = opening()
    cmp = judged(game, "usa", m.Attack(inf(1), "LA", "Northern Mexico"), m.Attack(inf(1), "LA", "Northern Mexico"))
    assert cmp.verdicts[1].kept and refused(cmp, 1) == []
    battles = cmp.mine("battle")
    assert len(battles) == 1 and battles[0].args["origins"] == ["LA"]


def test_only_infantry_or_tanks_go_into_empty_enemy_land_in_both() -> None:
    # Found: ATTACK 1 art (or aa, or fighters) into empty hostile land was kept by the
    # checker and refused "cannot-capture" by the engine. Phase 4.4: "Only infantry or
    # tanks can capture territories"; Artillery: "cannot accompany units moving in enemy
    # territory". Now problem() says so, for both.
    game = opening()
    cmp = judged(game, "germany", m.Attack(one("artillery"), "Cologne", "Luxembourg"),
                 m.Move(one("fighter"), "Cologne", "Luxembourg"), m.Move(inf(1), "Cologne", "Luxembourg"),
                 m.Move(one("artillery"), "Cologne", "Luxembourg"))
    assert codes(cmp, 0) == ["cannot-capture"] and refused(cmp, 0) == ["cannot-capture"]
    assert codes(cmp, 1) == ["cannot-capture"] and refused(cmp, 1) == ["cannot-capture"]
    # Once the infantry has taken it, the artillery follows into friendly land.
    assert cmp.verdicts[3].kept and refused(cmp, 3) == []
    assert cmp.state.controller("Luxembourg") == "germany"
    # Artillery-only attacks on defended land stay legal (it fires from home).
    cmp = judged(game, "germany", m.Attack(one("artillery", 2), "Cologne", "Liege"))
    assert cmp.verdicts[0].kept and refused(cmp, 0) == [] and len(cmp.mine("battle")) == 1


def test_the_harness_sees_every_position() -> None:
    for name, make in drift.POSITIONS.items():
        game = make()
        assert game.name == name and game.nations


def test_aircraft_sent_to_the_moderator_have_their_order_in_the_engine_too() -> None:
    # Found: a flight out of a sea zone (aircraft aboard a carrier) goes to the moderator;
    # the checker claimed its aircraft (commit), the engine did not, so a second order
    # naming the same aircraft was refused by the checker and referred again by the
    # engine. Each unit does one thing a turn.
    game = opening()
    game.state.new_unit("britain", "carrier", "North Sea")
    for _ in range(2):
        game.state.new_unit("britain", "fighter", "North Sea")
    cmp = judged(game, "britain", m.Move(one("fighter", 2), "North Sea", "London"),
                 m.Move(one("fighter", 1), "North Sea", "Edinburgh"))
    assert codes(cmp, 0) == ["air-at-sea"] and [e.args["order"] for e in cmp.mine("order-referred")] == [0]
    assert codes(cmp, 1) == ["not-enough-units"] and refused(cmp, 1) == ["not-enough-units"]


def test_joining_a_battle_never_takes_units_an_earlier_order_names() -> None:
    # Found: with 2 infantry in Manchuria, orders 1 and 3 attack Vladivostok and order 2
    # Korea. The engine's battle at Vladivostok took order 3 along (its units first), so
    # order 2 was refused "not-enough-units"; the checker, reading the orders as written,
    # gave the infantry to orders 1 and 2 and refused order 3. Orders are carried out as
    # written (design.md, Determinism): a later move joins a battle only with the units
    # still free once the moves written before it have taken theirs.
    game = opening()
    cmp = judged(game, "china", m.Attack(inf(1), "Manchuria", "Vladivostok"), m.Attack(inf(1), "Manchuria", "Korea"),
                 m.Attack(inf(1), "Manchuria", "Vladivostok"))
    assert cmp.verdicts[1].kept and refused(cmp, 1) == []
    assert codes(cmp, 2) == ["not-enough-units"] and refused(cmp, 2) == ["not-enough-units"]
    assert sorted(e.args["territory"] for e in cmp.mine("battle")) == ["Korea", "Vladivostok"]


def test_an_order_short_of_units_is_refused_for_that_whatever_the_battles_did() -> None:
    # Found: France's fighter and three artillery attack Liege and destroy every defender
    # (no infantry: no capture); a third ATTACK 1 art FROM Lille names artillery Lille no
    # longer has free. The checker refused it "not-enough-units"; the engine, meeting Liege
    # empty after the battle, refused it "cannot-capture". The units an order names are
    # now checked before the checks that depend on the battles of the turn.
    game = opening()
    cmp = judged(game, "france", m.Move(one("fighter"), "Lille", "Liege"), m.Attack(one("artillery", 3), "Lille", "Liege"),
                 m.Attack(one("artillery", 1), "Lille", "Liege"), seed="s13")
    battle = cmp.mine("battle")[0].args
    assert battle["losses"]["belgium"] == {"artillery": 1, "infantry": 2} and not battle["captured"]
    assert codes(cmp, 2) == ["not-enough-units"] and refused(cmp, 2) == ["not-enough-units"]


def test_a_battle_is_joined_only_with_units_no_earlier_order_names() -> None:
    # Found (the harness, then this sharper case): USA order 1 attacks Quebec; when its
    # battle starts, order 3 (MOVE 2 art into Maritimes) could not yet move (Maritimes is
    # enemy land until order 2 takes it), so order 4 joined the battle with the artillery
    # order 3 names. Order 2 then took Maritimes and order 3 was refused "not-enough-
    # units", though the checker, reading the orders as written, kept it. A later move
    # joins a battle only with units no order written between names.
    game = opening()
    cmp = judged(game, "usa", m.Attack(inf(1), "East Coast", "Quebec"), m.Attack(inf(1), "East Coast", "Maritimes"),
                 m.Move(one("artillery", 2), "East Coast", "Maritimes"),
                 m.Attack(one("artillery", 2), "East Coast", "Quebec"))
    assert cmp.verdicts[2].kept and refused(cmp, 2) == []
    assert codes(cmp, 3) == ["not-enough-units"] and refused(cmp, 3) == ["not-enough-units"]
    assert cmp.state.controller("Maritimes") == "usa"
