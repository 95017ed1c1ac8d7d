"""Building outgoing mail: plain text with an HTML alternative, inline images, attachments.

Structure (the usual shape mail clients render best):

    multipart/mixed                  - only when there are attachments
      multipart/alternative
        text/plain                   - the full content; what robots and plain readers see
        multipart/related            - only when there are inline images
          text/html                  - refers to images as <img src="cid:...">
          image/png (Content-ID)
      application/... attachments

Everything that varies comes in as an argument - the Date too - so the same
inputs give the same message except for the Message-ID, which must be unique.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import format_datetime, make_msgid

# RFC 3834 5: "auto-replied" for a response to a message (receipts, error replies),
# "auto-generated" for a message sent on the robot's own initiative (turn reports).
AUTO_REPLIED = "auto-replied"
AUTO_GENERATED = "auto-generated"

_REPLY_PREFIX = re.compile(r"^\s*(re|aw|sv|antw)\s*:", re.IGNORECASE)


@dataclass(frozen=True)
class InlineImage:
    """An image shown inside the HTML part; put `src` into <img src="...">."""

    content_id: str  # without angle brackets, e.g. "map.1a2b3c@moderator.local"
    data: bytes
    subtype: str = "png"
    filename: str | None = None

    @property
    def src(self) -> str:
        return f"cid:{self.content_id}"


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes
    maintype: str = "application"
    subtype: str = "octet-stream"
    content_id: str | None = None  # without angle brackets: a cid: link in the HTML part may open it


class _SubjectFolding(EmailPolicy):
    """The standard policy, except that a long Subject is folded between its words with its
    first word on the "Subject:" line.

    The standard library's folder sometimes moves a whole subject to the next line
    ("Subject:" CRLF " The War to End All Wars: ... (g): turn 1 report"), and readers then
    unfold it with a leading space (Python's own parser does). Each line we write is at most
    78 characters, so the send, which folds again only lines longer than that, keeps ours."""

    def fold(self, name: str, value: str) -> str:
        return _fold_subject(name, value, self.linesep) or super().fold(name, value)

    def fold_binary(self, name: str, value: str) -> bytes:
        folded = _fold_subject(name, value, self.linesep)
        return folded.encode("ascii") if folded else super().fold_binary(name, value)


def _fold_subject(name: str, value: str, linesep: str) -> str:
    """`Subject: words` folded at spaces into lines of at most 78 characters, or "" to leave
    it to the standard folder (not the subject; not plain ASCII; a double space or a word
    too long for one line, which folding at spaces would change)."""
    text = str(value)
    if name.lower() != "subject" or not text.isascii() or not text.isprintable() or "  " in text \
            or text != text.strip() or any(len(word) > 70 for word in text.split(" ")):
        return ""
    lines = textwrap.wrap(text, width=78, initial_indent=f"{name}: ", subsequent_indent=" ",
                          break_long_words=False, break_on_hyphens=False)
    return linesep.join(lines) + linesep


_POLICY = _SubjectFolding()


def inline_image(name: str, data: bytes, domain: str, subtype: str = "png") -> InlineImage:
    """An InlineImage whose Content-ID is derived from its bytes, so it is deterministic and
    distinct for distinct images (RFC 2392 wants it globally unique, like a Message-ID)."""
    safe = re.sub(r"[^A-Za-z0-9.-]", "-", name) or "image"
    digest = hashlib.sha256(data).hexdigest()[:16]
    return InlineImage(f"{safe}.{digest}@{domain}", data, subtype, f"{safe}.{subtype}")


def reply_subject(subject: str) -> str:
    """'Re: ' + subject, without stacking prefixes."""
    return subject if _REPLY_PREFIX.match(subject) else f"Re: {subject}".rstrip()


def compose(
    *,
    sender: str,
    to: Sequence[str],
    subject: str,
    text: str,
    date: datetime,
    domain: str,
    html: str | None = None,
    images: Sequence[InlineImage] = (),
    attachments: Sequence[Attachment] = (),
    cc: Sequence[str] = (),
    reply_to: str | None = None,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str | None = None,
    message_id: str | None = None,
) -> EmailMessage:
    """One ready-to-send message. `date` is passed in (callers pass "now") for reproducibility.

    When replying, pass the original's Message-ID as `in_reply_to` and its References as
    `references`; the new References is theirs plus the parent (RFC 5322 3.6.4).
    """
    if images and html is None:
        raise ValueError("inline images need an HTML part that refers to them (cid:...)")
    message = EmailMessage(policy=_POLICY)
    _set_headers(message, sender, to, cc, subject, date, reply_to)
    message["Message-ID"] = message_id or make_msgid(domain=domain)
    if in_reply_to:
        message["In-Reply-To"] = in_reply_to
        message["References"] = " ".join([*(r for r in references if r != in_reply_to), in_reply_to])
    if auto_submitted:
        message["Auto-Submitted"] = auto_submitted
    message.set_content(text, cte=_transfer_encoding(text))
    if html is not None:
        message.add_alternative(html, subtype="html", cte=_transfer_encoding(html))
        html_part = message.get_body(preferencelist=("html",))
        assert isinstance(html_part, EmailMessage)
        for image in images:
            html_part.add_related(
                image.data, maintype="image", subtype=image.subtype, cid=f"<{image.content_id}>",
                disposition="inline", filename=image.filename,
            )
    for item in attachments:
        message.add_attachment(item.data, maintype=item.maintype, subtype=item.subtype, filename=item.filename,
                               cid=f"<{item.content_id}>" if item.content_id else None)
    return message


def _set_headers(
    message: EmailMessage, sender: str, to: Sequence[str], cc: Sequence[str], subject: str,
    date: datetime, reply_to: str | None,
) -> None:
    if not to:
        raise ValueError("a message needs at least one recipient")
    message["From"] = sender
    message["To"] = ", ".join(to)
    if cc:
        message["Cc"] = ", ".join(cc)
    if reply_to:
        message["Reply-To"] = reply_to
    message["Subject"] = subject
    message["Date"] = format_datetime(date if date.tzinfo else date.replace(tzinfo=UTC))


def _transfer_encoding(body: str) -> str:
    """Quoted-printable keeps order text readable on the wire and safe for long lines;
    7bit when it is plain short-lined ASCII."""
    if body.isascii() and all(len(line) <= 900 for line in body.splitlines()):
        return "7bit"
    return "quoted-printable"


@dataclass(frozen=True)
class Composed:
    """An outgoing mail as the outbox keeps it: its bytes and the headers it is listed by."""

    raw: bytes
    to: str
    subject: str
    message_id: str


def compose_raw(
    *,
    sender: str,
    to: Sequence[str],
    subject: str,
    text: str,
    html: str,
    date: datetime,
    domain: str,
    in_reply_to: str | None = None,
    references: Sequence[str] = (),
    auto_submitted: str | None = None,
    message_id: str | None = None,
    parts: Alternative | None = None,
) -> Composed:
    """bytes(compose(...)) of a plain text mail with its HTML alternative (every receipt and
    reply), written straight as bytes when nothing in it needs the standard library's header
    objects: plain addresses, header lines that need no encoding and no folding (the Subject
    folded at spaces as _SubjectFolding does). That is every receipt of an ASCII subject; the
    same bytes as compose() writes but for the random boundary (tests/test_mail_compose.py
    holds them equal), at a fraction of the cost: building and flattening an EmailMessage was
    about a fifth of the CPU an order mail costs. Anything else goes through compose().
    `parts`: alternative(text, html) made ahead (by a read-ahead worker), used if it is of
    this text and HTML."""
    message_id = message_id or make_msgid(domain=domain)
    if parts is None or parts.text != text or parts.html != html:
        parts = None
    fast = _written_directly(sender, to, subject, text, html, date, message_id, in_reply_to, references,
                             auto_submitted, parts)
    if fast is not None:
        return Composed(fast, ", ".join(to), subject, message_id)
    message = compose(sender=sender, to=to, subject=subject, text=text, html=html, date=date, domain=domain,
                      in_reply_to=in_reply_to, references=references, auto_submitted=auto_submitted,
                      message_id=message_id)
    return Composed(bytes(message), str(message["To"]), str(message["Subject"]), str(message["Message-ID"]))


_PLAIN_ADDRESS = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+\Z")
_PLAIN_ID = re.compile(r"<[!-;=?-~]+>\Z")  # printable ASCII without spaces and angle brackets inside
_MAX_LINE = 78  # the policy's max_line_length: a longer header line the standard library would fold


def _written_directly(sender: str, to: Sequence[str], subject: str, text: str, html: str, date: datetime,
                      message_id: str, in_reply_to: str | None, references: Sequence[str],
                      auto_submitted: str | None, parts: Alternative | None = None) -> bytes | None:
    """The message's bytes, or None if a header needs the standard library's encoding or folding."""
    if not to or not all(_PLAIN_ADDRESS.match(a) for a in (sender, *to)):
        return None
    ids = [message_id, *([in_reply_to] if in_reply_to else []), *references]
    if not all(_PLAIN_ID.match(i) for i in ids):
        return None
    folded_subject = _fold_subject("Subject", subject, "\n")
    if not folded_subject:
        return None
    headers = [f"From: {sender}", f"To: {', '.join(to)}"]
    head = [*headers, folded_subject.rstrip("\n"),
            f"Date: {format_datetime(date if date.tzinfo else date.replace(tzinfo=UTC))}",
            f"Message-ID: {message_id}"]
    if in_reply_to:
        head += [f"In-Reply-To: {in_reply_to}",
                 f"References: {' '.join([*(r for r in references if r != in_reply_to), in_reply_to])}"]
    if auto_submitted:
        if not (auto_submitted.isascii() and auto_submitted.isprintable()):
            return None
        head.append(f"Auto-Submitted: {auto_submitted}")
    if any(len(line) > _MAX_LINE for line in head if not line.startswith("Subject:")):
        return None
    return "\n".join([*head, (parts or alternative(text, html)).encoded]).encode("ascii")


@dataclass(frozen=True)
class Alternative:
    """A text and its HTML alternative as compose_raw writes them after the message's own
    headers (MIME-Version on): the costly part of a receipt's bytes, which depends on the two
    bodies alone, so a read-ahead worker can write it (service/read_ahead.py)."""

    text: str
    html: str
    encoded: str


def alternative(text: str, html: str) -> Alternative:
    plain_cte, plain = _encoded_text(text)
    html_cte, html_body = _encoded_text(html)
    boundary = _boundary(plain + html_body)
    lines = ["MIME-Version: 1.0", "Content-Type: multipart/alternative;", f' boundary="{boundary}"', "",
             f"--{boundary}", 'Content-Type: text/plain; charset="utf-8"', f"Content-Transfer-Encoding: {plain_cte}",
             "", plain, f"--{boundary}", 'Content-Type: text/html; charset="utf-8"',
             f"Content-Transfer-Encoding: {html_cte}", "MIME-Version: 1.0", "", html_body, f"--{boundary}--", ""]
    return Alternative(text, html, "\n".join(lines))


def _encoded_text(body: str) -> tuple[str, str]:
    """A text part's transfer encoding and encoded body, as EmailMessage.set_content writes
    them (email.contentmanager): lines joined by newlines, quoted-printable when needed."""
    from email import quoprimime

    cte = _transfer_encoding(body)
    joined = b"\n".join(body.encode("utf-8").splitlines()) + b"\n"
    if cte == "7bit":
        return cte, joined.decode("ascii")
    return cte, quoprimime.body_encode(joined.decode("latin-1"), _MAX_LINE)


def _boundary(bodies: str) -> str:
    """A multipart boundary in the standard library's form that no body line can be taken for.
    Its digits come from a digest of the bodies, not from chance (RFC 2046 5.1.1 asks only
    that it occur in none of them): the same bodies get the same bytes wherever they are
    written, in a read-ahead worker or in the daemon's thread."""
    import sys

    width = len(repr(sys.maxsize - 1))
    for salt in itertools.count():
        digest = hashlib.sha256(f"{salt}:{bodies}".encode()).digest()
        boundary = "=" * 15 + f"{int.from_bytes(digest[:8], 'big') % sys.maxsize:0{width}d}" + "=="
        if f"--{boundary}" not in bodies:
            return boundary
    raise AssertionError("unreachable")
