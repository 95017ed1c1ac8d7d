"""Checks of Phase 4 naval orders: task forces and their missions (4.2.1-4.2.8),
submarine detection (4.2.9) and interception (4.2.10), naval invasions (4.6.1)."""

from __future__ import annotations

from dataclasses import replace

from moderator.orders import model as m
from moderator.orders.check_combat import war_check
from moderator.orders.context import Ctx, TaskForceInfo
from moderator.orders.diagnostics import WARNING
from moderator.orders.vocab import AIR, UNIT_ECHO

SURFACE = ("battleship", "cruiser", "carrier", "transport")


def task_force(o: m.TaskForce, ctx: Ctx) -> m.Order | None:
    zone = ctx.territory(o, o.location)
    if zone is None:
        return None
    if not ctx.is_sea(zone):
        ctx.error(o, f"a task force is formed in a sea zone; {zone} is land", "tf-on-land", o.location)
        return None
    if o.name in ctx.task_forces:
        ctx.error(o, f"task force {o.name} is formed twice; give each task force its own name",
                  "tf-twice", o.name)
        return None
    if not ctx.take(o, zone, o.units):
        return None
    ctx.task_forces[o.name] = TaskForceInfo(zone, o.units, zone)
    return replace(o, location=zone)


def _kinds(tf: TaskForceInfo) -> set[str]:
    return {u.kind for u in tf.units}


def _speed(ctx: Ctx, tf: TaskForceInfo) -> int:
    moves = [(s.move if (s := ctx.stats(u.kind)) else 1) for u in tf.units]
    return min(moves) if moves else 0


def mission(o: m.TaskForceMission, ctx: Ctx) -> m.Order | None:
    tf = ctx.task_forces.get(o.name)
    if tf is None:
        ctx.error(o, f"task force {o.name} is not formed; first write: TF {o.name} AT <sea zone>: "
                     "<ships>", "tf-unknown", o.name)
        return None
    if not _composition(o, ctx, tf):
        return None
    if o.mission == "load":
        return _load(o, ctx, tf)
    if o.mission == "bombard":
        return _bombard(o, ctx, tf)
    dest = None
    if o.dest is not None:
        dest = ctx.territory(o, o.dest)
        if dest is None:
            return None
        if not ctx.is_sea(dest) or not ctx.world.adjacent(tf.position, dest):
            ctx.error(o, f"{dest} is not a sea zone next to {tf.position}, where task force {o.name} "
                         "is at this point", "not-adjacent", o.dest)
            return None
        if o.mission in ("blockade", "detect"):
            ctx.error(o, f"{o.mission} keeps the task force in its sea zone: write TF {o.name} "
                         f"{o.mission.upper()} without TO (4.2.6, 4.2.9)", "tf-stays")
            return None
        tf.steps += 1
        if tf.steps > _speed(ctx, tf):
            ctx.error(o, f"task force {o.name} has only {_speed(ctx, tf)} movement points (its "
                         "slowest ship)", "tf-too-far", o.dest)
            return None
        tf.position = dest
    if o.escort_of is not None and not any(isinstance(x, m.TaskForce) and x.name == o.escort_of
                                           for x in ctx.orders):
        ctx.error(o, f"there is no task force {o.escort_of} to escort", "tf-unknown", o.escort_of)
        return None
    return replace(o, dest=dest)


def _composition(o: m.TaskForceMission, ctx: Ctx, tf: TaskForceInfo) -> bool:
    """Which ships may do which mission (4.2.1-4.2.8)."""
    kinds = _kinds(tf)
    rule = {
        "transport": (kinds <= {"transport"}, "only transports do troop transport (4.2.1)"),
        "load": ("transport" in kinds, "only transports load troops (4.2.1)"),
        "escort": (kinds <= {"battleship", "cruiser"}, "only destroyers and battleships escort (4.2.2)"),
        "bombard": ("battleship" in kinds, "shore bombardment needs a battleship (4.2.3)"),
        "carrier": ("carrier" in kinds, "a carrier move needs an aircraft carrier (4.2.4)"),
    }.get(o.mission)
    if rule is not None and not rule[0]:
        ctx.error(o, rule[1], "tf-mission")
        return False
    if tf.loaded_points and o.mission in ("patrol", "blockade", "move", "escort", "bombard", "carrier"):
        ctx.error(o, f"loaded transports can only do TRANSPORT (4.2.5-4.2.7); task force {o.name} "
                     "carries troops", "tf-loaded")
        return False
    if "submarine" in kinds and o.mission in ("patrol", "blockade", "bombard", "escort", "carrier"):
        ctx.error(o, f"submarines do not take part in surface missions ({o.mission}); put them in "
                     "their own task force", "tf-mission")
        return False
    return True


def _load(o: m.TaskForceMission, ctx: Ctx, tf: TaskForceInfo) -> m.Order | None:
    origin = ctx.territory(o, o.origin or "")
    if origin is None:
        return None
    if not ctx.world.adjacent(tf.position, origin):
        ctx.error(o, f"{origin} is not next to {tf.position}, where task force {o.name} is",
                  "not-adjacent", o.origin or "")
        return None
    if not ctx.friendly(origin):
        ctx.error(o, f"troops embark only from friendly territory (4.2.1); {origin} is not", "load-hostile",
                  o.origin or "")
        return None
    transports = sum(u.count for u in tf.units if u.kind == "transport")
    stats = ctx.stats("transport")
    per = (stats.capacity if stats and stats.capacity else 2) + min(ctx.tech_level("improved_transports"), 2)
    points = sum(u.count * (1 if u.kind == "infantry" else 2) for u in o.units)
    if tf.loaded_points + points > transports * per:
        ctx.error(o, f"task force {o.name} can carry {transports * per} troop points (infantry 1, other "
                     f"units 2); this load brings it to {tf.loaded_points + points} (Transports)",
                  "tf-capacity")
        return None
    if not ctx.take(o, origin, o.units):
        return None
    tf.loaded_points += points
    for u in o.units:
        tf.loaded[u.kind] += u.count
    return replace(o, origin=origin)


def _bombard(o: m.TaskForceMission, ctx: Ctx, tf: TaskForceInfo) -> m.Order | None:
    target = ctx.territory(o, o.target or "")
    if target is None:
        return None
    if not ctx.world.adjacent(tf.position, target) or ctx.is_sea(target):
        ctx.error(o, f"{target} is not a coast of {tf.position}, where task force {o.name} is",
                  "not-adjacent", o.target or "")
        return None
    invaded = any(isinstance(x, m.NavalInvasion) and ctx.world.resolve(x.dest) == target for x in ctx.orders)
    if not invaded:
        ctx.report(o, WARNING, f"shore bombardment supports a naval invasion; none of your orders "
                               f"invades {target} (4.2.3)", "bombard-no-invasion", o.target or "")
    return replace(o, target=target)


def sub_detection(o: m.SubDetection, ctx: Ctx) -> m.Order | None:
    zone = ctx.territory(o, o.zone)
    if zone is None:
        return None
    if not ctx.is_sea(zone):
        ctx.error(o, f"{zone} is not a sea zone", "detect-land", o.zone)
        return None
    origin = None
    if o.origin is not None:
        origin = ctx.territory(o, o.origin)
        if origin is None:
            return None
        for u in o.units:
            stats = ctx.stats(u.kind)
            fuel = stats.fuel if stats else 0
            cost = ctx.fuel_cost(origin, zone)
            if fuel < 5 or cost is None or 2 * cost > fuel:
                ctx.error(o, f"your {UNIT_ECHO[u.kind]} cannot hunt in {zone} and return to {origin} "
                             f"(fuel {fuel}; 5 needed over the sea)", "out-of-range", o.zone)
                return None
        where = origin
    else:
        if any(u.kind in AIR for u in o.units):
            ctx.error(o, "aircraft fly in FROM a territory: DETECT SUBS IN <zone> WITH 2 ftr FROM <land>",
                      "detect-air")
            return None
        where = zone
    if not ctx.take(o, where, o.units):
        return None
    return replace(o, zone=zone, origin=origin)


def sub_interception(o: m.SubInterception, ctx: Ctx) -> m.Order | None:
    zone = ctx.territory(o, o.zone)
    if zone is None:
        return None
    if not ctx.take(o, zone, (m.UnitCount("submarine", o.count),)):
        return None
    return replace(o, zone=zone)


def invasion(o: m.NavalInvasion, ctx: Ctx) -> m.Order | None:
    zone, dest = ctx.territory(o, o.origin), ctx.territory(o, o.dest)
    if zone is None or dest is None:
        return None
    if not ctx.is_sea(zone) or ctx.is_sea(dest) or not ctx.world.adjacent(zone, dest):
        ctx.error(o, f"troops land from a sea zone onto a land territory next to it; {dest} is not "
                     f"a coast of {zone}", "not-adjacent", o.dest)
        return None
    if any(u.kind == "tank" for u in o.units) and not ctx.friendly(dest):
        ctx.error(o, "tanks may not take part in naval invasions (4.6.1)", "invasion-tanks")
        return None
    carried = _carried(ctx, zone)
    for u in o.units:
        if carried.get(u.kind, 0) < u.count:
            ctx.error(o, f"no task force of yours ends in {zone} carrying {u.count} {UNIT_ECHO[u.kind]}: "
                         "LOAD them first (4.2.1)", "invasion-not-loaded", o.origin)
            return None
    for u in o.units:
        ctx.ledger[("landed:" + zone, u.kind)] += u.count
    war_check(o, ctx, dest)
    return replace(o, origin=zone, dest=dest)


def _carried(ctx: Ctx, zone: str) -> dict[str, int]:
    """Troops aboard task forces that end in `zone`, less those already landed."""
    out: dict[str, int] = {}
    for tf in ctx.task_forces.values():
        if tf.position == zone:
            for kind, n in tf.loaded.items():
                out[kind] = out.get(kind, 0) + n
    return {k: n - ctx.ledger[("landed:" + zone, k)] for k, n in out.items()}
