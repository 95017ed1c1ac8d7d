"""Rulesets: everything game-specific, in one object a second game can fill.

A Ruleset holds a game's name and version, its orders grammar, one home per order type
(moderator/engine/orders/), the phase table (an ordered, named table of steps, design.md)
and the opening table (turn 0, e.g. the Initial Deployment), the event schema, where its
templates live, how a scenario becomes the opening position, and its victory check.

Rulesets are registered explicitly (moderator.rulesets.registry()), never as a side
effect of an import; the service stores the ruleset name and version with every game and
every turn record, so `moderator replay` runs an old turn with the rules it was played with.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moderator.engine.events import EventSchema
from moderator.orders.model import Order

if TYPE_CHECKING:
    from moderator.engine.context import TurnContext
    from moderator.engine.orders.base import OrderRule
    from moderator.engine.state import GameState
    from moderator.world.model import World
    from moderator.world.scenario_model import Scenario

StepFn = Callable[["TurnContext"], None]
Served = list[tuple[str, int, Order]]  # (nation, line, order) in the order they are carried out
ServeFn = Callable[["TurnContext", Served], Served]


@dataclass(frozen=True)
class Step:
    """One step of the phase table.

    The step first carries out its orders (every order of `orders`' types, in resolution
    order, each through its home), then does its own work, `run` (income, placement,
    the end of rail moves...). A `deterministic` run rolls no dice and needs no other
    nation's orders, so the order checker runs it too (Phase 8 income before the gifts
    of 8.1, for instance). Where the step's own work resolves its orders together (land
    moves, all at once), `assume` is what the checker takes for granted of it instead
    (the attacks' captures), once all of the step's orders are committed."""

    section: str  # rules section, e.g. "4.1.3"
    name: str  # e.g. "strategic movement"
    run: StepFn | None = None
    orders: tuple[type[Order], ...] = ()
    deterministic: bool = False
    assume: StepFn | None = None  # checker only: the step's best outcome once its orders are committed
    # engine only: the step's orders in another order than nation ids (e.g. nations drawn by
    # lot where they compete); the checker holds one nation's orders, served as written
    serve: ServeFn | None = None

    @property
    def handles(self) -> tuple[type[Order], ...]:
        return self.orders


@dataclass(frozen=True)
class Ruleset:
    name: str  # e.g. "wtea-1914"
    version: int  # raised whenever the same inputs would resolve differently
    title: str
    grammar: Path
    rules: tuple[OrderRule[Any], ...]
    phases: tuple[Step, ...]
    opening: tuple[Step, ...]
    events: EventSchema
    templates: Path
    initial_state: Callable[[Scenario, World, str, bool], GameState]
    victory: Callable[[GameState, World, Scenario], Any] | None = None
    scenarios: tuple[str, ...] = ()
    _by_type: dict[type, OrderRule[Any]] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_type", {})
        for table in (self.phases, self.opening):
            sections = [s.section for s in table]
            if len(set(sections)) != len(sections):
                raise ValueError(f"ruleset {self.name}: duplicate section in {sections}")
        for rule in self.rules:
            if rule.order in self._by_type:
                raise ValueError(f"ruleset {self.name}: two homes for {rule.order.__name__}")
            self._by_type[rule.order] = rule
        for step in (*self.phases, *self.opening):
            for kind in step.orders:
                if self.rule_for_type(kind) is None:
                    raise ValueError(f"ruleset {self.name}: step {step.section} carries out "
                                     f"{kind.__name__}, which has no home")

    @property
    def key(self) -> str:
        return f"{self.name} v{self.version}"

    def rule_for_type(self, kind: type) -> OrderRule[Any] | None:
        for cls in kind.__mro__:  # ATTACK is a kind of MOVE: the MOVE home owns both
            if cls in self._by_type:
                return self._by_type[cls]
        return None

    def rule_for(self, order: Order) -> OrderRule[Any]:
        rule = self.rule_for_type(type(order))
        if rule is None:
            raise KeyError(f"ruleset {self.name} has no home for {type(order).__name__}")
        return rule

    def table(self, turn: int) -> tuple[Step, ...]:
        """The steps of `turn`: the opening table at turn 0 (if any), else the phases."""
        return self.opening if turn == 0 and self.opening else self.phases

    def step_of(self, table: Sequence[Step], order: Order) -> Step | None:
        for step in table:
            if isinstance(order, step.orders):
                return step
        return None


class Registry:
    """Rulesets by name and version."""

    def __init__(self, rulesets: Iterable[Ruleset] = ()) -> None:
        self._sets: dict[tuple[str, int], Ruleset] = {}
        for r in rulesets:
            self.register(r)

    def register(self, ruleset: Ruleset) -> None:
        self._sets[(ruleset.name, ruleset.version)] = ruleset

    def get(self, name: str, version: int | None = None) -> Ruleset:
        versions = sorted(v for n, v in self._sets if n == name)
        if not versions:
            known = ", ".join(self.names()) or "none"
            raise KeyError(f"unknown ruleset {name!r} (known: {known})")
        if version is None:
            return self._sets[(name, versions[-1])]
        if (name, version) not in self._sets:
            have = ", ".join(f"v{v}" for v in versions)
            raise KeyError(f"ruleset {name} v{version} is not installed (this moderator has {have})")
        return self._sets[(name, version)]

    def names(self) -> list[str]:
        return sorted({n for n, _ in self._sets})

    def versions(self, name: str) -> list[int]:
        """The installed versions of ruleset `name`, oldest first (empty if unknown)."""
        return sorted(v for n, v in self._sets if n == name)
