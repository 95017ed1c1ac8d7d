"""4.5's choices that met nothing: LET THROUGH and BREAK OFF AIR COMBAT, told to their nations.

4.5: "the enemy fighters have the option of intercepting or letting them go" (LET
THROUGH); step 3: "The attacking player may now decide to retreat" (BREAK OFF AIR
COMBAT). Both orders are read by the fights themselves (engine/orders/interception.py);
when every fight of Phase 4 is over, a nation whose order met nothing hears so, so no
order is dropped silently: a LET THROUGH whose fighters met no attacking aircraft at the
place, a BREAK OFF AIR COMBAT whose aircraft met no interceptors there. The wording is
the same whatever the reason (no aircraft came, none of the nation's fighters were
there), so it tells no more than the nation's own battles do.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.engine.events import Event
from moderator.orders.model import AirRetreat, LetPass

PHASE = "4.5"


def unused(ctx: TurnContext) -> None:
    """After Phase 4's fighting: the LET THROUGH and BREAK OFF AIR COMBAT orders that had
    nothing to do, each told to its nation."""
    for nation, index, o in ctx.orders_of(LetPass):
        place = ctx.name(o.place) or o.place
        if not any(e.code == "let-through" and e.args.get("nation") == nation and e.args.get("territory") == place
                   for e in ctx.events):
            ctx.tell(nation, "let-through-unused", PHASE, order=index, territory=place)
    for nation, index, r in ctx.orders_of(AirRetreat):
        place = ctx.name(r.place) or r.place
        if not any(air_combat_at(e, nation, place) for e in ctx.events):
            ctx.tell(nation, "air-retreat-unused", PHASE, order=index, territory=place)


def air_combat_at(e: Event, nation: str, place: str) -> bool:
    """Did the nation's attacking aircraft meet interceptors at `place` (the event's story)?"""
    a = e.args
    if e.code == "air-retreat":
        return a.get("nation") == nation and a.get("territory") == place
    if e.code == "air-combat-at-sea":
        return a.get("zone") == place and nation in a.get("attackers", ()) and a.get("rounds", 0) > 0
    if e.code == "air-raid":
        over = [a.get("target"), *(a.get("intercepted_over") or ())]
        return a.get("nation") == nation and place in over and a.get("rounds", 0) > 0
    if e.code in ("attack-intercepted", "flight-intercepted"):  # on the way: its goal's conditions are read there too
        over = [a.get("dest"), *(a.get("intercepted_over") or ())]
        return a.get("nation") == nation and place in over and a.get("rounds", 0) > 0
    if e.code == "battle":
        return a.get("territory") == place and nation in a.get("attackers", ()) and a.get("air_rounds", 0) > 0
    return False
