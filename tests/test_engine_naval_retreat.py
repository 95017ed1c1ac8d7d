"""4.3 step 6 (engine/naval_retreat.py): a withdrawing task force goes "into any allied
occupied or empty sea zone"; its WITHDRAW condition is legal where its ships are or sail.
And an air strike at sea (engine/phase4_air_sea.py) never flies aircraft already moved."""

from __future__ import annotations

from pathlib import Path

from moderator.engine import naval_retreat
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.orders.model import Attack, CombatCondition, Move, UnitCount
from tests.test_engine_naval import SCENARIO, WORLD, sea_state


def ctx_of(**units: list[tuple[str, str, int]]) -> TurnContext:
    return TurnContext(sea_state(**units), {}, WORLD, SCENARIO, dice_root=ScriptedDice([]))


def test_the_retreat_goes_to_an_open_neighbour_and_never_among_enemies() -> None:
    ctx = ctx_of(france=[("cruiser", "North Sea", 1)], germany=[("cruiser", "North Sea", 1)])
    assert naval_retreat.retreat_zone(ctx, "france", "North Sea", None, None) == "English Channel"
    assert naval_retreat.retreat_zone(ctx, "france", "North Sea", None, "Baltic Sea") == "English Channel"  # not next door
    held = ctx_of(france=[("cruiser", "North Sea", 1)], germany=[("cruiser", "English Channel", 1)])
    assert naval_retreat.retreat_zone(held, "france", "North Sea", "English Channel", None) is None


def test_a_withdrawal_at_sea_needs_the_nations_ships_there_and_a_sea_zone_next_door() -> None:
    ctx = ctx_of(france=[("cruiser", "North Sea", 1)])
    def why(order: CombatCondition, nation: str = "france") -> str | None:
        found = naval_retreat.condition_problem(ctx, nation, order)
        return found.code if found else None
    assert why(CombatCondition("North Sea", "rounds", 1)) is None
    assert why(CombatCondition("North Sea", "rounds", 1, to="English Channel")) is None
    assert why(CombatCondition("North Sea", "rounds", 1, to="London")) == "not-adjacent"
    assert why(CombatCondition("North Sea", "rounds", 1), "germany") == "condition-no-attack"
    assert why(CombatCondition("North Sea", "max-defenders", 1)) == "condition-no-attack"


def test_an_air_strike_whose_aircraft_an_earlier_move_names_is_never_flown(tmp_path: Path) -> None:
    # Given to the engine unchecked: all four London fighters move first, so the attack on
    # the ships (flown in the naval step, before the land moves) has none and is refused.
    from tests import test_resolve_catalog as catalog

    text = ("# title: t\n# rules: r\n\n=== position\nWAR Britain AND Germany\n"
            "SET TECH Improved Fighters OF Britain TO 2\nREMOVE ALL OF Britain AT North Sea\n"
            "ADD 1 dd OF Germany AT North Sea\n\n=== expect\n")
    path = tmp_path / "case.txt"
    path.write_text(text)
    case = catalog.read_case(path)
    world, scenario = catalog.real_1914()
    start = catalog.start_position(case, world, scenario)
    orders = {"britain": [Move((UnitCount("fighter", 4),), "London", "Midlands"),
                          Attack((UnitCount("fighter", 1),), "London", "North Sea")]}
    _, events, _ = catalog.run(case, start, orders, world, scenario)
    assert not [e for e in events if e.code == "naval-battle"]
    assert [e.args["reason"] for e in events if e.code == "order-refused"] == ["not-enough-units"]
