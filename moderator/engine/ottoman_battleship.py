"""British option #1, Ottoman Trade Fiasco: the battleship handed to the Ottoman fleet.

"If the British player chooses to give the Ottomans one of its two beginning Battleships
(this represents the two heavy cruisers), then the Ottoman Empire will get 0-6 points
toward Allied Powers. If this is done, the battleship will instantly be moved off the map
and placed under the Ottoman Empire's control in the same sea zone as the rest of their
fleet."

Readings (docs/rules-coverage.md, British Empire (as Allied Power) 1-3):
* which battleship: Britain's oldest still afloat (the lowest unit id: the two it begins
  with, fixed or deployed on turn 0, come before any it builds), damage and all;
* "the same sea zone as the rest of their fleet": the sea zone holding the most Ottoman
  ships (then by name); with no Ottoman ship afloat the rules give no zone: the engine
  puts it beside the first Ottoman home port by name and flags it for the moderator
  (`option-battleship-to-ottomans`), the one thing left to the moderator's judgement;
* "instantly": when Phase 1.5 pays the option, in the checker's projection as in the
  engine, so later British orders no longer name it; the Ottoman player learns of it with
  the turn's report (its orders of this turn, written before, do not name it).
The 0-6 points are engine/option_effects.py's (ottoman_trade_fiasco).
"""

from __future__ import annotations

from collections import Counter

from moderator.engine import placement
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.state import SEA_UNITS, Unit

OTTOMAN, KIND = "ottoman", "battleship"


def given(ctx: TurnContext, nation: str) -> Unit | None:
    """The battleship the option hands over: the nation's oldest afloat."""
    ships = [u for u in ctx.state.units if u.nation == nation and u.kind == KIND and ctx.is_sea(u.location)]
    return min(ships, key=lambda u: int(u.id.rsplit("-", 1)[-1]), default=None)


def fleet_zone(ctx: TurnContext) -> str | None:
    """Where "the rest of their fleet" is: the zone with the most Ottoman ships, or None."""
    zones = Counter(u.location for u in ctx.state.units
                    if u.nation == OTTOMAN and u.kind in SEA_UNITS and ctx.is_sea(u.location))
    return min(zones, key=lambda z: (-zones[z], z)) if zones else None


def home_waters(ctx: TurnContext) -> str | None:
    """With no Ottoman fleet: the first sea zone (by name) beside an Ottoman home port."""
    seas = sorted(sea for land, terr in ctx.world.territories.items()
                  if terr.is_land and terr.owner == OTTOMAN and placement.has_port(ctx, OTTOMAN, land)
                  for sea in ctx.world.neighbours(land) if ctx.is_sea(sea))
    return seas[0] if seas else None


def hand_over(ctx: TurnContext, nation: str) -> None:
    """Britain's battleship leaves the map and joins the Ottoman fleet, at once."""
    ship = given(ctx, nation)
    if ship is None or OTTOMAN not in ctx.state.nations:
        return
    zone = fleet_zone(ctx)
    flagged = zone is None
    zone = zone or home_waters(ctx)
    if zone is None:
        return
    if ctx.start[(nation, ship.location, KIND)] > 0:
        ctx.start[(nation, ship.location, KIND)] -= 1  # no later order of Britain's names it
    was = ship.location
    ctx.state.units.remove(ship)
    new = ctx.state.new_unit(OTTOMAN, KIND, zone)
    new.damage = ship.damage
    if ctx.checking:
        return
    ctx.emit("battleship-handed-over", "1.5", (nation, OTTOMAN, MODERATOR), nation=nation, to=OTTOMAN, origin=was,
             zone=zone)
    if flagged:
        ctx.flag("1.5", "option-battleship-to-ottomans", nation=nation, zone=zone)
