"""One received mail to a receipt or a clear reply, on the real embedded mail server:
CHECK answers without submitting, a later mail replaces an earlier one, late orders and
robots' mail are handled, and nothing is ever lost."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.store.db import Store

MOD, PLAYER = "moderator@t.local", "kaiser@t.local"
ORDERS = "GAME g\nNATION Germany\nTURN 1\nPASSWORD pw\nMOVE 2 inf FROM Ruhr TO Cologne\n"


@pytest.fixture()
def setup(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service]]:
    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m", PLAYER: "p"}) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(MOD, "m"), say=lambda s: None)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", PLAYER, "pw")
        yield server, svc


def _send(server: EmbeddedMailServer, body: str, subject: str = "Orders", **headers: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = PLAYER, MOD, subject
    for k, v in headers.items():
        msg[k.replace("_", "-")] = v
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def test_check_answers_without_submitting(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    _send(server, ORDERS, subject="CHECK my orders")
    [outcome] = poll(svc)
    assert outcome.status == "processed" and "check" in outcome.summary
    assert svc.store.current_submissions("g", 1) == {}
    [reply] = svc.store.messages(direction="out")
    assert b"This was a CHECK" in reply.raw


def test_a_later_mail_replaces_the_earlier_and_the_receipt_says_so(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    _send(server, ORDERS)
    poll(svc)
    _send(server, ORDERS.replace("MOVE 2 inf", "MOVE 1 inf"))
    [outcome] = poll(svc)
    assert "replaces earlier orders" in outcome.summary
    assert "MOVE 1 inf" in svc.store.current_submissions("g", 1)["germany"].normalized
    assert b"REPLACE the orders you sent earlier" in svc.store.messages(direction="out")[-1].raw


def test_errors_are_listed_with_their_line_and_valid_orders_kept(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    _send(server, ORDERS + "MOVE 1 inf FROM Ruhr TO Warsw\n")
    poll(svc)
    sub = svc.store.current_submissions("g", 1)["germany"]
    assert "MOVE 2 inf FROM Ruhr TO Cologne" in sub.normalized and "Warsw" not in sub.normalized
    receipt = svc.store.messages(direction="out")[-1].raw.decode()
    assert "line 6" in receipt and "Warsaw" in receipt  # where, and "did you mean"


def test_late_orders_are_refused_with_the_reason(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    svc.store.update_game("g", deadline=datetime.now(UTC) - timedelta(minutes=1))
    _send(server, ORDERS)
    poll(svc)
    assert svc.store.current_submissions("g", 1) == {}
    assert b"deadline for turn 1 of g has passed" in svc.store.messages(direction="out")[-1].raw


def test_robot_mail_is_quarantined_not_answered(setup: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = setup
    _send(server, "I am on holiday.", subject="Out of office", Auto_Submitted="auto-replied")
    [outcome] = poll(svc)
    assert outcome.status == "quarantined"
    assert svc.store.messages(direction="out") == []
    assert [r.kind for r in svc.store.reviews()] == ["quarantine"]
    assert svc.store.messages(direction="in")[0].raw  # kept, byte for byte


def test_a_crash_inside_one_message_is_kept_for_review(setup: tuple[EmbeddedMailServer, Service],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    server, svc = setup
    import moderator.service.inbox as inbox

    monkeypatch.setattr(inbox, "parse_orders", lambda text: 1 / 0)
    _send(server, ORDERS)
    [outcome] = poll(svc)
    assert outcome.status == "failed"
    assert svc.store.messages(direction="in")[0].status == "failed"
    assert "ZeroDivisionError" in svc.store.reviews()[0].summary


def test_seats_without_orders_are_reminded_once_per_turn(setup: tuple[EmbeddedMailServer, Service]) -> None:
    from moderator.service.reminders import send_reminders

    server, svc = setup
    svc.store.add_seat("g", "france", "joffre@t.local", "pw2")
    _send(server, ORDERS)
    poll(svc)
    assert send_reminders(svc, timedelta(hours=1)) == 0  # the deadline is three days away
    assert send_reminders(svc, timedelta(days=4)) == 1  # France only: Germany has sent orders
    reminder = svc.store.messages(direction="out")[-1]
    assert reminder.recipients == "joffre@t.local" and b"no orders from French Empire" in reminder.raw
    assert send_reminders(svc, timedelta(days=4)) == 0  # once per turn


def test_flags_are_in_the_receipt_but_review_items_wait_for_the_resolution(
        setup: tuple[EmbeddedMailServer, Service]) -> None:
    from moderator.service.turns import resolve_game

    server, svc = setup
    _send(server, ORDERS + "NOTE Is the Kiel Canal open?\n")
    poll(svc)
    assert b"for the moderator to decide" in svc.store.messages(direction="out")[-1].raw
    assert svc.store.reviews("g") == []  # replaced orders would leave nothing pending
    _send(server, ORDERS + "NOTE Never mind the canal; is Belgium neutral?\n")
    poll(svc)
    resolve_game(svc, "g")
    assert [(r.kind, r.summary) for r in svc.store.reviews("g")] == [
        ("note", "German Empire, order 2: NOTE Never mind the canal; is Belgium neutral?")]
