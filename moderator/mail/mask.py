"""Seat passwords out of what is kept: the stored raw mail and the submission text.

A stored copy of an order mail is for audit and redelivery, not for reading passwords
back: whoever can read the database (a backup, a support copy) must not be able to give
orders for a seat. So once a message is handled, the value of every PASSWORD (or SECRET)
line is replaced by MASK, in the raw bytes (lines written as they are, and text parts in
any other encoding and HTML parts, decoded, masked and encoded again) and in the
extracted text.
The SHA-256 of the bytes as they arrived stays on the row (MailMessage.sha256), so the
stored copy can still be matched to the original. Never raises: a message that cannot be
re-encoded keeps the masked literal lines only.
"""

from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from moderator.mail.extract import decode_text, too_complex

MASK = "********"
# A password line of the orders grammar (grammar/orders.lark: PASSWORD [":"] REST), also
# inside HTML ("<div>PASSWORD pw</div>"), where the value ends at the next tag.
_TEXT = re.compile(r"(?i)\b(password|secret)([ \t]*:?[ \t]*)([^\s<>]+(?:[ \t]+[^\s<>]+)*)")
_BYTES = re.compile(rb"(?im)^([ \t]*(?:password|secret)[ \t]*:?[ \t]*)(\S[^\r\n]*?)([ \t]*\r?$)")


def mask_text(text: str) -> str:
    """`text` with the value of every PASSWORD/SECRET line replaced by MASK."""
    return _TEXT.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}" if m.group(3) != MASK else m.group(0), text)


def mask_raw(raw: bytes) -> bytes:
    """The message with its seat passwords masked (see the module docstring)."""
    masked = _BYTES.sub(lambda m: m.group(1) + MASK.encode() + m.group(3), raw)
    if too_complex(raw):
        return masked  # hostile structure: not parsed here either (its orders were not read)
    if not _maybe_hidden(masked):
        return masked  # every text is written as it is, and no password is left in it
    try:
        return _mask_encoded_parts(masked)
    except Exception:  # noqa: BLE001 - hostile or broken MIME: the literal lines are masked already
        return masked


def secrets_in(raw: bytes) -> set[str]:
    """The values of a message's PASSWORD/SECRET lines, in its raw lines and, where they may
    hide, in its text parts decoded as the orders are read: what a mail set aside unhandled
    is checked against before it is masked (service/inbox.py _seal)."""
    found = {m.group(2).decode("utf-8", "replace").strip() for m in _BYTES.finditer(raw)}
    if not too_complex(raw) and _maybe_hidden(raw):
        try:
            for part in BytesParser(policy=policy.default).parsebytes(raw).walk():
                if not part.is_multipart() and part.get_content_maintype() == "text":
                    assert isinstance(part, EmailMessage)
                    found |= {m.group(3).strip() for m in _TEXT.finditer(decode_text(part, []))}
        except Exception:  # noqa: BLE001 - hostile or broken MIME: the raw lines only
            pass
    return found - {MASK, ""}


# What can hide a password from the byte pattern: an encoded part (base64, quoted-printable),
# a text in a character set that is not ASCII-compatible (declared, or marked by a byte-order
# mark), or a password inside a line (HTML).
_HIDING = (b"base64", b"quoted-printable", b"utf-16", b"utf-32", b"utf-7", b"\xff\xfe", b"\xfe\xff")


def _maybe_hidden(masked: bytes) -> bool:
    """Whether a password may be left in `masked` that only parsing the MIME parts finds:
    most order mail is plain text and needs no second parse (extract() did one)."""
    low = masked.lower()
    if any(mark in low for mark in _HIDING):
        return True
    text = masked.decode("latin-1")
    return mask_text(text) != text


def _mask_encoded_parts(raw: bytes) -> bytes:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    changed = False
    for part in message.walk():
        if part.is_multipart() or part.get_content_maintype() != "text":
            continue
        assert isinstance(part, EmailMessage)
        content = decode_text(part, [])  # as the orders were read: a UTF-16 attachment too
        if mask_text(content) == content:
            continue  # nothing left to mask (the byte pattern above did the plain lines)
        cte = str(part.get("Content-Transfer-Encoding", "")).lower()
        part.set_content(mask_text(content), subtype=part.get_content_subtype(), charset="utf-8",
                         cte=cte if cte in ("base64", "quoted-printable") else "quoted-printable",
                         disposition=part.get_content_disposition(), filename=part.get_filename())
        changed = True
    return bytes(message) if changed else raw
