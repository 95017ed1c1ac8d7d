"""Order types whose home is still to be written: kept, and referred to the moderator.

TEMPORARY: each of these gets a module of its own (legality and cost by the rules) in
the work that follows "One rule, one home"; until then the order is kept without checks
and handed to the moderator at its step.
"""

from __future__ import annotations

from typing import Any

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, refer
from moderator.engine.problems import Problem, flag
from moderator.orders import model as m


class Referred(OrderRule[Any]):
    def __init__(self, order: type[m.Order], section: str) -> None:
        self.order = order  # type: ignore[misc]
        self.section = section  # type: ignore[misc]

    def remarks(self, pos: Position, nation: str, order: Any) -> list[Problem]:
        return [flag("not-automated")]

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Any) -> None:
        refer(ctx, nation, index, order, 0, "not-automated")


RULES = tuple(Referred(cls, section) for cls, section in (
    (m.Influence, "1.2"), (m.CoaxItaly, "1.2"), (m.OfferSurrender, "1.3"), (m.SurrenderVote, "1.3"),
    (m.ClosePassage, "1.4"), (m.SubWarfare, "1.4"), (m.Blockade, "1.4"),
    (m.SpecialOption, "1.5"), (m.GearUp, "1.5"), (m.JoinSide, "1.5"), (m.Peace, "1.5"), (m.Exile, "1.5"),
    (m.Bombing, "4.1.1"), (m.RocketFire, "4.1.1"), (m.Rebase, "4.1.2"),
    (m.TaskForce, "4.2"), (m.TaskForceMission, "4.2"), (m.SubDetection, "4.2"), (m.SubInterception, "4.2"),
    (m.ArtillerySupport, "4.4"), (m.DefendWith, "4.4"), (m.NavalInvasion, "4.6.1"),
))
