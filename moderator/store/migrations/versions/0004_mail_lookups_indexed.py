"""The mail lookups every fetched message makes, indexed: a message by its place on the
server (UIDVALIDITY, UID), and a reply by the address it answers (a new column, for the
daily reply cap, which was a LIKE over every outgoing mail's recipients).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23

Replies already sent get the address they answered: the first of their recipients (a
receipt goes to the sender first, then to the seat's registered address), so the cap keeps
counting the day before the upgrade.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("mailmessage", sa.Column("answers", sa.String(), nullable=False, server_default=""))
    op.create_index("ix_mailmessage_answers", "mailmessage", ["answers"])
    op.create_index("ix_mailmessage_uidvalidity_uid", "mailmessage", ["uidvalidity", "mailbox_uid"])
    bind = op.get_bind()
    replies = bind.execute(sa.text("SELECT id, recipients FROM mailmessage WHERE direction = 'out' AND kind = 'reply'"))
    for row_id, recipients in list(replies):
        first = (recipients or "").split(",")[0].strip().lower()
        if first:
            bind.execute(sa.text("UPDATE mailmessage SET answers = :first WHERE id = :id"), {"first": first, "id": row_id})


def downgrade() -> None:
    op.drop_index("ix_mailmessage_uidvalidity_uid", table_name="mailmessage")
    op.drop_index("ix_mailmessage_answers", table_name="mailmessage")
    with op.batch_alter_table("mailmessage") as table:
        table.drop_column("answers")
