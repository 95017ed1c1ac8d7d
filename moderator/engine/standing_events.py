"""The third points table of the Neutrals section, row 5 (Phase 9).

"Next table represent events that affect neutrals when some nations deliberately forbid
pass through major straits, but some other events are here too. All values are
considered after each turn and taken against nation that took aggresive action."

Row 5, "Main war nation declares unrestricted submarine warfare*": Ottoman 0-1 (0-1),
Italy 0-2 (0-1), Spain 0-1 (0-1), China 0-1 (0-1), USA 0-2 (0-1), distant minor 0-1
(0-1), neighbouring neutral 0-1 (0-1); "*In brackets are values for each consecutive
turns, other value is for first turn event takes effect." (Phase 1.4: "neutrals would not
be happy that their trade fleet is geting sunk, too, so they will have 0-1 point per turn
against the nation that declare it.")
Not yet: rows 1-4 (closed straits and canals: CLOSE is the moderator's, nothing records
a passage closed) and row 6, "More then 5 units of main war nations deployed in adjacent
province" (whether the armies standing there at the start count each turn, or only a
new deployment, is a reading still to make: the opening has several).

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"):
* Row 5 is drawn in Phase 9 of every turn the declaration stands (flags
  "unrestricted_subs"), the first turn's column the turn it is first seen, the brackets'
  after; against the declarer's side, for every nation still neutral ("neighbouring" to
  the declarer, as the first table reads it: engine/reactions.py). The declarer's own
  first turn is kept in its flags (SUBS_SEEN) and forgotten when it retracts.
Every draw ends its purpose with points.PURPOSE and moves the points through points.move.
"""

from __future__ import annotations

from moderator.engine import points, reactions
from moderator.engine.context import TurnContext

SUBS_SEEN = "unrestricted_subs_seen"  # NationState.flags of the declarer: the turn row 5 first applied
FIRST = {"ottoman": 1, "italy": 2, "spain": 1, "china": 1, "usa": 2,
         reactions.DISTANT: 1, reactions.NEIGHBOURING: 1}
LATER = {"ottoman": 1, "italy": 1, "spain": 1, "china": 1, "usa": 1,
         reactions.DISTANT: 1, reactions.NEIGHBOURING: 1}


def column(ctx: TurnContext, neutral: str, subject: str) -> str:
    """The neutral's column: its own name for the majors with one, else neighbouring/distant."""
    if neutral in FIRST and neutral not in (reactions.DISTANT, reactions.NEIGHBOURING):
        return neutral
    info = ctx.scenario.nations.get(neutral)
    if info is None or info.kind != "minor":
        return ""
    return reactions.NEIGHBOURING if neutral in reactions.neighbours(ctx, subject) else reactions.DISTANT


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

