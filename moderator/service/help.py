"""HELP by mail: a player who writes HELP in the subject gets the orders reference back
as a mail (every order, with examples), so no mail needs to point at a file players do
not have. The reference is docs/orders.md, the same text the project publishes; its
examples are checked by tests/test_orders_docs.py."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path

from moderator.mail.extract import ExtractedMessage

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "orders.md"
# "HELP", "Re: help", "help please", "HELP: how do I attack?"
SUBJECT = re.compile(r"^\s*(?:(?:re|aw|fwd?)\s*:\s*)*help\b", re.IGNORECASE)


def asks_for_help(mail: ExtractedMessage) -> bool:
    """HELP in the subject, or a mail whose whole text is HELP."""
    return bool(SUBJECT.match(mail.subject or "")) or mail.text.strip().upper() in {"HELP", "HELP!"}


def reference() -> tuple[str, str]:
    """The orders reference as the (text, html) of a mail."""
    doc = REFERENCE.read_text(encoding="utf-8")
    intro = ("You asked for help: here is the orders reference, every order with examples.\n"
             "Write CHECK in the subject to test orders without submitting them.\n\n")
    text = intro + doc + "\n-- \nThe moderator robot.\n"
    html = (f"<html><body style=\"font-family: sans-serif\"><p>{escape(intro.strip())}</p>"
            f"<pre style=\"white-space: pre-wrap\">{escape(doc)}</pre></body></html>")
    return text, html
