"""OrderRule: the contract every order type's home fulfils (see the package docstring).

A home subclasses OrderRule for its order class and overrides what its rule needs.
Defaults: no problem, no remarks, nothing committed, and execute() = commit().

Shared helpers for the homes live here too: the budget check every paid order makes,
the per-turn limits ("only one attempt per turn"), and referral to the moderator for
orders the rules leave to judgement (or that are not automated yet): charged their
cost at once, so every report shows the right treasury.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.problems import Problem, problem
from moderator.engine.state import Unit
from moderator.orders.model import AirRetreat, CombatCondition, Order, UnitCount

OrderT = TypeVar("OrderT", bound=Order)


class OrderRule(Generic[OrderT]):
    """The home of one order type. Subclasses set `order` and `section`."""

    order: ClassVar[type[Order]]  # the order class this home owns (subclasses of it too)
    section: ClassVar[str]  # rules section of the phase step that carries it out, e.g. "3.1"

    def problem(self, pos: Position, nation: str, order: OrderT) -> Problem | None:
        """Why the rules refuse this order at this position, or None. Read-only."""
        return None

    def remarks(self, pos: Position, nation: str, order: OrderT) -> list[Problem]:
        """Warnings and moderator flags for an order the rules allow. Read-only."""
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: OrderT) -> None:
        """What the order spends and claims, so later orders meet the position it leaves.

        Deterministic and free of other nations' orders: the checker runs it too."""

    def execute(self, ctx: TurnContext, nation: str, index: int, order: OrderT) -> None:
        """The order's whole effect in the engine (problem() has already passed)."""
        self.commit(ctx, nation, index, order)

    def assume(self, ctx: TurnContext, nation: str, index: int, order: OrderT) -> None:
        """Checker only: the outcome it takes for granted where the engine rolls dice or
        meets other nations' orders (a capture, a research success), recorded in
        ctx.assumed so later orders that depend on it are kept with a note."""


# ---- shared helpers ----------------------------------------------------------------------


def afford(pos: Position, nation: str, cost: int, what: str) -> Problem | None:
    """Phase 3.1: "making sure they have not spent more than the total number of resources
    they had saved". Orders are paid when their step runs, so what is left is the treasury
    at that moment of the turn (after earlier orders, and after Phase 8 income for gifts)."""
    saved = pos.saved(nation)
    if cost > saved:
        return problem("over-budget", what=what, cost=cost, left=max(saved, 0))
    return None


def once_per_turn(pos: Position, key: tuple[str, ...], code: str, at: str = "", **args: Any) -> Problem | None:
    """Per-turn limits ("only one attempt can be made on a particular nation each turn").
    The order's commit() must then call ctx.use(key)."""
    return problem(code, at, **args) if pos.used(key) else None


def missing_units(pos: Position, nation: str, place: str, units: Sequence[UnitCount]) -> Problem | None:
    """Each unit does one thing a turn: the units named must have been there when the turn
    began, and not be named by an earlier order of the nation."""
    for uc in units:
        free = pos.unclaimed(nation, place, uc.kind)
        if free < uc.count:
            busy = pos.start[(nation, place, uc.kind)] - free
            return problem("not-enough-units", place, kind=uc.kind, place=place, have=free, busy=busy,
                           wanted=uc.count)
    return None


def take_units(ctx: TurnContext, nation: str, place: str, units: Sequence[UnitCount],
               index: int | None = None) -> list[Unit]:
    """Claim the named units (lowest ids first): they have their order for this turn.

    Fewer may be there than the order names (the rest fell in an earlier battle of the
    turn): those present go, and with `index` the nation is told what was missing."""
    taken: list[Unit] = []
    for uc in units:
        ctx.claimed[(nation, place, uc.kind)] += uc.count
        here = ctx.free(nation, place, uc.kind)[: uc.count]
        taken.extend(here)
        if len(here) < uc.count and index is not None and not ctx.checking:
            phase = ctx.step.section if ctx.step else ""
            ctx.tell(nation, "units-missing", phase, order=index, kind=uc.kind, place=place, ordered=uc.count,
                     present=len(here))
    ctx.claim(taken)
    return taken


def refer(ctx: TurnContext, nation: str, index: int, order: Order, cost: int, why: str) -> None:
    """Hand an order to the moderator: charge its cost now, then put it in the review queue.

    The moderator's decision comes back as a ruling (moderator orders), so nothing the
    moderator decides has to be typed into the database by hand."""
    if cost:
        ctx.pay(nation, cost)
    if ctx.checking:
        return
    phase = ctx.step.section if ctx.step else ""
    ctx.emit("order-referred", phase, (nation, MODERATOR), nation=nation, order=index,
             text=order.span.text, type=type(order).__name__, cost=cost, why=why)


def written_by_class(pos: Position, nation: str) -> dict[type[Order], list[Order]]:
    """The nation's orders by their class, each class's in the order written. Kept in the
    position's memo while its orders are the same (the same list, as long: the engine
    never changes a turn's orders once read, as Position.orders_of relies on too): a home
    that looks for the nation's other orders of a kind reads those, not every line of the
    mail again for each of its orders (issue 14, the engine's cost)."""
    written = pos.orders.get(nation, [])
    key = ("written-by-class", nation)
    kept = pos.memo.get(key)
    if kept is None or kept[0] is not written or kept[1] != len(written):
        by_class: dict[type[Order], list[Order]] = {}
        for o in written:
            by_class.setdefault(type(o), []).append(o)
        kept = pos.memo[key] = (written, len(written), by_class)
    return kept[2]


def said_twice(pos: Position, nation: str, order: CombatCondition | AirRetreat, place: str) -> Problem | None:
    """One condition of a kind per place: the second line saying the same is refused, so a
    player is never left guessing which of two values counts (the battle conditions of 4.3
    and 4.6, the air combat choices of 4.5)."""
    alike: Sequence[Any] = written_by_class(pos, nation).get(type(order), ())  # (of the order's own class)
    same = [o for o in alike if o.kind == order.kind and (o.dest if isinstance(o, CombatCondition) else o.place) == place]
    if same and same[0] is not order:
        return problem("condition-twice", place, place=place)
    return None
