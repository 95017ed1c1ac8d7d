"""PEACE WITH nation (Local War, Limited War, China).

"Local war lasts until one side or another conquer one province (or more in the same
turn) or if the peace is declared." China: "Any minor war with China ends when ... both
nations agree to a cease of hostilities." The main war ends only by surrender (Phase 1.3)
or conquest: allies "cannot change allegiance until the end of war" (Cooperation), so a
nation in the main war proposes peace only in a war with a neutral (Austria-Hungary's
peace with Serbia is its option #1).

Settled by the position: the two nations are at war, and not on opposite sides of the
main war. Reading: one proposal per nation and enemy per turn. Free; whether both sides
agreed is the moderator's to see (the order is referred).
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import once_per_turn
from moderator.engine.orders.records import Referred, opposite, side_word
from moderator.engine.problems import Problem, problem
from moderator.orders.model import Peace

PHASE = "1.5"


class PeaceRule(Referred[Peace]):
    order = Peace
    section = PHASE
    why = "peace-agreed"

    def problem(self, pos: Position, nation: str, order: Peace) -> Problem | None:
        target = order.nation
        if not pos.at_war(nation, target):
            return problem("not-at-war", order.nation, target=target)
        mine = side_word(pos.nation(nation).side)
        if mine and pos.nation(target).side == opposite(mine):
            return problem("peace-main-war", order.nation, target=target)
        return once_per_turn(pos, (nation, "peace", target), "peace-twice", order.nation, target=target)

    def record(self, ctx: TurnContext, nation: str, order: Peace) -> None:
        ctx.use((nation, "peace", order.nation))


RULE = PeaceRule()
