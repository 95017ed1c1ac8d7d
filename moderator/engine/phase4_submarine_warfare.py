"""Phase 4.7: Submarine Warfare -- the step, and the rules' functions it will use.

Phase 4.7: each submarine on the shortest sea path of a resource transfer destroys 1-5
of the resources carried on that path, at most all of them; when several sea paths are
equally short "the value transfered is divided by their number". Without a transfer,
subs in the target's home waters hit its US trade the same way (1-5 each, at most the trade).

Unrestricted submarine warfare is declared in Phase 1.4, and done by the same submarines
once they end their movement: "Any submarine deployed in above designated zones, besides
damage done by sumbarine warfare (section 4.7), can inflict additional damage" -- each
sub in a targeted zone hits 1-10 (D10), at most the full income of the targeted
territories. The rules' table of targets is scenario data (Scenario.unrestricted,
scenarios/1914/unrestricted_submarine_warfare.toml).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable, Mapping
from itertools import compress, repeat
from operator import attrgetter, eq

from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.state import Unit
from moderator.orders.model import Transfer
from moderator.world.model import World
from moderator.world.scenario_model import UnrestrictedTarget

PHASE = "4.7"
SUB_HIT = (1, 5)  # Phase 4.7: "can destroy 1-5 resources per sub"


def capped_hits(subs: int, sides: tuple[int, int], cap: int, dice: Dice, purpose: str) -> int:
    """Sum of one low..high roll per sub, at most `cap`. Every sub rolls, for a stable log."""
    low, high = sides
    total = sum(dice.between(low, high, f"{purpose}: sub {i + 1}") for i in range(subs))
    return min(total, max(cap, 0))


def split_transfer(amount: int, paths: int) -> list[int]:
    """Resources carried on each of `paths` equally short paths (Phase 4.7: "divided by their number").

    The rules do not say where an odd remainder goes; the engine's default puts one
    extra resource on each of the first paths in sorted path order.
    """
    if paths <= 0:
        raise ValueError("a transfer needs at least one path")
    share, rest = divmod(amount, paths)
    return [share + (1 if i < rest else 0) for i in range(paths)]


def transfer_losses(
    amount: int,
    paths: list[tuple[str, ...]],
    subs: Mapping[str, int],
    dice: Dice,
) -> dict[tuple[str, ...], int]:
    """Resources lost on each shortest path of a transfer to the subs in its sea zones (Phase 4.7)."""
    ordered = sorted(paths)
    losses: dict[tuple[str, ...], int] = {}
    for path, carried in zip(ordered, split_transfer(amount, len(ordered)), strict=True):
        on_path = sum(subs.get(zone, 0) for zone in path)
        losses[path] = capped_hits(on_path, SUB_HIT, carried, dice, f"sub warfare {' > '.join(path)}")
    return losses


def us_trade_loss(subs: int, trade: int, dice: Dice) -> int:
    """US trade sunk by subs in the nation's home waters: 1-5 each, at most the trade (Phase 4.7)."""
    return capped_hits(subs, SUB_HIT, trade, dice, "sub warfare on US trade")


def unrestricted_damage(subs: int, target: UnrestrictedTarget, dice: Dice) -> int:
    """Income lost to unrestricted submarine warfare: 1D10 per sub, at most the table value (Phase 1.4)."""
    return capped_hits(subs, (1, 10), target.value, dice, "unrestricted submarine warfare")


def _coastal_seas(world: World, lands: Iterable[str]) -> set[str]:
    return {n for land in lands for n in world.neighbours(land) if world.territories[n].is_sea}


def shortest_sea_paths(
    world: World,
    sources: Iterable[str],
    targets: Iterable[str],
    closed: Collection[str] = (),
) -> list[tuple[str, ...]]:
    """All shortest chains of sea zones from a coast of `sources` to a coast of `targets` (Phase 4.7).

    Length is counted in sea zones, as the rules do. Only sea-to-sea adjacency is
    followed (a canal that the map models as a land territory is not crossed), and the
    `closed` zones (naval blockade: "Shortest path can be cut") are avoided. Each
    distinct chain counts once, however many target territories it touches. Sorted.

    The search reads nothing but the map (which never changes) and the two coasts, and
    the same transfers are sought turn after turn (issue 14): answers are kept on the
    world, under the coasts and the closed zones, like its other indexes.
    """
    shut = frozenset(closed)
    starts = frozenset(_coastal_seas(world, sources) - shut)
    goals = frozenset(_coastal_seas(world, targets) - shut)
    kept: dict[tuple[frozenset[str], ...], tuple[tuple[str, ...], ...]] = world.__dict__.setdefault("_sea_paths", {})
    key = (starts, goals, shut)
    found = kept.get(key)
    if found is None:
        if len(kept) >= _SEA_PATHS_KEPT:
            kept.clear()
        found = kept[key] = tuple(_shortest_sea_paths(world, sorted(starts), goals, shut))
    return list(found)


_SEA_PATHS_KEPT = 1024  # pairs of coasts kept per world (a game seeks a few dozen)


def _shortest_sea_paths(world: World, starts: list[str], goals: frozenset[str],
                        closed: frozenset[str]) -> list[tuple[str, ...]]:
    """shortest_sea_paths(), sought: a breadth-first search of the seas from every start."""
    dist = {s: 1 for s in starts}
    parents: dict[str, list[str]] = {s: [] for s in starts}
    queue = deque(starts)
    while queue:
        zone = queue.popleft()
        for n in sorted(world.neighbours(zone)):
            if not world.territories[n].is_sea or n in closed:
                continue
            if n not in dist:
                dist[n] = dist[zone] + 1
                parents[n] = []
                queue.append(n)
            if dist[n] == dist[zone] + 1:
                parents[n].append(zone)
    reached = [g for g in goals if g in dist]
    if not reached:
        return []
    best = min(dist[g] for g in reached)
    return sorted(p for g in reached if dist[g] == best for p in _chains(g, parents))


def _chains(zone: str, parents: Mapping[str, list[str]]) -> list[tuple[str, ...]]:
    """Every shortest chain ending at `zone`, walking the BFS parents back to a start."""
    if not parents[zone]:
        return [(zone,)]
    return [chain + (zone,) for p in parents[zone] for chain in _chains(p, parents)]


INCOME_LOST = "income_lost_at_sea"  # NationState.flags: production sunk this turn, taken off Phase 8's income
TRADE_SUNK = "us_trade_sunk"  # NationState.flags: US trade sunk this turn, taken off Phase 8's trade


def home_waters(ctx: TurnContext, nation: str) -> list[str]:
    """4.7: the "home sea zones of designated nation (all sea zones bordering original nation
    territory, and there must be land path between sea zone and that nation)": the zones
    beside the land it held at the start that is joined by land to its capital.

    They are made of the map (which never changes) and the capital alone, and asked every
    turn (issue 14): kept on the world under the nation and its capital."""
    info = ctx.scenario.nations.get(nation)
    capital = info.capital if info is not None else None
    kept: dict[tuple[str, str | None], tuple[str, ...]] = ctx.world.__dict__.setdefault("_home_waters", {})
    found = kept.get((nation, capital))
    if found is None:
        found = kept[(nation, capital)] = tuple(_home_waters(ctx.world, nation, capital))
    return list(found)


def _home_waters(world: World, nation: str, capital: str | None) -> list[str]:
    home = set(world.home_of(nation))
    if capital is None or capital not in home:
        return []
    seen, queue = {capital}, deque([capital])
    while queue:
        here = queue.popleft()
        for nxt in sorted(world.neighbours(here)):
            if nxt in home and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return sorted(_coastal_seas(world, seen))


_kind = attrgetter("kind")


def us_trade_warfare(ctx: TurnContext) -> None:
    """4.7: "If there is no resource transfer between two territories then target for
    submarine warfare can be US trade with designated nation, but for this purpose subs
    must end movement in home sea zones of designated nation". Each submarine of a nation
    at war with a receiver of the trade, in its home waters, sinks 1-5, at most the trade
    (the rules' second example: four subs, "the maximum Germans can take is only 5").
    Reading: "no resource transfer" is the receiver's, this turn (no TRANSFER order); a
    trade already cut (engine/us_trade.py) is not hunted."""
    from moderator.engine import us_trade  # it reads the declarations this module's step follows

    submarines: list[Unit] | None = None  # once, not per nation: nothing moves here
    for nation in sorted(ctx.state.nations):
        due = us_trade.trade_due(ctx, nation)
        if not due or us_trade.cut(ctx, nation) is not None:
            continue
        if any(isinstance(o, Transfer) for o in ctx.orders.get(nation, ())):
            continue
        if submarines is None:  # only when a trade is hunted (picked at C speed: map, compress)
            units = ctx.state.units
            submarines = list(compress(units, map(eq, repeat("submarine"), map(_kind, units))))
        zones = set(home_waters(ctx, nation))
        subs = [u for u in submarines if u.location in zones
                and ctx.at_war(u.nation, nation)]
        if not subs:
            continue
        sunk = us_trade_loss(len(subs), due, ctx.dice)
        ctx.state.nations[nation].flags[TRADE_SUNK] = sunk
        by = sorted({u.nation for u in subs})
        ctx.emit("us-trade-sunk", PHASE, sorted({nation, *by}), nation=nation, by=by,
                 zones=sorted({u.location for u in subs}), submarines=len(subs), amount=due, sunk=sunk)


def submarine_warfare(ctx: TurnContext) -> None:
    """Unrestricted submarine warfare (Phase 1.4), done where the submarines ended their
    movement: each nation whose declaration stands rolls 1D10 a submarine it has in the
    targeted zones of each target at war with it, at most the table's value; the target
    loses that much of this turn's income (Phase 8: "damage to production"). Then the
    submarines in a receiver's home waters hunt its US trade (us_trade_warfare); those on
    the paths of transfers sink them in Phase 8 (engine/sea_lanes.py)."""
    for nation in sorted(ctx.state.nations):
        aim = ctx.state.nations[nation].flags.get("unrestricted_subs")
        if not aim:
            continue
        for victim in sorted(ctx.state.nations):
            ns = ctx.state.nations[victim]
            row = ctx.scenario.unrestricted.get(victim)
            if row is None or not ctx.at_war(nation, victim) or aim not in (victim, ns.side):
                continue
            subs = sum(1 for u in ctx.state.units if u.nation == nation and u.kind == "submarine"
                       and u.location in row.zones)
            if not subs:
                continue
            damage = unrestricted_damage(subs, row, ctx.dice)
            ns.flags[INCOME_LOST] = ns.flags.get(INCOME_LOST, 0) + damage
            ctx.emit("unrestricted-submarine-warfare", PHASE, (nation, victim), nation=nation, target=victim,
                     zones=list(row.zones), submarines=subs, damage=damage)
    us_trade_warfare(ctx)
