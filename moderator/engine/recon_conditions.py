"""ATTACK ON x ONLY IF AT MOST n DEFENDERS: the attack goes ahead only on what this turn's
reconnaissance shows ("Conditional orders": "one can decide only if the attack will
commence or not, considering data from reconaissance"; 3.3: "That number can be obtained
by active reconaissance or predicted by player").

The nation's record of the turn (NationState.flags[phase3_passive_recon.KNOWN], written by
the passive looks of 3.3 and the missions of 3.3.1) decides, when step 4.4 resolves the
land moves (phase4_land.land_moves calls `call_off` first):
* an exact sighting of the place: the attack goes ahead if the enemy troops seen there are
  at most n;
* a colour band (a miss, or the false colour of a 3.2.2.4 countermeasure): if the band's
  top is at most n (black: 5, yellow: 20; red has none);
* nothing seen: the recon does not show it, so the attack is called off.
A called-off attack's units stay where they are and defend it (told as "attack-called-off").
The order checker cannot know the rolls: it takes the attack as going ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from moderator.engine import phase3_passive_recon
from moderator.engine.context import TurnContext
from moderator.orders.model import CombatCondition

if TYPE_CHECKING:
    from moderator.engine.orders.move import Leg

PHASE = "4.4"
KIND = "max-defenders"
BAND_TOP = {name: top for top, name in phase3_passive_recon.BANDS if top < 10**9}  # red: no top


def shown(ctx: TurnContext, nation: str, place: str) -> tuple[int | None, str]:
    """(most defenders the record allows, what it shows): exact count, band, or nothing."""
    entry = ctx.nation(nation).flags.get(phase3_passive_recon.KNOWN, {}).get(place)
    if not isinstance(entry, dict):
        return None, "nothing"
    if entry.get("seen") == "exact":
        count = sum(n for kinds in entry.get("units", {}).values() for n in kinds.values())
        return count, str(count)
    band = str(entry.get("band", ""))
    return BAND_TOP.get(band), band


def limits(ctx: TurnContext, nation: str, place: str) -> list[int]:
    return [o.value for n, _, o in ctx.orders_of(CombatCondition)
            if n == nation and o.kind == KIND and ctx.name(o.dest) == place]


def call_off(ctx: TurnContext, legs: Sequence[Leg]) -> None:
    """Empty the attacking legs whose nation's condition the record does not meet."""
    told: set[tuple[str, str]] = set()
    for leg in legs:
        if not leg.attack or not leg.units:
            continue
        bounds = limits(ctx, leg.nation, leg.dest)
        if not bounds:
            continue
        most, seen = shown(ctx, leg.nation, leg.dest)
        limit = min(bounds)
        if most is not None and most <= limit:
            continue
        if (leg.nation, leg.dest) not in told:
            told.add((leg.nation, leg.dest))
            ctx.tell(leg.nation, "attack-called-off", PHASE, place=leg.dest, limit=limit, seen=seen)
        leg.units = []
