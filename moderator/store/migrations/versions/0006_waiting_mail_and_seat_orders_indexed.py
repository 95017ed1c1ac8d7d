"""The reads of every poll and every order mail that scanned a table, indexed: the mail
waiting to be handled or sent (by status), a seat's current orders for a turn, and the
refused attempts at a seat.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-29

Every poll asked for the received mail still "new", every send job for the outgoing mail
"queued": no index held the status, so each read the whole mail table, every raw message
ever kept included, and took longer the longer the moderator ran. A seat's current orders
(asked for each order mail, or each sender of a group) were found by the nation's index
alone, then every submission of that nation in every game and turn was read. The throttle
per seat (Store.refused_at_seat, each order mail from a seat's address) read every refused
attempt ever recorded, of every seat. Only indexes: no row changes.
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
    op.create_index("ix_authfailure_game_nation_reason", "authfailure", ["game_id", "nation", "reason"])


def downgrade() -> None:
    op.drop_index("ix_authfailure_game_nation_reason", table_name="authfailure")
    op.drop_index("ix_submission_game_nation_turn", table_name="submission")
    op.drop_index("ix_mailmessage_status_direction", table_name="mailmessage")
