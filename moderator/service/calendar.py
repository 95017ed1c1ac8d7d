"""The moderator's hand on the calendar: moving a turn's deadline; and the whole cycle
for the players once the reports are out.

The ten-day cycle itself (Miscellaneous: an update, two days for corrections, orders due
at the end of day ten) is in games.py; reminders in reminders.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from moderator.mail.compose import AUTO_GENERATED, compose
from moderator.orders.messages import counted
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import describe_deadline, describe_move, orders_due, turn_label
from moderator.service.inbox import queue
from moderator.store.tables import Game


@dataclass
class Moved:
    before: datetime | None
    after: datetime
    told: int  # seats told by mail
    summary: str


# A delay shorter than this share of the turn is not worth a mail to every seat (a real
# game's reports go out seconds after the resolution, on the same day).
LOST_SHARE = 0.05


def _aware(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def planned_deadline(svc: Service, update: datetime, game: Game) -> datetime:
    """The next turn's deadline for an update at `update`: the game's cycle (Miscellaneous:
    orders due by the end of day ten), or the service's own (the demo's short turns)."""
    return svc.next_deadline(update, game) if svc.next_deadline else orders_due(update, game.cycle_days)


def keep_full_turn(svc: Service, game_id: str, resolved_turn: int) -> Moved | None:
    """Issue 11: a player gets the whole cycle after the reports are out. The resolution
    sets the next deadline from its own moment (the reports print it); when the reports
    left much later (a long rendering in the demo's 20-second turns: turn 2 then resolved
    before anyone could answer), the deadline is counted again from now, and every seat is
    told. Call it once the turn's reports are sent. Nothing changes for a correction (it
    keeps the deadline its players were given), a deadline the moderator moved meanwhile,
    or a delay under LOST_SHARE of the turn. Returns the move, if any."""
    game = svc.game(game_id)
    record = svc.store.turn_record(game_id, resolved_turn)
    if (game.status != "open" or game.turn != resolved_turn + 1 or game.deadline is None or record is None
            or record.corrects is not None):
        return None
    planned = planned_deadline(svc, _aware(record.resolved), game)
    if abs(_aware(game.deadline) - planned) > timedelta(seconds=1):
        return None  # moved by hand since the resolution: the moderator's word stands
    now = svc.clock()
    wanted = planned_deadline(svc, now, game)
    if wanted <= now or wanted - planned <= (wanted - now) * LOST_SHARE:
        return None
    # Deadlines are printed to the minute; a short turn (the demo's) needs its seconds too.
    exact = f" (to the second: {wanted:%H:%M:%S} UTC)" if wanted - now < timedelta(hours=1) else ""
    return move_deadline(svc, game_id, wanted, reason="the reports went out later than planned, and every player "
                         f"has the whole turn from the moment they were sent{exact}")


def move_deadline(svc: Service, game_id: str, when: datetime, *, tell: bool = True, reason: str = "") -> Moved:
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
    was_due, now_due = describe_move(before, when)
    told = 0
    with svc.store.transaction():
        game = svc.store.update_game(game.id, deadline=when, reminded_turn=game.turn - 1, reminded_hours=0)
        if tell and svc.mail is not None:
            scenario = svc.scenario(game)
            subs = svc.store.current_submissions(game.id, game.turn)
            cfg = svc.mail
            for seat in svc.store.seats(game.id):
                text, html = render("deadline", title=game.title, game=game.id, turn=game.turn,
                                    date=turn_label(scenario, game.turn), deadline=now_due,
                                    before=was_due, has_orders=seat.nation in subs,
                                    nation_name=scenario.nations[seat.nation].name, reason=reason)
                queue(svc, compose(sender=cfg.from_address, to=[seat.email],
                                   subject=f"{game.title}: turn {game.turn} now due {now_due}",
                                   text=text, html=html, date=svc.clock(), domain=cfg.message_id_domain,
                                   auto_submitted=AUTO_GENERATED), game.id)
                told += 1
    summary = (f"turn {game.turn} of {game.id} is now due {now_due} (was {was_due})"
               + (f"; {counted(told, 'seat')} told by mail" if told else
                  "; no mail settings, so tell the players yourself" if tell and svc.mail is None else ""))
    svc.say(summary)
    return Moved(before, when, told, summary)
