"""From the raw bytes of one received mail to what the service needs: who, about what, and the text.

extract() never raises: mail is written by every program under the sun, and one
broken message must not stop a poll. Whatever could not be understood is
listed in `problems` (in words a player can read in a reply), and the caller
decides whether to answer, quarantine or ignore.

Where the orders are: the body (its own words, quotes and signature cut), or - when the
body has no GAME or NATION line ("my orders are attached") - the first text/plain
attachment or forwarded message (message/rfc822) that has one, in whatever character set
it declares or its byte-order mark says (UTF-16 included).

Hostile mail is read in bounded time: a message with more MIME parts or multipart levels
than any mail client writes (MAX_PARTS, MAX_MULTIPARTS, counted on the bytes before
parsing) is not parsed beyond its header and is `refused`; a header value longer than
MAX_HEADER_VALUE is read as its first characters only (the standard library's header
parser takes seconds on a 64 KB address list); a From naming several addresses, or two
From headers, is ambiguous and gives no sender. Header text never keeps a line break, so
nothing a sender encodes into a header can reach the headers of our replies.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses
from functools import lru_cache
from typing import Any

from moderator.mail.htmltext import html_to_text
from moderator.mail.quotes import strip_replies

_ROBOT_LOCAL_PARTS = frozenset({"mailer-daemon", "postmaster"})
_MSG_ID = re.compile(r"<[^<>\s]+>")
# A header line of the orders grammar (grammar/orders.lark: GAME / NATION, colon optional):
# what tells a text that holds orders from one that does not.
_ORDERS_HEADER = re.compile(r"(?im)^[ \t]*(game|nation)\b[ \t]*:?[ \t]*\S")
FORWARD_DEPTH = 3  # a forwarded message inside a forwarded message ... read this deep, no deeper
MAX_PARTS = 200  # MIME parts in one message; clients write a handful, a digest of forwards a few dozen
MAX_MULTIPARTS = 40  # multipart containers (so also how deep they nest)
MAX_HEADER_VALUE = 4000  # characters of one header that are read (RFC 5322 lines end at 998)
_PART_HEADER = re.compile(rb"(?im)^content-type[ \t]*:")
_BOUNDARY = re.compile(rb"(?i)\bboundary[ \t]*=")
_ANGLE_ADDRESS = re.compile(r"<[^<>]*@[^<>]*>")


@dataclass(frozen=True)
class ExtractedMessage:
    message_id: str | None  # with angle brackets, as in the header
    sender: str  # the From address, lower-cased ("" when missing or unreadable)
    sender_display: str  # the display name, "" when none
    subject: str
    date: str | None  # the Date header text; the store keeps its own receipt time
    in_reply_to: str | None
    references: tuple[str, ...]
    text: str  # the player's own words: quotes, signature and footers removed
    auto_submitted: bool  # sent by a robot: never answer it (RFC 3834 2)
    problems: tuple[str, ...]
    # Why the message was not read at all (too many parts), for the reply; "" when it was.
    refused: str = ""
    body_source: str = "plain"  # "plain", "html" (converted), "attachment", "forwarded" or "none"


def extract(raw: bytes) -> ExtractedMessage:
    """Parse `raw` (RFC 5322 bytes). Never raises."""
    try:
        return _extract(raw)
    except Exception as exc:  # noqa: BLE001 - last line of defence, see module docstring
        return ExtractedMessage(
            None, "", "", "", None, None, (), "", False, (f"internal error: the message could not be read ({exc!r})",)
        )


# The MIME structure headers, parsed by the header registry once per distinct value. The
# standard library parses a header anew each time it is read, and reads Content-Type three
# times while it parses a message and again for every get_content_type(), get_param() and
# charset: for an everyday order mail that was a third of extract()'s time (issue 11, CPU
# per mail), spent parsing the same few values ("text/plain; charset=utf-8", "7bit") over
# and over. The header objects are read, never changed; only short values are kept, so
# hostile mail cannot fill the cache.
_STRUCTURE_HEADERS = frozenset({"content-type", "content-transfer-encoding", "content-disposition", "mime-version"})
_KEPT_VALUE = 200
_structure_header = lru_cache(maxsize=256)(policy.default.header_fetch_parse)


class _ReadingPolicy(policy.EmailPolicy):
    """policy.default, with the structure headers' parses kept (_structure_header)."""

    def header_fetch_parse(self, name: str, value: str) -> Any:
        if (isinstance(value, str) and not hasattr(value, "name") and len(value) <= _KEPT_VALUE
                and name.lower() in _STRUCTURE_HEADERS):
            return _structure_header(name, value)
        return super().header_fetch_parse(name, value)


_READING = _ReadingPolicy()


def _extract(raw: bytes) -> ExtractedMessage:
    problems: list[str] = []
    refused = too_complex(raw)
    message = BytesParser(policy=_READING).parsebytes(raw, headersonly=bool(refused))
    assert isinstance(message, EmailMessage)
    sender, display = _sender(message, problems)
    body, is_html = _body_text(message, problems) if not refused else ("", False)
    text = strip_replies(body)
    source = "html" if is_html else ("plain" if body else "none")
    if refused:
        problems.append(refused)
    elif not _ORDERS_HEADER.search(text):
        for kind, attached in _attached_texts(message, problems, FORWARD_DEPTH):
            own = strip_replies(attached)
            if _ORDERS_HEADER.search(own):  # "orders attached": the body's words, then the orders
                text, source = f"{text}\n\n{own}".strip("\n"), kind
                break
    if not text.strip():
        problems.append("the message contains no text of its own (after removing quotes and signature)")
    return ExtractedMessage(
        message_id=_first_msg_id(_header(message, "Message-ID")),
        sender=sender,
        sender_display=display,
        subject=_header(message, "Subject") or "",
        date=_header(message, "Date"),
        in_reply_to=_first_msg_id(_header(message, "In-Reply-To")),
        references=tuple(_MSG_ID.findall(_header(message, "References") or "")),
        text=text,
        auto_submitted=is_auto_submitted(message, sender),
        problems=tuple(problems),
        refused=refused,
        body_source=source,
    )


def too_complex(raw: bytes) -> str:
    """Why `raw` has more structure than any real mail (and parsing it would take the worker
    for seconds), or ""."""
    parts = len(_PART_HEADER.findall(raw))
    if parts > MAX_PARTS:
        return f"the message has {parts} MIME parts; the moderator reads mail of up to {MAX_PARTS}"
    containers = len(_BOUNDARY.findall(raw))
    if containers > MAX_MULTIPARTS:
        return (f"the message has {containers} nested or repeated multipart sections; the moderator reads mail "
                f"of up to {MAX_MULTIPARTS}")
    return ""


def _header(message: Message, name: str) -> str | None:
    """A header as text on one line, or None. Malformed headers fall back to their raw
    value; one longer than MAX_HEADER_VALUE is its first characters, undecoded."""
    raw = _raw_values(message, name)
    if not raw:
        return None
    if len(raw[0]) > MAX_HEADER_VALUE:
        value: object = raw[0][:MAX_HEADER_VALUE]
    elif (plain := _plain_value(name, raw[0])) is not None:
        return plain
    else:
        try:
            value = message.get(name)
        except Exception:  # noqa: BLE001 - the header parser rejects some garbage
            value = raw[0]
    if value is None:
        return None
    return " ".join(str(value).split())


# Headers the standard library reads as unstructured text: their value is the raw one when it
# holds no encoded word (RFC 2047 "=?"). The message's own id and a plain From address also
# read back as written. For those, _header skips the header registry's parser, a third of
# extract()'s time for an everyday order mail; tests/test_mail_extract.py holds both equal.
_UNSTRUCTURED = frozenset({"subject", "in-reply-to", "references", "return-path", "auto-submitted", "precedence",
                           "list-id", "x-autoreply", "x-autorespond"})
_PLAIN_MSG_ID = re.compile(r"<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.@-]+>")
_PLAIN_FROM = re.compile(r"(?:[A-Za-z0-9]+(?: [A-Za-z0-9]+)* <[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+>"
                         r"|[A-Za-z0-9._+-]+@[A-Za-z0-9.-]+)")
_FOLDING = re.compile(r"\r?\n(?=[ \t])")


def _plain_value(name: str, raw: str) -> str | None:
    """`raw` as _header would read it through the header registry, when that is plainly the
    raw text (printable ASCII without encoded words), else None."""
    unfolded = _FOLDING.sub("", raw)
    if not unfolded.isascii() or not unfolded.replace("\t", " ").isprintable() or "=?" in unfolded:
        return None
    key = name.lower()
    if key in _UNSTRUCTURED:
        return " ".join(unfolded.split())
    if key == "message-id" and _PLAIN_MSG_ID.fullmatch(unfolded.strip()):
        return unfolded.strip()
    if key == "from" and _PLAIN_FROM.fullmatch(unfolded.strip()):
        return unfolded.strip()
    return None


def _raw_values(message: Message, name: str) -> list[str]:
    return [str(v) for k, v in message.raw_items() if k.lower() == name.lower()]


_HEADER_END = re.compile(rb"\r?\n\r?\n")
_PLAIN_MSG_ID_LINE = re.compile(rb"(?im)^message-id:[ \t]*(<[A-Za-z0-9!#$%&'*+/=?^_`{|}~.@-]+>)[ \t]*\r?$")


def message_id_of(raw: bytes) -> str:
    """The Message-ID of a raw message, read from its header block only, exactly as
    extract() reads it (or "" if it has none): what the store keys a copy by when it
    stores the message, before anything else is read. A plain one-line header is found
    by a pattern; anything else (folded, encoded, two of them) goes through the parser."""
    end = _HEADER_END.search(raw)
    head = raw[:end.end()] if end else raw
    plain = _PLAIN_MSG_ID_LINE.findall(head)
    if len(plain) == 1 and head.lower().count(b"message-id") == 1:
        return plain[0].decode("ascii")
    message = BytesParser(policy=policy.default).parsebytes(head, headersonly=True)
    return _first_msg_id(_header(message, "Message-ID")) or ""


def _first_msg_id(value: str | None) -> str | None:
    if not value:
        return None
    found = _MSG_ID.search(value)
    return found.group(0) if found else value.strip() or None


def _sender(message: Message, problems: list[str]) -> tuple[str, str]:
    value = _header(message, "From")
    if not value:
        problems.append("the message has no From address")
        return "", ""
    pairs = [(name, address) for name, address in getaddresses([value]) if "@" in address]
    if not pairs:
        problems.append(f"the From header {value[:200]!r} holds no usable address")
        return "", ""
    raw = _raw_values(message, "From")
    if (len({address.strip().lower() for _, address in pairs}) > 1 or len(raw) > 1
            or len({a.lower() for a in _ANGLE_ADDRESS.findall(raw[0] if raw else "")}) > 1):
        # Whose orders would these be? Answering any one of them could answer a forger.
        problems.append("the From header is ambiguous: it names several addresses")
        return "", ""
    name, address = pairs[0]
    return address.strip().lower(), name.strip()


def is_auto_submitted(message: Message, sender: str) -> bool:
    """True when a robot sent this and answering it could start a mail loop (RFC 3834 2, 5)."""
    auto = (_header(message, "Auto-Submitted") or "no").split(";")[0].strip().lower()
    if auto != "no":
        return True
    if (_header(message, "Precedence") or "").strip().lower() in ("bulk", "junk", "list"):
        return True
    if any(name.lower().startswith("list-") for name in message.keys()):
        return True  # a mailing list's mail: List-Id (RFC 2919), List-Post, List-Unsubscribe, ... (RFC 2369)
    if _header(message, "X-Autoreply") or _header(message, "X-Autorespond"):
        return True
    if sender.partition("@")[0] in _ROBOT_LOCAL_PARTS:
        return True
    if (_header(message, "Return-Path") or "").replace(" ", "") == "<>":
        return True  # null reverse-path: a bounce or other notification (RFC 5321 4.5.5)
    return _content_type(message) == "multipart/report"  # delivery status notices (RFC 6522)


def _body_text(message: EmailMessage, problems: list[str]) -> tuple[str, bool]:
    """The best body as text and whether it came from HTML. Prefers text/plain (the
    multipart/alternative rule: the plain part is what the writer meant in every client)."""
    plain = _first_part(message, "plain")
    if plain is not None:
        text = decode_text(plain, problems)
        if text.strip():
            return text, False
    html = _first_part(message, "html")
    if html is not None:
        return html_to_text(decode_text(html, problems)), True
    if plain is None:
        problems.append(f"the message has no text part (it is {_content_type(message)})")
    return "", False


def _first_part(message: EmailMessage, subtype: str) -> EmailMessage | None:
    """The first text/<subtype> part that is not an attachment, depth first, not looking
    inside forwarded messages (their text is not the writer's: _attached_texts)."""
    for part in _parts(message):
        if _content_type(part) != f"text/{subtype}" or _is_attachment(part):
            continue
        return part
    return None


def _parts(message: EmailMessage) -> list[EmailMessage]:
    """The leaf parts of `message` and its forwarded messages (not their insides), in order."""
    found: list[EmailMessage] = []
    stack: list[EmailMessage] = [message]
    while stack:
        part = stack.pop()
        if _content_type(part) == "message/rfc822" or not part.is_multipart():
            found.append(part)
            continue
        children = part.get_payload()
        if isinstance(children, list):
            stack.extend(reversed([c for c in children if isinstance(c, EmailMessage)]))
    return found


def _attached_texts(message: EmailMessage, problems: list[str], depth: int) -> list[tuple[str, str]]:
    """(kind, text) of every text/plain attachment ("attachment") and the body of every
    forwarded message ("forwarded"), in the order they appear."""
    texts: list[tuple[str, str]] = []
    for part in _parts(message):
        if _content_type(part) == "message/rfc822":
            inner = part.get_payload()
            inner = inner[0] if isinstance(inner, list) and inner else inner
            if depth > 0 and isinstance(inner, EmailMessage):
                body, _ = _body_text(inner, [])
                texts.append(("forwarded", body))
                texts.extend(_attached_texts(inner, problems, depth - 1))
        elif _content_type(part) == "text/plain" and (_is_attachment(part) or part.get_filename()):
            texts.append(("attachment", decode_text(part, problems)))
    return texts


_CONTENT_TYPE = "_moderator_content_type"  # where _content_type keeps a part's, in its __dict__


def _content_type(part: Message) -> str:
    """part.get_content_type(), read once per part: the standard library parses the
    Content-Type header through its header registry at every call (about 50 us), and one
    mail's extract() asked up to ten times for the same part (issue 11, CPU per mail). The
    parts are never changed after parsing, so the first answer stays right."""
    known = part.__dict__.get(_CONTENT_TYPE)
    if known is None:
        known = part.__dict__[_CONTENT_TYPE] = part.get_content_type()
    return str(known)


def _is_attachment(part: Message) -> bool:
    try:
        return (part.get_content_disposition() or "") == "attachment"
    except Exception:  # noqa: BLE001
        return False


def decode_text(part: Message, problems: list[str]) -> str:
    """The part's text: transfer encoding undone (base64, quoted-printable), then the charset:
    a byte-order mark first (a file saved by Notepad says UTF-16 only there), then the
    declared one, then UTF-8, then Windows-1252, never failing."""
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = _charset(part)
    for candidate in (_sniffed(payload), charset, "utf-8"):
        if candidate is None:
            continue
        try:
            return payload.decode(candidate).removeprefix("\ufeff")
        except (LookupError, UnicodeDecodeError):
            continue
    problems.append(
        f"the text is not valid in its declared character set ({charset or 'none'}); "
        "some characters may be shown wrongly"
    )
    return payload.decode("cp1252", errors="replace")


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def _sniffed(payload: bytes) -> str | None:
    """The charset the bytes themselves say: a byte-order mark, or UTF-16 without one (text
    in a Latin script has a zero byte in every other place, which no 8-bit charset has)."""
    for bom, codec in _BOMS:
        if payload.startswith(bom):
            return codec
    sample = payload[:512]
    if len(sample) >= 4 and sample.count(0) * 3 >= len(sample):
        return "utf-16-le" if sample[1::2].count(0) > sample[0::2].count(0) else "utf-16-be"
    return None


def _charset(part: Message) -> str | None:
    try:
        charset = part.get_content_charset()
    except Exception:  # noqa: BLE001
        return None
    if charset in (None, "us-ascii", "ascii"):
        # Many mailers label 8-bit text as ASCII; UTF-8 is a superset, so try it first.
        return "utf-8"
    return charset
