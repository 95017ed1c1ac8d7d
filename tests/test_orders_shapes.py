"""Order lines read from the shape of a line met before (moderator/orders/shapes.py) give
lark's own tree, token for token and position for position, or are left to lark: on every
line of the orders and resolution catalogs and of the parser's examples, and on a fuzz of
lines built from their words, keywords, numbers and words that begin with a keyword
(issue 11, CPU per mail)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from lark import Token, Tree
from lark.exceptions import LarkError

from moderator.orders import parser as p
from moderator.orders import shapes
from moderator.orders.clean import pieces

CATALOGS = Path(__file__).parent / "catalog"
_TOKEN_ATTRS = ("type", "value", "start_pos", "line", "column", "end_line", "end_column", "end_pos")


def _lark(text: str) -> Tree | None:
    try:
        return p.grammar().parse(text)
    except LarkError:
        return None


def _same(made: Any, real: Any) -> bool:
    """The same tree: the same classes, data, children, every meta attribute and every
    token's type, text and positions."""
    if type(made) is not type(real):
        return False
    if real is None:
        return True
    if isinstance(real, Token):
        return str(made) == str(real) and all(getattr(made, a) == getattr(real, a) for a in _TOKEN_ATTRS)
    return (type(made.data) is type(real.data) and made.data == real.data and vars(made.meta) == vars(real.meta)
            and len(made.children) == len(real.children)
            and all(_same(a, b) for a, b in zip(made.children, real.children, strict=True)))


def _lines() -> list[str]:
    """Every order line of the catalogs (as the parser gets them, cut by clean.pieces) and
    of the parser's examples of each order word."""
    found: list[str] = []
    for case in sorted(CATALOGS.glob("*/*.txt")):
        text = case.read_text(encoding="utf-8")
        body = text.split("=== expect")[0]
        found.extend(piece.text for piece in pieces(body))
    for example in p.EXAMPLES.values():
        found.extend(part.strip() for part in re.split(r"\s{2,}(?:or|then)\s{2,}", example))
    return sorted(set(found))


LINES = _lines()


def _fuzz(rng: random.Random, count: int) -> list[str]:
    words = sorted({w for line in LINES for w in line.split()})
    plain = [w for w in words if re.fullmatch(r"[A-Za-z0-9]+", w)]
    extra = ["to", "TO", "Tobruk", "inf", "in", "infantry", "at", "Athens", "on", "Onega", "x", "3", "12", "007",
             "note", "notes", "password", "passwords", "secret", "full", "fullwar", "war", "and", "Jammu",
             "withdraw", "if", "after", "rounds", "the", "of", "from", "into", "FROM", "From", "move", "moved",
             "Kashmir", "Serbia", "Berlin", "Ruhr", "a", "tf", "TF", "x2", "2x", "3x", "inf2"]
    pool = plain + extra
    lines = []
    for _ in range(count):
        base = rng.choice(LINES).split()
        how = rng.random()
        if how < 0.4 and base:  # a word replaced
            base[rng.randrange(len(base))] = rng.choice(pool)
        elif how < 0.6 and base:  # a word dropped or doubled
            i = rng.randrange(len(base))
            base[i:i + 1] = [] if rng.random() < 0.5 else [base[i], base[i]]
        elif how < 0.8:  # words of other lines
            base = [rng.choice(pool) for _ in range(rng.randint(1, 9))]
        else:  # case changed, spaces and tabs between
            base = [w.upper() if rng.random() < 0.3 else w.lower() if rng.random() < 0.3 else w for w in base]
        gaps = [rng.choice([" ", " ", "  ", "\t"]) for _ in base]
        lines.append("".join(w + g for w, g in zip(base, gaps, strict=True)).strip(" \t"))
    return [line for line in lines if line]


def _check(lines: list[str]) -> tuple[int, int]:
    """Learn each line's shape from lark where lark reads it, then read every line again from
    the shapes learnt: each tree made must be lark's. Returns (lines made from a shape, lines)."""
    seen = shapes.Shapes(p.grammar())
    for line in lines:
        tree = _lark(line)
        if tree is not None:
            seen.learn(line, tree)
    made = 0
    for line in lines:
        tree = seen.read(line)
        if tree is None:
            continue
        made += 1
        real = _lark(line)
        assert real is not None, f"made a tree where lark finds an error: {line!r}"
        assert _same(tree, real), f"not lark's tree: {line!r}\n{tree!r}\n{real!r}"
    return made, len(lines)


def test_every_catalog_line_read_from_its_shape_is_larks_tree() -> None:
    made, count = _check(LINES)
    assert count > 400 and made > count // 3, (made, count)  # most plain order lines have a shape


@pytest.mark.parametrize("seed", range(4))
def test_a_fuzz_of_lines_read_from_their_shapes_gives_larks_trees(seed: int) -> None:
    made, count = _check(_fuzz(random.Random(seed), 3000))
    assert made > 200, (made, count)


def test_lines_that_only_look_alike_are_left_to_lark() -> None:
    seen = shapes.Shapes(p.grammar())
    for line in ("OPTION 3 fullwar", "NOTES hello", "PASSWORDx secret", "MOVE 2 inf FROM Ruhr TO Cologne"):
        tree = _lark(line)
        assert tree is not None
        seen.learn(line, tree)
    # A word not beginning with a keyword is not read where lark reads a keyword's start
    # ("OPTION 3 Serbia" is an error: no WORD after the number), and the lines whose tree
    # is not made of whole words were not kept at all.
    assert seen.read("OPTION 3 Serbia") is None and _lark("OPTION 3 Serbia") is None
    assert seen.read("NOTES hello") is None and seen.read("PASSWORDx secret") is None
    assert _same(seen.read("move 12 inf from Berlin to Posen"), _lark("move 12 inf from Berlin to Posen"))
    assert seen.read("MOVE 2 inf, 1 art FROM Ruhr TO Cologne") is None  # a comma: lark's
    assert len(seen.recipes) == 2  # OPTION 3 fullwar and the MOVE


def test_no_part_of_a_secret_is_kept() -> None:
    seen = shapes.Shapes(p.grammar())
    for line in ("PASSWORD tomato", "SECRET Tobruk2 x", "PASSWORDtomato", "pasword tomato"):
        tree = _lark(line)
        if tree is not None:
            seen.learn(line, tree)
    kept = repr(seen.recipes).lower()
    assert "tomato" not in kept and "tobruk" not in kept
    assert _same(seen.read("password hunter"), _lark("password hunter"))


def test_the_parser_reads_the_same_with_and_without_shapes(monkeypatch: pytest.MonkeyPatch) -> None:
    """parse_orders of every catalog mail: the same header, orders and diagnostics when its
    lines are read from shapes as when lark reads each."""
    bodies = [case.read_text(encoding="utf-8").split("=== expect")[0] for case in sorted(CATALOGS.glob("*/*.txt"))]
    monkeypatch.setattr(p, "_kept", {})
    with_shapes = [p.parse_orders(body) for body in bodies * 2]  # the second time from the shapes learnt
    monkeypatch.setattr(p, "READ_SHAPES", False)
    monkeypatch.setattr(p, "_kept", {})
    assert [p.parse_orders(body) for body in bodies * 2] == with_shapes
