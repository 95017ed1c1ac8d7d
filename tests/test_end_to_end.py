"""The golden end-to-end turn (issue 2): real IMAP and SMTP on loopback (pymap and
aiosmtpd), the real daemon, the real 1914 map. Two nations mail orders, a stranger and a
wrong password get clear replies, the deadline passes, the turn resolves, and every seat
gets its own report with a map, and nothing of another nation's."""

from __future__ import annotations

import json
import smtplib
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.demo import sample_orders
from moderator.service.games import new_game
from moderator.store.db import Store
from tests.mailbox import messages

MOD = "moderator@test.local"
UMPIRE = "umpire@test.local"
PLAYERS = {"germany": "kaiser@test.local", "france": "joffre@test.local"}
STRANGER = "stranger@test.local"
PASSWORDS = {"germany": "pickelhaube", "france": "kepi"}


@pytest.fixture()
def world_of_mail(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service, list[str]]]:
    users = {MOD: "mod-pw", UMPIRE: "umpire-pw", STRANGER: "stranger-pw", **{a: f"pw-{n}" for n, a in PLAYERS.items()}}
    console: list[str] = []
    with EmbeddedMailServer(tmp_path / "mail", users=users) as server:
        svc = Service(store=Store.at(tmp_path / "m.db"), mail=server.client_config(MOD, "mod-pw", UMPIRE),
                      say=console.append)
        yield server, svc, console


def _send(server: EmbeddedMailServer, sender: str, body: str, subject: str = "Orders") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, MOD, subject
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def _inbox(server: EmbeddedMailServer, address: str, password: str) -> list[EmailMessage]:
    return messages(server.imap_port, address, password)


def _wait_for(predicate, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.3)
    raise AssertionError("timed out waiting")


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return part.get_content()


@pytest.mark.slow
def test_one_turn_end_to_end(world_of_mail: tuple[EmbeddedMailServer, Service, list[str]]) -> None:
    server, svc, console = world_of_mail
    game = new_game(svc, "e2e", deadline=datetime.now(UTC) + timedelta(days=1), seed="fixed-seed")
    for nation, address in PLAYERS.items():
        svc.store.add_seat(game.id, nation, address, PASSWORDS[nation])
    state, world = svc.state(game), svc.world(game)
    for nation, address in PLAYERS.items():
        text = sample_orders(state, world, nation).replace(f"demo-{nation}", PASSWORDS[nation])
        _send(server, address, text.replace("GAME demo", "GAME e2e"))
    _send(server, STRANGER, "Hello, is this the Diplomacy game?", subject="hello")
    _send(server, STRANGER, "GAME e2e\nNATION France\nTURN 1\nPASSWORD guess\nMOVE 1 inf FROM Paris TO Amiens\n")

    daemon = Daemon(svc, poll_seconds=0.5, deadline_seconds=0.5, countdown_seconds=0)
    daemon.start()
    try:
        _wait_for(lambda: len(_inbox(server, PLAYERS["germany"], "pw-germany")) >= 1
                  and len(_inbox(server, STRANGER, "stranger-pw")) >= 2)
        svc.store.update_game(game.id, deadline=datetime.now(UTC) - timedelta(seconds=1))
        assert daemon.resolved.wait(600)  # a generous bound: the maps take long on a loaded machine
        # receipt, own report, alliance report, public bulletin
        _wait_for(lambda: all(len(_inbox(server, a, f"pw-{n}")) >= 4 for n, a in PLAYERS.items())
                  and len(_inbox(server, UMPIRE, "umpire-pw")) >= 1)
    finally:
        daemon.stop()

    # The stranger learns exactly what was wrong, and nothing about the seat.
    replies = _inbox(server, STRANGER, "stranger-pw")
    assert any("does not look like orders" in _text(m) for m in replies)
    wrong_pw = [m for m in replies if "password" in _text(m).lower()]
    assert wrong_pw and "kepi" not in _text(wrong_pw[0])

    for nation, address in PLAYERS.items():
        mails = _inbox(server, address, f"pw-{nation}")
        assert all(m["To"] == address for m in mails)
        receipt = next(m for m in mails if str(m["Subject"]).startswith("Re: Receipt"))
        assert "Your orders as the moderator will read them" in _text(receipt)
        assert PASSWORDS[nation] not in _text(receipt)
        own = next(m for m in mails if "report for" in str(m["Subject"]))
        pngs = [p for p in own.walk() if p.get_content_type() == "image/png"]
        assert pngs and pngs[0].get_content()[:8] == b"\x89PNG\r\n\x1a\n"
        html = own.get_body(preferencelist=("html",))
        assert html is not None and f"cid:{pngs[0]['Content-ID'].strip('<>')}" in html.get_content()
        # The full-size map is attached as a palette PNG (colour type 3), larger than the inline copy.
        [full] = [p for p in own.walk() if p.get_filename() == "map.png"]
        assert full.get_content()[25] == 3 and len(full.get_content()) > len(pngs[0].get_content())
        assert len(full.get_content()) < 600_000
        assert f'<a href="cid:{full["Content-ID"].strip("<>")}"><img src="cid:' in html.get_content()  # click: full size
        [data] = [p for p in own.walk() if p.get_filename() == "report.json"]
        assert json.loads(data.get_content())["nation"] == nation
        assert any("news (public bulletin)" in str(m["Subject"]) for m in mails)
        other = next(n for n in PLAYERS if n != nation)
        other_name = svc.scenario(game).nations[other].name
        assert f"== {other_name} ==" not in _text(own)  # nothing of the other nation's status
        alliance = [m for m in mails if "status of the" in str(m["Subject"])]
        assert len(alliance) == 1 and f"== {other_name} ==" not in _text(alliance[0])

    # The moderator's copy has every event and the dice log, each roll with its purpose.

    copy = _inbox(server, UMPIRE, "umpire-pw")[0]
    dice = [p for p in copy.walk() if p.get_filename() == "dice-turn-1.json"]
    rolls = json.loads(dice[0].get_content())
    assert rolls and all(r["purpose"] and 1 <= r["result"] for r in rolls if r["dice"] == "1D10")

    # The turn moved on, and it replays to the same bytes.
    from moderator.service.turns import replay

    assert svc.game(game.id).turn == 2
    ok, detail = replay(svc, game.id, 1)
    assert ok, detail
    assert any("resolved e2e turn 1" in line for line in console)
    # Nothing was lost: every received mail is stored raw.
    assert len(svc.store.messages(direction="in")) == 4
