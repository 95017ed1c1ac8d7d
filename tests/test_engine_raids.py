"""Bombing raids (4.1.1 with 4.5; engine/phase4_air.raid) on the real 1914 map, rolled with
fixed seeds: the damage of 1D10 a bomber, the AA gun's free roll, the interception at the
fighter table's values, against what the rules make of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from moderator.engine import phase4_air, wtea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.event_codes import SCHEMA
from moderator.engine.orders import bombing
from moderator.engine.state import GameState
from moderator.engine.technology import UPGRADED
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


def fighter_raids(radar: bool, n: int) -> int:
    """Two German fighters of level 1 (fuel 4: there, the run, back and one round to spare)
    raid Lodz tactically; one Russian fighter of level 0 guards it, with a Russian radar or
    not. How many times of n the guard falls in its one round."""
    state = position(clear=["Lodz"], add=[("russia", "infantry", "Lodz", 1), ("russia", "fighter", "Lodz", 1),
                                          ("germany", "fighter", "Silesia", 2),
                                          *([("russia", "radar", "Lodz", 1)] if radar else [])])
    state.nations["germany"].tech["improved_fighters"] = 1
    state.nations["germany"].flags[UPGRADED] = {"fighter": {"improved_fighters": 1}}
    order = Bombing("tactical", (UnitCount("fighter", 2),), "Silesia", "Lodz")
    downed = 0
    for seed in range(n):
        ctx = TurnContext(state.copy(), {"germany": [order]}, WORLD, SCEN, dice_root=Dice(f"radar-{seed}", 1),
                          schema=SCHEMA)
        ctx.step = STEP
        planes = [u for u in ctx.state.units if u.nation == "germany" and u.kind == "fighter"
                  and u.location == "Silesia"]
        phase4_air.raid(ctx, "germany", 0, order, planes)
        (event,) = [e.args for e in ctx.events if e.code == "air-raid"]
        assert event["rounds"] == 1
        downed += bool(event["interceptors_lost"])
    return downed


def test_a_radar_lowers_the_raiders_air_combat_value() -> None:
    # Radar: "Enemy planes receive -1 to their attack when radar is present". The raiders
    # (level 1 against level 0: 2 in the table) hit at 1 over a Russian radar: the guard
    # falls when either of two dice hits, 1 - 0.9^2 = 0.19; without the radar 1 - 0.8^2 = 0.36.
    n = 400
    assert abs(fighter_raids(True, n) / n - 0.19) < 4 * (0.19 * 0.81 / n) ** 0.5
    assert abs(fighter_raids(False, n) / n - 0.36) < 4 * (0.36 * 0.64 / n) ** 0.5


def test_a_raid_is_intercepted_on_its_way_as_often_as_the_dice_say() -> None:
    # 4.5: "When aircraft move into a territory ... containing enemy fighters, the enemy
    # fighters have the option of intercepting". Two German bombers of level 2 (fuel 6: one
    # round to spare) fly from Silesia over Lodz to Warsaw; a Russian fighter at Lodz meets
    # them on the way. The bombers (at 1) must down it in their one round, 1 - 0.9^2 = 0.19,
    # or turn back; the fighter (at 2) downs one of them 2 times in 10.
    state = position(clear=["Lodz"], add=[("russia", "infantry", "Lodz", 1), ("russia", "fighter", "Lodz", 1),
                                          ("germany", "bomber", "Silesia", 2)])
    state.units = [u for u in state.units if not (u.location == "Warsaw" and u.kind == "fighter")]
    state.nations["germany"].tech["improved_bombers"] = 2
    state.nations["germany"].flags[UPGRADED] = {"bomber": {"improved_bombers": 2}}
    order = Bombing("city", (UnitCount("bomber", 2),), "Silesia", "Warsaw")
    n, through, lost = 500, 0, 0
    for seed in range(n):
        ctx = TurnContext(state.copy(), {"germany": [order]}, WORLD, SCEN, dice_root=Dice(f"on-the-way-{seed}", 1),
                          schema=SCHEMA)
        ctx.step = STEP
        planes = [u for u in ctx.state.units if u.nation == "germany" and u.kind == "bomber"
                  and u.location == "Silesia"]
        phase4_air.raid(ctx, "germany", 0, order, planes)
        (event,) = [e.args for e in ctx.events if e.code == "air-raid"]
        assert event["via"] == ["Lodz"] and event["intercepted_over"] == ["Lodz"] and event["rounds"] == 1
        through += bool(event["through"])
        lost += event["lost"].get("bomber", 0)
        assert event["damage"] == sum(event["through"].values())
    assert abs(through / n - 0.19) < 4 * (0.19 * 0.81 / n) ** 0.5
    assert abs(lost / n - 0.2) < 4 * (0.16 / n) ** 0.5


# ---- every raid of the step at once (Phase 4: "Each can happen in the same time") -----------


def raid_step(state: GameState, orders: Mapping[str, Sequence[Order]], seed: str,
              nations: Sequence[str] | None = None) -> TurnContext:
    """Step 4.1.1 as resolve() runs it, the nations' orders carried out in the order
    `nations` gives (resolve() sorts them; here any order, to show it does not matter)."""
    ctx = TurnContext(state.copy(), {n: list(o) for n, o in orders.items()}, WORLD, SCEN, dice_root=Dice(seed, 1),
                      schema=SCHEMA)
    ctx.step = STEP
    for nation in nations or sorted(orders):
        for i, order in enumerate(orders[nation]):
            assert bombing.RULE.problem(ctx, nation, order) is None
            bombing.RULE.execute(ctx, nation, i, order)
    if STEP.run is not None:
        STEP.run(ctx)
    return ctx


def bombers(add: Sequence[tuple[str, str, str, int]], clear_warsaw: bool = True) -> GameState:
    """The opening with Russia's fighters at Warsaw gone (if asked), `add` added, and the
    Central Powers' bombers at level 2 (industrial bombing; 6 fuel)."""
    state = position(add=add)
    if clear_warsaw:
        state.units = [u for u in state.units if not (u.location == "Warsaw" and u.kind == "fighter")]
    for nation in ("germany", "austria-hungary"):
        state.nations[nation].tech["improved_bombers"] = 2
        state.nations[nation].flags[UPGRADED] = {"bomber": {"improved_bombers": 2}}
    return state


def test_two_raids_over_one_place_meet_its_fighter_together() -> None:
    # Two German raids of one bomber each (6 fuel: one round to spare) fly from Silesia
    # over Lodz to Warsaw at the same time; one Russian fighter at Lodz meets both in one
    # air combat: the bombers (at 1) down it with either of two dice, 0.19, and both get
    # through when it also misses (at 2): 0.19 x 0.8 = 0.152. Flown one after the other
    # (the first raid alone, then the second against what is left) both would get through
    # only 0.1 x 0.8 = 0.08 of the time.
    state = bombers([("russia", "fighter", "Lodz", 1), ("germany", "bomber", "Silesia", 2)])
    orders = {"germany": [Bombing("city", (UnitCount("bomber", 1),), "Silesia", "Warsaw"),
                          Bombing("tactical", (UnitCount("bomber", 1),), "Silesia", "Warsaw")]}
    n, both, guard_down = 800, 0, 0
    for seed in range(n):
        ctx = raid_step(state, orders, f"together-{seed}")
        events = [e.args for e in ctx.events if e.code == "air-raid"]
        assert [e["intercepted_over"] for e in events] == [["Lodz"], ["Lodz"]]
        assert rolls_of(ctx, "air combat over Lodz round 1: russia fighter") == 1  # one combat, one die a round
        both += all(e["through"] for e in events)
        guard_down += bool(events[0]["interceptors_lost"])
    assert abs(both / n - 0.152) < 4 * (0.152 * 0.848 / n) ** 0.5
    assert abs(guard_down / n - 0.19) < 4 * (0.19 * 0.81 / n) ** 0.5


def rolls_of(ctx: TurnContext, purpose: str) -> int:
    return sum(1 for r in ctx.dice.log if r.purpose == purpose)


def without_line(args: dict) -> dict:  # type: ignore[type-arg]
    return {k: v for k, v in args.items() if k != "order"}


def test_the_raids_do_not_depend_on_the_order_of_nations_or_lines() -> None:
    # Germany's raid from Silesia passes over Lodz to Warsaw while Germany's from Posen and
    # Austria-Hungary's from Krakow bomb Lodz itself, all at the same time (one fuel point
    # out): Lodz's AA gun and fighters meet them together. Carried out in any order of
    # nations and lines, the same dice fall for the same purposes and the same happens.
    state = bombers([("russia", "fighter", "Lodz", 2), ("russia", "aa", "Lodz", 1), ("russia", "infantry", "Lodz", 1),
                     ("germany", "bomber", "Silesia", 2), ("germany", "bomber", "Posen", 2),
                     ("austria-hungary", "bomber", "Krakow", 2)])
    orders: dict[str, list[Order]] = {
        "germany": [Bombing("city", (UnitCount("bomber", 2),), "Silesia", "Warsaw"),
                    Bombing("tactical", (UnitCount("bomber", 2),), "Posen", "Lodz")],
        "austria-hungary": [Bombing("tactical", (UnitCount("bomber", 2),), "Krakow", "Lodz")]}
    shuffled = {n: list(reversed(o)) for n, o in orders.items()}
    for seed in range(12):
        runs = [raid_step(state, orders, f"order-{seed}", ["austria-hungary", "germany"]),
                raid_step(state, orders, f"order-{seed}", ["germany", "austria-hungary"]),
                raid_step(state, shuffled, f"order-{seed}", ["germany", "austria-hungary"])]
        seen = [([(r.purpose, r.result) for r in ctx.dice.log],
                 [(e.code, e.seen_by, without_line(e.args)) for e in ctx.events],
                 sorted((u.id, u.location) for u in ctx.state.units),
                 ctx.state.nations["russia"].manpower_limit, ctx.memo.get(("strike", "Lodz"), 0)) for ctx in runs]
        assert seen[0] == seen[1] == seen[2]
        assert {tuple(e.args["via"]) for e in runs[0].events if e.code == "air-raid"} == {("Lodz",), ()}


def test_a_fighter_busy_with_another_order_does_not_intercept() -> None:
    # 3.3: "Units used in reconaissance mission cannot be used in combat in phase 4 as
    # neither attackers or defenders": a Russian fighter claimed by such an order (any order
    # of the turn) lets the raid by; unclaimed, it intercepts.
    state = bombers([("russia", "fighter", "Lodz", 1), ("germany", "bomber", "Silesia", 2)])
    order = Bombing("city", (UnitCount("bomber", 2),), "Silesia", "Warsaw")
    for busy in (True, False):
        ctx = TurnContext(state.copy(), {"germany": [order]}, WORLD, SCEN, dice_root=Dice("busy", 1), schema=SCHEMA)
        ctx.step = STEP
        if busy:
            ctx.claim([u for u in ctx.state.units if u.location == "Lodz" and u.kind == "fighter"])
        bombing.RULE.execute(ctx, "germany", 0, order)
        phase4_air.fly_pending(ctx)
        (event,) = [e.args for e in ctx.events if e.code == "air-raid"]
        assert (event["intercepted_over"], event["rounds"]) == (([], 0) if busy else (["Lodz"], 1))


def test_aa_guns_fire_at_a_raid_flying_over_them() -> None:
    # Anti Air Guns: "Each AA unit gets only one die roll against enemy planes entering the
    # given territory": the raid from Silesia to Warsaw enters Lodz on its way, so the
    # Russian gun there rolls once (at 1) against both bombers: one falls 1 time in 10, and
    # no fighter being there, no air combat is fought.
    state = bombers([("russia", "aa", "Lodz", 1), ("germany", "bomber", "Silesia", 2)])
    state.units = [u for u in state.units if not (u.location == "Warsaw" and u.kind == "aa")]
    orders: dict[str, list[Order]] = {"germany": [Bombing("city", (UnitCount("bomber", 2),), "Silesia", "Warsaw")]}
    n, downed = 600, 0
    for seed in range(n):
        ctx = raid_step(state, orders, f"aa-on-the-way-{seed}")
        (event,) = [e.args for e in ctx.events if e.code == "air-raid"]
        assert event["via"] == ["Lodz"] and event["aa_over"] == ["Lodz"] and event["intercepted_over"] == []
        assert rolls_of(ctx, "AA at Lodz: russia aa") == 1  # one roll a gun, not one a plane
        downed += event["aa_hits"]
        assert event["lost"].get("bomber", 0) == event["aa_hits"] and event["damage"] == 2 - event["aa_hits"]
    assert abs(downed / n - 0.1) < 4 * (0.09 / n) ** 0.5


def test_a_gun_not_at_war_with_the_raider_does_not_fire() -> None:
    state = bombers([("russia", "aa", "Lodz", 1), ("germany", "bomber", "Silesia", 2)])
    state.units = [u for u in state.units if not (u.location == "Warsaw" and u.kind == "aa")]
    for u in state.units:
        if u.location == "Lodz" and u.kind == "aa":
            u.nation = "italy"  # neutral in 1914: at war with nobody
    orders: dict[str, list[Order]] = {"germany": [Bombing("city", (UnitCount("bomber", 2),), "Silesia", "Warsaw")]}
    for seed in range(5):
        ctx = raid_step(state, orders, f"aa-neutral-{seed}")
        (event,) = [e.args for e in ctx.events if e.code == "air-raid"]
        assert event["aa_over"] == [] and rolls_of(ctx, "AA at Lodz: italy aa") == 0


def test_raids_of_nations_not_allied_meet_the_fighters_one_camp_after_the_other() -> None:
    # The rules speak of allies fighting together (Phase 4 guideline 2) and of fighters
    # intercepting "aircraft" entering their territory (4.5); of flights of two camps not
    # allied to each other over one place at one time they say nothing. Our reading
    # (docs/rules-coverage.md, "Flights at once"): they do not fight each other (neither
    # intercepts: 4.5's interceptors are the territory's fighters); they meet the place's
    # fighters in one air combat a camp, in an order drawn by lot (air_passage.camp_order:
    # never by nation id), the fighters' fuel spent in it kept for the next. Austria-Hungary
    # is made a camp of its own; its raid from Krakow and Germany's from Silesia both pass
    # over Lodz at once.
    state = bombers([("russia", "fighter", "Lodz", 1), ("russia", "fighter", "Lublin", 1),
                     ("germany", "bomber", "Silesia", 1), ("austria-hungary", "bomber", "Krakow", 1)])
    state.nations["austria-hungary"].side = "alone"
    assert not state.allies("germany", "austria-hungary")
    orders: dict[str, list[Order]] = {"germany": [Bombing("city", (UnitCount("bomber", 1),), "Silesia", "Warsaw")],
                                      "austria-hungary": [Bombing("city", (UnitCount("bomber", 1),), "Krakow", "Warsaw")]}
    guard_rolls, second, firsts = 0, 0, set()
    lot = "fighters over Lodz meet first: austria-hungary or germany"
    for seed in range(40):
        runs = [raid_step(state, orders, f"camps-{seed}", ["germany", "austria-hungary"]),
                raid_step(state, orders, f"camps-{seed}", ["austria-hungary", "germany"])]
        assert [(r.purpose, r.result) for r in runs[0].dice.log] == [(r.purpose, r.result) for r in runs[1].dice.log]
        ctx = runs[0]
        (drawn,) = [r.result for r in ctx.dice.log if r.purpose == lot]  # one logged pick
        first, other = ("austria-hungary", "germany") if drawn == 0 else ("germany", "austria-hungary")
        firsts.add(first)
        over_lodz = [r.purpose.rsplit(": ", 1)[1] for r in ctx.dice.log if r.purpose.startswith("air combat over Lodz")]
        flyers = [who for who in over_lodz if who != "russia fighter"]
        assert flyers[0] == f"{first} bomber"  # the camp the lot drew first
        assert flyers == sorted(flyers, key=lambda who: who != f"{first} bomber")  # its combat over first
        events = {e.args["nation"]: e.args for e in ctx.events if e.code == "air-raid"}
        assert events[first]["intercepted_over"] == ["Lodz"]
        guard_alive = not events[first]["interceptors_lost"]
        assert (f"{other} bomber" in flyers) == guard_alive  # the other meets what is left of it
        guard_rolls += over_lodz.count("russia fighter")
        second += guard_alive
    assert second and guard_rolls == 40 + second  # one combat a camp: the guard rolls once in each
    assert firsts == {"austria-hungary", "germany"}  # either may come first: no nation id decides
