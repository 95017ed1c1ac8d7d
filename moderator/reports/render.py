"""Render mails from templates/ with Jinja2: text and HTML parts from the same context.

Words live in the templates; this module only prepares plain data for them.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from moderator.engine.events import Event
from moderator.orders.messages import text as problem_text
from moderator.orders.messages import third_person
from moderator.reports.fallback import fallback_text as plain_words
from moderator.reports.intelligence import intelligence_lines
from moderator.reports.neutrals import neutral_lines

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


@functools.lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # The templates are the installed package's and do not change while it runs: no
        # stat() of each file at each render to see if it did (two a receipt, issue 11).
        auto_reload=False,
    )
    env.filters["signed"] = lambda n: f"{n:+d}"
    env.filters["tech"] = tech_level
    env.globals["event_text"] = event_text
    env.globals["count_units"] = count_units
    env.globals["intelligence_lines"] = intelligence_lines
    env.globals["neutral_lines"] = neutral_lines
    env.globals["verbatim"] = verbatim
    return env


# The text part of the turn's reports is wrapped at 78 characters (RFC 5322 2.1.1's
# recommended line length: what a plain mail reader shows without scrolling), a bullet's
# or a table row's continuation lines indented under its text. What the reader mails back
# is never wrapped: the order block's comment lines would lose their "#" and stop parsing.
WIDTH = 78
WRAPPED = frozenset({"report", "alliance", "bulletin", "moderator"})
NOWRAP = "\x1e"  # starts a line the wrapper leaves as it is (verbatim); removed after
_BULLET = re.compile(r"\s*(?:[-*] )?")
_COLUMN = re.compile(r"(\s+\S.*?\s{2,})\S")  # an indented table row: the second column's start
_GLUED = re.compile(r"(?<=\d\d:\d\d) (?=UTC)")  # a deadline's time stays with its zone
_COMMAND = re.compile(r"`[^`\n]*`")  # a command to copy (`moderator review list --game g1`): one piece
GLUE = "\x1f"  # a space no line is broken at (not whitespace to textwrap); a space again after


def _glued(line: str) -> str:
    line = _COMMAND.sub(lambda m: m.group(0).replace(" ", GLUE), line)
    return _GLUED.sub(GLUE, line)


def verbatim(text: str) -> str:
    """`text` marked so that wrap() leaves every line of it alone (the order block)."""
    return "\n".join(NOWRAP + line if line else line for line in text.split("\n"))


def wrap(text: str, width: int = WIDTH) -> str:
    """Every line longer than `width` broken at spaces, continuation lines indented under
    the bullet's text or the table row's second column (an indented line's two further
    in); verbatim lines kept as they are."""
    out = []
    for line in text.split("\n"):
        if line.startswith(NOWRAP):
            out.append(line[len(NOWRAP):])
            continue
        if len(line) <= width:
            out.append(line)
            continue
        column, bullet = _COLUMN.match(line), _BULLET.match(line)
        lead = column.group(1) if column and len(column.group(1)) <= width // 2 else bullet.group(0) if bullet else ""
        if lead and not lead.strip() and not column:
            lead += "  "  # an indented line ("  Allied Powers: ..."): its continuation further in
        out += [part.replace(GLUE, " ") for part in textwrap.wrap(
            _glued(line), width, subsequent_indent=" " * len(lead), break_long_words=False,
            break_on_hyphens=False)] or [line]
    return "\n".join(out)


def tech_level(tid: str, level: int) -> str:
    """"Tanks 1 of 4": a technology's name and the level reached (Technology table)."""
    from moderator.orders.vocab import TECHNOLOGIES

    name, levels, _ = TECHNOLOGIES.get(tid, (tid, 0, ()))
    return f"{name} {level} of {levels}" if levels else f"{name} {level}"


HELD_BACK = {
    "cannot-attack": "AA guns and rockets never attack",
    "straits": "only infantry and artillery attack across a strait",
    "cannot-enter-enemy-land": "only infantry and tanks take enemy land; artillery fires from home",
    "terrain": "mountains",
    "no-transport": "no transport of the task force had room for them there",
    "super-trench": "aircraft cannot hit troops behind a super trench",
    "no-fuel": "not fuel enough for a round of combat and the flight home",
    "beach-landing": "tanks may not take part in a naval invasion",
}


WITHDRAWAL = {
    "rounds": "after {} round{} as ordered",
    "losses": "when their losses passed {}{}, as ordered",
    "kills": "after destroying {} defender{}, as ordered",
}


def withdrawal(condition: str) -> str:
    """A battle's withdrawal condition ("losses:5", combat_orders.withdrawal) in words."""
    kind, _, value = condition.partition(":")
    words = WITHDRAWAL.get(kind)
    if words is None or not value.isdigit():
        return condition
    return words.format(value, "" if kind == "losses" else "s" if value != "1" else "")


# The battles' virtual defenders (combat_land.VIRTUAL and the city's own), as the rules name
# them: "a 1 defense factor coastal defense unit" (4.6 naval invasions, Straits), the city's
# defence (Cities), the port's boats (Ports) and the multinational fictive unit (4.6.1).
VIRTUAL_NAMES = {"coastal": "coastal defence unit", "city": "city defence", "fictive": "fictive unit",
                 "boat": "port defence boat"}


# The Units table's names, singular and plural ("1 fighter", "3 fighters"; infantry and
# artillery are the same in both); a kind not listed is written as it is.
UNIT_WORDS = {
    "tank": ("tank", "tanks"), "aa": ("AA gun", "AA guns"), "rocket": ("rocket", "rockets"),
    "fighter": ("fighter", "fighters"), "bomber": ("bomber", "bombers"),
    "battleship": ("battleship", "battleships"), "cruiser": ("cruiser", "cruisers"),
    "transport": ("transport", "transports"), "carrier": ("aircraft carrier", "aircraft carriers"),
    "submarine": ("submarine", "submarines"), "trench": ("trench", "trenches"),
    "super_trench": ("super trench", "super trenches"),
    **{kind: (name, name + "s") for kind, name in VIRTUAL_NAMES.items()},
}


def count_units(n: int, kind: str) -> str:
    """"1 fighter", "3 fighters", "7 infantry": a count of one kind of unit in words."""
    one, many = UNIT_WORDS.get(kind, (kind, kind))
    return f"{n} {one if n == 1 else many}"


def _units(d: dict[str, int]) -> str:
    return ", ".join(count_units(n, kind) for kind, n in d.items()) or "no units"


def _resources(n: int) -> str:
    return f"{n} resource{'s' if n != 1 else ''}"


log = logging.getLogger(__name__)

# An event whose template raises (one stored before its template gained an argument, as
# naval-battle's `aa` did) must not take the whole report with it: its line falls back to
# plain words (fallback_text) and the failure is logged and collected for the moderator
# (render_failures). The tests render strictly (strict_events): a template broken for the
# events the engine emits today fails them loudly instead.
_strict = False
_failures: list[list[str]] = []  # the open render_failures() collectors, innermost last


@contextlib.contextmanager
def strict_events(on: bool = True) -> Iterator[None]:
    """While open, an event template that raises raises (the tests); otherwise the event
    is told by fallback_text."""
    global _strict
    before, _strict = _strict, on
    try:
        yield
    finally:
        _strict = before


@contextlib.contextmanager
def render_failures() -> Iterator[list[str]]:
    """Collects "code: error" for every event that fell back to plain words while open
    (each once), for the moderator's review list."""
    found: list[str] = []
    _failures.append(found)
    try:
        yield found
    finally:
        _failures.remove(found)


def fallback_text(e: Event, names: Callable[[str], str]) -> str:
    """An event in plain words (reports/fallback.py), never the moderator-only arguments."""
    from moderator.reports.content import MODERATOR_ONLY_ARGS

    return plain_words(e, names, MODERATOR_ONLY_ARGS)


def event_text(e: Event, names: Callable[[str], str], about: str | None = None) -> str:
    """One event in plain English, from templates/events/<code>.j2 (one template per code);
    plain words (fallback_text) if that template raises, unless strict_events is open.
    `about`: the name of the nation whose problem (a refused order's reason) is told to
    others (its alliance), in the third person, the problem sentences being written to
    the nation itself ("you do not control ...")."""
    def problem(code: str, args: dict[str, Any]) -> str:
        sentence = problem_text(code, args, names)
        return sentence if about is None else third_person(sentence, about)

    try:
        template = environment().get_template(f"events/{e.code}.j2")
        return template.render(a=e.args, e=e, names=names, units=_units, resources=_resources,
                               held_back=lambda r: HELD_BACK.get(r, r), withdrawal=withdrawal,
                               problem=problem).strip()
    except Exception as exc:  # noqa: BLE001 - one event's words must not lose the report
        if _strict:
            raise
        failure = f"{e.code}: {type(exc).__name__}: {exc}"
        log.warning("event %s (phase %s) could not be rendered, told in plain words: %s", e.code, e.phase, failure)
        for found in _failures:
            if failure not in found:
                found.append(failure)
        return fallback_text(e, names)


def render(name: str, **context: Any) -> tuple[str, str]:
    """Render `<name>.txt.j2` and `<name>.html.j2` with the same context: (text, html); the
    text of the turn's reports wrapped (wrap)."""
    env = environment()
    text = env.get_template(f"{name}.txt.j2").render(**context)
    if name in WRAPPED:
        text = wrap(text)
    html = env.get_template(f"{name}.html.j2").render(**context)
    return text, html
