"""Text extraction from received mail: a catalog of the shapes players' mail arrives in."""

from __future__ import annotations

import base64
import quopri
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.mail.extract import extract
from moderator.mail.htmltext import html_to_text
from moderator.mail.quotes import strip_replies

ORDERS = "Army Paris to Burgundy\nFleet Brest holds"


def _mail(body: bytes, content_type: str = "text/plain; charset=utf-8", cte: str = "7bit", extra: str = "") -> bytes:
    head = (
        "From: Raymond Poincare <Poincare@Demo.Local>\r\nTo: moderator@demo.local\r\n"
        "Subject: Orders\r\nDate: Sat, 01 Aug 1914 12:00:00 +0000\r\nMessage-ID: <o1@demo.local>\r\n"
        f"MIME-Version: 1.0\r\nContent-Type: {content_type}\r\nContent-Transfer-Encoding: {cte}\r\n{extra}\r\n"
    )
    return head.encode() + body


def test_plain_text_headers_and_body() -> None:
    got = extract(_mail(ORDERS.replace("\n", "\r\n").encode() + b"\r\n"))
    assert got.text == ORDERS
    assert got.sender == "poincare@demo.local" and got.sender_display == "Raymond Poincare"
    assert got.subject == "Orders" and got.message_id == "<o1@demo.local>"
    assert got.date == "Sat, 01 Aug 1914 12:00:00 +0000"
    assert got.auto_submitted is False and got.problems == () and got.body_source == "plain"


def test_html_only_keeps_line_breaks_and_drops_scripts() -> None:
    html = (
        "<html><head><style>p{color:red}</style><title>x</title></head><body>"
        "<div>Army Paris to&nbsp;Burgundy</div><p>Fleet   Brest\n holds</p>"
        "<ul><li>Army Kiel holds</li><li>Fleet Kiel to Baltic</li></ul>Line one<br>Line two"
        "<script>alert(1)</script></body></html>"
    )
    got = extract(_mail(html.encode(), "text/html; charset=utf-8"))
    assert got.text.split("\n") == [
        "Army Paris to Burgundy", "Fleet Brest holds", "Army Kiel holds", "Fleet Kiel to Baltic",
        "Line one", "Line two",
    ]
    assert got.body_source == "html" and got.problems == ()


def test_html_blockquote_reply_is_stripped() -> None:
    html = (
        "<div>Army Paris holds</div><div>On Fri, 31 Jul 1914, Moderator wrote:</div>"
        "<blockquote><p>Turn 1 report</p><p>Germany declared war</p></blockquote>"
    )
    assert html_to_text(html).split("\n")[-1].startswith("> ")
    assert extract(_mail(html.encode(), "text/html")).text == "Army Paris holds"


def test_multipart_alternative_prefers_plain() -> None:
    message = EmailMessage()
    message["From"] = "france@demo.local"
    message["Subject"] = "Orders"
    message.set_content(ORDERS)
    message.add_alternative("<p>something else entirely</p>", subtype="html")
    assert extract(message.as_bytes()).text == ORDERS


def test_empty_plain_part_falls_back_to_html() -> None:
    message = EmailMessage()
    message["From"] = "france@demo.local"
    message.set_content("\n\n")
    message.add_alternative("<p>Army Paris holds</p>", subtype="html")
    got = extract(message.as_bytes())
    assert got.text == "Army Paris holds" and got.body_source == "html"


def test_attachments_are_not_read_as_orders() -> None:
    message = EmailMessage()
    message["From"] = "france@demo.local"
    message.set_content(ORDERS)
    message.add_attachment("Army Paris to Berlin", filename="old.txt")
    assert extract(message.as_bytes()).text == ORDERS


def test_quoted_printable_utf8() -> None:
    text = "Armée Paris → Bourgogne, a line long enough that quoted-printable must wrap it with a soft break " * 2
    body = quopri.encodestring(text.encode("utf-8"))
    got = extract(_mail(body, cte="quoted-printable"))
    assert got.text == text.strip()


def test_base64_utf8() -> None:
    body = base64.encodebytes("Armée Paris → Bourgogne\nFlotte Brest tient".encode())
    assert extract(_mail(body, cte="base64")).text == "Armée Paris → Bourgogne\nFlotte Brest tient"


def test_latin1_charset() -> None:
    body = "Armée de Lyon à Marseille".encode("latin-1")
    assert extract(_mail(body, "text/plain; charset=iso-8859-1", "8bit")).text == "Armée de Lyon à Marseille"


def test_unknown_charset_falls_back_and_says_so() -> None:
    body = "Armée".encode("latin-1")
    got = extract(_mail(body, "text/plain; charset=x-no-such-charset", "8bit"))
    assert got.text == "Armée"
    assert any("character set" in problem for problem in got.problems)


def test_unlabelled_utf8_is_read_as_utf8() -> None:
    assert extract(_mail("Armée".encode(), "text/plain", "8bit")).text == "Armée"


def test_encoded_subject_and_display_name() -> None:
    extra = "X-Dummy: 1\r\n"
    raw = _mail(b"x", extra=extra).replace(
        b"Subject: Orders", b"Subject: =?utf-8?q?Ordres_d=C3=A9finitifs?="
    ).replace(b"Raymond Poincare", b"=?iso-8859-1?q?Raymond_Poincar=E9?=")
    got = extract(raw)
    assert got.subject == "Ordres définitifs" and got.sender_display == "Raymond Poincaré"


REPLY_CASES = {
    "quoted lines": f"{ORDERS}\n\n> Turn 1 report\n> Germany declared war\n",
    "top-posted attribution": f"{ORDERS}\n\nOn Fri, 31 Jul 1914 at 10:00, Moderator <m@demo.local> wrote:\n> report\n>> older\n",
    "wrapped attribution": f"{ORDERS}\n\nOn Fri, 31 Jul 1914 at 10:00, Moderator\n<m@demo.local> wrote:\n\n> report\n",
    "french attribution": f"{ORDERS}\n\nLe ven. 31 juil. 1914, Moderateur a écrit :\n> rapport\n",
    "interleaved": "> Your orders?\nArmy Paris to Burgundy\n> And the fleet?\nFleet Brest holds\n",
    "signature": f"{ORDERS}\n-- \nRaymond Poincare\nPresident of the Republic\n",
    "signature without space": f"{ORDERS}\n--\nR.P.\n",
    "list footer": f"{ORDERS}\n\n_______________________________________________\nwwi-game mailing list\nhttps://lists.example.org/listinfo/wwi-game\n",
    "google groups footer": f"{ORDERS}\n\n--------------------\nYou received this message because you are subscribed to the group.\n",
    "outlook original": f"{ORDERS}\n\n-----Original Message-----\nFrom: Moderator\nSubject: Turn 1\n\nTurn 1 report\n",
    "outlook rule": f"{ORDERS}\n\n________________________________\nFrom: Moderator <m@demo.local>\nSent: Friday\n\nTurn 1 report\n",
}


@pytest.mark.parametrize("body", REPLY_CASES.values(), ids=REPLY_CASES.keys())
def test_replies_signatures_and_footers_are_stripped(body: str) -> None:
    assert extract(_mail(body.replace("\n", "\r\n").encode())).text == ORDERS


def test_on_line_without_quote_is_kept() -> None:
    """An order line starting with "On" is not an attribution unless a quote follows."""
    text = "On turn 3: Army Paris holds\nsomething he wrote:\nFleet Brest holds"
    assert strip_replies(text) == text


def test_rule_without_boilerplate_is_kept() -> None:
    text = "Army Paris holds\n-----\nFleet Brest holds"
    assert strip_replies(text) == text


def test_only_quotes_is_a_problem() -> None:
    got = extract(_mail(b"> just the report\r\n> nothing else\r\n"))
    assert got.text == "" and any("no text of its own" in p for p in got.problems)


AUTO_CASES = {
    "auto-submitted": "Auto-Submitted: auto-replied\r\n",
    "auto-generated with params": "Auto-Submitted: auto-generated; owner-email=x@y\r\n",
    "precedence bulk": "Precedence: bulk\r\n",
    "precedence list": "Precedence: list\r\n",
    "list-id": "List-Id: <wwi.lists.example.org>\r\n",
    "null return path": "Return-Path: <>\r\n",
    "x-autoreply": "X-Autoreply: yes\r\n",
}


@pytest.mark.parametrize("extra", AUTO_CASES.values(), ids=AUTO_CASES.keys())
def test_auto_submitted_detection(extra: str) -> None:
    assert extract(_mail(b"I am out of the office\r\n", extra=extra)).auto_submitted is True


@pytest.mark.parametrize("sender", ["MAILER-DAEMON@demo.local", "postmaster@demo.local"])
def test_robot_senders_are_auto(sender: str) -> None:
    raw = _mail(b"Delivery failed\r\n").replace(b"Poincare@Demo.Local", sender.encode())
    assert extract(raw).auto_submitted is True


def test_human_mail_is_not_auto() -> None:
    extra = "Auto-Submitted: no\r\nReturn-Path: <poincare@demo.local>\r\nPrecedence: normal\r\n"
    assert extract(_mail(b"orders\r\n", extra=extra)).auto_submitted is False


def test_delivery_report_is_auto() -> None:
    raw = _mail(b"--b\r\nContent-Type: text/plain\r\n\r\nfailed\r\n--b--\r\n",
                'multipart/report; report-type=delivery-status; boundary="b"')
    assert extract(raw).auto_submitted is True


def test_reply_headers() -> None:
    extra = "In-Reply-To: <report3@demo.local>\r\nReferences: <report1@demo.local>\r\n <report3@demo.local>\r\n"
    got = extract(_mail(b"x\r\n", extra=extra))
    assert got.in_reply_to == "<report3@demo.local>"
    assert got.references == ("<report1@demo.local>", "<report3@demo.local>")


def test_missing_from_is_a_problem() -> None:
    got = extract(b"Subject: hi\r\n\r\nArmy Paris holds\r\n")
    assert got.sender == "" and any("From" in p for p in got.problems)
    assert got.text == "Army Paris holds"


def test_non_text_message_is_a_problem() -> None:
    got = extract(_mail(base64.encodebytes(b"\x89PNG"), "image/png", "base64"))
    assert got.text == "" and got.body_source == "none"
    assert any("no text part" in p for p in got.problems)


@pytest.mark.parametrize("raw", [b"", b"\x00\xff\xfe", b"From: <<<@@@>>>\r\n\r\n", b"Content-Type: multipart/mixed\r\n\r\n--"])
def test_garbage_examples(raw: bytes) -> None:
    got = extract(raw)
    assert not any(p.startswith("internal error") for p in got.problems)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_extract_never_raises_on_random_bytes(raw: bytes) -> None:
    got = extract(raw)
    assert isinstance(got.text, str)
    assert not any(p.startswith("internal error") for p in got.problems)


HEADER_NAMES = st.sampled_from(
    ["From", "Subject", "Content-Type", "Content-Transfer-Encoding", "Auto-Submitted", "References",
     "Message-ID", "Return-Path", "Precedence", "In-Reply-To"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(HEADER_NAMES, st.text(max_size=60)), max_size=8), st.text(max_size=500))
def test_extract_never_raises_on_hostile_headers(headers: list[tuple[str, str]], body: str) -> None:
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    got = extract((head + "\r\n" + body).encode("utf-8", "surrogatepass"))
    assert not any(p.startswith("internal error") for p in got.problems)
