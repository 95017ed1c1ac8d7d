"""Hostile mail (issue 11): a corpus of messages built to exhaust time, memory or trust, each
handled within bounds - refused with a reply, quarantined, or read in part - and never a
failure that stops the daemon. The bounds are structural (nothing here is timed): what is
over a limit is not fetched, not parsed or not read, and the tests check exactly that."""

from __future__ import annotations

import dataclasses
import smtplib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest

from moderator.mail.extract import MAX_HEADER_VALUE, MAX_MULTIPARTS, MAX_PARTS, extract
from moderator.mail.intake import HEAD_BYTES
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.store.db import Store

MOD, PLAYER = "moderator@t.local", "kaiser@t.local"
ORDERS = b"GAME g\r\nNATION Germany\r\nTURN 1\r\nPASSWORD pw\r\nMOVE 2 inf FROM Ruhr TO Cologne\r\n"
HEAD = (b"From: kaiser@t.local\r\nTo: moderator@t.local\r\nSubject: Orders\r\n"
        b"Message-ID: <%d@t.local>\r\nMIME-Version: 1.0\r\n")


def many_parts(n: int) -> bytes:
    parts = b"".join(b"--B\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(n))
    return HEAD % n + b"Content-Type: multipart/mixed; boundary=B\r\n\r\n" + parts + b"--B--\r\n"


def deep(n: int) -> bytes:
    opens = b"".join(b"Content-Type: multipart/mixed; boundary=B%d\r\n\r\n--B%d\r\n" % (i, i) for i in range(n))
    closes = b"".join(b"\r\n--B%d--\r\n" % i for i in reversed(range(n)))
    return HEAD % (n + 1) + opens + b"Content-Type: text/plain\r\n\r\n" + ORDERS + closes


CORPUS = {
    "10,000 parts": many_parts(10_000),
    "500-deep nesting": deep(500),
    "1 MB header of words": HEAD % 1 + b"X-Junk: " + b"ab " * 350_000 + b"\r\n\r\n" + ORDERS,
    "1 MB subject": b"From: kaiser@t.local\r\nSubject: " + b"=?utf-8?q?ab?= " * 70_000 + b"\r\n\r\n" + ORDERS,
    "exotic charset": HEAD % 2 + b"Content-Type: text/plain; charset=x-klingon\r\n\r\n" + ORDERS,
    "utf-7": HEAD % 3 + b"Content-Type: text/plain; charset=utf-7\r\n\r\n" + ORDERS,
    "undeclared 8-bit": HEAD % 4 + b"\r\n" + ORDERS + "MOVE 1 inf FROM Königsberg TO Tilsit\r\n".encode("latin-1"),
}


@pytest.mark.parametrize("raw", CORPUS.values(), ids=CORPUS.keys())
def test_the_hostile_corpus_is_read_within_its_limits(raw: bytes) -> None:
    got = extract(raw)
    assert not any(p.startswith("internal error") for p in got.problems)
    assert got.sender == PLAYER and len(got.subject) <= MAX_HEADER_VALUE
    if raw.count(b"Content-Type") > MAX_PARTS or raw.count(b"boundary=") > MAX_MULTIPARTS:
        assert got.refused and got.text == ""  # not parsed beyond the header
    else:
        assert not got.refused and "MOVE 2 inf FROM Ruhr TO Cologne" in got.text


@pytest.mark.parametrize("sender", [b"kaiser@t.local, tsar@t.local", b"Kaiser <kaiser@t.local> <tsar@t.local>"])
def test_an_ambiguous_from_gives_no_sender(sender: bytes) -> None:
    got = extract(b"From: " + sender + b"\r\nSubject: x\r\n\r\n" + ORDERS)
    assert got.sender == "" and any("ambiguous" in p for p in got.problems)


def test_a_display_name_repeating_the_address_is_not_ambiguous() -> None:
    got = extract(b'From: "Kaiser <kaiser@t.local>" <Kaiser@t.local>\r\nSubject: x\r\n\r\n' + ORDERS)
    assert got.sender == PLAYER


def test_two_from_headers_are_ambiguous() -> None:
    got = extract(b"From: kaiser@t.local\r\nFrom: tsar@t.local\r\nSubject: x\r\n\r\n" + ORDERS)
    assert got.sender == ""


@pytest.fixture()
def setup(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service]]:
    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m", PLAYER: "p", "tsar@t.local": "t"}) as server:
        mail = dataclasses.replace(server.client_config(MOD, "m"), max_message_bytes=512 * 1024)
        svc = Service(store=Store.at(tmp_path / "db"), mail=mail, say=lambda s: None)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", PLAYER, "pw")
        yield server, svc


def _deliver(server: EmbeddedMailServer, raw: bytes) -> None:
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.sendmail(PLAYER, [MOD], raw)


def _sent(svc: Service) -> list[tuple[str, str, str]]:
    out = []
    for row in svc.store.messages(direction="out"):
        msg = message_from_bytes(row.raw, policy=policy.default)
        body = msg.get_body(("plain",))
        out.append((str(msg["To"]), str(msg["Subject"]), " ".join(str(body.get_content()).split()) if body else ""))
    return out


def test_mail_over_the_size_cap_is_not_fetched_whole_and_the_sender_is_told(
        setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    big = (HEAD % 9 + b"Content-Type: multipart/mixed; boundary=B\r\n\r\n--B\r\nContent-Type: text/plain\r\n\r\n"
           + ORDERS + b"--B\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           + b"QUJD" * 19 + b"\r\n") * 1 + (b"QUJD" * 19 + b"\r\n") * 12_000 + b"--B--\r\n"
    _deliver(server, big)
    _deliver(server, HEAD % 10 + b"\r\n" + ORDERS)  # the next one still flows
    first, second = poll(svc)
    stored = svc.store.message(first.message)
    assert stored is not None and len(stored.raw) <= HEAD_BYTES + 100 and stored.size > 512 * 1024  # masked: longer
    [(to, subject, body), _] = _sent(svc)
    assert to == PLAYER and "not read" in body and "more than the 0.5 MB" in body
    assert "receipt" in second.summary
    assert poll(svc) == []  # filed away, not fetched again


def test_hostile_structure_gets_a_reply_not_a_stuck_worker(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    _deliver(server, many_parts(2_000))  # 10,000 above; the embedded server's own parsing is slow
    [outcome] = poll(svc)
    assert outcome.status == "processed"
    [(_, _, body)] = _sent(svc)
    assert "2001 MIME parts" in body  # the container and its 2,000


def test_an_ambiguous_from_is_set_aside_unanswered(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    _deliver(server, b"From: kaiser@t.local, tsar@t.local\r\nTo: moderator@t.local\r\nSubject: x\r\n\r\n" + ORDERS)
    [outcome] = poll(svc)
    assert outcome.status == "quarantined" and "ambiguous" in outcome.summary
    assert _sent(svc) == [] and svc.store.current_submissions("g", 1) == {}


def test_encoded_line_breaks_in_headers_never_reach_our_replies(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    evil = b"=?utf-8?q?Orders=0D=0ABcc:_victim@t.local=0D=0A=0D=0Ainjected?="
    _deliver(server, b"From: kaiser@t.local\r\nTo: moderator@t.local\r\nSubject: " + evil
             + b"\r\nMessage-ID: <a@t.local>\r\nReferences: <a@t.local>\r\n =?utf-8?q?=0D=0ABcc:_x@t.local?=\r\n\r\n"
             + ORDERS)
    poll(svc)
    [row] = svc.store.messages(direction="out")
    head = row.raw.split(b"\r\n\r\n", 1)[0].split(b"\n\n", 1)[0]
    assert b"Bcc" not in head and b"victim" not in row.recipients.encode()
    msg = message_from_bytes(row.raw, policy=policy.default)
    assert msg["Bcc"] is None and "\n" not in str(msg["Subject"])
