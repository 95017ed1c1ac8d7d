"""Missed turns (Miscellaneous): at the deadline, a seat without orders gets the
moderator's default orders (engine/missed_turn.py: defensive, half the income on units
3:1:1), checked as any orders and stored as its submission so the turn record keeps them
and a replay plays them again; on the second consecutive miss the moderator is told to
replace the player.

The stored orders open with missed_turn.MARKER (a comment, so the engine reads past it):
the turn record then still says the seat missed the turn (turns.missed_in_a_row, the
reports' count), and the next miss is recognized as the second in a row.

An ally's proxy orders - by mail with a PROXY FOR line (service/proxy.py), or entered by
the moderator (`moderator enter`) - are the seat's orders, so a seat with proxy orders
has not missed the turn.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from moderator.engine import missed_turn
from moderator.orders import check, normalize, parse_orders
from moderator.orders.echo import nation_words
from moderator.service.context import Service
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
    world, scenario = svc.world(game), svc.scenario(game)
    out: list[Missed] = []
    state = None
    for seat in svc.store.seats(game.id):
        if seat.nation in subs:
            continue
        state = state or svc.position(game)  # the same position for every seat that missed the turn
        text = missed_turn.default_orders(state, world, scenario, seat.nation)
        parsed = parse_orders(text)
        checked = check(parsed.orders, seat.nation, state, world, scenario, svc.ruleset(game))
        normalized = missed_turn.MARKER + "\n" + normalize(checked.orders, nations=nation_words(scenario))
        svc.store.add_submission(game.id, seat.nation, game.turn, text=text, normalized=normalized,
                                 diagnostics=[dataclasses.asdict(d) for d in (*parsed.diagnostics,
                                                                              *checked.diagnostics)],
                                 message=None)
        before = earlier.get(seat.nation)
        second = before is not None and missed_turn.is_default(before.normalized)
        out.append(Missed(seat.nation, len(checked.orders), second))
        name = scenario.nations[seat.nation].name
        svc.say(f"{name} sent no orders for turn {game.turn} of {game.id}: the moderator's default orders were "
                f"played (defensive, {len(checked.orders)} build order(s) from half the income)"
                + ("; this is the second missed turn in a row: replace the player "
                   f"(`moderator seat replace --game {game.id} --nation {seat.nation} --email NEW`)"
                   if second else ""))
    return out
