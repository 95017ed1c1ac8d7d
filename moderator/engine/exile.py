"""Governments in exile and their liberation (Conquest).

"A conquered nation may also choose to declare a "government in exile" and name a host
nation for its armed forces. The host nation must be an ally. The host then assumes
command of the forces of the "government in exile". The exiled nation's units may
function as units of the host's army (i.e., movement and combat) and will remain under
the host's control until the conquered nation is liberated. Liberation occurs once the
conquered nation's capital has been allied controlled for two full turns. While a
government is in exile, all of its remaining territories not already captured by the
enemy are assumed to be territories originally held by the host nation."
The example: "If Bulgaria is a Central Power nation and occupy and incorporate Serbia
earlier in the game, then if the territory of Bulgaria is conquered by Allied Powers then,
rather then losing resource points of Serbia, Bulgaria can name Austro-Hungary as the host
nation, and Austro-Hungary will, then, collect resources from Serbia until Bulgaria is
liberated again."

What the engine does (GOVERNMENT IN EXILE WITH <host>, engine/orders/exile.py judges it):
the exile is public news and kept in the nation's flags (HOST, SINCE); in Phase 8 the
host collects the income of the land the exiled nation still holds, as its own
(merge_incomes); in Phase 9 the capital's holder is looked at (liberation). The host
commands the exiled units by writing the exiled seat's orders (PROXY FOR the exiled
nation: service/proxy.py), which come before the seat player's own; the exile is told to
all, so the host knows.

Reading (docs/rules-coverage.md): "allied controlled for two full turns" is counted at
the end of each turn (Phase 9): the capital held by the nation or an ally at the end of
three turns in a row (the turn it was freed, then two full turns) ends the exile.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.engine.state import GameState

PHASE = "1.5"
HOST = "exile_host"  # NationState.flags: the host of its government in exile
SINCE = "exile_since"  # NationState.flags: the turn it went into exile
HELD = "capital_held"  # NationState.flags: Phase 9s in a row its capital was held by it or an ally
TURNS_TO_LIBERATE = 3  # the turn of the capital's liberation, then "two full turns"


def declare(ctx: TurnContext, nation: str, host: str) -> None:
    flags = ctx.state.nations[nation].flags
    flags[HOST] = host
    flags[SINCE] = ctx.turn
    flags.pop(HELD, None)
    if not ctx.checking:
        ctx.emit("government-in-exile", PHASE, (), nation=nation, host=host)  # public news


def host_of(state: GameState, nation: str) -> str | None:
    ns = state.nations.get(nation)
    host = ns.flags.get(HOST) if ns is not None else None
    return str(host) if host and host in state.nations else None


def merge_incomes(state: GameState, fulls: dict[str, int]) -> None:
    """Phase 8: an exiled nation's land is "assumed to be territories originally held by
    the host nation": the host collects it with its own, under its own income rule."""
    for nation in sorted(state.nations):
        host = host_of(state, nation)
        if host is not None and nation in fulls:
            fulls[host] = fulls.get(host, 0) + fulls.pop(nation)


def capital_of(ctx: TurnContext, nation: str) -> str | None:
    return next((t for t in ctx.world.home_of(nation) if ctx.world.territories[t].capital), None)


def liberation(ctx: TurnContext, phase: str) -> None:
    """Phase 9: each exiled nation whose capital its side holds; liberated at the third."""
    for nation in sorted(ctx.state.nations):
        host = host_of(ctx.state, nation)
        if host is None:
            continue  # not in exile (most nations): its capital is not looked up
        capital = capital_of(ctx, nation)
        if capital is None:
            continue
        flags = ctx.state.nations[nation].flags
        holder = ctx.controller(capital)
        if holder is None or not (holder == nation or ctx.allies(nation, holder)):
            flags.pop(HELD, None)
            continue
        flags[HELD] = int(flags.get(HELD, 0)) + 1
        if flags[HELD] >= TURNS_TO_LIBERATE:
            for key in (HOST, SINCE, HELD):
                flags.pop(key, None)
            ctx.emit("liberated", phase, (), nation=nation, host=host)  # public news
