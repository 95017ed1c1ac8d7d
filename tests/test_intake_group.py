"""A group of stored mails handled in one transaction (service/inbox.py handle_group): the
reads every mail needs are made once for the group, or once for each sender in it, and
each mail's own row is written once; what each mail is told stays what it was when every
mail read the database afresh (issue 11, CPU per mail)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

import moderator.service.inbox as inbox
from moderator.mail.config import MailConfig, ServerConfig
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.store.db import Incoming, Store

MOD = "moderator@t.local"
SEATS = {"germany": ("kaiser@t.local", "MOVE 2 inf FROM Ruhr TO Cologne"),
         "france": ("joffre@t.local", "MOVE 2 inf FROM Paris TO Picardy")}


@pytest.fixture()
def svc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    monkeypatch.setattr(inbox, "GROUP_SECONDS", 3600.0)  # one group, however slow the machine
    nowhere = ServerConfig("127.0.0.1", 9)  # handling a stored mail talks to no server
    service = Service(store=Store.at(tmp_path / "db"), say=lambda s: None,
                      mail=MailConfig(imap=nowhere, smtp=nowhere, from_address=MOD, moderator_address=MOD))
    new_game(service, "g", deadline=datetime.now(UTC) + timedelta(days=3))
    for nation, (address, _) in SEATS.items():
        service.store.add_seat("g", nation, address, "pw")
    yield service


def _mail(nation: str, n: int, *, password: str = "pw", message_id: str | None = None,
          body: str | None = None) -> bytes:
    """Mail number `n`, written n minutes ago subtracted from ten (later n, written later)."""
    address, order = SEATS[nation]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address, MOD, "Orders"
    msg["Message-ID"] = message_id or make_msgid()
    msg["Date"] = format_datetime(datetime.now(UTC) - timedelta(minutes=10 - n))
    msg.set_content(body or f"GAME g\nNATION {nation}\nTURN 1\nPASSWORD {password}\n{order}\nNOTE mail {n}\n")
    return bytes(msg)


def _handle(svc: Service, raws: list[bytes]) -> list[inbox.Outcome]:
    """Store the mails as one fetched batch and handle them as poll() does: one group."""
    now = datetime.now(UTC)
    with svc.store.transaction():
        stored = svc.store.store_incoming_batch([Incoming(raw, uid, 7, now) for uid, raw in enumerate(raws, 1)],
                                                now, inbox.CLAIM_LEASE)
    outcomes, left = inbox.handle_group(svc, [row_id for row_id, new in stored if new])
    assert left == []
    return outcomes


def _statements(svc: Service) -> Counter[str]:
    """The SQL statements run on the store's connections from now on, counted by their text
    as SQLite runs them (its trace: the values written in, "= 'kaiser@t.local'" for "= ?").
    SQLite's own count, not SQLAlchemy's: the statements every mail runs go straight to the
    driver (store/direct.py), past SQLAlchemy's events."""
    seen: Counter[str] = Counter()

    def count(statement: str) -> None:
        seen[" ".join(statement.split())] += 1

    event.listen(svc.store.engine, "checkout", lambda driver, *_: driver.set_trace_callback(count))
    return seen


def _count(seen: Counter[str], pattern: str) -> int:
    return sum(n for statement, n in seen.items() if re.search(pattern, statement))


def _current(svc: Service, nation: str) -> list[str]:
    """The normalized orders of every submission of `nation` marked current, in the database."""
    with svc.store.engine.connect() as conn:
        return [row[0] for row in conn.execute(text(
            "SELECT normalized FROM submission WHERE nation = :n AND current ORDER BY id"), {"n": nation})]


def test_a_group_reads_once_a_sender_and_writes_each_mail_once(svc: Service) -> None:
    """Three mails from each of two seats: the throttle's counts (per sender and per seat), the
    daily reply cap and the seat's current orders are read once for each sender, whether a mail is a copy of an
    earlier one once for the group, and each mail's row is written by one UPDATE. Every mail
    gets its receipt, and each seat's last-written mail is its orders."""
    raws = [_mail(nation, n) for n in range(3) for nation in SEATS]
    seen = _statements(svc)
    outcomes = _handle(svc, raws)
    assert [o.summary.split(":")[0] for o in outcomes] == ["receipt for German Empire, turn 1",
                                                           "receipt for French Empire, turn 1"] * 3
    assert ["replaces earlier orders" in o.summary for o in outcomes] == [False] * 2 + [True] * 4
    assert _count(seen, r"^SELECT authfailure\.at FROM authfailure") == 4
    assert _count(seen, r"^SELECT mailmessage\.received FROM mailmessage WHERE mailmessage\.answers") == 2
    assert _count(seen, r"^SELECT submission\.\S+ .*FROM submission WHERE") == 2
    assert _count(seen, r"^SELECT mailmessage\.message_id, min\(mailmessage\.id\)") == 1
    assert _count(seen, r"mailmessage\.message_id = '") == 0
    assert _count(seen, r"^UPDATE mailmessage") == 6
    for nation in SEATS:
        [orders] = _current(svc, nation)
        assert "NOTE mail 2" in orders
    assert all(row.status == "processed" and row.sender and row.note.startswith("receipt")
               for row in svc.store.messages(direction="in"))


def test_a_group_without_turn_lines_reads_when_the_turn_began_once(svc: Service) -> None:
    """Mail without a TURN line is checked against when the current turn began (an earlier
    turn's mail is refused): one read for the group, not one a mail."""
    raws = [_mail(nation, n, body=f"GAME g\nNATION {nation}\nPASSWORD pw\nNOTE mail {n}\n")
            for n in range(3) for nation in SEATS]
    seen = _statements(svc)
    outcomes = _handle(svc, raws)
    assert all(o.summary.startswith("receipt") for o in outcomes)
    assert _count(seen, r"^SELECT turnrecord\.resolved FROM turnrecord") == 1


def test_in_one_group_a_copy_of_a_mail_is_refused(svc: Service) -> None:
    """The first stored of a Message-ID counts, whether the copy comes in the same group or
    a later one (the group's one read of the first of each Message-ID)."""
    [first] = _handle(svc, [_mail("germany", 0, message_id="<old@t.local>")])
    outcomes = _handle(svc, [_mail("germany", 1, message_id="<once@t.local>"),
                             _mail("germany", 2, message_id="<once@t.local>", body="GAME g\nNATION germany\n"
                                   "TURN 1\nPASSWORD pw\nMOVE 1 inf FROM Ruhr TO Cologne\n"),
                             _mail("germany", 3, message_id="<old@t.local>")])
    assert "receipt" in outcomes[0].summary
    assert f"a copy of message {outcomes[0].message}" in outcomes[1].summary
    assert f"a copy of message {first.message}" in outcomes[2].summary
    [orders] = _current(svc, "germany")
    assert "MOVE 2 inf" in orders


def test_in_one_group_the_throttle_and_the_reply_cap_count_the_groups_own_mails(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrong passwords in one group: THROTTLE_AFTER answers, then the seat's mail is held unread;
    the daily cap counts the replies queued earlier in the same group."""
    raws = [_mail("germany", n, password=f"guess{n}") for n in range(inbox.THROTTLE_AFTER + 2)]
    outcomes = _handle(svc, raws)
    assert [o.status for o in outcomes] == ["processed"] * inbox.THROTTLE_AFTER + ["held"] * 2
    monkeypatch.setattr(inbox, "REPLIES_PER_DAY", 3)
    _handle(svc, [_mail("france", n) for n in range(5)])
    receipts = [m for m in svc.store.messages(direction="out") if m.recipients == SEATS["france"][0]]
    assert len(receipts) == 3
    assert any("joffre@t.local got 3 replies within a day" in r.summary for r in svc.store.reviews())


def test_a_mail_that_fails_in_a_group_leaves_its_row_and_the_seats_orders_as_they_were(
        svc: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    """The second of three mails from a seat fails after its orders went in: its savepoint
    undoes them and its row's changes, and the third mail reads the seat's orders as the
    database has them (the first mail's), not as the failed one left them in what was read
    for the group: one current submission, the third's."""
    replies = inbox._queue_reply
    calls = []

    def failing_second(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the outbox failed")
        replies(*args, **kwargs)

    monkeypatch.setattr(inbox, "_queue_reply", failing_second)
    outcomes = _handle(svc, [_mail("germany", n) for n in range(3)])
    assert [o.status for o in outcomes] == ["processed", "new", "processed"]
    assert "replaces earlier orders" in outcomes[2].summary
    [orders] = _current(svc, "germany")
    assert "NOTE mail 2" in orders
    failed = svc.store.message(outcomes[1].message)
    assert failed is not None and failed.status == "new" and failed.sender == ""
    assert (failed.note or "").startswith("attempt 1 failed: RuntimeError")
