"""Everything the schema gained before it had migrations (issues 5 to 12).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23

Until then an older database was brought up to date at startup by adding whatever columns
it lacked, so a database from before migrations may have any part of this already; each
step here is therefore taken only where it is missing. Old rows get the values that
describe them (server defaults): the first ruleset in its first version, dice scheme 1
(rolled before verifiable dice), no rulings, no failed resolution. Later migrations are
plain steps.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TEXT, WHEN = sa.String, sa.DateTime(timezone=True)

COLUMNS: dict[str, list[sa.Column]] = {  # type: ignore[type-arg]
    "game": [
        sa.Column("reminded_turn", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("ruleset", TEXT(), nullable=False, server_default="wtea-1914"),
        sa.Column("ruleset_version", sa.Integer(), nullable=False, server_default=sa.text("1")),
        sa.Column("problem", TEXT(), nullable=False, server_default=""),
        sa.Column("reminder_hours", TEXT(), nullable=False, server_default="48,12"),
        sa.Column("reminded_hours", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("address", TEXT(), nullable=False, server_default=""),
    ],
    "seat": [sa.Column("addresses", TEXT(), nullable=False, server_default="")],
    "mailmessage": [
        sa.Column("uidvalidity", sa.Integer(), nullable=True),
        sa.Column("sha256", TEXT(), nullable=False, server_default=""),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("next_attempt", WHEN, nullable=True),
        sa.Column("arrived", WHEN, nullable=True),
        sa.Column("size", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("kind", TEXT(), nullable=False, server_default=""),
    ],
    "submission": [sa.Column("written", WHEN, nullable=True)],
    "turnrecord": [
        sa.Column("ruleset", TEXT(), nullable=False, server_default="wtea-1914"),
        sa.Column("ruleset_version", sa.Integer(), nullable=False, server_default=sa.text("1")),
        sa.Column("rulings", TEXT(), nullable=False, server_default="{}"),
        sa.Column("dice_scheme", sa.Integer(), nullable=False, server_default=sa.text("1")),
        sa.Column("corrects", sa.Integer(), nullable=True),
    ],
    "reviewitem": [sa.Column("rulings", TEXT(), nullable=False, server_default="")],
}

INDEXES = [("ix_mailmessage_sha256", "mailmessage", "sha256")]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    have_tables = set(inspector.get_table_names())
    for table, columns in COLUMNS.items():
        have = {c["name"] for c in inspector.get_columns(table)}
        for column in columns:
            if column.name not in have:
                op.add_column(table, column)
    for index, table, indexed in INDEXES:
        if index not in {i["name"] for i in inspector.get_indexes(table)}:
            op.create_index(index, table, [indexed])
    if "authfailure" not in have_tables:
        op.create_table(
            "authfailure",
            sa.Column("id", sa.Integer(), nullable=False), sa.Column("sender", TEXT(), nullable=False),
            sa.Column("game_id", TEXT(), nullable=False), sa.Column("nation", TEXT(), nullable=False),
            sa.Column("reason", TEXT(), nullable=False), sa.Column("at", WHEN, nullable=False),
            sa.PrimaryKeyConstraint("id"))
        op.create_index("ix_authfailure_sender", "authfailure", ["sender"])
    if "ruling" not in have_tables:
        op.create_table(
            "ruling",
            sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", TEXT(), nullable=False),
            sa.Column("turn", sa.Integer(), nullable=False), sa.Column("text", TEXT(), nullable=False),
            sa.Column("applies", TEXT(), nullable=False), sa.Column("source", TEXT(), nullable=False),
            sa.Column("created", WHEN, nullable=False),
            sa.ForeignKeyConstraint(["game_id"], ["game.id"]), sa.PrimaryKeyConstraint("id"))
        op.create_index("ix_ruling_game_id", "ruling", ["game_id"])
        op.create_index("ix_ruling_turn", "ruling", ["turn"])
    if "setting" not in have_tables:
        op.create_table("setting", sa.Column("key", TEXT(), nullable=False),
                        sa.Column("value", TEXT(), nullable=False), sa.PrimaryKeyConstraint("key"))
    if "poolentry" not in have_tables:
        op.create_table(
            "poolentry",
            sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", TEXT(), nullable=False),
            sa.Column("name", TEXT(), nullable=False), sa.Column("email", TEXT(), nullable=False),
            sa.Column("side", TEXT(), nullable=False), sa.Column("status", TEXT(), nullable=False),
            sa.Column("seated", TEXT(), nullable=False), sa.Column("created", WHEN, nullable=False),
            sa.PrimaryKeyConstraint("id"))
        op.create_index("ix_poolentry_email", "poolentry", ["email"])


def downgrade() -> None:
    raise NotImplementedError("a database is not taken back to before migrations; restore a backup instead")
