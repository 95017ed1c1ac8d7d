"""What technology does to a unit's values: the one place the engine reads them from.

The Advancements table (Phase 2.1) is data: scenarios/<name>/technologies.toml gives,
per technology, what each level adds to a unit kind's attack, defense, move, fuel,
capacity, hits, bombardment and cost (scenario_model.Technology). `stats()` is the
function every rule asks for a unit's values (Position.stats): the scenario's base
values (units.toml) plus every level the unit has.

Which levels a unit has (Phase 2.1, 2.2):
* a unit the nation would build now: the nation's levels ("every new infantry purchased
  by that nation would receive the improved status and will cost the increased amount"),
  with Improved Industrial Technology's discount on its cost;
* a deployed unit: the levels its kind was last upgraded to (UPGRADE pays "for each unit
  already deployed"), or the nation's starting levels (Initial Deployment: the starting
  units come with the starting technology); a unit built while its kind was behind the
  nation's levels keeps the levels it was built at (recorded by unit id until the kind is
  upgraded: "If the new technology is to be applied to existing units then nation must
  spend ...").

When (Phase 2.2: "units will not be upgraded until phase 7"; Phase 7: "all units finish
upgrading"): a level researched in 2.1 and an UPGRADE paid in 2.2 are kept aside in the
nation's flags (RESEARCHED, UPGRADING) and take effect in step 7.2, after the new units
are placed. So every order of the turn, the checker's and the engine's alike, is priced
with the levels the nation had when the turn began, and the units built this turn come
with those levels. The UPGRADE of the same turn is priced with the new level (level()).

Reading (docs/rules-coverage.md): rules that ask for a kind's values without naming a
unit (how far a flight of fighters may go, a task force's speed) get the values of a unit
the nation would build now; only units built without an upgrade since can be behind.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from moderator.engine.per_map import once_per
from moderator.engine.state import Unit
from moderator.world.scenario_model import TECH_VALUES, Scenario, Technology, UnitStats

if TYPE_CHECKING:
    from moderator.engine.context import Position, TurnContext

PHASE = "7.2"
UPGRADED = "upgraded"  # NationState.flags: unit kind -> {technology: level} its deployed units have
UPGRADING = "upgrading"  # NationState.flags: unit kind -> levels paid for in 2.2, theirs from Phase 7
RESEARCHED = "researched"  # NationState.flags: technology -> level obtained in 2.1, the nation's from Phase 7
BUILT_AT = "built_at"  # NationState.flags: unit id -> levels, for units built behind their kind
FIGHTS_AS = "fights_as"  # NationState.flags: unit id -> the nation whose unit values it keeps (rebels)
MECHANIZATION = "troop_mechanization"  # "the moderator will increase the manpower limit ... by 30%"
MECHANIZATION_PERCENT = 30


# ---- the table ----------------------------------------------------------------------------


_BY_KIND: dict[tuple[int, str], tuple[object, list[Technology]]] = {}  # (id of the table, kind) -> (table, list)


def technologies(scenario: Scenario, kind: str) -> list[Technology]:
    """The scenario's technologies that change `kind` units (sorted by id). Asked for every
    unit's values, so the list is kept per table and kind (the entry holds the table itself,
    so its id cannot be reused while the entry lives)."""
    table = scenario.technologies
    hit = _BY_KIND.get((id(table), kind))
    if hit is not None and hit[0] is table:
        return hit[1]
    found = [t for _, t in sorted(table.items()) if t.applies_to(kind)]
    _BY_KIND[(id(table), kind)] = (table, found)
    return found


def discounted(cost: int, percent: int) -> int:
    """Improved Industrial Technology: "Reduces the cost of every unit by 10% (round up)".
    Reading: the reduction is rounded up (a cost of 8 loses 1 at 10%), so every level
    saves something; integer arithmetic."""
    return cost - (-(-cost * percent // 100))


_VALUES: dict[tuple[int, str, str, tuple[tuple[str, int], ...], int | None], tuple[Scenario, UnitStats | None]] = {}
_VALUES_KEPT = 4096  # answers kept (a game asks a few dozen; the tests make many scenarios)


def values(scenario: Scenario, nation: str, kind: str, levels: Mapping[str, int],
           base_cost: int | None = None) -> UnitStats | None:
    """A `kind` unit of `nation` at these technology levels; None if the nation has no such unit.
    `base_cost`: the price before technology when not the scenario's (base_price).
    Asked for every unit in every battle and table, so answers are kept per scenario (a
    frozen object: the entry holds it, so its id cannot be reused while the entry lives)."""
    key = (id(scenario), nation, kind, tuple(sorted(levels.items())), base_cost)
    hit = _VALUES.get(key)
    if hit is not None and hit[0] is scenario:
        return hit[1]
    if len(_VALUES) >= _VALUES_KEPT:
        _VALUES.clear()
    found = _values(scenario, nation, kind, levels, base_cost)
    _VALUES[key] = (scenario, found)
    return found


def _values(scenario: Scenario, nation: str, kind: str, levels: Mapping[str, int],
            base_cost: int | None = None) -> UnitStats | None:
    try:
        base = scenario.stats(nation, kind)
    except KeyError:
        return None
    if base_cost is not None:
        base = dataclasses.replace(base, cost=base_cost)
    changed: dict[str, int] = {}
    for tech in technologies(scenario, kind):
        level = levels.get(tech.id, 0)
        if level <= 0:
            continue
        for value in ("cost", *TECH_VALUES):
            step = tech.change(value, kind, level)
            if step:
                changed[value] = changed.get(value, getattr(base, value)) + step
    cost = changed.get("cost", base.cost)
    for tech in scenario.technologies.values():  # "not cumulative": the level's own percentage
        level = levels.get(tech.id, 0)
        if tech.discount and level > 0 and kind not in tech.discount_exempt:
            cost = discounted(cost, tech.discount[min(level, len(tech.discount)) - 1])
    if cost != changed.get("cost", base.cost):
        changed["cost"] = cost
    return dataclasses.replace(base, **changed) if changed else base  # type: ignore[arg-type]


# ---- whose levels ----------------------------------------------------------------------------


def start_levels(pos: Position, nation: str) -> dict[str, int]:
    start = pos.scenario.nations.get(nation)
    return dict(start.tech) if start is not None else {}


def fielded(pos: Position, nation: str, kind: str) -> dict[str, int]:
    """The levels the nation's deployed `kind` units have: its last upgrade, or the start."""
    paid = pos.nation(nation).flags.get(UPGRADED, {}).get(kind)
    if paid is not None:
        return {str(t): int(level) for t, level in paid.items()}
    return start_levels(pos, nation)


def of_kind(pos: Position, kind: str, levels: Mapping[str, int]) -> dict[str, int]:
    """Only the levels of technologies that change `kind` units."""
    return {t.id: levels.get(t.id, 0) for t in technologies(pos.scenario, kind)}


def unit_levels(pos: Position, unit: Unit) -> dict[str, int]:
    built = pos.nation(unit.nation).flags.get(BUILT_AT, {}).get(unit.id)
    if built is not None:
        return {str(t): int(level) for t, level in built.items()}
    return fielded(pos, unit.nation, unit.kind)


_StatsKey = tuple[int, str, str, str, object, int | None]
_STATS: dict[_StatsKey, tuple[Scenario, UnitStats | None]] = {}
_STATS_KEPT = 4096  # answers kept (a game asks a few hundred; the tests make many scenarios)
_OWN, _START, _BUILD = "own", "start", "build"  # whose levels a key names (see stats)


def stats(pos: Position, nation: str, kind: str, unit: Unit | None = None) -> UnitStats | None:
    """The values of `unit` (a deployed unit), or of a `kind` unit `nation` builds now.

    Asked some four thousand times a turn (every battle, price and victory table), so the
    answer is kept under what it is made of (_slow_stats reads nothing else): the scenario
    (frozen: the entry holds it, so its id cannot be reused while the entry lives), whose
    values, the kind, the levels (a unit's recorded levels or the nation's as they stand,
    by their content; or the scenario's starting levels of the unit's nation, which never
    change) and the price before technology. A lookup is then one dict access; the
    levels are read as they stand every time, so no answer outlives a change. (Written
    for few steps: the scenario read once, Russia's name a constant, issue 14.)"""
    scenario = pos.scenario
    content: object
    if unit is None:
        ns = pos.state.nations.get(nation)
        if ns is None:
            return _slow_stats(pos, nation, kind, unit)  # no such nation (yet): the long way
        owner, whose, content = nation, _OWN, tuple(ns.tech.items())
    else:
        ns = pos.state.nations.get(unit.nation)
        if ns is None:
            return _slow_stats(pos, nation, kind, unit)
        flags = ns.flags
        kind = unit.kind
        owner = values_of(pos, unit) if FIGHTS_AS in flags else unit.nation
        # unit_levels, then fielded; most nations record neither (asked only when there)
        levels = flags[BUILT_AT].get(unit.id) if BUILT_AT in flags else None
        if levels is None and UPGRADED in flags:
            levels = flags[UPGRADED].get(kind)
        whose, content = (_START, unit.nation) if levels is None else (_BUILD, tuple(levels.items()))
    price = base_price(pos, owner, kind) if owner == _SUPPLIED_NATION else None
    key = (id(scenario), owner, kind, whose, content, price)
    try:
        hit = _STATS.get(key)
    except TypeError:  # levels that are no plain numbers: not kept
        return _slow_stats(pos, nation, kind, unit)
    if hit is not None and hit[0] is scenario:
        return hit[1]
    if len(_STATS) >= _STATS_KEPT:
        _STATS.clear()
    found = _slow_stats(pos, nation, kind, unit)
    _STATS[key] = (scenario, found)
    return found


def _slow_stats(pos: Position, nation: str, kind: str, unit: Unit | None = None) -> UnitStats | None:
    """stats() worked out from the scenario's tables."""
    if unit is not None:
        owner = values_of(pos, unit)
        return values(pos.scenario, owner, unit.kind, unit_levels(pos, unit), base_price(pos, owner, unit.kind))
    return values(pos.scenario, nation, kind, pos.nation(nation).tech, base_price(pos, nation, kind))


def values_of(pos: Position, unit: Unit) -> str:
    """Whose unit values a deployed unit has: its nation's, or, for a unit that changed
    sides keeping them (NationState.flags[FIGHTS_AS]: the Mutineers' rebels "fight with the
    same value as the units belonging to the same country", Phase 9), its old nation's."""
    found = pos.nation(unit.nation).flags.get(FIGHTS_AS, {}).get(unit.id)
    return str(found) if found and found in pos.scenario.nations else unit.nation


SUPPLIED_ARMY = ("russia", 3, "infantry", 6)  # Russian Empire option #3: nation, option, kind, price
_SUPPLIED_NATION = SUPPLIED_ARMY[0]  # stats() asks it of every lookup


def base_price(pos: Position, nation: str, kind: str) -> int | None:
    """A price before technology that is not the scenario's: Russian Empire option #3,
    Properly Supply the Army, "its infantry will cost 6 resources for the remainder of the
    war" from the turn the option is used (Phase 1.5 comes before the builds of 3.1)."""
    who, number, what, price = SUPPLIED_ARMY
    if nation != who or kind != what or nation not in pos.state.nations:
        return None  # before the import below: asked for every unit's price, some 700 times a turn
    from moderator.engine.orders.records import option_used  # the order homes read technology

    return price if option_used(pos, nation, number) is not None else None


def level(pos: Position, nation: str, tech: str) -> int:
    """The nation's level, counting one obtained earlier this turn (2.1) that takes
    effect in Phase 7: what an UPGRADE of the same turn buys (Phase 2.2)."""
    return max(pos.tech(nation, tech), int(pos.nation(nation).flags.get(RESEARCHED, {}).get(tech, 0)))


def knowledge_group(pos: Position, nation: str) -> list[str]:
    """Nations that share technology with `nation` ("as British Empire, India, South Africa,
    Canada and Australia forms Commonwealth, they share knowledge about technology
    advancements"): an empire and the dominions that follow it. France's and Germany's
    colonies are part of those nations here, so they share by being one nation."""
    n = pos.scenario.nations.get(nation)
    root = n.parent if n is not None and n.parent else nation
    members = {root, *_followers(pos.scenario).get(root, ())}
    return sorted(m for m in members if m == nation or m in pos.state.nations)


_FOLLOWERS: dict[int, tuple[Scenario, dict[str, tuple[str, ...]]]] = {}  # id of a scenario -> (it, parent -> followers)


def _followers(scenario: Scenario) -> dict[str, tuple[str, ...]]:
    """Each parent nation's followers (dominions): once per scenario, which never changes
    (the entry holds the scenario, so its id cannot be reused while the entry lives);
    every research asks (issue 14)."""
    def build(scenario: Scenario) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for d in scenario.nations.values():
            if d.parent:
                found.setdefault(d.parent, []).append(d.id)
        return {p: tuple(f) for p, f in found.items()}

    return once_per(_FOLLOWERS, scenario, build)


# ---- Phase 7: the levels take effect ---------------------------------------------------------


def stamp(ctx: TurnContext, unit: Unit) -> None:
    """A unit placed now has the levels it was priced at (the nation's, before this turn's
    research takes effect); record them if its kind's deployed units have others."""
    stamp_all(ctx, [unit])


def stamp_all(ctx: TurnContext, units: Sequence[Unit]) -> None:
    """stamp() each of these units, all of one nation and kind (the units of one build):
    the levels compared once for all of them, not once per unit (Phase 7 places some fifty
    units a turn; issue 14). What stamp() reads, the nation's levels and its kind's fielded
    ones, no stamp changes (it records the levels of units built, BUILT_AT)."""
    if not units:
        return
    nation, kind = units[0].nation, units[0].kind
    mine = of_kind(ctx, kind, ctx.nation(nation).tech)
    if mine == of_kind(ctx, kind, fielded(ctx, nation, kind)):
        return
    built = ctx.state.nations[nation].flags.setdefault(BUILT_AT, {})
    for unit in units:
        built[unit.id] = dict(mine)  # (each unit its own record, as stamp() made them)


def finish_upgrades(ctx: TurnContext) -> None:
    """Step 7.0, before the new units are placed: the upgrades paid in 2.2 become the
    units' (Phase 7: "all units finish upgrading"). Units placed afterwards keep the
    levels they were priced at (stamp)."""
    alive: dict[str, str] | None = None  # unit id -> kind: only on a turn some unit is built behind (issue 14)
    for nid in sorted(ctx.state.nations):
        ns = ctx.state.nations[nid]
        upgrading = ns.flags.pop(UPGRADING, {})
        for kind, levels in sorted(upgrading.items()):
            ns.flags[UPGRADED] = {**ns.flags.get(UPGRADED, {}), kind: dict(levels)}
        built = ns.flags.pop(BUILT_AT, {})
        if not built:
            continue
        if alive is None:
            units = ctx.state.units
            alive = dict(zip(map(_ID, units), map(_KIND, units), strict=True))  # by C's loops: hundreds of units
        kept = {uid: lv for uid, lv in built.items() if uid in alive and alive[uid] not in upgrading}
        if kept:
            ns.flags[BUILT_AT] = kept


_ID, _KIND = attrgetter("id"), attrgetter("kind")


def take_effect(ctx: TurnContext) -> None:
    """Step 7.2, after the new units are placed: the levels researched this turn become
    the nation's (Phase 2.2: "units will not be upgraded until phase 7"), for the units it
    builds from the next turn. Troop Mechanization raises the manpower limit by 30%
    (rounded up): "At the moment that a nation develops troop mechanization, the moderator
    will increase the manpower limit of that nation by 30%"; the colonies' limit of a nation
    that has one (engine/manpower.py) is the nation's too, and rises alike (chosen)."""
    from moderator.engine import manpower  # not at the top: this module stays below the context's imports

    for nid in sorted(ctx.state.nations):
        ns = ctx.state.nations[nid]
        for tech, new in sorted(ns.flags.pop(RESEARCHED, {}).items()):
            if int(new) <= ns.tech.get(tech, 0):
                continue
            ns.tech[tech] = int(new)
            if tech == MECHANIZATION:
                before = ns.manpower_limit
                ns.manpower_limit = before + -(-before * MECHANIZATION_PERCENT // 100)
                ctx.tell(nid, "manpower-raised", PHASE, before=before, after=ns.manpower_limit, why=tech, colonies=None)
                if manpower.COLONIAL in ns.flags:
                    before = manpower.limit(ns, True)
                    ns.flags[manpower.COLONIAL] = before + -(-before * MECHANIZATION_PERCENT // 100)
                    ctx.tell(nid, "manpower-raised", PHASE, before=before, after=manpower.limit(ns, True), why=tech,
                             colonies=True)
