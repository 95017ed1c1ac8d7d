"""A small registry of rulesets, so another game can plug its own phase table in later.

A ruleset is an ordered table of named steps (design.md: "the nine phases are one ordered,
named table of steps"). Each step says which rules section it implements, its name, the
function that runs it, and which order types it consumes (so resolve() can report orders
no step understands instead of dropping them silently).

A ruleset may also have an opening table: steps run *instead of* the phase table on the
turn before the first one (turn 0), e.g. the players' own Initial Deployment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from moderator.engine.context import TurnContext

StepFn = Callable[[TurnContext], None]


@dataclass(frozen=True)
class Step:
    section: str  # rules section, e.g. "4.1.3"
    name: str  # e.g. "strategic movement"
    run: StepFn
    handles: tuple[type, ...] = ()  # order types this step consumes


_RULESETS: dict[str, tuple[Step, ...]] = {}
_OPENINGS: dict[str, tuple[Step, ...]] = {}


def register(name: str, phases: Sequence[Step], opening: Sequence[Step] = ()) -> None:
    """Register (or replace) the phase table of ruleset `name`, and its opening table."""
    for table in (phases, opening):
        sections = [s.section for s in table]
        if len(set(sections)) != len(sections):
            raise ValueError(f"ruleset {name!r}: duplicate section in {sections}")
    _RULESETS[name] = tuple(phases)
    _OPENINGS[name] = tuple(opening)


def get(name: str) -> tuple[Step, ...]:
    if name not in _RULESETS:
        known = ", ".join(sorted(_RULESETS)) or "none"
        raise KeyError(f"unknown ruleset {name!r} (known: {known})")
    return _RULESETS[name]


def opening(name: str) -> tuple[Step, ...]:
    """The steps of turn 0 (empty if the ruleset has no opening turn)."""
    get(name)  # the same error for an unknown ruleset
    return _OPENINGS.get(name, ())


def names() -> list[str]:
    return sorted(_RULESETS)
