"""Sea gates, blockades, transfers by sea and submarines against trade (4.2.6, 4.7, Phase 8).

The catalog holds the rules' cases on the 1914 map (naval-gates-*, naval-blockade-*,
transfer-*, us-trade-sunk-*); these tests hold the chances with fixed seeds and the
readings on the small hand-built world.
"""

from __future__ import annotations

from moderator.engine import passages, sea_lanes
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from tests.test_engine_examples import within_four_sigma
from tests.test_engine_naval import SCENARIO, WORLD, naval_turn, sea_state


def position(closed: dict[str, list[str]] | None = None, holder: str = "britain") -> TurnContext:
    state = sea_state()
    if closed is not None:
        state.nations[holder].flags[passages.CLOSED] = closed
    return TurnContext(state, {}, WORLD, SCENARIO)


def test_a_closing_bars_the_nations_it_names_and_never_its_holder() -> None:
    # Dover Strait (North Sea - English Channel) is held by London's holder, Britain.
    assert passages.barred(position(), "germany", "North Sea", "English Channel", ["cruiser"]) is None
    to_germany = position({"Dover Strait": ["germany"]})
    assert passages.barred(to_germany, "germany", "North Sea", "English Channel", ["cruiser"]) is not None
    assert passages.barred(to_germany, "france", "North Sea", "English Channel", ["cruiser"]) is None
    to_all = position({"Dover Strait": []})
    assert passages.barred(to_all, "france", "English Channel", "North Sea", ["cruiser"]) is not None
    assert passages.barred(to_all, "britain", "English Channel", "North Sea", ["cruiser"]) is None
    # A closing stands only while its declarer holds the gate.
    lost = position({"Dover Strait": []})
    lost.state.control["London"] = "germany"
    assert passages.barred(lost, "france", "English Channel", "North Sea", ["cruiser"]) is None


def test_the_kiel_canal_serves_its_holder_and_allies_only() -> None:
    ctx = position()
    assert passages.barred(ctx, "germany", "Baltic Sea", "North Sea", ["cruiser"]) is None
    assert passages.barred(ctx, "austria", "Baltic Sea", "North Sea", ["cruiser"]) is None
    assert passages.barred(ctx, "france", "Baltic Sea", "North Sea", ["submarine"]) is not None


def test_a_blockade_holds_a_leaving_task_force_as_often_as_its_sighting_chance() -> None:
    # A French destroyer on blockade sights German destroyers on 5 - 2 = 3: 30%.
    state = sea_state(france=[("cruiser", "North Sea", 1)], germany=[("cruiser", "North Sea", 2)])
    orders = {"france": "TF B AT North Sea: 1 dd\nTF B BLOCKADE",
              "germany": "TF G AT North Sea: 2 dd\nTF G MOVE TO English Channel"}
    trials = 600
    held = 0
    for seed in range(trials):
        ctx = naval_turn(state, orders, Dice("blockade-rate", seed))
        stopped = any(e.code == "blockade-held" for e in ctx.events)
        german = {u.location for u in ctx.state.units if u.nation == "germany"}
        assert german <= ({"North Sea"} if stopped else {"English Channel"})
        held += stopped
    assert within_four_sigma(held, trials, 0.3)


def test_submarines_hold_no_blockade_and_pass_it() -> None:
    state = sea_state(france=[("cruiser", "North Sea", 1)], germany=[("submarine", "North Sea", 1)])
    orders = {"france": "TF B AT North Sea: 1 dd\nTF B BLOCKADE",
              "germany": "TF U AT North Sea: 1 sub\nTF U MOVE TO English Channel"}
    ctx = naval_turn(state, orders, Dice("sub-passes", 1))
    assert not any(e.code == "blockade-held" for e in ctx.events)
    assert [u.location for u in ctx.state.units if u.nation == "germany"] == ["English Channel"]
    assert ctx.memo[("blockaded-zones",)] == {"North Sea": ["france"]}


def test_each_submarine_sinks_one_to_five_uniformly() -> None:
    # 4.7: "can destroy 1-5 resources per sub": the mean of one sub is 3, each face 1 in 5.
    from moderator.engine.phase4_submarine_warfare import capped_hits

    dice = Dice("sub-hits", 7)
    rolls = [capped_hits(1, (1, 5), 99, dice, f"t{i}") for i in range(2000)]
    for face in range(1, 6):
        assert within_four_sigma(rolls.count(face), len(rolls), 0.2)
    assert capped_hits(4, (1, 5), 5, Dice("cap", 1), "four subs") <= 5  # "the maximum ... is only 5"


def test_each_submarine_in_unrestricted_warfare_sinks_one_to_ten_uniformly() -> None:
    # 1.4: "Each sub can hit 1-10 on D10 damage from targeted territories ... up to full
    # income from targeted territories": each face 1 in 10, the mean 5.5, never over the cap.
    from moderator.engine.phase4_submarine_warfare import unrestricted_damage
    from moderator.world.scenario_model import UnrestrictedTarget

    wide = UnrestrictedTarget("france", ("Bay of Biscay",), ("Brest",), 999)
    dice = Dice("unrestricted-1d10", 11)
    rolls = [unrestricted_damage(1, wide, dice) for _ in range(3000)]
    assert set(rolls) == set(range(1, 11))
    for face in range(1, 11):
        assert within_four_sigma(rolls.count(face), len(rolls), 0.1)
    assert abs(sum(rolls) / len(rolls) - 5.5) < 4 * (8.25 / len(rolls)) ** 0.5  # variance of a D10: 8.25
    narrow = UnrestrictedTarget("france", ("Bay of Biscay",), ("Brest",), 7)
    assert max(unrestricted_damage(3, narrow, Dice("cap-7", s)) for s in range(50)) == 7


def test_a_cut_transfers_half_is_shared_by_the_cutters() -> None:
    # Phase 8: "half of the money goes to the nation that cuts the path": two cutters share
    # it equally, and the odd resource goes by lot (issue 10), not to the first nation id.
    even = Dice("cut-even", 1)
    assert sea_lanes.shared(even, 21 // 2, ["austria", "germany"]) == {"austria": 5, "germany": 5}
    assert even.log == []  # no die when nothing is odd
    trials, austria = 600, 0
    for seed in range(trials):
        dice = Dice("cut-odd", seed)
        got = sea_lanes.shared(dice, 11 // 2, ["austria", "germany"])
        assert sorted(got.values()) == [2, 3]
        assert [r.purpose for r in dice.log] == ["odd resource of a cut transfer: austria or germany"]
        austria += got["austria"] == 3
    assert within_four_sigma(austria, trials, 0.5)
    three = sea_lanes.shared(Dice("cut-three", 2), 8, ["austria", "germany", "turkey"])
    assert sorted(three.values()) == [2, 3, 3]


# ---- shore bombardment (Battleships, 4.2.3) --------------------------------------------------


def test_only_undamaged_battleships_whose_last_task_is_the_bombardment_fire() -> None:
    from moderator.engine import shore_bombardment

    state = sea_state(germany=[("battleship", "Baltic Sea", 2)])
    ctx = naval_turn(state, {"germany": "TF B AT Baltic Sea: 2 bb\nTF B BOMBARD East Prussia"},
                     Dice("bombard", 1))
    assert [g.value for g in shore_bombardment.guns(ctx, "East Prussia", ["germany"])] == [4, 4]
    assert shore_bombardment.guns(ctx, "East Prussia", ["austria"]) != []  # an ally's landing
    assert shore_bombardment.guns(ctx, "East Prussia", ["france"]) == []
    assert shore_bombardment.guns(ctx, "Kiel", ["germany"]) == []  # another shore
    ctx.state.units[0].damage = 1  # "Damaged battleships may not attack or shore-bombard"
    assert len(shore_bombardment.guns(ctx, "East Prussia", ["germany"])) == 1
    moved = naval_turn(state, {"germany": "TF B AT Baltic Sea: 2 bb\nTF B BOMBARD East Prussia\nTF B PATROL"},
                       Dice("bombard", 1))
    assert shore_bombardment.guns(moved, "East Prussia", ["germany"]) == []  # the task changed


def test_a_bombarding_battleship_hits_at_its_value_in_ten() -> None:
    from moderator.engine import shore_bombardment

    ctx = TurnContext(sea_state(), {}, WORLD, SCENARIO, dice_root=Dice("bombard-rate", 3))
    battery = [shore_bombardment.Gun("germany", "g1", 4)]
    trials = 2000
    hits = sum(shore_bombardment.fire(ctx, "East Prussia", r, battery) for r in range(trials))
    assert within_four_sigma(hits, trials, 0.4)


def test_only_enemy_task_forces_ending_on_patrol_or_bombardment_put_a_transfer_to_the_moderator() -> None:
    # 4.2.6 Note: a blockade cuts (100%); "Other aggresive missions can have 0-100% chance to
    # prevent transfer of resources": those are patrol and shore bombardment (4.2's list),
    # at the end of movement (a patrol that docks at its last point no longer counts), and
    # ships left without orders outside friendly waters, which patrol (4.2.8); defensive
    # missions never; nor a patrol of the sender's ally (Russia is France's).
    from moderator.engine import sea_lanes

    state = sea_state(france=[("cruiser", "North Sea", 1), ("battleship", "North Sea", 1)])
    for orders, expected in (
        ("TF P AT North Sea: 1 dd, 1 bb\nTF P PATROL", {"North Sea": ["france/P"]}),
        ("TF S AT North Sea: 1 dd, 1 bb\nTF S BOMBARD Belgium", {"North Sea": ["france/S"]}),
        ("TF P AT North Sea: 1 dd, 1 bb\nTF P PATROL TO English Channel\nTF P DOCK", {}),
        ("TF B AT North Sea: 1 dd, 1 bb\nTF B BLOCKADE", {}),
        ("TF M AT North Sea: 1 dd, 1 bb\nTF M MOVE TO English Channel", {}),
        ("TF M AT North Sea: 1 dd\nTF M MOVE TO English Channel", {"North Sea": ["france/North Sea (no orders)"]}),
    ):
        ctx = naval_turn(state, {"france": orders}, Dice("prowlers", 1))
        assert sea_lanes.prowlers(ctx, "germany") == expected, orders
        assert sea_lanes.prowlers(ctx, "russia") == {}
