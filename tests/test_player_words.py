"""The words players read in receipts, replies and tools: counts in the right number,
nations by their names in every echo, a nation named where a place belongs answered as
such, "you have no tanks in Berlin", and no mail pointing at a file players do not have
(HELP by mail sends the orders reference instead)."""

from __future__ import annotations

import smtplib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from moderator.engine.names import nation_id
from moderator.mail.server import EmbeddedMailServer
from moderator.orders import parse_orders
from moderator.orders.checker import check, check_text
from moderator.orders.echo import nation_word, nation_words, normalize
from moderator.orders.messages import counted
from moderator.reports.render import TEMPLATES_DIR
from moderator.service.context import Service
from moderator.service.games import new_game
from moderator.service.inbox import poll
from moderator.store.db import Store
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario

WORLD, SCENARIO = load_world("1914", strict=False), load_scenario("1914")


def opening():  # type: ignore[no-untyped-def]
    state = initial_state(SCENARIO, WORLD, "t")
    state.turn = 1
    return state


def errors(text: str, nation: str = "germany") -> list[str]:
    result = check_text(text, nation, opening(), WORLD, SCENARIO)
    return [d.message for d in result.diagnostics if d.severity == "error"]


def test_counts_agree_with_their_number() -> None:
    assert [counted(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]
    assert counted(1, "order") == "1 order"


def test_every_nation_has_an_order_word_that_reads_back_as_itself() -> None:
    for nid in SCENARIO.nations:
        word = nation_word(SCENARIO, nid)
        assert nation_id(SCENARIO, word) == nid, (nid, word)
    assert [nation_word(SCENARIO, n) for n in ("belgium", "austria-hungary", "usa", "new-zealand")] == \
        ["Belgium", "Austria-Hungary", "USA", "New Zealand"]


@pytest.mark.parametrize("typed,echo", [
    ("DECLARE WAR ON belgium", "DECLARE WAR ON Belgium"),
    ("GIFT 5 TO austria-hungary", "GIFT 5 TO Austria-Hungary"),
    ("INFLUENCE spain", "INFLUENCE Spain"),
    ("ESPIONAGE ARMY ON france", "ESPIONAGE ARMY ON France"),
])
def test_echoes_name_nations_and_read_back_as_the_same_orders(typed: str, echo: str) -> None:
    state = opening()
    first = check(parse_orders(typed).orders, "germany", state, WORLD, SCENARIO).orders
    text = normalize(first, nations=nation_words(SCENARIO))
    assert text.strip() == echo
    again = check(parse_orders(text).orders, "germany", state, WORLD, SCENARIO).orders
    assert [(type(o), {k: v for k, v in vars(o).items() if k != "span"}) for o in again] == \
        [(type(o), {k: v for k, v in vars(o).items() if k != "span"}) for o in first]


def test_a_nation_where_a_place_belongs_is_answered_as_a_nation() -> None:
    [message] = errors("MOVE 2 inf FROM Berlin TO Spain")
    assert message.startswith('"Spain" is a nation (Kingdom of Spain), not a territory')
    assert "Madrid" in message and "Mariana" not in message


def test_no_units_of_a_kind_says_so_plainly() -> None:
    assert not any(u.kind == "tank" and u.location == "Berlin" for u in opening().units)
    [message] = errors("MOVE 2 tank FROM Berlin TO Posen")
    assert message.startswith("you have no tanks in Berlin") and "only 0" not in message


def test_no_mail_template_points_at_a_repository_path() -> None:
    for path in TEMPLATES_DIR.rglob("*.j2"):
        text = path.read_text(encoding="utf-8")
        assert "docs/" not in text and ".md" not in text, path


MOD, PLAYER = "moderator@t.local", "kaiser@t.local"


@pytest.fixture()
def mail(tmp_path: Path) -> Iterator[tuple[EmbeddedMailServer, Service]]:
    with EmbeddedMailServer(tmp_path / "mail", users={MOD: "m", PLAYER: "p"}) as server:
        svc = Service(store=Store.at(tmp_path / "db"), mail=server.client_config(MOD, "m"), say=lambda s: None)
        new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("g", "germany", PLAYER, "pw")
        yield server, svc


def _send(server: EmbeddedMailServer, body: str, subject: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = PLAYER, MOD, subject
    msg.set_content(body)
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def test_help_by_mail_sends_the_orders_reference(mail: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = mail
    _send(server, "How do I attack?", subject="Help")
    [outcome] = poll(svc)
    assert outcome.status == "processed" and "HELP" in outcome.summary
    [reply] = svc.store.messages(direction="out")
    raw = reply.raw.decode()
    assert "Writing your orders" in raw and "ATTACK" in raw and "docs/" not in raw
    assert svc.store.current_submissions("g", 1) == {}


def test_a_receipt_counts_one_error_as_one(mail: tuple[EmbeddedMailServer, Service]) -> None:
    server, svc = mail
    _send(server, "GAME g\nNATION Germany\nTURN 1\nPASSWORD pw\nDECLARE WAR ON belgium\n"
                  "MOVE 2 inf FROM Berlin TO Spain\n", subject="Orders")
    [outcome] = poll(svc)
    assert "1 error" in outcome.summary and "1 errors" not in outcome.summary
    assert "DECLARE WAR ON Belgium" in svc.store.current_submissions("g", 1)["germany"].normalized


def test_units_gone_before_their_order_are_told_in_words_not_as_only_0() -> None:
    """An order whose units were lost before it ran (a transport sunk under them) said
    "only 0 of 1 infantry were at Baltic Sea"; it says that none were there any more."""
    from moderator.engine.events import Event
    from moderator.reports.render import event_text

    def told(present: int) -> str:
        return event_text(Event("units-missing", "4.2", ("germany",), {
            "order": 11, "kind": "infantry", "place": "Baltic Sea", "ordered": 3, "present": present}), str)

    assert told(0) == "Order 12: none of the 3 infantry it named were at Baltic Sea any more."
    assert told(2) == "Order 12: only 2 of 3 infantry were at Baltic Sea, and only those went."
