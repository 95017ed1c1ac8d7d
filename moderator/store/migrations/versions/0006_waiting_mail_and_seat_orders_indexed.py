"""The reads of every poll and every order mail that scanned a table, indexed: the mail
waiting to be handled or sent (by status), and a seat's current orders for a turn.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29

Every poll asked for the received mail still "new", every send job for the outgoing mail
"queued": no index held the status, so each read the whole mail table, every raw message
ever kept included, and took longer the longer the moderator ran. A seat's current orders
(asked for each order mail, or each sender of a group) were found by the nation's index
alone, then every submission of that nation in every game and turn was read. Only indexes:
no row changes.
"""

from __future__ import annotations

from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_mailmessage_status_direction", "mailmessage", ["status", "direction"])
    op.create_index("ix_submission_game_nation_turn", "submission", ["game_id", "nation", "turn"])


def downgrade() -> None:
    op.drop_index("ix_submission_game_nation_turn", table_name="submission")
    op.drop_index("ix_mailmessage_status_direction", table_name="mailmessage")
