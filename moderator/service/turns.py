"""Resolving a turn at its deadline, sending the reports, and replaying past turns.

Resolution reads only stored inputs (the turn's snapshot, the current submissions'
normalized orders, the game's seed), so `replay` can run it again later and must get
the same bytes (Deterministic and auditable).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.mail.compose import AUTO_GENERATED, Attachment, compose, inline_image
from moderator.orders import parse_orders
from moderator.reports.build import MAP_CID, Report, TurnInfo, build_reports
from moderator.reports.mapview import draw_view
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import describe_deadline, orders_due, turn_label
from moderator.service.inbox import queue
from moderator.store.tables import Game, TurnRecord


@dataclass
class Resolution:
    state: GameState
    events: list[Event]
    dice: list[dict[str, Any]]
    orders: dict[str, str]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.state.dumps().encode()).hexdigest()


def compute(svc: Service, game: Game, turn: int, orders_text: dict[str, str]) -> Resolution:
    """The pure part: stored state + stored orders + seed -> new state, events, dice log."""
    state = svc.state(game, turn)
    orders = {nation: parse_orders(text).orders for nation, text in sorted(orders_text.items())}
    dice = Dice(game.seed, turn)
    new_state, events = resolve(state, orders, svc.world(game), svc.scenario(game), dice)
    return Resolution(new_state, list(events), [r.to_json() for r in dice.log], dict(sorted(orders_text.items())))


def resolve_game(svc: Service, game_id: str) -> Resolution:
    """Resolve the current turn of a game, store everything, queue the reports."""
    game = svc.game(game_id)
    turn = game.turn
    svc.store.update_game(game.id, status="resolving")
    try:
        subs = svc.store.current_submissions(game.id, turn)
        res = compute(svc, game, turn, {n: s.normalized for n, s in subs.items()})
        now = svc.clock()
        svc.store.save_snapshot(game.id, turn + 1, res.state.dumps())
        svc.store.save_turn(TurnRecord(
            game_id=game.id, turn=turn, orders=json.dumps(res.orders, sort_keys=True),
            events=json.dumps([e.to_json() for e in res.events], sort_keys=True),
            dice=json.dumps(res.dice), result_sha256=res.sha256, resolved=now))
        deadline = orders_due(now, game.cycle_days)
        game = svc.store.update_game(game.id, turn=turn + 1, deadline=deadline, status="open")
        missing = sorted(s.nation for s in svc.store.seats(game.id) if s.nation not in subs)
        svc.say(f"resolved {game.id} turn {turn}: {len(res.events)} events, {len(res.dice)} dice rolled; "
                f"orders from {', '.join(sorted(subs)) or 'nobody'}"
                + (f"; no orders from {', '.join(missing)}" if missing else ""))
        # Defaults the engine chose where the rules leave judgement to the moderator, and orders
        # the checker accepted for phases the engine does not automate yet: both need a human.
        flags = [e for e in res.events if "moderator" in e.seen_by or e.code == "order-not-implemented"]
        for e in flags:  # defaults the engine chose where the rules leave judgement to the moderator
            svc.store.add_review(game_id=game.id, turn=turn, nation=e.args.get("nation"), kind="flag",
                                 summary=_review_summary(e), detail=json.dumps(e.args, default=str))
        if svc.mail is None:
            svc.say("no [mail] settings, so no report mails were queued; `moderator report` writes them to files")
        else:
            queued = queue_reports(svc, game, turn, res)
            queue_moderator_copy(svc, game, turn, res, ordered=sorted(subs), missing=missing, flags=len(flags))
            svc.say(f"queued {queued} report mails for turn {turn} of {game.id}, and the moderator's copy")
        return res
    except Exception:
        svc.store.update_game(game.id, status="open")
        raise


def queue_reports(svc: Service, game: Game, resolved_turn: int, res: Resolution) -> int:
    scenario, world = svc.scenario(game), svc.world(game)
    seats = {s.nation: s for s in svc.store.seats(game.id)}
    info = TurnInfo(game=game.id, title=game.title, resolved_turn=resolved_turn,
                    resolved_date=turn_label(scenario, resolved_turn), turn=game.turn,
                    date=turn_label(scenario, game.turn), deadline=describe_deadline(game.deadline))
    reports = build_reports(res.state, res.events, scenario, world, info, sorted(seats),
                            lambda view, title: draw_view(world, view, title))
    count = 0
    for report in reports:
        for nation in report.nations:
            _queue_report(svc, game, report, seats[nation].email)
            count += 1
    return count


def _review_summary(e: Event) -> str:
    if e.code == "order-not-implemented":
        return f"resolve by hand: {e.args.get('text') or e.args.get('type')} ({e.args.get('nation')})"
    return str(e.args.get("reason", e.code))


def queue_moderator_copy(svc: Service, game: Game, resolved_turn: int, res: Resolution, *, ordered: list[str],
                         missing: list[str], flags: int) -> None:
    """The moderator sees everything, with the dice log attached for auditing."""
    cfg = svc.require_mail()
    scenario = svc.scenario(game)
    text, html = render("moderator", title=game.title, game=game.id, resolved_turn=resolved_turn,
                        resolved_date=turn_label(scenario, resolved_turn), ordered=ordered, missing=missing,
                        flags=[None] * flags, dice_count=len(res.dice), sha256=res.sha256, events=res.events,
                        names=lambda n: scenario.nations[n].name if n in scenario.nations else n)
    dice = Attachment(f"dice-turn-{resolved_turn}.json", json.dumps(res.dice, indent=1).encode(),
                      "application", "json")
    msg = compose(sender=cfg.from_address, to=[cfg.moderator_address],
                  subject=f"{game.title}: turn {resolved_turn} resolved (moderator's copy)", text=text, html=html,
                  attachments=[dice], date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED)
    queue(svc, msg, game.id)


def _queue_report(svc: Service, game: Game, report: Report, to: str) -> None:
    cfg = svc.require_mail()
    image = inline_image(f"map-{report.audience.replace(':', '-')}", report.png, cfg.message_id_domain)
    msg = compose(sender=cfg.from_address, to=[to], subject=report.subject, text=report.text,
                  html=report.html.replace(f"cid:{MAP_CID}", image.src), images=[image], date=svc.clock(),
                  domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED)
    queue(svc, msg, game.id)


def due_games(svc: Service) -> list[Game]:
    now = svc.clock()
    return [g for g in svc.store.games() if g.status == "open" and g.deadline is not None and g.deadline <= now]


def replay(svc: Service, game_id: str, turn: int) -> tuple[bool, str]:
    """Run a past turn again from its stored inputs; (same result?, explanation)."""
    game = svc.game(game_id)
    record = svc.store.turn_record(game.id, turn)
    if record is None:
        return False, f"turn {turn} of {game.id} has not been resolved"
    res = compute(svc, game, turn, json.loads(record.orders))
    stored_next = svc.store.snapshot(game.id, turn + 1)
    same_state = res.sha256 == record.result_sha256 and stored_next == res.state.dumps()
    same_dice = json.dumps(res.dice) == record.dice
    same_events = json.dumps([e.to_json() for e in res.events], sort_keys=True) == record.events
    ok = same_state and same_dice and same_events
    detail = (f"turn {turn} of {game.id}: state {'identical' if same_state else 'DIFFERENT'}, "
              f"{len(res.dice)} dice rolls {'identical' if same_dice else 'DIFFERENT'}, "
              f"{len(res.events)} events {'identical' if same_events else 'DIFFERENT'}; sha256 {res.sha256[:16]}")
    return ok, detail
