"""The words of every Problem: templates/problems/*.toml, one sentence per code.

A Problem (moderator.engine.problems) is a code and its arguments; this module turns it
into the sentence a player reads, in the receipt (the checker refused or remarked on an
order) and in the report (the engine refused it at resolution). One sentence per code,
written where a moderator can edit it without touching code:

    [not-adjacent]
    rule = "Phase 4.4"
    text = "{{ dest }} is not next to {{ origin }}"

Templates see the problem's arguments and a few helpers: name(nation id) -> the nation's
name, unit(kind) -> the short unit word (inf, art, ...), plural(kind) -> "tanks", "AA guns",
units({kind: n}) -> "2 inf, 1 art",
either(list) -> "a or b", technology(id) -> the rules' name of the technology.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, StrictUndefined, Template, TemplateError

from moderator.engine.problems import Problem
from moderator.orders.vocab import TECHNOLOGIES, UNIT_ECHO

PROBLEMS_DIR = Path(__file__).resolve().parents[2] / "templates" / "problems"


@dataclass(frozen=True)
class Message:
    code: str
    text: str  # a Jinja template
    rule: str = ""  # the rules section it cites, shown after the sentence
    source: str = ""  # the file it came from


@functools.lru_cache(maxsize=1)
def catalogue() -> dict[str, Message]:
    out: dict[str, Message] = {}
    for path in sorted(PROBLEMS_DIR.glob("*.toml")):
        with path.open("rb") as fh:
            data = tomllib.load(fh)
        for code, entry in data.items():
            if code in out:
                raise ValueError(f"problem code {code!r} is in both {out[code].source} and {path.name}")
            out[code] = Message(code, str(entry["text"]), str(entry.get("rule", "")), path.name)
    return out


@functools.lru_cache(maxsize=1)
def _env() -> Environment:
    return Environment(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)


@functools.lru_cache(maxsize=512)
def _template(code: str) -> Template:
    return _env().from_string(catalogue()[code].text)


def _units(d: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {UNIT_ECHO.get(k, k)}" for k, n in d.items())


# The plural a sentence uses for "you have no tanks in Berlin" (the Units table's names).
PLURALS = {
    "infantry": "infantry", "artillery": "artillery", "tank": "tanks", "aa": "AA guns", "rocket": "rockets",
    "fighter": "fighters", "bomber": "bombers", "battleship": "battleships", "cruiser": "cruisers",
    "transport": "transports", "carrier": "aircraft carriers", "submarine": "submarines",
}


def units_word(kind: str) -> str:
    """A unit kind's plural name ("AA guns", "tanks", "infantry")."""
    return PLURALS.get(kind, kind.replace("_", " "))


def counted(n: int, word: str, plural: str | None = None) -> str:
    """"1 error", "2 errors", "0 orders": the count and its word, in the right number."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _either(items: Any) -> str:
    return " or ".join(str(i) for i in items)


def _technology(tid: str) -> str:
    return TECHNOLOGIES[tid][0] if tid in TECHNOLOGIES else tid


def text(code: str, args: Mapping[str, Any], names: Callable[[str], str] | None = None) -> str:
    """The sentence for a problem code with its arguments (the rule cited in brackets)."""
    msg = catalogue().get(code)
    plain = f"{code}" + (f" ({', '.join(f'{k}={v}' for k, v in args.items())})" if args else "")
    if msg is None:
        return plain
    try:
        helpers = dict(name=names or (lambda n: n), unit=lambda k: UNIT_ECHO.get(k, k), units=_units,
                       either=_either, technology=_technology, plural=units_word)
        # an argument named as a helper (surrender-units-stranded's `units`: a count) is the
        # argument: passing both as keywords was a TypeError that failed a whole resolution
        sentence = _template(code).render({**helpers, **args})
    except (TemplateError, TypeError):  # arguments the sentence does not expect: say it plainly, never fail a mail
        return plain
    return f"{sentence} ({msg.rule})" if msg.rule and f"({msg.rule})" not in sentence else sentence


# Third person for a member's problem told in the alliance's report (issue 13): the verbs
# the catalogue's sentences put after "you", and what they become after a nation's name.
_AFTER_YOU = {"are": "is", "were": "was", "have": "has", "do": "does", "hold": "holds", "control": "controls",
              "own": "owns", "retake": "retakes", "wage": "wages", "attack": "attacks"}
_YOU_VERB = re.compile(r"\byou\b(\s+(?:already|still|also)\b)?(\s+([a-z]+)\b)?", re.IGNORECASE)


def third_person(sentence: str, who: str) -> str:
    """A problem's sentence, written to the nation ("you do not control Strasbourg"), as
    told about it to its allies ("French Empire does not control Strasbourg"): "you" is
    the nation's name, "your" is "its" ("your nation" the name), "yours" the name's."""
    def you(m: re.Match[str]) -> str:
        adverb, verb = m.group(1) or "", m.group(3)
        if verb is None:
            return who + adverb
        return f"{who}{adverb} {_AFTER_YOU.get(verb.lower(), verb)}"

    out = re.sub(r"\bare you\b", f"is {who}", sentence)
    out = re.sub(r"\byourself\b", "itself", out)
    out = re.sub(r"\byours\b", f"{who}'s", out, flags=re.IGNORECASE)
    out = re.sub(r"\byour (?:own )?nation\b", who, out, flags=re.IGNORECASE)
    out = re.sub(r"\bYour\b", "Its", out)
    out = re.sub(r"\byour\b", "its", out)
    return _YOU_VERB.sub(you, out)


def message(p: Problem, names: Callable[[str], str] | None = None) -> str:
    return text(p.code, p.args, names)
