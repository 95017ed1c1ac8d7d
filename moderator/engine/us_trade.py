"""Variable US Trade (Phase 9), collected with the income of Phase 8.

"The amounts to each nation are: 10 to the British Isles (if not neutral), 8 to Germany,
5 to France. While the USA is neutral and not in negative numbers for US Entry, Russia
also gets 5 trade resources from the USA. These resources do not come from the USA's
active resource collection ... These trade resources stop once the US has geared up to
its maximum resource collection per turn. They also stop going to a nation if the US
becomes at war with that nation." US Playing Options: "the trade stops once the US enters
the main war". The amounts: nations.toml `us_trade`; the trader: diplomacy.toml
[us_trade] `trader`; the US Entry is the trader's NationState.standing.

Readings (docs/rules-coverage.md): "geared up to its maximum" is the US collecting its
full income (in the main war, or by a moderator's SET INCOME), not the 35 of option #1,
which the rules call a gear-up of "war spending" while neutral.

What cuts it, this turn:
* a naval blockade of the receiver declared in Phase 1.4 ("it would force target nation
  to lose US trade");
* a BLOCKADE US TRADE TO the receiver declared in 1.4, when every route to the receiver
  is cut (diplomacy.toml [[us_trade.route]]: an enemy warship or submarine in one of the
  route's zones as the turn began, the position the declaration was judged on);
* unrestricted submarine warfare: Germany's declaration cuts the routes the rules name
  (Britain's, France's, Russia's Norwegian Sea route), and Phase 1.4: "if there is any
  trade obtained with US (while US is neutral) then such trade is lost" where an enemy
  that declared it against the receiver (or its side) had a submarine in the receiver's
  zones of the Phase 1.4 table.
Russia's Pacific route exists only while it holds Vladivostok or Kamchatka; the Middle
Atlantic becomes a route to Germany once Germany holds Brest incorporated.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import eq, itemgetter

from moderator.engine import japan
from moderator.engine.context import Position, TurnContext
from moderator.engine.neutral_income import income_rule
from moderator.engine.orders.records import side_word
from moderator.engine.phase4_submarine_warfare import TRADE_SUNK
from moderator.world.scenario_model import TradeRoute

PHASE = "8"


def trade_due(ctx: Position, nation: str) -> int:
    """What the US trade owes `nation` this turn, before any cut (0: none at all)."""
    info = ctx.scenario.nations.get(nation)
    trader = ctx.scenario.diplomacy.us_trader
    if info is None or not info.us_trade or trader not in ctx.state.nations or nation not in ctx.state.nations:
        return 0
    us = ctx.state.nations[trader]
    if us.side != "neutral" or income_rule(ctx.state, ctx.scenario, trader) == "full":
        return 0  # in the main war, or geared up to its maximum
    if ctx.at_war(trader, nation):
        return 0
    d = ctx.scenario.diplomacy
    if nation in d.us_trade_not_while_neutral and ctx.state.nations[nation].side == "neutral":
        return 0  # "10 to the British Isles (if not neutral)"
    if nation in d.us_trade_not_while_entry_negative and us.standing < 0:
        return 0  # Russia: "not in negative numbers for US Entry"
    return info.us_trade


def subs_against(ctx: Position, declarer: str, nation: str) -> bool:
    """Has `declarer` declared unrestricted submarine warfare against `nation` or its side?"""
    target = ctx.nation(declarer).flags.get("unrestricted_subs")
    if not target or not ctx.at_war(declarer, nation):
        return False
    return target == nation or target == side_word(ctx.nation(nation).side)


def blockaded(ctx: Position, nation: str, kind: str) -> list[str]:
    """The nations at war with `nation` that declared this turn's blockade of that kind."""
    # the ("blockade", nation, kind) keys picked out of every per-turn key by C's loops
    # (compress on their tails), not a Python step per key (hundreds by turn eight; issue 14)
    done = ctx.done
    declared = compress(done, map(eq, map(_TAIL, done), repeat(("blockade", nation, kind))))
    return sorted({key[0] for key in declared if ctx.at_war(key[0], nation)})


def enemy_ship_in(ctx: Position, nation: str, zones: tuple[str, ...]) -> bool:
    """A warship or submarine of a nation at war with `nation` in one of the zones as the
    turn began. Russia: "If Japan is at full war with Russia, the Japanese ships may count
    towards the blockade", so not during Japan's limited war (option #4, engine/japan.py)."""
    ships = ctx.scenario.diplomacy.us_trade_ships
    limited = nation == japan.RUSSIA and japan.limited_war_on_russia(ctx.state)
    return any(count > 0 and place in zones and kind in ships and ctx.at_war(owner, nation)
               and not (limited and owner == japan.JAPAN)
               for (owner, place, kind), count in ctx.start.items())


def route_open(ctx: Position, nation: str, route: TradeRoute) -> bool:
    """Does the route exist, and is it free of the cuts that need no declaration?"""
    if route.held and not any(ctx.controller(p) == nation and (not route.incorporated or p in ctx.state.incorporated)
                              for p in route.held):
        return False
    return not (route.subs_cut and subs_against(ctx, route.subs_cut, nation))


def cut(ctx: Position, nation: str) -> tuple[str, list[str]] | None:
    """Why the trade to `nation` is cut this turn, and by whom, or None."""
    naval = blockaded(ctx, nation, "naval")
    if naval:
        return "naval-blockade", naval
    routes = [r for r in ctx.scenario.diplomacy.us_trade_routes if r.to == nation]
    open_routes = [r for r in routes if route_open(ctx, nation, r)]
    if routes and not open_routes:
        by = sorted({r.subs_cut for r in routes if r.subs_cut and subs_against(ctx, r.subs_cut, nation)})
        return "unrestricted-submarine-warfare", by
    row = ctx.scenario.unrestricted.get(nation)  # Phase 1.4: subs in the target's zones
    if row is not None:
        start = ctx.start  # the submarines picked out of every count by C's loops (compress): few are subs
        hunters = sorted({owner for owner, place, kind in compress(start, map(eq, repeat("submarine"),
                                                                               map(_KIND, start)))
                          if start[(owner, place, kind)] > 0 and place in row.zones
                          and subs_against(ctx, owner, nation)})
        if hunters:
            return "unrestricted-submarine-warfare", hunters
    declared = blockaded(ctx, nation, "us-trade")
    if declared and open_routes and all(enemy_ship_in(ctx, nation, r.zones) for r in open_routes):
        return "us-trade-blockade", declared
    return None


_KIND = itemgetter(2)  # of a (nation, place, kind) count
_TAIL = itemgetter(slice(1, None))  # of a per-turn key: all but its first (a blockade's: what, whom, which kind)


def trade_after_cuts(pos: Position, nation: str) -> int:
    """What the US trade brings `nation` this turn at this position (0 when it is cut)."""
    due = trade_due(pos, nation)
    return due if due and cut(pos, nation) is None else 0


def collect_us_trade(ctx: TurnContext) -> None:
    """Phase 8: each receiver's US trade, or the news that it was cut (told to it alone)."""
    for nation in sorted(ctx.state.nations):
        due = trade_due(ctx, nation)
        if not due:
            continue
        why = cut(ctx, nation)
        if why is not None:
            if not ctx.checking:
                ctx.tell(nation, "us-trade-cut", PHASE, amount=due, reason=why[0], by=why[1])
            continue
        ns = ctx.state.nations[nation]
        due -= min(due, ns.flags.pop(TRADE_SUNK, 0))  # 4.7: sunk by submarines in its home waters
        ns.saved += due
        if not ctx.checking:
            ctx.tell(nation, "us-trade", PHASE, amount=due, saved=ns.saved)
