"""Remind seats that have sent no orders, once per turn, some time before the deadline.

Miscellaneous: a missed turn is played defensively by the moderator and two in a row
cost the player the seat, so a reminder is worth a mail.
"""

from __future__ import annotations

from datetime import timedelta

from moderator.mail.compose import AUTO_GENERATED, compose
from moderator.orders.echo import name as order_name
from moderator.orders.echo import nation_word
from moderator.orders.messages import counted
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import describe_deadline, turn_label
from moderator.service.inbox import queue


def send_reminders(svc: Service, before: timedelta) -> int:
    """Queue a reminder to every seat without orders in games whose deadline is within
    `before`; each game's turn is reminded once. Returns how many were queued."""
    cfg = svc.require_mail()
    now = svc.clock()
    count = 0
    for game in svc.store.games():
        if game.status != "open" or game.deadline is None or game.reminded_turn >= game.turn:
            continue
        if now < game.deadline - before or now > game.deadline:
            continue
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
        svc.store.update_game(game.id, reminded_turn=game.turn)
        if count:
            svc.say(f"reminded {counted(count, 'seat')} of {game.id} without orders for turn {game.turn}")
    return count
