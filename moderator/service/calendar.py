"""The moderator's hand on the calendar: moving a turn's deadline.

The ten-day cycle itself (Miscellaneous: an update, two days for corrections, orders due
at the end of day ten) is in games.py; reminders in reminders.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from moderator.mail.compose import AUTO_GENERATED, compose
from moderator.orders.messages import counted
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import describe_deadline, turn_label
from moderator.service.inbox import queue


@dataclass
class Moved:
    before: datetime | None
    after: datetime
    told: int  # seats told by mail
    summary: str


def move_deadline(svc: Service, game_id: str, when: datetime, *, tell: bool = True) -> Moved:
    """Set the current turn's deadline to `when` (UTC if it has no zone), arm the reminders
    again for it, and, with mail settings and `tell`, tell every seat. ValueError for a
    moment already past or a turn not open for orders."""
    game = svc.game(game_id)
    when = when if when.tzinfo is not None else when.replace(tzinfo=UTC)
    if game.status not in ("open", "correcting"):
        raise ValueError(f"turn {game.turn} of {game.id} is {game.status}; move the deadline once it is open")
    if when <= svc.clock():
        raise ValueError(f"{describe_deadline(when)} is past already; to resolve now use `moderator resolve`")
    before = game.deadline
    told = 0
    with svc.store.transaction():
        game = svc.store.update_game(game.id, deadline=when, reminded_turn=game.turn - 1, reminded_hours=0)
        if tell and svc.mail is not None:
            scenario = svc.scenario(game)
            subs = svc.store.current_submissions(game.id, game.turn)
            cfg = svc.mail
            for seat in svc.store.seats(game.id):
                text, html = render("deadline", title=game.title, game=game.id, turn=game.turn,
                                    date=turn_label(scenario, game.turn), deadline=describe_deadline(when),
                                    before=describe_deadline(before), has_orders=seat.nation in subs,
                                    nation_name=scenario.nations[seat.nation].name)
                queue(svc, compose(sender=cfg.from_address, to=[seat.email],
                                   subject=f"{game.title}: turn {game.turn} now due {describe_deadline(when)}",
                                   text=text, html=html, date=svc.clock(), domain=cfg.message_id_domain,
                                   auto_submitted=AUTO_GENERATED), game.id)
                told += 1
    summary = (f"turn {game.turn} of {game.id} is now due {describe_deadline(when)} (was {describe_deadline(before)})"
               + (f"; {counted(told, 'seat')} told by mail" if told else
                  "; no mail settings, so tell the players yourself" if tell and svc.mail is None else ""))
    svc.say(summary)
    return Moved(before, when, told, summary)
