"""The per-mail statements that go straight to SQLite's driver (moderator/store/direct.py)
write what SQLAlchemy Core writes, column by column, and belong to the caller's transaction
and savepoints like any other statement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, text

from moderator.store import direct
from moderator.store.db import Store
from moderator.store.tables import MailMessage, Submission

MAILS = MailMessage.__table__  # type: ignore[attr-defined]
SUBMISSIONS = Submission.__table__  # type: ignore[attr-defined]
WHEN = datetime(2026, 11, 29, 9, 30, 15, 123456, tzinfo=UTC)

# Values of every kind the columns hold: text, bytes, NULL, aware datetimes (UTC and another
# zone, which SQLAlchemy writes without it), big IMAP numbers, booleans, and columns left out.
ROWS: list[tuple[Any, dict[str, Any]]] = [
    (MAILS, dict(direction="in", raw=b"From: a@t.local\r\n\r\n\x00\xff", sha256="ab" * 32, mailbox_uid=2**32 - 1,
                 uidvalidity=2**31 + 7, arrived=WHEN, size=19, message_id="<m@t.local>", received=WHEN,
                 attempts=1, next_attempt=None)),
    (MAILS, dict(direction="out", game_id="g", raw=b"", recipients="a@t.local, b@t.local", subject="Receipt: \u00e9",
                 message_id="<r@t.local>", status="queued", received=WHEN.astimezone(timezone(timedelta(hours=-5))),
                 kind="reply", answers="a@t.local")),
    (MAILS, dict(received=WHEN)),  # every other column its default
    (SUBMISSIONS, dict(game_id="g", nation="germany", turn=3, text="MOVE", normalized="MOVE 1", diagnostics="[]",
                       message=None, created=WHEN, written=WHEN - timedelta(days=1), current=True)),
    (SUBMISSIONS, dict(game_id="g", nation="france", turn=3, message=7, created=WHEN, written=None, current=False)),
]


def _row(store: Store, table: Any, row_id: int) -> dict[str, Any]:
    with store.engine.connect() as conn:
        found = conn.execute(text(f"SELECT * FROM {table.name} WHERE id = :id"), {"id": row_id}).mappings().one()
    return {k: v for k, v in found.items() if k != "id"}


@pytest.mark.parametrize("table, values", ROWS)
def test_a_direct_insert_writes_what_a_core_insert_writes(tmp_path: Path, table: Any, values: dict[str, Any]) -> None:
    store = Store.at(tmp_path / "db")
    with store.engine.begin() as conn:
        by_core = conn.execute(insert(table), values).inserted_primary_key
    assert by_core is not None
    with store.transaction() as s:
        by_driver = store._insert_row(s, table, values)
    assert by_driver == by_core[0] + 1
    assert _row(store, table, by_driver) == _row(store, table, by_core[0])


def test_a_direct_update_writes_what_a_core_update_writes(tmp_path: Path) -> None:
    store = Store.at(tmp_path / "db")
    changes = dict(status="processed", note="receipt germany turn 1", game_id="g", sender="a@t.local",
                   raw=b"masked", next_attempt=WHEN, arrived=None)
    ids = [store.store_incoming(f"From: a@t.local\r\n\r\n{n}".encode())[0] for n in range(2)]
    with store.transaction() as s:
        assert store._update_row(s, MAILS, ids[0], changes) == 1
        assert store._update_row(s, MAILS, ids[0] + 100, changes) == 0
    store.update_message(ids[1], **changes)  # outside a transaction: the ORM's flush
    stored_apart = {"sha256": "", "received": ""}  # (the two mails' own bytes and time of storing)
    assert _row(store, MAILS, ids[0]) | stored_apart == _row(store, MAILS, ids[1]) | stored_apart


def test_direct_writes_in_a_rolled_back_savepoint_are_undone(tmp_path: Path) -> None:
    """A savepoint whose only statements went to the driver (no SQLAlchemy statement asked for
    the connection, which is when SQLAlchemy emits the SAVEPOINT) still undoes them."""
    store = Store.at(tmp_path / "db")
    row_id, _ = store.store_incoming(b"From: a@t.local\r\n\r\nx")
    with store.transaction():
        kept = store.queue_outgoing(b"kept", game_id="g", recipients="a@t.local", subject="s", message_id="<k@t>")
        with pytest.raises(RuntimeError), store.savepoint():
            store.queue_outgoing(b"undone", game_id="g", recipients="a@t.local", subject="s", message_id="<u@t>")
            store.submit("g", "germany", 1, text="x", normalized="x", diagnostics=[], message=row_id)
            store.update_message(row_id, status="failed")
            raise RuntimeError("the mail failed")
    assert [m.raw for m in store.messages(direction="out")] == [b"kept"] and kept
    assert store.current_submissions("g", 1) == {}
    assert store.message_statuses([row_id]) == {row_id: "new"}


def test_a_column_default_that_is_not_a_value_is_refused() -> None:
    from sqlalchemy import Column, DateTime, Integer, MetaData, Table
    from sqlalchemy.dialects import sqlite

    table = Table("t", MetaData(), Column("id", Integer, primary_key=True),
                  Column("at", DateTime, default=lambda: WHEN))
    with pytest.raises(ValueError, match="scalar default"):
        direct.insert(table, sqlite.dialect())
