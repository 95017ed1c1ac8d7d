"""Phase 4.4: Land Movement (and the land combat, 4.6, that moves into enemy land start).

A Move takes land units (and, for now, aircraft: fuel and air combat are not modelled
yet, so aircraft move like land units) from one territory to an adjacent land territory.
Into friendly land it is just a move; into empty enemy land it captures the territory if
infantry or tanks move in (4.4: "Only infantry or tanks can capture territories");
into enemy land with units it is an attack (4.6, combat_land). Moves into land of a
nation the mover is not at war with are refused (Phase 1.1: declare war first).

Orders are resolved one after another: nations by id, each nation's moves in the order
written; a unit moves at most once per turn (one territory; longer tank/air moves later).
When a nation's move starts a battle, all of that nation's later moves into the same
territory join it: one battle, attacked from several sides (each unit keeps its own
origin, so only units crossing a strait suffer the Straits penalty).
Also: Artillery "cannot accompany units moving in enemy territory": attacking artillery
fires from its own territory and stays there; it never advances into empty enemy land.
AA guns and rockets never attack (Anti Air Guns; rocket fire is a separate action).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moderator.engine import combat_land, combat_orders, terrain
from moderator.engine.conquest import take_territory
from moderator.engine.context import TurnContext
from moderator.engine.state import AIR_UNITS, LAND_UNITS, Unit
from moderator.orders.model import Move
from moderator.world.model import World

PHASE = "4.4"
MOVABLE = frozenset(LAND_UNITS) | frozenset(AIR_UNITS)
NEVER_ATTACK = frozenset({"aa", "rocket"})
STAYS_AT_HOME = frozenset({"artillery"})  # fires in support, does not advance


@dataclass
class Leg:
    """One Move order, checked, with the units it picked."""

    nation: str
    index: int
    order: Move
    origin: str
    dest: str
    units: list[Unit]


def strait_between(world: World, a: str, b: str) -> bool:
    """Straits: does the step a -> b cross one of the rules' straits (incl. the Suez Canal)?"""
    return any(p.kind == "strait" and {a, b} == set(p.ends) for p in world.passages)


def land_movement(ctx: TurnContext) -> None:
    """Phase 4.4 with 4.6: carry out every Move in resolution order."""
    combat_orders.report_unsupported(ctx, PHASE)
    moves = list(ctx.orders_of(Move))
    done: set[tuple[str, int]] = set()
    for i, (nation, index, order) in enumerate(moves):
        if (nation, index) in done:
            continue
        leg = prepare(ctx, nation, index, order)
        if leg is None:
            continue
        later = [(n, j, o) for n, j, o in moves[i + 1:] if n == nation and ctx.name(o.dest) == leg.dest]
        joined = carry_out(ctx, leg, later)
        done.update((nation, j) for j in joined)


def prepare(ctx: TurnContext, nation: str, index: int, order: Move) -> Leg | None:
    origin, dest = ctx.name(order.origin), ctx.name(order.dest)
    if origin is None or dest is None:
        ctx.refuse(nation, PHASE, index, order, "unknown-territory", origin=order.origin, dest=order.dest)
        return None
    if not ctx.world.adjacent(origin, dest):
        ctx.refuse(nation, PHASE, index, order, "not-adjacent", origin=origin, dest=dest)
        return None
    if not ctx.world.territories[dest].is_land:
        ctx.refuse(nation, PHASE, index, order, "not-land", dest=dest)
        return None
    units = pick_units(ctx, nation, index, order, origin)
    barred = frozenset(u.kind for u in units if not terrain.may_enter(ctx.scenario, nation, u.kind, dest))
    units = hold_back(ctx, nation, index, units, barred, "terrain")  # Switzerland, Afghanistan, Tibet
    return Leg(nation, index, order, origin, dest, units) if units else None


def carry_out(ctx: TurnContext, leg: Leg, later: list[tuple[str, int, Move]]) -> list[int]:
    """Resolve one move; returns the indexes of later moves that joined its battle."""
    nation, dest = leg.nation, leg.dest
    holder = ctx.state.controller(dest)
    if holder is None or holder == nation or ctx.state.allies(nation, holder):
        relocate(ctx, leg.units, dest)
        ctx.tell(nation, "moved", PHASE, origin=leg.origin, dest=dest, units=kinds(leg.units))
        return []
    defenders = hostile_units(ctx, nation, dest)
    strangers = sorted({u.nation for u in defenders} | {holder})
    strangers = [n for n in strangers if not ctx.state.at_war(nation, n)]
    if strangers:
        ctx.moved.difference_update(u.id for u in leg.units)
        ctx.refuse(nation, PHASE, leg.index, leg.order, "not-at-war", dest=dest, nations=strangers)
        return []
    if not defenders and not strait_between(ctx.world, leg.origin, dest):
        advance(ctx, leg)
        return []
    # Straits: even empty land across a strait has its virtual coastal defender.
    legs = [attack_leg(ctx, leg)]
    joined: list[int] = []
    for n, j, o in later:
        other = prepare(ctx, n, j, o)
        if other is not None:
            legs.append(attack_leg(ctx, other))
            joined.append(j)
    attack(ctx, nation, dest, [g for g in legs if g.units], defenders)
    return joined


def pick_units(ctx: TurnContext, nation: str, index: int, order: Move, origin: str) -> list[Unit]:
    picked: list[Unit] = []
    for uc in order.units:
        free = sorted(
            (u for u in ctx.state.units_at(origin, nation)
             if u.kind == uc.kind and u.kind in MOVABLE and u.id not in ctx.moved),
            key=lambda u: u.id,
        )
        if len(free) < uc.count:
            ctx.tell(nation, "units-missing", PHASE, order=index, kind=uc.kind, place=origin,
                     ordered=uc.count, present=len(free))
        chosen = free[: uc.count]
        picked.extend(chosen)
        ctx.moved.update(u.id for u in chosen)  # spoken for: a unit moves once per turn
    return picked


def hostile_units(ctx: TurnContext, nation: str, place: str) -> list[Unit]:
    """Units at `place` that would fight `nation`: not its own or allied, not in transit."""
    return sorted(
        (u for u in ctx.state.units_at(place)
         if u.kind in MOVABLE and u.id not in ctx.in_transit
         and u.nation != nation and not ctx.state.allies(nation, u.nation)),
        key=lambda u: u.id,
    )


def relocate(ctx: TurnContext, units: Sequence[Unit], dest: str) -> None:
    for u in units:
        u.location = dest
        ctx.moved.add(u.id)


def hold_back(ctx: TurnContext, nation: str, index: int, units: list[Unit], kinds_out: frozenset[str],
              reason: str) -> list[Unit]:
    """Drop units of `kinds_out` from a move, telling the nation (they stay where they are)."""
    kept = [u for u in units if u.kind not in kinds_out]
    dropped = [u for u in units if u.kind in kinds_out]
    ctx.moved.difference_update(u.id for u in dropped)  # free for another order
    if dropped:
        ctx.tell(nation, "units-held-back", PHASE, order=index, reason=reason, units=kinds(dropped))
    return kept


def advance(ctx: TurnContext, leg: Leg) -> None:
    """Into empty enemy land: infantry/tanks capture; nothing else may go in (4.4, Artillery)."""
    nation, dest = leg.nation, leg.dest
    movers = hold_back(ctx, nation, leg.index, leg.units, MOVABLE - combat_land.CAPTURERS,
                       "cannot-enter-enemy-land")
    if not movers:
        ctx.tell(nation, "order-refused", PHASE, order=leg.index, text=leg.order.span.text,
                 reason="cannot-capture", dest=dest)
        return
    relocate(ctx, movers, dest)
    ctx.tell(nation, "moved", PHASE, origin=leg.origin, dest=dest, units=kinds(movers))
    take_territory(ctx, dest, nation, PHASE)


def attack_leg(ctx: TurnContext, leg: Leg) -> Leg:
    """The units of a leg that may attack: no AA or rockets; across a strait only
    infantry and artillery (Straits)."""
    leg.units = hold_back(ctx, leg.nation, leg.index, leg.units, NEVER_ATTACK, "cannot-attack")
    if strait_between(ctx.world, leg.origin, leg.dest):
        leg.units = hold_back(ctx, leg.nation, leg.index, leg.units,
                              MOVABLE - combat_land.STRAIT_ATTACKERS, "straits")
    return leg


def attack(ctx: TurnContext, nation: str, dest: str, legs: list[Leg], defenders: list[Unit]) -> None:
    units = [u for g in legs for u in g.units]
    if not units:
        return
    if not defenders and not any(u.kind in combat_land.CAPTURERS for u in units):
        ctx.moved.difference_update(u.id for u in units)
        first = legs[0]
        ctx.tell(nation, "order-refused", PHASE, order=first.index, text=first.order.span.text,
                 reason="cannot-capture", dest=dest)
        return
    across = {u.id for g in legs if strait_between(ctx.world, g.origin, dest) for u in g.units}
    steer = combat_orders.for_battle(ctx, nation, [nation, *(u.nation for u in defenders)], dest)
    battle = combat_land.fight(ctx, dest, sorted({g.origin for g in legs}), nation, units, defenders,
                               across, steer)
    alive = combat_land.survivors(battle)
    won = not combat_land.defenders_left(battle)
    captured = won and any(u.kind in combat_land.CAPTURERS for u in alive)
    combat_land.battle_event(ctx, battle, captured)
    if captured:
        # Survivors that can advance move in; artillery stays where it fired from.
        relocate(ctx, [u for u in alive if u.kind not in STAYS_AT_HOME], dest)
        take_territory(ctx, dest, nation, combat_land.PHASE)


def kinds(units: Sequence[Unit]) -> dict[str, int]:
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return dict(sorted(out.items()))
