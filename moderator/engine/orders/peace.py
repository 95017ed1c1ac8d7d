"""PEACE WITH nation (Local War, Limited War, China).

"Local war lasts until one side or another conquer one province (or more in the same
turn) or if the peace is declared." China: "Any minor war with China ends when ... both
nations agree to a cease of hostilities." The main war ends only by surrender (Phase 1.3)
or conquest: allies "cannot change allegiance until the end of war" (Cooperation), so a
nation in the main war proposes peace only in a war with a neutral (Austria-Hungary's
peace with Serbia is its option #1).

Settled by the position: the two nations are at war, and not on opposite sides of the
main war, nor China's two factions in its civil war: "both sides collect full amount of
resources until the end of hostilities and after that the winner takes the charge over
China" (China). Reading: the rules end the civil war only with a winner; the cease of
hostilities China may agree to is that of "any minor war with China", a war with another
nation; a peace leaving two Chinas is the moderator's to rule (PEACE China AND
china_empire: engine/china_split.py decided).
Reading: one proposal per nation and enemy per turn, free. Both agree when each writes
PEACE WITH the other in the same turn: the peace is made after every proposal of
Phase 1.5 (phase1_diplomacy.special_options, engine/wars.py make_peace), public news; a
proposal the other side did not write is told to both.
"""

from __future__ import annotations

from moderator.engine import china_split, wars
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.orders.base import OrderRule, once_per_turn
from moderator.engine.orders.records import opposite, side_word
from moderator.engine.problems import Problem, problem
from moderator.orders.model import Peace

PHASE = "1.5"


PROPOSED = "peace-proposed"  # ctx.done key: (PROPOSED, nation, enemy) for every proposal of the turn


class PeaceRule(OrderRule[Peace]):
    order = Peace
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Peace) -> Problem | None:
        target = order.nation
        if not pos.at_war(nation, target):
            return problem("not-at-war", order.nation, target=target)
        mine = side_word(pos.nation(nation).side)
        if mine and pos.nation(target).side == opposite(mine):
            return problem("peace-main-war", order.nation, target=target)
        if china_split.in_civil_war(pos, nation, target):
            return problem("peace-civil-war", order.nation, target=target)
        return once_per_turn(pos, (nation, "peace", target), "peace-twice", order.nation, target=target)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Peace) -> None:
        ctx.use((nation, "peace", order.nation))
        ctx.use((PROPOSED, nation, order.nation))


def agree(ctx: TurnContext) -> None:
    """The step's work after the proposals: a peace both wrote is made; one is told."""
    proposals = sorted(key[1:] for key in ctx.done if key and key[0] == PROPOSED)
    for a, b in proposals:
        if (b, a) in proposals:
            if a < b and ctx.at_war(a, b):
                wars.make_peace(ctx, a, b, PHASE)
        elif not ctx.checking:
            ctx.emit("peace-offered", PHASE, (a, b, MODERATOR), nation=a, target=b)


RULE = PeaceRule()
