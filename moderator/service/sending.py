"""Deliver the outbox: every queued message is sent once; failures stay visible."""

from __future__ import annotations

import re
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from moderator.mail.outbox import send_all
from moderator.service.context import Service


def send_queued(svc: Service) -> tuple[int, int]:
    """Send every queued message; returns (sent, failed). Never raises for a bad recipient."""
    queued = svc.store.messages(direction="out", status="queued")
    if not queued:
        return 0, 0
    parsed = [BytesParser(policy=policy.default).parsebytes(m.raw) for m in queued]
    messages = [p for p in parsed if isinstance(p, EmailMessage)]
    results = send_all(svc.require_mail(), messages)
    sent = failed = 0
    for row, msg, result in zip(queued, messages, results, strict=True):
        assert row.id is not None
        if result.sent:
            sent += 1
            svc.store.update_message(row.id, status="sent", sent=svc.clock(),
                                     note="; ".join(f"refused {a}: {r}" for a, r in result.refused.items()))
            _archive(svc, row.id, msg)
        else:
            failed += 1
            svc.store.update_message(row.id, status="failed", note=result.error or "not sent")
            svc.say(f"could not send message {row.id} to {row.recipients}: {result.error}")
    return sent, failed


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
