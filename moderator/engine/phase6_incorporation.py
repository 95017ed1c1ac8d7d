"""Phase 6: Incorporation, and the income delay table that follows it.

Table (Phase 6), turns counted from the turn of (re)incorporation:
    reincorporation (own original land, free):  0 none, 1-2 half, >=3 full
    incorporation (conquered land, 2x value):   0-3 none, 4-9 half, >=10 full
Half income is rounded up. Land held since the start of the game is recorded in
GameState.incorporated with turn 0 (or earlier) and always yields its full value.
The INCORPORATE order itself (2x the value, paid in Phase 6) is at home in
engine/orders/incorporate.py.
"""

from __future__ import annotations

from moderator.engine.state import GameState
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
