"""Proxy orders by mail (issue 12; Miscellaneous: "for main war participants allies can give
proxy orders"): an ally orders for a seat whose player has sent none, with a PROXY FOR line
under its own NATION and PASSWORD; the seat's own orders come first and replace them."""

from __future__ import annotations

import json
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
from moderator.service.proxy import is_proxy, split
from moderator.service.turns import missed_in_a_row, resolve_game
from moderator.store.db import Store

BOX = "moderator@t.local"
KAISER, FRANZ, JOFFRE = "kaiser@t.local", "franz@t.local", "joffre@t.local"
AUSTRIAN_ORDERS = "MOVE 1 art FROM Vienna TO Bohemia"


@pytest.fixture()
def game(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service]]:
    with EmbeddedMailServer(tmp_path / "mail", users={BOX: "m"}) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(BOX, "m"), say=lambda s: None,
                      maps=False)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", KAISER, "kpw")
        svc.store.add_seat("g", "austria-hungary", FRANZ, "apw")
        svc.store.add_seat("g", "france", JOFFRE, "fpw")
        yield server, svc


def _send(server: EmbeddedMailServer, sender: str, body: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, BOX, "Orders"
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def _replies(svc: Service) -> list[tuple[str, str]]:
    return [(m.recipients, m.subject) for m in svc.store.messages(direction="out")]


def test_the_proxy_line_is_read_in_its_usual_spellings() -> None:
    for line in ("PROXY FOR Austria-Hungary", "proxy orders for Austria-Hungary", "Proxy: Austria-Hungary",
                 "  PROXY   Austria-Hungary  "):
        text, named = split(f"GAME g\nNATION Germany\n{line}\nMOVE 1 inf FROM Ruhr TO Cologne\n")
        assert named == "Austria-Hungary" and "proxy" not in text.lower(), line
    assert split("GAME g\nNATION Germany\nMOVE 1 inf FROM Ruhr TO Cologne\n")[1] is None


def test_an_ally_gives_proxy_orders_and_the_players_own_orders_replace_them(
        game: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = game
    _send(server, KAISER, f"GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Austria-Hungary\n{AUSTRIAN_ORDERS}\n")
    (outcome,) = poll(svc)
    assert outcome.status == "processed" and "proxy orders by German Empire" in outcome.summary, outcome
    sub = svc.store.current_submissions("g", 1)["austria-hungary"]
    assert is_proxy(sub.normalized) and "Vienna TO Prague" in sub.normalized and "germany" not in svc.store.current_submissions(
        "g", 1)
    (to, subject), = _replies(svc)
    assert set(to.split(", ")) == {KAISER, FRANZ} and subject.startswith("Re: Proxy Receipt: Austro-Hungarian Empire"), subject
    assert b"given by German Empire as its ally" in svc.store.messages(direction="out")[0].raw

    # France is not Austria-Hungary's ally: refused, nothing stored for it.
    _send(server, JOFFRE, "GAME g\nNATION France\nPASSWORD fpw\nPROXY FOR Austria-Hungary\nNOTE hold\n")
    (refused,) = poll(svc)
    assert "cannot give proxy orders for Austro-Hungarian Empire" in refused.summary
    assert svc.store.current_submissions("g", 1)["austria-hungary"].id == sub.id

    # The player's own orders replace the proxy's; a proxy after them is refused.
    _send(server, FRANZ, f"GAME g\nNATION Austria-Hungary\nPASSWORD apw\n{AUSTRIAN_ORDERS}\n")
    (own,) = poll(svc)
    assert "replaces earlier orders" in own.summary
    assert not is_proxy(svc.store.current_submissions("g", 1)["austria-hungary"].normalized)
    _send(server, KAISER, "GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Austria-Hungary\nNOTE hold\n")
    (late,) = poll(svc)
    assert "own orders for turn 1 are in" in late.summary
    assert not is_proxy(svc.store.current_submissions("g", 1)["austria-hungary"].normalized)


def test_proxy_orders_need_the_allys_own_password_and_a_seated_nation(game: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = game
    _send(server, KAISER, "GAME g\nNATION Germany\nPASSWORD wrong\nPROXY FOR Austria-Hungary\nNOTE hold\n")
    _send(server, KAISER, "GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Serbia\nNOTE hold\n")
    _send(server, KAISER, "GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Ruritania\nNOTE hold\n")
    wrong, unseated, unknown = poll(svc)
    assert "proxy" not in wrong.summary and svc.store.current_submissions("g", 1) == {}
    assert "Serbia" in unseated.summary and "has no player in g" in unseated.summary
    assert "does not name a nation I know" in unknown.summary


def test_proxied_seats_are_played_with_the_proxy_orders_not_the_defaults(game: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = game
    _send(server, KAISER, f"GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Austria-Hungary\n{AUSTRIAN_ORDERS}\n")
    poll(svc)
    svc.mail = None  # no report mails needed here
    resolve_game(svc, "g")
    record = svc.store.turn_record("g", 1)
    assert record is not None
    played = json.loads(record.orders)
    assert is_proxy(played["austria-hungary"]) and "Vienna TO Prague" in played["austria-hungary"]
    assert "austria-hungary" not in missed_in_a_row(svc, svc.game("g"), 1)  # ordered (by proxy), not missed
    assert "germany" in missed_in_a_row(svc, svc.game("g"), 1)  # Germany's own seat sent nothing


def test_the_moderator_enters_a_seats_orders_by_mail_with_the_desk_password(
        game: tuple[EmbeddedMailServer, Service]) -> None:
    from moderator.service.review_mail import new_desk_secret

    server, svc = game
    desk = new_desk_secret(svc)
    umpire = svc.require_mail().moderator_address
    _send(server, umpire, f"GAME g\nNATION Austria-Hungary\nPASSWORD {desk}\n{AUSTRIAN_ORDERS}\n")
    _send(server, umpire, "GAME g\nNATION Austria-Hungary\nPASSWORD not-the-desk\nNOTE hold\n")
    entered, wrong = poll(svc)
    assert "orders entered by the moderator by mail" in entered.summary, entered
    sub = svc.store.current_submissions("g", 1)["austria-hungary"]
    assert "Vienna TO Prague" in sub.normalized and desk not in sub.text
    to_seat = [m for m in svc.store.messages(direction="out") if m.recipients == FRANZ]
    receipts = [m for m in to_seat if m.subject.startswith("Receipt:")]
    assert len(receipts) == 1 and b"moderator" in receipts[0].raw.lower()
    assert any("refused orders" in m.subject for m in to_seat)  # the wrong password: the seat is told
    back = [m.subject for m in svc.store.messages(direction="out") if m.recipients == umpire]
    assert any(s.startswith("Re: Entered Receipt: Austro-Hungarian Empire") for s in back), back
    assert "entered" not in wrong.summary and svc.store.current_submissions("g", 1)["austria-hungary"].id == sub.id
    assert all(desk.encode() not in m.raw for m in svc.store.messages(direction="in"))  # masked once handled


def test_the_commander_of_a_revolutionary_army_orders_it_with_a_proxy_line(
        game: tuple[EmbeddedMailServer, Service]) -> None:
    # Phase 9, Mutinies: "Such army is controlled by Bolshevik player or another free
    # player". The Mutineers have no seat; the nation that commands them (the engine's
    # record, phase9_mutiny.COMMANDER) gives their orders from its own seat.
    server, svc = game
    svc.store.add_seat("g", "bolsheviks", "lenin@t.local", "bpw")
    _send(server, "lenin@t.local", "GAME g\nNATION Bolsheviks\nPASSWORD bpw\nPROXY FOR Mutineers\nNOTE hold\n")
    (before,) = poll(svc)
    assert "Mutineers has no player in g" in before.summary, before.summary
    state = svc.state(svc.game("g"))
    state.nations["mutineers"].flags["commander"] = "bolsheviks"
    svc.store.save_snapshot("g", state.turn, state.dumps())
    _send(server, "lenin@t.local", "GAME g\nNATION Bolsheviks\nPASSWORD bpw\nPROXY FOR Mutineers\nNOTE we hold\n")
    (after,) = poll(svc)
    assert after.status == "processed" and "proxy orders by Bolsheviks" in after.summary, after.summary
    assert is_proxy(svc.store.current_submissions("g", 1)["mutineers"].normalized)
    # The German player commands nothing of theirs.
    _send(server, KAISER, "GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Mutineers\nNOTE hold\n")
    (refused,) = poll(svc)
    assert "has no player in g" in refused.summary


def test_the_commander_of_a_revolutionary_army_gets_its_report(game: tuple[EmbeddedMailServer, Service]) -> None:
    # He orders it, so he is sent what it sees: its report goes to his seat's address.
    _, svc = game
    svc.store.add_seat("g", "bolsheviks", "lenin@t.local", "bpw")
    state = svc.state(svc.game("g"))
    reds = state.nations["mutineers"]
    reds.flags["commander"] = "bolsheviks"
    reds.flags.pop("active", None)
    reds.at_war_with = ["russia"]
    state.nations["russia"].at_war_with = sorted([*state.nations["russia"].at_war_with, "mutineers"])
    state.control["Warsaw"] = "mutineers"
    state.new_unit("mutineers", "infantry", "Warsaw")
    svc.store.save_snapshot("g", state.turn, state.dumps())
    resolve_game(svc, "g")
    to_lenin = [m.subject for m in svc.store.messages(direction="out") if m.recipients == "lenin@t.local"]
    assert sorted(s.split(": turn 1 ")[1] for s in to_lenin) == [
        "news (public bulletin)", "report for Bolsheviks", "report for Mutineers"], to_lenin
def test_the_host_of_a_government_in_exile_commands_its_forces_and_comes_first(
        game: tuple[EmbeddedMailServer, Service]) -> None:
    """Conquest: "The host then assumes command of the forces of the "government in exile"
    ... and will remain under the host's control until the conquered nation is liberated"."""
    from moderator.service.rulings import NOW, adjust

    server, svc = game
    done = adjust(svc, svc.game("g"), "SET FLAG exile_host OF Austria-Hungary TO germany", applies=NOW, source="test")
    assert not done.errors
    _send(server, FRANZ, f"GAME g\nNATION Austria-Hungary\nPASSWORD apw\n{AUSTRIAN_ORDERS}\n")
    (own,) = poll(svc)
    assert own.status == "processed" and not is_proxy(svc.store.current_submissions("g", 1)["austria-hungary"].normalized)
    # The host's orders replace the seat's own, though the player sent some.
    _send(server, KAISER, "GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Austria-Hungary\nNOTE hold\n")
    (host,) = poll(svc)
    sub = svc.store.current_submissions("g", 1)["austria-hungary"]
    assert "proxy orders by German Empire" in host.summary and is_proxy(sub.normalized) and "hold" in sub.normalized
    assert any(b"the host of its government in exile" in m.raw for m in svc.store.messages(direction="out"))
    # From then on the seat's own orders are refused, and so is another ally's proxy.
    _send(server, FRANZ, "GAME g\nNATION Austria-Hungary\nPASSWORD apw\nNOTE my own\n")
    _send(server, JOFFRE, "GAME g\nNATION France\nPASSWORD fpw\nPROXY FOR Austria-Hungary\nNOTE hold\n")
    refused, other = poll(svc)
    assert "German Empire has given Austro-Hungarian Empire's orders" in refused.summary, refused
    assert "German Empire has given" in other.summary  # any other proxy too
    assert svc.store.current_submissions("g", 1)["austria-hungary"].id == sub.id


def test_a_burst_of_proxy_and_plain_order_mails_reads_the_position_once(
        game: tuple[EmbeddedMailServer, Service], monkeypatch: pytest.MonkeyPatch) -> None:
    # Decoding the 1914 position costs some milliseconds: a proxy mail's checks (commander,
    # exile host, alliance) and the check of its orders share one reading, plain order mails
    # read it only to check their orders, and the reading is kept while the turn stays the same.
    server, svc = game
    reads: list[int] = []
    position = svc.position
    monkeypatch.setattr(svc, "position", lambda *a, **k: reads.append(1) or position(*a, **k))
    for n in range(3):
        _send(server, KAISER, f"GAME g\nNATION Germany\nPASSWORD kpw\nPROXY FOR Austria-Hungary\n"
                              f"{AUSTRIAN_ORDERS}\nNOTE proxy {n}\n")
        _send(server, JOFFRE, f"GAME g\nNATION France\nPASSWORD fpw\nNOTE own {n}\n")
    outcomes = poll(svc)
    assert [o.summary.split(":")[0] for o in outcomes] == ["proxy orders by German Empire", "receipt for French Empire, turn 1"] * 3, outcomes
    assert len(reads) == 1
    assert "NOTE proxy 2" in svc.store.current_submissions("g", 1)["austria-hungary"].text
