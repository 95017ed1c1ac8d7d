"""Phase 4.4: Land Movement (and the land combat, 4.6, that moves into enemy land start).

A Move takes land units (and, for now, aircraft: fuel and air combat are not modelled
yet, so aircraft move like land units) from one territory to an adjacent land territory.
Into friendly land it is just a move; into empty enemy land it captures the territory if
infantry or tanks move in (4.4: "Only infantry or tanks can capture territories");
into enemy land with units it is an attack (4.6, combat_land). Moves into land of a
nation the mover is not at war with are refused (Phase 1.1: declare war first).

Orders are resolved one after another: nations by id, each nation's moves in the order
written; a unit moves at most once per turn (one territory; longer tank/air moves later).
Also: Artillery "cannot accompany units moving in enemy territory": attacking artillery
fires from its own territory and stays there; it never advances into empty enemy land.
AA guns and rockets never attack (Anti Air Guns; rocket fire is a separate action).
"""

from __future__ import annotations

from collections.abc import Sequence

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


def strait_between(world: World, a: str, b: str) -> bool:
    """Straits: does the step a -> b cross one of the rules' straits (incl. the Suez Canal)?"""
    return any(p.kind == "strait" and {a, b} == set(p.ends) for p in world.passages)


def land_movement(ctx: TurnContext) -> None:
    """Phase 4.4 with 4.6: carry out every Move in resolution order."""
    combat_orders.report_unsupported(ctx, PHASE)
    for nation, index, order in ctx.orders_of(Move):
        carry_out(ctx, nation, index, order)


def carry_out(ctx: TurnContext, nation: str, index: int, order: Move) -> None:
    origin, dest = ctx.name(order.origin), ctx.name(order.dest)
    if origin is None or dest is None:
        ctx.refuse(nation, PHASE, index, order, "unknown-territory", origin=order.origin, dest=order.dest)
        return
    if not ctx.world.adjacent(origin, dest):
        ctx.refuse(nation, PHASE, index, order, "not-adjacent", origin=origin, dest=dest)
        return
    if not ctx.world.territories[dest].is_land:
        ctx.refuse(nation, PHASE, index, order, "not-land", dest=dest)
        return
    units = pick_units(ctx, nation, index, order, origin)
    barred = frozenset(u.kind for u in units if not terrain.may_enter(ctx.scenario, nation, u.kind, dest))
    units = hold_back(ctx, nation, index, units, barred, "terrain")  # Switzerland, Afghanistan, Tibet
    if not units:
        return
    holder = ctx.state.controller(dest)
    if holder is None or holder == nation or ctx.state.allies(nation, holder):
        relocate(ctx, units, dest)
        ctx.emit("moved", PHASE, (nation,), origin=origin, dest=dest, units=kinds(units))
        return
    defenders = hostile_units(ctx, nation, dest)
    strangers = sorted({u.nation for u in defenders} | {holder})
    strangers = [n for n in strangers if not ctx.state.at_war(nation, n)]
    if strangers:
        ctx.refuse(nation, PHASE, index, order, "not-at-war", dest=dest, nations=strangers)
        return
    if defenders or strait_between(ctx.world, origin, dest):
        # Straits: even empty land across a strait has its virtual coastal defender.
        attack(ctx, nation, index, origin, dest, units, defenders)
    else:
        advance(ctx, nation, index, origin, dest, units)


def pick_units(ctx: TurnContext, nation: str, index: int, order: Move, origin: str) -> list[Unit]:
    picked: list[Unit] = []
    taken: set[str] = set()
    for uc in order.units:
        free = sorted(
            (u for u in ctx.state.units_at(origin, nation)
             if u.kind == uc.kind and u.kind in MOVABLE and u.id not in ctx.moved and u.id not in taken),
            key=lambda u: u.id,
        )
        if len(free) < uc.count:
            ctx.emit("units-missing", PHASE, (nation,), order=index, kind=uc.kind, place=origin,
                     ordered=uc.count, present=len(free))
        chosen = free[: uc.count]
        picked.extend(chosen)
        taken.update(u.id for u in chosen)
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
    if dropped:
        ctx.emit("units-held-back", PHASE, (nation,), order=index, reason=reason, units=kinds(dropped))
    return kept


def advance(ctx: TurnContext, nation: str, index: int, origin: str, dest: str, units: list[Unit]) -> None:
    """Into empty enemy land: infantry/tanks capture; nothing else may go in (4.4, Artillery)."""
    movers = hold_back(ctx, nation, index, units, MOVABLE - combat_land.CAPTURERS, "cannot-enter-enemy-land")
    if not movers:
        ctx.emit("order-refused", PHASE, (nation,), order=index, reason="cannot-capture", dest=dest)
        return
    relocate(ctx, movers, dest)
    ctx.emit("moved", PHASE, (nation,), origin=origin, dest=dest, units=kinds(movers))
    take_territory(ctx, dest, nation, PHASE)


def attack(ctx: TurnContext, nation: str, index: int, origin: str, dest: str,
           units: list[Unit], defenders: list[Unit]) -> None:
    strait = strait_between(ctx.world, origin, dest)
    units = hold_back(ctx, nation, index, units, NEVER_ATTACK, "cannot-attack")
    if strait:
        units = hold_back(ctx, nation, index, units, MOVABLE - combat_land.STRAIT_ATTACKERS, "straits")
    if not units:
        return
    if not defenders and not any(u.kind in combat_land.CAPTURERS for u in units):
        ctx.emit("order-refused", PHASE, (nation,), order=index, reason="cannot-capture", dest=dest)
        return
    for u in units:
        ctx.moved.add(u.id)
    steer = combat_orders.for_battle(ctx, nation, [nation, *(u.nation for u in defenders)], dest)
    battle = combat_land.fight(ctx, dest, origin, nation, units, defenders, strait, steer)
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
