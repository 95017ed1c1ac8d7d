"""A real "disk full" under the daemon (issue 11, "disk full on store"), not a simulated one.

SQLite's `PRAGMA max_page_count` caps how many pages the database file may have; once a
write needs one more, SQLite itself fails it with SQLITE_FULL ("database or disk is full"),
the very error an out-of-space disk gives. `Quota` sets the cap on every connection of the
daemon's engine and first fills the slack left in the file's pages, so that the next write
that needs room fails wherever it happens: storing a fetched batch, the turn's commit, or
marking a sent mail. Each test then gives the room back (raises the cap) and checks that
the same daemon, still running, finishes the work with nothing lost and nothing doubled.
"""

from __future__ import annotations

import smtplib
import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from moderator.mail.intake import Mailbox
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.store.db import Store
from tests.clock import Clock

MOD, PLAYER = "moderator@t.local", "kaiser@t.local"
# A NOTE longer than a page: the mail, its submission and its receipt each need new pages.
ORDERS = "GAME g\nNATION Germany\nTURN 1\nPASSWORD pw\nMOVE 2 inf FROM Ruhr TO Cologne\nNOTE " + "x" * 6000 + "\n"
FULL = "database or disk is full"


class Quota:
    """A page cap on one SQLite database: on every connection of the store's engine, and on
    a connection of its own that fills the file to the cap."""

    def __init__(self, store: Store) -> None:
        assert store.path is not None
        self.store, self.path = store, store.path
        self.cap: int | None = None
        event.listen(store.engine, "connect", self._apply)

    def _apply(self, dbapi_connection: Any, _record: Any) -> None:
        if self.cap is not None:
            dbapi_connection.execute(f"PRAGMA max_page_count = {self.cap}")

    def _reconnect(self) -> None:
        """Pooled connections keep the cap they were opened with: open new ones."""
        self.store.engine.dispose()

    def fill(self) -> None:
        """The disk is full: the file may not grow, and what room is left in it is taken."""
        with sqlite3.connect(self.path, timeout=30) as conn:
            conn.execute("CREATE TABLE IF NOT EXISTS t_filler (b BLOB)")
            conn.commit()
            self.cap = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {self.cap}")
            for size in (4000, 1000, 200, 50, 10, 1):  # big rows take free pages, small ones the slack
                while True:
                    try:
                        conn.execute("INSERT INTO t_filler VALUES (zeroblob(?))", (size,))
                        conn.commit()
                    except sqlite3.OperationalError as exc:
                        assert FULL in str(exc)
                        conn.rollback()
                        break
        self._reconnect()

    def free(self) -> None:
        """Room again (a moderator cleared the disk)."""
        self.cap = None
        self._reconnect()


@pytest.fixture()
def rig(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service, Quota, list[str]]]:
    console: list[str] = []
    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m", PLAYER: "p"}) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(MOD, "m"), say=console.append,
                      clock=Clock(), maps=False)
        new_game(svc, "g", deadline=svc.clock() + timedelta(days=3))
        svc.store.add_seat("g", "germany", PLAYER, "pw")
        yield server, svc, Quota(svc.store), console


def _send(server: EmbeddedMailServer, body: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = PLAYER, MOD, "Orders"
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def _inbox(server: EmbeddedMailServer, address: str, password: str) -> list[bytes]:
    with Mailbox(server.client_config(address, password)) as box:
        return [m.raw for m in box.fetch_unseen()]


def full_faults(daemon: Daemon) -> list[str]:
    return [f.what for f in daemon.faults if FULL in str(f)]


def test_a_full_disk_while_storing_a_batch_loses_and_doubles_nothing(rig: tuple[
        EmbeddedMailServer, Service, Quota, list[str]]) -> None:
    server, svc, quota, console = rig
    daemon = Daemon(svc, deadline_seconds=3600, countdown_seconds=0)
    _send(server, ORDERS)
    quota.fill()
    daemon.tick()
    daemon.tick()  # the daemon is still there, and fails again while the disk is full
    assert full_faults(daemon) == ["mail poll"], console
    assert svc.store.messages(direction="in") == [] and svc.store.current_submissions("g", 1) == {}
    assert len(_inbox(server, MOD, "m")) == 1  # still in the mailbox, unread (BODY.PEEK)
    quota.free()
    daemon.tick()
    daemon.tick()
    [received] = svc.store.messages(direction="in")
    assert received.status == "processed" and "germany" in svc.store.current_submissions("g", 1)
    [receipt] = svc.store.messages(direction="out")
    assert receipt.status == "sent"
    assert len(_inbox(server, PLAYER, "p")) == 1  # the receipt, once


def test_a_full_disk_at_the_turns_commit_leaves_the_turn_open_and_it_resolves_once(rig: tuple[
        EmbeddedMailServer, Service, Quota, list[str]]) -> None:
    server, svc, quota, console = rig
    daemon = Daemon(svc, deadline_seconds=3600, countdown_seconds=0)
    _send(server, ORDERS)
    daemon.tick()
    assert "germany" in svc.store.current_submissions("g", 1)
    sent_before = len(svc.store.messages(direction="out"))
    svc.store.update_game("g", deadline=svc.clock() - timedelta(seconds=1))
    quota.fill()
    daemon.tick()
    assert "resolving g turn 1" in full_faults(daemon), console
    game = svc.game("g")
    assert game.turn == 1 and svc.store.turn_record("g", 1) is None  # nothing of the turn was kept
    # No report queued; the moderator is told (turns.mark_failed), if that small mail found room.
    notices = svc.store.messages(direction="out")[sent_before:]
    assert [m.subject for m in notices] in ([], ["g: turn 1 could not be resolved"]), notices
    sent_before += len(notices)
    quota.free()
    assert isinstance(svc.clock, Clock)
    svc.clock.now += timedelta(minutes=1)  # the daemon's retry pause (RETRY_AFTER) has passed
    daemon.tick()
    daemon.tick()
    game = svc.game("g")
    assert game.turn == 2 and game.status == "open" and svc.store.turn_record("g", 1) is not None
    reports = [m for m in svc.store.messages(direction="out")[sent_before:]]
    assert reports and {m.status for m in reports} == {"sent"}
    subjects = [m.subject for m in reports]
    assert len(subjects) == len(set(subjects)), subjects  # each report once


def test_a_full_disk_when_marking_mail_sent_sends_it_once(rig: tuple[
        EmbeddedMailServer, Service, Quota, list[str]]) -> None:
    """The server accepted the receipt, then its "sent" could not be committed: before the
    fix (service/sending.py sent_unmarked) every later send job mailed it again, five
    copies in four rounds here, for as long as the disk stayed full."""
    server, svc, quota, console = rig
    daemon = Daemon(svc, deadline_seconds=3600, countdown_seconds=0)
    _send(server, ORDERS)
    poll(svc)  # stored and handled while there was room; the receipt waits in the outbox
    [receipt] = svc.store.messages(direction="out")
    assert receipt.status == "queued"
    quota.fill()
    daemon.tick()
    daemon.tick()
    assert full_faults(daemon), console
    assert svc.store.messages(direction="out")[0].status == "queued"  # not recorded yet
    quota.free()
    assert isinstance(svc.clock, Clock)
    svc.clock.now += timedelta(hours=1)  # past any lease and backoff
    daemon.tick()
    daemon.tick()
    [receipt] = svc.store.messages(direction="out")
    assert receipt.status == "sent", console
    assert len(_inbox(server, PLAYER, "p")) == 1, console
