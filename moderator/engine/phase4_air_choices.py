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

from itertools import compress
from operator import attrgetter

from moderator.engine.context import TurnContext
from moderator.engine.events import Event
from moderator.orders.model import AirRetreat, LetPass

PHASE = "4.5"


def unused(ctx: TurnContext) -> None:
    """After Phase 4's fighting: the LET THROUGH and BREAK OFF AIR COMBAT orders that had
    nothing to do, each told to its nation. Each order looks only among the events of the
    codes that can answer it, picked from the turn's events once (at C speed), where each
    order passed over every event of the turn (some two thousand by turn eight: issue 14);
    what those tell, (nation, place), is gathered once, and each order looks it up, where
    each order asked every such event again."""
    lets, retreats = list(ctx.orders_of(LetPass)), list(ctx.orders_of(AirRetreat))
    if not lets and not retreats:
        return
    events = ctx.events
    found = list(compress(events, map(ANSWERS.__contains__, map(_code, events))))
    let_through = {(e.args.get("nation"), e.args.get("territory")) for e in found if e.code == "let-through"}
    for nation, index, o in lets:
        place = ctx.name(o.place) or o.place
        if (nation, place) not in let_through:
            ctx.tell(nation, "let-through-unused", PHASE, order=index, territory=place)
    met = {pair for e in found for pair in air_combats(e)}
    for nation, index, r in retreats:
        place = ctx.name(r.place) or r.place
        if (nation, place) not in met:
            ctx.tell(nation, "air-retreat-unused", PHASE, order=index, territory=place)


# The codes of the events unused() reads: "let-through" and those air_combat_at() answers for.
ANSWERS = frozenset({"let-through", "air-retreat", "air-combat-at-sea", "air-raid", "attack-intercepted",
                     "flight-intercepted", "battle"})
_code = attrgetter("code")


def air_combat_at(e: Event, nation: str, place: str) -> bool:
    """Did the nation's attacking aircraft meet interceptors at `place` (the event's story)?
    (Only events of the codes in ANSWERS can say yes: a code added here goes there too.)"""
    return (nation, place) in air_combats(e)


def air_combats(e: Event) -> list[tuple[object, object]]:
    """Every (nation, place) where the event tells the nation's attacking aircraft met
    interceptors (air_combat_at answers yes for those alone)."""
    a = e.args
    if e.code == "air-retreat":
        return [(a.get("nation"), a.get("territory"))]
    if e.code == "air-combat-at-sea":
        return [(n, a.get("zone")) for n in a.get("attackers", ())] if a.get("rounds", 0) > 0 else []
    if e.code == "air-raid":
        over = [a.get("target"), *(a.get("intercepted_over") or ())]
        return [(a.get("nation"), p) for p in over] if a.get("rounds", 0) > 0 else []
    if e.code in ("attack-intercepted", "flight-intercepted"):  # on the way: its goal's conditions are read there too
        over = [a.get("dest"), *(a.get("intercepted_over") or ())]
        return [(a.get("nation"), p) for p in over] if a.get("rounds", 0) > 0 else []
    if e.code == "battle":
        return [(n, a.get("territory")) for n in a.get("attackers", ())] if a.get("air_rounds", 0) > 0 else []
    return []
