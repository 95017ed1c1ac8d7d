"""The choices the rules give ships at sea and the engine now reads from the orders:

- Radar: "If on a ship, that ship has a 50% chance of detecting them [enemy planes], and
  the ships have the option of retreating to an adjacent sea zone" (WITHDRAW FROM <zone>
  IF RADAR WARNS; engine/phase4_air_sea.py radar_warning);
- 4.2: after contact is lost, "both TF can choose to disengage and to continue their
  mission or to cancel mission and return to the sea zone from where they came" (WITHDRAW
  FROM <zone> IF CONTACT LOST; engine/phase4_sea.py go_back, and the catalog's
  naval-contact-lost-task-force-goes-back.txt);
- Aircraft Carriers: the fighters aboard sail with their carrier (phase4_sea.board).

Each exactly with scripted dice, the radar's 50% counted with fixed seeds."""

from __future__ import annotations

from moderator.engine import phase4_sea
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.orders import conditions, task_forces
from moderator.engine.state import GameState
from moderator.orders import model as m
from tests.test_engine_air_at_sea import count, scenario, strike_state
from tests.test_engine_examples import within_four_sigma
from tests.test_engine_naval import WORLD, parsed_orders, sea_state
from tests.test_engine_ship_gear import mount

STRIKE = "ATTACK 1 ftr FROM London TO North Sea"
WARNED = "WITHDRAW FROM North Sea IF RADAR WARNS"


def radar_bbs(n: int = 1) -> GameState:
    """A British fighter in London; n German battleships with radar in the North Sea."""
    return mount(strike_state(battleship=n), "germany", "battleship", "radar")


def strike(state: GameState, germany: str, dice: Dice) -> TurnContext:
    orders = {"britain": parsed_orders(STRIKE), "germany": parsed_orders(germany)}
    ctx = TurnContext(state.copy(), orders, WORLD, scenario(5), dice_root=dice)
    phase4_sea.naval_movement(ctx)
    return ctx


def where(ctx: TurnContext, nation: str, kind: str) -> list[str]:
    return sorted(u.location for u in ctx.state.units if u.nation == nation and u.kind == kind)


def test_a_radar_that_sights_the_strikers_takes_the_ships_away_before_the_strike() -> None:
    # The radar rolls 3 (1-5 sights): the battleship retreats to the first open neighbouring
    # sea zone by name and the fighter finds nothing to strike: no battle, it flies home.
    ctx = strike(radar_bbs(), WARNED, ScriptedDice([3]))
    retreat = next(e for e in ctx.events if e.code == "radar-retreat")
    assert retreat.args["zone"] == "North Sea" and retreat.seen_by == ("germany",)
    assert where(ctx, "germany", "battleship") == [retreat.args["dest"]] != ["North Sea"]
    assert not any(e.code == "naval-battle" for e in ctx.events)
    assert count(ctx, "britain", "fighter") == 1
    assert [r.purpose for r in ctx.dice.log] == ["radar in North Sea: germany battleship watches for aircraft"]


def test_a_radar_that_misses_leaves_the_ships_to_the_strike() -> None:
    # 6 misses; then the strike as usual: the battleship's defensive fire, a round, the
    # parting fire (all misses).
    ctx = strike(radar_bbs(), WARNED, ScriptedDice([6, 10, 10, 10, 10]))
    assert not any(e.code == "radar-retreat" for e in ctx.events)
    assert where(ctx, "germany", "battleship") == ["North Sea"]
    assert any(e.code == "naval-battle" for e in ctx.events)


def test_without_the_order_the_radar_rolls_nothing_and_the_ships_stay() -> None:
    ctx = strike(radar_bbs(), "", ScriptedDice([10, 10, 10, 10]))
    assert not any("radar" in r.purpose for r in ctx.dice.log)
    assert where(ctx, "germany", "battleship") == ["North Sea"]


def test_the_radar_sights_the_strikers_half_the_time_and_two_radars_three_times_in_four() -> None:
    for ships, rate in ((1, 0.5), (2, 0.75)):
        trials = 800
        gone = 0
        for seed in range(trials):
            ctx = strike(radar_bbs(ships), WARNED, Dice(f"radar-warning-{ships}", seed))
            gone += any(e.code == "radar-retreat" for e in ctx.events)
        assert within_four_sigma(gone, trials, rate)


def test_contact_and_radar_conditions_are_for_sea_zones_only() -> None:
    state = sea_state(germany=[("infantry", "Berlin", 1), ("battleship", "North Sea", 1)])
    ctx = TurnContext(state.copy(), {}, WORLD, scenario(5))
    for kind in ("contact-lost", "radar"):
        land = conditions.CONDITION.problem(ctx, "germany", m.CombatCondition("Berlin", kind, 0))
        assert land is not None and land.code == "condition-sea-only"
        assert conditions.CONDITION.problem(ctx, "germany", m.CombatCondition("North Sea", kind, 0)) is None
        assert conditions.CONDITION.remarks(ctx, "germany", m.CombatCondition("North Sea", kind, 0)) == []
    back = conditions.CONDITION.problem(ctx, "germany",
                                        m.CombatCondition("North Sea", "contact-lost", 0, "English Channel"))
    assert back is not None and back.code == "contact-lost-goes-back"


def test_the_fighters_aboard_sail_with_their_carrier() -> None:
    # Aircraft Carriers: 2 fighters aboard the carrier; a third in the zone has no room
    # and stays (it stands where the rules put none: a ruling's).
    state = sea_state(germany=[("carrier", "North Sea", 1), ("fighter", "North Sea", 3)])
    state.nations["germany"].tech["improved_fighters"] = 2
    orders = parsed_orders("TF C AT North Sea: 1 cv\nTF C CARRIER TO English Channel")
    ctx = TurnContext(state.copy(), {"germany": orders}, WORLD, scenario(5), dice_root=ScriptedDice([]))
    for i, order in enumerate(orders):
        rule = task_forces.FORM if isinstance(order, m.TaskForce) else task_forces.MISSION
        assert rule.problem(ctx, "germany", order) is None, order
        rule.execute(ctx, "germany", i, order)
    phase4_sea.naval_movement(ctx)
    assert where(ctx, "germany", "carrier") == ["English Channel"]
    assert where(ctx, "germany", "fighter") == ["English Channel", "English Channel", "North Sea"]


def test_a_damaged_carrier_launches_no_fighters_and_a_full_one_takes_no_new_ones() -> None:
    # Aircraft Carriers: "A damaged carrier cannot launch fighters though fighters may still
    # land on it"; fighters built onto carriers only up to their room.
    from moderator.engine import placement
    from moderator.engine.orders import move

    state = sea_state(germany=[("carrier", "North Sea", 1), ("fighter", "North Sea", 2)])
    ctx = TurnContext(state.copy(), {}, WORLD, scenario(5))
    fly = m.Move((m.UnitCount("fighter", 1),), "North Sea", "Kiel")
    assert move.flies_off(ctx, "germany", fly) and move.launch_problem(ctx, "germany", fly) is None
    next(u for u in ctx.state.units if u.kind == "carrier").damage = 1
    refused = move.launch_problem(ctx, "germany", fly)
    assert refused is not None and refused.code == "carrier-cannot-launch"
    assert placement.carrier_room(ctx, "germany", "North Sea") == 0  # damaged, still full: 2 of 2
    full = placement.placement(ctx, "germany", "fighter", "North Sea")
    assert isinstance(full, placement.Problem) and full.code in ("carrier-no-room", "carrier-no-industry")
