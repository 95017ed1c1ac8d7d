"""The review queue answered by mail (issue 12), over the embedded mail server: the digest
lists what waits with one-line commands; APPROVE, EDIT (with a ruling, NOW or not) and
REJECT from the moderator's address with the desk password decide items as the command
line does; without the password nothing is decided; the password is masked in the
stored mail."""

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
from moderator.service.entry import enter_orders
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.service.review_mail import digest, new_desk_secret
from moderator.service.turns import resolve_game
from moderator.store.db import Store

BOX, UMPIRE, KAISER = "moderator@t.local", "umpire@t.local", "kaiser@t.local"


@pytest.fixture()
def desk(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service, list[int]]]:
    """Game g resolved with three NOTEs of Germany's waiting for review."""
    with EmbeddedMailServer(tmp_path / "mail", users={BOX: "m", UMPIRE: "u", KAISER: "k"}) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(BOX, "m", UMPIRE),
                      say=lambda s: None)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", KAISER, "pw")
        enter_orders(svc, "g", "germany", "NOTE may I?\nNOTE and this?\nNOTE and that?\n")
        resolve_game(svc, "g")
        ids = [r.id for r in svc.store.reviews("g")]
        assert len(ids) == 3
        yield server, svc, ids  # type: ignore[misc]


def _mail(server: EmbeddedMailServer, sender: str, body: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, BOX, "Re: Review queue"
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def test_the_digest_lists_each_item_with_its_commands(desk: tuple[EmbeddedMailServer, Service, list[int]]) -> None:
    _server, svc, ids = desk
    text = digest(svc, "g")
    assert text.startswith("3 items wait for your decision")
    for item_id in ids:
        assert f"APPROVE {item_id}   |   REJECT {item_id} reason   |   EDIT {item_id} RULING" in text


def test_the_moderator_decides_by_mail(desk: tuple[EmbeddedMailServer, Service, list[int]]) -> None:
    server, svc, (a, b, c) = desk
    secret = new_desk_secret(svc)
    saved = svc.position(svc.game("g")).nations["germany"].saved
    _mail(server, UMPIRE, f"Here are my decisions.\n\nPASSWORD {secret}\nAPPROVE {a}\n"
                          f"EDIT {b} NOW ADJUST SAVED OF Germany BY -5\nREJECT {c} not this turn\nAPPROVE 999\n")
    [outcome] = poll(svc)
    assert outcome.status == "processed" and "3 of 4 decided" in outcome.summary
    assert [svc.store.review(i).status for i in (a, b, c)] == ["approved", "edited", "rejected"]  # type: ignore[union-attr]
    assert svc.store.review(c).resolution == "not this turn"  # type: ignore[union-attr]
    assert svc.position(svc.game("g")).nations["germany"].saved == saved - 5  # applied at once (NOW)
    reply = svc.store.messages(direction="out")[-1]
    assert reply.recipients == UMPIRE
    body = reply.raw.decode()
    assert f"#{b} edited" in body and "there is no review item #999" in body and "Nothing waits" in body
    stored = svc.store.messages(direction="in")[-1].raw
    assert secret.encode() not in stored  # masked like a seat password


def test_without_the_desk_password_nothing_is_decided(desk: tuple[EmbeddedMailServer, Service, list[int]]) -> None:
    server, svc, (a, _b, _c) = desk
    _mail(server, UMPIRE, f"APPROVE {a}\n")
    [outcome] = poll(svc)
    assert "refused" in outcome.summary and b"review secret" in svc.store.messages(direction="out")[-1].raw
    new_desk_secret(svc)
    _mail(server, UMPIRE, f"PASSWORD wrong\nAPPROVE {a}\n")
    [outcome] = poll(svc)
    assert "refused" in outcome.summary
    _mail(server, KAISER, f"PASSWORD whatever\nAPPROVE {a}\n")  # a player cannot: not the moderator's address
    poll(svc)
    assert svc.store.review(a).status == "pending"  # type: ignore[union-attr]


def test_wrong_desk_passwords_are_recorded_throttled_and_told_to_the_moderator(
        desk: tuple[EmbeddedMailServer, Service, list[int]]) -> None:
    """A guesser forging the moderator's address: THROTTLE_AFTER wrong desk passwords are
    answered (to the moderator's address) and recorded; then the password is not even checked -
    the right one decides nothing - and the moderator is told once, not once a mail; once the
    window has passed the right password works again. The moderator's orders for a seat by mail
    (the desk password on a seat's orders) are throttled the same way."""
    from moderator.service.inbox import THROTTLE_AFTER, THROTTLE_WINDOW

    server, svc, (a, _b, _c) = desk
    now = [datetime.now(UTC)]
    svc.clock = lambda: now[0]
    secret = new_desk_secret(svc)
    for n in range(THROTTLE_AFTER):
        _mail(server, UMPIRE, f"PASSWORD guess{n}\nAPPROVE {a}\n")
    _mail(server, UMPIRE, f"PASSWORD {secret}\nAPPROVE {a}\n")
    _mail(server, UMPIRE, f"PASSWORD {secret}\nAPPROVE {a}\nAgain.\n")
    outcomes = poll(svc)
    assert ["refused" in o.summary for o in outcomes] == [True] * THROTTLE_AFTER + [False] * 2
    assert all("throttled" in o.summary for o in outcomes[THROTTLE_AFTER:])
    assert len(svc.store.auth_failures(since=now[0] - THROTTLE_WINDOW, game_id="", nation="desk")) == THROTTLE_AFTER
    replies = [m for m in svc.store.messages(direction="out") if m.recipients == UMPIRE and "Review" in m.subject]
    assert len(replies) == THROTTLE_AFTER + 1 and b"someone may be guessing" in replies[-1].raw
    _mail(server, UMPIRE, f"GAME g\nNATION Germany\nPASSWORD {secret}\nHOLD\n")  # orders for a seat: not the desk's
    [outcome] = poll(svc)
    assert "entered by the moderator" not in outcome.summary
    assert svc.store.review(a).status == "pending"  # type: ignore[union-attr]
    now[0] += THROTTLE_WINDOW + timedelta(minutes=1)
    _mail(server, UMPIRE, f"PASSWORD {secret}\nAPPROVE {a}\nOnce more.\n")
    [outcome] = poll(svc)
    assert "1 of 1 decided" in outcome.summary and svc.store.review(a).status == "approved"  # type: ignore[union-attr]


def test_the_desks_throttle_and_the_seats_are_kept_apart_for_the_moderators_address(
        desk: tuple[EmbeddedMailServer, Service, list[int]]) -> None:
    """Issue 11: the moderator plays France from the moderator's address. Wrong France passwords
    do not stop her review by mail (the desk counts its own refusals), and wrong desk passwords
    do not hold her orders for France (the throttle per sender counts the seats' only)."""
    from moderator.service.inbox import THROTTLE_AFTER, THROTTLE_WINDOW

    server, svc, (a, _b, _c) = desk
    now = [datetime.now(UTC)]
    svc.clock = lambda: now[0]
    secret = new_desk_secret(svc)
    svc.store.add_seat("g", "france", UMPIRE, "marne")
    france = "GAME g\nNATION France\nPASSWORD {pw}\nHOLD\n"
    for n in range(THROTTLE_AFTER):
        _mail(server, UMPIRE, france.format(pw=f"verdun{n}"))
    _mail(server, UMPIRE, f"PASSWORD {secret}\nAPPROVE {a}\n")
    *_, decided = poll(svc)
    assert "1 of 1 decided" in decided.summary and svc.store.review(a).status == "approved"  # type: ignore[union-attr]
    now[0] += THROTTLE_WINDOW + timedelta(minutes=1)  # France's guesses out of the window
    for n in range(THROTTLE_AFTER):
        _mail(server, UMPIRE, f"PASSWORD guess{n}\nAPPROVE {a}\n")
    _mail(server, UMPIRE, france.format(pw="marne"))
    *_, orders = poll(svc)
    assert "receipt" in orders.summary and "france" in svc.store.current_submissions("g", 2)


def test_review_digest_and_secret_from_the_command_line(config: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1"]) == 0
    orders = tmp_path / "o.txt"
    orders.write_text("NOTE hello\n", encoding="utf-8")
    assert main(["enter", "--game", "g1", "--nation", "Germany", str(orders)]) == 0
    assert main(["resolve", "--game", "g1"]) == 0
    capsys.readouterr()
    assert main(["review", "digest", "--game", "g1"]) == 0
    out = capsys.readouterr().out
    assert "1 item waits for your decision" in out and "REJECT 1 reason" in out
    assert main(["review", "secret"]) == 0
    assert "desk password (shown once" in capsys.readouterr().out
