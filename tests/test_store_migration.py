"""A database made by an earlier moderator keeps working: the columns added since (the
ruleset of games and turns, the rulings a turn used, a review item's rulings) are added
on startup, old rows get the defaults that describe them, and doing it twice is harmless."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from sqlalchemy import Column, Integer, MetaData, String, Table
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateColumn

from moderator.store.db import Store
from moderator.store.tables import Game

# The tables that changed, exactly as the moderator before issue 7 created them.
OLD_SCHEMA = """
CREATE TABLE game (
    id VARCHAR NOT NULL, scenario VARCHAR NOT NULL, title VARCHAR NOT NULL, turn INTEGER NOT NULL,
    status VARCHAR NOT NULL, seed VARCHAR NOT NULL, deadline DATETIME, cycle_days INTEGER NOT NULL,
    correction_days INTEGER NOT NULL, reminded_turn INTEGER NOT NULL, created DATETIME NOT NULL,
    PRIMARY KEY (id));
CREATE TABLE turnrecord (
    id INTEGER NOT NULL, game_id VARCHAR NOT NULL, turn INTEGER NOT NULL, orders VARCHAR NOT NULL,
    events VARCHAR NOT NULL, dice VARCHAR NOT NULL, result_sha256 VARCHAR NOT NULL, resolved DATETIME NOT NULL,
    PRIMARY KEY (id));
CREATE TABLE reviewitem (
    id INTEGER NOT NULL, game_id VARCHAR, turn INTEGER, nation VARCHAR, kind VARCHAR NOT NULL,
    summary VARCHAR NOT NULL, detail VARCHAR NOT NULL, status VARCHAR NOT NULL, resolution VARCHAR NOT NULL,
    created DATETIME NOT NULL, PRIMARY KEY (id));
INSERT INTO game VALUES ('old', '1914', 'An old game', 3, 'open', 'seed', NULL, 10, 2, 0, '2024-01-01 00:00:00');
INSERT INTO turnrecord VALUES (1, 'old', 2, '{}', '[]', '[]', 'abc', '2024-01-02 00:00:00');
INSERT INTO reviewitem VALUES (1, 'old', 2, 'germany', 'flag', 'look', '', 'pending', '', '2024-01-02 00:00:00');
"""


def _old_database(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)


def test_an_old_database_gets_the_new_columns_and_old_rows_their_defaults(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _old_database(path)
    store = Store.at(path)
    assert sorted(store.upgraded) == ["game.problem", "game.ruleset", "game.ruleset_version", "reviewitem.rulings",
                                      "turnrecord.ruleset", "turnrecord.ruleset_version", "turnrecord.rulings"]
    game = store.game("old")
    assert game is not None and (game.ruleset, game.ruleset_version, game.turn) == ("wtea-1914", 1, 3)
    assert game.problem == ""  # issue 11: no failed resolution
    record = store.turn_record("old", 2)
    assert record is not None and (record.ruleset, record.ruleset_version, record.rulings) == ("wtea-1914", 1, "{}")
    assert store.reviews("old")[0].rulings == ""
    # The new table is there and the old game can take rulings.
    store.add_rulings("old", 3, ["SET SAVED OF France TO 40"], applies="next", source="adjust")
    assert [r.text for r in store.rulings("old", 3)] == ["SET SAVED OF France TO 40"]


def test_the_upgrade_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _old_database(path)
    assert Store.at(path).upgraded
    again = Store.at(path)
    assert again.upgraded == []
    assert again.game("old") is not None


def test_a_new_database_needs_no_upgrade(tmp_path: Path) -> None:
    assert Store.at(tmp_path / "new.db").upgraded == []


def test_the_added_columns_are_written_in_sql_postgresql_accepts() -> None:
    # ALTER TABLE ... ADD COLUMN <name> <type> DEFAULT <value> NOT NULL is standard SQL;
    # the default of a whole-number column is a number, not a quoted string.
    table = Game.__table__  # type: ignore[attr-defined]
    dialect = postgresql.dialect()  # type: ignore[no-untyped-call]
    assert str(CreateColumn(table.c.ruleset_version).compile(dialect=dialect)) == \
        "ruleset_version INTEGER DEFAULT 1 NOT NULL"
    assert str(CreateColumn(table.c.ruleset).compile(dialect=dialect)) == "ruleset VARCHAR DEFAULT 'wtea-1914' NOT NULL"


def test_a_column_without_a_default_for_old_rows_is_refused_with_the_fix(tmp_path: Path) -> None:
    import pytest
    from sqlalchemy import create_engine

    from moderator.store import db

    engine = create_engine(f"sqlite:///{tmp_path / 'x.db'}")
    with engine.begin() as conn:
        conn.exec_driver_sql("CREATE TABLE lonely (id INTEGER PRIMARY KEY)")
    meta = MetaData()
    Table("lonely", meta, Column("id", Integer, primary_key=True), Column("must", String, nullable=False))
    with pytest.raises(RuntimeError, match="lonely.must .*server_default"):
        db.add_missing_columns(engine, meta)
