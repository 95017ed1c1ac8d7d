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
    "list-unsubscribe only": "List-Unsubscribe: <mailto:leave@lists.example.org>\r\n",
    "list-post only": "List-Post: <mailto:wwi@lists.example.org>\r\n",
    "list-help in lower case": "list-help: <https://lists.example.org/help>\r\n",
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


# ---- replies as the major clients write them (issue 11): the quoted receipt is cut -------
OWN = "GAME demo\nNATION Germany\nMOVE 1 inf FROM Ruhr TO Cologne"
QUOTED = ("Orders received for German Empire, game demo, turn 1 (August 1914).\n"
          "Game demo: your orders as the moderator will read them:\nMOVE 2 inf FROM Ruhr TO Belgium")
_QHTML = QUOTED.replace("\n", "<br>")
_OWN_HTML = OWN.replace("\n", "<br>")
CLIENT_REPLIES_HTML = {
    "gmail": f'<div dir="ltr">{_OWN_HTML}</div><br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
             f'On Mon, Aug 3, 1914 at 10:00\u202fAM Moderator &lt;m@demo.local&gt; wrote:<br></div>'
             f'<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204)">'
             f'{_QHTML}</blockquote></div>',
    "outlook desktop": f'<html><body lang="EN-GB"><div class="WordSection1"><p class="MsoNormal">{_OWN_HTML}</p>'
                       f'<p class="MsoNormal">&nbsp;</p><div><div style="border:none;border-top:solid #E1E1E1 1.0pt;'
                       f'padding:3.0pt 0cm 0cm 0cm"><p class="MsoNormal"><b><span lang="EN-US">From:</span></b>'
                       f'<span lang="EN-US"> Moderator &lt;m@demo.local&gt; <br><b>Sent:</b> 03 August 1914 10:00<br>'
                       f'<b>To:</b> kaiser@demo.local<br><b>Subject:</b> Receipt: German Empire, turn 1</span></p>'
                       f'</div></div><p class="MsoNormal">{_QHTML}</p></div></body></html>',
    "outlook web": f'<div style="font-family: Calibri">{_OWN_HTML}</div><div id="appendonsend"></div>'
                   f'<hr style="display:inline-block;width:98%" tabindex="-1"><div id="divRplyFwdMsg" dir="ltr">'
                   f'<font face="Calibri, sans-serif" style="font-size:11pt"><b>From:</b> Moderator '
                   f'&lt;m@demo.local&gt;<br><b>Sent:</b> Monday, August 3, 1914 10:00 AM<br><b>To:</b> '
                   f'kaiser@demo.local<br><b>Subject:</b> Receipt</font><div>&nbsp;</div></div><div>{_QHTML}</div>',
    "outlook german": f'<p>{_OWN_HTML}</p><p><b>Von:</b> Moderator &lt;m@demo.local&gt;<br><b>Gesendet:</b> '
                      f'Montag, 3. August 1914 10:00<br><b>An:</b> kaiser@demo.local<br><b>Betreff:</b> Receipt</p>'
                      f'<p>{_QHTML}</p>',
    "apple mail": f'<html><body dir="auto">{_OWN_HTML}<br><br><div dir="ltr"><blockquote type="cite">On 3 Aug 1914, '
                  f'at 10:00, Moderator &lt;m@demo.local&gt; wrote:<br><br></blockquote></div><blockquote type="cite">'
                  f'<div dir="ltr">{_QHTML}</div></blockquote></body></html>',
    "thunderbird": f'<html><body><p>{_OWN_HTML}</p><div class="moz-cite-prefix">On 03/08/1914 10:00, Moderator '
                   f'wrote:<br></div><blockquote type="cite" cite="mid:r1@demo.local"><pre class="moz-quote-pre" '
                   f'wrap="">{QUOTED}</pre></blockquote></body></html>',
}
_QPLAIN = "\n".join("> " + line for line in QUOTED.splitlines())
CLIENT_REPLIES_PLAIN = {
    "gmail": f"{OWN}\n\nOn Mon, Aug 3, 1914 at 10:00\u202fAM Moderator <m@demo.local> wrote:\n\n{_QPLAIN}\n",
    "outlook desktop": f"{OWN}\n\nFrom: Moderator <m@demo.local>\nSent: 03 August 1914 10:00\nTo: kaiser@demo.local\n"
                       f"Subject: Receipt\n\n{QUOTED}\n",
    "outlook french": f"{OWN}\n\nDe : Moderator <m@demo.local>\nEnvoyé : lundi 3 août 1914 10:00\nÀ : kaiser@demo.local\n"
                      f"Objet : Receipt\n\n{QUOTED}\n",
    "apple mail": f"{OWN}\n\nSent from my iPhone\n\n> On 3 Aug 1914, at 10:00, Moderator <m@demo.local> wrote:\n>\n{_QPLAIN}\n",
    "thunderbird": f"{OWN}\n\nOn 03/08/1914 10:00, Moderator wrote:\n{_QPLAIN}\n",
    "mutt": f"{OWN}\n\n* Moderator <m@demo.local> [1914-08-03 10:00:00 +0000]:\n{_QPLAIN}\n",
    "mutt default": f"{OWN}\n\nOn Mon, Aug 03, 1914 at 10:00:00AM +0000, Moderator wrote:\n{_QPLAIN}\n",
    "short form": f"{OWN}\n\nModerator <m@demo.local> wrote:\n{_QPLAIN}\n",
}


@pytest.mark.parametrize("html", CLIENT_REPLIES_HTML.values(), ids=CLIENT_REPLIES_HTML.keys())
def test_html_replies_of_every_major_client_are_cut_to_the_players_words(html: str) -> None:
    got = extract(_mail(html.encode(), "text/html; charset=utf-8", "8bit"))
    assert got.text == OWN and got.body_source == "html"


@pytest.mark.parametrize("body", CLIENT_REPLIES_PLAIN.values(), ids=CLIENT_REPLIES_PLAIN.keys())
def test_plain_replies_of_every_major_client_are_cut_to_the_players_words(body: str) -> None:
    got = extract(_mail(body.replace("\n", "\r\n").encode(), cte="8bit"))
    assert got.text in (OWN, OWN + "\n\nSent from my iPhone")  # the sign-off is talk (mail/chatter.py)


def test_an_order_line_with_a_colon_after_from_is_not_a_header_block() -> None:
    text = "From: the front\nMOVE 1 inf FROM Ruhr TO Cologne\nTo: be continued"
    assert strip_replies(text) == text


# ---- orders where players put them ---------------------------------------------------------
def _with_attachment(body: str, data: bytes, content_type: str = "text/plain", **params: str) -> bytes:
    message = EmailMessage()
    message["From"], message["Subject"] = "kaiser@demo.local", "Orders"
    message.set_content(body)
    maintype, subtype = content_type.split("/")
    message.add_attachment(data, maintype=maintype, subtype=subtype, filename="orders.txt", params=params)
    return bytes(message)


@pytest.mark.parametrize("data", [OWN.encode("utf-16"), OWN.encode("utf-16-le"), OWN.encode("utf-16-be"),
                                  OWN.encode("utf-8-sig"), OWN.encode("utf-32")],
                         ids=["utf-16 bom", "utf-16-le no bom", "utf-16-be no bom", "utf-8 bom", "utf-32 bom"])
def test_orders_in_a_text_attachment_are_read_in_the_charset_its_bytes_say(data: bytes) -> None:
    got = extract(_with_attachment("Hi, my orders are attached.\nThanks, Willy", data))
    assert got.text.endswith(OWN) and got.body_source == "attachment"
    assert got.text.startswith("Hi, my orders are attached.")


def test_orders_in_an_attachment_with_a_declared_charset() -> None:
    orders = OWN + "\nMOVE 1 inf FROM Königsberg TO Tilsit"
    got = extract(_with_attachment("", orders.encode("iso-8859-1"), charset="iso-8859-1"))
    assert got.text == orders


def test_orders_in_a_forwarded_message() -> None:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "kaiser@home.local", "Orders"
    inner.set_content(OWN + "\n\nOn Mon, Aug 3, 1914 Moderator wrote:\n> GAME old\n")
    outer = EmailMessage()
    outer["From"], outer["Subject"] = "kaiser@demo.local", "Fwd: Orders"
    outer.set_content("Forwarding my orders from the other account.")
    outer.add_attachment(inner)
    got = extract(bytes(outer))
    assert got.body_source == "forwarded" and got.text.endswith(OWN) and "old" not in got.text


def test_orders_in_the_body_win_over_an_attachment() -> None:
    got = extract(_with_attachment(OWN, b"GAME other\nNATION France\n"))
    assert got.text == OWN and got.body_source == "plain"


# ---- plain headers read without the header registry: the same text as through it ----------
PLAIN_HEADERS = [
    ("Subject", "Orders"), ("Subject", "Re: Re:  Orders   for\r\n turn 3"), ("Subject", "=?utf-8?q?Ordres_=C3=A9?="),
    ("Subject", "tab\there"), ("Subject", "Ünïcode"), ("Subject", "a (comment) \"quoted\" <angle>"),
    ("Message-ID", "<bench-7@t.local>"), ("Message-ID", "  <CAF+x=y_z.1@mail.gmail.com> "),
    ("Message-ID", "<a b@c>"), ("Message-ID", "<x@y> (comment)"), ("Message-ID", "no-angle@t.local"),
    ("From", "germany@t.local"), ("From", "Kaiser Wilhelm <k@t.local>"), ("From", "K. Wilhelm <k@t.local>"),
    ("From", "\"Doe, John\" <j@t.local>"), ("From", "a@t.local, b@t.local"), ("From", "=?utf-8?q?K=C3=A4iser?= <k@t>"),
    ("From", "k@t.local (Kaiser)"), ("In-Reply-To", "<o2@demo.local>"), ("References", "<r1@x>\r\n <r2@x>  <r3@x>"),
    ("Return-Path", "<>"), ("Return-Path", "< >"), ("Auto-Submitted", "auto-replied; owner=x"), ("Precedence", "bulk"),
    ("List-Id", "Game list <game.lists.t.local>"), ("X-Autoreply", "yes"),
]


@pytest.mark.parametrize(("name", "value"), PLAIN_HEADERS)
def test_a_plain_header_reads_the_same_without_the_header_registry(name: str, value: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import email as email_package
    from email import policy as email_policy

    import moderator.mail.extract as extracting

    message = email_package.message_from_bytes(f"{name}: {value}\r\n\r\nbody\r\n".encode(), policy=email_policy.default)
    quick = extracting._header(message, name)
    monkeypatch.setattr(extracting, "_plain_value", lambda _name, _raw: None)
    assert quick == extracting._header(message, name)
    if name == "From":
        assert extracting.getaddresses([quick or ""]) == extracting.getaddresses([extracting._header(message, name) or ""])


def test_an_everyday_order_mails_headers_skip_the_header_registry() -> None:
    from moderator.mail.extract import _plain_value

    for name, value in (("Subject", "Orders"), ("From", "germany@t.local"), ("Message-ID", "<bench-7@t.local>"),
                        ("Return-Path", "<germany@t.local>")):
        assert _plain_value(name, value) is not None


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(["Subject", "From", "Message-ID", "References", "Return-Path"]),
       value=st.lists(st.sampled_from([*"abzAZ09 .@<>-_+=?\"(),;:\\\t", "=?", "@t.local", "<x@y>"]),
                      min_size=1, max_size=25).map("".join))
def test_any_ascii_header_reads_the_same_without_the_header_registry(name: str, value: str) -> None:
    import email as email_package
    from email import policy as email_policy

    import moderator.mail.extract as extracting

    if not value.strip():
        return
    message = email_package.message_from_bytes(f"{name}: {value}\r\n\r\nbody\r\n".encode(), policy=email_policy.default)
    raw = extracting._raw_values(message, name)
    quick = extracting._plain_value(name, raw[0]) if raw else None
    if quick is not None:
        try:
            standard = message.get(name)
        except Exception:  # noqa: BLE001 - as _header: the registry rejects some garbage, the raw value stands
            standard = raw[0]
        assert quick == " ".join(str(standard).split())


@pytest.mark.parametrize("head", [
    b"Message-ID: <plain.1@t.local>\r\n",
    b"Message-ID:\r\n <folded.2@t.local>\r\n",
    b"message-id: <lower.3@t.local> \n",
    b"Message-ID: <first@t.local>\r\nMessage-ID: <second@t.local>\r\n",
    b"X-Original-Message-ID: <other@t.local>\r\nMessage-ID: <mine@t.local>\r\n",
    b"Message-ID: not-an-id\r\n",
    b"",
])
def test_the_message_id_read_when_storing_is_the_one_extract_reads(head: bytes) -> None:
    """Issue 11: the store keys copies by the Message-ID it reads from the header block when it
    stores a mail; it must be the one extract() reads when the mail is handled."""
    from moderator.mail.extract import message_id_of

    raw = b"From: kaiser@t.local\r\nTo: moderator@t.local\r\n" + head + b"Subject: x\r\n\r\nGAME g\r\n"
    assert message_id_of(raw) == (extract(raw).message_id or "")


# ---- the MIME structure headers' parses kept between mails (issue 11, CPU per mail) ----------
def _shapes() -> list[bytes]:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "kaiser@home.local", "Orders"
    inner.set_content(OWN)
    forwarded = EmailMessage()
    forwarded["From"], forwarded["Subject"] = "kaiser@demo.local", "Fwd: Orders"
    forwarded.set_content("Forwarding.")
    forwarded.add_attachment(inner)
    alternative = EmailMessage()
    alternative["From"] = "kaiser@demo.local"
    alternative.set_content(OWN)
    alternative.add_alternative(f"<p>{OWN}</p>", subtype="html")
    return [
        _mail(ORDERS.encode()), _mail(base64.b64encode(ORDERS.encode()), cte="base64"),
        _mail(quopri.encodestring(OWN.encode()), "text/plain; charset=UTF-8", "quoted-printable"),
        _mail(OWN.encode("latin-1"), 'text/plain; charset="iso-8859-1"; format=flowed'),
        _mail(OWN.encode("utf-16"), "text/plain; charset=utf-16", "binary"),
        _mail(b"<p>x</p>", "TEXT/HTML; CHARSET=utf-8"), _mail(b"x", "text/plain; charset=x-klingon"),
        _mail(b"x", "garbage"), _mail(b"x", "text/plain; charset=\"unterminated", "8bit"),
        _mail(b"x", "multipart/report; report-type=delivery-status; boundary=zz"),
        _mail(b"x", "application/octet-stream", extra="Content-Disposition: attachment; filename=a.txt\r\n"),
        _with_attachment("Hi, attached.", OWN.encode("utf-16")),
        _with_attachment("", OWN.encode("iso-8859-1"), charset="iso-8859-1"),
        bytes(forwarded), bytes(alternative),
    ]


@pytest.mark.parametrize("raw", _shapes())
def test_extract_reads_every_shape_the_same_with_the_kept_header_parses(raw: bytes,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from email import policy as email_policy

    import moderator.mail.extract as extracting

    cold, warm = extract(raw), extract(raw)  # the second with every structure header already kept
    monkeypatch.setattr(extracting, "_READING", email_policy.default)
    assert cold == warm == extract(raw)


@settings(max_examples=200, deadline=None)
@given(content_type=st.lists(st.sampled_from([*"tex/plainhtmlmultipart;= \"'charsetutf-8boundaryBB()\\", "=?",
                                              "text/plain", "; charset=", "utf-16", "multipart/mixed",
                                              "; boundary=B"]), min_size=1, max_size=20).map("".join),
       cte=st.sampled_from(["7bit", "base64", "quoted-printable", "8bit", "x-uu", "", "BASE64 "]),
       disposition=st.sampled_from(["", "attachment", "inline", "attachment; filename=\"o.txt\"", "att;;="]))
def test_extract_reads_any_structure_header_the_same_with_the_kept_parses(content_type: str, cte: str,
                                                                          disposition: str) -> None:
    from email import policy as email_policy

    import moderator.mail.extract as extracting

    extra = f"Content-Disposition: {disposition}\r\n" if disposition else ""
    raw = _mail(b"--B\r\nContent-Type: text/plain\r\n\r\nGAME g\r\n--B--\r\n" if "boundary" in content_type
                else ORDERS.encode(), content_type, cte, extra)
    kept = extracting.extract(raw)
    standard = extracting._READING
    try:
        extracting._READING = email_policy.default  # type: ignore[assignment]
        assert extracting.extract(raw) == kept
    finally:
        extracting._READING = standard


def test_only_short_structure_header_values_are_kept() -> None:
    # Hostile mail with long MIME headers cannot fill the kept parses: only values up to
    # _KEPT_VALUE characters are kept.
    from moderator.mail.extract import _structure_header

    _structure_header.cache_clear()  # room for more (earlier tests may have filled it)
    extract(_mail(b"x", "text/plain; charset=utf-8"))  # the mail's other structure headers kept
    before = _structure_header.cache_info().currsize
    for n in range(5):
        extract(_mail(b"x", f"text/plain; charset=utf-8; x-pad={n}{'a' * 300}"))
    assert _structure_header.cache_info().currsize == before
    extract(_mail(b"x", "text/plain; charset=utf-8; x-pad=short"))
    assert _structure_header.cache_info().currsize == before + 1
