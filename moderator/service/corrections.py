"""Correcting a published turn: `moderator rollback`.

Miscellaneous: the first days after each update are for error corrections. When a player
reports an error the moderator agrees with (orders misread, a ruling forgotten), the turn
is opened again, corrected with the usual tools, and resolved again:

    moderator rollback --game G --turn N     turn N open again, status "correcting"
    moderator enter / adjust --game G ...    the corrections, for turn N
    moderator resolve --game G               turn N resolved again: reports marked as corrections
    moderator rollback --game G --cancel     (or: back to turn N+1 as it was)

Only the last resolved turn can be opened again (a correction of an earlier one would
change every turn after it). Nothing is deleted: the first resolution's record stays,
superseded by the correction's (TurnRecord.corrects), and `moderator replay` shows what
changed. The daemon never resolves a turn being corrected by itself; mail orders for the
next turn get "being resolved right now" until the correction is published, and the next
turn keeps the deadline it was given.
"""

from __future__ import annotations

from moderator.service.context import Service
from moderator.store.tables import Game, TurnRecord

CORRECTING = "correcting"
# Review items a resolution makes (service/review.py): a resolution made again replaces them.
RESOLUTION_KINDS = ("note", "referred", "flag", "ruling-refused")


def rollback(svc: Service, game_id: str, turn: int) -> Game:
    """Open the last resolved turn of a game again for corrections; ValueError if it cannot be."""
    game = svc.game(game_id)
    if game.status == CORRECTING:
        raise ValueError(f"turn {game.turn} of {game.id} is open for corrections already; `moderator resolve "
                         f"--game {game.id}` publishes it, `moderator rollback --game {game.id} --cancel` drops it")
    if game.status != "open":
        raise ValueError(f"{game.id} is {game.status} right now; try again in a moment")
    last = game.turn - 1
    if svc.store.turn_record(game.id, turn) is None:
        raise ValueError(f"turn {turn} of {game.id} has not been resolved, so there is nothing to correct"
                         + (f" (the last resolved turn is {last})" if svc.store.turn_record(game.id, last) else ""))
    if turn != last:
        raise ValueError(f"only the last resolved turn ({last}) can be corrected: turn {turn} has turns resolved "
                         "after it, which the correction would change too")
    return svc.store.update_game(game.id, turn=turn, status=CORRECTING, problem="")


def cancel(svc: Service, game_id: str) -> Game:
    """Give up a correction: the game goes back to the turn after, as the last resolution left it
    (corrections stored for the turn meanwhile stay in the database, unused)."""
    game = svc.game(game_id)
    if game.status != CORRECTING:
        raise ValueError(f"{game.id} has no turn open for corrections")
    return svc.store.update_game(game.id, turn=game.turn + 1, status="open")


def first_resolution(svc: Service, game: Game, turn: int) -> TurnRecord | None:
    """The record a resolution of `turn` now would correct (None: it is the turn's first)."""
    return svc.store.turn_record(game.id, turn)


def withdraw_items(svc: Service, game: Game, turn: int) -> list[int]:
    """The first resolution's review items that still wait are withdrawn: the correction makes
    its own (a decision taken already stays as it was)."""
    withdrawn = []
    for item in svc.store.reviews(game.id):
        if item.turn == turn and item.kind in RESOLUTION_KINDS and item.id is not None:
            svc.store.decide_review(item.id, "withdrawn", f"turn {turn} was resolved again after a correction; "
                                    "the new resolution's items replace it")
            withdrawn.append(item.id)
    return withdrawn
