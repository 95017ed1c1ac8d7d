"""The resolution catalog: whole turns as data, on the real 1914 map (issue 7, point 8).

Each file in tests/catalog/resolve/ is one case, the way godip keeps the DATC cases: a
starting position, the orders, the dice, and what the turn must produce. One harness
(this file) runs them all through the real engine, `moderator.engine.resolve.resolve`,
on the real 1914 map and scenario. tests/catalog/resolve/README.md says the same for
case writers.

A case file
-----------
Header comments, before the first block:

    # title: Warsaw sends one infantry each to Vladivostok and Khabarovsk
    # rules: Phase 4.1.3, example 1: "Warsaw only has a resource value of 2 ..."
    # turn: 5              optional: the turn resolved (default 1, the 1914 opening)
    # turns: 3             optional: resolve that many turns in a row (default 1): the
                           orders and rulings go to the first, the later turns have none;
                           for rules that take effect over turns (starvation)
    # deployment: yes      optional: turn 0 of a game with the Initial Deployment turn
    # xfail: <why>         optional: the engine disagrees with the rules text (strict)

`title` and `rules` are required; `rules` names the section(s) and, for a worked
example of the rules, quotes its sentence. Then blocks, each opened by a line `=== ...`:

    === position           moderator rulings (grammar/rulings.lark) applied at once to
                           the 1914 opening, in order; the only way to set a position up
    === orders <nation>    a seat's orders in the players' language, checked as a mail
                           is checked; what the checker keeps goes to the engine, after
                           the same echo and re-parse the service does
    === receipt <nation>   optional: the receipt of those orders, exactly, one
                           "<severity> <code> <line>" per diagnostic (line within the
                           orders block). Without it, the receipt must have no error.
    === rulings            the moderator's rulings for this resolution (step "R")
    === dice               "<step>: n n n" lines (ScriptedDice, one list per phase-table
                           step: battles roll in step 4.4); every die must be used;
                           without a "9:" line Phase 9 rolls 6s, the quiet end of turn;
                           without a "3.3:" line passive recon rolls 1000 (misses);
                           the neutrals' points (of the turn, of the response
                           tables) come from a "points:" line, 0 without one
    === expect             one assertion per line (below)

Lines starting with "#" inside blocks are comments (in orders blocks they are mail
comments, so line numbers still count them).

Assertions (`<nation>` a nation's id or any name without spaces, or quoted; `<place>`
the rest of the line as on the map; values compared after the turn):

    units <nation> <kind|all> <place> <n>     units of the nation there
    control <place> <nation|none>             who controls a land territory
    incorporated <place> <turn>               incorporated, since that turn
    not-incorporated <place>
    yield <place> <n>                         what it yields its holder in this turn's
                                              Phase 8 (the Phase 6 delay table)
    saved <nation> <n>                        the treasury
    built <nation> <n>                        infantry built (Manpower limits)
    at-war <nation> <nation>  /  at-peace <nation> <nation>
    event <code> [key=value ...]              a matching event exists
    events <code> <n> [key=value ...]         exactly n matching events
    no-event <code> [key=value ...]           no matching event
    refused <nation> <line> <reason>          an order-refused event for the order on
                                              that line of the nation's orders block
                                              (or of the rulings block: `moderator`)
    rolled <step> "<purpose>" <result>        a roll in the dice log
    rolls <step> <n> ["<purpose>"]            exactly n rolls in a step (with that purpose)

key=value: the value is read as JSON when it can be (`captured=true`, `order=0`,
`units={"infantry":1}`) and as text otherwise (`territory=Warsaw`; a text value matches
its words even when they read as a number, `@phase=4.4`); quote values with spaces
(`territory="East Prussia"`); `*` matches any value the key has. Dotted keys reach
inside (`losses.russia.infantry=2`, `details.place=Warsaw`, `losses.serbia=*`: Serbia
fought); `@phase` and `@seen_by` are the event's own fields, and `@turn` the turn
that made it (in a case of several turns; the other assertions read the last turn).
Refusals are exact: every order-refused event of the turn must be expected by a
`refused` line, so no order is dropped unnoticed.

Beyond the assertions the harness checks every case for: the resolution is
deterministic (the same inputs twice give the same state, events and dice log, byte for
byte), every event fits its declared schema, and no scripted die is left over.
A failure names the case file, the line, the expected and the actual value, and lists
the turn's events and dice.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from moderator.engine.context import MODERATOR
from moderator.engine.dice import Dice, DiceScriptError, Roll, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.names import nation_id
from moderator.engine.phase6_incorporation import territory_yield
from moderator.engine.points import PURPOSE as POINTS_PURPOSE
from moderator.engine.resolve import apply_rulings, default_ruleset, resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.orders.checker import check_rulings, check_text
from moderator.orders.echo import normalize
from moderator.orders.parser import parse_orders
from moderator.orders.vocab import unit_kind
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

CATALOG = Path(__file__).parent / "catalog" / "resolve"
CASES = sorted(CATALOG.glob("*.txt"))
BLOCKS = ("position", "orders", "receipt", "rulings", "dice", "expect")
REQUIRED = ("title", "rules")
HEADERS = (*REQUIRED, "turn", "turns", "deployment", "xfail")


@functools.cache
def real_1914() -> tuple[World, Scenario]:
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    return load_world("1914", strict=False), load_scenario("1914")


# ---- reading a case ----------------------------------------------------------------------


class CaseError(Exception):
    """A case file that cannot be read (not a failure of the engine)."""


@dataclass
class Block:
    kind: str
    arg: str
    head: int  # file line of the "===" line
    lines: list[tuple[int, str]] = field(default_factory=list)  # (file line, text)

    @property
    def text(self) -> str:
        return "".join(t + "\n" for _, t in self.lines)

    def file_line(self, line: int) -> int:
        """The file line of a line of this block's text (1-based)."""
        return self.head + line

    def body(self) -> list[tuple[int, str]]:
        """Lines that are neither blank nor comments."""
        return [(n, t.strip()) for n, t in self.lines if t.strip() and not t.strip().startswith("#")]


@dataclass
class Case:
    path: Path
    meta: dict[str, str]
    blocks: list[Block]

    def of(self, kind: str) -> list[Block]:
        return [b for b in self.blocks if b.kind == kind]

    def where(self, line: int) -> str:
        try:
            shown = self.path.resolve().relative_to(Path(__file__).resolve().parent.parent)
        except ValueError:
            shown = self.path
        return f"{shown}:{line}"


def read_case(path: Path) -> Case:
    meta: dict[str, str] = {}
    blocks: list[Block] = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("==="):
            words = line[3:].split(None, 1)
            if not words or words[0] not in BLOCKS:
                raise CaseError(f"{path.name}:{number}: unknown block {line!r} (blocks: {', '.join(BLOCKS)})")
            blocks.append(Block(words[0], words[1].strip() if len(words) > 1 else "", number))
        elif blocks:
            blocks[-1].lines.append((number, line))
        elif (header := re.match(r"^#\s*([\w-]+):\s*(.*)$", line)) and header.group(1).lower() in HEADERS:
            key, value = header.group(1).lower(), header.group(2).strip()
            meta[key] = f"{meta[key]} {value}" if key in meta else value
        elif line.strip() and not line.startswith("#"):
            raise CaseError(f"{path.name}:{number}: text before the first block: {line!r}")
    missing = [k for k in REQUIRED if not meta.get(k)]
    if missing:
        raise CaseError(f"{path.name}: header lacks {', '.join('# ' + k + ':' for k in missing)}")
    if not any(b.kind == "expect" for b in blocks):
        raise CaseError(f"{path.name}: no === expect block")
    return Case(path, meta, blocks)


def xfail_reason(path: Path) -> str | None:
    try:
        return read_case(path).meta.get("xfail")
    except CaseError:
        return None


# ---- running a case ----------------------------------------------------------------------


@dataclass
class Outcome:
    """One resolution of a case: what the engine got and what it made."""

    start: GameState
    orders: dict[str, list[m.Order]]
    lines: dict[str, list[int]]  # nation -> line (in its block) of each order the engine got
    state: GameState
    events: list[Event]  # of every turn resolved, in order
    dice: ScriptedDice
    turn_of: list[int] = field(default_factory=list)  # the turn each event was made in

    def turn(self, index: int) -> int:
        return self.turn_of[index] if self.turn_of else self.start.turn


def nation(scenario: Scenario, typed: str, where: str) -> str:
    if typed.lower() == MODERATOR:
        return MODERATOR
    nid = nation_id(scenario, typed)
    if nid is None:
        raise CaseError(f"{where}: {typed!r} is not a nation of the 1914 scenario")
    return nid


def place(world: World, typed: str, where: str) -> str:
    name = world.resolve(typed)
    if name is None:
        raise CaseError(f"{where}: {typed!r} is not a place on the 1914 map "
                        f"(did you mean {', '.join(world.suggest(typed)) or 'nothing close'}?)")
    return name


def start_position(case: Case, world: World, scenario: Scenario) -> GameState:
    from moderator.world.scenario import initial_state

    deployment = case.meta.get("deployment", "no").lower() in ("yes", "true", "1")
    state = initial_state(scenario, world, "catalog", deploy_free=not deployment)
    state.turn = int(case.meta.get("turn", "0" if deployment else "1"))
    for block in case.of("position"):
        checked = check_rulings(block.text, state, world, scenario)
        if checked.diagnostics:
            raise CaseError("\n".join(f"{case.where(block.file_line(d.line))}: position: {d.render()}"
                                      for d in checked.diagnostics))
        state, _ = apply_rulings(state, checked.orders, world, scenario, Dice("position", state.turn))
    return state


def receipt_lines(block: Block) -> list[tuple[str, str, int]]:
    out = []
    for number, text in block.body():
        words = text.split()
        if len(words) != 3 or not words[2].isdigit():
            raise CaseError(f"line {number}: a receipt line is '<severity> <code> <line>', not {text!r}")
        out.append((words[0], words[1], int(words[2])))
    return sorted(out)


def seat_orders(case: Case, start: GameState, world: World, scenario: Scenario,
                failures: list[str]) -> tuple[dict[str, list[m.Order]], dict[str, list[int]]]:
    """Each seat's orders, checked as a mail is; the kept ones echoed and read back, as the
    service stores and resolves them."""
    orders: dict[str, list[m.Order]] = {}
    lines: dict[str, list[int]] = {}
    receipts = {nation(scenario, b.arg, case.where(b.head)): b for b in case.of("receipt")}
    for block in case.of("orders"):
        nid = nation(scenario, block.arg, case.where(block.head))
        if nid in orders:
            raise CaseError(f"{case.where(block.head)}: a second orders block for {block.arg}")
        result = check_text(block.text, block.arg, start, world, scenario)
        got = sorted((d.severity, d.code, d.line) for d in result.diagnostics)
        receipt = receipts.pop(nid, None)
        said = "\n".join(f"  {case.where(block.file_line(d.line))}: {d.render()}" for d in result.diagnostics)
        if receipt is not None:
            want = receipt_lines(receipt)
            if got != want:
                failures.append(f"{case.where(receipt.head)}: receipt for {block.arg}: expected {want}, "
                                f"got {got}\n{said}")
        elif any(d.severity == "error" for d in result.diagnostics):
            failures.append(f"{case.where(block.head)}: the receipt for {block.arg} has errors "
                            f"(add a === receipt block if they are meant):\n{said}")
        echoed = parse_orders(normalize(result.orders))
        if echoed.diagnostics or echoed.orders != result.orders:
            failures.append(f"{case.where(block.head)}: the echo of the kept orders does not read back:\n"
                            f"{normalize(result.orders)}")
        orders[nid] = list(echoed.orders)
        lines[nid] = [o.span.line for o in result.orders]
    for nid, block in receipts.items():
        raise CaseError(f"{case.where(block.head)}: a receipt for {nid} but no orders block")
    for block in case.of("rulings"):
        checked = check_rulings(block.text, start, world, scenario)
        errors = [d for d in checked.diagnostics if d.severity == "error"]
        if errors:
            raise CaseError("\n".join(f"{case.where(block.file_line(d.line))}: rulings: {d.render()}"
                                      for d in errors))
        orders.setdefault(MODERATOR, []).extend(checked.orders)
        lines.setdefault(MODERATOR, []).extend(o.span.line for o in checked.orders)
    return orders, lines


def dice_script(case: Case) -> dict[str, list[int]]:
    script: dict[str, list[int]] = {}
    for block in case.of("dice"):
        for number, text in block.body():
            step, sep, rolls = text.partition(":")
            if not sep or not all(w.lstrip("-").isdigit() for w in rolls.split()):
                raise CaseError(f"{case.where(number)}: a dice line is '<step>: n n n', not {text!r}")
            script.setdefault(step.strip(), []).extend(int(w) for w in rolls.split())
    return script


QUIET = {"9": 6, "3.3": 1000}  # the faces that make the steps' routine rolls change nothing (see CatalogDice)


class CatalogDice(ScriptedDice):
    """A case's dice, with three defaults for the rolls every turn makes whatever the
    orders, the quiet turn. When a case scripts nothing for step 9, every Phase 9 roll is a
    6, the quiet end of a turn (the US economic roll moves nothing, 2-7; no Spanish
    garrison turn, 6 > 5; no revolution through 1919, no mutiny, no rebellion): the US
    economic roll comes "At the end of every turn". When it scripts nothing for step 3.3,
    every passive reconnaissance roll is 1000 of 1000, a miss (the colour band is seen)
    unless the chance is certain. The neutrals' points (Italy's and the Ottomans' of every
    turn, the response tables after a declaration of war or a joining; every draw whose
    purpose ends in engine/points.py PURPOSE) come from the case's `points:` line, in the
    order drawn, whatever the step; a case without one draws 0 for all of them. A case
    about those steps or the points scripts its own, and then every roll must be scripted
    as in any other step."""

    def __init__(self, script: Mapping[str, Sequence[int]], turn: int, *, step: str = "",
                 log: list[Roll] | None = None, _left: dict[str, list[int]] | None = None,
                 quiet: set[str] | None = None) -> None:
        super().__init__(script, turn, step=step, log=log, _left=_left)
        self._quiet = {k for k in QUIET if k not in script} if quiet is None else quiet

    def _child(self, section: str) -> Dice:
        return CatalogDice({}, self._turn, step=section, log=self.log, _left=self._left, quiet=self._quiet)

    def _int(self, low: int, high: int, purpose: str) -> int:
        if purpose.endswith(POINTS_PURPOSE):
            return self._points(low, high, purpose)
        if self.step in self._quiet and low <= QUIET[self.step] <= high:
            return QUIET[self.step]
        return super()._int(low, high, purpose)

    def _points(self, low: int, high: int, purpose: str) -> int:
        if POINTS not in self._left:
            return low  # no `points:` line: a quiet draw
        queue = self._left[POINTS]
        if not queue:
            raise DiceScriptError(f"no scripted roll left on the points: line: {purpose}")
        value = queue.pop(0)
        if not low <= value <= high:
            raise DiceScriptError(f"scripted roll {value} for {purpose} is outside {low}-{high}")
        return value


POINTS = "points"  # the dice line of the neutrals' points


def turns(case: Case) -> int:
    typed = case.meta.get("turns", "1")
    if not typed.isdigit() or int(typed) < 1:
        raise CaseError(f"{case.path.name}: '# turns:' is a whole number of turns, 1 or more, not {typed!r}")
    return int(typed)


def run(case: Case, start: GameState, orders: Mapping[str, Sequence[m.Order]], world: World,
        scenario: Scenario) -> tuple[GameState, list[Event], ScriptedDice]:
    """The case resolved (every turn of it): the last position, the events, the dice."""
    state, events, dice, _ = run_turns(case, start, orders, world, scenario)
    return state, events, dice


def run_turns(case: Case, start: GameState, orders: Mapping[str, Sequence[m.Order]], world: World,
              scenario: Scenario) -> tuple[GameState, list[Event], ScriptedDice, list[int]]:
    """Resolve the case's turns in a row (the orders in the first); one dice script for them
    all, each step's results taken in the order rolled whatever the turn. Also the turn
    each event was made in."""
    dice = CatalogDice(dice_script(case), start.turn)
    state, events, turn_of = start, [], []
    try:
        for n in range(turns(case)):
            made_in = state.turn
            state, new = resolve(state, orders if n == 0 else {}, world, scenario, dice)
            events += new
            turn_of += [made_in] * len(new)
    except DiceScriptError as exc:
        raise AssertionError(f"{case.where((case.of('dice') or case.blocks)[0].head)}: the dice ran out or did "
                             f"not fit: {exc}\n  rolled so far:\n{dice_log(dice) or '    nothing'}") from None
    return state, events, dice, turn_of


def outcome(case: Case, failures: list[str]) -> Outcome:
    world, scenario = real_1914()
    start = start_position(case, world, scenario)
    orders, lines = seat_orders(case, start, world, scenario, failures)
    before = start.dumps()
    state, events, dice, turn_of = run_turns(case, start, orders, world, scenario)
    assert start.dumps() == before, "resolve() changed its input state"
    left = dice.unused()
    if left:
        failures.append(f"{case.where((case.of('dice') or case.blocks)[0].head)}: scripted dice never rolled: {left}")
    again_state, again_events, again_dice = run(case, start, orders, world, scenario)
    if (again_state.dumps() != state.dumps() or dump_events(again_events) != dump_events(events)
            or dump_dice(again_dice) != dump_dice(dice)):
        failures.append(f"{case.where(1)}: the same inputs resolved twice gave different results")
    schema = default_ruleset().events
    for e in events:  # emit() already checks; this keeps the promise visible in the catalog
        schema.validate(e.code, e.args)
        json.dumps(e.to_json())
    return Outcome(start, orders, lines, state, events, dice, turn_of)


def dump_events(events: Sequence[Event]) -> str:
    return json.dumps([e.to_json() for e in events], sort_keys=True)


def dump_dice(dice: Dice) -> str:
    return json.dumps([r.to_json() for r in dice.log], sort_keys=True)


# ---- assertions --------------------------------------------------------------------------


KEY = re.compile(r"^[@\w.-]+=")
TOKEN = re.compile(r"""(?:[^\s"']+|"(?:\\.|[^"\\])*"|'[^']*')+""")


def tokens(text: str) -> list[str]:
    """Words, where "double" or 'single' quotes keep spaces inside one word."""
    return TOKEN.findall(text)


def unquote(word: str) -> str:
    if len(word) > 1 and word[0] == word[-1] == '"':
        return str(json.loads(word))
    if len(word) > 1 and word[0] == word[-1] == "'":
        return word[1:-1]
    return word


def value_of(text: str) -> Any:
    """A key=value's value: JSON when it reads as JSON, else the text ('quotes' taken off)."""
    if len(text) > 1 and text[0] == text[-1] == "'":
        text = text[1:-1]
    try:
        return json.loads(text)
    except ValueError:
        return text


def dig(event: Event, key: str, turn: int) -> tuple[bool, Any]:
    if key == "@turn":
        return True, turn
    if key == "@phase":
        return True, event.phase
    if key == "@seen_by":
        return True, list(event.seen_by)
    here: Any = event.args
    for part in key.split("."):
        if not isinstance(here, dict) or part not in here:
            return False, None
        here = here[part]
    return True, here


def matcher(words: Sequence[str], where: str) -> Callable[[Event, int], bool]:
    wanted = []
    for w in words:
        key, sep, raw = w.partition("=")
        if not sep:
            raise CaseError(f"{where}: {w!r} is not key=value")
        wanted.append((key, value_of(raw), unquote(raw)))

    def matches(e: Event, turn: int) -> bool:
        for key, want, text in wanted:
            found, got = dig(e, key, turn)
            if not found or (text != "*" and got != want and not (isinstance(got, str) and got == text)):
                return False
        return True

    return matches


def show(e: Event) -> str:
    return f"{e.code}@{e.phase} {json.dumps(e.args, sort_keys=True)}"


class Checker:
    """The expect block against one outcome; every failure says where and what was found."""

    def __init__(self, case: Case, out: Outcome) -> None:
        self.case, self.out = case, out
        self.world, self.scenario = real_1914()
        self.failures: list[str] = []
        self.refusals_seen: set[int] = set()  # indexes into out.events

    def fail(self, line: int, text: str, got: object) -> None:
        self.failures.append(f"{self.case.where(line)}: {text}: actual {got}")

    def nation(self, typed: str, line: int) -> str:
        return nation(self.scenario, typed, self.case.where(line))

    def place(self, typed: str, line: int) -> str:
        return place(self.world, typed, self.case.where(line))

    def number(self, typed: str, line: int) -> int:
        try:
            return int(typed)
        except ValueError:
            raise CaseError(f"{self.case.where(line)}: {typed!r} is not a whole number") from None

    def check(self, line: int, text: str) -> None:
        words = tokens(text)
        verb, args = words[0], [w if KEY.match(w) else unquote(w) for w in words[1:]]
        handler = getattr(self, "x_" + verb.replace("-", "_"), None)
        if handler is None:
            raise CaseError(f"{self.case.where(line)}: unknown assertion {verb!r}")
        try:
            handler(line, text, args)
        except IndexError:
            raise CaseError(f"{self.case.where(line)}: too few words in {text!r}") from None

    # -- the position
    def x_units(self, line: int, text: str, a: list[str]) -> None:
        nid, typed_kind, where, want = self.nation(a[0], line), a[1], self.place(" ".join(a[2:-1]), line), a[-1]
        kind = None if typed_kind.lower() in ("all", "any") else unit_kind(typed_kind)
        if kind is None and typed_kind.lower() not in ("all", "any"):
            raise CaseError(f"{self.case.where(line)}: {typed_kind!r} is not a unit kind")
        got = sum(1 for u in self.out.state.units_at(where, nid) if kind is None or u.kind == kind)
        if got != self.number(want, line):
            self.fail(line, text, got)

    def x_control(self, line: int, text: str, a: list[str]) -> None:
        where = self.place(" ".join(a[:-1]), line)
        want = None if a[-1].lower() == "none" else self.nation(a[-1], line)
        got = self.out.state.controller(where)
        if got != want:
            self.fail(line, text, got)

    def x_incorporated(self, line: int, text: str, a: list[str]) -> None:
        where = self.place(" ".join(a[:-1]), line)
        got = self.out.state.incorporated.get(where)
        if got != self.number(a[-1], line):
            self.fail(line, text, "not incorporated" if got is None else f"since turn {got}")

    def x_not_incorporated(self, line: int, text: str, a: list[str]) -> None:
        where = self.place(" ".join(a), line)
        got = self.out.state.incorporated.get(where)
        if got is not None:
            self.fail(line, text, f"incorporated since turn {got}")

    def x_yield(self, line: int, text: str, a: list[str]) -> None:
        where = self.place(" ".join(a[:-1]), line)
        got = territory_yield(self.world, self.out.state, where, self.out.state.turn - 1)  # the last turn's
        if got != self.number(a[-1], line):
            self.fail(line, text, got)

    def x_saved(self, line: int, text: str, a: list[str]) -> None:
        got = self.out.state.nations[self.nation(a[0], line)].saved
        if got != self.number(a[1], line):
            self.fail(line, text, got)

    def x_built(self, line: int, text: str, a: list[str]) -> None:
        got = self.out.state.nations[self.nation(a[0], line)].infantry_built
        if got != self.number(a[1], line):
            self.fail(line, text, got)

    def x_at_war(self, line: int, text: str, a: list[str]) -> None:
        x, y = self.nation(a[0], line), self.nation(a[1], line)
        got = (self.out.state.at_war(x, y), self.out.state.at_war(y, x))
        if got != (True, True):
            self.fail(line, text, f"at war {got} (each way)")

    def x_at_peace(self, line: int, text: str, a: list[str]) -> None:
        x, y = self.nation(a[0], line), self.nation(a[1], line)
        got = (self.out.state.at_war(x, y), self.out.state.at_war(y, x))
        if got != (False, False):
            self.fail(line, text, f"at war {got} (each way)")

    # -- the events
    def _matching(self, line: int, a: list[str]) -> list[Event]:
        code, match = a[0], matcher(a[1:], self.case.where(line))
        return [e for i, e in enumerate(self.out.events) if e.code == code and match(e, self.out.turn(i))]

    def _others(self, code: str) -> str:
        same = [show(e) for e in self.out.events if e.code == code]
        return "; ".join(same) if same else f"no {code} event at all"

    def x_event(self, line: int, text: str, a: list[str]) -> None:
        if not self._matching(line, a):
            self.fail(line, text, self._others(a[0]))

    def x_events(self, line: int, text: str, a: list[str]) -> None:
        got = self._matching(line, [a[0], *a[2:]])
        if len(got) != self.number(a[1], line):
            self.fail(line, text, f"{len(got)}: " + "; ".join(show(e) for e in got))

    def x_no_event(self, line: int, text: str, a: list[str]) -> None:
        got = self._matching(line, a)
        if got:
            self.fail(line, text, "; ".join(show(e) for e in got))

    def x_refused(self, line: int, text: str, a: list[str]) -> None:
        nid, at, reason = self.nation(a[0], line), self.number(a[1], line), a[2]
        found = False
        for i, e in enumerate(self.out.events):
            if e.code != "order-refused" or e.args["nation"] != nid or e.args["reason"] != reason:
                continue
            if self.order_line(nid, e.args["order"]) == at:
                self.refusals_seen.add(i)
                found = True
        if not found:
            self.fail(line, text, self.refusals() or "no order-refused event")

    def order_line(self, nid: str, index: int) -> int | None:
        lines = self.out.lines.get(nid, [])
        return lines[index] if 0 <= index < len(lines) else None

    def refusals(self, unseen: bool = False) -> str:
        out = []
        for i, e in enumerate(self.out.events):
            if e.code == "order-refused" and not (unseen and i in self.refusals_seen):
                where = self.order_line(e.args["nation"], e.args["order"])
                out.append(f"{e.args['nation']} line {where} {e.args['reason']} ({e.args['text']!r})")
        return "; ".join(out)

    # -- the dice
    def x_rolled(self, line: int, text: str, a: list[str]) -> None:
        step, purpose, result = a[0], a[1], self.number(a[2], line)
        if not any(r.step == step and r.purpose == purpose and r.result == result for r in self.out.dice.log):
            self.fail(line, text, dice_log(self.out.dice, step) or f"no roll in step {step}")

    def x_rolls(self, line: int, text: str, a: list[str]) -> None:
        step, want = a[0], self.number(a[1], line)
        purpose = a[2] if len(a) > 2 else None
        got = [r for r in self.out.dice.log if r.step == step and (purpose is None or r.purpose == purpose)]
        if len(got) != want:
            self.fail(line, text, f"{len(got)} rolls")


def dice_log(dice: Dice, step: str | None = None) -> str:
    return "\n".join(f"    [{r.step}] {r.purpose}: {r.result}" for r in dice.log if step is None or r.step == step)


def report(case: Case, out: Outcome, failures: list[str]) -> str:
    several = len(set(out.turn_of)) > 1  # a case of several turns: say which made each event
    events = "\n".join(f"    {f'turn {out.turn(i)}: ' if several else ''}{show(e)}"
                       for i, e in enumerate(out.events) if e.code != "income")
    income = ", ".join(f"{e.args['nation']} {e.args['amount']}" for e in out.events if e.code == "income")
    return ("\n".join(failures) + f"\n\n{case.path.name}: the turn's events (income: {income}):\n{events}\n"
            f"  dice:\n{dice_log(out.dice) or '    (none rolled)'}")


# ---- the tests ---------------------------------------------------------------------------


def test_catalog_has_at_least_forty_cases() -> None:
    assert len(CASES) >= 40


def test_every_case_reads() -> None:
    for path in CASES:
        read_case(path)  # raises CaseError with the file and line


def params() -> list[Any]:
    out = []
    for path in CASES:
        why = xfail_reason(path)
        marks = [pytest.mark.xfail(reason=why, strict=True, raises=AssertionError)] if why else []
        out.append(pytest.param(path, id=path.stem, marks=marks))
    return out


@pytest.mark.parametrize("path", params())
def test_case(path: Path) -> None:
    check_case(path)


def test_the_readme_example_is_a_passing_case(tmp_path: Path) -> None:
    text = (CATALOG / "README.md").read_text(encoding="utf-8")
    example = text.split("```\n", 2)[1]
    path = tmp_path / "readme-example.txt"
    path.write_text(example, encoding="utf-8")
    check_case(path)


def check_case(path: Path) -> None:
    case = read_case(path)
    failures: list[str] = []
    out = outcome(case, failures)
    checker = Checker(case, out)
    for block in case.of("expect"):
        for line, text in block.body():
            checker.check(line, text)
    unexpected = checker.refusals(unseen=True)
    if unexpected:
        failures.append(f"{case.where(case.of('expect')[0].head)}: refusals no `refused` line expects: {unexpected}")
    failures += checker.failures
    assert not failures, report(case, out, failures)
