"""The air-combat choices of 4.5 (engine/orders/interception.py) in land battles on the
real 1914 map: LET THROUGH keeps a nation's fighters out of the air combat, BREAK OFF AIR
COMBAT sends the attacking aircraft home after the round its condition is met while
interceptors remain. The chances are checked with fixed seeds against what the rules make
of them."""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.engine.technology import UPGRADED
from moderator.orders.model import AirRetreat, Attack, LetPass
from tests.test_engine_phase4_land import battles, land_step, position, rolls, units


def retreats(ctx: TurnContext) -> list[dict]:  # type: ignore[type-arg]
    return [e.args for e in ctx.events if e.code == "air-retreat"]


def test_breaking_off_after_one_round_leaves_whenever_an_interceptor_is_left() -> None:
    # Three German fighters of level 2 (fuel 5: three rounds from Konigsberg next door, value
    # 2 against level 0) attack Plock, held by two Russian fighters of level 0 (value 1
    # against level 2) and one infantry, and break off after one round. The Russians keep a
    # fighter through the round unless at least two of three German dice hit:
    # P(Bin(3, 0.2) <= 1) = 0.896. Then the Germans leave, fight no ground round and land at
    # home; otherwise they stay and fight the ground rounds.
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 2), ("russia", "infantry", "Plock", 1),
                                           ("germany", "fighter", "Konigsberg", 2)])  # and the one there
    state.nations["germany"].tech["improved_fighters"] = 2
    state.nations["germany"].flags[UPGRADED] = {"fighter": {"improved_fighters": 2}}  # its fighters too (Phase 2.1)
    orders = {"germany": [Attack(units(fighter=3), "Konigsberg", "Plock"), AirRetreat("Plock", "rounds", 1)]}
    n, left = 300, 0
    for seed in range(n):
        ctx = land_step(state, orders, f"break-off-{seed}")
        (battle,) = battles(ctx)
        assert battle["air_rounds"] == 1
        gone = retreats(ctx)
        lost = battle["losses"]["germany"].get("fighter", 0)
        if gone:
            left += 1
            assert battle["rounds"] == 0 and gone[0]["units"] == {"fighter": 3 - lost}
            assert gone[0]["condition"] == "rounds:1" and ctx.count("russia", "Plock", "fighter") >= 1
            assert ctx.count("germany", "Konigsberg", "fighter") == 3 - lost
        else:
            assert ctx.count("russia", "Plock", "fighter") == 0 and battle["rounds"] >= 1
    assert abs(left / n - 0.896) < 4 * (0.896 * 0.104 / n) ** 0.5


def test_breaking_off_on_losses_waits_for_the_loss() -> None:
    # The same attack breaking off when its losses exceed 0: the Germans stay in the air
    # combat until a Russian die hits (each at 1 in 10) while a Russian fighter is left. In
    # the first round: P(a Russian hit) x P(a Russian fighter left) = 0.19 x 0.896.
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 2), ("russia", "infantry", "Plock", 1),
                                           ("germany", "fighter", "Konigsberg", 2)])
    state.nations["germany"].tech["improved_fighters"] = 2
    state.nations["germany"].flags[UPGRADED] = {"fighter": {"improved_fighters": 2}}  # its fighters too (Phase 2.1)
    orders = {"germany": [Attack(units(fighter=3), "Konigsberg", "Plock"), AirRetreat("Plock", "losses", 0)]}
    n, first = 300, 0
    for seed in range(n):
        ctx = land_step(state, orders, f"break-off-losses-{seed}")
        (battle,) = battles(ctx)
        for gone in retreats(ctx):
            assert battle["losses"]["germany"].get("fighter", 0) >= 1 and battle["rounds"] == 0
            first += gone["rounds"] == 1
    assert abs(first / n - 0.19 * 0.896) < 4 * (0.17 * 0.83 / n) ** 0.5


def test_fighters_let_through_never_roll_in_the_air_and_defend_on_the_ground() -> None:
    # Russia lets the German fighters through at Plock: no air round at all; the Russian
    # fighters roll in every ground round at their defense value.
    state = position(clear=["Plock"], add=[("russia", "fighter", "Plock", 2), ("russia", "infantry", "Plock", 1),
                                           ("germany", "fighter", "Konigsberg", 2)])
    orders = {"germany": [Attack(units(fighter=3), "Konigsberg", "Plock")], "russia": [LetPass("Plock")]}
    for seed in range(50):
        ctx = land_step(state, orders, f"let-through-{seed}")
        (battle,) = battles(ctx)
        assert battle["air_rounds"] == 0 and battle["rounds"] == 1  # level 0: fuel for one round
        assert rolls(ctx, "air combat at Plock round 1: attacker germany fighter") == 0
        assert rolls(ctx, "land combat at Plock round 1: defender russia fighter") == 2
        (told,) = [e for e in ctx.events if e.code == "let-through"]
        assert told.seen_by == ("russia",) and told.args["units"] == {"fighter": 2}


def test_a_break_off_met_on_the_way_is_not_told_unused() -> None:
    # A BREAK OFF AIR COMBAT for a place flown over (or for the goal, read on the way too)
    # met interceptors when a flight's event says it fought rounds there; not when it fought none.
    from moderator.engine.events import Event
    from moderator.engine.phase4_air_choices import air_combat_at

    for code in ("attack-intercepted", "flight-intercepted"):
        fought = Event(code, "4.4", ("germany",), {"nation": "germany", "dest": "Warsaw",
                                                    "intercepted_over": ["Lodz"], "rounds": 1})
        assert air_combat_at(fought, "germany", "Lodz") and air_combat_at(fought, "germany", "Warsaw")
        assert not air_combat_at(fought, "germany", "Plock") and not air_combat_at(fought, "austria-hungary", "Lodz")
        shot_at = Event(code, "4.4", ("germany",), {"nation": "germany", "dest": "Warsaw", "intercepted_over": [],
                                                     "rounds": 0})
        assert not air_combat_at(shot_at, "germany", "Warsaw")
