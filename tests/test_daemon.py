"""The daemon keeps running when the mail server is away, and says so on the console."""

import socket
from pathlib import Path

from moderator.mail.config import MailConfig, ServerConfig
from moderator.service.context import Service
from moderator.service.daemon import Daemon, _clock
from moderator.store.db import Store


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # nothing listens here once the socket is closed


def test_a_dead_mailbox_is_reported_and_the_daemon_goes_on(tmp_path: Path) -> None:
    port = _closed_port()
    cfg = MailConfig(imap=ServerConfig("127.0.0.1", port, user="m", timeout=2),
                     smtp=ServerConfig("127.0.0.1", port, timeout=2), from_address="m@x", moderator_address="u@x")
    console: list[str] = []
    daemon = Daemon(Service(store=Store.at(tmp_path / "db"), mail=cfg, say=console.append))
    daemon.tick()
    daemon.tick()
    assert sum("mail poll failed" in line for line in console) == 2


def test_countdown_reads_like_a_clock() -> None:
    from datetime import timedelta

    assert _clock(timedelta(seconds=75)) == "1:15"
    assert _clock(timedelta(hours=2, minutes=3, seconds=4)) == "2:03:04"
    assert _clock(timedelta(days=9, hours=1)) == "9d 1:00:00"
