"""4.3 step 6 (engine/naval_retreat.py): a withdrawing task force goes "into any allied
occupied or empty sea zone"; its WITHDRAW condition is legal where its ships are or sail."""

from __future__ import annotations

from moderator.engine import naval_retreat
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.orders.model import CombatCondition
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
