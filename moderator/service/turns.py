"""Resolving a turn at its deadline, sending the reports, and replaying past turns.

Resolution reads only stored inputs (the turn's snapshot, the moderator's "now" rulings
of the turn, the current submissions' normalized orders, the "next" rulings, the game's
seed and ruleset), and the TurnRecord keeps all of them but the snapshot and the seed,
which are stored already; so `replay` can run it again later, with the rules the turn
was played with, and must get the same bytes (Deterministic and auditable).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.ruleset import Ruleset
from moderator.engine.state import GameState
from moderator.mail.compose import AUTO_GENERATED, Attachment, compose, inline_image
from moderator.orders import parse_orders
from moderator.reports.build import MAP_CID, Report, TurnInfo, build_reports
from moderator.reports.mapview import draw_view
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import describe_deadline, orders_due, turn_label
from moderator.service.inbox import queue
from moderator.service.missed import play_missed_turns
from moderator.service.review import items_from_resolution
from moderator.service.rulings import apply_now, moderator_orders, pending
from moderator.store.tables import Game, TurnRecord


class ReplayUnavailable(LookupError):
    """A turn resolved with rules this installation does not have: it cannot be replayed here."""


@dataclass
class Inputs:
    """What the resolution of one turn reads besides its snapshot and the game's seed."""

    orders: dict[str, str]  # nation -> normalized orders
    ruleset: Ruleset
    now: list[str] = field(default_factory=list)  # rulings applied to the snapshot first, in order
    next: list[str] = field(default_factory=list)  # rulings carried out in step R

    def rulings_json(self) -> str:
        return json.dumps({"now": self.now, "next": self.next}, sort_keys=True)


@dataclass
class Resolution:
    state: GameState
    events: list[Event]
    dice: list[dict[str, Any]]
    orders: dict[str, str]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.state.dumps().encode()).hexdigest()


def compute(svc: Service, game: Game, turn: int, inputs: Inputs) -> Resolution:
    """The pure part: snapshot + "now" rulings + orders + "next" rulings + seed -> new
    state, events (the "now" rulings' first, so the reports say what the moderator
    changed during the turn), dice log (hand rolls of rulings included)."""
    world, scenario = svc.world(game), svc.scenario(game)
    dice = Dice(game.seed, turn)
    state, ruled = apply_now(svc.state(game, turn), inputs.now, world, scenario, inputs.ruleset, dice)
    orders = {nation: parse_orders(text).orders for nation, text in sorted(inputs.orders.items())}
    orders.update(moderator_orders(inputs.next))
    new_state, events = resolve(state, orders, world, scenario, dice, inputs.ruleset)
    return Resolution(new_state, [*ruled, *events], [r.to_json() for r in dice.log],
                      dict(sorted(inputs.orders.items())))


def turn_inputs(svc: Service, game: Game, ruleset: Ruleset) -> Inputs:
    """The current turn's stored inputs, as a resolution now would read them."""
    subs = svc.store.current_submissions(game.id, game.turn)
    now, later = pending(svc, game)
    return Inputs({n: s.normalized for n, s in subs.items()}, ruleset, now, later)


def recorded_inputs(record: TurnRecord) -> Inputs:
    """A resolved turn's inputs as its record keeps them, with the rules it was played with."""
    from moderator.rulesets import registry

    reg = registry()
    if record.ruleset_version not in reg.versions(record.ruleset):
        have = ", ".join(f"v{v}" for v in reg.versions(record.ruleset)) or "no version of it"
        raise ReplayUnavailable(
            f"turn {record.turn} of {record.game_id} was resolved with {record.ruleset} v{record.ruleset_version}, "
            f"which this moderator does not have (it has {have}), so it cannot be replayed here; replay it "
            f"with a moderator that has {record.ruleset} v{record.ruleset_version} installed")
    rulings = json.loads(record.rulings or "{}")
    return Inputs(json.loads(record.orders), reg.get(record.ruleset, record.ruleset_version),
                  list(rulings.get("now", [])), list(rulings.get("next", [])))


def resolve_game(svc: Service, game_id: str) -> Resolution:
    """Resolve the current turn of a game, store everything, queue the reports."""
    game = svc.game(game_id)
    turn = game.turn
    ruleset = svc.ruleset(game)
    if (ruleset.name, ruleset.version) != (game.ruleset, game.ruleset_version):
        svc.say(f"{game.id} was played with {game.ruleset} v{game.ruleset_version}, which this moderator no longer "
                f"has; turn {turn} is resolved with {ruleset.key}, and the game goes on with it")
    missed = play_missed_turns(svc, game)  # stored as the seats' orders, so a replay plays them too
    svc.store.update_game(game.id, status="resolving")
    try:
        inputs = turn_inputs(svc, game, ruleset)
        subs = {n: o for n, o in inputs.orders.items() if n not in {m.nation for m in missed}}
        res = compute(svc, game, turn, inputs)
        now = svc.clock()
        svc.store.save_snapshot(game.id, turn + 1, res.state.dumps())
        svc.store.save_turn(TurnRecord(
            game_id=game.id, turn=turn, orders=json.dumps(res.orders, sort_keys=True),
            events=json.dumps([e.to_json() for e in res.events], sort_keys=True),
            dice=json.dumps(res.dice), result_sha256=res.sha256, resolved=now,
            ruleset=ruleset.name, ruleset_version=ruleset.version, rulings=inputs.rulings_json()))
        deadline = orders_due(now, game.cycle_days)
        game = svc.store.update_game(game.id, turn=turn + 1, deadline=deadline, status="open",
                                     ruleset=ruleset.name, ruleset_version=ruleset.version)
        missing = sorted(s.nation for s in svc.store.seats(game.id) if s.nation not in subs)
        svc.say(f"resolved {game.id} turn {turn}: {len(res.events)} events, {len(res.dice)} dice rolled; "
                f"orders from {', '.join(sorted(subs)) or 'nobody'}"
                + (f"; no orders from {', '.join(missing)}" if missing else ""))
        # Orders the moderator must resolve and defaults the engine chose: each waits for a decision.
        items = items_from_resolution(svc, game, turn, res.events)
        if items:
            svc.say(f"{len(items)} item(s) for review from turn {turn}: `moderator review list --game {game.id}`")
        if svc.mail is None:
            svc.say("no [mail] settings, so no report mails were queued; `moderator report` writes them to files")
        else:
            queued = queue_reports(svc, game, turn, res)
            queue_moderator_copy(svc, game, turn, res, ordered=sorted(subs), missing=missing, items=items)
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


def queue_moderator_copy(svc: Service, game: Game, resolved_turn: int, res: Resolution, *, ordered: list[str],
                         missing: list[str], items: list[str]) -> None:
    """The moderator sees everything, with the dice log attached for auditing: the review
    items this resolution created and the rulings it applied come first."""
    cfg = svc.require_mail()
    scenario = svc.scenario(game)
    text, html = render("moderator", title=game.title, game=game.id, resolved_turn=resolved_turn,
                        resolved_date=turn_label(scenario, resolved_turn), ordered=ordered, missing=missing,
                        flags=items, dice_count=len(res.dice), sha256=res.sha256, events=res.events,
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
    """Run a past turn again from its stored inputs, with the rules it was played with;
    (same result?, explanation). ReplayUnavailable if this moderator lacks those rules."""
    game = svc.game(game_id)
    record = svc.store.turn_record(game.id, turn)
    if record is None:
        return False, f"turn {turn} of {game.id} has not been resolved"
    res = compute(svc, game, turn, recorded_inputs(record))  # ReplayUnavailable: rules not installed
    stored_next = svc.store.snapshot(game.id, turn + 1)
    same_state = res.sha256 == record.result_sha256 and stored_next == res.state.dumps()
    same_dice = json.dumps(res.dice) == record.dice
    same_events = json.dumps([e.to_json() for e in res.events], sort_keys=True) == record.events
    ok = same_state and same_dice and same_events
    detail = (f"turn {turn} of {game.id}: state {'identical' if same_state else 'DIFFERENT'}, "
              f"{len(res.dice)} dice rolls {'identical' if same_dice else 'DIFFERENT'}, "
              f"{len(res.events)} events {'identical' if same_events else 'DIFFERENT'}; sha256 {res.sha256[:16]}")
    return ok, detail
