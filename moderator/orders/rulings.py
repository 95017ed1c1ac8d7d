"""The moderator's rulings as typed orders: parse, echo (grammar/rulings.lark).

Everything the rules leave to the moderator, and everything not automated yet, can be
written into the game as a ruling: set or adjust a treasury, a manpower limit, the
infantry built, a neutral's points, a technology level, a flag or a side; add, remove
(some, or all a nation has in a place), move, damage or repair units; change who
controls or has incorporated a territory (and since which turn); start or end a war;
record a die the moderator rolled by hand. A ruling is an Order
of the pseudo-nation "moderator"; its home (moderator/engine/orders/rulings.py) checks
and carries it out in step "R" of a turn, so `replay` reproduces it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from moderator.orders import model as m
from moderator.orders import vocab as v
from moderator.orders.build import Builder
from moderator.orders.clean import pieces
from moderator.orders.diagnostics import ERROR, Diagnostic
from moderator.orders.echo import name as quoted
from moderator.orders.echo import units as echo_units
from moderator.orders.model import NATION, PLACE
from moderator.orders.parser import ParseResult
from moderator.world.model import fold

GRAMMAR = Path(__file__).resolve().parents[2] / "grammar" / "rulings.lark"
TRENCHES = ("trench", "super_trench")  # added with the border they face (ADD ... FACING)

# The numbers a ruling may set on a nation (NationState fields), by the words allowed.
FIELDS = {"saved": "saved", "treasury": "saved", "manpower": "manpower_limit", "built": "infantry_built",
          "points": "standing", "standing": "standing"}
FIELD_WORDS = {"saved": "SAVED", "manpower_limit": "MANPOWER", "infantry_built": "BUILT", "standing": "POINTS"}


@dataclass(frozen=True)
class Ruling(m.Order):
    """Base of the moderator's orders."""

    phase = 0


@dataclass(frozen=True)
class SetValue(Ruling):
    """SET <field> OF <nation> TO n, or (relative) ADJUST <field> OF <nation> BY +-n."""

    value_field: str  # a NationState field: saved, manpower_limit, infantry_built, standing
    nation: str = field(metadata=NATION)
    value: int = 0
    relative: bool = False


@dataclass(frozen=True)
class SetHeld(Ruling):
    """SET SAVED OF <nation> AT <place> TO n, or ADJUST ... BY +-n: the treasury of a
    territory separated from the nation's mainland (Phase 3.1; engine/treasuries.py), the
    one of the group `place` belongs to. SET SAVED without AT sets the mainland's."""

    nation: str = field(metadata=NATION)
    place: str = field(default="", metadata=PLACE)
    value: int = 0
    relative: bool = False


@dataclass(frozen=True)
class SetTech(Ruling):
    tech: str
    nation: str = field(metadata=NATION)
    level: int = 0


@dataclass(frozen=True)
class SetFlag(Ruling):
    """A special rule's bookkeeping (NationState.flags): a whole number, true/false or a word."""

    key: str
    nation: str = field(metadata=NATION)
    value: int | bool | str = 0


@dataclass(frozen=True)
class SetSide(Ruling):
    nation: str = field(metadata=NATION)
    side: str = "neutral"


@dataclass(frozen=True)
class SetIncome(Ruling):
    """SET INCOME OF <nation> TO <rule>: the Phase 8 income rule (full, half, quarter,
    three-quarters, fixed:N, percent:N) until lifted with `rules` (engine/neutral_income.py)."""

    nation: str = field(metadata=NATION)
    rule: str = "rules"


@dataclass(frozen=True)
class ChangeUnits(Ruling):
    """ADD, REMOVE, DAMAGE or REPAIR units of a nation at a place."""

    action: str  # "add" | "remove" | "damage" | "repair"
    units: m.Units
    nation: str = field(metadata=NATION)
    place: str = field(default="", metadata=PLACE)
    facing: str | None = field(default=None, metadata=PLACE)  # ADD of trenches: the territory they face


@dataclass(frozen=True)
class RemoveAll(Ruling):
    """REMOVE ALL [kind] OF <nation> AT <place>: every unit the nation has there (of one
    kind, if named), structures included, however many that is."""

    kind: str | None
    nation: str = field(metadata=NATION)
    place: str = field(default="", metadata=PLACE)


@dataclass(frozen=True)
class MoveUnits(Ruling):
    units: m.Units
    nation: str = field(metadata=NATION)
    origin: str = field(default="", metadata=PLACE)
    dest: str = field(default="", metadata=PLACE)


@dataclass(frozen=True)
class SetControl(Ruling):
    """CONTROL place TO nation [INCORPORATED [IN TURN n]] (incorporated from this turn, or
    since turn n: what the Phase 6 delay table counts from), or UNINCORPORATE place."""

    place: str = field(metadata=PLACE)
    nation: str | None = field(default=None, metadata=NATION)  # None: only unincorporate
    incorporated: bool = False
    since: int | None = None  # the turn of incorporation; None: the turn the ruling takes effect


@dataclass(frozen=True)
class SetWar(Ruling):
    a: str = field(metadata=NATION)
    b: str = field(metadata=NATION)
    war: bool = True


@dataclass(frozen=True)
class HandRoll(Ruling):
    """ROLL "purpose" n: a die the moderator rolled by hand, logged with the turn's dice."""

    purpose: str
    result: int


RULINGS = (SetValue, SetHeld, SetTech, SetFlag, SetSide, SetIncome, ChangeUnits, RemoveAll, MoveUnits, SetControl, SetWar, HandRoll)


@lru_cache(maxsize=1)
def grammar() -> Lark:
    return Lark.open(GRAMMAR.name, rel_to=str(GRAMMAR), parser="lalr", propagate_positions=True,
                     maybe_placeholders=True)


class RulingBuilder(Builder):
    """Parse trees of grammar/rulings.lark -> Ruling orders (names stay as typed)."""

    def ruling(self, tree: Tree) -> Ruling | None:
        c: list[Any] = list(tree.children)
        kind = str(tree.data)
        out: Ruling | None
        if kind in ("set_value", "adjust_value"):
            out = SetValue(FIELDS[str(c[0]).lower()], self.name(c[1]), int(str(c[2])), kind == "adjust_value")
        elif kind in ("set_held", "adjust_held"):
            if FIELDS[str(c[0]).lower()] != "saved":
                self.error(c[0], f"only a treasury is kept apart in a territory (SAVED ... AT {self.name(c[2])}), "
                                 f"not {str(c[0]).upper()}", "syntax")
                return None
            out = SetHeld(self.name(c[1]), self.name(c[2]), int(str(c[3])), kind == "adjust_held")
        elif kind == "set_tech":
            tech = v.tech_id(self.name(c[0]))
            if tech is None:
                self.error(c[0], f'"{self.name(c[0])}" is not a technology', "unknown-tech")
                return None
            out = SetTech(tech, self.name(c[1]), self.number(c[2]))
        elif kind == "set_flag":
            out = SetFlag(str(c[0]), self.name(c[1]), _flag_value(c[2].children[0]))
        elif kind == "set_side":
            side = "neutral" if fold(self.name(c[1])) == "neutral" else self.side(c[1])
            if side is None:
                return None
            out = SetSide(self.name(c[0]), side)
        elif kind == "set_income":
            out = SetIncome(self.name(c[0]), str(c[1]).lower())
        elif kind in ("add", "remove", "damage", "repair"):
            # a land radar is a unit that stands in a territory (Radar; Phase 7 rule 7): it may be added or removed too;
            # a trench may be added with the border it guards (Trenches), and goes with REMOVE ALL trench
            allowed = (*v.MOBILE, "radar") if kind in ("add", "remove") else v.MOBILE
            facing = self.name(c[3]) if kind == "add" and c[3] is not None else None
            units = self.units(c[0], (*allowed, *TRENCHES) if kind == "add" else allowed)
            if kind == "add" and self.trenches_face(c, units, facing):
                return None
            out = ChangeUnits(kind, units, self.name(c[1]), self.name(c[2]), facing)
        elif kind == "remove_all":
            out = RemoveAll(self.kind(c[0]), self.name(c[1]), self.name(c[2]))
        elif kind == "move":
            out = MoveUnits(self.units(c[0]), self.name(c[1]), self.name(c[2]), self.name(c[3]))
        elif kind == "control":
            since = None if c[3] is None else self.number(c[3])
            out = SetControl(self.name(c[0]), self.name(c[1]), c[2] is not None, since)
        elif kind == "unincorporate":
            out = SetControl(self.name(c[0]), None, False)
        elif kind in ("war", "peace"):
            out = SetWar(self.name(c[0]), self.name(c[1]), kind == "war")
        else:  # roll
            out = HandRoll(str(c[0])[1:-1].strip(), int(str(c[1])))
        if self.failed:
            return None
        return type(out)(**{**out.__dict__, "span": self.span()})

    def trenches_face(self, c: list[Any], units: m.Units, facing: str | None) -> bool:
        """ADD: trenches come with FACING and other units without (Trenches: "he must
        designate the territory it will protect and also ... which territory it will be
        facing"); True (and the error told) when the ruling has it wrong."""
        trenches = [uc for uc in units if uc.kind in TRENCHES]
        if trenches and facing is None:
            self.error(c[0], f"a trench guards one border: ADD {echo_units(units)} OF {self.name(c[1])} AT "
                             f"{self.name(c[2])} FACING <the neighbour it faces>", "syntax")
        elif facing is not None and len(trenches) != len(units):
            self.error(c[3], "FACING is for trenches alone: add the other units with a ruling of their own", "syntax")
        return self.failed

    def kind(self, node: Tree | None) -> str | None:
        """The unit kind of REMOVE ALL <kind> (None: every kind)."""
        if node is None:
            return None
        typed = " ".join(str(w) for w in node.children)
        kind = v.unit_kind(typed)
        if kind is None:
            self.error(node, f'"{typed}" is not a unit type. Use inf, art, tank, aa, rkt, ftr, bmb, bb, dd, tr, '
                             "cv, ss, trench, industry or port.", "unknown-unit")
        return kind


def _flag_value(token: Token) -> int | bool | str:
    text = str(token)
    if token.type == "STRING":
        return text[1:-1]
    if text.lower() in ("true", "yes"):
        return True
    if text.lower() in ("false", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def parse_rulings(text: str) -> ParseResult:
    """A rulings file or command line, one ruling per line. Never raises."""
    result = ParseResult()
    for piece in pieces(text):
        try:
            tree = grammar().parse(piece.text)
        except LarkError:
            result.diagnostics.append(Diagnostic(
                ERROR, piece.line, piece.column, piece.text,
                'this ruling could not be read; rulings read like "SET SAVED OF France TO 40", '
                '"ADD 2 inf OF Germany AT Berlin" or "CONTROL Warsaw TO Germany"; a name holding TO, AT, IN, '
                'BY or FROM goes in "quotes" (see docs/moderating.md)',
                "syntax"))
            continue
        builder = RulingBuilder(piece)
        ruling = builder.ruling(tree)
        result.diagnostics.extend(builder.diagnostics)
        if ruling is not None:
            result.orders.append(ruling)
    return result


def normalize_ruling(r: m.Order) -> str:
    """The canonical text of a ruling; parse_rulings() reads it back to the same ruling."""
    if isinstance(r, SetValue):
        word = FIELD_WORDS[r.value_field]
        if r.relative:
            return f"ADJUST {word} OF {quoted(r.nation)} BY {r.value:+d}"
        return f"SET {word} OF {quoted(r.nation)} TO {r.value}"
    if isinstance(r, SetHeld):
        if r.relative:
            return f"ADJUST SAVED OF {quoted(r.nation)} AT {quoted(r.place)} BY {r.value:+d}"
        return f"SET SAVED OF {quoted(r.nation)} AT {quoted(r.place)} TO {r.value}"
    if isinstance(r, SetTech):
        return f"SET TECH {quoted(v.TECHNOLOGIES[r.tech][0])} OF {quoted(r.nation)} TO {r.level}"
    if isinstance(r, SetFlag):
        value = r.value if isinstance(r.value, int) else f'"{r.value}"'
        value = str(r.value).lower() if isinstance(r.value, bool) else value
        return f"SET FLAG {r.key} OF {quoted(r.nation)} TO {value}"
    if isinstance(r, SetSide):
        return f"SET SIDE OF {quoted(r.nation)} TO {r.side}"
    if isinstance(r, SetIncome):
        return f"SET INCOME OF {quoted(r.nation)} TO {r.rule}"
    if isinstance(r, ChangeUnits):
        facing = f" FACING {quoted(r.facing)}" if r.facing is not None else ""
        return f"{r.action.upper()} {echo_units(r.units)} OF {quoted(r.nation)} AT {quoted(r.place)}{facing}"
    if isinstance(r, RemoveAll):
        kind = f" {v.UNIT_ECHO[r.kind]}" if r.kind else ""
        return f"REMOVE ALL{kind} OF {quoted(r.nation)} AT {quoted(r.place)}"
    if isinstance(r, MoveUnits):
        return f"MOVE {echo_units(r.units)} OF {quoted(r.nation)} FROM {quoted(r.origin)} TO {quoted(r.dest)}"
    if isinstance(r, SetControl):
        if r.nation is None:
            return f"UNINCORPORATE {quoted(r.place)}"
        since = f" IN TURN {r.since}" if r.incorporated and r.since is not None else ""
        return f"CONTROL {quoted(r.place)} TO {quoted(r.nation)}" + (" INCORPORATED" if r.incorporated else "") + since
    if isinstance(r, SetWar):
        return f"{'WAR' if r.war else 'PEACE'} {quoted(r.a)} AND {quoted(r.b)}"
    if isinstance(r, HandRoll):
        return f'ROLL "{r.purpose}" {r.result}'
    raise TypeError(f"not a ruling: {r!r}")


def normalize_rulings(rulings: list[m.Order]) -> str:
    return "".join(normalize_ruling(r) + "\n" for r in rulings)
