"""The replacement pool (Replacement Pool; Miscellaneous: two missed turns in a row and the
player is replaced).

Players sign up by mail, with their name, address and the side they would like to join:

    REPLACEMENT POOL
    NAME Hans Castorp
    SIDE Central Powers          (or Allies, or any)
    GAME g1                      (optional: any game otherwise)

When a seat's player misses a second turn in a row, the seat is offered by mail to the
pool's players for its side (and to those who take any side): the rules have the side
pick a player who then contacts the moderator. The moderator seats them with
`moderator seat replace --game G --nation N --from-pool ID`.
"""

from __future__ import annotations

import re

from moderator.mail.compose import AUTO_GENERATED, compose
from moderator.mail.extract import ExtractedMessage
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import nation_namer
from moderator.store.tables import Game, PoolEntry

SIGNUP = re.compile(r"(?im)^\s*(?:JOIN\s+)?(?:THE\s+)?REPLACEMENT\s+POOL\s*$")
FIELD = re.compile(r"(?im)^\s*(NAME|SIDE|GAME)\s*:?\s+(.+?)\s*$")
SIDE_WORDS = {"central": "central", "central powers": "central", "centrals": "central", "allies": "allied",
              "allied": "allied", "allied powers": "allied", "entente": "allied", "any": "any", "either": "any"}
SIDE_NAMES = {"central": "the Central Powers", "allied": "the Allied Powers", "any": "any side"}


def side_of(text: str) -> str | None:
    return SIDE_WORDS.get(" ".join(text.lower().split()))


def is_signup(mail: ExtractedMessage) -> bool:
    return bool(SIGNUP.search(mail.text)) or "replacement pool" in mail.subject.lower()


def sign_up(svc: Service, mail: ExtractedMessage) -> tuple[PoolEntry | None, str]:
    """Put the sender on the pool from the mail's NAME, SIDE and GAME lines; (entry, what to tell)."""
    fields = {m.group(1).upper(): m.group(2) for m in FIELD.finditer(mail.text)}
    side = side_of(fields.get("SIDE", "any"))
    if side is None:
        return None, (f"The SIDE line said {fields['SIDE']!r}: write SIDE Central Powers, SIDE Allies or SIDE any. "
                      "You are not on the pool yet.")
    game_id = fields.get("GAME", "").strip()
    if game_id and svc.store.game(game_id) is None:
        return None, f"There is no game called {game_id!r}. You are not on the pool yet."
    name = fields.get("NAME") or mail.sender_display or mail.sender
    entry = svc.store.add_to_pool(name=name, email=mail.sender, side=side, game_id=game_id)
    return entry, (f"{name} <{mail.sender}> is on the replacement pool for {SIDE_NAMES[side]}"
                   + (f" in game {game_id}" if game_id else " in any game")
                   + ". When a seat of that side falls vacant, you will be offered it by mail.")


def handle(svc: Service, message_id: int, mail: ExtractedMessage):  # type: ignore[no-untyped-def]
    from moderator.service.inbox import Outcome, _queue_reply

    entry, told = sign_up(svc, mail)
    text, html = render("pool", lines=[told], offer=None)
    _queue_reply(svc, mail, None, [mail.sender], "Replacement pool", text, html)
    summary = f"replacement pool: {told}" if entry else f"replacement pool sign-up refused: {told}"
    svc.store.update_message(message_id, status="processed", note=summary[:200])
    return Outcome(message_id, "processed", summary)


def offer_open_seats(svc: Service, game: Game, missed: dict[str, int], sides: dict[str, str]) -> list[str]:
    """Mail the pool's players of the right side about each seat whose player has just missed a
    second turn in a row; returns "nation -> address" for each offer."""
    if svc.mail is None:
        return []
    cfg = svc.mail
    names = nation_namer(svc.scenario(game))
    offers = []
    for nation, count in sorted(missed.items()):
        if count != 2:
            continue  # offered once, when the seat falls vacant
        side = sides.get(nation, "neutral")
        for entry in svc.store.pool():
            if entry.game_id not in ("", game.id) or entry.side not in ("any", side):
                continue
            text, html = render("pool", lines=[], offer={"game": game.id, "title": game.title,
                                                         "nation": names(nation), "side": SIDE_NAMES.get(side, side),
                                                         "name": entry.name, "moderator": cfg.moderator_address})
            from moderator.service.inbox import queue

            queue(svc, compose(sender=cfg.from_address, to=[entry.email],
                               subject=f"{game.title}: {names(nation)} needs a new player",
                               text=text, html=html, date=svc.clock(), domain=cfg.message_id_domain,
                               auto_submitted=AUTO_GENERATED), game.id)
            offers.append(f"{nation} -> {entry.email}")
    return offers


def seat_from_pool(svc: Service, game_id: str, nation: str, entry_id: int, password: str) -> PoolEntry:
    """Give `nation` to the pool's player `entry_id` (the old seat stops working)."""
    entry = next((e for e in svc.store.pool() if e.id == entry_id), None)
    if entry is None:
        raise LookupError(f"no one waits on the replacement pool as #{entry_id} (`moderator pool list`)")
    svc.store.add_seat(game_id, nation, entry.email, password, player=entry.name)
    return svc.store.update_pool_entry(entry_id, status="seated", seated=f"{game_id}:{nation}")
