"""The seeded dice: determinism, range and the audit log (design.md, Rules for the engine)."""

from moderator.engine.dice import Dice, Roll


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
    # each logged roll is the Roll its constructor makes (the log sets its fields at once: issue 14)
    four = d.for_step("4.6")
    four.roll(2, 10, "propaganda")
    made = Roll(2, "propaganda", "2D10", d.log[2].result, "4.6")
    assert d.log[2] == made and repr(d.log[2]) == repr(made) and d.log[2].to_json() == made.to_json()


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
