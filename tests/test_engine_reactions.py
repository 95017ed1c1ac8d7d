"""The neutrals' response table to the main war (engine/reactions.py): who takes points
from which column, the rows that follow a declaration, a JOIN's row, the Ottomans' US
column limited to the first three turns, and an undeclared attack doubling the USA's draw.
The worked example is the catalog case neutrals-table-netherlands-example.txt."""

from __future__ import annotations

from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.reactions import neighbours
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.parser import parse_orders
from tests.test_engine_diplomacy import opening, real


def draws(orders: dict[str, str], state: GameState | None = None, seed: str = "reactions"
          ) -> tuple[GameState, list[Event], list[tuple[str, str, str]]]:
    world, scenario = real()
    dice = Dice(seed, (state or opening()).turn)
    parsed = {n: parse_orders(text).orders for n, text in orders.items()}
    new, events = resolve(state or opening(), parsed, world, scenario, dice)
    return new, events, [(r.step, r.purpose, r.dice) for r in dice.log if "(neutrals' points)" in r.purpose]


def test_neighbours_are_read_on_the_homeland_and_its_seas() -> None:
    world, scenario = real()
    from moderator.engine.context import Position

    pos = Position(opening(), {}, world, scenario)
    assert {"belgium", "denmark", "norway"} <= neighbours(pos, "netherlands")
    assert "portugal" not in neighbours(pos, "netherlands")  # Timor is overseas
    assert "switzerland" not in neighbours(pos, "netherlands")
    assert {"france", "germany", "italy", "austria-hungary"} <= neighbours(pos, "switzerland")


def test_a_cp_declaration_gives_the_ottomans_nothing_and_the_others_points_toward_the_allies() -> None:
    new, events, rolled = draws({"germany": "DECLARE WAR ON Belgium"})
    rows = {purpose.split(": ")[1].split(" (")[0] for step, purpose, _ in rolled if step == "1.1"}
    assert rows == {"CP declare war against neutral nation", "Minor neutral joins AP"}
    assert not any(p.startswith("Ottoman Empire's points: CP declare") for _, p, _ in rolled)
    assert ("1.1", "Kingdom of Italy's points: CP declare war against neutral nation (neutrals' points)", "0-5") \
        in rolled
    moved = [e for e in events if e.code == "points" and e.args["why"] == "war-on-a-neutral"]
    assert moved and all(e.args["change"] > 0 for e in moved)  # toward the Allies


def test_a_join_by_points_brings_its_row_and_the_checker_draws_nothing() -> None:
    world, scenario = real()
    from moderator.orders.checker import check_text

    ready = opening(lambda s: setattr(s.nations["italy"], "standing", 10))
    assert check_text("JOIN Allies", "Italy", ready, world, scenario).diagnostics == []  # no dice in the checker
    new, _, rolled = draws({"italy": "JOIN Allies"}, ready)
    assert {p.split(": ")[1].split(" (")[0] for s, p, _ in rolled if s == "1.5"} == {"Italy joins AP"}
    assert ("1.5", "Ottoman Empire's points: Italy joins AP (neutrals' points)", "0-3") in rolled
    assert not any(p.startswith("Kingdom of Spain") and "Italy joins" not in p for s, p, _ in rolled if s == "1.5")


def test_the_ottomans_move_the_usa_only_in_the_first_three_turns() -> None:
    def ready(turn: int) -> GameState:
        return opening(lambda s: (setattr(s.nations["ottoman"], "standing", -10), setattr(s, "turn", turn)))

    early = draws({"ottoman": "JOIN Central Powers"}, ready(3))[2]
    late = draws({"ottoman": "JOIN Central Powers"}, ready(4))[2]
    usa = "United States of America's points: Ottomans join CP (neutrals' points)"
    assert ("1.5", usa, "0-3") in early and not any(p == usa for _, p, _ in late)


def test_an_undeclared_attack_doubles_the_usa_draw() -> None:
    orders = {"germany": "MOVE 2 inf FROM Cologne TO Luxembourg"}
    for seed in ("a", "b", "c", "d", "e", "f"):
        _, events, _ = draws(orders, seed=seed)
        world, scenario = real()
        dice = Dice(seed, 1)
        resolve(opening(), {n: parse_orders(t).orders for n, t in orders.items()}, world, scenario, dice)
        [drawn] = [r.result for r in dice.log if r.purpose.startswith("United States of America's points: CP declare")]
        moved = [e.args["change"] for e in events if e.code == "points" and e.args["nation"] == "usa"
                 and e.args["why"] == "war-on-a-neutral"]
        assert moved == ([2 * drawn] if drawn else [])


def test_a_neutral_war_waits_for_the_joining_and_china_s_limited_wars_draw_nothing() -> None:
    new, events, rolled = draws({"italy": "DECLARE WAR ON Switzerland"},
                                opening(lambda s: setattr(s.nations["italy"], "standing", 1)))
    assert new.nations["italy"].flags["aggressions"] == [["Italy declares war against minor neutral", "switzerland"]]
    assert [r for r in rolled if r[0] == "1.1"] == [
        ("1.1", "Kingdom of Italy's points toward zero: Italy declares war against minor neutral (neutrals' points)",
         "0-2")]
    own = [e.args["change"] for e in events if e.code == "points" and e.args["why"] == "own-war"]
    assert own in ([], [-1])  # toward zero, never past it
    assert not [e for e in events if e.code == "points" and e.args["why"] == "aggression"]  # not yet
    geared = opening(lambda s: s.nations["china"].flags.update(geared_up=0))
    new, _, rolled = draws({"china": "DECLARE WAR ON Germany"}, geared)
    assert "aggressions" not in new.nations["china"].flags and not [r for r in rolled if r[0] == "1.1"]


def test_a_neutrals_entry_by_declaration_is_answered_as_its_joining_not_as_an_aggression() -> None:
    """Italy at 10 for the Allies declares war on Austria-Hungary and JOINs (reading 31):
    its entry, so no "Italy declares war against major power" row (own points toward zero,
    the others' answer kept for the joining); the joining's row answers it. Japan's war on
    a camp keeps its row ("Japan declares war against major power")."""
    ready = opening(lambda s: setattr(s.nations["italy"], "standing", 10))
    new, events, rolled = draws({"italy": "DECLARE WAR ON Austria-Hungary\nJOIN Allies"}, ready)
    assert new.nations["italy"].side == "allied" and "austria-hungary" in new.nations["italy"].at_war_with
    assert "aggressions" not in new.nations["italy"].flags
    assert not [r for r in rolled if "Italy declares war" in r[1]]
    assert not [e for e in events if e.code == "points" and e.args["why"] in ("own-war", "aggression")]
    assert [e for e in events if e.code == "points" and e.args["why"] == "a-nation-joined"]
    new, _, _ = draws({"japan": "DECLARE WAR ON Russia"})
    assert new.nations["japan"].flags["aggressions"] == [["Japan declares war against major power", "russia"]]
