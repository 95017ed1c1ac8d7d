"""The working context of one turn's resolution, shared by every phase step.

resolve() builds one TurnContext around a *copy* of the incoming state; the phase steps
read orders from it, change ctx.state and append events. Things that live only for the
duration of the turn (units bought in Phase 3 and waiting for Phase 7, units travelling
by rail between Phase 4.1.3 and Phase 7) are kept here, not in the GameState.

Order resolution order (design.md, Determinism): nations by id, then each nation's
orders in the order they were written.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.orders.model import Order
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

# Pseudo-nation for events only the moderator sees (flags the moderator may override).
MODERATOR = "moderator"

OrderT = TypeVar("OrderT", bound=Order)


@dataclass
class PendingBuild:
    """Units paid for in Phase 3.1, placed in Phase 7 (or lost with their money)."""

    nation: str
    kind: str
    count: int
    place: str
    paid: int
    order: int  # position of the Build order in the nation's orders


@dataclass
class RailGroup:
    """Units on a strategic move (Phase 4.1.3) that arrive in Phase 7 along `path`."""

    nation: str
    unit_ids: tuple[str, ...]
    path: tuple[str, ...]  # origin ... destination
    order: int


@dataclass
class TurnContext:
    state: GameState
    orders: Mapping[str, Sequence[Order]]
    world: World
    scenario: Scenario
    dice: Dice
    events: list[Event] = field(default_factory=list)
    builds: list[PendingBuild] = field(default_factory=list)
    rail: list[RailGroup] = field(default_factory=list)
    in_transit: set[str] = field(default_factory=set)  # unit ids on a strategic move
    moved: set[str] = field(default_factory=set)  # unit ids that already moved this turn
    rail_used: dict[str, int] = field(default_factory=dict)  # territory -> strategic units through it

    @property
    def turn(self) -> int:
        """The turn being resolved (the incoming state's turn)."""
        return self.state.turn

    def emit(self, code: str, phase: str, seen_by: Sequence[str] = (), **args: Any) -> None:
        self.events.append(Event(code=code, phase=phase, seen_by=tuple(seen_by), args=dict(args)))

    def tell(self, nation: str, code: str, phase: str, **args: Any) -> None:
        """An event only `nation` sees; it carries nation= so reports can name it."""
        self.emit(code, phase, (nation,), nation=nation, **args)

    def flag(self, phase: str, **args: Any) -> None:
        """A decision the rules leave to the moderator: the engine's default, for review."""
        self.emit("moderator-flag", phase, (MODERATOR,), **args)

    def orders_of(self, kind: type[OrderT]) -> Iterator[tuple[str, int, OrderT]]:
        """(nation, position, order) for every order of `kind`, in resolution order."""
        for nation in sorted(self.orders):
            for i, order in enumerate(self.orders[nation]):
                if isinstance(order, kind):
                    yield nation, i, order

    def refuse(self, nation: str, phase: str, index: int, order: Order, reason: str, **args: Any) -> None:
        """An order that cannot be carried out: tell its nation why (nothing is dropped silently)."""
        self.tell(nation, "order-refused", phase, order=index, text=order.span.text, reason=reason, **args)

    def name(self, typed: str) -> str | None:
        """Canonical place name for what an order says (orders normally carry canonical names)."""
        return self.world.resolve(typed)
