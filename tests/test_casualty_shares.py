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


def test_what_a_nation_cannot_take_is_shared_by_strength_again() -> None:
    # France (strength 4) and Russia (9) and Serbia (10, but 2 units): 6 hits split 4:9:10
    # give 1, 2, 3; Serbia takes its 2 and its third hit is shared 4:9 among France and
    # Russia: Russia's. Nation-id order would have given it to France.
    dice = Dice("s", 1)
    got = share(6, {"france": 4, "russia": 9, "serbia": 10}, {"france": 2, "russia": 3, "serbia": 2}, dice)
    assert got == {"france": 1, "russia": 3, "serbia": 2}
    assert dice.log == []  # no equal remainders anywhere: no lot


def test_the_rest_is_shared_whatever_the_ids() -> None:
    # The same battle with the nations' ids swapped: the same shares by strength.
    for weak, strong in (("a", "c"), ("c", "a")):
        got = share(6, {weak: 4, strong: 9, "b": 10}, {weak: 2, strong: 3, "b": 2}, Dice("s", 1))
        assert got == {weak: 1, strong: 3, "b": 2}


def test_the_rest_between_equal_allies_is_a_logged_lot() -> None:
    # 3 hits split 3:3:4 give France, Russia and Serbia one each (no tie: two odd hits for
    # two equal remainders); Serbia has nothing they may hit (AA hits take aircraft only),
    # so its hit goes to France or Russia, of equal strength: a lot, logged.
    counts = {"france": 3, "russia": 3, "serbia": 0}
    for pick, odd in ((0, "france"), (1, "russia")):
        dice = ScriptedDice([pick])
        got = share(3, {"france": 3, "russia": 3, "serbia": 4}, counts, dice, "odd hit")
        assert got[odd] == 2 and sum(got.values()) == 3 and got["serbia"] == 0
        assert [r.purpose for r in dice.log] == ["odd hit: france or russia"]


def test_two_allies_keep_the_simple_rule() -> None:
    # With two the rest simply goes to the other: all 3 hits, Austria-Hungary's 1 unit first.
    got = share(3, {"germany": 2, "austria-hungary": 10}, {"germany": 5, "austria-hungary": 1}, Dice("s", 1))
    assert got == {"austria-hungary": 1, "germany": 2}


def test_allies_without_strength_take_the_rest_equally() -> None:
    got = share(3, {"a": 6, "b": 0, "c": 0}, {"a": 1, "b": 1, "c": 1}, Dice("s", 1))
    assert got == {"a": 1, "b": 1, "c": 1}
    assert share(2, {"a": 0, "b": 0}, {"a": 0, "b": 3}) == {"a": 0, "b": 2}


def test_every_hit_is_taken_and_no_nation_past_its_units() -> None:
    import random
    r = random.Random(7)
    for i in range(3000):
        nations = "abcd"[: r.randint(1, 4)]
        strength = {n: r.randint(0, 9) for n in nations}
        count = {n: r.randint(0, 4) for n in nations}
        hits = r.randint(0, 14)
        got = share(hits, strength, count, Dice(f"p{i}", 1))
        assert sum(got.values()) == min(hits, sum(count.values()))
        assert all(0 <= got[n] <= count[n] for n in nations)
