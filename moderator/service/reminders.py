"""Remind seats that have sent no orders, some time before the deadline.

Miscellaneous: a missed turn is played defensively by the moderator and two in a row
cost the player the seat, so a reminder is worth a mail. Each game says when
(Game.reminder_hours, by default 48 and 12 hours before the deadline); each reminder goes
out once per turn, and a daemon that was down sends only the most urgent one that is due.
A deadline moved (`moderator deadline`) arms the reminders again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from moderator.mail.compose import AUTO_GENERATED, compose
from moderator.orders.echo import name as order_name
from moderator.orders.echo import nation_word
from moderator.orders.messages import counted
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import describe_deadline, turn_label
from moderator.service.inbox import queue
from moderator.store.tables import Game


def reminder_hours(game: Game) -> list[float]:
    """The game's reminders, hours before the deadline, earliest first."""
    hours = [float(h) for h in game.reminder_hours.replace(" ", "").split(",") if h]
    return sorted(hours, reverse=True)


def due_reminder(game: Game, now: datetime, before: timedelta | None = None) -> float | None:
    """The reminder (hours before the deadline) to send now, or None. `before`: one reminder
    at that lead for every game (the demo's short turns) instead of the game's own."""
    if game.status != "open" or game.deadline is None:
        return None
    deadline = game.deadline
    if now > deadline:
        return None
    hours = [before.total_seconds() / 3600] if before is not None else reminder_hours(game)
    left = (deadline - now).total_seconds() / 3600
    due = [h for h in hours if left <= h]
    if not due:
        return None
    urgent = min(due)
    if game.reminded_turn >= game.turn and (before is not None or game.reminded_hours <= urgent):
        return None  # sent already for this turn (with a single lead: once per turn)
    return urgent


def send_reminders(svc: Service, before: timedelta | None = None) -> int:
    """Queue a reminder to every seat without orders in games with a reminder due now.
    Returns how many were queued."""
    now = svc.clock()
    count = 0
    for listed in svc.store.games():
        if due_reminder(listed, now, before) is None:
            continue
        with svc.store.transaction():  # several daemons on one database: the game's row decides who reminds
            game = svc.store.lock_game(listed.id)
            urgent = None if game is None else due_reminder(game, now, before)
            if game is None or urgent is None:
                continue
            count += _remind(svc, game, now, urgent)
    return count


def _remind(svc: Service, game: Game, now: datetime, urgent: float) -> int:
    """The game's reminder `urgent` hours before its deadline, to each seat without orders."""
    cfg = svc.require_mail()
    count = 0
    scenario = svc.scenario(game)
    submitted = svc.store.current_submissions(game.id, game.turn)
    for seat in svc.store.seats(game.id):
        if seat.nation in submitted:
            continue
        name = scenario.nations[seat.nation].name
        text, html = render("reminder", title=game.title, game=game.id, nation_name=name,
                            nation_word=order_name(nation_word(scenario, seat.nation)), turn=game.turn,
                            date=turn_label(scenario, game.turn), deadline=describe_deadline(game.deadline))
        queue(svc, compose(sender=cfg.from_address, to=[seat.email],
                           subject=f"{game.title}: orders for turn {game.turn} due {describe_deadline(game.deadline)}",
                           text=text, html=html, date=now, domain=cfg.message_id_domain,
                           auto_submitted=AUTO_GENERATED), game.id)
        count += 1
    svc.store.update_game(game.id, reminded_turn=game.turn, reminded_hours=int(urgent))
    if count:
        svc.say(f"reminded {counted(count, 'seat')} of {game.id} without orders for turn {game.turn}")
    return count
