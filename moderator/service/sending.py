"""Deliver the outbox: every queued message is sent once; failures stay visible.

Each row is marked sent as soon as the server has accepted it (not after the batch), so
a crash mid-batch re-sends only what was not sent - with the same bytes, so the same
Message-ID, which lets a mail client drop the one duplicate a crash between the server's
"250" and our commit can cause. A message that could not be sent stays queued and is
tried again with growing pauses (BACKOFF); after ALERT_AFTER failed attempts it is also a
review item, so `moderator review list` shows mail that keeps failing. A message the
server refuses for good (5xx for every recipient) is marked failed and shown for review.
"""

from __future__ import annotations

import re
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from moderator.mail.outbox import SendResult, send_all
from moderator.service.context import Service
from moderator.service.faults import crash_point
from moderator.store.tables import MailMessage

ALERT_AFTER = 3  # failed attempts before a queued message also shows in review
BACKOFF = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(minutes=30),
           timedelta(hours=1))  # pause before attempt 2, 3, ...; the last repeats
# Several daemons on one database: the mail one of them is sending is left to it for this long
# (store.claim_outgoing); if it dies before marking a row sent, another sends it after that.
SEND_LEASE = timedelta(minutes=15)


def send_queued(svc: Service) -> tuple[int, int]:
    """Send every queued message that is due; returns (sent, failed). Never raises for a
    delivery problem."""
    _mark_unmarked(svc)  # raises while the disk is still full: nothing more is sent meanwhile
    queued = [r for r in svc.store.claim_outgoing(svc.clock(), SEND_LEASE)  # several daemons: each row to one
              if r.id not in svc.sent_unmarked]
    if not queued:
        return 0, 0
    rows: list[MailMessage] = []
    messages: list[EmailMessage] = []
    for row in queued:
        parsed = BytesParser(policy=policy.default).parsebytes(row.raw)
        if isinstance(parsed, EmailMessage):
            rows.append(row)
            messages.append(parsed)
    counts = {"sent": 0, "failed": 0}

    def record(index: int, result: SendResult) -> None:
        row, msg = rows[index], messages[index]
        assert row.id is not None
        if result.sent:
            crash_point("outbox.accepted")
            counts["sent"] += 1
            sent, note = svc.clock(), "; ".join(f"refused {a}: {r}" for a, r in result.refused.items())
            try:
                svc.store.update_message(row.id, status="sent", sent=sent, note=note)
            except Exception:  # the server has it: never send it again from this process
                svc.sent_unmarked[row.id] = (sent, note)
                raise
            crash_point("outbox.marked")
            _archive(svc, row.id, msg)
        else:
            counts["failed"] += 1
            _failed(svc, row, result)

    send_all(svc.require_mail(), messages, on_result=record)
    return counts["sent"], counts["failed"]


def _mark_unmarked(svc: Service) -> None:
    """Mark "sent" what the server accepted while the mark could not be committed (SQLite's
    "database or disk is full", tests/test_disk_full.py). Until that succeeds nothing else
    is sent: the row is sent, only our record of it is missing. A crash before it loses the
    memory, and the mail goes once more with the same Message-ID (as after a crash between
    the server's 250 and the commit)."""
    for row_id, (sent, note) in list(svc.sent_unmarked.items()):
        svc.store.update_message(row_id, status="sent", sent=sent, note=note)
        del svc.sent_unmarked[row_id]


def _failed(svc: Service, row: MailMessage, result: SendResult) -> None:
    assert row.id is not None
    attempts = row.attempts + 1
    error = result.error or "not sent"
    if result.permanent:
        with svc.store.transaction():
            svc.store.update_message(row.id, status="failed", attempts=attempts, note=error)
            svc.store.add_review(game_id=row.game_id, turn=None, nation=None, kind="mail-failed",
                                 summary=f"mail {row.id} to {row.recipients} was refused and will not be retried",
                                 detail=f"Subject: {row.subject}\n{error}")
        svc.say(f"mail {row.id} to {row.recipients} refused for good: {error}")
        return
    pause = BACKOFF[min(attempts - 1, len(BACKOFF) - 1)]
    with svc.store.transaction():
        svc.store.update_message(row.id, attempts=attempts, next_attempt=svc.clock() + pause, note=error)
        if attempts == ALERT_AFTER:
            svc.store.add_review(game_id=row.game_id, turn=None, nation=None, kind="mail-failed",
                                 summary=f"mail {row.id} to {row.recipients} could not be sent in {attempts} "
                                         "attempts; it stays queued and is retried",
                                 detail=f"Subject: {row.subject}\n{error}")
    if attempts == 1 or attempts == ALERT_AFTER:
        svc.say(f"could not send mail {row.id} to {row.recipients} (attempt {attempts}, next in "
                f"{int(pause.total_seconds())} s): {error}")


def _archive(svc: Service, row_id: int, msg: EmailMessage) -> None:
    """Demo convenience: keep a readable copy of each sent mail and its map on disk."""
    if svc.archive is None:
        return
    svc.archive.mkdir(parents=True, exist_ok=True)
    to = re.sub(r"[^A-Za-z0-9@._-]", "_", str(msg["To"]).split(",")[0])
    stem = f"{row_id:04d}-{to}"
    (svc.archive / f"{stem}.eml").write_bytes(bytes(msg))
    for part in msg.walk():
        if part.get_content_type() == "image/png":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                (svc.archive / f"{stem}-map.png").write_bytes(payload)
