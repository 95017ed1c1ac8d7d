"""Rebasing aircraft on their way (4.1.2 with 4.5 and the Anti Air Guns; engine/orders/rebase.py
fly_pending over engine/air_passage.py), on the real 1914 map with fixed seeds, against what
the rules make of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moderator.engine import air_passage, wtea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.event_codes import SCHEMA
from moderator.engine.orders import rebase
from moderator.engine.state import GameState
from moderator.engine.technology import UPGRADED
from moderator.orders.model import Order, Rebase
from tests.test_engine_phase4_land import SCEN, WORLD, position, units

STEP = next(s for s in wtea.PHASES if s.section == "4.1.2")
ORDER: list[Order] = [Rebase(units(fighter=1), "Silesia", "Warsaw")]


def german_warsaw(guards: int = 0, aa: int = 0) -> GameState:
    """A German fighter of level 3 (fuel 6, 12 to rebase) at Silesia; Warsaw German,
    incorporated and empty; `guards` Russian fighters (level 0) and `aa` Russian AA guns at
    Lodz. The cheapest way, 4 fuel, is over Lodz (into and out of enemy land at double
    cost); over Posen and Plock it would be 5."""
    state = position(clear=["Warsaw"], add=[("germany", "fighter", "Silesia", 1), ("russia", "fighter", "Lodz", guards),
                                            ("russia", "aa", "Lodz", aa)])
    state.control["Warsaw"] = "germany"
    state.incorporated["Warsaw"] = 0
    state.nations["germany"].tech["improved_fighters"] = 3
    state.nations["germany"].flags[UPGRADED] = {"fighter": {"improved_fighters": 3}}
    return state


def rebase_step(state: GameState, orders: Mapping[str, Sequence[Order]], seed: str) -> TurnContext:
    """Step 4.1.2 as resolve() runs it: every REBASE through its home, then the flights."""
    ctx = TurnContext(state.copy(), {n: list(o) for n, o in orders.items()}, WORLD, SCEN, dice_root=Dice(seed, 1),
                      schema=SCHEMA)
    ctx.step = STEP
    for nation in sorted(orders):
        for i, order in enumerate(orders[nation]):
            assert isinstance(order, Rebase) and rebase.RULE.problem(ctx, nation, order) is None
            rebase.RULE.execute(ctx, nation, i, order)
    assert STEP.run is not None
    STEP.run(ctx)
    return ctx


def flight_of(ctx: TurnContext) -> dict:  # type: ignore[type-arg]
    (event,) = [e.args for e in ctx.events if e.code == "flight-intercepted"]
    return event


def landing(ctx: TurnContext) -> list[str]:
    """Where the German fighter's rail group will land it in Phase 7 (nothing if it does not)."""
    return [g.path[-1] for g in ctx.rail if g.nation == "germany"]


def test_a_rebasing_fighter_over_enemy_fighters_is_intercepted_as_often_as_the_dice_say() -> None:
    # 12 fuel less 4 for the way: 8 rounds to spare; each round the German (at 2) and the
    # Russian (at 1) fire together. It gets through once the guard falls while it lives, or
    # when the guard's tank runs dry first; it never runs short itself (8 > the guard's tank).
    state = german_warsaw(guards=1)
    ctx0 = rebase_step(state, {"germany": ORDER}, "tanks")
    guard = next(u for u in state.units if u.nation == "russia" and u.location == "Lodz" and u.kind == "fighter")
    r_g = air_passage.tank_of(ctx0, guard)
    assert r_g < 8
    both = 0.8 * 0.9
    lost_p = sum(both ** k * 0.1 for k in range(r_g))
    n, lost = 600, 0
    for seed in range(n):
        ctx = rebase_step(state, {"germany": ORDER}, f"rebase-way-{seed}")
        event = flight_of(ctx)
        assert event["rebase"] and event["via"] == ["Lodz"] and event["intercepted_over"] == ["Lodz"]
        assert not event["turned_back"]
        fell = bool(event["lost"])
        lost += fell
        assert landing(ctx) == ([] if fell else ["Warsaw"])
        assert [e.code for e in ctx.events if e.code == "rebasing"] == ([] if fell else ["rebasing"])
    assert abs(lost / n - lost_p) < 4 * (lost_p * (1 - lost_p) / n) ** 0.5


def test_the_aa_gun_under_a_rebasing_flight_fires_once() -> None:
    n, downed = 600, 0
    for seed in range(n):
        ctx = rebase_step(german_warsaw(aa=1), {"germany": ORDER}, f"rebase-aa-{seed}")
        event = flight_of(ctx)
        assert event["aa_over"] == ["Lodz"] and event["intercepted_over"] == []
        downed += event["aa_hits"]
        assert landing(ctx) == ([] if event["aa_hits"] else ["Warsaw"])
    assert abs(downed / n - 0.1) < 4 * (0.09 / n) ** 0.5


def test_a_rebase_with_nothing_on_its_way_just_takes_off() -> None:
    ctx = rebase_step(german_warsaw(), {"germany": ORDER}, "free")
    assert not [e for e in ctx.events if e.code == "flight-intercepted"]
    assert landing(ctx) == ["Warsaw"]
    planes = [u for u in ctx.state.units if u.nation == "germany" and u.kind == "fighter" and u.location == "Silesia"]
    assert planes and planes[0].id in ctx.in_transit  # in the air until Phase 7
