"""Schema changes by migration (Alembic, moderator/store/migrations): a database made by any
earlier moderator - at the first schema, or part way as the old startup upgrade left it -
is upgraded to exactly the schema of the models, its rows kept and given the values that
describe them; a new database is made at the newest migration at once; a second start
changes nothing. On SQLite and on a real PostgreSQL server (tests/postgres.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlmodel import SQLModel

from moderator.store.db import Store
from moderator.store.migrate import FIRST, current, head, migrate, scripts

OLD_ROWS = [  # rows as the first moderator stored them (the first schema's columns only)
    "INSERT INTO game (id, scenario, title, turn, status, seed, deadline, cycle_days, correction_days, created) "
    "VALUES ('old', '1914', 'An old game', 3, 'open', 'seed', NULL, 10, 2, :when)",
    "INSERT INTO seat (game_id, nation, email, player, secret_hash, active) "
    "VALUES ('old', 'germany', 'k@t.local', 'Kaiser', 'pbkdf2$s$d', :yes)",
    "INSERT INTO mailmessage (direction, message_id, sender, recipients, subject, raw, status, note, received) "
    "VALUES ('in', '<m1@t>', 'k@t.local', '', 'Orders', :raw, 'processed', '', :when)",
    "INSERT INTO submission (game_id, nation, turn, message, text, normalized, diagnostics, \"current\", created) "
    "VALUES ('old', 'germany', 3, 1, 'x', 'x', '[]', :yes, :when)",
    "INSERT INTO turnrecord (game_id, turn, orders, events, dice, result_sha256, resolved) "
    "VALUES ('old', 2, '{}', '[]', '[]', 'abc', :when)",
    "INSERT INTO reviewitem (game_id, turn, nation, kind, summary, detail, status, resolution, created) "
    "VALUES ('old', 2, 'germany', 'flag', 'look', '', 'pending', '', :when)",
]
WHEN = datetime(2024, 1, 2, tzinfo=UTC)


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'm.db'}"
    return str(request.getfixturevalue("postgres_url"))


def _first_schema_with_rows(url: str) -> None:
    engine = create_engine(url)
    assert [a.split(":")[0] for a in migrate(engine, to=FIRST)] == [FIRST]
    with engine.begin() as conn:
        for sql in OLD_ROWS:
            conn.execute(text(sql), {"when": WHEN, "yes": True, "raw": b"From: k@t.local\r\n\r\nx"})
    engine.dispose()


def _schema_differences(store: Store) -> list[object]:
    with store.engine.connect() as conn:
        return list(compare_metadata(MigrationContext.configure(conn), SQLModel.metadata))


def test_the_first_schema_upgrades_to_the_models_schema_keeping_its_rows(url: str) -> None:
    _first_schema_with_rows(url)
    store = Store(url)
    assert [a.split(":")[0] for a in store.upgraded] == [r.revision for r in
                                                         reversed(list(scripts().iterate_revisions(head(), FIRST)))]
    assert _schema_differences(store) == []
    game = store.game("old")
    assert game is not None and (game.turn, game.title, game.ruleset, game.ruleset_version) == (3, "An old game",
                                                                                                  "wtea-1914", 1)
    assert (game.problem, game.reminder_hours, game.reminded_turn, game.address) == ("", "48,12", 0, "")
    record = store.turn_record("old", 2)
    assert record is not None and (record.dice_scheme, record.rulings, record.corrects) == (1, "{}", None)
    assert store.seat("old", "germany") is not None and store.seat("old", "germany").addresses == ""  # type: ignore[union-attr]
    assert store.current_submissions("old", 3)["germany"].written is None
    assert store.reviews("old")[0].rulings == ""
    (message,) = store.messages("in")
    assert (message.attempts, message.size, message.sha256, message.kind) == (0, 0, "", "")
    # The tables added since work on the old database.
    store.add_rulings("old", 3, ["SET SAVED OF France TO 40"], applies="next", source="adjust")
    store.set_setting("k", "v")
    assert [r.text for r in store.rulings("old", 3)] == ["SET SAVED OF France TO 40"] and store.setting("k") == "v"
    again = Store(url)
    assert again.upgraded == [] and again.game("old") is not None


def test_a_database_from_before_migrations_part_way_up_is_upgraded(url: str) -> None:
    """As the old startup upgrade left one: no alembic_version, some later columns and tables
    there already (with values of their own), others not yet."""
    _first_schema_with_rows(url)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(text("ALTER TABLE game ADD COLUMN reminded_turn INTEGER DEFAULT 0 NOT NULL"))
        conn.execute(text("ALTER TABLE game ADD COLUMN ruleset VARCHAR DEFAULT 'wtea-1914' NOT NULL"))
        conn.execute(text("UPDATE game SET reminded_turn = 2, ruleset = 'wtea-1914'"))
        conn.execute(text("CREATE TABLE setting (key VARCHAR NOT NULL, value VARCHAR NOT NULL, PRIMARY KEY (key))"))
        conn.execute(text("INSERT INTO setting VALUES ('desk-secret', 'kept')"))
    engine.dispose()
    store = Store(url)
    assert [a.split(":")[0] for a in store.upgraded][0] == "0002"
    assert _schema_differences(store) == []
    game = store.game("old")
    assert game is not None and (game.reminded_turn, game.ruleset_version) == (2, 1)
    assert store.setting("desk-secret") == "kept"
    with store.engine.connect() as conn:
        assert current(conn) == head()


def test_a_new_database_is_made_at_the_newest_migration_with_the_models_schema(url: str) -> None:
    store = Store(url)
    assert store.upgraded == [] and _schema_differences(store) == []
    with store.engine.connect() as conn:
        assert current(conn) == head()
    assert Store(url).upgraded == []


def test_every_migration_from_nothing_makes_the_models_schema(url: str) -> None:
    """The migrations alone, from an empty database, make what create_all() makes for a new
    one: a model changed without its migration fails here."""
    engine = create_engine(url)
    applied = migrate(engine, to=head())
    assert applied[0].startswith("0001:") and applied[-1].startswith(f"{head()}:")
    with engine.connect() as conn:
        assert list(compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)) == []
        assert "alembic_version" in inspect(conn).get_table_names()
    engine.dispose()


def test_0004_indexes_the_mail_lookups_and_keeps_counting_the_replies_already_sent(url: str) -> None:
    """A database at 0003 with replies already sent: after the upgrade each reply knows the
    address it answered (the first recipient), so the daily cap still counts them, and the
    lookups of every fetched mail have their indexes."""
    engine = create_engine(url)
    migrate(engine, to="0003")
    with engine.begin() as conn:
        for recipients, kind in (("K@t.local, seat@t.local", "reply"), ("all@t.local", ""), ("k@t.local", "reply")):
            conn.execute(text("INSERT INTO mailmessage (direction, message_id, sender, recipients, subject, raw, "
                              "status, note, received, kind) VALUES ('out', '', '', :to, 'Re', :raw, 'sent', '', "
                              ":when, :kind)"), {"to": recipients, "raw": b"x", "when": WHEN, "kind": kind})
    engine.dispose()
    store = Store(url)
    assert [a.split(":")[0] for a in store.upgraded][:1] == ["0004"] and _schema_differences(store) == []
    assert [m.answers for m in store.messages("out")] == ["k@t.local", "", "k@t.local"]
    assert store.replies_answering("k@t.local", WHEN, limit=50) == 2
    assert store.replies_answering("K@T.local ", WHEN, limit=1) == 1  # counted only as far as the cap
    assert store.replies_answering("seat@t.local", WHEN, limit=50) == 0  # only copied in, not answered
    with store.engine.connect() as conn:
        indexes = {i["name"]: i["column_names"] for i in inspect(conn).get_indexes("mailmessage")}
    assert indexes["ix_mailmessage_uidvalidity_uid"] == ["uidvalidity", "mailbox_uid"]
    assert indexes["ix_mailmessage_answers"] == ["answers"]


def test_0005_gives_mail_stored_before_message_ids_were_kept_its_message_id(url: str) -> None:
    """A database at 0004 holding a mail stored the old way - its Message-ID written on the row
    only when handled, and it was not handled yet (a crash between storing and handling): after
    the upgrade the row has the Message-ID its bytes carry, so a copy with that Message-ID,
    stored later and handled first, is refused as a copy, and the original counts."""
    import hashlib

    from moderator.mail.config import MailConfig, ServerConfig
    from moderator.service.context import Service
    from moderator.service.games import new_game
    from moderator.service.inbox import handle_stored

    def mail(orders: str, headers: str = "Message-ID: <once@t.local>\r\n") -> bytes:
        return (f"From: kaiser@t.local\r\nTo: moderator@t.local\r\nSubject: Orders\r\n{headers}\r\n"
                f"GAME g\r\nNATION Germany\r\nPASSWORD pw\r\n{orders}\r\n").encode()

    engine = create_engine(url)
    migrate(engine, to="0004")
    original = mail("MOVE 2 inf FROM Ruhr TO Cologne")
    with engine.begin() as conn:
        for raw, status in ((original, "new"), (mail("NOTE no id", headers=""), "processed")):
            conn.execute(text("INSERT INTO mailmessage (direction, message_id, sender, recipients, subject, raw, "
                              "status, note, received, sha256, attempts) VALUES ('in', '', '', '', '', :raw, "
                              ":status, '', :when, :digest, 1)"),
                         {"raw": raw, "status": status, "when": WHEN, "digest": hashlib.sha256(raw).hexdigest()})
    engine.dispose()
    store = Store(url)
    assert [a.split(":")[0] for a in store.upgraded][:1] == ["0005"] and _schema_differences(store) == []
    old, no_id = store.messages("in")
    assert (old.message_id, no_id.message_id) == ("<once@t.local>", "")
    server = ServerConfig("127.0.0.1", 1)
    svc = Service(store=store, mail=MailConfig(server, server, "moderator@t.local", "moderator@t.local"),
                  say=lambda s: None)
    new_game(svc, "g", deadline=datetime.now(UTC) + timedelta(days=3))
    svc.store.add_seat("g", "germany", "kaiser@t.local", "pw")
    copy, new = svc.store.store_incoming(mail("MOVE 1 inf FROM Ruhr TO Cologne"))
    assert new and old.id is not None
    assert f"a copy of message {old.id}" in handle_stored(svc, copy).summary
    assert svc.store.current_submissions("g", 1) == {}
    assert handle_stored(svc, old.id).status == "processed"
    assert "MOVE 2 inf" in svc.store.current_submissions("g", 1)["germany"].normalized


def test_0006_finds_the_waiting_mail_and_a_seats_orders_by_index(url: str) -> None:
    """A database at 0005 with mail and orders in it: after the upgrade its rows are as they
    were, and the mail waiting to be handled or sent, a seat's current orders and the refused
    attempts at a seat are read through their indexes, not by reading every row (every raw
    message ever kept)."""
    _first_schema_with_rows(url)
    engine = create_engine(url)
    migrate(engine, to="0005")
    engine.dispose()
    store = Store(url)
    assert [a.split(":")[0] for a in store.upgraded] == ["0006"] and _schema_differences(store) == []
    assert [m.status for m in store.messages("in")] == ["processed"]
    assert store.current_orders("old", "germany", 3) == "x"
    with store.engine.connect() as conn:
        mail = {i["name"]: i["column_names"] for i in inspect(conn).get_indexes("mailmessage")}
        orders = {i["name"]: i["column_names"] for i in inspect(conn).get_indexes("submission")}
        refused = {i["name"]: i["column_names"] for i in inspect(conn).get_indexes("authfailure")}
        if conn.dialect.name == "sqlite":
            plan = " ".join(str(row) for row in conn.execute(text(
                "EXPLAIN QUERY PLAN SELECT id FROM mailmessage WHERE direction = 'in' AND status = 'new'")))
            assert "ix_mailmessage_status_direction" in plan
    assert mail["ix_mailmessage_status_direction"] == ["status", "direction"]
    assert orders["ix_submission_game_nation_turn"] == ["game_id", "nation", "turn"]
    assert refused["ix_authfailure_game_nation_reason"] == ["game_id", "nation", "reason"]
