"""Strikes and hunts at sea played many times with fixed seeds, counted against the chances
computed from the rules' values (4.2.9 detection capabilities, 4.2.10 interception with
the submarines' free attack, 4.3's rounds), so a wrong die, a missing free round or a hit
on the wrong side shows as a rate outside four standard deviations. The exact dice of
each rule are the catalog's (naval-aircraft-hunt-submarines*.txt, naval-submarines-
intercept.txt); tests/test_engine_air_at_sea.py counts the strikes on ships and the
destroyer's hunt, tests/test_engine_ship_aa.py the ships' AA and
tests/test_engine_sea_choices.py the radar's warning."""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.state import GameState
from tests.test_engine_air_at_sea import at_war, count, scenario
from tests.test_engine_examples import within_four_sigma
from tests.test_engine_naval import WORLD, parsed_orders, sail, sea_state

TRIALS = 1500


def turn(state: GameState, orders: dict[str, str], dice: Dice, fuel: int = 5) -> TurnContext:
    """The naval step with the nations' orders (task forces committed through their homes)."""
    parsed = {n: parsed_orders(text) for n, text in orders.items()}
    return sail(TurnContext(state.copy(), parsed, WORLD, scenario(fuel), dice_root=dice))


def found(ctx: TurnContext) -> bool:
    return any(e.code == "naval-battle" for e in ctx.events)


def test_a_fighter_hunting_from_land_finds_a_submarine_one_time_in_five() -> None:
    # 4.2.9: fighters detect on 1-2. A fighter of fuel 5 flies 2 into the North Sea and keeps
    # 2 to fly back: it fires only in the free round ("The units that detect subs have a free
    # round"), at its attack 2. Found 20%; sunk 0.2 x 0.2 = 4%; the fighter is never hit
    # (submarines' hits "can only be applied to ships").
    state = at_war(sea_state(britain=[("fighter", "London", 1)], germany=[("submarine", "North Sea", 1)]))
    seen = sunk = lost = 0
    for seed in range(TRIALS):
        ctx = turn(state, {"britain": "DETECT SUBS IN North Sea WITH 1 ftr FROM London"}, Dice("fighter-hunt", seed))
        seen += found(ctx)
        sunk += count(ctx, "germany", "submarine") == 0
        lost += count(ctx, "britain", "fighter") == 0
    assert within_four_sigma(seen, TRIALS, 0.2)
    assert within_four_sigma(sunk, TRIALS, 0.04)
    assert lost == 0


def test_a_bomber_hunting_sinks_or_drives_off_the_submarine_as_its_two_rounds_say() -> None:
    # Bombers detect on 1-3; fuel 6 pays the free round and round 1 at attack 3. Found:
    # sunk 0.3 x (1 - 0.7^2) = 15.3%; else the submarine breaks off after the round and,
    # the hunters having aircraft, "must move into an adjacent sea zone": 0.3 x 0.49 = 14.7%.
    state = at_war(sea_state(britain=[("bomber", "London", 1)], germany=[("submarine", "North Sea", 1)]))
    sunk = away = 0
    for seed in range(TRIALS):
        ctx = turn(state, {"britain": "DETECT SUBS IN North Sea WITH 1 bmb FROM London"}, Dice("bomber-hunt", seed))
        sunk += count(ctx, "germany", "submarine") == 0
        away += any(u.kind == "submarine" and u.location != "North Sea" for u in ctx.state.units)
    assert within_four_sigma(sunk, TRIALS, 0.3 * (1 - 0.7 ** 2))
    assert within_four_sigma(away, TRIALS, 0.3 * 0.7 ** 2)


def test_an_intercepting_submarine_sinks_a_passing_cruiser_as_its_free_attack_and_round_say() -> None:
    # 4.2.10: the submarine attacks the cruiser's task force leaving its zone, with a free
    # attack (note after 4.3) at its attack 2, then one round (the cruiser defends at 3),
    # then dives. Cruiser sunk: 0.2 + 0.8 x 0.2 = 36%; submarine sunk: 0.8 x 0.3 = 24%.
    state = at_war(sea_state(britain=[("cruiser", "North Sea", 1)], germany=[("submarine", "North Sea", 1)]))
    orders = {"britain": "TF C AT North Sea: 1 dd\nTF C MOVE TO English Channel",
              "germany": "INTERCEPT WITH 1 ss IN North Sea"}
    cruisers = subs = 0
    for seed in range(TRIALS):
        ctx = turn(state, orders, Dice("sub-intercept", seed))
        cruisers += count(ctx, "britain", "cruiser") == 0
        subs += count(ctx, "germany", "submarine") == 0
    assert within_four_sigma(cruisers, TRIALS, 0.36)
    assert within_four_sigma(subs, TRIALS, 0.24)


def test_cover_over_the_task_force_fights_intercepting_submarines_until_its_fuel_is_spent() -> None:
    # 4.2: cover "may then participate in the battle"; 4.2.10: the submarines "cannot
    # retreat" while it has fuel. A fighter of fuel 6 over the North Sea (2 in, 2 back: 2
    # rounds) covers a cruiser leaving it; a submarine intercepts: its free attack (s), then
    # round 1 (the cruiser at c, the fighter at f; the submarine's hits go to ships only);
    # it cannot dive, and keeps contact on its 1 (aggressive 2 less the cruiser's 2, or the
    # fighter's 1: at least 1); round 2; then the fighter goes home and it dives.
    sc = scenario(6)
    s = sc.stats("germany", "submarine").attack / 10
    c = sc.stats("britain", "cruiser").defense / 10
    f = sc.stats("britain", "fighter").defense / 10
    both = 1 - (1 - c) * (1 - f)
    first = (1 - s) * both + s * f
    with_cruiser = (1 - s) * (1 - both) * (1 - s)
    fighter_alone = (1 - s) * (1 - both) * s + s * (1 - f)
    sunk = first + 0.1 * (with_cruiser * both + fighter_alone * f)
    state = at_war(sea_state(britain=[("cruiser", "North Sea", 1), ("fighter", "London", 1)],
                             germany=[("submarine", "North Sea", 1)]))
    orders = {"britain": "TF C AT North Sea: 1 dd\nTF C MOVE TO English Channel\nMOVE 1 ftr FROM London TO North Sea",
              "germany": "INTERCEPT WITH 1 ss IN North Sea"}
    subs = 0
    for seed in range(TRIALS):
        ctx = turn(state, orders, Dice("sub-intercept-cover", seed), fuel=6)
        subs += count(ctx, "germany", "submarine") == 0
        assert [u.location for u in ctx.state.units if u.kind == "fighter"] == ["London"]
    assert within_four_sigma(subs, TRIALS, sunk)
    assert sunk - 0.8 * 0.3 > 0.1  # without the cover: 24% (the test above); 4 sigma is about 0.05
