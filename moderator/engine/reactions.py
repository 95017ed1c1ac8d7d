"""The neutrals' response to the main war (Neutrals, the first of the points tables).

"In the table below, there are events regarding main war that can affect neutrals if
some events happen": a side of the main war declaring war on a neutral (rows 1-2), and a
nation joining a side (rows 3-18). Each row gives every still-neutral nation a number of
points drawn from 0 to the row's figure (Neutrals: "0-5 ... means that random number is
drawn between 0 and 5"), toward the side the figure's sign names (diplomacy.toml
[[reaction]]). Then "*If main war side declare war against neutral nation, then events
in rows below also apply": the attacked neutral joins the other camp (engine/wars.py),
and its row of joining follows. The example: "Allied Powers declare war against
Netherland: Netherland automatically joins CP. All neutral nations get points in
following way: Ottomans 0-1 and 0-3 against Allied Powers, Italy 0-1 and 0-5 against AP
... Belgium and Denmark (as neighbouring neutrals) 0-2 and 0-3 against AP, all other
neutrals 0-1 and 0-2 against AP."

Who takes points: the major neutrals with a column of their own (the Ottomans, Italy,
Spain, China, the USA: its points are the US Entry), and the minor neutrals, as
"neighbouring" or "distant" to the nation the row is about. Japan, the neutral British
Empire and its dominions have no column: they take none. Reading of "neighbouring": a
minor whose homeland (its land at the start in the map section of its capital) borders
that nation's homeland or shares a sea zone with it (the example's Denmark is the Netherlands'
neighbour across the North Sea; Norway, on the same sea, is one too).

Phase 1.1: "If the war is not declared, then nation (and the block she is in) suffer
double penalty for US entry": an attack without a declaration doubles the USA's draw.

The second table (a neutral's own war: "All responses are done against aggresive nation
... but their effect is delayed until aggresive nation joins main war"): aggress() draws
the aggressor's "points toward zero" at once and keeps the row in its flags;
answer_aggressions() draws the other neutrals' points when it joins, against the side it
joins, for those "still neutral in that time". "Limited wars are not affected with this
rule" (the General note): China's wars on main-war nations draw nothing; nor does a
neutral's declaration on a camp's member with its 10 points, its entry (answered by its
row of joining). Japan's wars on the camps keep their row.

Rows 15-16, the British Empire entering unprovoked (event "enters-unprovoked", drawn
by engine/british_entry.py when it joins without a cause).

Every draw goes through the running step's dice (Phase 1.1 for a declaration, Phase 1.5
for a JOIN, Phase 4.4 for an attack without one), with the purpose ending in
points.PURPOSE; the points move through engine/points.py (the neutral learns them, never
who caused them). The checker's projection draws nothing.
"""

from __future__ import annotations

from moderator.engine import points
from moderator.engine.context import Position, TurnContext
from moderator.engine.per_map import once_per
from moderator.world.model import SEA, World
from moderator.world.scenario_model import Aggression, Reaction

NEIGHBOURING, DISTANT = "neighbouring", "distant"
SIDE_NAMES = {"allied": "the Allied Powers", "central": "the Central Powers"}


def homeland(pos: Position, nation: str) -> list[str]:
    """The nation's land at the start in the map section of its capital (its colonies and
    overseas lands apart: the Netherlands' is Amsterdam, Brabant and Groningen)."""
    return list(_map_answers(pos.world)[0].get(nation, ()))


def neighbours(pos: Position, nation: str) -> frozenset[str]:
    """Nations whose homeland borders `nation`'s, or shares a sea zone with it."""
    near = _map_answers(pos.world)[1]
    found = near.get(nation)
    if found is None:
        found = near[nation] = _neighbours(pos.world, nation)
    return found


# The map alone decides both answers (the owners at the start, the map's sections and
# links): kept per map, not per position, as every JOIN asks every neutral's column
# (issue 14: each turn's first asking was most of a JOIN's cost). The entry holds the
# map, so its id cannot be reused while the entry lives.
_BY_MAP: dict[int, tuple[World, tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]]] = {}


def _map_answers(world: World) -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
    """(nation -> its homeland, nation -> its neighbours as far as asked) of the map."""
    def build(world: World) -> tuple[dict[str, tuple[str, ...]], dict[str, frozenset[str]]]:
        homes: dict[str, tuple[str, ...]] = {}
        for t in world.lands():
            if t.owner and t.owner not in homes:
                home = world.home_of(t.owner)
                capitals = [world.territories[h].section for h in home if world.territories[h].capital]
                homes[t.owner] = tuple(h for h in home if not capitals or world.territories[h].section == capitals[0])
        return (homes, {})

    return once_per(_BY_MAP, world, build)


def _neighbours(world: World, nation: str) -> frozenset[str]:
    homes = _map_answers(world)[0]
    places = world.territories
    near: set[str] = set()
    for place in homes.get(nation, ()):
        for next_to in world.neighbours(place):
            reach = world.neighbours(next_to) if places[next_to].kind == SEA else (next_to,)
            near.update(o for t in reach if (o := places[t].owner) and t in homes.get(o, ()))
    near.discard(nation)
    return frozenset(near)


def column(pos: Position, row: Reaction | Aggression, neutral: str, subject: str) -> str:
    """The column of `row` that applies to `neutral` ("" when none does)."""
    if neutral in row.points:
        return neutral
    info = pos.scenario.nations.get(neutral)
    if info is None or info.kind != "minor" or pos.nation(neutral).flags.get("active") is False:
        return ""
    return NEIGHBOURING if neutral in neighbours(pos, subject) else DISTANT


def rows(pos: Position, event: str, side: str, nation: str = "") -> list[Reaction]:
    """The rows of the table for an event ("joins": of that nation, or "minor")."""
    if event in ("joins", "enters-unprovoked"):
        info = pos.scenario.nations.get(nation)
        kind = info.kind if info is not None else ""
        wanted = {nation, "minor"} if kind == "minor" else {nation}
        return [r for r in pos.scenario.diplomacy.reactions
                if r.event == event and r.side == side and r.nation in wanted]
    return [r for r in pos.scenario.diplomacy.reactions if r.event == event and r.side == side]


def react(ctx: TurnContext, event: str, side: str, subject: str, phase: str, surprise: bool = False) -> None:
    """Apply the table's rows for `subject` (the attacked neutral, or the nation joining)."""
    if ctx.checking:
        return  # the checker's projection draws no dice; the points never decide an order's legality
    for row in rows(ctx, event, side, subject):
        for neutral in sorted(ctx.state.nations):
            if neutral == subject or ctx.state.nations[neutral].side != "neutral":
                continue
            col = column(ctx, row, neutral, subject)
            most = row.points.get(col, 0)
            if not most or ctx.turn > row.until_turn.get(col, ctx.turn):
                continue
            why = row.title or f"{event} {side}"
            amount = ctx.dice.between(0, abs(most), f"{ctx.nation_name(neutral)}'s points: {why} {points.PURPOSE}")
            if surprise and neutral == "usa" and event == "declares-war":
                amount *= 2  # Phase 1.1: "suffer double penalty for US entry"
            points.move(ctx, neutral, "allied" if most > 0 else "central", amount, code(event), phase)


def code(event: str) -> str:
    """The `why` of the points event (templates/events/points.j2)."""
    return {"declares-war": "war-on-a-neutral", "joins": "a-nation-joined", "enters-unprovoked": "britain-unprovoked"}[event]


# ---- the second table: a neutral's own wars ------------------------------------------------
PENDING = "aggressions"  # NationState.flags: [[row title, target], ...] the neutrals answer at its joining


def aggression_row(pos: Position, nation: str, target: str) -> Aggression | None:
    """The row for `nation`'s war on `target`, or None (no row; a limited war)."""
    if pos.nation(target).side != "neutral" and nation not in pos.scenario.diplomacy.join_without_points:
        # A neutral's war on a camp's member is a limited war (China's: the General note,
        # "Limited wars are not affected with this rule") or, with its 10 points, its entry
        # into the main war (Neutrals; engine/orders/declare_war.py), answered by its row of
        # joining in the first table. Japan's wars on the camps keep their rows (11).
        return None
    info = pos.scenario.nations.get(target)
    kind = "minor" if info is not None and info.kind == "minor" else "major"
    return next((a for a in pos.scenario.diplomacy.aggressions if a.nation == nation and a.target == kind), None)


def aggress(ctx: TurnContext, nation: str, target: str, phase: str) -> None:
    """A neutral went to war: its own points move toward zero now; the other neutrals'
    answer waits for its joining (kept in its flags)."""
    row = aggression_row(ctx, nation, target)
    if ctx.checking or row is None:
        return
    if row.toward_zero and ctx.state.nations[nation].standing:
        amount = ctx.dice.between(0, row.toward_zero, f"{ctx.nation_name(nation)}'s points toward zero: "
                                  f"{row.title} {points.PURPOSE}")
        points.toward_zero(ctx, nation, amount, "own-war", phase)
    flags = ctx.state.nations[nation].flags
    flags[PENDING] = [*flags.get(PENDING, []), [row.title, target]]


def answer_aggressions(ctx: TurnContext, nation: str, side: str, phase: str) -> None:
    """`nation` joined `side`: the still-neutral nations now take the points its earlier
    wars earned ("Only when they enter the main war, these points are added"), against
    that side."""
    pending = ctx.state.nations[nation].flags.pop(PENDING, [])
    away = {"allied": "central", "central": "allied"}[side]
    for title, target in pending:
        row = next((a for a in ctx.scenario.diplomacy.aggressions if a.title == title), None)
        if row is None:
            continue
        for neutral in sorted(ctx.state.nations):
            if neutral in (nation, target) or ctx.state.nations[neutral].side != "neutral":
                continue
            most = row.points.get(column(ctx, row, neutral, target), 0)
            if most:
                amount = ctx.dice.between(0, most, f"{ctx.nation_name(neutral)}'s points: {title} {points.PURPOSE}")
                points.move(ctx, neutral, away, amount, "aggression", phase)
