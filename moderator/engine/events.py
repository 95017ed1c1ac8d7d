"""Typed results of resolution. Words are the templates' job; the engine only says what happened.

Every event code is declared once in an EventSchema with the names and types of its
arguments (design.md: "Events are typed (declared arguments), one template each"). The
engine's emit() checks every event against the schema, so an event a template cannot
read is a bug caught where it is made, not a report that fails to render later.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from itertools import repeat
from typing import Any


@dataclass(frozen=True, init=False)
class Event:
    """One thing that happened during resolution.

    code: a stable identifier such as "battle", "moved", "income"; templates key on it.
    phase: the rules phase that produced it ("4.4", "8", ...).
    seen_by: nation ids that may learn of it; an empty tuple means public news.
    args: structured details, as the event's EventSpec declares them.
    """

    code: str
    phase: str
    seen_by: tuple[str, ...] = ()
    args: dict[str, Any] = field(default_factory=dict)

    def __init__(self, code: str, phase: str, seen_by: tuple[str, ...] = (), args: dict[str, Any] | None = None) -> None:
        # The generated __init__ of a frozen dataclass sets each field through
        # object.__setattr__; one update of the instance's dict does the same at half the
        # cost (a turn makes some 280 events: issue 14, the engine's cost). Still frozen.
        self.__dict__.update(code=code, phase=phase, seen_by=seen_by, args={} if args is None else args)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def visible_to(self, nation: str) -> bool:
        return not self.seen_by or nation in self.seen_by


_new = object.__new__
_set = object.__setattr__


def new_event(code: str, phase: str, seen_by: tuple[str, ...], args: dict[str, Any]) -> Event:
    """Event(code, phase, seen_by, args), its fields given at once without the call of
    __init__: the engine's emit() makes some 280 a turn (issue 14, the engine's cost).
    The same event, as frozen: its dict is set here and nowhere else."""
    event = _new(Event)
    _set(event, "__dict__", {"code": code, "phase": phase, "seen_by": seen_by, "args": args})
    return event

# ---- argument types --------------------------------------------------------------------


@dataclass(frozen=True)
class ArgType:
    """What one event argument holds: a check for the engine, samples for the tests."""

    name: str
    check: Callable[[Any], bool]
    samples: tuple[Any, ...]  # values the template tests render with (first one: typical)
    # The check looks at the value's type alone (isinstance), so it holds for every value of
    # a type it held for once: EventSchema.validate then checks such arguments once per
    # shape of event. False (the safe default) for checks that look inside the value.
    by_type: bool = False

    def __str__(self) -> str:
        return self.name


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _are_str(values: Any) -> bool:
    return all(map(isinstance, values, repeat(str)))  # (isinstance at C speed, no call of _is_str each)


def _is_units(v: Any) -> bool:
    # {kind: n}: every key text, every count a whole number (not a bool), tested at C speed
    if not isinstance(v, dict) or not _are_str(v):
        return False
    counts = v.values()
    return all(map(isinstance, counts, repeat(int))) and not any(map(isinstance, counts, repeat(bool)))


NATION = ArgType("nation id", _is_str, ("germany", "russia"), by_type=True)
PLACE = ArgType("place name", _is_str, ("Warsaw", "North Sea"), by_type=True)
KIND = ArgType("unit kind", _is_str, ("infantry", "battleship"), by_type=True)
TEXT = ArgType("text", _is_str, ("MOVE 2 inf FROM Posen TO Warsaw", ""), by_type=True)
CODE = ArgType("code word", _is_str, ("not-adjacent",), by_type=True)
INT = ArgType("whole number", _is_int, (3, 0), by_type=True)
BOOL = ArgType("true/false", lambda v: isinstance(v, bool), (True, False), by_type=True)
UNITS = ArgType("units {kind: n}", _is_units, ({"infantry": 2, "artillery": 1}, {}))
NATIONS = ArgType("list of nation ids", lambda v: isinstance(v, list) and _are_str(v),
                  (["germany", "austria-hungary"], []))
PLACES = ArgType("list of place names", lambda v: isinstance(v, list) and _are_str(v),
                 (["Posen", "Silesia"], []))
LOSSES = ArgType("losses {nation: {kind: n}}",
                 lambda v: isinstance(v, dict) and _are_str(v) and all(map(_is_units, v.values())),
                 ({"germany": {"infantry": 2}, "russia": {}},))
SPAN = ArgType("[first, end) indexes into the dice log",
               lambda v: isinstance(v, list) and len(v) == 2 and all(map(_is_int, v)), ([0, 4],))
DETAILS = ArgType("details {name: value}",
                  lambda v: isinstance(v, dict) and _are_str(v), ({"place": "Warsaw"}, {}))


def optional(t: ArgType) -> ArgType:
    return ArgType(f"{t.name} or nothing", lambda v: v is None or t.check(v), (*t.samples, None), by_type=t.by_type)


# ---- the schema ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EventSpec:
    code: str
    audience: str  # who sees it, in words, for the catalogue ("nation", "public", ...)
    args: Mapping[str, ArgType]
    doc: str = ""  # what happened, and the rules section


SHAPES_KEPT = 4096  # event shapes EventSchema keeps (the engine makes a few hundred)


class EventSchemaError(ValueError):
    """An event that breaks its declaration: an engine bug, raised where it is made."""


class EventSchema:
    def __init__(self, specs: Iterable[EventSpec]) -> None:
        self.specs: dict[str, EventSpec] = {}
        # code -> the (name, check) pairs of its arguments whose check looks inside the
        # value (units, lists, details): those are checked on every event; the others only
        # on the first event of each shape (below)
        self._inside: dict[str, tuple[tuple[str, Callable[[Any], bool]], ...]] = {}
        for spec in specs:
            if spec.code in self.specs:
                raise EventSchemaError(f"event code {spec.code!r} declared twice")
            self.specs[spec.code] = spec
            self._inside[spec.code] = tuple((name, t.check) for name, t in spec.args.items() if not t.by_type)
        # The shapes of events found good: (code, argument names in the order given, the
        # exact type of each argument). An event of a known shape has the declared names,
        # and its arguments checked by type alone (ArgType.by_type) hold as they held for
        # the first: only the checks that look inside values run again. Every event was
        # checked in full, some 280 a turn (issue 14, the engine's cost); the shapes come
        # from the engine's own calls of emit(), a few hundred at most.
        self._shapes: dict[tuple[Any, ...], tuple[tuple[str, Callable[[Any], bool]], ...]] = {}

    def __contains__(self, code: object) -> bool:
        return code in self.specs

    def __iter__(self) -> Any:
        return iter(sorted(self.specs))

    def validate(self, code: str, args: Mapping[str, Any]) -> None:
        shape = (code, *args, *map(type, args.values()))
        inside = self._shapes.get(shape)
        if inside is None:
            self._check_all(code, args)  # raises for a bad event
            if len(self._shapes) >= SHAPES_KEPT:
                self._shapes.clear()
            inside = self._shapes[shape] = self._inside[code]
        for name, check in inside:
            if not check(args[name]):
                self._refuse(code, args)

    def _check_all(self, code: str, args: Mapping[str, Any]) -> None:
        """Every check of the event's declaration: its code, its argument names, each value."""
        spec = self.specs.get(code)
        if spec is None:
            raise EventSchemaError(f"undeclared event code {code!r}")
        if spec.args.keys() != args.keys():  # (the sets compared at once)
            missing = sorted(set(spec.args) - set(args))
            extra = sorted(set(args) - set(spec.args))
            raise EventSchemaError(f"event {code!r}: missing {missing}, undeclared {extra}")
        self._refuse(code, args)  # raises for the first argument, in the declared order, that breaks its type

    def _refuse(self, code: str, args: Mapping[str, Any]) -> None:
        """Raise for the first argument of the event, in the declared order, that breaks its type."""
        for name, t in self.specs[code].args.items():
            if not t.check(args[name]):
                raise EventSchemaError(f"event {code!r}: {name}={args[name]!r} is not a {t}")

    def samples(self, code: str) -> list[dict[str, Any]]:
        """Argument sets covering every sample of every argument, for template tests."""
        spec = self.specs[code]
        width = max((len(t.samples) for t in spec.args.values()), default=1)
        return [{name: t.samples[i % len(t.samples)] for name, t in spec.args.items()} for i in range(width)]
