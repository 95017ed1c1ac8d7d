"""BUILD TRENCH / SUPER TRENCH AT a FACING b, BUILD HOME TRENCHES AT city (Phase 3.1; Trenches).

Trenches: "When a player builds a trench unit, he must designate the territory it will
protect and also must designate which territory it will be facing ... Trenchs can be
built only if the unit and the province belong to the same nation. At least one
Infantry unit must be in a territory at the start of any turn that a trench marker is to
be built in that territory ... a trench can not be placed along a coastline to guard
against the sea." "Home city territories can build trenches by lower cost ... at least
5 infantry units in city at the beginning of the turn and must spend 10 resources to
build trenches facing ALL surrounding provinces in the same time. This rule is not
available for conquered cities." Super Trenches: "a nation must have 10 or more infantry
units present in a territory where it already has a normal trench. 20 resources may then
be expended to upgrade the trench to a super trench." Prices: Phase 3.1 (trench 5, super
trench 20), the scenario's units.toml and [trench_city_rule].

Automated: a trench is a structure unit of kind "trench" (or "super_trench") standing in
the territory it protects, built when step 3.1 runs; the territory it faces is kept in
NationState.flags["trench_facing"] (unit id -> territory). Capturing the territory
destroys it (Trenches; engine/conquest.py), which is how "the money intended to be spent
may be lost if the territory ... is lost during the turn" (Phase 3.1) plays out for a
trench. What trenches do: land combat (engine/combat_land.py, engine/phase4_land.py front_of),
rockets (engine/rocket_fire.py) and reconnaissance over the border they face
(engine/phase3_passive_recon.py cover).

Readings: "belong to the same nation" is the nation's own infantry in a territory it
holds (conquered land included: the home-city rule alone says "not available for
conquered cities"); a super trench upgrades a trench that stood when the turn began
("already has"); one trench per nation on each border; home-city trenches face every
land neighbour that has none of the nation's trenches yet.
"""

from __future__ import annotations

from operator import attrgetter

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford
from moderator.engine.problems import Problem, problem
from moderator.engine.state import Unit
from moderator.orders.model import BuildHomeTrenches, BuildTrench

PHASE = "3.1"
TRENCH, SUPER_TRENCH = "trench", "super_trench"
KINDS = (TRENCH, SUPER_TRENCH)
PRICES = {TRENCH: 5, SUPER_TRENCH: 20}  # Phase 3.1 (the scenario's units.toml when it has them)
INFANTRY_NEEDED = {TRENCH: 1, SUPER_TRENCH: 10}  # Trenches; Super Trenches
SUPER_TECH = "super_trenches"
_id_nation_kind = attrgetter("id", "nation", "kind")
_id = attrgetter("id")
FACING = "trench_facing"  # NationState.flags: trench unit id -> the territory it faces


def unit_price(pos: Position, nation: str, kind: str) -> int:
    stats = pos.stats(nation, kind)
    return stats.cost if stats is not None else PRICES[kind]


def home_rule(pos: Position) -> tuple[int, int]:
    """(infantry needed, price) of home-city trenches: the scenario's [trench_city_rule]."""
    rule = pos.scenario.home_trenches
    return rule.infantry_needed, rule.cost


def facing_of(pos: Position, unit: Unit) -> str | None:
    """The territory a trench faces."""
    faced: dict[str, str] = pos.nation(unit.nation).flags.get(FACING, {})
    return faced.get(unit.id)


def trench_on(pos: Position, nation: str, protect: str, facing: str) -> Unit | None:
    """The nation's trench (or super trench) in `protect` facing `facing`, if any."""
    # the trenches there only, by id (the place's other units are not sorted for nothing)
    for u in sorted((u for u in pos.units_at(protect, nation) if u.kind in KINDS), key=_id):
        if facing_of(pos, u) == facing:
            return u
    return None


def infantry_at_start(pos: Position, nation: str, place: str) -> int:
    return pos.start[(nation, place, "infantry")]


def open_borders(pos: Position, nation: str, city: str) -> list[str]:
    """The land neighbours of a home city not yet faced by one of the nation's trenches."""
    return [n for n in sorted(pos.world.neighbours(city))
            if pos.place(n).is_land and trench_on(pos, nation, city, n) is None]


def dig(ctx: TurnContext, nation: str, protect: str, facing: str) -> Unit:
    """A new trench unit in `protect`, facing `facing`."""
    unit = ctx.state.new_unit(nation, TRENCH, protect)
    face(ctx, unit, facing)
    ctx.use(("new-trench", unit.id))
    return unit


def face(ctx: TurnContext, unit: Unit, facing: str) -> None:
    """Record the territory a trench (or super trench) unit faces."""
    nation = unit.nation
    ns = ctx.state.nations[nation]
    # The (id, nation, kind) of the units the record names, found by id (units_with_ids):
    # one dig per trench built would otherwise step through the whole map in Python, or
    # make a triple of every unit on it (issue 14, the engine's cost).
    record = ns.flags.get(FACING, {})
    units = set(map(_id_nation_kind, ctx.state.units_with_ids(record)))
    faced = {uid: place for uid, place in record.items()
             if any((uid, nation, kind) in units for kind in KINDS)}  # captured ones go
    faced[unit.id] = facing
    ns.flags[FACING] = dict(sorted(faced.items()))


class TrenchRule(OrderRule[BuildTrench]):
    order = BuildTrench
    section = PHASE

    def problem(self, pos: Position, nation: str, order: BuildTrench) -> Problem | None:
        kind = SUPER_TRENCH if order.super else TRENCH
        protect, facing = order.protect, order.facing
        if not pos.place(protect).is_land or pos.controller(protect) != nation:
            return problem("trench-not-own", order.protect, place=protect)
        if protect == facing or not pos.place(facing).is_land or not pos.adjacent(protect, facing):
            return problem("trench-facing", order.facing, place=protect, facing=facing)
        if order.super and pos.tech(nation, SUPER_TECH) < 1:
            return problem("needs-tech", kind=SUPER_TRENCH, tech=SUPER_TECH)
        have = infantry_at_start(pos, nation, protect)
        if have < INFANTRY_NEEDED[kind]:
            return problem("trench-infantry", order.protect, place=protect, need=INFANTRY_NEEDED[kind], have=have)
        existing = trench_on(pos, nation, protect, facing)
        if order.super:
            if existing is not None and existing.kind == SUPER_TRENCH:
                return problem("trench-exists", order.facing, kind=SUPER_TRENCH, place=protect, facing=facing)
            if existing is None or pos.used(("new-trench", existing.id)):
                return problem("super-trench-base", order.facing, place=protect, facing=facing)
        elif existing is not None:
            return problem("trench-exists", order.facing, kind=existing.kind, place=protect, facing=facing)
        return afford(pos, nation, unit_price(pos, nation, kind), "a super trench" if order.super else "a trench")

    def commit(self, ctx: TurnContext, nation: str, index: int, order: BuildTrench) -> None:
        kind = SUPER_TRENCH if order.super else TRENCH
        ctx.pay(nation, unit_price(ctx, nation, kind))
        if order.super:
            existing = trench_on(ctx, nation, order.protect, order.facing)
            assert existing is not None
            existing.kind = SUPER_TRENCH
        else:
            dig(ctx, nation, order.protect, order.facing)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: BuildTrench) -> None:
        kind = SUPER_TRENCH if order.super else TRENCH
        cost = unit_price(ctx, nation, kind)
        self.commit(ctx, nation, index, order)
        ctx.tell(nation, "trench-built", PHASE, order=index, kind=kind, place=order.protect, facing=[order.facing],
                 cost=cost)


class HomeTrenchesRule(OrderRule[BuildHomeTrenches]):
    order = BuildHomeTrenches
    section = PHASE

    def problem(self, pos: Position, nation: str, order: BuildHomeTrenches) -> Problem | None:
        city = order.city
        terr = pos.place(city)
        if not terr.is_land or not terr.city or terr.owner != nation or pos.controller(city) != nation:
            return problem("home-trench", order.city, place=city)
        need, cost = home_rule(pos)
        have = infantry_at_start(pos, nation, city)
        if have < need:
            return problem("trench-infantry", order.city, place=city, need=need, have=have)
        if not open_borders(pos, nation, city):
            return problem("home-trenches-exist", order.city, place=city)
        return afford(pos, nation, cost, "home-city trenches")

    def commit(self, ctx: TurnContext, nation: str, index: int, order: BuildHomeTrenches) -> None:
        ctx.pay(nation, home_rule(ctx)[1])
        for facing in open_borders(ctx, nation, order.city):
            dig(ctx, nation, order.city, facing)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: BuildHomeTrenches) -> None:
        borders = open_borders(ctx, nation, order.city)
        self.commit(ctx, nation, index, order)
        ctx.tell(nation, "trench-built", PHASE, order=index, kind=TRENCH, place=order.city, facing=borders,
                 cost=home_rule(ctx)[1])


TRENCH_RULE = TrenchRule()
HOME_TRENCHES = HomeTrenchesRule()
