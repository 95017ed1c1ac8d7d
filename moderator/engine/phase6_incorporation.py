"""Phase 6: Incorporation, and the income delay table that follows it.

Table (Phase 6), turns counted from the turn of (re)incorporation:
    reincorporation (own original land, free):  0 none, 1-2 half, >=3 full
    incorporation (conquered land, 2x value):   0-3 none, 4-9 half, >=10 full
Half income is rounded up. Land held since the start of the game is recorded in
GameState.incorporated with turn 0 (or earlier) and always yields its full value.
Incorporate orders cost 2x the territory's value from saved resources (own original
land: free); orders are paid in resolution order, and one the treasury cannot cover is
refused.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.engine.state import GameState
from moderator.orders.model import Incorporate
from moderator.world.model import World

PHASE = "6"
COST_FACTOR = 2

SINCE_START = 0  # incorporated-turn value meaning "held since the start of play"

# (last turn with no income, last turn with half income) after (re)incorporation.
REINCORPORATION = (0, 2)
INCORPORATION = (3, 9)


def territory_yield(world: World, state: GameState, territory: str, turn: int) -> int:
    """What `territory` yields its controller on `turn` (Phase 6 table); 0 if not incorporated."""
    since = state.incorporated.get(territory)
    holder = state.controller(territory)
    if since is None or holder is None:
        return 0
    value = world.territories[territory].value
    if since <= SINCE_START:
        return value
    none_until, half_until = REINCORPORATION if world.territories[territory].owner == holder else INCORPORATION
    age = turn - since
    if age <= none_until:
        return 0
    if age <= half_until:
        return -(-value // 2)
    return value


def incorporation(ctx: TurnContext) -> None:
    """Phase 6: pay to incorporate conquered territories (recaptured own land is already
    reincorporated free at capture, conquest.take_territory)."""
    for nation, index, order in ctx.orders_of(Incorporate):
        place = ctx.name(order.territory)
        if place is None:
            ctx.refuse(nation, PHASE, index, order, "unknown-territory", territory=order.territory)
            continue
        if ctx.state.controller(place) != nation:
            ctx.refuse(nation, PHASE, index, order, "not-controlled", territory=place)
            continue
        if place in ctx.state.incorporated:
            ctx.refuse(nation, PHASE, index, order, "already-incorporated", territory=place)
            continue
        terr = ctx.world.territories[place]
        cost = 0 if terr.owner == nation else COST_FACTOR * terr.value
        ns = ctx.state.nations[nation]
        if cost > ns.saved:
            ctx.refuse(nation, PHASE, index, order, "insufficient-funds", territory=place, cost=cost,
                       saved=ns.saved)
            continue
        ns.saved -= cost
        ctx.state.incorporated[place] = ctx.turn
        ctx.tell(nation, "incorporated", PHASE, territory=place, cost=cost)
