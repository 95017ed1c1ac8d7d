"""The position an order meets, and the working context of one turn's resolution.

Position is read-only: the state, the map, the scenario, the turn's orders and what the
orders already carried out this turn have committed (units given orders, rail capacity
used, builds waiting for Phase 7). Every order's legality, `problem(pos, nation, order)`
in its home module, looks only at a Position, so the same function serves the order
checker (on a scratch copy of the state, walked phase by phase) and the engine (on the
real turn, at the moment the order's step runs).

TurnContext is a Position that can change: the phase steps change ctx.state, spend and
claim through it, and append typed events. Resolution order (design.md, Determinism):
nations by id, then each nation's orders in the order they were written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import attrgetter, eq, itemgetter, not_
from typing import TYPE_CHECKING, Any, TypeVar

from moderator.engine.dice import Dice
from moderator.engine.events import Event, EventSchema, new_event
from moderator.engine.per_map import once_per
from moderator.engine.problems import Problem
from moderator.engine.state import Control, GameState, NationState, Unit, same_control
from moderator.engine.technology import stats as _unit_stats  # it imports no context at run time
from moderator.orders.model import Order
from moderator.world.model import SEA, Territory, World
from moderator.world.scenario_model import Scenario

if TYPE_CHECKING:
    from moderator.engine.orders.move import Leg
    from moderator.engine.orders.task_forces import TaskForceRecord
    from moderator.engine.ruleset import Step

# Pseudo-nation for events only the moderator sees (flags the moderator may override).
MODERATOR = "moderator"

OrderT = TypeVar("OrderT", bound=Order)

FRIENDLY_LANDS = "friendly-lands"  # Position.memo key prefix: (control, its mark, allies, lands) by nation


@dataclass
class PendingBuild:
    """Units paid for in Phase 3.1, placed in Phase 7 (or lost with their money)."""

    nation: str
    kind: str
    count: int
    place: str
    paid: int
    order: int  # position of the Build order in the nation's orders
    on: str = ""  # radar or sonar: the kind of ship it is mounted on (engine/gear_aboard.py)


@dataclass
class RailGroup:
    """Units on a strategic move (Phase 4.1.3) that arrive in Phase 7 along `path`."""

    nation: str
    unit_ids: tuple[str, ...]
    path: tuple[str, ...]  # origin ... destination
    order: int


# Position.orders_of's answers: the orders read, their lengths, the answer for each kind
# asked, and the orders by class with their place in resolution order.
_OrdersKept = tuple[object, tuple[int, ...], dict[object, list[Any]], dict[type, list[tuple[int, tuple[str, int, Order]]]]]


@dataclass
class Position:
    state: GameState
    orders: Mapping[str, Sequence[Order]]
    world: World
    scenario: Scenario
    checking: bool = field(default=False, kw_only=True)  # True on the order checker's scratch copy (no dice, no other nations)
    builds: list[PendingBuild] = field(default_factory=list, kw_only=True)
    rail: list[RailGroup] = field(default_factory=list, kw_only=True)
    in_transit: set[str] = field(default_factory=set, kw_only=True)  # unit ids on a strategic move
    moved: set[str] = field(default_factory=set, kw_only=True)  # unit ids already given an order this turn
    rail_used: dict[str, int] = field(default_factory=dict, kw_only=True)  # territory -> strategic units through it
    task_forces: dict[tuple[str, str], TaskForceRecord] = field(default_factory=dict, kw_only=True)  # (nation, name) -> formed this turn (4.2)
    legs: list[Leg] = field(default_factory=list, kw_only=True)  # 4.4: land moves committed, resolved together
    done: set[tuple[str, ...]] = field(default_factory=set, kw_only=True)  # per-turn limits already used
    tally: Counter[tuple[str, ...]] = field(default_factory=Counter, kw_only=True)  # per-turn counts (units deployed, ...)
    assumed: dict[str, str] = field(default_factory=dict, kw_only=True)  # checker: what it took for granted, and why
    claimed: Counter[tuple[str, str, str]] = field(default_factory=Counter, kw_only=True)  # (nation, place, kind) ordered
    memo: dict[tuple[str, ...], Any] = field(default_factory=dict, kw_only=True)  # answers valid for the key's inputs
    start: Counter[tuple[str, str, str]] = field(default_factory=Counter, kw_only=True, init=False)
    standing_at_start: dict[str, int] = field(default_factory=dict, kw_only=True, init=False)  # neutrals' points
    opposition_at_start: dict[str, int] = field(default_factory=dict, kw_only=True, init=False)  # China's other bloc

    def __post_init__(self) -> None:
        # The units each nation had where, as the turn began: what its orders may name.
        self.start.update(self.state.counts_by_place())  # a checker's copy of shared units: counted once for all
        # The points each neutral had as the turn began: what JOIN is judged on (points.py).
        self.standing_at_start.update((nid, ns.standing) for nid, ns in self.state.nations.items())
        self.opposition_at_start.update((nid, int(ns.flags["opposition_points"])) for nid, ns in self.state.nations.items()
                                        if ns.flags.get("opposition_points") is not None)  # engine/china_split.py

    @property
    def turn(self) -> int:
        """The turn being resolved (the incoming state's turn)."""
        return self.state.turn

    # ---- nations ------------------------------------------------------------------------
    def nation(self, nid: str) -> NationState:
        return self.state.nations.get(nid) or NationState(nid)

    def nation_name(self, nid: str) -> str:
        n = self.scenario.nations.get(nid)
        return n.name if n else nid

    def at_war(self, a: str, b: str) -> bool:
        # GameState.at_war, read here without its call: asked thousands of times a turn
        na = self.state.nations.get(a)
        return bool(na and b in na.at_war_with)

    def allies(self, a: str, b: str) -> bool:
        return self.state.allies(a, b)

    def saved(self, nid: str) -> int:
        return self.nation(nid).saved

    def held_apart(self, nid: str) -> dict[str, int]:
        """The treasuries of the nation's territories separated from its mainland, by the
        territory keeping each (3.1; engine/treasuries.py); saved() is the mainland's."""
        from moderator.engine import treasuries  # treasuries reads positions

        return treasuries.held(self, nid)

    def tech(self, nid: str, tech: str) -> int:
        return self.nation(nid).tech.get(tech, 0)

    # stats(nid, kind, unit=None): a unit's values with its technology (engine/technology.py):
    # `unit`'s own, or those of a `kind` unit the nation builds now; None if it has no such
    # unit. technology.stats itself, as the method: asked thousands of times a turn, a call
    # less each (issue 14).
    stats = _unit_stats

    # ---- the map ----------------------------------------------------------------------
    def place(self, name: str) -> Territory:
        return self.world.territories[name]

    def is_sea(self, name: str) -> bool:
        return self.world.territories[name].kind == SEA  # Territory.is_sea, one call less (asked thousands of times)

    def adjacent(self, a: str, b: str) -> bool:
        return self.world.adjacent(a, b)

    def controller(self, territory: str) -> str | None:
        return self.state.control.get(territory)  # GameState.controller, one call less (asked thousands of times)

    def friendly(self, nid: str, territory: str) -> bool:
        """Held by the nation or an ally (Cooperation)."""
        holder = self.state.control.get(territory)  # controller() and allies() without their own calls
        return holder is not None and self.state.allies(nid, holder)

    def friendly_lands(self, nid: str) -> list[str]:
        """The lands friendly() to the nation, in the order of world.lands() (by name): the
        holder of every land looked up and tested against the nation's allies (allies_of,
        the same rule) at C speed, where an air unit's landing places asked friendly() of
        each of some 500 lands, thousands of calls a turn (issue 14, the engine's cost).
        The answer is kept in the memo while the map of who holds what is the same (the
        same Control with the same mark: state.same_control) and so are the allies."""
        friends = self.state.allies_of(nid)
        control = self.state.control
        key = (FRIENDLY_LANDS, nid)
        kept = self.memo.get(key)
        if kept is not None and kept[2] == friends and same_control(control, kept[0], kept[1]):
            return list(kept[3])
        names = _land_names(self.world)
        found = list(compress(names, map(friends.__contains__, map(control.get, names))))
        if isinstance(control, Control):  # (a plain dict has no mark to tell a change by)
            self.memo[key] = (control, control.mark, friends, found)
        return list(found)

    def enemy(self, nid: str, territory: str) -> bool:
        """Held by a nation `nid` is at war with."""
        holder = self.state.control.get(territory)  # controller() and at_war() without their calls
        na = self.state.nations.get(nid)
        return holder is not None and bool(na and holder in na.at_war_with)

    def stranger(self, nid: str, territory: str) -> str | None:
        """The holder of land `nid` is neither allied with nor at war with (Phase 1.1), or None."""
        holder = self.controller(territory)
        if holder is None or self.allies(nid, holder) or self.at_war(nid, holder):
            return None
        return holder

    # ---- units ------------------------------------------------------------------------
    def units_at(self, place: str, nid: str | None = None) -> list[Unit]:
        return self.state.units_at(place, nid)

    def count(self, nid: str, place: str, kind: str) -> int:
        return sum(1 for u in self.state.units_at(place, nid) if u.kind == kind)

    def unclaimed(self, nid: str, place: str, kind: str) -> int:
        """Units the nation had at `place` when the turn began that no earlier order of
        its own has named. Orders are judged on this (what the player could know), not on
        what the fighting left: an order short of units after a lost battle still goes,
        with what is there (moves report "units-missing")."""
        return max(0, self.start[(nid, place, kind)] - self.claimed[(nid, place, kind)])

    def free(self, nid: str, place: str, kind: str) -> list[Unit]:
        """The nation's units of `kind` at `place` no order has claimed yet, by id."""
        here = self.state.units_at(place, nid)  # (picked at C speed: compress, not a Python step per unit)
        mine = list(compress(here, map(eq, repeat(kind), map(_KIND, here))))
        return sorted(compress(mine, map(not_, map(self.moved.__contains__, map(_ID, mine)))), key=_ID)

    # ---- this turn's bookkeeping --------------------------------------------------------
    def used(self, key: tuple[str, ...]) -> bool:
        """Has a per-turn limit keyed `key` already been used this turn?"""
        return key in self.done

    def orders_of(self, kind: type[OrderT] | tuple[type[OrderT], ...]) -> Iterator[tuple[str, int, OrderT]]:
        """(nation, position, order) for every order of `kind` (or of any of the kinds), in
        resolution order.

        Asked some 800 times a turn, each time over every order of every nation: the
        answer for each kind is kept while the orders are the same (the same mapping, each
        nation's list as long: the engine never changes a turn's orders once read)."""
        shape = tuple(map(len, self.orders.values()))
        kept: _OrdersKept | None = self.__dict__.get("_orders_by_kind")
        if kept is None or kept[0] is not self.orders or kept[1] != shape:
            # one pass over the orders, grouped by their class (a turn's orders are of some
            # fifteen classes; each kind asked is then answered from the classes it covers)
            by_class: dict[type, list[tuple[int, tuple[str, int, Order]]]] = {}
            rank = 0
            for nid in sorted(self.orders):
                for i, order in enumerate(self.orders[nid]):
                    by_class.setdefault(type(order), []).append((rank, (nid, i, order)))
                    rank += 1
            kept = self.__dict__["_orders_by_kind"] = (self.orders, shape, {}, by_class)
        found = kept[2].get(kind)
        if found is None:
            by_class = kept[3]  # isinstance(order, kind), by class, at C speed (map, compress)
            lists = list(compress(by_class.values(), map(issubclass, by_class, repeat(kind))))
            merged = lists[0] if len(lists) == 1 else sorted(x for group in lists for x in group)  # (ranks differ)
            found = kept[2][kind] = list(map(_SECOND, merged))  # the orders without their ranks, at C speed
        return iter(found)

    def name(self, typed: str) -> str | None:
        """Canonical place name for what an order says (orders normally carry canonical names)."""
        return self.world.resolve(typed)


@dataclass
class TurnContext(Position):
    dice_root: Dice = field(default_factory=lambda: Dice("unset", 0))
    schema: EventSchema | None = None  # events are checked against it when set
    events: list[Event] = field(default_factory=list)
    step: Step | None = None  # the phase step running now (resolve() sets it)

    @property
    def dice(self) -> Dice:
        """The dice stream of the step that is running (design.md: a stream per step)."""
        return self.dice_root.for_step(self.step.section if self.step else "")

    # ---- events -----------------------------------------------------------------------
    def emit(self, code: str, phase: str, seen_by: Sequence[str] = (), **args: Any) -> None:
        if self.schema is not None:
            self.schema.validate(code, args)
        # `args`, gathered from the keywords, is this call's own dict: the event keeps it as is
        self.events.append(new_event(code, phase, tuple(seen_by), args))

    def tell(self, nation: str, code: str, phase: str, **args: Any) -> None:
        """An event only `nation` sees; it carries nation= so reports can name it (first,
        as emit(..., nation=nation, **args) had it), made here without a call of emit()."""
        args = {"nation": nation, **args}
        if self.schema is not None:
            self.schema.validate(code, args)
        self.events.append(new_event(code, phase, (nation,), args))

    def flag(self, phase: str, reason: str, nation: str | None = None, **details: Any) -> None:
        """A decision the rules leave to the moderator: the engine's default, for review."""
        self.emit("moderator-flag", phase, (MODERATOR,), reason=reason, nation=nation, details=dict(details))

    def refuse(self, nation: str, phase: str, index: int, order: Order, reason: str, /, **details: Any) -> None:
        """An order that cannot be carried out: tell its nation why (nothing is dropped silently).
        The details are the rule's own words (a Problem's arguments), whatever their names:
        `nation=` among them is the nation the rule speaks of, not the one refused."""
        self.tell(nation, "order-refused", phase, order=index, text=order.span.text, reason=reason,
                  details=dict(details))

    def reject(self, nation: str, index: int, order: Order, why: Problem) -> None:
        """refuse() with the Problem an order's home found (its code and arguments)."""
        phase = self.step.section if self.step else ""
        self.refuse(nation, phase, index, order, why.code, **_plain(why.args))

    # ---- changes the orders make ----------------------------------------------------------
    def pay(self, nation: str, amount: int) -> None:
        self.state.nations[nation].saved -= amount

    def claim(self, units: Sequence[Unit]) -> None:
        """These units have their order for this turn (each unit does one thing a turn)."""
        self.moved.update(u.id for u in units)

    def use(self, key: tuple[str, ...]) -> None:
        self.done.add(key)


_ID, _KIND = attrgetter("id"), attrgetter("kind")  # of a unit
_SECOND = itemgetter(1)

_LAND_NAMES: dict[int, tuple[World, tuple[str, ...]]] = {}


def _land_names(world: World) -> tuple[str, ...]:
    """The names of world.lands(), kept per map (a map never changes once loaded)."""
    return once_per(_LAND_NAMES, world, lambda world: tuple(t.name for t in world.lands()), 32)


def _plain(args: Mapping[str, Any]) -> dict[str, Any]:
    """Problem arguments as event details: JSON-friendly values only."""
    out: dict[str, Any] = {}
    for k, v in args.items():
        out[k] = list(v) if isinstance(v, (tuple, set, frozenset)) else v
    return out
