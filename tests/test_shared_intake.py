"""Several daemons on one PostgreSQL database share a burst of mail (issue 11, scale-out):
one of them at a time fetches and stores (Store.mailbox_turn), and every daemon takes a few
stored messages at a time just before handling them (Store.claim_incoming_chunk), so the
work goes to whoever is free. Against a real PostgreSQL (tests/postgres.py) and the
embedded mail server. tests/test_two_daemons.py runs two whole daemons the same way."""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import text

from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.inbox import CLAIM_LEASE, MAX_ATTEMPTS, Outcome, poll
from moderator.store.db import Incoming, Store
from tests.postgres import killed_after

MOD, PLAYER = "moderator@t.local", "kaiser@t.local"


def _order_mail(n: int) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = PLAYER, MOD, f"Orders {n}"
    msg["Message-ID"] = f"<shared-{n}@t.local>"
    msg.set_content(f"GAME g\nNATION Germany\nPASSWORD pw\nNOTE mail {n}\n")
    return bytes(msg)


def _store(store: Store, numbers: range) -> list[int]:
    """Stored as the fetching daemon stores them: unclaimed, no attempt counted."""
    with store.transaction():
        stored = store.store_incoming_batch([Incoming(_order_mail(n), uid=n, uidvalidity=1) for n in numbers],
                                            datetime.now(UTC), CLAIM_LEASE, claim=False)
    assert all(new for _, new in stored)
    return [row_id for row_id, _ in stored]


@pytest.fixture()
def shared(postgres_url: str, tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service, Service]]:
    """Two services (two daemons' worth) on one PostgreSQL database and one mailbox."""
    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m", PLAYER: "p"}) as server:
        a, b = (Service(store=Store(postgres_url), mail=server.client_config(MOD, "m"), say=lambda s: None,
                        maps=False) for _ in range(2))
        new_game(a, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        a.store.add_seat("g", "germany", PLAYER, "pw")
        try:
            yield server, a, b
        finally:
            a.store.engine.dispose()
            b.store.engine.dispose()


def test_a_chunk_is_a_few_messages_each_taken_once_and_leased(shared: tuple[EmbeddedMailServer, Service,
                                                                           Service]) -> None:
    _, a, b = shared
    ids = _store(a.store, range(7))
    now = datetime.now(UTC)
    first = a.store.claim_incoming_chunk(now, CLAIM_LEASE, 5)
    second = b.store.claim_incoming_chunk(now, CLAIM_LEASE, 5)
    assert [r.id for r in first] == ids[:5] and [r.id for r in second] == ids[5:]
    assert all(r.attempts == 1 and r.next_attempt is not None for r in first + second)
    assert a.store.claim_incoming_chunk(now, CLAIM_LEASE, 5) == []  # all leased
    # A daemon that died holding them: after the lease another takes them, one at a time
    # now that each was tried (a mail that kills its process must not take others with it).
    later = now + CLAIM_LEASE + timedelta(seconds=1)
    assert [r.id for r in b.store.claim_incoming_chunk(later, CLAIM_LEASE, 5)] == ids[:1]
    assert [r.id for r in b.store.claim_incoming_chunk(later, CLAIM_LEASE, 5, frozenset(ids[1:3]))] == ids[3:4]


def test_a_chunk_passes_by_the_rows_another_daemon_has_locked(shared: tuple[EmbeddedMailServer, Service,
                                                                            Service]) -> None:
    _, a, b = shared
    ids = _store(a.store, range(4))
    with a.store.engine.connect() as conn:  # another daemon, in the middle of its claim
        conn.execute(text("SELECT id FROM mailmessage WHERE id IN (:x, :y) FOR UPDATE"), {"x": ids[0], "y": ids[2]})
        taken = b.store.claim_incoming_chunk(datetime.now(UTC), CLAIM_LEASE, 5)
        conn.rollback()
    assert [r.id for r in taken] == [ids[1], ids[3]]


def test_one_daemon_fetches_while_the_other_handles_what_it_stores(shared: tuple[EmbeddedMailServer, Service,
                                                                                 Service]) -> None:
    """While A has the mailbox (its lock held here, as a fetching daemon holds it), B does not
    fetch: it handles the mail A stores. Once A is done, B looks at the mailbox itself."""
    server, a, b = shared
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.sendmail(PLAYER, [MOD], _order_mail(100))
    outcomes: list[Outcome] = []
    with a.store.mailbox_turn() as mine:
        assert mine
        with b.store.mailbox_turn() as also:
            assert not also  # one fetcher at a time
        helper = threading.Thread(target=poll, args=(b,), kwargs={"on_handled": outcomes.append})
        helper.start()
        ids = _store(a.store, range(6))  # what A fetched and stored meanwhile
        until = time.monotonic() + 60
        while len(outcomes) < 6 and time.monotonic() < until:
            time.sleep(0.05)
        handled = sorted(o.message for o in outcomes)
        stored_meanwhile = len(a.store.messages("in"))
    helper.join(timeout=60)
    assert not helper.is_alive()
    assert handled == ids and stored_meanwhile == 6  # B handled A's mail and fetched nothing itself
    # A let go of the mailbox: B fetched the mail waiting there, and handled it.
    assert len(outcomes) == 7 and all(o.status == "processed" for o in outcomes)
    received = a.store.messages("in")
    assert len(received) == 7 and all(m.status == "processed" for m in received)
    assert b"NOTE mail 100" in received[-1].raw
    assert len([m for m in a.store.messages("out") if m.kind == "reply"]) == 7  # one receipt each


def test_a_mail_that_keeps_failing_is_set_aside_without_its_chunk(shared: tuple[EmbeddedMailServer, Service,
                                                                                Service],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A message tried MAX_ATTEMPTS times (each attempt's daemon died) is set aside for review
    when it is next taken; the mail stored with it is handled."""
    _, a, b = shared
    bad, *good = _store(a.store, range(3))
    a.store.update_message(bad, attempts=MAX_ATTEMPTS, next_attempt=None)
    from moderator.service import inbox

    monkeypatch.setattr(inbox, "_fetch_shared", lambda svc, drain: drain(None))  # the stored mail only
    outcomes = poll(b)
    by_id = {o.message: o.status for o in outcomes}
    assert by_id == {bad: "failed", good[0]: "processed", good[1]: "processed"}
    assert any(f"message {bad} could not be handled" in r.summary for r in a.store.reviews())


def test_two_daemons_submitting_for_one_seat_at_once_leave_one_current(shared: tuple[EmbeddedMailServer, Service,
                                                                                    Service]) -> None:
    """Each daemon's transaction reads the seat's current orders and puts its own in their
    place: the second waits for the first to commit (Store.submit's lock), so the seat never
    has two current submissions, and the one written last stands."""
    _, a, b = shared
    t0 = datetime.now(UTC)

    def submit(store: Store, n: int) -> None:
        store.submit("g", "germany", 1, text=f"NOTE {n}", normalized=f"NOTE {n}", diagnostics=[], message=None,
                     written=t0 + timedelta(seconds=n))

    with a.store.transaction():
        submit(a.store, 1)
        second = threading.Thread(target=lambda: submit(b.store, 2))
        second.start()
        second.join(timeout=1.0)
        assert second.is_alive()  # waiting for the first transaction's commit
    second.join(timeout=30)
    assert not second.is_alive()
    with a.store.session() as session:
        current = [r[0] for r in session.connection().execute(
            text("SELECT text FROM submission WHERE nation = 'germany' AND current"))]
    assert current == ["NOTE 2"]


def test_two_daemons_storing_the_same_batch_store_it_once(shared: tuple[EmbeddedMailServer, Service,
                                                                       Service]) -> None:
    """A batch is stored in one INSERT after a look for each message: the second storer waits
    for the first's commit (the batch's locks, taken in one order) and then finds them all."""
    _, a, b = shared
    batch = [Incoming(_order_mail(n), uid=n, uidvalidity=1) for n in range(5)]
    found: list[list[tuple[int, bool]]] = []

    def store_again() -> None:
        with b.store.transaction():
            found.append(b.store.store_incoming_batch(list(reversed(batch)), datetime.now(UTC), CLAIM_LEASE))

    with a.store.transaction():
        first = a.store.store_incoming_batch(batch, datetime.now(UTC), CLAIM_LEASE, claim=False)
        second = threading.Thread(target=store_again)
        second.start()
        second.join(timeout=1.0)
        assert second.is_alive()  # waiting for the first storer's commit
    second.join(timeout=30)
    assert all(new for _, new in first)
    assert found == [[(row_id, False) for row_id, _ in reversed(first)]]
    assert len(a.store.messages("in")) == 5


def test_a_fetcher_killed_with_9_lets_go_of_the_mailbox_and_its_mail_is_handled_after_the_lease(
        shared: tuple[EmbeddedMailServer, Service, Service], postgres_url: str) -> None:
    """A daemon killed while it fetches (holding the mailbox) and handles (holding a chunk of
    stored mail): the lock goes with its connection, so another daemon fetches at once; the
    chunk it had taken waits out its lease, then the other daemon handles each mail once."""
    _, a, b = shared
    ids = _store(a.store, range(3))
    script = ("import sys, time\nfrom datetime import UTC, datetime\nfrom moderator.store.db import Store\n"
              "from moderator.service.inbox import CLAIM_LEASE\n"
              f"store = Store({postgres_url!r})\n"
              "with store.mailbox_turn() as mine:\n"
              "    taken = store.claim_incoming_chunk(datetime.now(UTC), CLAIM_LEASE, 5)\n"
              "    print(mine, len(taken), flush=True)\n"
              "    time.sleep(600)\n")
    with killed_after(script) as said:
        assert said == ["True", "3"]
        with b.store.mailbox_turn() as mine:
            assert not mine  # the living fetcher has it
    until = time.monotonic() + 30
    while True:  # the server notices the dead connection at once (the socket is closed)
        with b.store.mailbox_turn() as mine:
            if mine:
                break
        assert time.monotonic() < until, "the killed fetcher's lock was never freed"
        time.sleep(0.1)
    assert poll(b) == []  # its chunk is leased: not taken before the lease ends
    b.clock = lambda: datetime.now(UTC) + CLAIM_LEASE + timedelta(seconds=1)
    outcomes = poll(b)
    assert sorted(o.message for o in outcomes) == ids and all(o.status == "processed" for o in outcomes)
    assert len([m for m in a.store.messages("out") if m.kind == "reply"]) == 3


def test_two_copies_with_one_message_id_handled_at_once_by_two_daemons_count_once(
        shared: tuple[EmbeddedMailServer, Service, Service]) -> None:
    """Issue 11: an original and a forged copy (same Message-ID, other bytes) stored at once by
    two daemons and handled at once, one by each. The first stored counts; the other is
    refused with a reply, whichever daemon gets to its mail first (the store keeps each
    Message-ID as it stores the mail, storers of one Message-ID one after the other)."""
    from moderator.service.inbox import handle_stored

    _, a, b = shared
    original = _order_mail(1)
    forged = original.replace(b"NOTE mail 1", b"NOTE mail forged")
    gate = threading.Barrier(2)
    stored: dict[str, int] = {}

    def store(svc: Service, raw: bytes, name: str) -> None:
        gate.wait()
        with svc.store.transaction():
            [(stored[name], _)] = svc.store.store_incoming_batch([Incoming(raw)], datetime.now(UTC), CLAIM_LEASE,
                                                                 claim=False)

    outcomes: dict[str, Outcome] = {}

    def handle(svc: Service, name: str) -> None:
        gate.wait()
        outcomes[name] = handle_stored(svc, stored[name])

    for job, args in ((store, ((a, original, "original"), (b, forged, "forged"))),
                      (handle, ((a, "forged"), (b, "original")))):
        threads = [threading.Thread(target=job, args=arg) for arg in args]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    first, second = sorted(stored, key=stored.__getitem__)
    assert outcomes[first].status == outcomes[second].status == "processed"
    assert f"a copy of message {stored[first]}" in outcomes[second].summary
    note = {"original": "NOTE mail 1", "forged": "NOTE mail forged"}[first]
    assert note in a.store.current_submissions("g", 1)["germany"].text
    replies = [m for m in a.store.messages("out") if m.kind == "reply"]
    assert len(replies) == 2 and sum("Not accepted" in m.subject for m in replies) == 1
