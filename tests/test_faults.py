"""kill -9 at every step of intake, resolution and sending, then restart (issue 11).

The daemon runs as a subprocess (`moderator run`) against the embedded IMAP and SMTP
servers on loopback; MODERATOR_CRASH_AT (moderator/service/faults.py) makes it SIGKILL
itself at one named step; a second daemon without it then finishes the work. Afterwards:
every order mail is stored and handled exactly once, every receipt and report is
delivered once (a re-send after a crash between the server's "250" and our commit
carries the same Message-ID, so it is the one duplicate a crash there can cause, and
readers' clients drop it), and the turn is resolved once with the state hash of an
uninterrupted resolution.
"""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Protocol

import pytest

from moderator.mail.config import MailConfig
from moderator.mail.intake import Mailbox
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.demo_orders import sample_orders
from moderator.service.games import new_game
from moderator.store.db import Store

ORDERS_BOX, UMPIRE = "orders@t.local", "umpire@t.local"
SEATS = {"germany": "kaiser@t.local", "france": "poincare@t.local"}
USERS = {ORDERS_BOX: "o", UMPIRE: "u", **{address: "p" for address in SEATS.values()}}


class MailServers(Protocol):
    """Where the rig's mail goes: the embedded server here, Dovecot and Postfix in
    tests/test_dovecot.py (mail sent to smtp_port reaches the users' IMAP mailboxes)."""

    imap_port: int
    smtp_port: int

    def client_config(self, address: str, password: str, moderator_address: str | None = None) -> MailConfig: ...


class Rig:
    """A mail server, a database with game g, and a configuration for `moderator run`."""

    def __init__(self, root: Path, server: MailServers, deadline: datetime) -> None:
        self.root, self.server = root, server
        self.db = root / "m.db"
        self.svc = Service(store=Store.at(self.db), say=lambda s: None)
        new_game(self.svc, "g", deadline=deadline, seed="faults")
        for nation, address in SEATS.items():
            self.svc.store.add_seat("g", nation, address, f"pw-{nation}")
        self.config = root / "moderator.toml"
        self.configure(smtp_port=server.smtp_port)

    def configure(self, smtp_port: int) -> None:
        """Write the daemon's configuration, sending through `smtp_port` (a dead port: SMTP down)."""
        self.config.write_text(
            f'[service]\ndatabase = "sqlite:///{self.db}"\npoll_seconds = 0.3\ndeadline_check_seconds = 0.3\n'
            'maps = false\n'  # the reports' text is what these tests follow, not their maps
            f'[mail]\nfrom_address = "{ORDERS_BOX}"\nmoderator_address = "{UMPIRE}"\n'
            f'[mail.imap]\nhost = "127.0.0.1"\nport = {self.server.imap_port}\nuser = "{ORDERS_BOX}"\n'
            f'password_env = "T_FAULTS_IMAP"\ntimeout = 10\n'
            f'[mail.smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\ntimeout = 10\n', encoding="utf-8")

    def orders(self, nation: str, note: str) -> str:
        state = self.svc.state(self.svc.game("g"))
        text = sample_orders(state, self.svc.world(self.svc.game("g")), nation)
        return (text.replace("GAME demo", "GAME g").replace("PASSWORD demo-", "PASSWORD pw-")
                + f"NOTE {note}\n")

    def mail(self, nation: str, body: str, date: datetime | None = None) -> str:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = SEATS[nation], ORDERS_BOX, "Orders"
        msg["Message-ID"] = make_msgid(domain="t.local")
        if date is not None:  # when it was written (a queue may deliver a burst out of order)
            msg["Date"] = date
        msg.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.server.smtp_port) as smtp:
            smtp.send_message(msg)
        return str(msg["Message-ID"])

    def daemon(self, crash_at: str | None = None) -> subprocess.Popen[bytes]:
        env = {**os.environ, "T_FAULTS_IMAP": "o", "MODERATOR_CONFIG": str(self.config)}
        env.pop("MODERATOR_CRASH_AT", None)
        if crash_at:
            env["MODERATOR_CRASH_AT"] = crash_at
        log = (self.root / f"daemon-{crash_at or 'clean'}.log").open("ab")
        return subprocess.Popen([sys.executable, "-c", "from moderator.cli import main; raise SystemExit(main())",
                                 "run", "--config", str(self.config)], env=env, stdout=log, stderr=log)

    def crash_then_finish(self, crash_at: str, done: Callable[[], bool], timeout: float = 120,
                          between: Callable[[], None] | None = None) -> None:
        """Run until the crash point kills the daemon, then (after `between`, what happens
        while it is down) again until `done()`."""
        first = self.daemon(crash_at)
        try:
            assert first.wait(timeout) == -signal.SIGKILL, self._log(crash_at)
        finally:
            _stop(first)
        if between is not None:
            between()
        self.finish(done, timeout)

    def finish(self, done: Callable[[], bool], timeout: float = 120) -> None:
        """Run a daemon without a crash point until `done()`, and a moment longer."""
        second = self.daemon()
        try:
            deadline = time.monotonic() + timeout
            while not done():
                assert second.poll() is None, self._log("clean")
                assert time.monotonic() < deadline, "the restarted daemon did not finish: " + self._log("clean")
                time.sleep(0.3)
            time.sleep(1.0)  # anything it would wrongly do twice, it does now
        finally:
            _stop(second)

    def _log(self, name: str) -> str:
        path = self.root / f"daemon-{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else "(no log)"

    def inbox(self, address: str) -> list[EmailMessage]:
        with Mailbox(self.server.client_config(address, USERS[address])) as box:
            return [message_from_bytes(m.raw) for m in box.fetch_unseen()]  # type: ignore[misc]

    def settled(self) -> bool:
        """Every stored message handled, nothing waiting in the outbox or the orders mailbox."""
        store = self.svc.store
        return (not store.messages(direction="in", status="new") and not store.messages(direction="out",
                                                                                        status="queued")
                and not self.inbox(ORDERS_BOX))


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture()
def mail_server(tmp_path: Path) -> Iterator[EmbeddedMailServer]:
    with EmbeddedMailServer(tmp_path / "mail", users=USERS) as server:
        yield server


def _delivered(rig: Rig, addresses: list[str]) -> Counter[str]:
    return Counter(str(m["Message-ID"]) for a in addresses for m in rig.inbox(a))


INTAKE_STEPS = ["intake.stored@3", "intake.handled@3", "intake.filed@1", "outbox.accepted@2", "outbox.marked@2"]


# Two steps in the default suite (about 12 s each), every step with -m slow.
@pytest.mark.parametrize("crash_at", [pytest.param(step, marks=[] if step in ("intake.handled@3", "outbox.accepted@2")
                                                   else [pytest.mark.slow]) for step in INTAKE_STEPS])
def test_order_mail_survives_kill_9_at_every_step_of_intake_and_sending(
        tmp_path: Path, mail_server: EmbeddedMailServer, crash_at: str) -> None:
    rig = Rig(tmp_path, mail_server, deadline=datetime.now(UTC) + timedelta(days=3))
    sent = {nation: [rig.orders(nation, f"mail {n}") for n in range(3)] for nation in SEATS}
    for n in range(3):
        for nation in SEATS:
            rig.mail(nation, sent[nation][n])
    rig.crash_then_finish(crash_at, lambda: len(rig.svc.store.messages(direction="in")) == 6 and rig.settled())
    store = rig.svc.store
    received = store.messages(direction="in")
    assert len(received) == 6 and {m.status for m in received} == {"processed"}  # stored once, handled once
    receipts = store.messages(direction="out")
    assert len(receipts) == 6 and {m.status for m in receipts} == {"sent"}  # one receipt each
    delivered = _delivered(rig, list(SEATS.values()))
    assert set(delivered) == {m.message_id for m in receipts}
    # Once each; only a crash between the server's acceptance and our commit re-sends one,
    # and then with the same Message-ID.
    assert sum(delivered.values()) == 6 + (1 if crash_at.startswith("outbox.accepted") else 0)
    # The last mail of each seat is the one that counts.
    current = store.current_submissions("g", 1)
    assert {n: "NOTE mail 2" in current[n].text for n in SEATS} == {n: True for n in SEATS}


TURN_STEPS = ["turn.computed", "turn.reports-built", "turn.committed", "outbox.marked@3"]


# The report building (most of a resolution's time) in the default suite, every step with -m slow.
@pytest.mark.parametrize("crash_at", [pytest.param(step, marks=[] if step == "turn.reports-built"
                                                   else [pytest.mark.slow]) for step in TURN_STEPS])
def test_a_turn_survives_kill_9_at_every_step_of_resolution(
        tmp_path: Path, mail_server: EmbeddedMailServer, crash_at: str) -> None:
    """The deadline passed while the daemon was down: it resolves at start, once, with the
    same state as an uninterrupted resolution, and every report is delivered once."""
    from moderator.service.inbox import take_orders
    from moderator.service.turns import compute, turn_inputs

    rig = Rig(tmp_path, mail_server, deadline=datetime.now(UTC) + timedelta(days=3))
    svc = rig.svc
    game = svc.game("g")
    for nation in SEATS:
        take_orders(svc, game, nation, rig.orders(nation, "by hand"))
    expected = compute(svc, game, 1, turn_inputs(svc, game, svc.ruleset(game))).sha256  # uninterrupted
    svc.store.update_game("g", deadline=datetime.now(UTC) - timedelta(seconds=1))

    def resolved() -> bool:
        g = svc.store.game("g")
        return g is not None and g.turn == 2 and rig.settled()

    rig.crash_then_finish(crash_at, resolved)
    record = svc.store.turn_record("g", 1)
    assert record is not None and record.result_sha256 == expected
    with svc.store.session() as s:
        from sqlmodel import select

        from moderator.store.tables import Snapshot, TurnRecord

        assert len(list(s.exec(select(TurnRecord)))) == 1  # resolved once
        assert len(list(s.exec(select(Snapshot).where(Snapshot.turn == 2)))) == 1
    reports = svc.store.messages(direction="out")
    assert {m.status for m in reports} == {"sent"}
    # Each seat's report, its alliance's status and the public bulletin, and the moderator's
    # copy: queued once each.
    assert len(reports) == 3 * len(SEATS) + 1
    delivered = _delivered(rig, [*SEATS.values(), UMPIRE])
    assert set(delivered) == {m.message_id for m in reports}
    assert max(delivered.values()) == 1
