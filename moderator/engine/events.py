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


# ---- argument types --------------------------------------------------------------------


@dataclass(frozen=True)
class ArgType:
    """What one event argument holds: a check for the engine, samples for the tests."""

    name: str
    check: Callable[[Any], bool]
    samples: tuple[Any, ...]  # values the template tests render with (first one: typical)

    def __str__(self) -> str:
        return self.name


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_units(v: Any) -> bool:
    return isinstance(v, dict) and all(_is_str(k) and _is_int(n) for k, n in v.items())


NATION = ArgType("nation id", _is_str, ("germany", "russia"))
PLACE = ArgType("place name", _is_str, ("Warsaw", "North Sea"))
KIND = ArgType("unit kind", _is_str, ("infantry", "battleship"))
TEXT = ArgType("text", _is_str, ("MOVE 2 inf FROM Posen TO Warsaw", ""))
CODE = ArgType("code word", _is_str, ("not-adjacent",))
INT = ArgType("whole number", _is_int, (3, 0))
BOOL = ArgType("true/false", lambda v: isinstance(v, bool), (True, False))
UNITS = ArgType("units {kind: n}", _is_units, ({"infantry": 2, "artillery": 1}, {}))
NATIONS = ArgType("list of nation ids", lambda v: isinstance(v, list) and all(map(_is_str, v)),
                  (["germany", "austria-hungary"], []))
PLACES = ArgType("list of place names", lambda v: isinstance(v, list) and all(map(_is_str, v)),
                 (["Posen", "Silesia"], []))
LOSSES = ArgType("losses {nation: {kind: n}}",
                 lambda v: isinstance(v, dict) and all(_is_str(k) and _is_units(u) for k, u in v.items()),
                 ({"germany": {"infantry": 2}, "russia": {}},))
SPAN = ArgType("[first, end) indexes into the dice log",
               lambda v: isinstance(v, list) and len(v) == 2 and all(map(_is_int, v)), ([0, 4],))
DETAILS = ArgType("details {name: value}",
                  lambda v: isinstance(v, dict) and all(_is_str(k) for k in v), ({"place": "Warsaw"}, {}))


def optional(t: ArgType) -> ArgType:
    return ArgType(f"{t.name} or nothing", lambda v: v is None or t.check(v), (*t.samples, None))


# ---- the schema ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EventSpec:
    code: str
    audience: str  # who sees it, in words, for the catalogue ("nation", "public", ...)
    args: Mapping[str, ArgType]
    doc: str = ""  # what happened, and the rules section


class EventSchemaError(ValueError):
    """An event that breaks its declaration: an engine bug, raised where it is made."""


class EventSchema:
    def __init__(self, specs: Iterable[EventSpec]) -> None:
        self.specs: dict[str, EventSpec] = {}
        # code -> (argument names, names of text arguments, of whole numbers, (name, check)
        # pairs of the rest): what validate() asks of every event, read once (some 2,800
        # events and 10,000 arguments checked in ten turns). Most arguments are text or
        # whole numbers, checked together below without a call of their check each.
        self._checks: dict[str, tuple[Any, tuple[str, ...], tuple[str, ...],
                                      tuple[tuple[str, Callable[[Any], bool]], ...]]] = {}
        for spec in specs:
            if spec.code in self.specs:
                raise EventSchemaError(f"event code {spec.code!r} declared twice")
            self.specs[spec.code] = spec
            texts = tuple(name for name, t in spec.args.items() if t.check is _is_str)
            numbers = tuple(name for name, t in spec.args.items() if t.check is _is_int)
            rest = tuple((name, t.check) for name, t in spec.args.items() if t.check not in (_is_str, _is_int))
            self._checks[spec.code] = (spec.args.keys(), texts, numbers, rest)

    def __contains__(self, code: object) -> bool:
        return code in self.specs

    def __iter__(self) -> Any:
        return iter(sorted(self.specs))

    def validate(self, code: str, args: Mapping[str, Any]) -> None:
        checks = self._checks.get(code)
        if checks is None:
            raise EventSchemaError(f"undeclared event code {code!r}")
        names, texts, numbers, rest = checks
        if names != args.keys():  # (the sets compared at once: every event is validated)
            missing = sorted(set(names) - set(args))
            extra = sorted(set(args) - set(names))
            raise EventSchemaError(f"event {code!r}: missing {missing}, undeclared {extra}")
        # _is_str and _is_int asked of all text and number arguments at once (map runs
        # isinstance without a Python call each); any failure is found again and named
        # by the checks one at a time, in the declared order (_refuse)
        got = args.__getitem__
        nums = tuple(map(got, numbers))
        if not (all(map(isinstance, map(got, texts), repeat(str)))
                and all(map(isinstance, nums, repeat(int))) and not any(map(isinstance, nums, repeat(bool)))
                and (not rest or all(check(args[name]) for name, check in rest))):
            self._refuse(code, args)

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
