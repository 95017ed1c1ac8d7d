"""Bombing raids (4.1.1 with 4.5; engine/phase4_air.raid) on the real 1914 map, rolled with
fixed seeds: the damage of 1D10 a bomber, the AA gun's free roll, the interception at the
fighter table's values, against what the rules make of them."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from moderator.engine import phase4_air, wtea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.event_codes import SCHEMA
from moderator.engine.state import GameState
from moderator.orders.model import Bombing, LetPass, Order, UnitCount
from tests.test_engine_phase4_land import SCEN, WORLD, position

STEP = next(s for s in wtea.PHASES if s.section == "4.1.1")


@lru_cache(maxsize=8)
def before(guards: tuple[tuple[str, int], ...], bombers: int) -> GameState:
    state = position(clear=["Lodz"], add=[("russia", "infantry", "Lodz", 1), ("germany", "bomber", "Silesia", bombers),
                                          *(("russia", kind, "Lodz", n) for kind, n in guards)])
    state.nations["germany"].tech["improved_bombers"] = 2
    state.nations["russia"].saved = 100
    return state


def raid(guards: Sequence[tuple[str, int]], bombers: int, aim: str, seed: str,
         extra: Sequence[Order] = ()) -> dict:  # type: ignore[type-arg]
    """Germany's `bombers` from Silesia raid Lodz, held by Russia (100 saved) with `guards`."""
    state = before(tuple(guards), bombers).copy()
    order = Bombing(aim, (UnitCount("bomber", bombers),), "Silesia", "Lodz")
    ctx = TurnContext(state, {"germany": [order], "russia": list(extra)}, WORLD, SCEN, dice_root=Dice(seed, 1),
                      schema=SCHEMA)
    ctx.step = STEP
    planes = [u for u in ctx.state.units if u.nation == "germany" and u.kind == "bomber" and u.location == "Silesia"]
    phase4_air.raid(ctx, "germany", 0, order, planes[:bombers])
    (event,) = [e.args for e in ctx.events if e.code == "air-raid"]
    return event


def test_each_bomber_through_destroys_a_d10_of_saved_resources() -> None:
    # 4.1.1: "subtract 1D10 resources": with nothing to stop them, two bombers take 2D10:
    # mean 11, variance 2 x 8.25; every total from 2 to 20 can happen.
    n, total, seen = 400, 0, set()
    for seed in range(n):
        event = raid((), 2, "industry", f"raid-damage-{seed}")
        assert event["through"] == {"bomber": 2}
        total += event["damage"]
        seen.add(event["damage"])
    assert abs(total / n - 11) < 4 * (16.5 / n) ** 0.5
    assert min(seen) >= 2 and max(seen) <= 20 and len(seen) >= 15


def test_the_aa_gun_downs_a_raider_one_time_in_ten() -> None:
    # Anti Air Guns: one roll at the gun's defense value (1) before any other combat.
    n, hits = 500, 0
    for seed in range(n):
        event = raid((("aa", 1),), 2, "city", f"raid-aa-{seed}")
        hits += event["aa_hits"]
        assert event["damage"] == 2 - event["aa_hits"]  # manpower: one a bomber through
    assert abs(hits / n - 0.1) < 4 * (0.09 / n) ** 0.5


def test_an_interceptor_stops_a_lone_bomber_unless_it_falls_first() -> None:
    # One bomber (4 fuel: there, the run, back; one round to spare) meets one Russian fighter
    # of level 0: one round, the bomber hitting at 1, the fighter at 2. The bomber bombs only
    # if it downs the fighter and lives: 0.1 x 0.8 = 0.08; it falls 2 times in 10; otherwise
    # it turns back short of fuel. Let through, it always bombs.
    n, through, lost = 500, 0, 0
    for seed in range(n):
        event = raid((("fighter", 1),), 1, "tactical", f"raid-interception-{seed}")
        assert event["rounds"] == 1
        through += bool(event["through"])
        lost += bool(event["lost"])
    assert abs(through / n - 0.08) < 4 * (0.08 * 0.92 / n) ** 0.5
    assert abs(lost / n - 0.2) < 4 * (0.16 / n) ** 0.5
    for seed in range(50):
        event = raid((("fighter", 1),), 1, "tactical", f"raid-let-through-{seed}", [LetPass("Lodz")])
        assert event["rounds"] == 0 and event["through"] == {"bomber": 1}
