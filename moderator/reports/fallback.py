"""An event told in plain words when its own template cannot tell it (render.event_text).

Such an event is rare (one stored before its template gained an argument), but a player
still reads its line, so it must read as words, not as the engine's argument keys: the
nation that acted first, then each argument as "label: value", with nations by their
names, unit counts as the reports write them ("2 infantry"), code words without their
hyphens and yes/no for true/false. The arguments are the ones every audience of the event
is told anyway (report.json carries the same, content.tell); the moderator-only ones (the
dice) never appear. The moderator is told of the failure apart (render.render_failures).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from moderator.engine.events import Event
from moderator.engine.state import UNIT_KINDS

Names = Callable[[str], str]

# The arguments whose key is not a word a player knows, in words ("tf" is a task force).
# Other keys are read with their underscores as spaces ("kept_apart": "kept apart").
LABELS = {
    "aa": "aircraft downed by AA guns", "aa_hits": "AA hits", "air_rounds": "rounds of air combat",
    "tf": "task force", "dest": "to", "origin": "from", "origins": "from", "zone": "sea zone",
    "zones": "sea zones", "fleets": "task forces", "first": "one side", "second": "other side",
    "free": "free round", "clash": "two attackers met", "strait": "across a strait", "us_trade": "US trade",
    "tech": "technology", "seen_units": "units seen", "own": "own forces", "enemy": "enemy forces",
    "band": "colour", "role": "part", "why": "reason", "mean": "average", "fund": "fund",
    "production_side": "production for", "refused_by": "refused by", "ordered": "units ordered",
    "present": "units present", "went": "went to", "text": "order", "kind": "unit",
}
SIDES = {"central": "Central Powers", "allied": "Allied Powers", "neutral": "Neutrals"}


def label(key: str) -> str:
    return LABELS.get(key, key.replace("_", " "))


def _word(value: str, names: Names) -> str:
    """A nation by its name, a task force "germany/B" as "German Empire B", a side by its
    camp's name, a code word ("contact-lost") without its hyphens; a place as it is."""
    named = names(value)
    if named != value:
        return named
    left, slash, right = value.partition("/")
    if slash and names(left) != left:
        return f"{names(left)} {right}"
    if value in SIDES:
        return SIDES[value]
    if value.islower() and " " not in value:
        return value.replace("-", " ").replace("_", " ")
    return value


def _units(counts: dict[str, Any], names: Names) -> str:
    from moderator.reports.render import count_units

    parts = [count_units(n, k) if k in UNIT_KINDS and isinstance(n, int) else f"{_word(k, names)} {plain(n, names)}"
             for k, n in counts.items()]
    return ", ".join(parts) or "none"


def plain(value: Any, names: Names) -> str:
    """One argument's value in words (see the module's docstring)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return _word(value, names)
    if isinstance(value, dict):
        if value and all(isinstance(v, dict) for v in value.values()):  # by nation: "France (2 infantry)"
            return ", ".join(f"{_word(k, names)} ({_units(v, names)})" for k, v in value.items())
        return _units(value, names)
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v, names) for v in value) or "none"
    return str(value)


def fallback_text(e: Event, names: Names, hidden: tuple[str, ...] = ()) -> str:
    """"German Empire: task force turned back. Task force: B; sea zone: North Sea; to: Baltic
    Sea." -- the event's code as words, led by its nation, then its arguments (not `hidden`,
    nor the empty ones)."""
    args = {k: v for k, v in e.args.items() if k not in hidden and v is not None and v != ""}
    what = e.code.replace("-", " ")
    nation = args.pop("nation", None) if isinstance(args.get("nation"), str) else None
    if isinstance(args.get("order"), int) and not isinstance(args["order"], bool):
        args["order"] += 1  # orders are counted from 1 in every report
    head = f"{names(nation)}: {what}" if nation else what.capitalize()
    shown = "; ".join(f"{label(k)}: {plain(v, names)}" for k, v in args.items())
    return f"{head}." + (f" {shown[0].upper()}{shown[1:]}." if shown else "")
