"""Missed turns (Miscellaneous): at the deadline, a seat without orders gets the
moderator's default orders (engine/missed_turn.py: defensive, half the income on units
3:1:1), stored as its submission so the turn record keeps them and a replay plays them
again; on the second consecutive miss the moderator is told to replace the player.

An ally's proxy orders are orders the moderator enters for the seat (`moderator enter`),
so a seat with proxy orders has not missed the turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.engine import missed_turn
from moderator.service.context import Service
from moderator.service.inbox import take_orders
from moderator.store.tables import Game


@dataclass(frozen=True)
class Missed:
    nation: str
    orders: int  # orders played for it
    second: bool  # the second consecutive miss: the player is to be replaced


def play_missed_turns(svc: Service, game: Game) -> list[Missed]:
    """Store the default orders of every active seat without orders for the current turn."""
    subs = svc.store.current_submissions(game.id, game.turn)
    earlier = svc.store.current_submissions(game.id, game.turn - 1) if game.turn > 1 else {}
    out: list[Missed] = []
    for seat in svc.store.seats(game.id):
        if seat.nation in subs:
            continue
        text = missed_turn.default_orders(svc.position(game), svc.world(game), svc.scenario(game), seat.nation)
        receipt = take_orders(svc, game, seat.nation, text, entered=True)
        before = earlier.get(seat.nation)
        second = before is not None and missed_turn.is_default(before.text)
        out.append(Missed(seat.nation, receipt.kept, second))
        name = svc.scenario(game).nations[seat.nation].name
        svc.say(f"{name} sent no orders for turn {game.turn} of {game.id}: the moderator's default orders were "
                f"played (defensive, {receipt.kept} build order(s) from half the income)"
                + ("; this is the second missed turn in a row: replace the player "
                   f"(`moderator seat replace --game {game.id} --nation {seat.nation} --email NEW`)" if second else ""))
    return out
