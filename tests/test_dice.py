"""The seeded dice: determinism, range and the audit log (design.md, Rules for the engine)."""

from moderator.engine.dice import Dice


def test_same_seed_and_turn_give_the_same_rolls() -> None:
    a, b = Dice("secret", 3), Dice("secret", 3)
    assert [a.d10("x") for _ in range(50)] == [b.d10("x") for _ in range(50)]


def test_other_turn_gives_other_rolls() -> None:
    a, b = Dice("secret", 3), Dice("secret", 4)
    assert [a.d10("x") for _ in range(50)] != [b.d10("x") for _ in range(50)]


def test_every_roll_is_logged_with_its_purpose() -> None:
    d = Dice("s", 1)
    r = d.d10("attack roll: 1 infantry at Warsaw")
    d.between(0, 5, "influence points: Persia")
    assert [x.purpose for x in d.log] == ["attack roll: 1 infantry at Warsaw", "influence points: Persia"]
    assert d.log[0].result == r and d.log[0].dice == "1D10"


def test_d10_is_uniform_over_one_to_ten() -> None:
    d = Dice("uniformity", 1)
    counts = [0] * 11
    n = 20000
    for _ in range(n):
        counts[d.d10("u")] += 1
    assert counts[0] == 0
    # chi-square with 9 degrees of freedom; 27.9 is the 0.001 critical value
    expected = n / 10
    chi2 = sum((c - expected) ** 2 / expected for c in counts[1:])
    assert chi2 < 27.9
