"""Bringing a database to the schema this moderator uses: Alembic migrations, run at startup.

The schema's history is moderator/store/migrations/versions, from 0001 (the first schema
the moderator made) to the newest. Store() calls migrate() each time it opens a database:
- a new, empty database gets the models' tables at once (create_all) and is marked as at
  the newest migration, which makes the same schema (tests/test_store_migration.py holds
  the two equal);
- a database made before migrations existed (tables, no alembic_version) is taken as at
  0001 and upgraded: 0002 adds whatever the old startup upgrade had not added yet;
- any other is upgraded from the migration it is at to the newest.
All of it in one transaction; on PostgreSQL under an advisory lock too, so two daemons
starting together on one database migrate it once (the second finds it done). A new
migration is a new file in versions/ (`alembic -c moderator/store/alembic.ini revision -m
"what"`, then write its steps), never an edit of an old one.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text
from sqlmodel import SQLModel

import moderator.store.tables  # noqa: F401 - the models create_all() makes

MIGRATIONS = Path(__file__).with_name("migrations")
FIRST = "0001"  # the first schema: where a database from before migrations starts
_LOCK = 0x6D6F6465  # pg_advisory_xact_lock key for migrating ("mode")


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    return cfg


@cache
def scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(config())


def head() -> str:
    revision = scripts().get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine, to: str | None = None) -> list[str]:
    """Bring the database to migration `to` (the newest by default); returns the migrations
    applied, oldest first ("0002: Everything the schema gained ..."), [] if it was up to date
    or new."""
    from alembic import command

    target = to or head()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        at = current(conn)
        if at == target:
            return []
        if at is None and "game" not in inspect(conn).get_table_names():
            if to is None:  # new: the models' tables, marked as the newest migration
                SQLModel.metadata.create_all(conn)
                MigrationContext.configure(conn).stamp(scripts(), target)
                return []
        elif at is None:  # made before migrations: at least the first schema
            MigrationContext.configure(conn).stamp(scripts(), FIRST)
            at = FIRST
        applied = [f"{r.revision}: {(r.doc or '').splitlines()[0]}" for r in
                   reversed(list(scripts().iterate_revisions(target, at or "base")))]
        command.upgrade(config(conn), target)
    return applied
