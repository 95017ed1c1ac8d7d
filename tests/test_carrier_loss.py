"""engine/carrier_loss.py: the fighters aboard a sunk carrier (Aircraft Carriers, a reading
in docs/rules-coverage.md). The catalog cases carrier-sunk-fighters-land.txt and
carrier-sunk-fighters-lost.txt play whole turns; here the fuel a fighter spent fighting
before its carrier sank is checked on its own."""

from __future__ import annotations

from moderator.engine import carrier_loss
from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from tests.test_engine_naval import SCENARIO, WORLD, sea_state


def test_a_fighter_with_its_fuel_spent_is_lost_and_a_fresh_one_lands() -> None:
    state = sea_state(germany=[("fighter", "North Sea", 2)])
    ctx = TurnContext(state.copy(), {}, WORLD, SCENARIO, dice_root=ScriptedDice({}))
    fresh, spent = sorted((u for u in ctx.state.units if u.kind == "fighter"), key=lambda u: u.id)
    tank = ctx.stats("germany", "fighter").fuel  # type: ignore[union-attr]
    carrier_loss.strand(ctx, "North Sea", "germany", {spent.id: tank})
    assert fresh in ctx.state.units and ctx.is_sea(fresh.location) is False
    assert spent not in ctx.state.units
    assert [e.code for e in ctx.events].count("aircraft-lost") == 1

