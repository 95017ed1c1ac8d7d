"""Aircraft Carriers and 4.3 step 5: the fighters aboard a carrier that is sunk.

The rules say what a carrier holds ("can carry 2 fighter units", more with technology)
and that "fighters may still land on" a damaged one, but not what becomes of the fighters
aboard when a battle sinks it. The reading (docs/rules-coverage.md):

* they land on another carrier of their nation in the same sea zone while it has room
  (damaged ones too, as the rules let fighters land on them): the fighters a nation has
  in a sea zone are aboard its carriers there (phase4_sea.board), so those within the
  room left simply stay, lowest ids first;
* the others fly off to the nearest friendly land their fuel reaches (4.5 step 3:
  aircraft "flown to a friendly controlled territory within range"), from the sea zone,
  with the tank they had aboard less what they spent fighting in the battle (a guard's
  air combat and rounds: 1 a round; a fighter that stayed aboard spent none);
* with no such land in reach they are lost, as the troops aboard a sunk transport are
  ("whatever was being transported is also sunk").

Fighters of the zone that are out on a mission this turn (an order claimed them) are not
moved here: they come back later and find the room left, or fly to land, as any fighter
returning to its carrier does (placement.berth).
"""

from __future__ import annotations

from collections.abc import Mapping

from moderator.engine import fuel
from moderator.engine.context import TurnContext
from moderator.engine.placement import carrier_capacity
from moderator.engine.state import Unit

PHASE = "4.3"


def strand(ctx: TurnContext, zone: str, nation: str, spent: Mapping[str, int] | None = None) -> None:
    """After a battle sank some of the nation's carriers in the zone: its fighters there
    beyond the room left fly to friendly land, or are lost (see the module's docstring).
    spent: fighter id -> fuel it spent this turn in the battle (the guards' air combat and
    rounds, Fighters: "1 fuel point for each round of combat")."""
    spent = spent or {}
    from moderator.engine.orders.move import landing_places  # move reaches the engine's combat modules

    present = sorted((u for u in ctx.state.units_at(zone, nation) if u.kind == "fighter" and u.id not in ctx.moved),
                     key=lambda u: u.id)
    over = present[carrier_capacity(ctx, nation, zone):]
    if not over:
        return
    places = landing_places(ctx, nation)
    for plane in over:
        tank = (stats.fuel if (stats := ctx.stats(plane.nation, plane.kind)) else 0) or 0
        land_or_lose(ctx, plane, zone, places, tank - spent.get(plane.id, 0))


def land_or_lose(ctx: TurnContext, plane: Unit, zone: str, places: list[str], left: int, phase: str = PHASE) -> None:
    """A plane over the sea zone with `left` fuel lands on the nearest of `places` it reaches
    (4.5 step 3: "flown to a friendly controlled territory within range"), else is lost."""
    found = fuel.nearest(ctx.world, zone, places, limit=max(0, left))
    if found is None:
        ctx.state.remove_units([plane])
        ctx.tell(plane.nation, "aircraft-lost", phase, battle=zone, units={plane.kind: 1})
        return
    plane.location = found[1]
    ctx.tell(plane.nation, "aircraft-landed", phase, place=found[1], battle=zone, units={plane.kind: 1},
             aboard=False)
