"""Composing outgoing mail: structure, headers for replies and robots (RFC 3834, RFC 5322)."""

from __future__ import annotations

import email
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage

import pytest

from moderator.mail.compose import AUTO_REPLIED, Attachment, compose, inline_image, reply_subject
from moderator.mail.extract import extract

WHEN = datetime(1914, 8, 1, 12, 0, tzinfo=UTC)


def _roundtrip(message: EmailMessage) -> EmailMessage:
    parsed = email.message_from_bytes(message.as_bytes(), policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    return parsed


def test_plain_only_message_headers() -> None:
    message = compose(sender="Moderator <m@demo.local>", to=["france@demo.local"], subject="Receipt",
                      text="Orders received.", date=WHEN, domain="demo.local", message_id="<fixed@demo.local>")
    parsed = _roundtrip(message)
    assert parsed.get_content_type() == "text/plain"
    assert parsed["Date"] == "Sat, 01 Aug 1914 12:00:00 +0000"
    assert parsed["Message-ID"] == "<fixed@demo.local>" and "Auto-Submitted" not in parsed
    assert parsed.get_content().strip() == "Orders received."


def test_generated_message_ids_use_the_domain_and_differ() -> None:
    ids = {compose(sender="m@demo.local", to=["f@demo.local"], subject="s", text="t", date=WHEN,
                   domain="game.example")["Message-ID"] for _ in range(3)}
    assert len(ids) == 3 and all(i.endswith("@game.example>") for i in ids)


def test_receipt_reply_threads_and_marks_auto_replied() -> None:
    message = compose(
        sender="m@demo.local", to=["france@demo.local"], subject=reply_subject("Orders"), text="Received.",
        date=WHEN, domain="demo.local", in_reply_to="<o2@demo.local>",
        references=["<r1@demo.local>", "<o2@demo.local>"], auto_submitted=AUTO_REPLIED,
    )
    parsed = _roundtrip(message)
    assert parsed["Subject"] == "Re: Orders"
    assert parsed["In-Reply-To"] == "<o2@demo.local>"
    assert parsed["References"] == "<r1@demo.local> <o2@demo.local>"
    # Our own receipts must be recognised as robot mail by our own intake (no loops).
    assert extract(message.as_bytes()).auto_submitted is True


@pytest.mark.parametrize(("subject", "expected"), [("Orders", "Re: Orders"), ("Re: Orders", "Re: Orders"),
                                                   ("AW: Befehle", "AW: Befehle"), ("", "Re:")])
def test_reply_subject(subject: str, expected: str) -> None:
    assert reply_subject(subject) == expected


def test_html_with_inline_image_and_attachment_structure() -> None:
    image = inline_image("map 1914", b"\x89PNG fake", "demo.local")
    assert image.content_id == inline_image("map 1914", b"\x89PNG fake", "demo.local").content_id
    assert image.content_id != inline_image("map 1914", b"\x89PNG other", "demo.local").content_id
    message = compose(
        sender="m@demo.local", to=["f@demo.local"], subject="Report", text="Armée française",
        html=f'<p>Armée</p><img src="{image.src}">', images=[image],
        attachments=[Attachment("state.json", b"{}", "application", "json")], date=WHEN, domain="demo.local",
    )
    parsed = _roundtrip(message)
    shape = [part.get_content_type() for part in parsed.walk()]
    assert shape == ["multipart/mixed", "multipart/alternative", "text/plain", "multipart/related",
                     "text/html", "image/png", "application/json"]
    png = next(p for p in parsed.walk() if p.get_content_type() == "image/png")
    assert png["Content-ID"] == f"<{image.content_id}>" and png.get_content() == b"\x89PNG fake"
    assert png.get_content_disposition() == "inline"
    plain = parsed.get_body(preferencelist=("plain",))
    assert plain is not None and plain.get_content().strip() == "Armée française"


def test_images_without_html_is_an_error() -> None:
    with pytest.raises(ValueError, match="HTML"):
        compose(sender="m@d", to=["f@d"], subject="s", text="t", date=WHEN, domain="d",
                images=[inline_image("map", b"x", "d")])


# ---- long subjects: folded between words, read back as written ------------------------------
REPORT_SUBJECTS = [
    "The War to End All Wars: August 1914 (g): turn 1 report for German Empire",
    "CORRECTION: The War to End All Wars: August 1914 (g): turn 1 status of the Central Powers",
    "Not accepted: Re: Re: " + "word " * 30 + "end",
    "Ünïcode " + "ab " * 40 + "x",
    "A" * 90,
]


def _as_sent(message: EmailMessage) -> bytes:
    """What the send puts on the wire: the stored bytes parsed, then written by aiosmtplib."""
    from email.parser import BytesParser

    from aiosmtplib.email import flatten_message

    stored = BytesParser(policy=policy.default).parsebytes(bytes(message))
    assert isinstance(stored, EmailMessage)
    return flatten_message(stored)


@pytest.mark.parametrize("subject", REPORT_SUBJECTS)
def test_a_long_subject_reads_back_without_a_leading_space(subject: str) -> None:
    message = compose(sender="m@demo.local", to=["k@demo.local"], subject=subject, text="t", html="<p>t</p>",
                      date=WHEN, domain="demo.local")
    for raw in (bytes(message), _as_sent(message)):
        head = raw.split(b"\n\n")[0].split(b"\r\n\r\n")[0]
        assert not any(line.rstrip(b"\r").endswith(b"Subject:") for line in head.splitlines()), head
        assert all(len(line.rstrip(b"\r")) <= 78 for line in head.splitlines()
                   if not line.startswith(b"Message-ID")), head
        assert str(email.message_from_bytes(raw, policy=policy.default)["Subject"]) == subject
        assert extract(raw).subject == " ".join(subject.split())


# ---- receipts written straight as bytes: the same bytes as compose() -----------------------
RECEIPT_TEXTS = [
    "Receipt for Germany, turn 1\n\nMOVE 2 inf FROM Ruhr TO Cologne\n",
    "Armée française: 2 ordres\r\nune ligne\rune autre\n" + "x" * 120 + "\n",
    "no newline at the end",
    "",
    "a line of exactly seventy-six characters, and then some more text to go over\n" + "=" * 80,
    "--===============0000000000000000001==\nlooks like a boundary\n",
    "ASCII but one line over nine hundred: " + "y" * 900,
]


def _normalized(raw: bytes) -> bytes:
    import re

    boundary = re.search(rb'boundary="([^"]+)"', raw)
    assert boundary is not None
    return raw.replace(boundary.group(1), b"BOUNDARY")


@pytest.mark.parametrize("text", RECEIPT_TEXTS)
@pytest.mark.parametrize(("subject", "to", "in_reply_to", "references", "direct"), [
    ("Re: Orders", ["k@demo.local"], "<o2@demo.local>", ["<r1@demo.local>", "<o2@demo.local>"], True),
    ("Receipt: German Empire, turn 1 (5 orders, 0 errors)", ["k@demo.local", "seat@demo.local"], None, [], True),
    (REPORT_SUBJECTS[2], ["k@demo.local"], "<bench-7@t.local>", [], True),
    ("Ünïcode subject", ["k@demo.local"], None, [], False),  # encoded: compose()'s own path
    ("Re: x", ["Kaiser <k@demo.local>"], None, [], False),  # a display name: compose()'s own path
    ("Re: x", ["k@demo.local"], "<a b@c>", [], False),  # an odd Message-ID: compose()'s own path
    ("Re: x", ["k@demo.local"], "<x@y>", ["<" + "r" * 80 + "@demo.local>"], False),  # folded References
])
def test_compose_raw_writes_the_same_bytes_as_compose(text: str, subject: str, to: list[str], in_reply_to: str | None,
                                                       references: list[str], direct: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The receipts' usual case is written straight (compose() is not called), and its bytes
    are compose()'s but for the random boundary; anything else is compose()'s own."""
    import moderator.mail.compose as composing
    from moderator.mail.compose import compose_raw

    called: list[str] = []
    monkeypatch.setattr(composing, "compose", lambda **kw: called.append("compose") or compose(**kw))

    html = f"<p>{text}</p>"
    args = {"sender": "moderator@demo.local", "to": to, "subject": subject, "text": text, "html": html,
            "date": WHEN, "domain": "demo.local", "in_reply_to": in_reply_to, "references": references,
            "auto_submitted": AUTO_REPLIED, "message_id": "<fixed@demo.local>"}
    composed = compose_raw(**args)  # type: ignore[arg-type]
    assert called == ([] if direct else ["compose"])
    standard = compose(**args)  # type: ignore[arg-type]
    assert _normalized(composed.raw) == _normalized(bytes(standard))
    assert (composed.to, composed.subject, composed.message_id) == (str(standard["To"]), str(standard["Subject"]),
                                                                    "<fixed@demo.local>")
    parsed = email.message_from_bytes(composed.raw, policy=policy.default)
    plain, rich = parsed.get_body(("plain",)), parsed.get_body(("html",))
    assert plain is not None and rich is not None
    assert plain.get_content() == "\n".join(text.splitlines()) + "\n"  # type: ignore[attr-defined]
    assert rich.get_content() == "\n".join(html.splitlines()) + "\n"  # type: ignore[attr-defined]


def test_compose_raw_never_writes_a_newline_into_a_header() -> None:
    """A header with a line break is never written straight: compose() refuses it, as before."""
    from moderator.mail.compose import compose_raw

    for subject, in_reply_to in (("Re: x\nBcc: victim@demo.local", None), ("Re: x", "<a@b>\nBcc: victim@demo.local")):
        with pytest.raises(ValueError, match="linefeed"):
            compose_raw(sender="m@demo.local", to=["k@demo.local"], subject=subject, text="t", html="<p>t</p>",
                        date=WHEN, domain="demo.local", in_reply_to=in_reply_to)


def test_compose_raw_writes_the_same_bytes_for_the_same_mail_and_takes_parts_made_ahead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The boundary comes from the bodies, so the same mail is the same bytes wherever it is
    written (a read-ahead worker writes the parts, the daemon's thread the headers); parts
    made for another text or HTML are not used; a body holding the boundary its digest gives
    gets another one."""
    from moderator.mail.compose import _boundary, alternative, compose_raw

    args = {"sender": "moderator@demo.local", "to": ["k@demo.local"], "subject": "Re: Orders", "text": "MOVE 1\n",
            "html": "<p>MOVE 1</p>", "date": WHEN, "domain": "demo.local", "message_id": "<fixed@demo.local>"}
    first = compose_raw(**args)  # type: ignore[arg-type]
    assert compose_raw(**args).raw == first.raw  # type: ignore[arg-type]
    assert compose_raw(**args, parts=alternative("MOVE 1\n", "<p>MOVE 1</p>")).raw == first.raw  # type: ignore[arg-type]
    other = alternative("MOVE 2\n", "<p>MOVE 2</p>")
    assert compose_raw(**args, parts=other).raw == first.raw  # type: ignore[arg-type]
    assert first.raw.endswith(alternative("MOVE 1\n", "<p>MOVE 1</p>").encoded.encode())
    import hashlib

    import moderator.mail.compose as composing

    class FirstDrawFixed:  # every body's first boundary the same: the one in the body below
        @staticmethod
        def sha256(data: bytes) -> object:
            return hashlib.sha256(b"fixed" if data.startswith(b"0:") else data)

    monkeypatch.setattr(composing, "hashlib", FirstDrawFixed)
    taken = _boundary("x")
    assert _boundary("y") == taken
    assert _boundary(f"y\n--{taken}\n") != taken
