"""Received mail stored before its Message-ID was kept on storing gets it, read from its raw
bytes, so the replay check (Store.earlier_with_message_id) counts it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28

Until the Message-ID was kept as a message was stored (3692fa9), it was written on the row
only when the message was handled. A message stored by that moderator and not yet handled
(a crash between storing and handling, or attempts that failed) has "" there, so a copy
with its Message-ID and other bytes, stored after it and handled before it (the original's
next attempt comes later), was not found to be a copy and both counted. Each received row
with no Message-ID is read here as Store.store_incoming reads a new one (message_id_of: the
header block only); a mail without any keeps "". The rows are read a few at a time, so a
mailbox of big mails does not have to fit in memory.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from moderator.mail.extract import message_id_of

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

AT_ONCE = 100  # rows whose raw bytes are read in one query


def upgrade() -> None:
    bind = op.get_bind()
    ids = [row_id for (row_id,) in bind.execute(sa.text(
        "SELECT id FROM mailmessage WHERE direction = 'in' AND message_id = '' ORDER BY id"))]
    for start in range(0, len(ids), AT_ONCE):
        chunk = ids[start:start + AT_ONCE]
        rows = bind.execute(sa.text("SELECT id, raw FROM mailmessage WHERE id IN :ids")
                            .bindparams(sa.bindparam("ids", expanding=True)), {"ids": chunk})
        for row_id, raw in list(rows):
            found = message_id_of(bytes(raw or b""))
            if found:
                bind.execute(sa.text("UPDATE mailmessage SET message_id = :found WHERE id = :id"),
                             {"found": found, "id": row_id})


def downgrade() -> None:
    """Nothing to undo: the Message-IDs are what the rows' own bytes say."""
