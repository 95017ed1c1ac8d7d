"""Two daemons on one PostgreSQL database share the work safely: a burst of mail is stored
once and handled once (one receipt per mail), every mail goes out once, and the turn at
its deadline is resolved by exactly one of them, its reports sent once (the row locks of
store/db.py: claim_incoming, claim_outgoing, claim_turn, lock_game). Against a real
PostgreSQL server (tests/postgres.py) and the embedded mail server."""

from __future__ import annotations

import email
import smtplib
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.games import new_game
from moderator.store.db import Store
from tests.mailbox import messages
from tests.postgres import killed_after

MOD, UMPIRE = "m@t.local", "u@t.local"
SEATS = {"germany": "k@t.local", "france": "f@t.local", "russia": "r@t.local", "britain": "b@t.local"}
ORDERS = {"germany": "MOVE 2 inf FROM Ruhr TO Cologne", "france": "NOTE holding", "russia": "NOTE holding",
          "britain": "NOTE holding"}
MAILS_PER_SEAT = 6


def _wait(what: str, done, console: list[str], seconds: float = 180) -> None:  # type: ignore[no-untyped-def]
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if done():
            return
        if any(" failed: " in line for line in console):
            break
        time.sleep(0.2)
    raise AssertionError(f"failed or timed out waiting for {what}:\n" + "\n".join(console[-40:]))


def _inbox(server: EmbeddedMailServer, address: str) -> list[EmailMessage]:
    return messages(server.imap_port, address, "pw")


def test_two_daemons_on_one_database_handle_each_mail_and_the_turn_once(postgres_url: str, tmp_path: Path) -> None:
    users = {MOD: "m", UMPIRE: "pw", **{a: "pw" for a in SEATS.values()}}
    console: list[str] = []
    lock = threading.Lock()

    def say(name: str):  # type: ignore[no-untyped-def]
        def said(line: str) -> None:
            with lock:
                console.append(f"{name}: {line}")
        return said

    with EmbeddedMailServer(tmp_path / "mail", users=users) as server:
        services = [Service(store=Store(postgres_url), mail=server.client_config(MOD, "m", UMPIRE), say=say(name),
                            maps=False) for name in ("A", "B")]
        svc = services[0]
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        for nation, address in SEATS.items():
            svc.store.add_seat("g", nation, address, "pw")
        daemons = [Daemon(s, poll_seconds=0.3, deadline_seconds=0.3, countdown_seconds=0) for s in services]
        for daemon in daemons:
            daemon.start()  # on PostgreSQL the second one starts too: no single-daemon lock
        try:
            sent = 0
            with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
                for round_ in range(MAILS_PER_SEAT):
                    for nation, address in SEATS.items():
                        msg = EmailMessage()
                        msg["From"], msg["To"], msg["Subject"] = address, MOD, f"Orders {round_}"
                        msg["Message-ID"] = f"<{nation}-{round_}@t.local>"
                        msg.set_content(f"GAME g\nNATION {nation}\nPASSWORD pw\n{ORDERS[nation]}\n")
                        smtp.send_message(msg)
                        sent += 1
            store = svc.store
            _wait("every mail handled and every reply sent", lambda: len(store.messages("in")) >= sent and all(
                m.status == "processed" for m in store.messages("in")) and all(
                m.status == "sent" for m in store.messages("out")) and len(store.messages("out")) >= sent, console)
            incoming = store.messages("in")
            assert len(incoming) == sent  # stored once each, though both daemons fetched them
            receipts = Counter(str(email.message_from_bytes(m.raw, policy=policy.default)["In-Reply-To"])
                               for m in store.messages("out") if m.kind == "reply")
            assert len(receipts) == sent and set(receipts.values()) == {1}, receipts  # one receipt per mail
            subs = store.current_submissions("g", 1)
            assert sorted(subs) == sorted(SEATS)
            # The deadline comes: both daemons see it; one resolves, the other passes it by.
            store.update_game("g", deadline=datetime.now(UTC) - timedelta(seconds=1))
            _wait("the turn resolved and its reports sent", lambda: store.game("g").turn == 2 and all(  # type: ignore[union-attr]
                m.status == "sent" for m in store.messages("out")), console)
            time.sleep(1.5)  # a few more rounds of both daemons' jobs: nothing more may happen
        finally:
            for daemon in daemons:
                daemon.stop()
            for s in services:
                s.store.engine.dispose()
        store = Store(postgres_url)
        assert len(store.turn_records("g", 1)) == 1 and store.game("g").turn == 2  # type: ignore[union-attr]
        out = store.messages("out")
        assert all(m.status == "sent" for m in out)
        # Every mail went out once: each Message-ID once in the mailboxes it was sent to.
        delivered = Counter(str(m["Message-ID"]) for address in [*SEATS.values(), UMPIRE]
                            for m in _inbox(server, address))
        assert delivered and set(delivered.values()) == {1}, [k for k, v in delivered.items() if v > 1]
        assert len(delivered) == len(out)
        for nation, address in SEATS.items():
            reports = [m for m in _inbox(server, address) if "turn 1 report for" in str(m["Subject"])]
            assert len(reports) == 1, (nation, [str(m["Subject"]) for m in reports])
        assert sum("resolved g turn 1" in line for line in console) == 1, console
        store.engine.dispose()


def test_a_turn_whose_daemon_was_killed_mid_resolution_is_taken_over_by_a_running_one(postgres_url: str) -> None:
    """The daemon resolving a turn holds the game's resolution lock until it commits; killed
    with -9, it leaves the game "resolving" and the lock goes with its connection. A daemon
    still running sees that at its next deadline check (recover_interrupted): the turn is
    open again and resolved once. While the resolver lives, nobody reopens its turn."""
    from moderator.service.turns import AlreadyResolved, recover_interrupted, resolve_game

    svc = Service(store=Store(postgres_url), say=lambda s: None, maps=False)
    new_game(svc, "g", deadline=datetime.now(UTC) - timedelta(seconds=1))
    script = ("import time\nfrom moderator.store.db import Store\n"
              f"store = Store({postgres_url!r})\n"
              "with store.resolving('g') as mine:\n"
              "    print(mine, store.claim_turn('g', 1), flush=True)\n"
              "    time.sleep(600)\n")
    with killed_after(script) as said:
        assert said == ["True", "True"]
        assert recover_interrupted(svc) == [] and svc.store.game("g").status == "resolving"  # type: ignore[union-attr]
        try:
            resolve_game(svc, "g")
            raise AssertionError("resolved a turn another process is resolving")
        except AlreadyResolved:
            pass
    until = time.monotonic() + 30
    while not (reopened := recover_interrupted(svc)):
        assert time.monotonic() < until, "the killed resolver's lock was never freed"
        time.sleep(0.1)
    assert reopened == ["g"] and svc.store.game("g").status == "open"  # type: ignore[union-attr]
    resolve_game(svc, "g")
    assert svc.store.game("g").turn == 2 and len(svc.store.turn_records("g", 1)) == 1  # type: ignore[union-attr]
    svc.store.engine.dispose()


def test_a_turn_is_claimed_only_once_the_orders_going_in_are_committed(postgres_url: str) -> None:
    """A daemon taking a mail's orders holds the game (FOR SHARE) until they are committed;
    another daemon claiming the turn at its deadline waits for that, so the resolution reads
    those orders, and a mail handled after the claim is told the turn is being resolved."""
    svc = Service(store=Store(postgres_url), say=lambda s: None, maps=False)
    other = Store(postgres_url)
    new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=1))
    claimed: list[bool] = []
    with svc.store.transaction():
        game = svc.store.hold_game("g")
        assert game is not None and game.status == "open"
        svc.store.submit("g", "germany", 1, text="NOTE in time", normalized="NOTE in time", diagnostics=[],
                         message=None)
        claim = threading.Thread(target=lambda: claimed.append(other.claim_turn("g", 1)))
        claim.start()
        claim.join(timeout=1.0)
        assert claim.is_alive()  # the resolution waits for these orders
    claim.join(timeout=30)
    assert claimed == [True]
    assert list(svc.store.current_submissions("g", 1)) == ["germany"]  # committed before the claim
    with svc.store.transaction():
        assert svc.store.hold_game("g").status == "resolving"  # type: ignore[union-attr]
    other.engine.dispose()
    svc.store.engine.dispose()
