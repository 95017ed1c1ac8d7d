"""IMAP UIDs and UIDVALIDITY as 64-bit integers: they are unsigned 32-bit numbers, and a
UIDVALIDITY over 2^31 did not fit PostgreSQL's INTEGER (found by the two-daemon test).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mailmessage") as table:  # SQLite: the table is copied; PostgreSQL: ALTER
        for column in ("mailbox_uid", "uidvalidity"):
            table.alter_column(column, type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=True)


def downgrade() -> None:
    with op.batch_alter_table("mailmessage") as table:
        for column in ("mailbox_uid", "uidvalidity"):
            table.alter_column(column, type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=True)
