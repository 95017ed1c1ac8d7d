"""The third points table of the Neutrals section (Phase 9).

"Next table represent events that affect neutrals when some nations deliberately forbid
pass through major straits, but some other events are here too. All values are
considered after each turn and taken against nation that took aggresive action."

Row 5, "Main war nation declares unrestricted submarine warfare*": Ottoman 0-1 (0-1),
Italy 0-2 (0-1), Spain 0-1 (0-1), China 0-1 (0-1), USA 0-2 (0-1), distant minor 0-1
(0-1), neighbouring neutral 0-1 (0-1); "*In brackets are values for each consecutive
turns, other value is for first turn event takes effect." (Phase 1.4: "neutrals would not
be happy that their trade fleet is geting sunk, too, so they will have 0-1 point per turn
against the nation that declare it.")
Rows 1-4, a passage closed (Phase 1.4, CLOSE, recorded by engine/orders/declarations.py
and read as engine/passages.py reads it; the rows: diplomacy.toml [[closing]]): "Panama canal is closed" 0 0 0 0-1 0-1 0-1 0-1,
"Gibraltar strait is closed" 0-1 0-2 0-2 0 0-1 0-1 0-1, "Suez Canal is closed" 0-1 0-2
0-1 0-1 n/a 0-1 0-1, "Bosporus-Dardanelle strait is closed" n/a 0-1 0-1 0 0-1 0-1 0-1
(Ottoman, Italy, Spain, China, USA, distant minor, neighbouring neutral). "If nation is
not in main war then effect is delayed until aggresive nation joins main war"; the
example: "Ottoman Empire declares Bosporus-Dardanelle strait closed for any nation. All
neutral nations except China gets 0-1 point against Ottoman Empire while Ottoman Empire
is neutral, or 0-1 point against side the Ottoman Empire is a member."
Row 6, "More then 5 units of main war nations deployed in adjacent province": Ottoman
0-2, Italy 0-2, Spain 0-2, China 0-2, USA 0-2, distant minor n/a, neighbouring neutral 0-2.

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"):
* Row 5 is drawn in Phase 9 of every turn the declaration stands (flags
  "unrestricted_subs"), the first turn's column the turn it is first seen, the brackets'
  after; against the declarer's side, for every nation still neutral ("neighbouring" to
  the declarer, as the first table reads it: engine/reactions.py). The declarer's own
  first turn is kept in its flags (SUBS_SEEN) and forgotten when it retracts.
* Rows 1-4 are drawn in Phase 9 of every turn a closing stands ("All values are
  considered after each turn"): a closing of the passage to every nation or to some, by
  a holder still holding one of its controlling lands (a closing stands while it does,
  engine/passages.py); one draw a turn for each closer, whatever nations it names. The
  closer takes none of its own row. A closer in the main war costs its side the points
  at once; a neutral closer's turns of closing are kept (CLOSINGS_OWED) and drawn when it
  joins a side, against that side, for the nations still neutral then (as the second
  table's delayed answers, engine/reactions.py). "Neighbouring": to the closer.
* Row 6 (massed_on_borders): the event is a deployment, read in Phase 9: a main-war
  nation's land units (not aircraft, not ships) in one land territory that borders a
  still-neutral nation's land (what it holds now, not its own) come to more than 5 where
  they were 5 or fewer as the turn began. The armies standing where the war found them
  (the opening's Cologne, Alsace-Lorraine, Serbia) were deployed by no one in this war; a
  stack that stays counts once, one that leaves and comes back counts again. The neutral
  it borders takes the row (its own column for the majors, "neighbouring neutral" for a
  minor; a distant minor n/a, so no other neutral), once a turn for each nation however
  many of its provinces, against that nation's side.
Every draw ends its purpose with points.PURPOSE and moves the points through points.move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set as AbstractSet
from itertools import compress

from moderator.engine import points, reactions
from moderator.engine.context import TurnContext
from moderator.engine.passages import CLOSED
from moderator.engine.per_map import once_per
from moderator.engine.state import LAND_UNITS
from moderator.world.model import SEA, World

SUBS_SEEN = "unrestricted_subs_seen"  # NationState.flags of the declarer: the turn row 5 first applied
FIRST = {"ottoman": 1, "italy": 2, "spain": 1, "china": 1, "usa": 2,
         reactions.DISTANT: 1, reactions.NEIGHBOURING: 1}
LATER = {"ottoman": 1, "italy": 1, "spain": 1, "china": 1, "usa": 1,
         reactions.DISTANT: 1, reactions.NEIGHBOURING: 1}
MAJORS = frozenset({"ottoman", "italy", "spain", "china", "usa"})  # the majors with a column of their own
MASSED = {"ottoman": 2, "italy": 2, "spain": 2, "china": 2, "usa": 2, reactions.NEIGHBOURING: 2}  # row 6
MASS = 5  # "More then 5 units"
CLOSINGS_OWED = "closings_owed"  # NationState.flags of a neutral closer: [passage, ...], a turn each


def column(ctx: TurnContext, neutral: str, subject: str) -> str:
    """The neutral's column: its own name for the majors with one, else neighbouring/distant."""
    if neutral in MAJORS:
        return neutral
    if not minor_on_board(ctx, neutral):
        return ""  # no column, or not on the board yet (the Bolsheviks)
    return reactions.NEIGHBOURING if neutral in reactions.neighbours(ctx, subject) else reactions.DISTANT


def minor_on_board(ctx: TurnContext, neutral: str) -> bool:
    """A minor nation on the board: one of the two columns, neighbouring or distant, is its."""
    info = ctx.scenario.nations.get(neutral)
    return info is not None and info.kind == "minor" and ctx.nation(neutral).flags.get("active") is not False


def neutrals(ctx: TurnContext) -> list[str]:
    return sorted(n for n, ns in ctx.state.nations.items() if ns.side == "neutral")


def submarine_warfare(ctx: TurnContext, phase: str) -> None:
    """Row 5, for every main-war nation whose declaration stands."""
    for nation in sorted(ctx.state.nations):
        ns = ctx.state.nations[nation]
        if not ns.flags.get("unrestricted_subs") or ns.side not in ("allied", "central"):
            ns.flags.pop(SUBS_SEEN, None)
            continue
        first = ns.flags.get(SUBS_SEEN) is None
        ns.flags.setdefault(SUBS_SEEN, ctx.turn)
        table = FIRST if first else LATER
        away = "central" if ns.side == "allied" else "allied"
        for neutral in neutrals(ctx):
            most = table.get(column(ctx, neutral, nation), 0)
            if most:
                amount = ctx.dice.between(0, most, f"{ctx.nation_name(neutral)}'s points: unrestricted submarine "
                                          f"warfare by {ctx.nation_name(nation)} {points.PURPOSE}")
                points.move(ctx, neutral, away, amount, "unrestricted-submarine-warfare", phase)



# ---- rows 1-4: closed straits and canals ------------------------------------------------------
def rows(ctx: TurnContext) -> dict[str, dict[str, int]]:
    """Rows 1-4 (diplomacy.toml [[closing]]): the passage -> the most points by column."""
    return {c.passage: c.points for c in ctx.scenario.diplomacy.closings}


def standing_closings(ctx: TurnContext) -> list[tuple[str, str]]:
    """(closer, passage) for every closing of a passage with a row that stands this turn."""
    out = []
    table = rows(ctx)
    for nation in sorted(ctx.state.nations):
        for name in sorted(ctx.state.nations[nation].flags.get(CLOSED, {})):
            passage = next((p for p in ctx.world.passages if p.name == name), None)
            if name in table and passage and any(ctx.controller(t) == nation for t in passage.controllers):
                out.append((nation, name))
    return out


def closed_passages(ctx: TurnContext, phase: str) -> None:
    """Rows 1-4: each standing closing costs a main-war closer's side the row's points now;
    a neutral closer's is owed until it joins (answer_closings)."""
    for closer, name in standing_closings(ctx):
        ns = ctx.state.nations[closer]
        if ns.side in ("allied", "central"):
            draw_closing(ctx, closer, name, ns.side, phase)
        elif not ctx.checking:
            ns.flags[CLOSINGS_OWED] = [*ns.flags.get(CLOSINGS_OWED, []), name]


def answer_closings(ctx: TurnContext, nation: str, side: str, phase: str) -> None:
    """engine/wars.py join: the closings `nation` made while neutral, answered against `side`."""
    for name in ctx.state.nations[nation].flags.pop(CLOSINGS_OWED, []):
        draw_closing(ctx, nation, name, side, phase)


def draw_closing(ctx: TurnContext, closer: str, name: str, side: str, phase: str) -> None:
    if ctx.checking:
        return
    away = "central" if side == "allied" else "allied"
    for neutral in neutrals(ctx):
        most = rows(ctx)[name].get(column(ctx, neutral, closer), 0) if neutral != closer else 0
        if most:
            amount = ctx.dice.between(0, most, f"{ctx.nation_name(neutral)}'s points: {name} closed by "
                                      f"{ctx.nation_name(closer)} {points.PURPOSE}")
            points.move(ctx, neutral, away, amount, "passage-closed", phase)


# ---- row 6: troops massed on a neutral's border -----------------------------------------------
def land_force(ctx: TurnContext, nation: str, place: str, at_start: bool) -> int:
    """The nation's land units at `place`, now or as the turn began."""
    if at_start:
        return sum(ctx.start[(nation, place, kind)] for kind in LAND_UNITS)
    return sum(1 for u in ctx.units_at(place, nation) if u.kind in LAND_UNITS)


def massed_against(ctx: TurnContext, border: list[str], massed: dict[str, list[str]] | None = None
                   ) -> list[tuple[str, str]]:
    """(nation, province) for each main-war nation that came to mass more than 5 land units
    this turn in a province of `border` (a neutral's: crowded_borders), the first such
    province of each nation. `massed`: newly_massed() of the provinces asked so far, filled
    here (shared by the neutrals of one step: nothing moves in it)."""
    massed = {} if massed is None else massed
    out: dict[str, str] = {}
    for place in border:
        if (nations := massed.get(place)) is None:
            nations = massed[place] = newly_massed(ctx, place)
        for nation in nations:
            out.setdefault(nation, place)
    return sorted(out.items())


def newly_massed(ctx: TurnContext, place: str) -> list[str]:
    """The main-war nations (sorted) with more than 5 land units at `place` that had 5 or
    fewer there as the turn began. The same whichever neutral the place borders: asked
    once a place for all of them (issue 14: a province between two neutrals was counted
    again for each)."""
    now = Counter(u.nation for u in ctx.units_at(place) if u.kind in LAND_UNITS)  # land_force of each, now
    return [nation for nation, n in sorted(now.items()) if n > MASS
            and ctx.nation(nation).side in ("allied", "central") and land_force(ctx, nation, place, True) <= MASS]


def crowded_borders(ctx: TurnContext, neutrals: AbstractSet[str]) -> dict[str, list[str]]:
    """Neutral -> the land provinces, in name order, beside its land (a neighbour of one of
    its land territories, not its own) where more than MASS units stand: only there can a
    nation have more than MASS land units. Found from those few crowded provinces (the
    land each is a neighbour of: _lands_beside), not from every neutral's land and all of
    its neighbours (issue 14: that was most of the row's cost, every turn)."""
    places, control, beside = ctx.world.territories, ctx.state.control, _lands_beside(ctx.world)
    out: dict[str, list[str]] = {}
    for place in sorted(crowded_places(ctx)):  # nothing moves here (points only)
        if (t := places.get(place)) is None or t.kind == SEA:
            continue
        here = control.get(place)
        for holder in {control.get(t) for t in beside.get(place, ())}:  # each holder's list is its own
            if holder is not None and holder in neutrals and holder != here:
                out.setdefault(holder, []).append(place)
    return out


def crowded_places(ctx: TurnContext) -> set[str]:
    """The places where more than MASS units stand (of any kind and nation): most places
    have fewer. Read from the index of units by place (the steps before have it built),
    picked out by C's loops over its few hundred places, not a count of every unit."""
    by_place = ctx.state.by_place()
    return set(compress(by_place, map(_MASS.__lt__, map(len, by_place.values()))))


_MASS = MASS  # an int's own method (crowded_places): more than MASS
_BESIDE: dict[int, tuple[World, dict[str, frozenset[str]]]] = {}  # id of a map -> (the map, _lands_beside)


def _lands_beside(world: World) -> dict[str, frozenset[str]]:
    """Place -> the map's land territories (no sea zone) it is a neighbour of, as
    World.neighbours has them (one way: a place is beside a territory when it is among
    that territory's neighbours). Once per map, which never changes (the entry holds the
    map, so its id cannot be reused while the entry lives)."""
    def build(world: World) -> dict[str, frozenset[str]]:
        found: dict[str, set[str]] = {}
        for t in world.territories:
            if world.territories[t].kind != SEA:
                for place in world.neighbours(t):
                    found.setdefault(place, set()).add(t)
        return {place: frozenset(ts) for place, ts in found.items()}

    return once_per(_BESIDE, world, build)


def massed_on_borders(ctx: TurnContext, phase: str) -> None:
    """Row 6, for every still-neutral nation with a column."""
    if ctx.checking:
        return
    still = neutrals(ctx)
    borders = crowded_borders(ctx, set(still))
    massed: dict[str, list[str]] = {}  # massed_against: each province's newly_massed, asked once
    for neutral in still:
        if neutral not in borders:
            continue  # no crowded province beside it (most neutrals): its column is not asked
        # its own column for a major; for a minor on the board, "neighbouring neutral"
        # (whether a minor has a column at all: its neighbours, which decide which one, are not asked)
        col = neutral if neutral in MAJORS else reactions.NEIGHBOURING if minor_on_board(ctx, neutral) else ""
        most = MASSED.get(col, 0)
        if not most:
            continue
        for nation, place in massed_against(ctx, borders[neutral], massed):
            away = "central" if ctx.nation(nation).side == "allied" else "allied"
            amount = ctx.dice.between(0, most, f"{ctx.nation_name(neutral)}'s points: {ctx.nation_name(nation)}'s "
                                      f"troops massed in {place} {points.PURPOSE}")
            points.move(ctx, neutral, away, amount, "troops-massed", phase)
