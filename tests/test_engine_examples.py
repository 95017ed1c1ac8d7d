"""The rules' worked examples that are pure arithmetic or probability, one test each.

Each test quotes the rules' sentence it reproduces. Where the rules state a chance, the
engine's roll is also checked statistically with a fixed-seed Dice: the observed rate
must lie within 4 standard errors of the stated chance (about 1 in 16,000 to fail
by chance, and with fixed seeds the outcome never changes between runs).
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from moderator.engine import phase3_recon as recon
from moderator.engine.combat_air import AIR_COMBAT_VALUE, air_combat_value, dogfight_values
from moderator.engine.dice import Dice
from moderator.engine.fuel import can_land, fuel_left, max_rounds
from moderator.engine.orders.upgrade import upgrade_cost, upgrade_cost_per_unit
from moderator.engine.phase4_naval import (
    aggressive_factors,
    contact_chance,
    defensive_factor,
    engages,
    printed_percent,
)
from moderator.engine.phase4_submarine_warfare import (
    shortest_sea_paths,
    split_transfer,
    transfer_losses,
    unrestricted_damage,
    us_trade_loss,
)
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import load_scenario


def within_four_sigma(hits: int, trials: int, p: float) -> bool:
    return abs(hits / trials - p) <= 4 * math.sqrt(p * (1 - p) / trials)


# --- Fighters ----------------------------------------------------------------------


def test_fighter_table_french_example() -> None:
    """Fighters: "French has fighters level 2 vs German fighters level 1: French uses 2 as
    attacking value in air combat against Germans, but Germans use only 1." """
    assert dogfight_values(2, 1) == (2, 1)


def test_fighter_table_german_example() -> None:
    """Fighters: "Germans has fighters level 4 vs Russian fighters level 3: German uses 3 as
    attacking value in air combat, while Russian uses 2." """
    assert dogfight_values(4, 3) == (3, 2)


def test_fighter_table_shape() -> None:
    # "more advanced fighters have decent advantage over earlier versions": a value never
    # rises against a newer enemy and never falls with one's own level.
    for own in range(5):
        row = [air_combat_value(own, enemy) for enemy in range(5)]
        assert row == sorted(row, reverse=True)
        if own:
            assert all(a >= b for a, b in zip(AIR_COMBAT_VALUE[own], AIR_COMBAT_VALUE[own - 1], strict=True))
    with pytest.raises(ValueError, match="outside"):
        air_combat_value(5, 0)


def test_fighter_fuel_example() -> None:
    """Fighters: "A fighter attacks the territory adjacent to it. It used 1 fuel point to move
    to that territory. The fighter participates in the first round of combat, which uses
    another fuel point. With only one fuel point remaining the fighter must now leave the
    combat and land in a friendly controlled territory adjacent" (so it started with 3)."""
    land_to_land = [False, False]
    left = fuel_left(3, land_to_land, rounds=1)
    assert left == 1
    assert can_land(left, at_sea=False, landing_is_sea=False)
    assert max_rounds(3, land_to_land) == 1  # a second round would strand it
    assert not can_land(fuel_left(3, land_to_land, rounds=2), at_sea=False, landing_is_sea=False)


def test_fighter_needs_five_fuel_for_sea_combat() -> None:
    """Fighters: "Movement into or out of a sea zone requires 2 fuel points ... fighters must
    have a minimum of 5 fuel points before they can enter into a sea zone for combat"."""
    land_to_sea = [False, True]
    assert max_rounds(5, land_to_sea) == 1
    assert max_rounds(4, land_to_sea) == 0
    assert fuel_left(5, land_to_sea, rounds=1) == 2
    assert can_land(2, at_sea=True, landing_is_sea=False)


# --- Phase 2.1 -----------------------------------------------------------------------


@pytest.mark.parametrize("old_cost", [4, 5, 6, 8])
def test_upgrade_cost_example(old_cost: int) -> None:
    """Phase 2.1: "the player had 50 infantry in play and the cost for improved weapons is +1
    for every infantry, 10% of value is also 1 so player need to pay additional 50
    resources ... It would cost the player 100 resources to upgrade all existing infantry"."""
    assert upgrade_cost(old_cost, old_cost + 1, 50) == 100


def test_upgrade_cost_rounds_the_tenth_up() -> None:
    # Phase 2.1: "10% of new value (rounded up)": 11 -> 2, 10 -> 1, 0 -> 0.
    assert upgrade_cost_per_unit(10, 11) == 1 + 2
    assert upgrade_cost_per_unit(9, 10) == 1 + 1
    assert upgrade_cost(0, 0, 7) == 0
    with pytest.raises(ValueError, match="negative"):
        upgrade_cost(5, 6, -1)


# --- Phase 3.3 -----------------------------------------------------------------------

A = {"infantry": 4}
B = {"infantry": 3}
TABLE = load_scenario("1914").recon  # the Phase 3.3 table, scenarios/1914/recon.toml


def test_recon_example_two_borders() -> None:
    """Phase 3.3: "if base chance for A to see exact deployment of C is, say 34% (4 infantry
    units) and for B it is 27% (3 infantry units), the resulting chance would be 52%"."""
    assert recon.border_chance(TABLE, A) == 1 - Fraction(9, 10) ** 4
    assert recon.percent(recon.border_chance(TABLE, A)) == 34
    assert recon.percent(recon.border_chance(TABLE, B)) == 27
    both = recon.recon_chance(TABLE, [(A, recon.OPEN), (B, recon.OPEN)])
    assert both == 1 - Fraction(9, 10) ** 7
    assert recon.percent(both) == 52


def test_recon_example_trench_against_one_border() -> None:
    """Phase 3.3: "... but if C have trenches against A then it would be only 39%."

    The text works from its rounded 34% and 27%: 1 - (1 - 0.34/2)(1 - 0.27) = 39.4%.
    From the unrounded border chances the same rule gives 39.6%, also "39%" to the
    whole percent below (the rules' printed percentages are not all rounded one way).
    """
    as_printed = recon.any_hit([recon.COVER_FACTOR[recon.TRENCH] * Fraction(34, 100), Fraction(27, 100)])
    assert recon.percent(as_printed) == 39
    exact = recon.recon_chance(TABLE, [(A, recon.TRENCH), (B, recon.OPEN)])
    assert exact == 1 - (1 - (1 - Fraction(9, 10) ** 4) / 2) * Fraction(9, 10) ** 3
    assert int(exact * 100) == 39


def test_recon_example_artillery_cannot_see() -> None:
    """Phase 3.3: "if there are 4 inf units in province A and 2 inf units and 1 art unit in
    province B, both adjacent to province C, then the chance to see the exact number in
    province C is C=1-(1-chance inf)6*(1-chance art)=1-(1-0.1)6*(1-0.0)=1-0.53*1=47%"."""
    chance = recon.recon_chance(TABLE, [(A, recon.OPEN), ({"infantry": 2, "artillery": 1}, recon.OPEN)])
    assert chance == 1 - Fraction(9, 10) ** 6
    assert recon.percent(chance) == 47


def test_recon_trench_maxima() -> None:
    """Phase 3.3: "for provinces with trenches the maximum is 50%, and for provinces with
    supertrenches the maximum is a mere 25%"."""
    crowd = {"infantry": 200}
    assert Fraction(49, 100) < recon.border_chance(TABLE, crowd, recon.TRENCH) < Fraction(1, 2)
    assert Fraction(24, 100) < recon.border_chance(TABLE, crowd, recon.SUPER_TRENCH) < Fraction(1, 4)


def test_recon_active_land_column_is_the_stated_multiple() -> None:
    """Phase 3.3: "Land units in recon mission have 5 times basic chance for success, air
    units 8 times" (the land columns of the table agree)."""
    for kind, times in (("infantry", 5), ("tank", 5), ("fighter", 8), ("bomber", 8)):
        assert recon.base_chance(TABLE, kind, recon.LAND, active=True) == times * recon.base_chance(TABLE, kind)


def test_recon_roll_matches_chance() -> None:
    chance = recon.recon_chance(TABLE, [(A, recon.OPEN), (B, recon.OPEN)])
    dice = Dice("recon-stats", 1)
    trials = 20_000
    hits = sum(recon.roll_recon(chance, dice, "recon test") for _ in range(trials))
    assert within_four_sigma(hits, trials, float(chance))


# --- Phase 4.2 -----------------------------------------------------------------------

BRITISH = ["battleship", "cruiser", "cruiser", "cruiser", "fighter"]
ESCORT = ["cruiser", "cruiser"]
TRANSPORTS = ["transport"] * 3


def test_contact_example_against_transports() -> None:
    """Phase 4.2: "British TF against transport TF has a chance for engaging of
    BB-DD-DD-DD-Fig=3-5-5-5-3 on D10 die (93% chance)".

    The table gives fighters 1-2, not 3; both readings print as 93%."""
    assert defensive_factor(TRANSPORTS) == 0
    factors = aggressive_factors(BRITISH, TRANSPORTS)
    assert factors == [3, 5, 5, 5, 2]
    assert printed_percent(contact_chance(factors)) == 93
    assert printed_percent(contact_chance([3, 5, 5, 5, 3])) == 93


def test_contact_example_against_escort() -> None:
    """Phase 4.2: "BB-DD-DD-DD-Fig=1-3-3-3-1 on D10 die against German escorting TF (72% chance)"."""
    assert defensive_factor(ESCORT) == 2
    factors = aggressive_factors(BRITISH, ESCORT)
    assert factors == [1, 3, 3, 3, 1]
    assert printed_percent(contact_chance(factors)) == 72


def test_contact_example_escort_interception() -> None:
    """Phase 4.2: "escorting TF rolls for a chance of interception - DD-DD=3-3 on D10 die (51% chance)"."""
    assert defensive_factor(BRITISH) == 2  # "not cumulative, only higher value is taken"
    factors = aggressive_factors(ESCORT, BRITISH)
    assert factors == [3, 3]
    assert contact_chance(factors) == Fraction(51, 100)


def test_contact_radar_and_minimum() -> None:
    # Phase 4.2: factor never below 1; radar adds two.
    assert aggressive_factors(["submarine"], ["bomber"]) == [1]
    assert aggressive_factors(["battleship"], [], radar=True) == [5]
    assert aggressive_factors(["transport", "carrier"], []) == []


@pytest.mark.parametrize(
    ("mine", "theirs"), [(BRITISH, TRANSPORTS), (BRITISH, ESCORT), (ESCORT, BRITISH)], ids=["93", "72", "51"]
)
def test_contact_rolls_match_chance(mine: list[str], theirs: list[str]) -> None:
    factors = aggressive_factors(mine, theirs)
    dice = Dice("naval-contact-stats", 1)
    trials = 10_000
    hits = sum(engages(factors, dice, "contact test") for _ in range(trials))
    assert within_four_sigma(hits, trials, float(contact_chance(factors)))
    assert len(dice.log) == trials * len(factors)  # every member rolls, always


# --- Phase 4.7 and Phase 1.4 ----------------------------------------------------------

WEST = ("Southern Atlantic", "Middle Atlantic")
EAST = ("Western Mediterranean", "Gulf of Lyon")


def test_sub_warfare_split_example() -> None:
    """Phase 4.7: "France issues order to transfer 20 resources from French Africa to France.
    There are two shortest paths ... The maximum transfered through each link is 10 each.
    So, single submarine can destroy 1-5 resources transfered from western path."."""
    assert split_transfer(20, 2) == [10, 10]
    seen: Counter[int] = Counter()
    dice = Dice("sub-warfare-split", 1)
    for _ in range(2_000):
        losses = transfer_losses(20, [WEST, EAST], {"Southern Atlantic": 1}, dice)
        assert losses[EAST] == 0
        seen[losses[WEST]] += 1
    assert sorted(seen) == [1, 2, 3, 4, 5]
    assert all(within_four_sigma(n, 2_000, 0.2) for n in seen.values())


def test_sub_warfare_cap_is_the_amount_on_the_path() -> None:
    # Phase 4.7: "with maximum of full amount of transfered resources": 5 subs on a 3-resource path.
    dice = Dice("sub-warfare-cap", 1)
    assert transfer_losses(6, [WEST, EAST], {"Middle Atlantic": 5}, dice)[WEST] == 3
    assert split_transfer(7, 2) == [4, 3]


def test_sub_warfare_us_trade_example() -> None:
    """Phase 4.7: "4 German subs end movement in Bay of Biscay. France collects 5 trade points
    ... German subs can sink 1-5 resources each (that can be theoretical 4-20 resources),
    but the maximum Germans can take is only 5."

    Four subs roll at least 4, so the whole 5 is lost unless all four roll a 1: 1 - (1/5)^4."""
    dice = Dice("sub-warfare-us-trade", 1)
    trials = 5_000
    results = Counter(us_trade_loss(4, 5, dice) for _ in range(trials))
    assert set(results) <= {4, 5}
    rolls = [r.result for r in dice.log]
    sums = [sum(rolls[i : i + 4]) for i in range(0, len(rolls), 4)]
    assert 4 <= min(sums) and max(sums) <= 20
    assert within_four_sigma(results[5], trials, 1 - (1 / 5) ** 4)


def test_unrestricted_brest_example() -> None:
    """Phase 1.4: "French Empire has 12 resources from territory of Brest. If unrestriced
    submarine warfare is declared then if enemy sub is deployed in Middle Atlantic that
    can cause that France lose up to 12 resources." Each sub hits 1-10 (D10)."""
    target = load_scenario("1914").unrestricted["france"]
    assert target.zones == ("Middle Atlantic",) and target.value == 12
    dice = Dice("unrestricted-brest", 1)
    one_sub = Counter(unrestricted_damage(1, target, dice) for _ in range(3_000))
    assert sorted(one_sub) == list(range(1, 11))
    two_subs = Counter(unrestricted_damage(2, target, dice) for _ in range(3_000))
    assert max(two_subs) == 12
    # P(2D10 >= 12) = 45/100: those all become exactly 12.
    assert within_four_sigma(two_subs[12], 3_000, 0.45)


@pytest.fixture(scope="module")
def world() -> World:
    return load_world("1914")


def test_unrestricted_table_matches_the_map(world: World) -> None:
    # Phase 1.4 table (scenario data): every zone and territory exists, and "Value" is the
    # territories' total; all eleven rows of the rules' table are there.
    table = load_scenario("1914").unrestricted
    assert sorted(table) == sorted(["britain", "germany", "austria-hungary", "france", "usa", "italy", "japan",
                                    "china", "russia", "ottoman", "spain"])
    for nation, target in sorted(table.items()):
        assert all(world.resolve(z) and world.get(z).is_sea for z in target.zones), nation
        owned = [world.get(t) for t in target.territories]
        assert all(t.owner == nation for t in owned), nation
        assert sum(t.value for t in owned) == target.value, nation


def test_french_africa_to_france_on_the_real_map(world: World) -> None:
    """Phase 4.7 example on the 1914 map. The rules see two equally short paths, "through
    Southern Atlantic to Middle Atlantic or Bay of Biscay" and "through Western
    Mediterranean Sea to Gulf of Lyon". On the map, Algeria's Mediterranean route is
    shorter (2 zones) than any Atlantic one, while the Atlantic colonies (Morocco,
    Senegal, ...) get two equal 3-zone paths via Southern Atlantic."""
    mainland = [
        t.name for t in world.lands() if t.owner == "france" and t.section == "E" and t.name != "Corsica"
    ]
    assert shortest_sea_paths(world, ["Algeria"], mainland) == [EAST]
    assert shortest_sea_paths(world, ["Morocco"], mainland) == [
        ("Cape Verde", "Southern Atlantic", "Bay of Biscay"),
        ("Cape Verde", "Southern Atlantic", "Middle Atlantic"),
    ]
    # A naval blockade of the Western Mediterranean cuts Algeria's short path (Phase 4.7).
    cut = shortest_sea_paths(world, ["Algeria"], mainland, closed={"Western Mediterranean"})
    assert cut == [("Ionian Sea", "Tyrrhenian Sea", "Gulf of Lyon")]
    assert shortest_sea_paths(world, ["French Equatorial Africa"], mainland) == []  # landlocked
