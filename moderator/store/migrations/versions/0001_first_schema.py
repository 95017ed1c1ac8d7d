"""The first schema: the tables as the first moderator created them (commit c918090).

Revision ID: 0001
Revises:
Create Date: 2026-11-22

Frozen: it never imports the models, which move on. A database made before migrations
existed has at least these tables; moderator.store.migrate starts it here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    text, when = sa.String, sa.DateTime(timezone=True)
    op.create_table(
        "game",
        sa.Column("id", text(), nullable=False), sa.Column("scenario", text(), nullable=False),
        sa.Column("title", text(), nullable=False), sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("status", text(), nullable=False), sa.Column("seed", text(), nullable=False),
        sa.Column("deadline", when, nullable=True), sa.Column("cycle_days", sa.Integer(), nullable=False),
        sa.Column("correction_days", sa.Integer(), nullable=False), sa.Column("created", when, nullable=False),
        sa.PrimaryKeyConstraint("id"))
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", text(), nullable=False),
        sa.Column("nation", text(), nullable=False), sa.Column("email", text(), nullable=False),
        sa.Column("player", text(), nullable=False), sa.Column("secret_hash", text(), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]), sa.PrimaryKeyConstraint("id"))
    for column in ("game_id", "nation", "email"):
        op.create_index(f"ix_seat_{column}", "seat", [column])
    op.create_table(
        "mailmessage",
        sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", text(), nullable=True),
        sa.Column("direction", text(), nullable=False), sa.Column("message_id", text(), nullable=False),
        sa.Column("mailbox_uid", sa.Integer(), nullable=True), sa.Column("sender", text(), nullable=False),
        sa.Column("recipients", text(), nullable=False), sa.Column("subject", text(), nullable=False),
        sa.Column("raw", sa.LargeBinary(), nullable=False), sa.Column("status", text(), nullable=False),
        sa.Column("note", text(), nullable=False), sa.Column("received", when, nullable=False),
        sa.Column("sent", when, nullable=True), sa.PrimaryKeyConstraint("id"))
    for column in ("game_id", "message_id"):
        op.create_index(f"ix_mailmessage_{column}", "mailmessage", [column])
    op.create_table(
        "submission",
        sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", text(), nullable=False),
        sa.Column("nation", text(), nullable=False), sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("message", sa.Integer(), nullable=True), sa.Column("text", text(), nullable=False),
        sa.Column("normalized", text(), nullable=False), sa.Column("diagnostics", text(), nullable=False),
        sa.Column("current", sa.Boolean(), nullable=False), sa.Column("created", when, nullable=False),
        sa.ForeignKeyConstraint(["message"], ["mailmessage.id"]), sa.PrimaryKeyConstraint("id"))
    for column in ("game_id", "nation", "turn"):
        op.create_index(f"ix_submission_{column}", "submission", [column])
    op.create_table(
        "snapshot",
        sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", text(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False), sa.Column("state", text(), nullable=False),
        sa.Column("created", when, nullable=False), sa.PrimaryKeyConstraint("id"))
    for column in ("game_id", "turn"):
        op.create_index(f"ix_snapshot_{column}", "snapshot", [column])
    op.create_table(
        "turnrecord",
        sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", text(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False), sa.Column("orders", text(), nullable=False),
        sa.Column("events", text(), nullable=False), sa.Column("dice", text(), nullable=False),
        sa.Column("result_sha256", text(), nullable=False), sa.Column("resolved", when, nullable=False),
        sa.PrimaryKeyConstraint("id"))
    for column in ("game_id", "turn"):
        op.create_index(f"ix_turnrecord_{column}", "turnrecord", [column])
    op.create_table(
        "reviewitem",
        sa.Column("id", sa.Integer(), nullable=False), sa.Column("game_id", text(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True), sa.Column("nation", text(), nullable=True),
        sa.Column("kind", text(), nullable=False), sa.Column("summary", text(), nullable=False),
        sa.Column("detail", text(), nullable=False), sa.Column("status", text(), nullable=False),
        sa.Column("resolution", text(), nullable=False), sa.Column("created", when, nullable=False),
        sa.PrimaryKeyConstraint("id"))
    op.create_index("ix_reviewitem_game_id", "reviewitem", ["game_id"])


def downgrade() -> None:
    for table in ("reviewitem", "turnrecord", "snapshot", "submission", "mailmessage", "seat", "game"):
        op.drop_table(table)
