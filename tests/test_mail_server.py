"""The embedded IMAP+SMTP server, intake and outbox, over real sockets on loopback."""

from __future__ import annotations

import email
import itertools
import smtplib
import struct
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from imapclient import IMAPClient

from moderator.mail.compose import AUTO_GENERATED, Attachment, compose, inline_image
from moderator.mail.config import MailConfig
from moderator.mail.intake import Mailbox, acknowledge, fetch_unseen, quarantine
from moderator.mail.outbox import send_all
from moderator.mail.server import EmbeddedMailServer, MailServerError
from tests.mailbox import reset_the_second_fetch

PLAYER = "france@demo.local"
WHEN = datetime(1914, 8, 1, 12, 0, tzinfo=UTC)
_counter = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedMailServer]:
    root = tmp_path_factory.mktemp("mail")
    with EmbeddedMailServer(root, users={PLAYER: "pw-france"}) as running:
        yield running


@pytest.fixture
def moderator(server: EmbeddedMailServer) -> MailConfig:
    """A fresh moderator mailbox per test, so tests do not see each other's mail."""
    address = f"moderator{next(_counter)}@demo.local"
    server.add_user(address, "pw-" + address)
    return server.client_config(address, "pw-" + address)


def _raw(subject: str, body: str = "Army Paris to Burgundy\r\n", sender: str = PLAYER) -> bytes:
    return (
        f"From: France <{sender}>\r\nTo: moderator@demo.local\r\nSubject: {subject}\r\n"
        f"Message-ID: <{subject.replace(' ', '.')}@demo.local>\r\n\r\n{body}"
    ).encode()


def _smtp_send(server: EmbeddedMailServer, to: str, raw: bytes, sender: str = PLAYER) -> None:
    with smtplib.SMTP(server.host, server.smtp_port, local_hostname="test.local") as client:
        client.sendmail(sender, [to], raw)


def _lf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n")


def test_ports_are_real_and_distinct(server: EmbeddedMailServer) -> None:
    assert server.imap_port > 0 and server.smtp_port > 0 and server.imap_port != server.smtp_port
    assert "pw-france" not in repr(server)


def test_smtp_delivery_arrives_over_imap_with_bytes_intact(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    raw = _raw("orders spring 1915", "Army Paris to Burgundy\r\nFleet Brest holds\r\n\r\n-- \r\nPoincare\r\n")
    _smtp_send(server, moderator.from_address, raw)
    fetched = fetch_unseen(moderator)
    assert len(fetched) == 1
    # The maildir backend stores LF line endings (the maildir convention); the delivery agent
    # prepends Return-Path (RFC 5321 4.4). Apart from that, the message is byte-for-byte ours.
    assert _lf(fetched[0].raw) == b"Return-Path: <" + PLAYER.encode() + b">\n" + _lf(raw)
    assert fetched[0].folder == "INBOX" and fetched[0].uid > 0


def test_fetch_does_not_mark_seen_until_acknowledged(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    for n in range(3):
        _smtp_send(server, moderator.from_address, _raw(f"turn {n}"))
    first = fetch_unseen(moderator)
    assert [email.message_from_bytes(m.raw)["Subject"] for m in first] == ["turn 0", "turn 1", "turn 2"]
    # Storing "failed": nothing acknowledged, so the next poll sees the same messages again.
    assert [m.uid for m in fetch_unseen(moderator)] == [m.uid for m in first]
    assert acknowledge(moderator, first[:2]) == sorted(m.uid for m in first[:2])
    rest = fetch_unseen(moderator)
    assert [m.uid for m in rest] == [first[2].uid]
    assert _folder_count(moderator, "Processed") == 2
    assert _folder_count(moderator, "INBOX") == 1


def test_quarantine_moves_message_out_of_the_inbox(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    _smtp_send(server, moderator.from_address, _raw("out of office"))
    with Mailbox(moderator) as mailbox:
        fetched = mailbox.fetch_unseen()
        assert mailbox.quarantine(fetched) == [fetched[0].uid]
        assert mailbox.fetch_unseen() == []
    assert _folder_count(moderator, "Quarantine") == 1
    assert quarantine(moderator, []) == []


def test_acknowledge_ignores_uids_from_another_uidvalidity(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    _smtp_send(server, moderator.from_address, _raw("stale"))
    fetched = fetch_unseen(moderator)
    stale = [type(m)(m.uid, m.uidvalidity + 1, m.folder, m.raw) for m in fetched]
    assert acknowledge(moderator, stale) == []
    assert len(fetch_unseen(moderator)) == 1


def test_fetch_limit(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    for n in range(3):
        _smtp_send(server, moderator.from_address, _raw(f"limit {n}"))
    assert len(fetch_unseen(moderator, limit=2)) == 2


def test_batches_fetch_one_ahead_and_raise_a_failed_fetch_once_the_batch_before_is_done(
        server: EmbeddedMailServer, moderator: MailConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(5):
        _smtp_send(server, moderator.from_address, _raw(f"ahead {n}"))
    steps: list[str] = []
    with Mailbox(moderator) as box:
        for batch in box.batches(2, lambda fetched: steps.append(f"fetched {len(fetched)}")):
            steps.append(f"handed {len(batch)}")
    # each batch is fetched (and given to the read-ahead) before the one before is handed out
    assert steps == ["fetched 2", "fetched 2", "handed 2", "fetched 1", "handed 2", "handed 1"]

    reset_the_second_fetch(monkeypatch)
    done = []
    with Mailbox(moderator) as box, pytest.raises(ConnectionResetError):
        for batch in box.batches(2):
            done.append(len(batch))  # the first batch is handed out and done before the error
    assert done == [2]


def test_the_filer_files_batches_on_its_own_connection_and_raises_its_error_at_the_end(
        server: EmbeddedMailServer, moderator: MailConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    from moderator.mail.intake import Filer

    for n in range(3):
        _smtp_send(server, moderator.from_address, _raw(f"filed {n}"))
    fetched = fetch_unseen(moderator)
    after: list[int] = []
    with Filer(moderator) as filer:
        filer.file([], fetched[:2], lambda: after.append(1))
        filer.file([], fetched[2:], lambda: after.append(2))
    assert after == [1, 2] and fetch_unseen(moderator) == []
    with Filer(moderator):
        pass  # nothing given: no connection, nothing to raise
    _smtp_send(server, moderator.from_address, _raw("filed at once"))
    with Mailbox(moderator) as box, Filer(moderator, box) as filer:
        filer.file([], box.fetch_unseen(), lambda: after.append(3))
        # no fetch under way on the fetching connection: filed on it, at once, without a thread
        assert after == [1, 2, 3] and filer._thread is None and box.fetch_unseen() == []

    _smtp_send(server, moderator.from_address, _raw("filed later"))
    _smtp_send(server, moderator.from_address, _raw("filed later 2"))
    fetched = fetch_unseen(moderator)

    def broken(self: Mailbox, items: object) -> list[int]:
        raise ConnectionResetError("connection reset by peer")

    monkeypatch.setattr(Mailbox, "acknowledge", broken)
    after.clear()
    with pytest.raises(ConnectionResetError), Filer(moderator) as filer:
        filer.file([], fetched[:1], lambda: after.append(1))
        filer.file([], fetched[1:], lambda: after.append(2))
    assert after == [] and len(fetch_unseen(moderator)) == 2  # left in the folder for the next poll


def test_unknown_recipient_is_rejected(server: EmbeddedMailServer) -> None:
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        _smtp_send(server, "nobody@demo.local", _raw("lost"))
    code, _text = refused.value.recipients["nobody@demo.local"]
    assert code == 550


def test_wrong_imap_password_is_refused(server: EmbeddedMailServer) -> None:
    with IMAPClient(server.host, server.imap_port, ssl=False, timeout=10) as client:
        with pytest.raises(Exception, match="(?i)auth|invalid|fail"):
            client.login(PLAYER, "wrong")


def _png() -> bytes:
    """A real 1x1 PNG (signature, IHDR, IDAT, IEND), built here so the test has no files."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b"")


def test_outbox_sends_report_with_inline_map_intact(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    png = _png()
    image = inline_image("map", png, moderator.message_id_domain)
    message = compose(
        sender=moderator.from_address, to=[PLAYER, moderator.from_address], subject="Turn 3 report — France",
        text="Spring 1915.\nYour army entered Burgundy.", html=f"<p>Spring 1915.</p><img src=\"{image.src}\">",
        images=[image], attachments=[Attachment("orders.txt", b"Army Paris holds\n", "text", "plain")],
        date=WHEN, domain=moderator.message_id_domain, auto_submitted=AUTO_GENERATED,
    )
    results = send_all(moderator, [message])
    assert [r.sent for r in results] == [True] and results[0].refused == {}
    received = fetch_unseen(moderator)
    assert len(received) == 1
    parsed = email.message_from_bytes(received[0].raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    assert parsed["Message-ID"] == message["Message-ID"]
    assert parsed["Subject"] == "Turn 3 report — France"
    assert parsed["Auto-Submitted"] == AUTO_GENERATED
    images = [p for p in parsed.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1 and images[0].get_content() == png
    html = parsed.get_body(preferencelist=("html",))
    assert html is not None and f"cid:{images[0]['Content-ID'].strip('<>')}" in html.get_content()
    plain = parsed.get_body(preferencelist=("plain",))
    assert plain is not None and "Burgundy" in plain.get_content()


def test_outbox_reports_bad_recipient_without_raising(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    def note(to: list[str], n: int) -> EmailMessage:
        return compose(sender=moderator.from_address, to=to, subject=f"note {n}", text="x", date=WHEN,
                       domain="demo.local")

    results = send_all(moderator, [
        note(["nobody@demo.local"], 1),
        note([moderator.from_address, "ghost@demo.local"], 2),
        note([moderator.from_address], 3),
    ])
    assert [r.sent for r in results] == [False, True, True]
    assert "nobody@demo.local" in (results[0].error or "")
    assert list(results[1].refused) == ["ghost@demo.local"]
    assert [email.message_from_bytes(m.raw)["Subject"] for m in fetch_unseen(moderator)] == ["note 2", "note 3"]


def test_outbox_unreachable_server_fails_each_message(moderator: MailConfig) -> None:
    from dataclasses import replace

    with socket_closed_port() as port:
        dead = replace(moderator, smtp=replace(moderator.smtp, port=port, timeout=2.0))
        message = compose(sender="a@demo.local", to=["b@demo.local"], subject="s", text="t", date=WHEN,
                          domain="demo.local")
        results = send_all(dead, [message, message])
    assert [r.sent for r in results] == [False, False]
    assert all("connect" in (r.error or "") for r in results)


class socket_closed_port:  # noqa: N801 - used like a function
    """A port on loopback with nothing listening (bound, then released)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])

    def __exit__(self, *exc: object) -> None:
        return None


def test_start_twice_and_unstarted_ports_are_errors(tmp_path: Path) -> None:
    idle = EmbeddedMailServer(tmp_path / "idle")
    with pytest.raises(MailServerError):
        _ = idle.imap_port
    with EmbeddedMailServer(tmp_path / "busy") as running:
        with pytest.raises(MailServerError):
            running.start()
    running.stop()  # a second stop is harmless


def test_restart_on_same_root_keeps_mail(tmp_path: Path) -> None:
    users = {"keep@demo.local": "pw"}
    with EmbeddedMailServer(tmp_path, users=users) as first:
        _smtp_send(first, "keep@demo.local", _raw("kept"))
    with EmbeddedMailServer(tmp_path, users=users) as second:
        fetched = fetch_unseen(second.client_config("keep@demo.local", "pw"))
    assert [email.message_from_bytes(m.raw)["Subject"] for m in fetched] == ["kept"]


def _folder_count(config: MailConfig, folder: str) -> int:
    with IMAPClient(config.imap.host, config.imap.port, ssl=False, timeout=10) as client:
        assert config.imap.user and config.imap.password
        client.login(config.imap.user, config.imap.password.reveal())
        return int(client.folder_status(folder, [b"MESSAGES"])[b"MESSAGES"])


def test_without_processed_folder_acknowledge_only_marks_seen(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    from dataclasses import replace

    seen_only = replace(moderator, processed_folder=None)
    _smtp_send(server, moderator.from_address, _raw("seen only"))
    fetched = fetch_unseen(seen_only)
    assert acknowledge(seen_only, fetched) == [fetched[0].uid]
    assert fetch_unseen(seen_only) == []
    assert _folder_count(moderator, "INBOX") == 1


def test_mail_server_command_prints_ports_and_serves(tmp_path: Path) -> None:
    """`moderator mail-server` in the foreground: reads its ports from stdout, delivers, stops on SIGTERM."""
    import signal
    import subprocess
    import sys

    # Only this package's verbs are registered, so the test does not depend on other packages.
    launcher = (
        "import argparse, sys; from moderator.mail import commands; p = argparse.ArgumentParser(); "
        "commands.register(p.add_subparsers()); a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))"
    )
    argv = [sys.executable, "-c", launcher, "mail-server", "--root", str(tmp_path), "--imap-port", "0",
            "--smtp-port", "0", "--user", "cli@demo.local:pw"]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(4)]
        ports = {line.split()[0]: int(line.split()[1].rsplit(":", 1)[1]) for line in lines[:2]}
        assert lines[3].split() == ["user", "cli@demo.local"]
        with smtplib.SMTP("127.0.0.1", ports["SMTP"], local_hostname="test.local") as client:
            client.sendmail(PLAYER, ["cli@demo.local"], _raw("via cli"))
        with IMAPClient("127.0.0.1", ports["IMAP"], ssl=False, timeout=10) as imap:
            imap.login("cli@demo.local", "pw")
            imap.select_folder("INBOX")
            assert len(imap.search(["UNSEEN"])) == 1
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0


def test_bounce_with_null_sender_is_recognised_as_robot_mail(server: EmbeddedMailServer, moderator: MailConfig) -> None:
    from moderator.mail.extract import extract

    _smtp_send(server, moderator.from_address, _raw("Undelivered Mail", "gone\r\n", sender="x@demo.local"), sender="")
    _smtp_send(server, moderator.from_address, _raw("orders", "Army Paris holds\r\n"))
    extracted = [extract(m.raw) for m in fetch_unseen(moderator)]
    assert [(e.subject, e.auto_submitted) for e in extracted] == [("Undelivered Mail", True), ("orders", False)]
    assert extracted[1].text == "Army Paris holds" and extracted[1].sender == PLAYER


def test_busy_port_is_a_clear_startup_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = int(busy.getsockname()[1])
        failing = EmbeddedMailServer(tmp_path, imap_port=0, smtp_port=port)
        with pytest.raises(MailServerError, match="failed to start"):
            failing.start()
    # Nothing half-started is left behind: the same object starts cleanly afterwards.
    with failing:
        assert failing.smtp_port == port
