"""The daemon keeps running when the mail server is away, and says so on the console."""

import smtplib
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from imapclient import IMAPClient

from moderator.mail.config import MailConfig, ServerConfig
from moderator.service.context import Service
from moderator.service.daemon import Daemon, _clock
from moderator.store.db import Store


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens here once the socket is closed


@contextmanager
def _idle_daemon(tmp_path: Path, poll_seconds: float) -> Iterator[tuple[Daemon, Service, list[str]]]:
    """A started daemon (IDLE on) watching the embedded server's m@t.local for game g, with
    Germany's seat at k@t.local; its console lines are collected."""
    from moderator.mail.server import EmbeddedMailServer
    from moderator.service.games import new_game

    with EmbeddedMailServer(tmp_path / "mail", users={"m@t.local": "m", "k@t.local": "k"}) as server:
        console: list[str] = []
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config("m@t.local", "m"), say=console.append)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", "k@t.local", "pw")
        daemon = Daemon(svc, poll_seconds=poll_seconds, deadline_seconds=3600, countdown_seconds=0, idle=True)
        daemon.start()
        try:
            yield daemon, svc, console
        finally:
            daemon.stop()


def _mail_orders(svc: Service) -> None:
    smtp_port = svc.mail.smtp.port  # type: ignore[union-attr]
    with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
        smtp.sendmail("k@t.local", ["m@t.local"], b"From: k@t.local\r\nTo: m@t.local\r\nSubject: Orders\r\n\r\n"
                      b"GAME g\r\nNATION Germany\r\nPASSWORD pw\r\nMOVE 2 inf FROM Ruhr TO Cologne\r\n")


def test_a_dead_mailbox_is_reported_and_the_daemon_goes_on(tmp_path: Path) -> None:
    port = _closed_port()
    cfg = MailConfig(imap=ServerConfig("127.0.0.1", port, user="m", timeout=2),
                     smtp=ServerConfig("127.0.0.1", port, timeout=2), from_address="m@x", moderator_address="u@x")
    console: list[str] = []
    daemon = Daemon(Service(store=Store.at(tmp_path / "db"), mail=cfg, say=console.append))
    daemon.tick()
    daemon.tick()
    assert sum("mail poll failed" in line for line in console) == 2
    # an outage, not a bug: kept as the faults it is, said without a traceback
    assert [(f.what, f.times) for f in daemon.faults] == [("mail poll", 2)]
    assert not any("Traceback" in line for line in console)


def test_countdown_reads_like_a_clock() -> None:
    from datetime import timedelta

    assert _clock(timedelta(seconds=75)) == "1:15"
    assert _clock(timedelta(hours=2, minutes=3, seconds=4)) == "2:03:04"
    assert _clock(timedelta(days=9, hours=1)) == "9d 1:00:00"


def test_idle_takes_new_mail_at_once_without_waiting_for_the_poll(tmp_path: Path) -> None:
    """With IMAP IDLE the daemon handles a mail when it arrives; the hourly poll never runs
    in this test after the first one, so only IDLE can have found it."""
    import threading

    with _idle_daemon(tmp_path, poll_seconds=3600) as (daemon, svc, console):
        assert daemon.idling.wait(60), console
        settled = threading.Event()
        for _ in range(600):  # the start-up polls (the first, and the one IDLE asks for on connecting)
            job = daemon.scheduler.get_job("poll")
            if job is not None and job.next_run_time - datetime.now(UTC) > timedelta(minutes=30):
                settled.set()
                break
            settled.wait(0.1)
        assert settled.is_set()
        _mail_orders(svc)
        done = threading.Event()
        for _ in range(600):
            if svc.store.current_submissions("g", 1):
                done.set()
                break
            done.wait(0.1)
        assert done.is_set(), console
        assert daemon.scheduler.get_job("poll").next_run_time - datetime.now(UTC) > timedelta(minutes=30)


def test_a_server_without_idle_is_polled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that does not offer IDLE: the daemon says so once and finds new mail by its
    periodic poll (here every half second), never idling."""
    import time

    from imapclient import IMAPClient

    offers = IMAPClient.has_capability
    monkeypatch.setattr(IMAPClient, "has_capability",
                        lambda self, capability: capability != "IDLE" and offers(self, capability))
    with _idle_daemon(tmp_path, poll_seconds=0.5) as (daemon, svc, console):
        limit = time.monotonic() + 60
        while not any("does not offer IDLE" in line for line in console):
            assert time.monotonic() < limit, console
            time.sleep(0.1)
        _mail_orders(svc)
        while not svc.store.current_submissions("g", 1):
            assert time.monotonic() < limit, console
            time.sleep(0.1)
        assert not daemon.idling.is_set()


def test_idle_is_issued_again_before_servers_drop_it_and_still_hears_new_mail(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """IDLE is re-issued every `renew` seconds on the same connection (servers may drop an
    IDLE after 30 minutes, RFC 2177: 25 minutes in the daemon, one second here), and mail
    that arrives after a renewal still wakes the poll.

    It waits on events only, with generous limits, so a loaded machine makes it slower, not
    red. (Under load it used to fail now and then: pymap writes a FETCH in pieces, and
    imapclient's idle_check, reading one cut line, broke the connection; mail/idle.py
    reads whole lines now, test_a_line_that_comes_in_pieces_is_read_whole.)"""
    from moderator.mail import idle
    from moderator.mail.server import EmbeddedMailServer

    monkeypatch.setattr(idle, "CHECK", 0.2)
    issued: list[int] = []
    renewed = threading.Event()  # the third IDLE: issued, then re-issued twice
    original = IMAPClient.idle

    def counted(self: IMAPClient) -> None:
        issued.append(id(self))
        if len(issued) >= 3:
            renewed.set()
        original(self)

    monkeypatch.setattr(IMAPClient, "idle", counted)
    with EmbeddedMailServer(tmp_path / "mail", users={"m@t.local": "m", "k@t.local": "k"}) as server:
        woken, stop, said = threading.Event(), threading.Event(), []
        watcher = threading.Thread(target=idle.watch, args=(server.client_config("m@t.local", "m"), woken.set, stop,
                                                            said.append), kwargs={"renew": 1.0}, daemon=True)
        watcher.start()
        try:
            assert renewed.wait(120), (issued, said)  # never set where IDLE is not re-issued
            woken.clear()  # (the wake-up every new connection gives)
            with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=60) as smtp:
                smtp.sendmail("k@t.local", ["m@t.local"], b"From: k@t.local\r\nSubject: x\r\n\r\nNOTE hello\r\n")
            assert woken.wait(120), said
        finally:
            stop.set()
            watcher.join(timeout=120)
    assert not watcher.is_alive()
    assert len(set(issued)) == 1 and said == []  # one connection throughout, never broken


@contextmanager
def _idling_client(while_idle: Callable[[socket.socket, threading.Event], None]) -> Iterator[IMAPClient]:
    """An IMAPClient in IDLE on a scripted server that speaks just enough IMAP (the greeting,
    CAPABILITY, IDLE, DONE, LOGOUT). `while_idle(conn, idling)` answers IDLE: the
    continuation, then whatever the test needs; `idling` is set once the client's idle()
    has returned (what the server sends after that waits on the socket, not read ahead)."""
    from imapclient import IMAPClient

    idling = threading.Event()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)

        def serve() -> None:
            conn, _ = listener.accept()
            with conn, conn.makefile("rb") as lines:
                conn.sendall(b"* OK [CAPABILITY IMAP4rev1 IDLE] ready\r\n")
                idle_tag = b""
                for line in lines:
                    tag, _, command = line.strip().partition(b" ")
                    if command == b"IDLE":
                        idle_tag = tag
                        while_idle(conn, idling)
                    elif tag == b"DONE":
                        conn.sendall(idle_tag + b" OK IDLE done\r\n")
                    elif command == b"CAPABILITY":
                        conn.sendall(b"* CAPABILITY IMAP4rev1 IDLE\r\n" + tag + b" OK done\r\n")
                    else:  # LOGOUT
                        conn.sendall(b"* BYE bye\r\n" + tag + b" OK done\r\n")
                        return

        server = threading.Thread(target=serve, daemon=True)
        server.start()
        client = IMAPClient("127.0.0.1", port=listener.getsockname()[1], ssl=False, timeout=30)
        client.idle()
        idling.set()
        yield client
        assert client.idle_done()[0] == b"IDLE done"  # the connection goes on
        client.logout()
        server.join(30)


def test_a_line_that_comes_in_pieces_is_read_whole() -> None:
    """A server may send a line in pieces (pymap writes a FETCH in a dozen writes; a TCP
    segment may end anywhere): what the watcher reads while idling is whole lines, and the
    connection goes on. imapclient's idle_check read the first piece alone and gave the
    connection up ("unterminated line"): under load, one new mail in eight."""
    from moderator.mail import idle

    first_piece, rest = threading.Event(), threading.Event()

    def in_pieces(conn: socket.socket, idling: threading.Event) -> None:
        conn.sendall(b"+ idling\r\n")
        idling.wait(30)
        conn.sendall(b"* 3 FETCH (FLA")
        first_piece.set()
        rest.wait(30)
        conn.sendall(b"GS ())\r\n* 4 EXISTS\r\n")

    with _idling_client(in_pieces) as client:
        assert first_piece.wait(30)
        threading.Timer(0.5, rest.set).start()  # the rest comes while the first piece waits, read
        assert idle._responses(client, 30.0) == [(3, b"FETCH", (b"FLAGS", ())), (4, b"EXISTS")]


def test_a_line_read_ahead_with_the_continuation_is_heard_at_once() -> None:
    """A server may announce mail in the same packet as IDLE's continuation (mail that came
    between DONE and IDLE, say): the client's buffered reader then holds the EXISTS, and the
    socket has nothing more to say. It is heard at the first look; imapclient's idle_check,
    asking the socket only, heard it with the next thing the server said, up to a renewal
    later."""
    from moderator.mail import idle

    def at_once(conn: socket.socket, idling: threading.Event) -> None:
        conn.sendall(b"+ idling\r\n* 4 EXISTS\r\n")

    with _idling_client(at_once) as client:
        assert idle._responses(client, 0.5) == [(4, b"EXISTS")]


def test_a_connection_closed_while_idling_is_reported_as_closed() -> None:
    """A server that closes the connection without a BYE: the watcher hears the end at once
    and says so in words (watch() then reconnects), instead of waiting on a dead socket."""
    from moderator.mail import idle
    from moderator.mail.intake import IntakeError

    def closing(conn: socket.socket, idling: threading.Event) -> None:
        conn.sendall(b"+ idling\r\n")
        idling.wait(30)
        conn.shutdown(socket.SHUT_RDWR)

    with pytest.raises(IntakeError, match="connection was closed"), _idling_client(closing) as client:
        idle._responses(client, 30.0)


def test_only_the_executors_refusal_at_shutdown_is_hushed() -> None:
    """APScheduler's "Error submitting job" record after the executor closed (by stop(), or by
    the interpreter's shutdown after a SIGTERM) is dropped; any other error is kept."""
    import logging

    from moderator.service.daemon import _submitting_after_shutdown

    def record(exc: BaseException) -> logging.LogRecord:
        return logging.LogRecord("apscheduler.scheduler", logging.ERROR, __file__, 1, "Error submitting job",
                                 None, (type(exc), exc, None))

    assert not _submitting_after_shutdown(record(RuntimeError("cannot schedule new futures after shutdown")))
    assert not _submitting_after_shutdown(
        record(RuntimeError("cannot schedule new futures after interpreter shutdown")))
    assert _submitting_after_shutdown(record(RuntimeError("something else broke")))
    assert _submitting_after_shutdown(record(ValueError("cannot schedule new futures after shutdown")))


def test_mail_announced_as_idle_is_renewed_still_wakes_the_poll() -> None:
    """The server's EXISTS that comes between the last look and DONE (the renewal's moment)
    is in idle_done()'s answer only; it wakes the poll like any other (before, it was
    dropped, and mail arriving just then waited for the next poll: seen once in CI)."""
    import threading

    from imapclient import IMAPClient

    from moderator.mail import idle

    class Renewing(IMAPClient):
        def __init__(self) -> None:  # no connection: only the IDLE calls are played
            self.calls: list[str] = []

        def idle(self) -> None:
            self.calls.append("idle")

        def idle_check(self, timeout: float | None = None) -> list[object]:
            self.calls.append("check")
            return []

        def idle_done(self) -> tuple[bytes, list[object]]:
            self.calls.append("done")
            return b"IDLE terminated", [(7, b"EXISTS")]

    woken: list[int] = []
    client = Renewing()
    idle._idle_once(client, lambda: woken.append(1), threading.Event(), renew=0.0, idling=None)
    assert client.calls == ["idle", "done"] and woken == [1]
    client.idle_done = lambda: (b"IDLE terminated", [(7, b"FETCH", (b"FLAGS", ()))])  # type: ignore[method-assign]
    idle._idle_once(client, lambda: woken.append(1), threading.Event(), renew=0.0, idling=None)
    assert woken == [1]  # a flag change is no new mail


def test_a_fault_is_kept_and_said_with_its_traceback_once(tmp_path: Path) -> None:
    """What a guarded step raises is not lost (issue 14): kept in `faults`, said with its
    traceback the first time (the daemon's log), in one line and counted when the same
    step fails the same way again a moment later; another error is a fault of its own."""
    console: list[str] = []
    daemon = Daemon(Service(store=Store.at(tmp_path / "db"), say=console.append))

    def broken() -> None:
        raise KeyError("lost")

    daemon._guard("a step", broken)
    daemon._guard("a step", broken)
    daemon._guard("a step", lambda: 1 / 0)  # type: ignore[func-returns-value]
    assert [(str(f), f.times) for f in daemon.faults] == [("a step failed: KeyError: 'lost'", 2),
                                                        ("a step failed: ZeroDivisionError: division by zero", 1)]
    assert console[0].startswith("a step failed: KeyError: 'lost'\nTraceback (most recent call last)")
    assert "in broken" in console[0] and "in broken" in daemon.faults[0].trace
    assert console[1] == "a step failed: KeyError: 'lost'"
    assert console[2].startswith("a step failed: ZeroDivisionError: division by zero\nTraceback")
