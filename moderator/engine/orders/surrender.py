"""OFFER SURRENDER [TO nations], ACCEPT/REFUSE SURRENDER OF nation (Phase 1.3, Surrender).

Phase 1.3: "At this point a nation may offer to surrender. If majority of the opposing
nations agree, then the terms of surrender ... enter into effect ... A nation can
surrender to other nations if not in the main war, or to the side if involved in main
war." Surrender: "if the majority of the opposite side accepts surrender (default) they
cease fighting ... all resource income points are considered to be one vote ... A
nation may surrender only once per game."

Settled by the position: an offer needs someone to surrender to (a nation at war with
the offerer; each one named must be), and a nation whose surrender was accepted once
(flags["surrendered"]) may not offer again, nor while its last offer waits for its
answers. A vote is about a nation the voter fights, or one of the opposing side of the
main war (the side votes as a whole). Reading: one offer per nation per turn, one vote
per offerer.

Free. The engine resolves both (engine/surrender.py): the offer is public news and waits
in the offerer's flags; the next turn's votes are counted in that turn's Phase 1.3 (by
income for the main war) and the terms follow.
"""

from __future__ import annotations

from moderator.engine import surrender
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import once_per_turn
from moderator.engine.orders.records import Referred, opposite, side_word
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import OfferSurrender, SurrenderVote

PHASE = "1.3"


class OfferSurrenderRule(Referred[OfferSurrender]):
    order = OfferSurrender
    section = PHASE

    def problem(self, pos: Position, nation: str, order: OfferSurrender) -> Problem | None:
        me = pos.nation(nation)
        if me.flags.get("surrendered") is not None:
            return problem("surrender-twice", turn=me.flags["surrendered"])
        if not me.at_war_with:
            return problem("surrender-no-war")
        if surrender.pending(pos, nation):  # an offer of an earlier turn, counted this turn
            return problem("surrender-pending", turn=me.flags[surrender.OFFER])
        for target in order.to:
            if not pos.at_war(nation, target):
                return problem("not-at-war", target, target=target)
        return once_per_turn(pos, (nation, "surrender"), "surrender-again")

    def remarks(self, pos: Position, nation: str, order: OfferSurrender) -> list[Problem]:
        side = side_word(pos.nation(nation).side)
        if side and any(pos.nation(t).side == opposite(side) for t in order.to):
            return [warning("surrender-to-side", side=opposite(side))]
        return []

    def record(self, ctx: TurnContext, nation: str, order: OfferSurrender) -> None:
        ctx.use((nation, "surrender"))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: OfferSurrender) -> None:
        self.settle(ctx, nation, index, order)
        surrender.offer(ctx, nation, order.to)


class SurrenderVoteRule(Referred[SurrenderVote]):
    order = SurrenderVote
    section = PHASE

    def problem(self, pos: Position, nation: str, order: SurrenderVote) -> Problem | None:
        target = order.nation
        mine = side_word(pos.nation(nation).side)
        enemy_side = bool(mine) and pos.nation(target).side == opposite(mine)
        if target == nation or not (pos.at_war(nation, target) or enemy_side):
            return problem("vote-not-enemy", order.nation, target=target)
        return once_per_turn(pos, (nation, "vote", target), "vote-twice", order.nation, target=target)

    def record(self, ctx: TurnContext, nation: str, order: SurrenderVote) -> None:
        ctx.use((nation, "vote", order.nation))
        surrender.vote(ctx, nation, order.nation, order.accept)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: SurrenderVote) -> None:
        self.settle(ctx, nation, index, order)


OFFER = OfferSurrenderRule()
VOTE = SurrenderVoteRule()
RULES = (OFFER, VOTE)
