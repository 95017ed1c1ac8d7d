"""Checks of Phase 3 orders: builds with their Phase 7 placement, trenches, radar and
sonar, espionage, active reconnaissance and ship repairs."""

from __future__ import annotations

from dataclasses import replace

from moderator.orders import model as m
from moderator.orders.check_politics import once, review
from moderator.orders.context import Ctx
from moderator.orders.diagnostics import WARNING
from moderator.orders.vocab import AIR, ESPIONAGE_FEES, LAND, SEA, TECHNOLOGIES, UNIT_ECHO

NO_CAPITAL_EXTRA = ("russia", "china")  # Phase 7 item 3 exception
FIXED_COSTS = {"trench": 5, "super_trench": 20, "home_trenches": 10, "radar": 18, "sonar": 13}


def build(o: m.Build, ctx: Ctx) -> m.Order | None:
    place = ctx.territory(o, o.place)
    if place is None:
        return None
    stats = ctx.stats(o.kind)
    if stats is None:
        ctx.error(o, f"your nation cannot build {UNIT_ECHO[o.kind]} in this scenario", "cannot-build")
        return None
    if stats.requires_tech and ctx.tech_level(stats.requires_tech) < 1:
        tech = TECHNOLOGIES.get(stats.requires_tech, (stats.requires_tech,))[0]
        ctx.error(o, f"building {UNIT_ECHO[o.kind]} needs the technology {tech} first (Phase 2)",
                  "needs-tech", o.span.text.split()[2] if len(o.span.text.split()) > 2 else "")
        return None
    extra = _placement(o, ctx, place)
    if extra is None:
        return None
    cost = stats.cost * o.count + extra
    if o.kind == "infantry":
        cost += _manpower(o, ctx, stats.cost)
    if not ctx.spend(o, cost, f"{o.count} {UNIT_ECHO[o.kind]}"):
        return None
    return replace(o, place=place)


def _manpower(o: m.Build, ctx: Ctx, unit_cost: int) -> int:
    """Manpower limits: infantry past the limit costs double (and risks mutinies)."""
    limit = ctx.me.manpower_limit
    before = ctx.me.infantry_built + ctx.new_infantry
    ctx.new_infantry += o.count
    if limit <= 0:
        return 0
    over = max(0, before + o.count - max(limit, before))
    if over:
        ctx.report(o, WARNING, f"{over} of these infantry are past your manpower limit of {limit}: "
                               "they cost double and risk mutinies (Manpower limits)", "manpower")
    return over * unit_cost


def _placement(o: m.Build, ctx: Ctx, place: str) -> int | None:
    """Phase 7 placement rules; returns the extra cost, or None if the place is illegal."""
    t = ctx.world.territories[place]
    if o.kind in SEA:
        return _ship_placement(o, ctx, place)
    if t.is_sea:
        ctx.error(o, f"{UNIT_ECHO[o.kind]} cannot be placed in a sea zone", "place-sea", o.place)
        return None
    if ctx.state.controller(place) != ctx.nation:
        ctx.error(o, f"you do not control {place} (Phase 7, item 1)", "place-not-held", o.place)
        return None
    if t.owner != ctx.nation and o.kind not in ("industry", "port"):
        ctx.error(o, f"new units are placed only in territories your nation owned at the start "
                     f"(Phase 7, item 1); {place} is not one", "place-not-original", o.place)
        return None
    if not _colony_allowance(o, ctx, place):
        return None
    if o.kind == "infantry":
        return _infantry_place(o, ctx, place)
    if o.kind in ("industry", "port"):
        if o.kind == "port" and not any(ctx.is_sea(n) for n in ctx.world.neighbours(place)):
            ctx.error(o, f"{place} has no coast for a port", "port-inland", o.place)
            return None
        return 0
    if _has_industry(ctx, place):
        return 0
    if o.kind == "artillery" and t.city:
        ctx.report(o, WARNING, "artillery built in a city without an industrial complex costs 10 "
                               "more each (Phase 7, item 5)", "artillery-city")
        return 10 * o.count
    ctx.error(o, f"{UNIT_ECHO[o.kind]} must be placed where you have an industrial complex "
                 f"(Phase 7, item 4); {place} has none", "place-no-industry", o.place)
    return None


def _has_industry(ctx: Ctx, place: str) -> bool:
    t = ctx.world.territories[place]
    built = any(u.kind == "industry" for u in ctx.state.units_at(place, ctx.nation))
    return (t.industry or built) and ctx.state.controller(place) == ctx.nation


def _infantry_place(o: m.Build, ctx: Ctx, place: str) -> int:
    t = ctx.world.territories[place]
    if t.city:
        return 0
    ctx.infantry_outside_cities[place] += o.count
    if ctx.infantry_outside_cities[place] > t.value:
        ctx.report(o, WARNING, f"at most {t.value} infantry can be placed outside a city in {place} "
                               "(Phase 7, item 3); the moderator will cut the excess", "place-outside-city")
    nation = ctx.scenario.nations.get(ctx.nation)
    exempt = ctx.scenario.extra.get("no_city_infantry_surcharge", {})
    if isinstance(exempt, dict) and exempt.get(ctx.nation):
        return 0
    if ctx.nation in NO_CAPITAL_EXTRA or (nation is not None and nation.capital is None):
        return 0
    ctx.report(o, WARNING, f"{place} has no city: each infantry placed there costs 5 more "
                           "(Phase 7, item 3)", "infantry-no-city")
    return 5 * o.count


def _colony_allowance(o: m.Build, ctx: Ctx, place: str) -> bool:
    t = ctx.world.territories[place]
    if not t.colony:
        return True
    allowance = t.value if t.colony == "major" else (t.value + 1) // 2
    ctx.colony_builds[place] += o.count
    if ctx.colony_builds[place] > allowance:
        ctx.error(o, f"{place} is a {t.colony} colony: at most {allowance} units can be built there "
                     "per turn (Phase 7, item 8)", "colony-allowance", o.place)
        return False
    return True


def own_ports_next_to(ctx: Ctx, sea: str) -> list[str]:
    out = []
    for n in sorted(ctx.world.neighbours(sea)):
        t = ctx.world.territories[n]
        has_port = t.port or any(u.kind == "port" for u in ctx.state.units_at(n, ctx.nation))
        if t.is_land and has_port and ctx.state.controller(n) == ctx.nation:
            out.append(n)
    return out


def _ship_placement(o: m.Order, ctx: Ctx, place: str) -> int | None:
    typed = getattr(o, "place", "")
    if not ctx.is_sea(place):
        seas = [n for n in sorted(ctx.world.neighbours(place)) if ctx.is_sea(n)]
        hint = f": name the sea zone, e.g. {' or '.join(seas)}" if seas else ""
        ctx.error(o, f"ships are placed in a sea zone next to one of your ports (Phase 7, item 6)"
                     f"{hint}", "place-ship-land", typed)
        return None
    if not own_ports_next_to(ctx, place):
        ctx.error(o, f"{place} is not next to a port you hold (Phase 7, item 6)", "place-no-port", typed)
        return None
    return 0


def build_trench(o: m.BuildTrench, ctx: Ctx) -> m.Order | None:
    protect, facing = ctx.territory(o, o.protect), ctx.territory(o, o.facing)
    if protect is None or facing is None:
        return None
    if ctx.state.controller(protect) != ctx.nation or ctx.world.territories[protect].owner != ctx.nation:
        ctx.error(o, "trenches are built only in your own nation's territories (Trenches)",
                  "trench-not-own", o.protect)
        return None
    if ctx.is_sea(facing) or not ctx.world.adjacent(protect, facing):
        ctx.error(o, f"a trench faces a neighbouring land territory; {facing} is not one "
                     "(no trenches along a coast)", "trench-facing", o.facing)
        return None
    infantry = ctx.own_count(protect, "infantry")
    need = 10 if o.super else 1
    if infantry < need:
        ctx.error(o, f"{'a super trench needs 10' if o.super else 'a trench needs at least 1'} of your "
                     f"infantry in {protect} at the start of the turn; you have {infantry}",
                  "trench-infantry", o.protect)
        return None
    if o.super:
        if ctx.tech_level("super_trenches") < 1:
            ctx.error(o, "super trenches need the Super Trenches technology (Phase 2)", "needs-tech")
            return None
        review(ctx, o, "a super trench upgrades an existing trench on that border")
    if not once(ctx, o, ("trench", protect, facing, str(o.super)), "the same trench is ordered twice",
                "trench-twice"):
        return None
    kind = "super_trench" if o.super else "trench"
    if not ctx.spend(o, FIXED_COSTS[kind], "a super trench" if o.super else "a trench"):
        return None
    return replace(o, protect=protect, facing=facing)


def build_home_trenches(o: m.BuildHomeTrenches, ctx: Ctx) -> m.Order | None:
    city = ctx.territory(o, o.city)
    if city is None:
        return None
    t = ctx.world.territories[city]
    if not t.city or t.owner != ctx.nation or ctx.state.controller(city) != ctx.nation:
        ctx.error(o, "home-city trenches are for your own (not conquered) city territories", "home-trench", o.city)
        return None
    if ctx.own_count(city, "infantry") < 5:
        ctx.error(o, f"home-city trenches need 5 of your infantry in {city} at the start of the turn",
                  "trench-infantry", o.city)
        return None
    return replace(o, city=city) if ctx.spend(o, 10, "home-city trenches") else None


def build_ship_gear(o: m.BuildShipGear, ctx: Ctx) -> m.Order | None:
    place = ctx.territory(o, o.place)
    if place is None:
        return None
    if ctx.tech_level(o.kind) < 1:
        ctx.error(o, f"{o.kind} needs the {o.kind.title()} technology first (Phase 2)", "needs-tech")
        return None
    if o.ship is not None:
        if o.kind == "radar" and o.ship not in ("battleship", "carrier"):
            ctx.error(o, "radar goes on battleships or carriers", "radar-ship")
            return None
        if _ship_placement(o, ctx, place) is None:
            return None
        if ctx.own_count(place, o.ship) < 1:
            ctx.error(o, f"you have no {UNIT_ECHO[o.ship]} in {place}", "not-enough-units", o.place)
            return None
    elif ctx.state.controller(place) != ctx.nation:
        ctx.error(o, f"you do not control {place}", "place-not-held", o.place)
        return None
    return replace(o, place=place) if ctx.spend(o, FIXED_COSTS[o.kind], o.kind) else None


def espionage(o: m.Espionage, ctx: Ctx) -> m.Order | None:
    target = ctx.nation_id(o, o.target) if o.target is not None else None
    if o.target is not None and target is None:
        return None
    place = ctx.territory(o, o.place) if o.place is not None else None
    if o.place is not None and place is None:
        return None
    if target is not None and o.kind in ("neutral", "affiliation"):
        n = ctx.scenario.nations.get(target)
        if ctx.nation_state(target).side != "neutral":
            ctx.error(o, f"{ctx.nation_name(target)} is not neutral", "espionage-target", o.target)
            return None
        want = "minor" if o.kind == "neutral" else "major"
        if n is not None and (n.kind == "major") != (want == "major"):
            ctx.error(o, f"{o.kind} espionage targets a {want} neutral; use ESPIONAGE "
                         f"{'AFFILIATION' if want == 'minor' else 'NEUTRAL'} for {ctx.nation_name(target)}",
                      "espionage-target", o.target)
            return None
    if o.kind == "army" and target is not None and not ctx.state.at_war(ctx.nation, target):
        ctx.error(o, "army staff espionage targets an enemy nation (3.2.1.2)", "espionage-target", o.target)
        return None
    if o.kind == "combat" and place is not None and ctx.own_count(place, "infantry") + sum(
            ctx.own_count(place, k) for k in LAND[1:]) == 0:
        ctx.report(o, WARNING, f"combat intelligence needs one of your land units in {place} during the "
                               "combat (3.2.1.4)", "espionage-no-unit", o.place)
    if not once(ctx, o, ("spy", o.kind, target or "", place or "", o.tech or ""),
                "the same espionage is ordered twice", "espionage-twice"):
        return None
    if not ctx.spend(o, ESPIONAGE_FEES[o.kind], f"{o.kind} espionage"):
        return None
    return replace(o, target=target, place=place)


def counter_espionage(o: m.CounterEspionage, ctx: Ctx) -> m.Order | None:
    against = ctx.nation_id(o, o.against) if o.against is not None else None
    if o.against is not None and against is None:
        return None
    place = ctx.territory(o, o.place) if o.place is not None else None
    if o.place is not None and place is None:
        return None
    me = ctx.scenario.nations.get(ctx.nation)
    if o.kind == "affiliation" and (ctx.me.side != "neutral" or (me is not None and me.kind != "major")):
        ctx.error(o, "only major neutrals protect their government's affiliation (3.2.2.1)", "counter-kind")
        return None
    if o.kind == "recon" and place is not None and ctx.state.controller(place) != ctx.nation:
        ctx.error(o, f"you can mask only your own provinces; you do not control {place}", "counter-place", o.place)
        return None
    if not once(ctx, o, ("counter", o.kind, against or "", place or "", o.tech or ""),
                "the same counter-espionage is ordered twice", "espionage-twice"):
        return None
    if not ctx.spend(o, 1, f"{o.kind} counter-espionage"):
        return None
    return replace(o, against=against, place=place)


RECON_SEA = ("cruiser", "submarine") + AIR  # 3.3: active recon at sea


def recon(o: m.Recon, ctx: Ctx) -> m.Order | None:
    origin, target = ctx.territory(o, o.origin), ctx.territory(o, o.target)
    if origin is None or target is None:
        return None
    kinds = {u.kind for u in o.units}
    allowed = RECON_SEA if ctx.is_sea(target) else ("infantry", "tank") + AIR
    bad = sorted(k for k in kinds if k not in allowed)
    if bad:
        ctx.error(o, f"{', '.join(UNIT_ECHO[k] for k in bad)} cannot fly or go on a reconnaissance "
                     f"mission {'at sea' if ctx.is_sea(target) else 'on land'} (3.3)", "recon-units")
        return None
    for k in sorted(kinds):
        if k in AIR:
            stats = ctx.stats(k)
            fuel = stats.fuel if stats else 0
            cost = ctx.fuel_cost(origin, target)
            if cost is None or 2 * cost > fuel:
                ctx.error(o, f"{target} is out of range for your {UNIT_ECHO[k]} from {origin} "
                             f"(fuel {fuel}: there and back)", "out-of-range", o.target)
                return None
        elif not ctx.world.adjacent(origin, target):
            ctx.error(o, f"{target} is not next to {origin}", "not-adjacent", o.target)
            return None
    if not ctx.take(o, origin, o.units):
        return None
    return replace(o, origin=origin, target=target)


REPAIR_COST = {"battleship": 20, "carrier": 25}


def repair(o: m.Repair, ctx: Ctx) -> m.Order | None:
    place = ctx.territory(o, o.place)
    if place is None:
        return None
    damaged = sum(1 for u in ctx.state.units_at(place, ctx.nation) if u.kind == o.kind and u.damage > 0)
    if damaged < o.count:
        ctx.error(o, f"you have {damaged} damaged {UNIT_ECHO[o.kind]} in {place}, not {o.count}",
                  "nothing-to-repair", o.place)
        return None
    ports = [n for n in ctx.world.neighbours(place) if ctx.world.territories[n].port and ctx.friendly(n)]
    if not ports:
        ctx.error(o, f"ships are repaired only in a sea zone with a friendly port (3.4); {place} has none",
                  "repair-no-port", o.place)
        return None
    if not ctx.take(o, place, (m.UnitCount(o.kind, o.count),)):
        return None
    return replace(o, place=place) if ctx.spend(o, REPAIR_COST[o.kind] * o.count, "the repair") else None
