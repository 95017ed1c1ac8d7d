"""The treasuries of separated territories (Phase 3.1, Phase 8).

Phase 3.1: "Each province separated from the mainland can hold resources to use them to
raise new units or transfer to the mainland or to another separated territory. Resources
can be spent only if that territory have enough resources there in this phase." Phase 8:
"Resources that are obtained from distant colonies or territories not connected by land
can be transfered in this phase ... Resources cannot be transfered through neutral or
enemy lands."

Readings (docs/rules-coverage.md, "Separated territories"):
* a nation's land falls into groups joined by land it or its allies hold (the land a
  transfer could cross); the mainland is the group of its capital, or, with the capital
  lost or none designated, the group whose land of the nation's start is worth most.
  The mainland's treasury is NationState.saved, as before; every other group keeps its
  own, NationState.flags[HELD] = {key territory: resources}, the key being a territory of
  the group (the one that already keeps money there, else its most valuable, then by
  name);
* Phase 8 first settles the groups as the turn left them (`settle`): money of a group
  joined to the mainland again joins the treasury, two groups joined become one, and
  money whose key territory the nation no longer holds is lost with it; then each group
  collects its share of the nation's income (`hold_apart`): what its land yields, in
  proportion to the whole when the income rule collects less than the full value
  (rounded down; the mainland gets the rest, the US trade and gifts); the Bolsheviks,
  who "draw resources from any Russian territories they control", keep one treasury;
* spending: units are paid from the treasury of the place they are built (a ship: of
  the nation's port beside the sea zone, the mainland's if one is there); everything
  else (research, espionage, influence, gifts, ...) from the mainland's; on a turn German
  option #5 sends supplies to German East Africa, the mainland pays what its own money
  there does not cover (engine/colony_supplies.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, repeat
from operator import attrgetter
from typing import Any

from moderator.engine import bolsheviks, colony_supplies
from moderator.engine.context import Position, TurnContext
from moderator.engine.per_map import once_per
from moderator.engine.phase6_incorporation import territory_yield
from moderator.engine.state import Control, GameState, holdings, same_control
from moderator.world.model import World

PHASE = "8"
HELD = "held_apart"  # NationState.flags: {key territory of a separated group: resources kept there}

Group = tuple[str, ...]


COMPONENTS = "treasury-components"  # pos.memo: (COMPONENTS,) -> (control, mark, sides, groups of every holder)
PIECES = "treasury-pieces"  # pos.memo: (PIECES,) -> {a camp's holders and their land: their pieces}
SEPARATED = "treasury-separated"  # pos.memo: (SEPARATED, nation) -> (control, mark, sides, keys held, separated, groups)


def groups(pos: Position, nation: str) -> list[Group]:
    """The nation's land in groups joined by land it or its allies hold, each sorted; the
    groups sorted by their first territory.

    Every treasury question asks (each build, transfer and Phase 8 settling: some hundred
    a turn), and searching the map every time was a fifth of a turn (docs/benchmarks.md).
    The answer depends only on the map (fixed for a position), who holds what, and who is
    allied with whom (GameState.allies, from the nations' sides), so answers are kept in
    the position's memo beside the control map they were made on (its mark, and a copy)
    and the sides, and found again only when either changed: the position's own memo, so
    nothing outlives it, and the same answer a new search would give. One search finds
    every nation's groups at once (_search): some forty neutrals each searching their own
    land cost more in setting out than in searching."""
    return list(_components(pos, sides_of(pos.state)).get(nation, ()))


def _components(pos: Position, sides: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, tuple[Group, ...]]:
    """Every holder's groups (_search), as the position's memo keeps them for its control
    map and sides, searched again when either changed. (The groups of each nation were
    also kept under a key of their own, checked first: a second check of the same map
    for every nation asked, where this one answers them all.)"""
    control = pos.state.control
    shared = pos.memo.get((COMPONENTS,))
    if shared is None or shared[2] != sides or not same_control(control, shared[0], shared[1]):
        shared = (*control_seen(control), sides, _search(pos))
        pos.memo[(COMPONENTS,)] = shared
    return shared[3]  # type: ignore[no-any-return]


def control_seen(control: dict[str, str]) -> tuple[dict[str, str], int]:
    """What an answer keeps of the control map it was made on: the map itself while it is
    unchanged (a Control's mark), else a copy to compare (state.same_control)."""
    if isinstance(control, Control):
        return control, control.mark
    return dict(control), -1


def sides_of(state: GameState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The nations and their sides, in the state's order: all GameState.allies reads."""
    return tuple(state.nations), tuple(map(_SIDE, state.nations.values()))


_SIDE = attrgetter("side")


def answers_holding(memo: dict[tuple[str, ...], Any], state: GameState) -> dict[tuple[str, ...], Any]:
    """The treasury answers of a position's memo (components, separated)
    that hold for `state` as it stands: made on a control map equal to its own, and its
    sides. The checker seeds the position of the next mail on the same snapshot with them
    (engine/check.py), each kept with a copy of that map (so a later change of the
    position's own cannot touch it): every answer is checked again against the position
    before use (groups, separated), so a seeded one is used only where a new
    search would give the same."""
    control = state.control
    sides = sides_of(state)
    out: dict[tuple[str, ...], Any] = {}
    kept = dict(control)  # one copy for all of them
    for key, value in memo.items():
        if not key or key[0] not in (COMPONENTS, SEPARATED) or not same_control(control, *value[:2]):
            continue
        if value[2] == sides:
            out[key] = (kept, -1, *value[2:])
    return out


def _search(pos: Position) -> dict[str, tuple[Group, ...]]:
    """Every holder's land in pieces joined by land held by it or its allies (once, for
    the whole map): for each holder, its own land in each of its pieces. Allies share
    their pieces (Cooperation: the same non-neutral side); a neutral, or a holder that is
    no nation of the state, has only its own land (GameState.allies).

    The pieces of a camp (allies, or a holder alone) depend on its holders' land alone:
    the position keeps them by that land (PIECES), so the search after the turn's battles
    (Phase 8) searches again only the camps whose land changed since the builds' (Phase
    3.1), not the forty neutrals nobody fought (issue 14, the engine's cost)."""
    control = pos.state.control
    nations = pos.state.nations
    links = _land_links(pos.world)

    def friends_of(holder: str) -> tuple[str, str]:  # holders with the same are allies
        ns = nations.get(holder)
        return ("side", ns.side) if ns is not None and ns.side != "neutral" else ("alone", holder)

    # holder -> its land (kept with the map for Phase 8's incomes: state.holdings)
    # (the control map holds only land, but a sea zone in it would be no one's land here)
    land = holdings(control if control.keys() <= links.keys() else {t: h for t, h in control.items() if t in links})
    camps: dict[tuple[str, str], list[str]] = {}  # allies' holders together
    for h in land:
        camps.setdefault(friends_of(h), []).append(h)
    kept: dict[tuple[tuple[str, frozenset[str]], ...], dict[str, tuple[Group, ...]]] = pos.memo.setdefault((PIECES,), {})
    out: dict[str, tuple[Group, ...]] = {}
    for holders in camps.values():
        if len(holders) == 1 and len(mine := land[holders[0]]) == 1:
            out[holders[0]] = (tuple(mine),)  # one territory, one piece (a score of neutrals)
            continue
        key = tuple(zip(holders, map(land.__getitem__, holders), strict=True))  # each holder's land (frozensets: hashed once)
        found = kept.get(key)
        if found is None:
            found = kept[key] = _pieces(holders, land, links, control)
        out.update(found)
    return out


def _pieces(holders: list[str], land: Mapping[str, frozenset[str]], links: dict[str, tuple[str, ...]],
            control: Mapping[str, str]) -> dict[str, tuple[Group, ...]]:
    """One camp's pieces (_search), as each holder's land in them, sorted.

    The camp's land is searched a ring at a time with set operations (the next ring: the
    neighbours of this one not yet reached), not a place at a time: the search was the
    larger part of Phase 8 (issue 14, the engine's cost). The pieces are the same, and the
    order of the search changes none of them (each is sorted below)."""
    out: dict[str, list[Group]] = {}
    left = set().union(*map(land.__getitem__, holders))  # the camp's land not yet in a piece
    while left:
        first = left.pop()
        if left.isdisjoint(links[first]):  # alone (an island, a colony apart: most pieces)
            out.setdefault(control[first], []).append((first,))
            continue
        ring = {first}
        piece = set(ring)
        while ring:
            ring = left.intersection(chain.from_iterable(map(links.__getitem__, ring)))
            left -= ring
            piece |= ring
        if len(holders) == 1 or len(piece) == 1:  # one holder's (an island, a colony apart: most pieces)
            out.setdefault(control[first], []).append(tuple(sorted(piece)))
            continue
        for holder in holders:  # each ally's own land in the piece
            if mine := piece & land[holder]:
                out.setdefault(holder, []).append(tuple(sorted(mine)))
    return {holder: tuple(sorted(found)) for holder, found in out.items()}




_LINKS: dict[int, tuple[World, dict[str, tuple[str, ...]]]] = {}  # id of a map -> (map, land -> land neighbours)


def _land_links(world: World) -> dict[str, tuple[str, ...]]:
    """Every land territory's land neighbours: once per map, which never changes (the
    entry holds the map, so its id cannot be reused while the entry lives)."""
    def build(world: World) -> dict[str, tuple[str, ...]]:
        places = world.territories
        return {t: tuple(n for n in world.neighbours(t) if n in places and places[n].is_land)
                for t, p in places.items() if p.is_land}

    return once_per(_LINKS, world, build)


def mainland(pos: Position, nation: str, all_groups: list[Group]) -> Group | None:
    """The group of the nation's capital; without it, the one whose start land is worth most."""
    spec = pos.scenario.nations.get(nation)
    capital = spec.capital if spec is not None else None
    for g in all_groups:
        if capital is not None and capital in g:
            return g
    if not all_groups:
        return None
    home = set(pos.world.home_of(nation))
    return min(all_groups, key=lambda g: (-sum(pos.place(t).value for t in g if t in home),
                                          -sum(pos.place(t).value for t in g), -len(g), g[0]))


def held(pos: Position, nation: str) -> dict[str, int]:
    raw = pos.nation(nation).flags.get(HELD, {})
    if not raw or not isinstance(raw, dict):
        return {}  # nothing held apart (most nations)
    return dict(zip(map(str, raw), map(int, raw.values()), strict=True))  # by C's loops


def key_of(pos: Position, nation: str, group: Group, money: dict[str, int] | None = None) -> str:
    """The territory that keeps a separated group's money (`money`: held(), when the caller has it)."""
    keeping = sorted(filter(group.__contains__, money if money is not None else held(pos, nation)))  # C's loop
    if keeping:
        return keeping[0]
    if len(group) == 1:
        return group[0]  # (most groups apart: an island, a colony)
    return min(group, key=_worth_order(pos.world).__getitem__)  # the most valuable, then by name


_WORTH: dict[int, tuple[World, dict[str, int]]] = {}  # id of a map -> (map, land -> its rank by worth)


def _worth_order(world: World) -> dict[str, int]:
    """Every land territory's rank when sorted by value (highest first), then by name: the
    key_of every group without money, found by min() over these ranks at C speed rather than
    a key made per territory (Britain alone has some twenty groups apart; issue 14). Once per
    map, which never changes (the entry holds the map, so its id cannot be reused)."""
    def build(world: World) -> dict[str, int]:
        lands = sorted((t for t, p in world.territories.items() if p.is_land),
                       key=lambda t: (-world.territories[t].value, t))
        return {t: i for i, t in enumerate(lands)}

    return once_per(_WORTH, world, build)


def separated(pos: Position, nation: str) -> list[tuple[str, Group]]:
    """(key, group) of every group but the mainland, by key. The Bolsheviks have none: they
    "draw resources from any Russian territories they control" (Phase 9)."""
    if nation == bolsheviks.BOLSHEVIKS:
        return []
    # Asked for every build, transfer and income (some hundred a turn): kept in the memo
    # like the groups, with the keys of the money held apart (key_of reads them).
    control, sides = pos.state.control, sides_of(pos.state)
    raw = pos.nation(nation).flags.get(HELD, {})
    keys = tuple(raw) if isinstance(raw, dict) else ()
    known = pos.memo.get((SEPARATED, nation))
    if known is not None and known[2] == sides and known[3] == keys and same_control(control, known[0], known[1]):
        return list(known[4])
    all_groups = _components(pos, sides).get(nation, ())
    if len(all_groups) < 2:
        found: tuple[tuple[str, Group], ...] = ()  # one group is the mainland (most nations): nothing apart
    elif known is not None and known[3] == keys and known[5] == all_groups:
        # Who holds what changed (Phase 8 asks again after the turn's battles), but not
        # the nation's groups: the answer is made of them and the keys alone (the map's
        # values and the capital never change), so it stands (issue 14).
        found = known[4]
    else:
        main = mainland(pos, nation, list(all_groups))
        apart = [g for g in all_groups if g != main]
        money = held(pos, nation)
        found = tuple(sorted((key_of(pos, nation, g, money), g) for g in apart))
    pos.memo[(SEPARATED, nation)] = (*control_seen(control), sides, keys, found, all_groups)
    return list(found)


def treasury_of(pos: Position, nation: str, place: str) -> str | None:
    """The key of the separated treasury that pays for what is built at `place`, or None
    for the mainland's. A sea zone (ships) is paid where the nation has a port beside it."""
    apart = separated(pos, nation)
    if not apart:
        return None
    if pos.is_sea(place):
        from moderator.engine.placement import has_port  # placement imports the engine context

        ports = [t for t in sorted(pos.world.neighbours(place)) if pos.place(t).is_land
                 and pos.controller(t) == nation and has_port(pos, nation, t)]
        keyed = [k for p in ports for k, g in apart if p in g]
        if len(keyed) < len(ports) or not keyed:
            return None  # a port of the mainland, or none (the order is refused elsewhere)
        return keyed[0]
    return next((k for k, g in apart if place in g), None)


def mainland_helps(pos: Position, nation: str, key: str) -> bool:
    """German option #5's supplies: the mainland may pay for what the separated group
    keyed `key` builds this turn (engine/colony_supplies.py)."""
    return any(k == key and colony_supplies.mainland_pays(pos, nation, g) for k, g in separated(pos, nation))


def available(pos: Position, nation: str, place: str) -> int:
    """What can be spent at `place`: its separated treasury (and the mainland's, when it
    sends supplies), or the mainland's."""
    key = treasury_of(pos, nation, place)
    if key is None:
        return pos.saved(nation)
    here = held(pos, nation).get(key, 0)
    return here + max(pos.saved(nation), 0) if mainland_helps(pos, nation, key) else here


def spend(ctx: TurnContext, nation: str, place: str, amount: int) -> None:
    """Paid where `place` is paid from: a separated treasury spends its own money first,
    the rest comes from the mainland's when it sends supplies."""
    key = treasury_of(ctx, nation, place)
    if key is None:
        ctx.pay(nation, amount)
        return
    here = held(ctx, nation).get(key, 0)
    if mainland_helps(ctx, nation, key) and amount > here:
        put(ctx, nation, key, -here)
        ctx.pay(nation, amount - here)
    else:
        put(ctx, nation, key, -amount)


def put(ctx: TurnContext, nation: str, key: str, amount: int) -> None:
    money = held(ctx, nation)
    money[key] = money.get(key, 0) + amount
    keep(ctx, nation, money)


def keep(ctx: TurnContext, nation: str, money: dict[str, int]) -> None:
    """Store the separated treasuries; none left: no flag (the state stays as before)."""
    flags = ctx.state.nations[nation].flags
    money = {k: v for k, v in sorted(money.items()) if v}
    if money:
        flags[HELD] = money
    else:
        flags.pop(HELD, None)


def settle(ctx: TurnContext, nation: str) -> None:
    """The groups as the turn left them: money rejoins the mainland, merges, or is lost
    with its key territory."""
    money = held(ctx, nation)
    if not money:
        return
    apart = separated(ctx, nation)
    ns = ctx.state.nations[nation]
    kept: dict[str, int] = {}
    for key, amount in sorted(money.items()):
        if ctx.controller(key) != nation:
            ctx.tell(nation, "held-apart-lost", PHASE, place=key, amount=amount)
            continue
        into = next((k for k, g in apart if key in g), None)
        if into is None:
            ns.saved += amount  # joined to the mainland by land again
        else:
            kept[into] = kept.get(into, 0) + amount
    keep(ctx, nation, kept)


def hold_apart(ctx: TurnContext, nation: str, collected: int, full: int) -> int:
    """Phase 8: each separated group keeps its share of the income collected; returns the
    mainland's."""
    apart = separated(ctx, nation)
    if not apart or collected <= 0 or full <= 0:
        return collected
    shares: dict[str, int] = {}
    money = held(ctx, nation)
    for key, group in apart:
        # (each territory's yield asked by map(), not a generator's step per territory: issue 14)
        yields = sum(map(territory_yield, repeat(ctx.world), repeat(ctx.state), group, repeat(ctx.turn)))
        share = collected * yields // full
        if share:
            shares[key] = share
            money[key] = money.get(key, 0) + share  # put(), the treasuries stored once for all
    if shares:
        keep(ctx, nation, money)
        ctx.tell(nation, "income-held-apart", PHASE, amounts=shares, held=held(ctx, nation))
    return collected - sum(shares.values())
