"""Phase 3: Build New Units (3.1); espionage (3.2), reconnaissance (3.3), repairs (3.4).

Phase 3.1: units are paid for now from the nation's saved resources and placed in
Phase 7 (phase7_place). Where they may be placed is checked here, at purchase, so a
player is not charged for a build that could never be placed (Phase 7 rules 1-6, Cities).
Not yet: colonial build allowances (Phase 7 rule 8), trenches and other structures,
sonar/radar, mutiny risk of over-manpower infantry.
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.engine.context import PendingBuild, TurnContext
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS
from moderator.orders.model import Build

PHASE = "3.1"
NON_CITY_INFANTRY_EXTRA = 5  # Cities / Phase 7 rule 3
CITY_ARTILLERY_EXTRA = 10  # Cities / Phase 7 rule 5


@dataclass(frozen=True)
class Placement:
    """Where a build can go and what it costs on top of the unit price, per unit."""

    extra: int = 0
    problem: str = ""  # reason code when it cannot be placed there


def has_industry(ctx: TurnContext, nation: str, place: str) -> bool:
    terr = ctx.world.territories[place]
    built = any(u.kind == "industry" for u in ctx.state.units_at(place, nation))
    return terr.industry or built


def home_land_problem(ctx: TurnContext, nation: str, place: str) -> str:
    """Phase 7 rule 1: originally the nation's, controlled, and incorporated before this turn."""
    terr = ctx.world.territories[place]
    if not terr.is_land:
        return "not-land"
    if terr.owner != nation:
        return "not-original-territory"
    if ctx.state.controller(place) != nation:
        return "not-controlled"
    since = ctx.state.incorporated.get(place)
    if since is None or since >= ctx.turn:
        return "not-incorporated"
    return ""


def land_placement(ctx: TurnContext, nation: str, kind: str, place: str) -> Placement:
    problem = home_land_problem(ctx, nation, place)
    if problem:
        return Placement(problem=problem)
    terr = ctx.world.territories[place]
    if kind == "infantry":
        # Cities: infantry outside a city costs 5 more, except for nations without a
        # designated capital (Phase 7 rule 3 exception: Russia, China, some minors).
        nat = ctx.scenario.nations.get(nation)
        no_capital = nat is not None and nat.capital is None
        return Placement(0 if terr.city or no_capital else NON_CITY_INFANTRY_EXTRA)
    if has_industry(ctx, nation, place):
        return Placement()
    if kind == "artillery" and terr.city:
        return Placement(CITY_ARTILLERY_EXTRA)  # Phase 7 rule 5
    return Placement(problem="needs-industrial-complex")  # Phase 7 rule 4


def sea_placement(ctx: TurnContext, nation: str, place: str) -> Placement:
    """Phase 7 rule 6: ships go into a sea zone next to a port the nation owns."""
    if not ctx.world.territories[place].is_sea:
        return Placement(problem="not-sea-zone")
    if port_beside(ctx, nation, place) is None:
        return Placement(problem="no-own-port-adjacent")
    return Placement()


def port_beside(ctx: TurnContext, nation: str, sea: str) -> str | None:
    for land in sorted(ctx.world.neighbours(sea)):
        terr = ctx.world.territories.get(land)
        if terr and terr.port and terr.owner == nation and ctx.state.controller(land) == nation:
            return land
    return None


def placement(ctx: TurnContext, nation: str, kind: str, place: str) -> Placement:
    if kind in LAND_UNITS or kind in AIR_UNITS:
        return land_placement(ctx, nation, kind, place)
    if kind in SEA_UNITS:
        return sea_placement(ctx, nation, place)
    return Placement(problem="not-implemented")


def pending_infantry(ctx: TurnContext, nation: str) -> int:
    return sum(b.count for b in ctx.builds if b.nation == nation and b.kind == "infantry")


def non_city_infantry(ctx: TurnContext, nation: str, place: str) -> int:
    return sum(b.count for b in ctx.builds if b.nation == nation and b.kind == "infantry" and b.place == place)


def unit_prices(ctx: TurnContext, nation: str, kind: str, count: int, extra: int) -> list[int]:
    """Price of each unit in order. Manpower limits: infantry beyond the limit cost double."""
    base = ctx.scenario.stats(nation, kind).cost
    if kind != "infantry":
        return [base + extra] * count
    ns = ctx.state.nations[nation]
    normal_left = max(0, ns.manpower_limit - ns.infantry_built - pending_infantry(ctx, nation))
    return [(base if i < normal_left else 2 * base) + extra for i in range(count)]


def build_new_units(ctx: TurnContext) -> None:
    """Phase 3.1: pay for the units now; they are placed in Phase 7.

    Default when the treasury runs short (a moderator decision the rules leave open):
    buy as many of the ordered units as can be paid for, in order, and say so.
    """
    for nation, index, order in ctx.orders_of(Build):
        buy(ctx, nation, index, order)


def buy(ctx: TurnContext, nation: str, index: int, order: Build) -> None:
    place = ctx.name(order.place)
    try:
        ctx.scenario.stats(nation, order.kind)
    except KeyError:
        ctx.refuse(nation, PHASE, index, order, "unknown-unit", kind=order.kind)
        return
    if place is None or order.count <= 0:
        ctx.refuse(nation, PHASE, index, order, "bad-order", place=order.place)
        return
    where = placement(ctx, nation, order.kind, place)
    if where.problem:
        ctx.refuse(nation, PHASE, index, order, where.problem, kind=order.kind, place=place)
        return
    count = order.count
    if order.kind == "infantry" and where.extra:
        # Phase 7 rule 3: no more non-city infantry into one territory than its value.
        room = ctx.world.territories[place].value - non_city_infantry(ctx, nation, place)
        count = max(0, min(count, room))
    ns = ctx.state.nations[nation]
    paid, bought = 0, 0
    for price in unit_prices(ctx, nation, order.kind, count, where.extra):
        if paid + price > ns.saved:
            break
        paid, bought = paid + price, bought + 1
    if bought < order.count:
        ctx.tell(nation, "build-cut", PHASE, order=index, kind=order.kind, place=place,
                 ordered=order.count, bought=bought)
    if bought < count:
        ctx.flag(PHASE, reason="build-cut-to-treasury", nation=nation, order=index, bought=bought, ordered=count)
    if bought == 0:
        return
    ns.saved -= paid
    ctx.builds.append(PendingBuild(nation, order.kind, bought, place, paid, index))
    ctx.tell(nation, "built", PHASE, kind=order.kind, count=bought, place=place, cost=paid)


def espionage(ctx: TurnContext) -> None:
    """Phase 3.2 (espionage and counter-espionage): not implemented yet; emits nothing."""


def reconnaissance(ctx: TurnContext) -> None:
    """Phase 3.3 (reconnaissance): not implemented yet; emits nothing."""


def repair_ships(ctx: TurnContext) -> None:
    """Phase 3.4 (repairing damaged ships): not implemented yet; emits nothing."""
