"""HTML mail body to plain text, with the standard library's html.parser.

Only what order text needs: the words, line breaks where the HTML has block
boundaries (<br>, <p>, <div>, <li>, table rows, headings), and quoted material
(<blockquote>, as mail clients use for replies) turned into "> " lines so the
quote stripper treats HTML replies like plain-text ones.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BREAK_TAGS = frozenset({"br", "hr"})
_BLOCK_TAGS = frozenset(
    {"p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "section",
     "article", "header", "footer", "dd", "dt", "dl", "center", "address"}
)
_HIDDEN_TAGS = frozenset({"script", "style", "head", "title", "template"})
_SPACES = re.compile(r"[ \t\r\n\f\v\u00a0]+")


class _TextCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, str]] = []  # (blockquote depth, text)
        self._current: list[str] = []
        self._current_depth = 0
        self._quote_depth = 0
        self._hidden = 0
        self._pre = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN_TAGS:
            self._hidden += 1
        elif tag == "blockquote":
            self._break()
            self._quote_depth += 1
        elif tag in _BREAK_TAGS:
            self._break(force=True)
        elif tag in _BLOCK_TAGS:
            self._break()
            if tag == "pre":
                self._pre += 1
        elif tag == "td" and self._current:
            self._current.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BREAK_TAGS:
            self._break(force=True)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN_TAGS:
            self._hidden = max(0, self._hidden - 1)
        elif tag == "blockquote":
            self._break()
            self._quote_depth = max(0, self._quote_depth - 1)
        elif tag in _BLOCK_TAGS:
            self._break()
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._hidden:
            return
        if self._pre:
            first, *rest = data.replace("\r\n", "\n").split("\n")
            self._add(first)
            for line in rest:
                self._break(force=True)
                self._add(line)
            return
        self._add(_SPACES.sub(" ", data))

    def _add(self, text: str) -> None:
        if not text:
            return
        if not self._current:
            self._current_depth = self._quote_depth
            text = text.lstrip(" ") if not self._pre else text
        self._current.append(text)

    def _break(self, force: bool = False) -> None:
        """End the current line; `force` (for <br>) keeps an empty line as a blank line."""
        if self._current or force:
            self.lines.append((self._current_depth, "".join(self._current).rstrip()))
        self._current = []
        self._current_depth = self._quote_depth

    def close(self) -> None:
        super().close()
        self._break()


def html_to_text(html: str) -> str:
    """Readable text of an HTML body; never raises on malformed HTML."""
    collector = _TextCollector()
    collector.feed(html)
    collector.close()
    out: list[str] = []
    for depth, text in collector.lines:
        line = ("> " * depth + text).rstrip() if depth else text
        if not line and out and not out[-1]:
            continue  # one blank line is enough between blocks
        out.append(line)
    return "\n".join(out).strip("\n")
