"""NOTE text: a free-text note to the moderator. Always kept; it reaches the moderator's
review queue at resolution, with the turn it belongs to (nothing in the rules reads it)."""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, refer
from moderator.engine.problems import Problem, flag
from moderator.orders.model import Note

PHASE = "R"


class NoteRule(OrderRule[Note]):
    order = Note
    section = PHASE

    def remarks(self, pos: Position, nation: str, order: Note) -> list[Problem]:
        return [flag("note")]

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Note) -> None:
        refer(ctx, nation, index, order, 0, "note")


RULE = NoteRule()
