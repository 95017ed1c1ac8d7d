"""casualty_shares.share: hits by strength (Phase 4 guideline 2), the odd hit between equal
remainders drawn by lot (issue 10)."""

from __future__ import annotations

from moderator.engine.casualty_shares import share
from moderator.engine.dice import Dice, ScriptedDice


def test_no_tie_rolls_no_die() -> None:
    dice = Dice("s", 1)
    assert share(3, {"germany": 4, "austria-hungary": 2}, {"germany": 5, "austria-hungary": 5}, dice) == \
        {"austria-hungary": 1, "germany": 2}
    assert share(4, {"germany": 3, "austria-hungary": 3}, {"germany": 5, "austria-hungary": 5}, dice) == \
        {"austria-hungary": 2, "germany": 2}
    assert dice.log == []


def test_a_tie_at_the_cut_is_one_logged_lot() -> None:
    counts = {"germany": 5, "austria-hungary": 5}
    for pick, odd in ((0, "austria-hungary"), (1, "germany")):
        dice = ScriptedDice([pick])
        got = share(3, {"germany": 3, "austria-hungary": 3}, counts, dice, "odd hit")
        assert got[odd] == 2 and sum(got.values()) == 3
        assert [(r.purpose, r.dice) for r in dice.log] == [("odd hit: austria-hungary or germany", "choice/2")]


def test_three_equal_allies_and_two_odd_hits_draw_twice() -> None:
    dice = ScriptedDice([2, 0])  # bulgaria, turkey, germany: turkey first, then bulgaria
    got = share(2, {"germany": 1, "bulgaria": 1, "turkey": 1}, {"germany": 2, "bulgaria": 2, "turkey": 2}, dice)
    assert got == {"bulgaria": 1, "germany": 0, "turkey": 1}
    assert [r.purpose for r in dice.log] == ["odd hit: bulgaria or germany or turkey", "odd hit: bulgaria or germany"]


def test_the_lot_is_fair_whatever_the_ids() -> None:
    n, first = 2000, 0
    for seed in range(n):
        got = share(1, {"a": 2, "b": 2}, {"a": 3, "b": 3}, Dice(f"lot-{seed}", 1))
        first += got["a"]
    assert abs(first / n - 0.5) < 4 * (0.25 / n) ** 0.5
