"""Aircraft attacking from further than next door meet the enemy fighters on their way
(4.4 with 4.5; engine/attack_flights.py over engine/air_passage.py), on the real 1914 map
with fixed seeds, against what the rules make of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moderator.engine import attack_flights, phase4_land
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.event_codes import SCHEMA
from moderator.engine.orders import move
from moderator.engine.state import GameState
from moderator.engine.technology import UPGRADED
from moderator.orders.model import Attack, LetPass, Move, Order
from tests.test_engine_phase4_land import SCEN, STEP, WORLD, battles, land_step, position, rolls, units


def warsaw_raid(guards: int) -> GameState:
    """A German fighter of level 3 (fuel 6: two rounds after 2 out and 2 back) at Silesia;
    Warsaw held by one Russian infantry; `guards` Russian fighters (level 0) at Lodz."""
    state = position(clear=["Warsaw"], add=[("germany", "fighter", "Silesia", 1), ("russia", "infantry", "Warsaw", 1),
                                            ("russia", "fighter", "Lodz", guards)])
    state.nations["germany"].tech["improved_fighters"] = 3
    state.nations["germany"].flags[UPGRADED] = {"fighter": {"improved_fighters": 3}}
    return state


ORDER: list[Order] = [Attack(units(fighter=1), "Silesia", "Warsaw")]


def test_an_attacking_fighter_meets_the_interceptor_on_its_way() -> None:
    # The German fighter (at 2 against level 0) and the Russian one (at 1 against level 3)
    # fight one round over Lodz; the German has fuel for that round and one in the battle,
    # so it flies on only if the interceptor fell and it lives: 0.2 x 0.9 = 0.18; it falls
    # 1 time in 10; otherwise it turns back short of fuel, and no battle is fought.
    state = warsaw_raid(1)
    n, reached, lost = 500, 0, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": ORDER}, f"on-the-way-{seed}")
        (event,) = [e.args for e in ctx.events if e.code == "attack-intercepted"]
        assert event["via"] == ["Lodz"] and event["intercepted_over"] == ["Lodz"] and event["rounds"] == 1
        fought = battles(ctx)
        assert bool(fought) == bool(event["through"])
        if fought:
            reached += 1
            assert fought[0]["rounds"] == 1  # its other round was spent over Lodz
        lost += bool(event["lost"])
        home = [u for u in ctx.state.units if u.nation == "germany" and u.kind == "fighter" and u.location == "Silesia"]
        fell = bool(event["lost"]) or bool(fought and fought[0]["losses"]["germany"])  # on the way or in the battle
        assert len(home) == 1 - fell
    assert abs(reached / n - 0.18) < 4 * (0.18 * 0.82 / n) ** 0.5
    assert abs(lost / n - 0.1) < 4 * (0.09 / n) ** 0.5


def test_without_interceptors_on_the_way_the_fighter_fights_both_rounds() -> None:
    for seed in range(20):
        ctx = land_step(warsaw_raid(0), {"germany": ORDER}, f"free-{seed}")
        assert not [e for e in ctx.events if e.code == "attack-intercepted"]
        (battle,) = battles(ctx)
        ended = battle["losses"].get("russia") or battle["losses"].get("germany")  # someone fell: it stops
        assert battle["rounds"] == 2 or (battle["rounds"] == 1 and ended)


def test_fighters_letting_it_through_do_not_intercept() -> None:
    for seed in range(20):
        ctx = land_step(warsaw_raid(2), {"germany": ORDER, "russia": [LetPass("Lodz")]}, f"let-{seed}")
        assert not [e for e in ctx.events if e.code == "attack-intercepted"]
        assert [e.args["territory"] for e in ctx.events if e.code == "let-through"] == ["Lodz"]
        assert len(battles(ctx)) == 1


def step_in_order(state: GameState, orders: Mapping[str, Sequence[Order]], seed: str,
                  nations: Sequence[str]) -> TurnContext:
    """Step 4.4 with the nations' orders carried out in the order `nations` gives."""
    ctx = TurnContext(state.copy(), {n: list(o) for n, o in orders.items()}, WORLD, SCEN, dice_root=Dice(seed, 1),
                      schema=SCHEMA)
    ctx.step = STEP
    for nation in nations:
        for i, order in enumerate(orders[nation]):
            if isinstance(order, Move):
                assert move.RULE.problem(ctx, nation, order) is None
                move.RULE.execute(ctx, nation, i, order)
    phase4_land.land_moves(ctx)
    return ctx


def told(ctx: TurnContext) -> list[str]:
    """The step's events, the lines' numbers aside, in a fixed order (a guideline-1 move is
    told in the order the moves were given; what is told is the same)."""
    return sorted(repr((e.code, e.seen_by, sorted((k, v) for k, v in e.args.items() if k != "order")))
                  for e in ctx.events)


def test_allied_attacks_meet_the_interceptors_together_in_any_order() -> None:
    # German fighters from Silesia and Austro-Hungarian ones from Krakow attack Warsaw, both
    # over Lodz (Lublin is guarded too; Lodz comes first by name) at the same time: one air
    # combat there, then one battle at Warsaw. Nations and lines in any order: the same.
    state = position(clear=["Warsaw"], add=[("russia", "infantry", "Warsaw", 2), ("russia", "fighter", "Lodz", 2),
                                            ("russia", "fighter", "Lublin", 1), ("germany", "fighter", "Silesia", 2),
                                            ("austria-hungary", "fighter", "Krakow", 2)])
    for nation in ("germany", "austria-hungary"):
        state.nations[nation].tech["improved_fighters"] = 3
        state.nations[nation].flags[UPGRADED] = {"fighter": {"improved_fighters": 3}}
    orders: dict[str, list[Order]] = {
        "germany": [Attack(units(fighter=2), "Silesia", "Warsaw"), Move(units(infantry=1), "Silesia", "Posen")],
        "austria-hungary": [Attack(units(fighter=2), "Krakow", "Warsaw")]}
    shuffled = {n: list(reversed(o)) for n, o in orders.items()}
    for seed in range(10):
        runs = [step_in_order(state, orders, f"allied-{seed}", ["austria-hungary", "germany"]),
                step_in_order(state, shuffled, f"allied-{seed}", ["germany", "austria-hungary"])]
        seen = [([(r.purpose, r.result) for r in ctx.dice.log],
                 told(ctx),
                 sorted((u.id, u.location) for u in ctx.state.units)) for ctx in runs]
        assert seen[0] == seen[1]
        met = [e.args for e in runs[0].events if e.code == "attack-intercepted"]
        assert sorted(e["nation"] for e in met) == ["austria-hungary", "germany"]
        assert all(e["intercepted_over"] == ["Lodz"] for e in met)
        assert rolls(runs[0], "air combat over Lodz round 1: russia fighter") == 2  # one combat: each guard once


def test_aa_guns_on_the_way_fire_once_at_an_attacking_fighter() -> None:
    # Anti Air Guns: "one die roll against enemy planes entering the given territory": the
    # German fighter flying over Lodz to attack Warsaw meets the Russian gun there (at 1) and
    # falls 1 time in 10; a gun's shot is no round of combat ("Fighters"), so the fighter
    # that lives still has both its rounds for the battle. The battle's own AA guns are
    # Warsaw's (none here).
    state = warsaw_raid(0)
    state.new_unit("russia", "aa", "Lodz")
    n, downed = 600, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": ORDER}, f"aa-way-{seed}")
        (event,) = [e.args for e in ctx.events if e.code == "attack-intercepted"]
        assert event["aa_over"] == ["Lodz"] and event["intercepted_over"] == [] and event["rounds"] == 0
        assert rolls(ctx, "AA at Lodz: russia aa") == 1
        downed += event["aa_hits"]
        assert bool(battles(ctx)) == (event["aa_hits"] == 0)
    assert abs(downed / n - 0.1) < 4 * (0.09 / n) ** 0.5


# ---- aircraft moving to friendly land over enemy land (4.5: they "move into a territory") ------


def german_warsaw(guards: int) -> GameState:
    """warsaw_raid's German fighter (level 3, fuel 6) and `guards` Russian fighters at Lodz,
    with Warsaw German and empty: the only way from Silesia there is over Lodz."""
    state = warsaw_raid(guards)
    state.units = [u for u in state.units if u.location != "Warsaw"]
    state.control["Warsaw"] = "germany"
    return state


MOVE_ORDER: list[Order] = [Move(units(fighter=1), "Silesia", "Warsaw")]


def test_a_fighter_moving_over_enemy_land_is_intercepted_as_often_as_the_dice_say() -> None:
    # The move costs 2 of its 6 fuel: 4 rounds to spare. Each round the German (at 2) and the
    # Russian (at 1) fire together: the German gets through once the guard falls while it
    # lives, or when the guard's tank runs dry first ("merely outlast"); it turns back to
    # Silesia when its own spare runs out first.
    state = german_warsaw(1)
    ctx0 = land_step(state, {"germany": MOVE_ORDER}, "tanks")
    guard = next(u for u in ctx0.state.units if u.nation == "russia" and u.location == "Lodz" and u.kind == "fighter")
    r_f, r_g = 4, attack_flights.tank_of(ctx0, guard)
    p, q, n_both = 0.2, 0.1, 0.8 * 0.9
    rounds = min(r_f, r_g)
    reach = sum(n_both ** k * p * (1 - q) for k in range(rounds)) + (n_both ** rounds if r_g <= r_f else 0)
    lost_p = sum(n_both ** k * q for k in range(rounds))
    n, reached, lost = 600, 0, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": MOVE_ORDER}, f"move-way-{seed}")
        (event,) = [e.args for e in ctx.events if e.code == "flight-intercepted"]
        assert event["via"] == ["Lodz"] and event["intercepted_over"] == ["Lodz"] and not event["rebase"]
        where = [u.location for u in ctx.state.units if u.nation == "germany" and u.kind == "fighter"
                 and u.location in ("Silesia", "Warsaw")]
        reached += where == ["Warsaw"]
        lost += not where
        assert bool(event["through"]) == (where == ["Warsaw"])
        assert bool(event["turned_back"]) == (where == ["Silesia"])
    assert abs(reached / n - reach) < 4 * (reach * (1 - reach) / n) ** 0.5
    assert abs(lost / n - lost_p) < 4 * (lost_p * (1 - lost_p) / n) ** 0.5


def test_a_move_unguarded_or_let_through_just_lands() -> None:
    for guards, orders in ((0, {"germany": MOVE_ORDER}),
                           (2, {"germany": MOVE_ORDER, "russia": [LetPass("Lodz")]})):
        ctx = land_step(german_warsaw(guards), orders, f"move-free-{guards}")
        assert not [e for e in ctx.events if e.code == "flight-intercepted"]
        assert [e.args["dest"] for e in ctx.events if e.code == "moved"] == ["Warsaw"]
        assert any(u.location == "Warsaw" and u.kind == "fighter" for u in ctx.state.units)
