"""Checks of Phase 4 land and air orders: bombing, rebasing, strategic moves, moves and
attacks with their conditions, artillery support, defence by structures, rockets."""

from __future__ import annotations

from dataclasses import replace

from moderator.orders import model as m
from moderator.orders.check_politics import once
from moderator.orders.context import Ctx
from moderator.orders.diagnostics import FLAG, WARNING
from moderator.orders.vocab import AIR, LAND, UNIT_ECHO
from moderator.world.model import fold

MOUNTAINS_INFANTRY_ONLY = ("afghanistan", "tibet")  # Afghanistan, Tibet: infantry only
NO_LANDING = ("switzerland", "afghanistan", "tibet")


def _ends(o: m.Order, ctx: Ctx, a: str, b: str) -> tuple[str, str] | None:
    ra, rb = ctx.territory(o, a), ctx.territory(o, b)
    if ra is None or rb is None:
        return None
    return ra, rb


def _fuel(ctx: Ctx, kind: str) -> int:
    stats = ctx.stats(kind)
    return stats.fuel if stats else 0


def _air_reach(o: m.Order, ctx: Ctx, units: m.Units, origin: str, dest: str, typed: str,
               combat: bool) -> bool:
    """Fighters and Bombers: fuel to get there, one round of combat, and back to a friend."""
    cost = ctx.fuel_cost(origin, dest)
    for u in units:
        if u.kind not in AIR:
            continue
        fuel = _fuel(ctx, u.kind)
        if cost is None or cost > fuel:
            ctx.error(o, f"{dest} is out of range of your {UNIT_ECHO[u.kind]} from {origin} "
                         f"(fuel {fuel}, needed {cost})", "out-of-range", typed)
            return False
        if combat:
            back = min((c for c in (ctx.fuel_cost(dest, f) for f in _friendly_lands(ctx)) if c is not None),
                       default=None)
            if back is None or cost + 1 + back > fuel:
                ctx.error(o, f"your {UNIT_ECHO[u.kind]} could not fight a round at {dest} and still "
                             f"reach a friendly territory (fuel {fuel}; Fighters)", "out-of-range", typed)
                return False
        if ctx.is_sea(dest) and combat and fuel < 5:
            ctx.error(o, "aircraft need 5 fuel points to fight over a sea zone (Fighters)",
                      "out-of-range", typed)
            return False
    return True


def _friendly_lands(ctx: Ctx) -> list[str]:
    return [t.name for t in ctx.world.lands() if ctx.friendly(t.name)
            and fold(t.name) not in NO_LANDING]


def bombing(o: m.Bombing, ctx: Ctx) -> m.Order | None:
    ends = _ends(o, ctx, o.origin, o.target)
    if ends is None:
        return None
    origin, target = ends
    t = ctx.world.territories[target]
    if not ctx.enemy(target):
        ctx.error(o, f"{target} is not held by an enemy", "bomb-not-enemy", o.target)
        return None
    if o.aim in ("industry", "city"):
        if any(u.kind != "bomber" for u in o.units):
            ctx.error(o, "only bombers do industrial bombing (4.1.1)", "bomb-units")
            return None
        if ctx.tech_level("improved_bombers") < 2:
            ctx.error(o, "industrial bombing needs bombers of tech level 2 (Improved Bombers; 4.1.1)",
                      "needs-tech")
            return None
        if o.aim == "industry" and not (t.industry or ctx.state.units_at(target) and any(
                u.kind == "industry" for u in ctx.state.units_at(target))):
            ctx.error(o, f"{target} has no industrial complex to bomb; bomb a CITY for manpower",
                      "bomb-no-target", o.target)
            return None
        if o.aim == "city" and not t.city:
            ctx.error(o, f"{target} has no city to bomb", "bomb-no-target", o.target)
            return None
    else:
        low = [u for u in o.units if _fuel(ctx, u.kind) < 4]
        if low:
            ctx.error(o, "tactical bombing needs aircraft with at least 4 fuel points (4.1.1)", "bomb-units")
            return None
    if not _air_reach(o, ctx, o.units, origin, target, o.target, combat=True):
        return None
    return replace(o, origin=origin, target=target) if ctx.take(o, origin, o.units) else None


def rebase(o: m.Rebase, ctx: Ctx) -> m.Order | None:
    ends = _ends(o, ctx, o.origin, o.dest)
    if ends is None:
        return None
    origin, dest = ends
    for place, typed in ((origin, o.origin), (dest, o.dest)):
        if not ctx.friendly(place):
            ctx.error(o, f"rebasing starts and ends in friendly territory (4.1.2); {place} is not",
                      "rebase-not-friendly", typed)
            return None
    cost = ctx.fuel_cost(origin, dest)
    for u in o.units:
        if cost is None or cost > 2 * _fuel(ctx, u.kind):
            ctx.error(o, f"{dest} is beyond twice the fuel of your {UNIT_ECHO[u.kind]} (4.1.2)",
                      "out-of-range", o.dest)
            return None
    return replace(o, origin=origin, dest=dest) if ctx.take(o, origin, o.units) else None


def strategic_move(o: m.StrategicMove, ctx: Ctx) -> m.Order | None:
    ends = _ends(o, ctx, o.origin, o.dest)
    if ends is None:
        return None
    origin, dest = ends
    for place, typed in ((origin, o.origin), (dest, o.dest)):
        if ctx.is_sea(place) or not ctx.friendly(place):
            ctx.error(o, f"strategic moves run through friendly land; {place} is not (4.1.3)",
                      "smove-not-friendly", typed)
            return None
    if ctx.steps(origin, dest, 999, land_only=True, friendly_only=True) is None and origin != dest:
        ctx.error(o, f"there is no rail path of friendly land from {origin} to {dest} (4.1.3)",
                  "smove-no-path", o.dest)
        return None
    count = sum(u.count for u in o.units)
    for place, typed in ((origin, o.origin), (dest, o.dest)):
        ctx.smove_through[place] += count
        value = ctx.world.territories[place].value
        if ctx.smove_through[place] > value:
            ctx.error(o, f"at most {value} units can move by rail in or out of {place} a turn "
                         "(its resource value; 4.1.3)", "smove-capacity", typed)
            return None
    if not ctx.take(o, origin, o.units):
        return None
    if ctx.steps(origin, dest, 999, friendly_only=True, min_value=count) is None:
        ctx.report(o, WARNING, f"every rail path from {origin} to {dest} passes a territory worth less "
                               f"than {count}: not all units may get through this turn (4.1.3)",
                   "smove-path-capacity", o.dest)
    return replace(o, origin=origin, dest=dest)


def move(o: m.Move, ctx: Ctx) -> m.Order | None:
    ends = _ends(o, ctx, o.origin, o.dest)
    if ends is None:
        return None
    origin, dest = ends
    if ctx.is_sea(dest) or ctx.is_sea(origin):
        if any(u.kind in LAND for u in o.units):
            ctx.error(o, "land units cross the sea only by transport: LOAD them in a task force and "
                         "INVADE or LAND from the sea zone", "move-sea", o.dest)
            return None
    if not _terrain(o, ctx, dest):
        return None
    hostile = ctx.enemy(dest) or _neutral_target(ctx, dest)
    if hostile and any(u.kind in ("aa", "rocket") for u in o.units):
        ctx.error(o, "AA guns and rockets do not attack; rockets FIRE instead (Anti Air Guns, Rockets)",
                  "cannot-attack")
        return None
    for u in o.units:
        if u.kind in AIR:
            continue
        stats = ctx.stats(u.kind)
        reach = max(stats.move if stats else 1, 1)
        if ctx.steps(origin, dest, reach, land_only=True, friendly_only=True) is None:
            what = "next to" if reach == 1 else f"within {reach} moves of"
            ctx.error(o, f"{dest} is not {what} {origin} for {UNIT_ECHO[u.kind]}", "not-adjacent", o.dest)
            return None
    if not _air_reach(o, ctx, o.units, origin, dest, o.dest, combat=hostile):
        return None
    if not ctx.take(o, origin, o.units):
        return None
    war_check(o, ctx, dest)
    if isinstance(o, m.Attack) and not hostile:
        ctx.report(o, WARNING, f"{dest} is not enemy territory: this is a plain move", "attack-friendly", o.dest)
    for u in o.units:
        if u.kind == "rocket":
            ctx.moved_rockets[origin] += u.count
    return replace(o, origin=origin, dest=dest)


def _terrain(o: m.Order, ctx: Ctx, dest: str) -> bool:
    """Switzerland, Afghanistan, Tibet: mountains keep most units out."""
    key = fold(dest)
    t = ctx.world.territories[dest]
    units: m.Units = getattr(o, "units", ())
    if key in MOUNTAINS_INFANTRY_ONLY and any(u.kind != "infantry" for u in units):
        ctx.error(o, f"only infantry can enter {dest} (mountains)", "mountains", dest)
        return False
    if key == "switzerland" or "mountains" in t.features:
        bad = [u for u in units if u.kind == "artillery" or (u.kind in AIR and _fuel(ctx, u.kind) < 5)]
        if bad:
            ctx.error(o, f"artillery and aircraft with less than 5 fuel cannot enter {dest} "
                         "(Switzerland)", "mountains", dest)
            return False
    return True


def _neutral_target(ctx: Ctx, dest: str) -> bool:
    owner = ctx.state.controller(dest)
    return owner is not None and not ctx.state.allies(ctx.nation, owner) and not ctx.state.at_war(ctx.nation, owner)


def war_check(o: m.Order, ctx: Ctx, dest: str) -> None:
    """Phase 1.1: attacking a nation you are not at war with needs a declaration."""
    owner = ctx.state.controller(dest)
    if owner is None or not _neutral_target(ctx, dest):
        return
    if owner in ctx.declared:
        return
    ctx.report(o, FLAG, f"{dest} belongs to {ctx.nation_name(owner)}, with whom you are not at war: "
                        f"add DECLARE WAR ON {ctx.nation_name(owner)} (an undeclared attack doubles "
                        "the US-entry penalty; Phase 1.1)", "undeclared-attack", getattr(o, "dest", ""))


def condition(o: m.CombatCondition, ctx: Ctx) -> m.Order | None:
    dest = ctx.territory(o, o.dest)
    if dest is None:
        return None
    attacks = [x for x in ctx.orders if isinstance(x, (m.Move, m.NavalInvasion))
               and ctx.world.resolve(x.dest) == dest]
    if not attacks:
        ctx.error(o, f"there is no attack on {dest} in your orders for this condition to apply to "
                     "(Conditional orders)", "condition-no-attack", o.dest)
        return None
    if o.kind != "max-defenders" and all(isinstance(x, m.NavalInvasion) for x in attacks):
        ctx.error(o, "beach-landing forces cannot withdraw from a naval invasion (4.6.1)",
                  "invasion-no-retreat", o.dest)
        return None
    if not once(ctx, o, ("cond", dest, o.kind), f"two conditions of the same kind for {dest}; "
                "keep one", "condition-twice"):
        return None
    return replace(o, dest=dest)


def casualties(o: m.CasualtyOrder, ctx: Ctx) -> m.Order | None:
    if o.place is None:
        return o
    place = ctx.territory(o, o.place)
    return replace(o, place=place) if place else None


def support(o: m.ArtillerySupport, ctx: Ctx) -> m.Order | None:
    ends = _ends(o, ctx, o.origin, o.dest)
    if ends is None:
        return None
    origin, dest = ends
    if not ctx.world.adjacent(origin, dest) or ctx.is_sea(dest):
        ctx.error(o, f"artillery supports an adjacent province; {dest} is not next to {origin}",
                  "not-adjacent", o.dest)
        return None
    if not ctx.take(o, origin, (m.UnitCount("artillery", o.count),)):
        return None
    friends = bool(ctx.state.units_at(dest)) and ctx.friendly(dest)
    attacking = any(isinstance(x, m.Move) and ctx.world.resolve(x.dest) == dest for x in ctx.orders)
    if not friends and not attacking:
        ctx.report(o, WARNING, f"no friendly units are in or attacking {dest}: the support would "
                               "do nothing (Artillery)", "support-nothing", o.dest)
    return replace(o, origin=origin, dest=dest)


def defend(o: m.DefendWith, ctx: Ctx) -> m.Order | None:
    place = ctx.territory(o, o.place)
    if place is None:
        return None
    if ctx.state.controller(place) != ctx.nation:
        ctx.error(o, f"you do not control {place}", "defend-not-held", o.place)
        return None
    t = ctx.world.territories[place]
    if o.kind == "aa":
        ctx.report(o, WARNING, "AA guns always fire at attacking aircraft; no order is needed", "aa-automatic")
    elif not (getattr(t, o.kind) or any(u.kind == o.kind for u in ctx.state.units_at(place))):
        ctx.error(o, f"there is no {'industrial complex' if o.kind == 'industry' else 'port'} in {place}",
                  "defend-nothing", o.place)
        return None
    return replace(o, place=place)


def rocket_fire(o: m.RocketFire, ctx: Ctx) -> m.Order | None:
    ends = _ends(o, ctx, o.origin, o.target)
    if ends is None:
        return None
    origin, target = ends
    if ctx.moved_rockets[origin]:
        ctx.report(o, WARNING, "a rocket cannot fire on a turn it moves (Rockets)", "rocket-moved")
    level = ctx.tech_level("rockets")
    reach = 1 + (1 if level >= 3 else 0) + (1 if level >= 4 else 0)
    if ctx.steps(origin, target, reach, land_only=False) is None:
        ctx.error(o, f"{target} is beyond the range ({reach}) of your rockets in {origin}", "out-of-range", o.target)
        return None
    if not ctx.enemy(target):
        ctx.error(o, f"{target} is not held by an enemy", "fire-not-enemy", o.target)
        return None
    t = ctx.world.territories[target]
    if o.aim == "city" and not t.city or o.aim == "industry" and not t.industry:
        ctx.error(o, f"{target} has no {'city' if o.aim == 'city' else 'industrial complex'}", "fire-no-target", o.target)
        return None
    if not ctx.take(o, origin, (m.UnitCount("rocket", o.count),)):
        return None
    return replace(o, origin=origin, target=target)
