"""Phase 3.3, passive reconnaissance, rolled: what each nation knows of the enemy this turn.

"By default many units have a chance to detect enemies in the same sea zone or in nearby
land province--passive reconaissance ... Reconaissance value is calculated for all allied
units against enemy provinces/ sea zones ... In the game, the bordering province will show
the exact troop deployment should the passive reconaissance hit or will show a lower number
if it missed." And 3.2.2.4: "Usually the size of the troops is valued by the color of units
(0-5 is black, 6-20 is yellow, and over 21 is red), so one can try to mask the exact number
by giving such false color information."

For every group of allies at war (a nation and the nations of its side; a neutral at war
alone), sorted, and every place next to the group's units that holds enemy units or is
enemy land (a land territory: the group's units in the neighbouring land and, for ships,
sea zones; a sea zone: the group's units in it), the chance is phase3_recon's formula over
those borders, each border under the target's trench or super trench that faces it ("C has
trench against A and not against B, then trenches will reduce effectiveness only for units
in A and not for units in B"; a trench whose facing is not recorded, as one a ruling adds,
covers every border; none faces the sea), and "Trenches (alone, without other units
present)" seeing only where they stand alone. One per-mille roll (phase3_recon.roll_recon) in step 3.3 per target with a
chance: a hit shows the exact enemy units, a miss their colour band. A province masked by
the reconnaissance countermeasure (3.2.2.4, NationState.flags["masked"] of an enemy holding
or standing in it) shows a false colour whatever the roll: the next band (black, yellow,
red, black).

The record is each member's NationState.flags[KNOWN] = {place: {"seen": "exact", "units":
{nation: {kind: n}}} or {"seen": "band", "band": colour}}, this turn's only (places not in
it: nothing known), and an event "recon-report" to the group for each place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import chain, compress, groupby
from operator import attrgetter, itemgetter

from moderator.engine import phase3_recon
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.trenches import facing_of
from moderator.engine.phase3_espionage import MASKED
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, Unit, kinds
from moderator.world.model import SEA

PHASE = "3.3"
KNOWN = "recon"  # NationState.flags: this turn's passive reconnaissance record
BANDS = ((5, "black"), (20, "yellow"), (10**9, "red"))  # 3.2.2.4: 0-5, 6-20, 21 and more
TROOPS = frozenset(LAND_UNITS + AIR_UNITS + SEA_UNITS)  # what is counted and shown (not structures)
_TRENCHES = (phase3_recon.TRENCH, phase3_recon.SUPER_TRENCH)  # what gives cover (cover())
_nation = attrgetter("nation")
_kind = attrgetter("kind")
_location = attrgetter("location")
_first, _second = itemgetter(0), itemgetter(1)


def band(count: int) -> str:
    for top, name in BANDS:  # (a loop, not a generator made for every report: issue 14)
        if count <= top:
            return name
    return BANDS[-1][1]  # (more than the last top: none, it is a billion)


def false_band(true: str) -> str:
    names = [name for _, name in BANDS]
    return names[(names.index(true) + 1) % len(names)]


def groups(ctx: TurnContext) -> list[tuple[str, ...]]:
    """Each nation at war with its allies (GameState.allies_of: the same rule as allies(),
    asked once for all rather than for every pair of nations)."""
    out: set[tuple[str, ...]] = set()
    for n, ns in ctx.state.nations.items():
        if not ns.at_war_with:
            continue
        out.add(tuple(sorted(ctx.state.allies_of(n))))
    return sorted(out)


def enemies_of(ctx: TurnContext, group: tuple[str, ...]) -> set[str]:
    return {e for n in group for e in ctx.state.nations[n].at_war_with if e not in group}


def watchers(units: Sequence[Unit]) -> dict[str, int]:
    """The units that look from one place: trenches only when alone there."""
    troops = list(compress(units, map(TROOPS.__contains__, map(_kind, units))))  # (at C speed)
    if troops:
        return kinds(troops)
    return kinds(u for u in units if u.kind == phase3_recon.TRENCH)


def cover(units: Iterable[Unit], pos: Position | None = None, watcher: str | None = None) -> str:
    """The cover of the units' trenches: against a look from `watcher` (with `pos`), only
    the trenches facing it or facing nowhere recorded; without, any trench."""
    units = [u for u in units if u.kind in _TRENCHES]  # the cover is the trenches' alone
    if units and pos is not None and watcher is not None:
        units = [u for u in units if facing_of(pos, u) in (None, watcher)]
    present = {u.kind for u in units}
    if phase3_recon.SUPER_TRENCH in present:
        return phase3_recon.SUPER_TRENCH
    return phase3_recon.TRENCH if phase3_recon.TRENCH in present else phase3_recon.OPEN


def positions(ctx: TurnContext, group: tuple[str, ...]) -> dict[str, list[Unit]]:
    by_place: dict[str, list[Unit]] = {}
    for u in ctx.state.units:
        if u.nation in group:
            by_place.setdefault(u.location, []).append(u)
    return by_place


def where_nations(at: Mapping[str, Sequence[Unit]]) -> dict[str, list[str]]:
    """Each nation's places (those holding a unit of it, structures included): one pass
    over the map for every group of the step (positions_of, targets), where asking each
    place about each group was a Python step per place and group (issue 14). The pairs
    (nation, place) of every unit are found, sorted and grouped at C speed (chain, map,
    zip, groupby): a Python step per nation only; each nation's places by name."""
    units = list(chain.from_iterable(at.values()))
    pairs = sorted(set(zip(map(_nation, units), map(_location, units), strict=True)))
    return {n: list(map(_second, both)) for n, both in groupby(pairs, key=_first)}


def positions_of(at: Mapping[str, Sequence[Unit]], teams: Sequence[tuple[str, ...]],
                 where: Mapping[str, Sequence[str]] | None = None) -> dict[tuple[str, ...], dict[str, list[Unit]]]:
    """positions() of every group at once, read from every unit by place (`at`, each
    place's in the order of the state's list), at the places of its nations (`where`:
    where_nations(at), found if not given). Only looked up by place (chance, targets):
    the places come nation by nation, not in the map's order."""
    if where is None:
        where = where_nations(at)
    out: dict[tuple[str, ...], dict[str, list[Unit]]] = {group: {} for group in teams}
    for group in teams:
        nations, mine = set(group), out[group]
        for n in group:
            for place in where.get(n, ()):
                if place not in mine:  # the group's units there picked at C speed (map, compress)
                    units = at[place]
                    mine[place] = list(compress(units, map(nations.__contains__, map(_nation, units))))
    return out


def chance(ctx: TurnContext, by_place: dict[str, list[Unit]], place: str, there: list[Unit],
           looks: dict[tuple[str, str], Fraction] | None = None) -> Fraction:
    """The group's passive chance against `place` (its units by place: positions();
    `there`: the enemy's units in the place, structures included, for its cover).
    `looks`: the chances across a border found so far this step, (the group's place,
    the cover facing it) -> chance, kept by the caller (a place borders many targets, most
    with no cover; its units do not change in the step)."""
    table = ctx.scenario.recon
    if ctx.is_sea(place):
        return phase3_recon.border_chance(table, watchers(by_place.get(place, [])), phase3_recon.OPEN,
                                          phase3_recon.SEA)
    if looks is None:
        looks = {}
    # the cover, looked at per border only if any (the trenches picked at C speed)
    trenches = list(compress(there, map(_TRENCHES.__contains__, map(_kind, there))))
    borders = []
    for n in ctx.world.sorted_neighbours(place):
        if n not in by_place:
            continue
        facing = cover(trenches, ctx, n) if trenches else phase3_recon.OPEN
        seen = looks.get((n, facing))
        if seen is None:
            seen = looks[(n, facing)] = phase3_recon.border_chance(table, watchers(by_place[n]), facing,
                                                                   phase3_recon.LAND)
        borders.append(seen)
    return phase3_recon.any_hit(borders)


def targets(ctx: TurnContext, group: tuple[str, ...], enemies: set[str],
            at: Mapping[str, Sequence[Unit]], mine: dict[str, list[Unit]] | None = None,
            where: Mapping[str, Sequence[str]] | None = None) -> list[str]:
    """`at`: every unit by place; `mine`: the group's (positions(), found again if not given);
    `where`: each nation's places (where_nations, found again if not given).
    Each place of the group's units, and the places next to it where it stands on land or
    has ships at sea (read by place, not unit by unit over the map), that is enemy land or
    holds enemy troops."""
    territories, control = ctx.world.territories, ctx.state.control
    near: set[str] = set()
    for place, units in (mine if mine is not None else positions(ctx, group)).items():
        near.add(place)
        if territories[place].kind != SEA or any(u.kind in SEA_UNITS for u in units):
            near.update(ctx.world.neighbours(place))
    if where is None:
        where = where_nations(at)
    # the candidates found with sets at C speed: the enemy's land (who holds what, picked
    # with map and compress) and the places of the enemy's units, met with the places near;
    # only those few are then looked at, where every place near was (issue 14)
    enemy_land = set(compress(control, map(enemies.__contains__, control.values())))
    enemy_units = set().union(*(where.get(e, ()) for e in enemies))
    out = []
    for place in sorted(near & (enemy_land | enemy_units)):
        # enemy land (a land territory held by an enemy), or the enemy's troops there
        if (territories[place].kind != SEA and control.get(place) in enemies) \
                or any(u.nation in enemies and u.kind in TROOPS for u in at.get(place, ())):
            out.append(place)
    return out


def masked(ctx: TurnContext, place: str, enemies: set[str], here: Sequence[Unit]) -> bool:
    holder = ctx.controller(place)
    holders = {u.nation for u in here} | ({holder} if holder else set())
    return any(place in ctx.state.nations[n].flags.get(MASKED, []) for n in sorted(holders & enemies))


def passive_reconnaissance(ctx: TurnContext) -> None:
    if not ctx.scenario.recon:
        return
    for ns in ctx.state.nations.values():
        ns.flags.pop(KNOWN, None)  # last turn's knowledge is stale
    at = ctx.state.by_place()  # every unit by place (the state's index): nothing moves in this step
    teams = groups(ctx)
    where = where_nations(at)
    mine_of = positions_of(at, teams, where)
    for group in teams:
        enemies = enemies_of(ctx, group)
        record: dict[str, dict[str, object]] = {}
        mine = mine_of[group]
        looks: dict[tuple[str, str], Fraction] = {}
        # a countermeasure only an enemy can have taken (masked): most turns none has
        masking = any(ctx.state.nations[n].flags.get(MASKED) for n in enemies)
        for place in targets(ctx, group, enemies, at, mine, where):
            here = at.get(place, ())  # the enemy's units there, and their troops, picked at C speed
            held = list(compress(here, map(enemies.__contains__, map(_nation, here))))  # trenches included: the cover
            there = list(compress(held, map(TROOPS.__contains__, map(_kind, held))))
            c = chance(ctx, mine, place, held, looks)
            # c > 0 and c >= 1 read on the Fraction's terms (its denominator is positive)
            hit = c.numerator > 0 and (c.numerator >= c.denominator or phase3_recon.roll_recon(
                c, ctx.dice, f"passive recon of {place} by {', '.join(group)} (3.3)"))
            colour = band(len(there))
            if masking and masked(ctx, place, enemies, here):
                entry: dict[str, object] = {"seen": "band", "band": false_band(colour)}
            elif hit:
                by_nation: dict[str, dict[str, int]] = {}
                for u in there:
                    by_nation.setdefault(u.nation, {})[u.kind] = by_nation.get(u.nation, {}).get(u.kind, 0) + 1
                entry = {"seen": "exact", "units": {n: dict(sorted(k.items())) for n, k in sorted(by_nation.items())}}
            else:
                entry = {"seen": "band", "band": colour}
            record[place] = entry
            ctx.emit("recon-report", PHASE, group, place=place, seen=str(entry["seen"]),
                     units=entry.get("units", {}), band=str(entry.get("band", "")), percent=phase3_recon.percent(c))
        for n in group:  # each member's own record; the entries, never changed in place, shared
            ctx.state.nations[n].flags[KNOWN] = dict(record)  # (phase3_recon_missions.learn puts new ones)
