"""Alembic's environment. The moderator calls it with an open connection inside the
transaction moderator.store.migrate holds (config.attributes["connection"]); a developer
running the alembic command (`alembic -c moderator/store/alembic.ini -x url=sqlite:///x.db
revision --autogenerate -m "..."`) names the database with -x url=."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import moderator.store.tables  # noqa: F401 - the models, for autogenerate's comparison


def run(connection) -> None:  # type: ignore[no-untyped-def]
    context.configure(connection=connection, target_metadata=SQLModel.metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is not None:
    run(given)
else:
    url = context.get_x_argument(as_dictionary=True).get("url") or "sqlite:///var/moderator.db"
    with create_engine(url).connect() as conn:
        run(conn)
        conn.commit()
