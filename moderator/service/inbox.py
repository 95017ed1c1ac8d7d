"""From a received mail to a stored submission and a receipt (or a clear reply).

Order of work for every message, so nothing is lost and the daemon never stops:
1. the raw bytes are stored (before anything reads them), then the mailbox copy is
   filed as processed;
2. the text is extracted; robots' mail (auto-replies, bounces, lists) is quarantined
   for the moderator, never answered (RFC 3834);
3. the header names game, nation, turn and the seat password; a wrong one gets a reply
   that says what was wrong without revealing anything about the seat;
4. orders are parsed and checked against the state; valid ones are kept even when
   others fail; the submission replaces any earlier one for the same turn;
5. the receipt echoes the orders as read and every problem with its line.
A failure inside one message is recorded on it and sent to review; the next goes on.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from moderator.mail.compose import AUTO_REPLIED, compose, reply_subject
from moderator.mail.extract import ExtractedMessage, extract
from moderator.mail.intake import Mailbox
from moderator.orders import check, normalize, parse_orders
from moderator.orders.echo import nation_words
from moderator.orders.messages import counted
from moderator.orders.parser import ParseResult
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import describe_deadline, nation_id, turn_label
from moderator.service.help import asks_for_help, reference
from moderator.store.db import verify_secret
from moderator.store.tables import Game

_CHECK = re.compile(r"\bcheck\b", re.IGNORECASE)


@dataclass
class Outcome:
    message: int  # stored message id
    status: str  # processed | quarantined | failed
    summary: str  # one line for the console (never contains secrets)


def poll(svc: Service) -> list[Outcome]:
    """One poll of the mailbox: store, file away, then handle each new message."""
    outcomes = []
    with Mailbox(svc.require_mail()) as box:
        fetched = box.fetch_unseen()
        for item in fetched:
            stored = svc.store.store_incoming(item.raw, uid=item.uid)
            # Only after the bytes are safe in the database is the mailbox copy filed away:
            # robots' mail into the quarantine folder, everything else as processed.
            if extract(item.raw).auto_submitted:
                box.quarantine([item])
            else:
                box.acknowledge([item])
            outcome = handle_stored(svc, stored)
            if outcome.status == "quarantined":
                svc.say(f"quarantined message {stored}: {outcome.summary}")
            outcomes.append(outcome)
    return outcomes


def handle_stored(svc: Service, message_id: int) -> Outcome:
    """Handle one stored message; never raises."""
    row = svc.store.message(message_id)
    assert row is not None
    try:
        return _handle(svc, message_id, row.raw)
    except Exception as exc:  # one bad message must not stop the daemon
        svc.store.update_message(message_id, status="failed", note=f"{type(exc).__name__}: {exc}")
        svc.store.add_review(game_id=None, turn=None, nation=None, kind="quarantine",
                             summary=f"message {message_id} could not be handled: {type(exc).__name__}",
                             detail=str(exc))
        return Outcome(message_id, "failed", f"internal error ({type(exc).__name__}); kept for review")


def _handle(svc: Service, message_id: int, raw: bytes) -> Outcome:
    mail = extract(raw)
    svc.store.update_message(message_id, sender=mail.sender, subject=mail.subject,
                             message_id=mail.message_id or "")
    if mail.auto_submitted or not mail.sender:
        why = "sent by a robot (auto-submitted, bounce or list)" if mail.sender else "no sender address"
        return _quarantine(svc, message_id, mail, why)
    if asks_for_help(mail):
        text, html = reference()
        _queue_reply(svc, mail, None, [mail.sender], "The orders reference (HELP)", text, html)
        svc.store.update_message(message_id, status="processed", note="replied: the orders reference (HELP)")
        return Outcome(message_id, "processed", f"sent the orders reference to {mail.sender} (HELP)")
    check_only = bool(_CHECK.search(mail.subject)) or mail.text.strip().upper().startswith("CHECK")
    text = re.sub(r"(?im)^\s*check\s*$", "", mail.text) if check_only else mail.text
    parsed = parse_orders(text)
    header = parsed.header
    game = _game_for(svc, getattr(header, "game", None))
    if not (getattr(header, "game", None) or getattr(header, "nation", None)) and not parsed.orders:
        return _reply(svc, message_id, mail, game, "This message does not look like orders.",
                      "I found no GAME or NATION line and no orders in it.",
                      "Start your mail with the header shown below, then your orders.")
    if game is None:
        named = getattr(header, "game", None)
        known = ", ".join(g.id for g in svc.store.games()) or "none"
        return _reply(svc, message_id, mail, None, f"There is no game called {named!r}." if named
                      else "Your orders do not say which game they are for.",
                      f"Games run by this moderator: {known}.", "Write the game's name on a GAME line.")
    scenario = svc.scenario(game)
    nation = nation_id(scenario, getattr(header, "nation", None) or "")
    if nation is None:
        return _reply(svc, message_id, mail, game, "Your orders do not name a nation I know.",
                      f"The NATION line said {getattr(header, 'nation', None)!r}.",
                      "Write your nation's name on the NATION line, e.g. NATION Germany.")
    seat = svc.store.seat(game.id, nation)
    secret = getattr(header, "secret", None) or ""
    if seat is None or not secret or not verify_secret(secret, seat.secret_hash):
        # Same answer for "no such seat" and "wrong password": don't tell strangers which seats exist.
        return _reply(svc, message_id, mail, game, f"The password for {scenario.nations[nation].name} in game "
                      f"{game.id} is missing or wrong, so nothing was submitted.",
                      "Orders must carry the seat's password on a PASSWORD line.",
                      "Check the PASSWORD line (the one the moderator gave you) and send again.")
    turn = getattr(header, "turn", None)
    if game.status != "open":
        return _reply(svc, message_id, mail, game, f"Turn {game.turn} of {game.id} is being resolved right now.",
                      "Orders cannot be accepted until the new turn's reports are out.",
                      "Wait for your report, then send orders for the new turn.")
    if game.deadline is not None and svc.clock() > game.deadline:
        return _reply(svc, message_id, mail, game, f"The deadline for turn {game.turn} of {game.id} has passed "
                      f"({describe_deadline(game.deadline)}), so these orders were not accepted.",
                      "The turn is about to be resolved with the orders received in time.",
                      f"Wait for your report, then send orders for turn {game.turn + 1}.")
    if turn is not None and int(turn) != game.turn:
        return _reply(svc, message_id, mail, game, f"These orders are for turn {turn}, but game {game.id} is at "
                      f"turn {game.turn}.", "Only orders for the current turn are accepted.",
                      f"Change the TURN line to TURN {game.turn}.")
    return _accept(svc, message_id, mail, game, nation, parsed, check_only, seat.email, text)


def _accept(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str, parsed: Any,
            check_only: bool, seat_email: str, text: str) -> Outcome:
    receipt = take_orders(svc, game, nation, text, check_only=check_only, stored_text=mail.text,
                          message=message_id, parsed=parsed)
    recipients = [mail.sender] + ([seat_email] if seat_email and seat_email != mail.sender else [])
    _queue_reply(svc, mail, game, recipients, receipt.subject, receipt.text, receipt.html)
    svc.store.update_message(message_id, status="processed", game_id=game.id,
                             note=f"{receipt.kind.lower()} {nation} turn {game.turn}")
    return Outcome(message_id, "processed", receipt.summary)


@dataclass
class Receipt:
    """What became of one seat's orders: kept orders, problems, and the receipt's words."""

    kind: str  # "Receipt" or "CHECK"
    kept: int
    errors: int
    warnings: int
    replaced: bool
    subject: str
    text: str
    html: str
    summary: str  # one line for the console


def take_orders(svc: Service, game: Game, nation: str, text: str, *, check_only: bool = False,
                stored_text: str | None = None, message: int | None = None, parsed: ParseResult | None = None,
                entered: bool = False) -> Receipt:
    """Check one seat's orders on the position they meet, store them (replacing the seat's
    earlier orders for the turn) unless check_only, and write the receipt. A mail with
    orders comes here, and so do orders the moderator enters (`moderator enter`, entered=True)."""
    parsed = parsed if parsed is not None else parse_orders(text)
    world, scenario = svc.world(game), svc.scenario(game)
    state = svc.position(game)  # the snapshot with the moderator's "now" rulings
    checked = check(parsed.orders, nation, state, world, scenario, svc.ruleset(game))
    diagnostics = [*parsed.diagnostics, *checked.diagnostics]
    kept = checked.orders  # valid orders, names resolved to the map's and the scenario's
    normalized = normalize(kept, nations=nation_words(scenario))  # "DECLARE WAR ON Belgium", not the id
    replaced = False
    if not check_only:
        _, replaced = svc.store.add_submission(
            game.id, nation, game.turn, text=text if stored_text is None else stored_text, normalized=normalized,
            diagnostics=[dataclasses.asdict(d) for d in diagnostics], message=message)
        # Flags go to the receipt only: the resolution makes the review items (service/review.py),
        # so orders replaced before the deadline leave nothing pending.
    lines = text.splitlines()
    shown = [{**dataclasses.asdict(d), "source": lines[d.line - 1].strip() if 0 < d.line <= len(lines) else d.text}
             for d in diagnostics]
    by = {s: [d for d in shown if d["severity"] == s] for s in ("error", "warning", "flag")}
    name = scenario.nations[nation].name
    body, html = render("receipt", game=game.id, nation_name=name, turn=game.turn,
                        date=turn_label(scenario, game.turn), check_only=check_only, replaced=replaced,
                        deadline=describe_deadline(game.deadline), errors=by["error"], warnings=by["warning"],
                        flags=by["flag"], normalized=normalized, entered=entered)
    kind = "CHECK" if check_only else "Receipt"
    return Receipt(kind, len(kept), len(by["error"]), len(by["warning"]), replaced,
                   f"{kind}: {name}, turn {game.turn} ({counted(len(kept), 'order')}, "
                   f"{counted(len(by['error']), 'error')})", body, html,
                   f"{kind.lower()} for {name}, turn {game.turn}: {counted(len(kept), 'order')}, "
                   f"{counted(len(by['error']), 'error')}, {counted(len(by['warning']), 'warning')}"
                   + (" (replaces earlier orders)" if replaced else ""))


def _game_for(svc: Service, named: str | None) -> Game | None:
    if named:
        return svc.store.game(named.strip()) or next(
            (g for g in svc.store.games() if g.id.lower() == named.strip().lower()), None)
    games = [g for g in svc.store.games() if g.status != "finished"]
    return games[0] if len(games) == 1 else None  # one game running: the GAME line may be left out


def _reply(svc: Service, message_id: int, mail: ExtractedMessage, game: Game | None, headline: str,
           explanation: str, hint: str) -> Outcome:
    mod = svc.require_mail().moderator_address
    text, html = render("reply", headline=headline, explanation=explanation, hint=hint,
                        example_game=game.id if game else "GAME-NAME", example_turn=game.turn if game else 1,
                        moderator=mod)
    _queue_reply(svc, mail, game, [mail.sender], f"Not accepted: {mail.subject or 'your message'}", text, html)
    svc.store.update_message(message_id, status="processed", note=f"replied: {headline}",
                             game_id=game.id if game else None)
    return Outcome(message_id, "processed", f"replied to {mail.sender}: {headline}")


def _quarantine(svc: Service, message_id: int, mail: ExtractedMessage, why: str) -> Outcome:
    svc.store.update_message(message_id, status="quarantined", note=why)
    svc.store.add_review(game_id=None, turn=None, nation=None, kind="quarantine",
                         summary=f"message {message_id} from {mail.sender or '(nobody)'} set aside: {why}",
                         detail=f"Subject: {mail.subject}")
    return Outcome(message_id, "quarantined", why)


def _queue_reply(svc: Service, mail: ExtractedMessage, game: Game | None, to: list[str], subject: str,
                 text: str, html: str) -> None:
    cfg = svc.require_mail()
    msg = compose(sender=cfg.from_address, to=to, subject=reply_subject(subject) if mail.subject else subject,
                  text=text, html=html, date=svc.clock(), domain=cfg.message_id_domain,
                  in_reply_to=mail.message_id, references=mail.references, auto_submitted=AUTO_REPLIED)
    queue(svc, msg, game.id if game else None)


def queue(svc: Service, msg: EmailMessage, game_id: str | None) -> int:
    """Put a composed message in the outbox table; the send job delivers it."""
    return svc.store.queue_outgoing(bytes(msg), game_id=game_id, recipients=str(msg["To"]),
                                    subject=str(msg["Subject"]), message_id=str(msg["Message-ID"]))
