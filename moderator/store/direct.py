"""The few statements every order mail runs, compiled once and run on SQLite's own driver.

SQLAlchemy Core spends about 20 us of Python on each execution of a built statement (its
compiled cache, an execution context, events, a result object); sqlite3 runs the same
statement in one or two. An order mail runs four of them (its row's UPDATE, the receipt's
INSERT, the submission's INSERT and the UPDATE of the one it replaces), and a fetched batch
one INSERT a mail (issue 11, round 11: the polling thread's CPU per mail).

A statement here is built by SQLAlchemy and compiled by it for the SQLite dialect once; each
value goes through the same bind processor SQLAlchemy would apply (its column type's, for
this dialect: a datetime written as SQLAlchemy writes it, so the ORM reads it back alike).
An INSERT names every column of the table, the ones not given taking their column's default,
as a Core INSERT does (tests/test_store_direct.py holds the rows written equal, column by
column). They run inside the caller's transaction, on its connection: same BEGIN IMMEDIATE,
same savepoints, same commit. Only on SQLite; elsewhere the Store runs its Core statements.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Table, bindparam
from sqlalchemy import insert as sa_insert
from sqlalchemy import update as sa_update
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.schema import ScalarElementColumnDefault

_REQUIRED = object()  # a column with no default that the caller must give


class Direct:
    """One compiled statement: its SQL text and, in the order of its placeholders, each
    parameter's name, its default and SQLAlchemy's bind processor for its type."""

    def __init__(self, sql: str, binds: Sequence[tuple[str, Any, Callable[[Any], Any] | None]]) -> None:
        self.sql = sql
        self.binds = tuple(binds)

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...]:
        out = []
        for name, default, process in self.binds:
            value = values.get(name, default)
            if value is _REQUIRED:
                raise KeyError(f"{name} is required by: {self.sql}")
            out.append(process(value) if process is not None and value is not None else value)
        return tuple(out)

    def run(self, driver: sqlite3.Connection, values: Mapping[str, Any]) -> sqlite3.Cursor:
        return driver.execute(self.sql, self.parameters(values))


def _compiled(statement: Any, dialect: Dialect, defaults: Mapping[str, Any]) -> Direct:
    compiled = statement.compile(dialect=dialect)
    names = compiled.positiontup
    assert names is not None, "SQLite's paramstyle is positional"
    binds = []
    for name in names:
        kind = compiled.binds[name].type
        binds.append((name, defaults.get(name, _REQUIRED), kind.dialect_impl(dialect).bind_processor(dialect)))
    return Direct(compiled.string, binds)


def insert(table: Table, dialect: Dialect) -> Direct:
    """INSERT of one row of `table`, every column but the primary key named; a column not
    given takes its default (a scalar, as every default of our tables is: a callable one
    would have to be called per row, and is refused here), or NULL if it is nullable."""
    defaults: dict[str, Any] = {}
    columns = [c for c in table.columns if not c.primary_key]
    for column in columns:
        if isinstance(column.default, ScalarElementColumnDefault):
            defaults[column.name] = column.default.arg
        elif column.default is not None:
            raise ValueError(f"{table.name}.{column.name}: only a scalar default can be written directly")
        elif column.nullable:
            defaults[column.name] = None
    statement = sa_insert(table).values({c.name: bindparam(c.name, type_=c.type) for c in columns})
    return _compiled(statement, dialect, defaults)


def update_by_id(table: Table, fields: Sequence[str], dialect: Dialect) -> Direct:
    """UPDATE of these fields of the row whose primary key `id` is given ("row_id")."""
    statement = (sa_update(table).where(table.c.id == bindparam("row_id"))
                 .values({f: bindparam(f"new_{f}", type_=table.c[f].type) for f in fields}))
    return _compiled(statement, dialect, {})


def driver_of(connection: Any) -> sqlite3.Connection:
    """The sqlite3 connection under a SQLAlchemy Connection (in its transaction)."""
    driver = connection.connection.driver_connection
    assert isinstance(driver, sqlite3.Connection)
    return driver
