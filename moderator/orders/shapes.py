"""Order lines of a shape met before, read without running lark again (issue 11, CPU per mail).

Most order lines are plain words: "MOVE 2 inf FROM Ruhr TO Cologne", "BUILD 1 inf AT
London", "PASSWORD pw". Lark's parse of such a line (about 0.1 ms, most of an order mail's
parse) depends on its words only through their *shape*, so the tree of a line of a shape
already parsed can be made from the tree of the first one, with this line's words and
positions. The shape of a line of plain words (ASCII letters, or digits, between spaces
and tabs; anything else, such as a comma, a colon, a quote or parentheses, is left to lark)
is, word by word:
- a number: "#" (INT; lark reads any digits alike);
- a word that is, or begins with, one of the grammar's keywords ("MOVE", "inf" (in),
  "Tobruk" (to)): the word itself, lower case, because the lexer may take the keyword
  for it, or a part of it, where the parser expects that keyword;
- any other word: "" (a WORD wherever a word may stand, an error wherever none may: the
  lexer looks no further than its first letters for a keyword, and there is none);
except that after a first word that is a free-text header (PASSWORD, SECRET, NOTE, GAME:
grammar/orders.lark, the rest of the line is one REST token whatever its words) only the
count of words is kept, so no part of a seat secret is kept in a shape.

Only shapes lark read without an error are kept, and only where every token and every
position in the tree falls on the start or end of a word (else the tree is not made of the
line's words, as "NOTES hello", read by lark as NOTE and "s hello"). The tree made is lark's
own, token for token, position for position: tests/test_orders_shapes.py compares them on
every line of the orders catalogs and a fuzz of lines built from their words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lark import Lark, Token, Tree
from lark.lexer import PatternStr
from lark.tree import Meta

LONGEST = 120  # longer lines are left to lark (and so are the shapes of hostile mail: bounded below)
MOST = 2048  # shapes kept at most; then they are forgotten and learnt again
_PLAIN = re.compile(r"[A-Za-z0-9]+(?:[ \t]+[A-Za-z0-9]+)*")
_WORD = re.compile(r"(?P<number>[0-9]++(?![a-z]))|(?P<letters>[a-z]++(?![0-9]))|(?P<mixed>[a-z0-9]+)")  # lower case
_FREE_TEXT = frozenset({"password", "secret", "note", "game"})  # header word, then REST (grammar/orders.lark)
_LINE_ATTRS = frozenset({"line", "end_line", "container_line", "container_end_line"})
_POS_ATTRS = frozenset({"start_pos", "end_pos", "container_start_pos", "container_end_pos"})
_COLUMN_ATTRS = frozenset({"column", "end_column", "container_column", "container_end_column"})

# A recipe: how to make the tree of a line of one shape (n words) from that line's values:
# where each word starts (0 to n-1) and ends (n to 2n-1), the columns of both (one more:
# 2n to 4n-1), and the constants of a meta (_CONSTANTS, from 4n). A token is ("token",
# type, first word, last word); a tree is ("tree", data, the names of its meta's attributes,
# the values' index of each, its children's recipes), a child left out (maybe_placeholders)
# None.
Recipe = Any
_CONSTANTS = (False, True, 1)  # meta.empty, and the line of everything (one line)


class Shapes:
    """The keyword test of one grammar (its string terminals) and the recipes learnt."""

    def __init__(self, parser: Lark) -> None:
        words = sorted({str(t.pattern.value).lower() for t in parser.terminals
                        if isinstance(t.pattern, PatternStr) and str(t.pattern.value)[:1].isalpha()},
                       key=len, reverse=True)
        self._keyword_start: Callable[[str, int], object] = re.compile("|".join(map(re.escape, words))).match
        self.recipes: dict[tuple[str, ...], Recipe] = {}

    def shape(self, text: str) -> tuple[tuple[str, ...], list[int], list[int]] | None:
        """The line's shape and the start and end of each word, or None if it is not plain words."""
        if len(text) > LONGEST or _PLAIN.fullmatch(text) is None:
            return None
        low, keyword_start = text.lower(), self._keyword_start
        starts: list[int] = []
        ends: list[int] = []
        key: list[str] = []
        for m in _WORD.finditer(low):
            a, b = m.span()
            starts.append(a)
            ends.append(b)
            kind = m.lastgroup
            # (a mixed word, "2inf", is "?": such shapes are not learnt)
            key.append("#" if kind == "number" else "?" if kind == "mixed" else low[a:b] if keyword_start(low, a) else "")
        if key[0] in _FREE_TEXT and len(key) > 1:
            return (key[0], str(len(key))), starts, ends
        return tuple(key), starts, ends

    def read(self, text: str) -> Tree | None:
        """Lark's tree of `text` made from the recipe of its shape, or None if none is known."""
        found = self.shape(text)
        if found is None:
            return None
        key, starts, ends = found
        recipe = self.recipes.get(key)
        if recipe is None:
            return None
        return _make(recipe, text, starts, ends, [*starts, *ends, *(p + 1 for p in starts), *(p + 1 for p in ends),
                                                  *_CONSTANTS])

    def learn(self, text: str, tree: Tree) -> None:
        """Keep the recipe of `text`'s shape from lark's tree of it, if it is made of the
        line's words (see the module's docstring)."""
        found = self.shape(text)
        if found is None:
            return
        key, starts, ends = found
        if "?" in key or (tree.data == "password" and key[0] not in _FREE_TEXT):
            return  # a mixed word; a secret that is not all of a free-text header's REST
        recipe = _recipe(tree, text, len(starts), {p: i for i, p in enumerate(starts)}
                         | {p: len(starts) + i for i, p in enumerate(ends)})
        if recipe is None:
            return
        if len(self.recipes) >= MOST:
            self.recipes.clear()
        self.recipes[key] = recipe


class _NotWords(Exception):
    """The tree holds something that is not made of whole words of the line."""


def _recipe(tree: Tree, text: str, words: int, at: dict[int, int]) -> Recipe | None:
    """The recipe of lark's `tree` of `text` (`words` words; `at`: the values' index of each
    word's start and end), or None if it is not made of whole words."""
    try:
        return _tree_recipe(tree, text, words, at)
    except _NotWords:
        return None


def _tree_recipe(tree: Tree, text: str, words: int, at: dict[int, int]) -> Recipe:
    if type(tree) is not Tree:
        raise _NotWords
    names: list[str] = []
    where: list[int] = []
    for name, value in vars(tree.meta).items():
        if type(value) is bool and name == "empty":
            where.append(4 * words + _CONSTANTS.index(value))
        elif name in _LINE_ATTRS and value == 1 and type(value) is int:
            where.append(4 * words + 2)
        elif name in _POS_ATTRS and value in at:
            where.append(at[value])
        elif name in _COLUMN_ATTRS and isinstance(value, int) and value - 1 in at:
            where.append(at[value - 1] + 2 * words)
        else:
            raise _NotWords
        names.append(name)
    children: list[Recipe] = []
    for child in tree.children:
        if child is None:
            children.append(None)
        elif isinstance(child, Token):
            children.append(_token_recipe(child, text, words, at))
        else:
            children.append(_tree_recipe(child, text, words, at))
    return ("tree", tree.data, tuple(names), tuple(where), tuple(children))


def _token_recipe(token: Token, text: str, words: int, at: dict[int, int]) -> Recipe:
    if type(token) is not Token or not isinstance(token.start_pos, int) or not isinstance(token.end_pos, int):
        raise _NotWords
    first, last = at.get(token.start_pos, words), at.get(token.end_pos, 0) - words
    if (first >= words or last < 0
            or str(token) != text[token.start_pos:token.end_pos] or token.value != str(token)
            or (token.line, token.end_line) != (1, 1)
            or (token.column, token.end_column) != (token.start_pos + 1, token.end_pos + 1)):
        raise _NotWords
    return ("token", token.type, first, last)


def _make(recipe: Recipe, text: str, starts: list[int], ends: list[int], values: list[Any]) -> Tree:
    _, data, names, where, children_recipe = recipe
    meta = Meta()
    meta.__dict__.update(zip(names, map(values.__getitem__, where), strict=True))  # (at C speed, not one step a name)
    children: list[Any] = []
    for child in children_recipe:
        if child is None:
            children.append(None)
        elif child[0] == "token":
            _, kind, first, last = child
            a, b = starts[first], ends[last]
            children.append(Token(kind, text[a:b], a, 1, a + 1, 1, b + 1, b))
        else:
            children.append(_make(child, text, starts, ends, values))
    return Tree(data, children, meta)
