"""Reading a report's wrapped text part in tests (reports/render.py wraps it at 78
characters): the words with every run of spaces and line breaks as one space, so a
phrase is found wherever the wrapper broke its line."""

from __future__ import annotations


def flat(text: str) -> str:
    return " ".join(text.split())


def says(text: str, phrase: str) -> bool:
    """Whether the report `text` holds `phrase`, across its line breaks."""
    return flat(phrase) in flat(text)
