"""Many games on one daemon: which game a mail without a GAME line is for.

One mailbox serves every game. A mail names its game by its GAME line; without one, by
the address it was sent to (a game's own address, `game new --address`, or the plus
address moderator+GAME@... that needs no setup with most mail providers), or by a tag in
the subject: "[GAME]" or "(GAME)", as in the subject of every report and reply. When one
game is running, no name is needed at all (inbox._game_for).
"""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser
from email.utils import getaddresses

from moderator.service.context import Service
from moderator.store.tables import Game

RECIPIENT_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To")


def recipients(raw: bytes) -> list[str]:
    """Every address the message was sent to, lower case (headers only; never raises)."""
    try:
        headers = BytesParser(policy=policy.compat32).parsebytes(raw, headersonly=True)
        values = [str(v) for h in RECIPIENT_HEADERS for v in headers.get_all(h, [])]
        return [a.strip().lower() for _, a in getaddresses(values) if a.strip()]
    except Exception:  # noqa: BLE001 - a header we cannot read names no game
        return []


def game_for_mail(svc: Service, raw: bytes, subject: str) -> Game | None:
    """The game a mail is for by its address or its subject tag, or None."""
    games = [g for g in svc.store.games() if g.status != "finished"]
    addressed = recipients(raw)
    for game in games:
        own = game.address.strip().lower()
        plus = re.compile(rf"^[^@+]+\+{re.escape(game.id.lower())}@")
        if (own and own in addressed) or any(plus.match(a) for a in addressed):
            return game
    for game in games:
        if re.search(rf"[\[(]{re.escape(game.id)}[\])]", subject, flags=re.I):
            return game
    return None
