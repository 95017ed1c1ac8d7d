"""Removing what a player did not write for this turn: quoted replies, signatures, list footers.

Players answer the moderator's mail, so their orders often arrive above (or
between) quoted copies of the last report, followed by a signature. Feeding
those to the order parser would produce a flood of bogus errors, so they are
cut here. The cuts are conservative: a line is only dropped when it is clearly
quoted (starts with ">"), or everything after a clear marker is dropped.
"""

from __future__ import annotations

import re

# "On Mon, 3 Aug 1914 at 10:00, Kaiser <k@x.de> wrote:" and the common translations.
_ATTRIBUTION = re.compile(
    r"^\s*(on\b.*\bwrote|le\b.*\ba\s+écrit|am\b.*\bschrieb.*|el\b.*\bescribió|il\b.*\bha\s+scritto|"
    r"op\b.*\bschreef.*)\s*:?\s*$",
    re.IGNORECASE,
)
_ATTRIBUTION_START = re.compile(r"^\s*(on|le|am|el|il|op)\s", re.IGNORECASE)
# Other attributions, also only when a quoted block follows: "Moderator <m@x> wrote:" (many
# clients' short form), "Quoting Moderator <m@x>:" (Horde), mutt's "* Moderator <m@x> [1914-08-03 10:00]:".
_OTHER_ATTRIBUTION = re.compile(
    r"^\s*(.*\b(wrote|writes|schrieb|a\s+écrit|escribió|scrive|ha\s+scritto|schreef)|quoting\b.*|"
    r"\*\s.*\[\d{2,4}-\d\d-\d\d[^\]]*\])\s*:\s*$", re.IGNORECASE)
# Outlook and friends put the original below an unquoted header block.
_ORIGINAL_MARKER = re.compile(
    r"^\s*(-{2,}\s*(original message|forwarded message|ursprüngliche nachricht|message d'origine)\s*-{2,})\s*$",
    re.IGNORECASE,
)
_RULE = re.compile(r"^\s*([_\-=*~])\1{4,}\s*$")
_HEADER_LINE = re.compile(r"^\s*(from|von|de|sent|date|to|subject)\s*:", re.IGNORECASE)
# The header block Outlook (desktop and web) writes above the original, with no rule left
# once its HTML is turned into text: "From: ...", then Sent/Date, To, Cc, Subject lines.
_BLOCK_FROM = re.compile(r"^\s*\*?(from|von|de|da|van)\*?\s*:\s*\S", re.IGNORECASE)
_BLOCK_FIELD = re.compile(
    r"^\s*\*?(sent|date|to|cc|subject|gesendet|datum|an|betreff|envoyé|date\s+d'envoi|à|objet|"
    r"enviado|para|asunto|inviato|oggetto|verzonden|aan|onderwerp)\*?\s*:", re.IGNORECASE)
_LIST_BOILERPLATE = re.compile(
    r"mailing list|unsubscribe|listinfo|list-?info|you received this message|"
    r"to post to this group|manage your subscription|mailman|googlegroups|groups\.io",
    re.IGNORECASE,
)
_FOOTER_WINDOW = 8


def strip_replies(text: str) -> str:
    """`text` without quoted lines, attribution lines, signature and list footer."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    lines = _cut_signature(lines)
    lines = _cut_footer_or_forwarded(lines)
    lines = _drop_quotes(lines)
    return _tidy(lines)


def _cut_signature(lines: list[str]) -> list[str]:
    """Signature: everything after the "-- " separator line (RFC 3676 4.3). Many clients
    drop the trailing space, so a bare "--" counts too."""
    for index, line in enumerate(lines):
        if line in ("-- ", "--"):
            return lines[:index]
    return lines


def _cut_footer_or_forwarded(lines: list[str]) -> list[str]:
    for index, line in enumerate(lines):
        if _ORIGINAL_MARKER.match(line) or _header_block_at(lines, index):
            return lines[:index]
        if _RULE.match(line):
            following = [item for item in lines[index + 1 : index + 1 + _FOOTER_WINDOW] if item.strip()]
            if following and _HEADER_LINE.match(following[0]):
                return lines[:index]  # Outlook: a rule, then From:/Sent:/To: of the original
            if any(_LIST_BOILERPLATE.search(item) for item in following):
                return lines[:index]
    return lines


def _header_block_at(lines: list[str], index: int) -> bool:
    """A quoted original's header block starts at `index`: a From: line and, among the next
    four lines with text, at least two of Sent/Date, To, Cc, Subject (in the major languages)."""
    if not _BLOCK_FROM.match(lines[index]):
        return False
    following = [item for item in lines[index + 1 : index + 1 + _FOOTER_WINDOW] if item.strip()][:4]
    return sum(1 for item in following if _BLOCK_FIELD.match(item)) >= 2


def _drop_quotes(lines: list[str]) -> list[str]:
    if not any(map(_is_quoted, lines)):
        # Nothing quoted: no attribution either (one counts only above a quoted block). Most
        # order mails are so: no pattern tried on every line (issue 11, for every mail).
        return list(lines)
    kept: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if _is_quoted(line):
            index += 1
            continue
        attribution_length = _attribution_length(lines, index)
        if attribution_length:
            index += attribution_length
            continue
        kept.append(line)
        index += 1
    return kept


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _attribution_length(lines: list[str], index: int) -> int:
    """1 or 2 if an "On ... wrote:" attribution (possibly wrapped over two lines) starts at
    `index` AND is followed by a quoted block; 0 otherwise. Requiring the quoted block keeps
    an order line that happens to start with "On" safe."""
    for length in (1, 2):
        candidate = " ".join(item.strip() for item in lines[index : index + length])
        if length == 2 and not _ATTRIBUTION_START.match(lines[index]):
            break
        if _ATTRIBUTION.match(candidate) and _quote_follows(lines, index + length):
            return length
    if _OTHER_ATTRIBUTION.match(lines[index]) and _quote_follows(lines, index + 1):
        return 1
    return 0


def _quote_follows(lines: list[str], start: int) -> bool:
    for line in lines[start:]:
        if line.strip():
            return _is_quoted(line)
    return False


def _tidy(lines: list[str]) -> str:
    out: list[str] = []
    for line in (item.rstrip() for item in lines):
        if not line and out and not out[-1]:
            continue
        out.append(line)
    return "\n".join(out).strip("\n")
