"""Many games on one daemon (issue 12): one mailbox; a mail without a GAME line finds its
game by the game's own address, a plus address (moderator+GAME@...) or a subject tag."""

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

BOX, KAISER = "moderator@t.local", "kaiser@t.local"
ORDERS = "NATION Germany\nPASSWORD pw\nMOVE 2 inf FROM Ruhr TO Cologne\n"


@pytest.fixture()
def games(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service]]:
    with EmbeddedMailServer(tmp_path / "mail", users={BOX: "m", KAISER: "k"}) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(BOX, "m"), say=lambda s: None)
        for gid in ("east", "west", "south"):
            new_game(svc, gid, deadline=datetime.now(UTC) + timedelta(days=3))
            svc.store.add_seat(gid, "germany", KAISER, "pw")
        svc.store.update_game("south", address="south-front@t.local")
        yield server, svc


def _send(server: EmbeddedMailServer, to: str, subject: str, body: str = ORDERS) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = KAISER, to, subject
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg, to_addrs=[BOX])  # every game's mail ends in the one mailbox


def test_each_mail_finds_its_game_without_a_game_line(games: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = games
    _send(server, BOX, "Orders [west]")
    _send(server, "moderator+east@t.local", "my orders")
    _send(server, "South Front <south-front@t.local>", "orders")
    _send(server, BOX, "Re: The War to End All Wars: August 1914 (east): turn 1 report")
    outcomes = poll(svc)
    assert [o.status for o in outcomes] == ["processed"] * 4
    assert set(svc.store.current_submissions("west", 1)) == {"germany"}
    assert set(svc.store.current_submissions("south", 1)) == {"germany"}
    east = [s for s in svc.store.messages(direction="in") if s.game_id == "east"]
    assert len(east) == 2  # the plus address, and the tag of a report's subject


def test_a_mail_naming_no_game_is_told_which_games_run(games: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = games
    _send(server, BOX, "orders")
    [outcome] = poll(svc)
    assert "do not say which game" in outcome.summary
    reply = svc.store.messages(direction="out")[-1].raw.decode()
    assert "east, south, west" in reply
