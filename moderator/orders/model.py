"""Typed orders: what the parser produces and the validator and engine consume.

Plain dataclasses with no parser imports, so the pure engine can use them. Every order
keeps where it came from (line, column, the text) for diagnostics and the receipt.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    line: int
    column: int
    text: str


NO_SPAN = Span(0, 0, "")


@dataclass(frozen=True)
class Order:
    """Base of every order. `span` says where in the mail it was written."""

    span: Span = field(default=NO_SPAN, kw_only=True, compare=False)


@dataclass(frozen=True)
class UnitCount:
    kind: str  # a unit kind id from moderator.engine.state.UNIT_KINDS
    count: int


@dataclass(frozen=True)
class Move(Order):
    """Phase 4.4: move land/air units from one territory to an adjacent one (attack if enemy)."""

    units: tuple[UnitCount, ...]
    origin: str
    dest: str


@dataclass(frozen=True)
class Build(Order):
    """Phase 3.1 purchase, placed in Phase 7 at `place`."""

    kind: str
    count: int
    place: str


@dataclass
class OrderSet:
    """One nation's orders for one turn, as submitted."""

    game: str
    nation: str
    turn: int
    orders: list[Order] = field(default_factory=list)


@dataclass(frozen=True)
class StrategicMove(Order):
    """Phase 4.1.3: rail move along own/friendly incorporated land, any distance,
    limited by each territory's value; arrives in Phase 7."""

    units: tuple[UnitCount, ...]
    origin: str
    dest: str


@dataclass(frozen=True)
class DeclareWar(Order):
    """Phase 1.1: declare war on a nation (nation id)."""

    target: str
