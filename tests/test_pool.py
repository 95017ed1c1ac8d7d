"""The replacement pool (issue 12; Replacement Pool, Miscellaneous): players sign up by
mail with name, address and side; a seat whose player misses a second turn in a row is
offered to the pool's players of its side, once; the moderator seats one from the pool."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.service.turns import resolve_game
from moderator.store.db import Store

BOX = "moderator@t.local"


@pytest.fixture()
def game(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service]]:
    with EmbeddedMailServer(tmp_path / "mail", users={BOX: "m"}) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(BOX, "m"), say=lambda s: None)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "france", "joffre@t.local", "pw")
        svc.store.add_seat("g", "germany", "kaiser@t.local", "pw")
        yield server, svc


def _send(server: EmbeddedMailServer, sender: str, body: str, subject: str = "hello") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, BOX, subject
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def test_players_sign_up_by_mail_and_a_vacant_seat_is_offered_once(game: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = game
    _send(server, "Hans Castorp <castorp@t.local>", "Replacement pool\nNAME Hans Castorp\nSIDE Allies\n")
    _send(server, "settembrini@t.local", "REPLACEMENT POOL\nSIDE Central Powers\n")
    _send(server, "naphta@t.local", "Please put me on the pool.\nSIDE whoever\n", subject="Replacement pool")
    outcomes = poll(svc)
    assert [o.status for o in outcomes] == ["processed"] * 3
    assert "refused" in outcomes[2].summary  # a side the rules do not have
    pool = svc.store.pool()
    assert [(e.name, e.email, e.side) for e in pool] == [("Hans Castorp", "castorp@t.local", "allied"),
                                                         ("settembrini@t.local", "settembrini@t.local", "central")]
    replies = [m for m in svc.store.messages(direction="out") if m.recipients == "castorp@t.local"]
    assert b"is on the replacement pool for the Allied Powers" in replies[0].raw

    def offers() -> list[str]:
        return [m.recipients for m in svc.store.messages(direction="out") if "needs a new player" in m.subject]  # a long subject is folded in raw

    resolve_game(svc, "g")  # France and Germany miss turn 1
    assert offers() == []
    resolve_game(svc, "g")  # ... and turn 2: both seats fall vacant
    assert sorted(offers()) == ["castorp@t.local", "settembrini@t.local"]  # each to its own side
    offer = next(m for m in svc.store.messages(direction="out") if m.recipients == "castorp@t.local"
                 and "needs a new player" in m.subject)
    assert b"French Empire" in offer.raw or b"France" in offer.raw
    resolve_game(svc, "g")  # a third missed turn offers nothing again
    assert len(offers()) == 2


def test_the_moderator_seats_a_player_from_the_pool(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "France", "--email", "joffre@x.org"]) == 0
    assert main(["pool", "add", "--name", "Hans Castorp", "--email", "castorp@x.org", "--side", "Allies"]) == 0
    with pytest.raises(SystemExit, match="Central Powers, Allies or any"):
        main(["pool", "add", "--name", "X", "--email", "x@x.org", "--side", "Atlantis"])
    capsys.readouterr()
    assert main(["pool", "list"]) == 0
    assert "Hans Castorp" in capsys.readouterr().out
    assert main(["seat", "replace", "--game", "g1", "--nation", "France", "--from-pool", "1"]) == 0
    out = capsys.readouterr().out
    assert "france in g1 -> castorp@x.org (Hans Castorp, from the replacement pool)" in out and "seat password" in out
    assert main(["seat", "list", "--game", "g1"]) == 0
    assert "castorp@x.org" in capsys.readouterr().out
    assert main(["pool", "list"]) == 0
    assert "nobody waits" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="--email ADDRESS, or --from-pool ID"):
        main(["seat", "replace", "--game", "g1", "--nation", "France"])
