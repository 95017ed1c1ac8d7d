"""Cut a mail body into order lines: the tolerant front door of the parser.

The mail package already removes quotes, signatures and HTML; this does it again in a
simple way so that text pasted into `moderator check` behaves the same. Each piece
keeps its line number and the column where it starts, so diagnostics point at the
text the player typed.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_HTML = re.compile(r"<\s*(html|body|div|p|br|span|table|font)\b", re.IGNORECASE)
_BREAKS = re.compile(r"<\s*(br|/p|/div|/li|/tr|/h\d)\s*/?\s*>", re.IGNORECASE)
_TAGS = re.compile(r"<[^>]*>")
_BULLET = re.compile(r"^(\s*(?:[-*\u2022\u00b7]|\d{1,3}[.)])\s+)(?=[A-Za-z])")
_WROTE = re.compile(r"^\s*On\b.*\bwrote:\s*$", re.IGNORECASE)
_BEGIN = re.compile(r"^\s*(begin|start)(\s+(of\s+)?orders?)?\s*:?\s*$", re.IGNORECASE)
_END = re.compile(r"^\s*(end|stop)(\s+(of\s+)?orders?)?\s*\.?\s*$", re.IGNORECASE)
_PHASE = re.compile(r"^\s*\[?\s*phase\s*\d+\b[^;]*$", re.IGNORECASE)
_RAW = re.compile(r"^\s*(password|secret|game|note)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Piece:
    """One order's worth of text: `text` starts at (line, column), 1-based."""

    line: int
    column: int
    text: str


def to_plain(text: str) -> str:
    """HTML-only bodies become text; line endings and odd spaces become plain."""
    if _HTML.search(text):
        text = _TAGS.sub("", _BREAKS.sub("\n", text))
        text = html.unescape(text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\u00a0", " ").replace("\u200b", "").replace("\ufeff", "")


def _strip_comment(line: str) -> str:
    """Drop '# ...' comments; a '#' glued to a word (OPTION #3, pa#ss) is kept."""
    for i, ch in enumerate(line):
        if ch == "#" and (i == 0 or line[i - 1].isspace()):
            rest = line[i + 1 :]
            if rest[:1].isdigit():  # "OPTION #3": a number sign, not a comment
                continue
            return line[:i]
    return line


def _split_semicolons(line: str, column: int) -> list[tuple[int, str]]:
    """Several orders on one line, separated by ';' outside quotes."""
    parts: list[tuple[int, str]] = []
    start, quoted = 0, False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            parts.append((column + start, line[start:i]))
            start = i + 1
    parts.append((column + start, line[start:]))
    return parts


def _window(lines: list[str]) -> tuple[int, int]:
    """Line range to read: between BEGIN and END markers when present."""
    first, last = 0, len(lines)
    begins = [i for i, ln in enumerate(lines) if _BEGIN.match(ln)]
    if begins:
        first = begins[0] + 1
    ends = [i for i, ln in enumerate(lines) if i >= first and _END.match(ln)]
    if ends:
        last = ends[0]
    return first, last


def pieces(text: str) -> list[Piece]:
    """The order pieces of a mail body, in order."""
    lines = to_plain(text).split("\n")
    first, last = _window(lines)
    out: list[Piece] = []
    for index in range(first, last):
        raw = lines[index]
        if raw.rstrip() in ("--", "-- ", "__") or raw.startswith("-- "):
            break  # signature: nothing after it is an order
        if raw.lstrip().startswith(">") or _WROTE.match(raw) or _PHASE.match(raw):
            continue
        line = raw if _RAW.match(raw) else _strip_comment(raw)
        column = 1
        bullet = _BULLET.match(line)
        if bullet:
            column += len(bullet.group(1))
            line = line[len(bullet.group(1)) :]
        if _RAW.match(line):
            chunks = [(column, line)]
        else:
            chunks = _split_semicolons(line, column)
        for col, chunk in chunks:
            body = chunk.rstrip()
            if body.endswith(".") and not _RAW.match(body):
                body = body[:-1].rstrip()
            lead = len(body) - len(body.lstrip())
            if body.strip():
                out.append(Piece(index + 1, col + lead, body.strip()))
    return out
