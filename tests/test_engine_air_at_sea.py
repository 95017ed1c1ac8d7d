"""Aircraft at sea (engine/phase4_air_sea.py, engine/air_combat_sea.py, the hunts of
engine/phase4_sea.py): the chances the rules state, counted over turns with fixed seeds,
and the carriers' fighters (4.3 step 1) where the catalog cases do not reach.

The exact dice of each case are the catalog's (tests/catalog/resolve/naval-aircraft-*.txt,
naval-carrier-fighters-*.txt, naval-strikers-break-off-the-air-combat.txt); here the same
steps are played many times and counted against the chances computed from the rules' values.
"""

from __future__ import annotations

import dataclasses
from functools import cache

from moderator.engine import air_combat_sea, naval_combat, phase4_sea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.orders import submarines, task_forces
from moderator.engine.state import GameState
from moderator.engine.technology import UPGRADED
from moderator.orders import model as m
from moderator.world.scenario_model import Scenario
from tests.test_engine_examples import within_four_sigma
from tests.test_engine_naval import SCENARIO, WORLD, parsed_orders, sail, sea_state
from tests.test_engine_ship_gear import hunt, hunters

STRIKE = "ATTACK 1 ftr FROM London TO North Sea"


def at_war(state: GameState) -> GameState:
    state.nations["britain"].at_war_with = ["germany"]
    state.nations["germany"].at_war_with = ["britain"]
    return state


@cache
def scenario(fuel: int) -> Scenario:
    """The small test scenario with fighters of that fuel (5: "naval ready") and carriers
    holding 2 fighters, as the 1914 scenario's ("Aircraft carriers at the lowest technology
    level can carry 2 fighter units")."""
    default = dict(SCENARIO.units["default"])
    default["fighter"] = dataclasses.replace(default["fighter"], fuel=fuel)
    default["carrier"] = dataclasses.replace(default["carrier"], capacity=2)
    return dataclasses.replace(SCENARIO, units={**SCENARIO.units, "default": default})


def strike_state(fighters: int = 1, fighter_level: int = 2, **germany: int) -> GameState:
    """British fighters in London, German units in the North Sea (kind -> count); the
    levels of Improved Fighters read by the fighter table (combat_air)."""
    state = at_war(sea_state(britain=[("fighter", "London", fighters)],
                             germany=[(kind, "North Sea", n) for kind, n in germany.items()]))
    for nation, level in (("britain", fighter_level), ("germany", 2)):
        state.nations[nation].tech["improved_fighters"] = level
        # its fighters fight at their own level: those already fielded are upgraded (Phase 2.1)
        state.nations[nation].flags[UPGRADED] = {"fighter": {"improved_fighters": level}}
    return state


def strike(state: GameState, orders: str, dice: Dice, fuel: int = 5) -> TurnContext:
    ctx = TurnContext(state.copy(), {"britain": parsed_orders(orders)}, WORLD, scenario(fuel), dice_root=dice)
    phase4_sea.naval_movement(ctx)
    return ctx


def count(ctx: TurnContext, nation: str, kind: str, place: str | None = None) -> int:
    return sum(1 for u in ctx.state.units if u.nation == nation and u.kind == kind and place in (None, u.location))


def test_a_fighter_striking_a_cruiser_sinks_and_falls_as_often_as_the_steps_say() -> None:
    # A fighter of fuel 5 has one round at sea (2 in, 2 back). 4.3 step 2: the cruiser's
    # defensive fire (defense 3) downs it 30% of the time; else one round (the fighter
    # attacks at 2, the cruiser defends at 3), then, both afloat, the cruiser fires once
    # more as it leaves (step 6). Cruiser sunk: 0.7 x 0.2 = 14%; fighter lost:
    # 0.3 + 0.7 x (0.3 + 0.7 x 0.8 x 0.3) = 62.76%.
    state = strike_state(cruiser=1)
    trials = 1200
    sunk = lost = 0
    for seed in range(trials):
        ctx = strike(state, STRIKE, Dice("air-strike-rate", seed))
        sunk += count(ctx, "germany", "cruiser") == 0
        lost += count(ctx, "britain", "fighter") == 0
    assert within_four_sigma(sunk, trials, 0.14)
    assert within_four_sigma(lost, trials, 0.3 + 0.7 * (0.3 + 0.7 * 0.8 * 0.3))


def test_a_destroyer_hunting_a_submarine_finds_and_sinks_it_as_often_as_4_2_9_says() -> None:
    # 4.2.9: a destroyer detects on 1-5 (50%); it then has a free round and the first round
    # at its attack 4, the submarine firing back in the first round at its defense 2, then
    # diving. Submarine sunk: 0.5 x (0.4 + 0.6 x 0.4) = 32%; destroyer sunk: 0.5 x 0.6 x 0.2 = 6%.
    trials = 1200
    found = subs = ships = 0
    for seed in range(trials):
        ctx = hunt(hunters(False), Dice("hunt-rate", seed))
        found += any(e.code == "naval-battle" for e in ctx.events)
        subs += count(ctx, "germany", "submarine") == 0
        ships += count(ctx, "britain", "cruiser") == 0
    assert within_four_sigma(found, trials, 0.5)
    assert within_four_sigma(subs, trials, 0.32)
    assert within_four_sigma(ships, trials, 0.06)


def test_strikers_reach_the_ships_past_a_carriers_fighter_as_often_as_they_down_it() -> None:
    # 4.3 step 1 with 4.5: two British fighters of level 3 (fuel 6: two rounds at sea) meet
    # the German fighter of level 2 aboard the carrier: one air round, keeping one for the
    # ships. They go on only when they down it (value 2 each: 1 - 0.8^2 = 36%); the German
    # fighter downs one at 1 (10%). Otherwise they turn back with the guard still up.
    state = strike_state(fighters=2, fighter_level=3, carrier=1, fighter=1)
    trials = 1200
    through = downed = 0
    for seed in range(trials):
        ctx = strike(state, STRIKE.replace("1 ftr", "2 ftr"), Dice("carrier-guard-rate", seed), fuel=6)
        air = next(e for e in ctx.events if e.code == "air-combat-at-sea")
        through += any(e.code == "naval-battle" for e in ctx.events)
        downed += air.args["lost"].get("fighter", 0)
    assert within_four_sigma(through, trials, 0.36)
    assert within_four_sigma(downed, trials, 0.1)


def test_only_undamaged_carriers_launch_and_only_as_many_fighters_as_they_hold() -> None:
    # Aircraft Carriers: "can carry 2 fighter units"; "A damaged carrier cannot launch fighters".
    state = strike_state(carrier=1, fighter=3)
    ctx = TurnContext(state.copy(), {}, WORLD, scenario(5))
    assert len(air_combat_sea.carrier_fighters(ctx, "North Sea", "germany")) == 2
    next(u for u in ctx.state.units if u.kind == "carrier").damage = 1
    assert air_combat_sea.carrier_fighters(ctx, "North Sea", "germany") == []
    assert air_combat_sea.guards(ctx, "North Sea", ["britain"], ()) == []


def test_strikers_with_no_ships_to_attack_meet_no_interceptors() -> None:
    # Without surface ships of an enemy in the zone there is no strike and no air combat.
    state = strike_state(fighter=1)
    ctx = strike(state, STRIKE, Dice("no-ships", 0))
    assert not [e for e in ctx.events if e.code in ("air-combat-at-sea", "naval-battle")]
    assert count(ctx, "britain", "fighter") == 1 and ctx.dice.log == []


# ---- fighters flown off carriers at another sea zone (engine/orders/move.py carrier_strike) ----

def carriers(britain: list[tuple[str, str, int]], germany: list[tuple[str, str, int]]) -> GameState:
    state = at_war(sea_state(britain=britain, germany=germany))
    for nation in ("britain", "germany"):
        state.nations[nation].tech["improved_fighters"] = 2
        state.nations[nation].flags[UPGRADED] = {"fighter": {"improved_fighters": 2}}
    return state


def judged(state: GameState, text: str, fuel: int = 5) -> str | None:
    from moderator.engine.orders import move

    order = parsed_orders(text)[0]
    assert isinstance(order, m.Move)
    why = move.RULE.problem(TurnContext(state.copy(), {}, WORLD, scenario(fuel)), "britain", order)
    return why.code if why else None


def test_fighters_off_a_carrier_may_strike_ships_or_aircraft_in_another_zone() -> None:
    # Aircraft Carriers: "extended aerial operations"; Fighters: 2 out, a round, 2 back to
    # the carrier = the 5 "before they can enter into a sea zone for combat". An ATTACK on a
    # zone with enemy ships is a strike (it was refused as cannot-land); a MOVE is one only
    # into a zone where enemy aircraft are (as a MOVE into enemy land is an attack), and is
    # kept whatever is there (test_a_carrier_move_is_judged_the_same_whatever_the_enemy_has_there).
    mine = [("carrier", "English Channel", 1), ("fighter", "English Channel", 2)]
    ships = carriers(mine, [("battleship", "North Sea", 1)])
    assert judged(ships, "ATTACK 2 ftr FROM English Channel TO North Sea") is None
    assert judged(ships, "MOVE 2 ftr FROM English Channel TO North Sea") is None
    assert judged(ships, "ATTACK 2 ftr FROM English Channel TO North Sea", fuel=4) == "sea-combat-fuel"
    planes = carriers(mine, [("carrier", "North Sea", 1), ("fighter", "North Sea", 1)])
    assert judged(planes, "MOVE 2 ftr FROM English Channel TO North Sea") is None
    next(u for u in ships.units if u.kind == "carrier").damage = 1  # "A damaged carrier cannot launch fighters"
    assert judged(ships, "ATTACK 2 ftr FROM English Channel TO North Sea") == "carrier-cannot-launch"


def test_fighters_away_on_a_strike_do_not_guard_their_own_zone() -> None:
    # Each unit does one thing a turn: two carriers' fighters striking each other's zones
    # at once meet no interceptor (both are away), whatever the dice, and each side's
    # ships fight the other's fighters.
    state = carriers([("carrier", "English Channel", 1), ("fighter", "English Channel", 2)],
                     [("carrier", "North Sea", 1), ("fighter", "North Sea", 2)])
    orders = {"britain": parsed_orders("ATTACK 2 ftr FROM English Channel TO North Sea"),
              "germany": parsed_orders("ATTACK 2 ftr FROM North Sea TO English Channel")}
    for seed in range(20):
        ctx = TurnContext(state.copy(), orders, WORLD, scenario(5), dice_root=Dice("carrier-duel", seed))
        phase4_sea.naval_movement(ctx)
        assert not [e for e in ctx.events if e.code == "air-combat-at-sea"]
        assert sorted(e.args["zone"] for e in ctx.events if e.code == "naval-battle") == ["English Channel", "North Sea"]


def test_a_fighter_whose_carrier_is_gone_lands_on_friendly_land() -> None:
    # Aircraft Carriers: back aboard its carrier when it is still there with room, damaged
    # or not ("fighters may still land on it"); else, as any aircraft (4.5 step 3), to the
    # nearest friendly land its fuel reaches: 5 - 2 out - 1 round leaves 2, London.
    state = carriers([("carrier", "English Channel", 1), ("fighter", "English Channel", 1)], [])
    for damaged, sunk, home in ((0, False, "English Channel"), (1, False, "English Channel"), (0, True, "London")):
        ctx = TurnContext(state.copy(), {}, WORLD, scenario(5))
        ship = next(u for u in ctx.state.units if u.kind == "carrier")
        ship.damage = damaged
        if sunk:
            ctx.state.units.remove(ship)
        plane = next(u for u in ctx.state.units if u.kind == "fighter")
        phase4_sea.fly_home(ctx, plane, "English Channel", "North Sea", 1)
        assert plane.location == home


def test_bombers_in_a_sea_zone_never_fly_off() -> None:
    # Bombers: "may not be stationed on aircraft carriers"; only fighters of fuel 5 launch
    # from one (Aircraft Carriers). Bombers in a sea zone are aboard transports and go ashore
    # with INVADE (4.4); a MOVE or ATTACK of them out of the zone, alone or with fighters, is
    # refused (it was referred to the moderator as air-at-sea), in the checker and the
    # engine alike; fighters alone off the carrier are not.
    state = carriers(MINE + [("transport", "English Channel", 1), ("bomber", "English Channel", 1)], [])
    for text in ("MOVE 1 bmb FROM English Channel TO London", "ATTACK 1 bmb FROM English Channel TO North Sea",
                 "MOVE 1 bmb FROM English Channel TO North Sea", "MOVE 1 ftr, 1 bmb FROM English Channel TO London"):
        assert judged(state, text) == "bombers-aboard", text
    assert judged(state, "MOVE 1 ftr FROM English Channel TO London") is None


def test_strikers_that_cannot_go_home_land_aboard_the_carriers_under_them() -> None:
    # Aircraft Carriers: "fighters may still land on it"; 4.5 step 3: "flown to a friendly
    # controlled territory within range". Home comes first: with their carrier in the
    # English Channel afloat, two fighters back from the North Sea land on it even though a
    # British carrier with room lies under them. With their carrier gone they land aboard
    # the one in the North Sea (no fuel spent) while it has room (two, one fighter aboard
    # already); the other flies to London, the nearest friendly land.
    state = carriers([("carrier", "English Channel", 1), ("fighter", "English Channel", 2),
                      ("carrier", "North Sea", 1), ("fighter", "North Sea", 1)], [])
    for sunk, homes in ((False, ["English Channel"] * 2), (True, ["London", "North Sea"])):
        ctx = TurnContext(state.copy(), {}, WORLD, scenario(5))
        if sunk:
            ctx.state.units.remove(next(u for u in ctx.state.units if u.location == "English Channel"
                                        and u.kind == "carrier"))
        planes = [u for u in ctx.state.units if u.kind == "fighter" and u.location == "English Channel"]
        for plane in planes:
            phase4_sea.fly_home(ctx, plane, "English Channel", "North Sea", 1)
        assert sorted(p.location for p in planes) == homes
        told = sorted(e.args["aboard"] for e in ctx.events if e.code == "aircraft-landed")
        assert told == ([False, True] if sunk else [])


def test_a_carriers_fighters_with_no_orders_scout_for_its_task_force() -> None:
    # 4.2.4: fighters aboard with no orders "are working on reconaissance missions"; 4.2's
    # table: a carrier's defensive factor "depends of aircrafts on deck, base is 0" (fighters
    # 1-2 on a D10, -1 to the enemy). A British cruiser (5) seeks a German carrier: 50%
    # alone, 40% against two fighters on deck; the carrier's fighters sight the cruiser at
    # 2 - 2 = 1 each: 1 - 0.9 x 0.9 = 19%. Fighters an ATTACK names, or a damaged carrier's
    # (it "cannot launch fighters"), do not scout.
    def chances(orders: str = "", damaged: bool = False, fighters: int = 2) -> tuple[float, float]:
        state = carriers([("cruiser", "North Sea", 1)],
                         [("carrier", "North Sea", 1), ("fighter", "North Sea", fighters), ("battleship", "Baltic Sea", 1)])
        next(u for u in state.units if u.kind == "carrier").damage = int(damaged)
        ctx = TurnContext(state, {"germany": parsed_orders(orders)} if orders else {}, WORLD, scenario(5))
        fleets = {f.nation: f for f in phase4_sea.fleets(ctx) if f.zone == "North Sea"}
        return (phase4_sea.chance(ctx, fleets["britain"], fleets["germany"], "North Sea"),
                phase4_sea.chance(ctx, fleets["germany"], fleets["britain"], "North Sea"))

    assert chances(fighters=0) == (0.5, 0.0)
    assert chances() == (0.4, 0.19)
    assert chances("ATTACK 1 ftr FROM North Sea TO Baltic Sea") == (0.4, 0.1)
    assert chances("ATTACK 2 ftr FROM North Sea TO Baltic Sea") == (0.5, 0.0)
    assert chances(damaged=True) == (0.5, 0.0)


def carrier_battle(orders: str = "", dice: Dice | None = None, fighters: int = 2) -> TurnContext:
    """A British cruiser (attack 4) patrols into the German carrier (defense 2) and its
    fighters (defense 2) on a carrier move in the North Sea."""
    state = carriers([("cruiser", "English Channel", 1)],
                     [("carrier", "North Sea", 1), ("fighter", "North Sea", fighters), ("battleship", "Baltic Sea", 1)])
    parsed = {"britain": parsed_orders("TF P AT English Channel: 1 dd\nTF P PATROL TO North Sea"),
              "germany": parsed_orders("TF C AT North Sea: 1 cv\nTF C CARRIER" + (f"\n{orders}" if orders else ""))}
    return sail(TurnContext(state, parsed, WORLD, scenario(5), dice_root=dice or ScriptedDice([])))


def test_a_carriers_fighters_fight_with_its_ships() -> None:
    # 4.3 step 4: "All attacking ships and aircraft roll for hits. Then defending ships and
    # planes roll for defense." The fighters aboard with no orders defend with their carrier
    # (each at 2); one hits the cruiser (1): it is sunk. Fighters an ATTACK names are kept
    # for it and do not roll; when the carrier sinks, its fighters leave the battle, which
    # ends (the fighters fly to friendly land: carrier_loss).
    ctx = carrier_battle(dice=ScriptedDice([1, 9, 9, 1, 9]))  # sighted; cruiser 9; carrier 9; fighters 1 9
    assert count(ctx, "britain", "cruiser") == 0 and count(ctx, "germany", "fighter", "North Sea") == 2
    assert [r.purpose.rsplit(": ", 1)[-1] for r in ctx.dice.log][1:] == ["britain cruiser", "germany carrier",
                                                                        "germany fighter", "germany fighter"]
    ctx = carrier_battle("ATTACK 2 ftr FROM North Sea TO English Channel", ScriptedDice([1, 9, 9, 9, 9]))
    assert [r.purpose.rsplit(": ", 1)[-1] for r in ctx.dice.log][1:3] == ["britain cruiser", "germany carrier"]
    # the cruiser hits twice over two rounds (1, then 1; carriers first by Germany's order):
    # the carrier sinks, its fighters leave
    ctx = carrier_battle("CASUALTIES AT North Sea: cv", ScriptedDice([1, 1, 9, 9, 9, 1, 1, 9, 9, 9]))
    battle = next(e for e in ctx.events if e.code == "naval-battle")
    assert battle.args["ended"] == "destroyed" and battle.args["losses"]["germany"] == {"carrier": 1}
    assert count(ctx, "germany", "fighter", "North Sea") == 0 and count(ctx, "germany", "fighter") == 2


def test_a_carriers_fighters_make_a_cruiser_fall_as_often_as_their_values_say() -> None:
    # The first round of the battle above: the cruiser falls to the carrier (2) or a fighter
    # (2, 2): 1 - 0.8^3 = 48.8%, against 20% with no fighters aboard.
    for fighters, p in ((2, 0.488), (0, 0.2)):
        state = carriers([("cruiser", "North Sea", 1)], [("carrier", "North Sea", 1), ("fighter", "North Sea", fighters)])
        trials, sunk = 1500, 0
        for seed in range(trials):
            ctx = TurnContext(state.copy(), {}, WORLD, scenario(5), dice_root=Dice("carrier-fighters-fight", seed))
            fleets = {f.nation: f for f in phase4_sea.fleets(ctx)}
            sides = (phase4_sea.side_of([fleets["britain"]], True, ctx), phase4_sea.side_of([fleets["germany"]], False, ctx))
            naval_combat.fight(ctx, "North Sea", *sides, after_round=lambda battle: "one round")
            sunk += count(ctx, "britain", "cruiser") == 0
        assert within_four_sigma(sunk, trials, p), (fighters, sunk)


def test_a_carriers_fighters_find_submarines_as_often_as_their_capability_says() -> None:
    # 4.2.9: a destroyer detects at 5, a fighter at 2; a task force of a carrier with two
    # fighters aboard and a destroyer on a DETECT mission finds the submarine with
    # 1 - 0.5 x 0.8 x 0.8 = 68% (the destroyer alone: 50%).
    state = carriers([("carrier", "North Sea", 1), ("fighter", "North Sea", 2), ("cruiser", "North Sea", 1)],
                     [("submarine", "North Sea", 1)])
    parsed = {"britain": parsed_orders("TF H AT North Sea: 1 cv, 1 dd\nTF H DETECT")}
    trials, found = 1500, 0
    for seed in range(trials):
        ctx = TurnContext(state.copy(), parsed, WORLD, scenario(5), dice_root=Dice("carrier-hunt", seed))
        for i, order in enumerate(parsed["britain"]):
            rule = task_forces.FORM if isinstance(order, m.TaskForce) else task_forces.MISSION
            rule.execute(ctx, "britain", i, order)
        phase4_sea.naval_movement(ctx)
        found += any(e.code == "naval-battle" for e in ctx.events)
    assert within_four_sigma(found, trials, 0.68)


# ---- a MOVE of fighters off carriers to another sea zone (engine/orders/move.py carrier_flight) ----

CARRIER_MOVE = "MOVE 2 ftr FROM English Channel TO North Sea"
MINE = [("carrier", "English Channel", 1), ("fighter", "English Channel", 2)]


def test_a_carrier_move_is_judged_the_same_whatever_the_enemy_has_there() -> None:
    # Nobody sees what they may not: the receipt hangs on the nation's own fighters,
    # carriers, fuel and the map, never on the enemy aircraft in the zone (3.2).
    for fuel in (4, 5, 6):
        verdicts = {judged(carriers(MINE, enemy), CARRIER_MOVE, fuel=fuel)
                    for enemy in ([], [("battleship", "North Sea", 1)],
                                  [("carrier", "North Sea", 1), ("fighter", "North Sea", 2)])}
        assert verdicts == {None}
    far = "MOVE 2 ftr FROM English Channel TO Baltic Sea"  # beyond a fuel-1 tank whatever is there
    assert {judged(carriers(MINE, enemy), far, fuel=1)
            for enemy in ([], [("carrier", "Baltic Sea", 1), ("fighter", "Baltic Sea", 1)])} == {"out-of-range"}
    damaged = carriers(MINE, [])
    next(u for u in damaged.units if u.kind == "carrier").damage = 1
    assert judged(damaged, CARRIER_MOVE) == "carrier-cannot-launch"


def moved(state: GameState, fuel: int = 5, seed: int = 0) -> TurnContext:
    ctx = TurnContext(state.copy(), {"britain": parsed_orders(CARRIER_MOVE)}, WORLD, scenario(fuel),
                      dice_root=Dice("carrier-move", seed))
    phase4_sea.naval_movement(ctx)
    return ctx


def test_fighters_moved_to_another_carrier_land_aboard_it() -> None:
    # Aircraft Carriers: "extended aerial operations": no enemy aircraft in the zone, own
    # carriers there with room: the fighters land aboard, whatever the fuel that reaches it.
    state = carriers(MINE + [("carrier", "North Sea", 1)], [])
    for fuel in (4, 5):
        ctx = moved(state, fuel)
        assert count(ctx, "britain", "fighter", "North Sea") == 2
        assert count(ctx, "britain", "fighter", "English Channel") == 0
        assert [e.code for e in ctx.events if e.code == "aircraft-aboard"] == ["aircraft-aboard"]
        assert ctx.dice.log == []


def test_fighters_moved_where_no_carrier_has_room_fly_back_aboard_their_own() -> None:
    # No own carrier in the zone: back to the carrier they left (2 out, 2 back), else
    # friendly land, else lost (phase4_sea.fly_home, as after any flight off a carrier).
    ctx = moved(carriers(MINE, []))
    assert count(ctx, "britain", "fighter", "English Channel") == 2
    assert count(ctx, "britain", "fighter", "North Sea") == 0


def test_fighters_moved_at_enemy_aircraft_fight_them_or_turn_back_short_of_fuel() -> None:
    # Enemy aircraft there as the turn began: with 5 fuel it is a strike (the enemy's
    # fighters intercepting first, 4.5); with 4 they may not "enter into a sea zone for
    # combat" (Fighters) and turn back to their carrier, no dice rolled.
    state = carriers(MINE + [("carrier", "North Sea", 1)], [("carrier", "North Sea", 1), ("fighter", "North Sea", 1)])
    ctx = moved(state, fuel=5)
    assert [e for e in ctx.events if e.code == "air-combat-at-sea"]
    ctx = moved(state, fuel=4)
    assert [e.code for e in ctx.events if e.code in ("air-combat-at-sea", "aircraft-turned-back", "aircraft-aboard")] \
        == ["aircraft-turned-back"]
    assert count(ctx, "britain", "fighter", "English Channel") == 2 and ctx.dice.log == []


# ---- DETECT by fighters off carriers (engine/orders/submarines.py; issue 10) -------------------

HUNT_ABOARD = "DETECT SUBS IN North Sea WITH 2 ftr"
HUNT_NEXT = "DETECT SUBS IN English Channel WITH 2 ftr FROM North Sea"
DECK = [("carrier", "North Sea", 1), ("fighter", "North Sea", 2)]


def detect_judged(state: GameState, text: str, fuel: int = 5) -> str | None:
    order = parsed_orders(text)[0]
    assert isinstance(order, m.SubDetection)
    why = submarines.DETECT.problem(TurnContext(state.copy(), {}, WORLD, scenario(fuel)), "britain", order)
    return why.code if why else None


def test_fighters_aboard_may_detect_in_their_carriers_zone_or_one_in_range() -> None:
    # Aircraft Carriers: "especially handy when hunting down submarines"; only undamaged
    # carriers launch, as many as they hold; Fighters: 5 fuel to fight at sea, 2 a sea zone.
    state = carriers(DECK, [("submarine", "North Sea", 1)])
    assert detect_judged(state, HUNT_ABOARD) is None
    assert detect_judged(state, HUNT_NEXT) is None
    assert detect_judged(state, HUNT_ABOARD, fuel=4) == "sea-combat-fuel"
    assert detect_judged(state, "DETECT SUBS IN Baltic Sea WITH 2 ftr FROM North Sea", fuel=5) == "no-fuel-home"
    assert detect_judged(state, "DETECT SUBS IN North Sea WITH 3 ftr") == "carrier-cannot-launch"
    assert detect_judged(carriers([("fighter", "North Sea", 2)], []), HUNT_ABOARD) == "carrier-cannot-launch"
    damaged = state.copy()
    next(u for u in damaged.units if u.kind == "carrier").damage = 1
    assert detect_judged(damaged, HUNT_ABOARD) == detect_judged(damaged, HUNT_NEXT) == "carrier-cannot-launch"
    assert detect_judged(state, "DETECT SUBS IN North Sea WITH 1 bmb") == "detect-air"  # bombers never launch


def test_fighters_aboard_find_submarines_by_order_as_often_as_their_capability_says() -> None:
    # 4.2.9: fighters detect at 2; two of them find the submarine with 1 - 0.8 x 0.8 = 36%.
    # They land back aboard their carrier whatever the hunt gives.
    state = carriers(DECK, [("submarine", "North Sea", 1)])
    trials, found = 1500, 0
    for seed in range(trials):
        ctx = sail(TurnContext(state.copy(), {"britain": parsed_orders(HUNT_ABOARD)}, WORLD, scenario(5),
                               dice_root=Dice("carrier-order-hunt", seed)))
        found += any(e.code == "naval-battle" for e in ctx.events)
        assert count(ctx, "britain", "fighter", "North Sea") == 2
    assert within_four_sigma(found, trials, 0.36)
