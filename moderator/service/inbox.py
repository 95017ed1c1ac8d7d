"""From a received mail to a stored submission and a receipt (or a clear reply).

Order of work for every message, so nothing is lost or done twice and the daemon never
stops (poll() says how this holds across crashes):
1. the raw bytes are stored (before anything reads them), once;
2. the text is extracted; robots' mail (auto-replies, bounces, lists) is quarantined
   for the moderator, never answered (RFC 3834);
3. the header names game, nation, turn and the seat password; a wrong one gets a reply
   that says what was wrong without revealing anything about the seat;
4. orders are parsed and checked against the state; valid ones are kept even when
   others fail; the submission replaces any earlier one for the same turn;
5. the receipt echoes the orders as read and every problem with its line (talk around the
   orders - greetings, sign-offs - is not counted as errors: mail/chatter.py);
6. steps 2-5 are one transaction, which also masks the seat password in the stored copy;
   only then is the mailbox copy filed away.
Who may give a seat's orders: the right password, from one of the seat's registered
addresses; a refused attempt is told to the seat (one answer, whatever was wrong). Wrong
passwords are throttled per sender and per seat; a throttled seat's mail is held unread,
never dropped, and read later (_hold: docs/mail-service.md, "Throttling without losing
orders"). A copy of a message already received (same Message-ID) is ignored.
A failure inside one message is recorded on it and retried; after MAX_ATTEMPTS it is set
aside for review. The next message goes on either way.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import getaddresses
from typing import Any

from moderator.mail.compose import (
    AUTO_GENERATED,
    AUTO_REPLIED,
    Alternative,
    compose,
    compose_raw,
    reply_subject,
)
from moderator.mail.extract import ExtractedMessage, extract
from moderator.mail.intake import FetchedMessage, Filer, Mailbox
from moderator.mail.mask import MASK, mask_raw, mask_text, secrets_in
from moderator.orders import parse_orders
from moderator.orders.messages import counted
from moderator.orders.parser import ParseResult
from moderator.reports.render import render
from moderator.service import read_ahead
from moderator.service.context import Service
from moderator.service.faults import crash_point
from moderator.service.games import describe_deadline, nation_id, turn_label
from moderator.service.help import asks_for_help, reference
from moderator.service.read_ahead import ReadAhead, default_workers, orders_text, without_chatter
from moderator.service.receipts import check_seat, receipt_words
from moderator.store.db import AlreadyRunning, Held, Incoming, verify_secret
from moderator.store.tables import Game, MailMessage

MAX_ATTEMPTS = 3  # a message that fails this many times is set aside for the moderator
FETCH_BATCH = 50  # messages fetched at once: memory stays bounded however full the mailbox
# Handling of fetched mail is committed at most this long after it began (group commit, see
# poll()): one disk sync for many mails, and the first receipts of a burst still leave at once.
GROUP_SECONDS = 0.3
# Mail up to this size is read ahead by the worker processes (service/read_ahead.py); a larger
# one (an attachment) is read in the thread, not copied to a worker and back.
READ_AHEAD_LARGEST = 1024 * 1024
# Refused attempts at a seat (wrong password, or not the seat's address): after THROTTLE_AFTER
# of them from one sender within THROTTLE_WINDOW, that sender's mail gets no answer; after
# THROTTLE_AFTER wrong passwords from one sender or at one seat, the seat's mail from its
# registered addresses is held unread (_hold) until the window has passed or the deadline
# comes; the seat's own address is told of the first refused attempt and then at most once
# per SEAT_NOTICE_EVERY (held mail alike).
# Replies (receipts included; not reports or reminders) to one address in a day: past this, a sender is not answered
# until the day has passed and the moderator is told once - whatever slipped past the robot
# checks (an auto-responder that sets none of the headers) cannot start an endless loop.
REPLIES_PER_DAY = 50
THROTTLE_AFTER = 5
THROTTLE_WINDOW = timedelta(minutes=15)
SEAT_NOTICE_EVERY = timedelta(hours=1)
# Several daemons on one database (PostgreSQL): a message one of them has taken is left to it
# for this long (it is handled in well under a second); if that daemon dies meanwhile, another
# takes the message after it. ELSEWHERE: the outcome for a message another daemon has.
CLAIM_LEASE = timedelta(minutes=2)
ELSEWHERE = "elsewhere"
# On a shared database one daemon fetches and stores the mail (Store.mailbox_turn) and every
# daemon takes CLAIM_CHUNK stored messages at a time to handle (Store.claim_incoming_chunk):
# few enough that a burst is shared out evenly, enough that the claim's own transaction is a
# small part of a mail's cost. A daemon that finds another fetching handles what that one
# stores, looking every HELP_PAUSE seconds, until the fetcher is done (at most HELP_FOR).
CLAIM_CHUNK = 5
HELP_PAUSE = 0.05
HELP_FOR = 120.0


@dataclass
class Outcome:
    message: int  # stored message id
    # processed | quarantined | failed | new (failed, will be tried again) | elsewhere (another daemon's)
    # | held (read later: the sender or the seat is throttled, see _hold)
    status: str
    summary: str  # one line for the console (never contains secrets)


def poll(svc: Service, on_handled: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """One poll: first what an earlier run stored but did not finish (a crash between storing
    and handling), then the mailbox - each message stored, handled and only then filed away.

    Exactly once, across crashes: a message is stored once (store_incoming knows it by its
    UIDVALIDITY and UID, or by its bytes), handled in one transaction with its receipt (status
    "new" until that commits), and filed away (moved out of the folder) only after that. A
    crash at any point leaves it either in the folder (fetched again, found stored, not handled
    again) or stored as "new" (handled at the next poll). `on_handled` is called after each
    message is committed, so its receipt can go out before the rest of a large poll is handled.

    Group commit: a fetched batch is stored in one transaction and handled in a second one,
    each mail in its own SAVEPOINT (a mail that fails rolls back alone and is tried again),
    so a burst costs two disk syncs per batch instead of three per mail. The batch's mails
    are counted as attempted in the first; if the process dies in the second, they are
    left "new" with that attempt counted and the next poll takes them one at a time
    (handle_stored, an attempt committed before each), so a mail that kills the process
    is set aside after MAX_ATTEMPTS without taking its batch with it."""
    outcomes: list[Outcome] = []

    def done(outcome: Outcome) -> None:
        outcomes.append(outcome)
        if outcome.status == "quarantined":
            svc.say(f"quarantined message {outcome.message}: {outcome.summary}")
        if on_handled is not None:
            on_handled(outcome)

    for outcome in _release_held(svc):  # held mail whose window has passed, or whose deadline has come
        done(outcome)
    if svc.store.shared:
        _poll_shared(svc, done)
        return outcomes
    for row in svc.store.messages(direction="in", status="new"):
        assert row.id is not None
        outcome = handle_stored(svc, row.id)
        if outcome.status != ELSEWHERE:
            done(outcome)
    ahead = _read_ahead(svc)

    def read_ahead(batch: list[FetchedMessage]) -> None:
        # The workers read the batch's mails (extract, parse, check) while this thread stores
        # and handles them, and the batch before (Mailbox.batches fetches one ahead); the
        # database stays this thread's (service/read_ahead.py).
        ahead.start([item.raw for item in batch if len(item.raw) <= READ_AHEAD_LARGEST], lambda: _positions(svc))

    with Mailbox(svc.require_mail()) as box, Filer(box.config, box) as filer, ahead.forgetting():
        for batch in box.batches(FETCH_BATCH, read_ahead):
            try:
                with svc.store.transaction():  # each new one with its first attempt counted (and leased to us)
                    stored = svc.store.store_incoming_batch(
                        [Incoming(item.raw, item.uid, item.uidvalidity, item.arrived, item.size) for item in batch],
                        svc.clock(), CLAIM_LEASE)
                for _ in batch:
                    crash_point("intake.stored")
                fresh = [row_id for row_id, new in stored if new]
                while fresh:
                    handled, fresh = handle_group(svc, fresh)
                    for outcome in handled:
                        if outcome.status != ELSEWHERE:
                            done(outcome)
                        crash_point("intake.handled")
            finally:
                ahead.forget([item.raw for item in batch])  # the readings not taken (mails stored before)
            statuses = svc.store.message_statuses([row_id for row_id, _ in stored])
            # Only after the batch is safe in the database (and handled) are the mailbox copies
            # filed away, in two commands rather than three per message: robots' mail into the
            # quarantine folder, everything else as processed (on the Filer's connection, while
            # this thread handles the next batch).
            filer.file([item for item, (row_id, _) in zip(batch, stored, strict=True)
                        if statuses.get(row_id) == "quarantined"],
                       [item for item, (row_id, _) in zip(batch, stored, strict=True)
                        if statuses.get(row_id) != "quarantined"], lambda: crash_point("intake.filed"))
    return outcomes


def _read_ahead(svc: Service) -> ReadAhead:
    """The service's worker processes reading mail ahead (none started until a batch needs them)."""
    if svc.read_ahead is None:
        workers = svc.require_mail().intake_workers
        svc.read_ahead = read_ahead.shared(default_workers() if workers is None else workers)
    return svc.read_ahead


def _positions(svc: Service) -> list[read_ahead.Position]:
    """The checking position of every open game with its Basis, for the workers to check the
    batch's orders on (take_orders takes a check only if its Basis is still the same), and
    the seats whose orders are in (the workers write the receipt saying they are replaced)."""
    found: list[read_ahead.Position] = []
    for game in svc.store.games():
        if game.status == "open":
            try:
                found.append((read_ahead.basis(svc, game), functools.partial(svc.checking_position, game),
                              frozenset(svc.store.current_submissions(game.id, game.turn))))
            except Exception:  # noqa: BLE001 - no snapshot, a ruling that fails: its mails meet it in the thread
                continue
    return found


def _poll_shared(svc: Service, done: Callable[[Outcome], None]) -> None:
    """poll() with other daemons on the same database (PostgreSQL). Exactly once holds as on
    SQLite (stored once, handled in one transaction with its receipt, filed away after), and
    the work is shared out: one daemon at a time fetches and stores (Store.mailbox_turn), the
    stored mail left unclaimed; every daemon, the fetcher too, takes a few stored messages at
    a time (Store.claim_incoming_chunk) just before handling them, so whoever is free takes
    the next ones. A daemon that finds another fetching handles what it stores until it is
    done, then looks at the mailbox itself (mail may have come since)."""
    passed: set[int] = set()  # tried in this poll and still "new" (they failed): next poll

    def drain(chunks: int | None = None) -> None:
        """Handle the stored messages free to take, a chunk at a time, until none is left
        (or after `chunks` chunks)."""
        while chunks is None or chunks > 0:
            chunk = svc.store.claim_incoming_chunk(svc.clock(), CLAIM_LEASE, CLAIM_CHUNK, frozenset(passed))
            if not chunk:
                return
            for outcome in _handle_chunk(svc, chunk):
                if outcome.status == "new":
                    passed.add(outcome.message)
                if outcome.status != ELSEWHERE:
                    done(outcome)
                crash_point("intake.handled")
            chunks = None if chunks is None else chunks - 1

    helping_until = time.monotonic() + HELP_FOR
    while True:
        drain(None)
        with svc.store.mailbox_turn() as mine:
            if mine:
                _fetch_shared(svc, drain)
                return
        if time.monotonic() >= helping_until:
            return
        time.sleep(HELP_PAUSE)  # another daemon is fetching: handle what it stores


def _handle_chunk(svc: Service, rows: list[MailMessage]) -> list[Outcome]:
    """Handle messages claimed by claim_incoming_chunk (their attempt counted), each in a
    transaction of its own (handle_group of one), or set aside if they were tried too often
    already."""
    outcomes: list[Outcome] = []
    fresh: dict[int, MailMessage] = {}
    for row in rows:
        assert row.id is not None
        if row.attempts > MAX_ATTEMPTS:  # as in handle_stored: every attempt died with its process
            outcomes.append(_shunt(svc, row.id, row.attempts - 1, "the daemon stopped while handling it",
                                   f"{row.attempts - 1} attempts were interrupted (the process died)"))
        else:
            fresh[row.id] = row
    for message_id in fresh:
        # One transaction a mail: two of a seat's mails handled by two daemons at once wait for
        # each other (Store.submit's lock), and with several seats' mails in one transaction
        # two daemons could each wait for the other (a deadlock, one group rolled back).
        outcomes.extend(handle_group(svc, [message_id], fresh)[0])
    return outcomes


def _fetch_shared(svc: Service, drain: Callable[[int | None], None]) -> None:
    """The fetching daemon's part of _poll_shared: each fetched batch stored (unclaimed) in
    one transaction; between batches the fetcher handles one chunk, so the first receipts
    leave at once while storing keeps ahead of the handling (the other daemons always find
    stored mail to take); once the mailbox is empty it handles what is left with them. The
    mailbox copies are filed away once their messages are handled; one that another daemon
    is still handling when the poll ends stays (the next poll fetches it again, finds it
    stored, and files it), so each is filed in the folder its outcome calls for."""
    with Mailbox(svc.require_mail()) as box:
        seen: set[int] = set()
        # stored message id -> where its copy is in the mailbox (the bytes are not kept: memory
        # stays bounded however far storing runs ahead)
        waiting: dict[int, FetchedMessage] = {}
        while batch := box.fetch_unseen(limit=FETCH_BATCH, skip=frozenset(seen)):
            seen.update(item.uid for item in batch)
            with svc.store.transaction():
                stored = svc.store.store_incoming_batch(
                    [Incoming(item.raw, item.uid, item.uidvalidity, item.arrived, item.size) for item in batch],
                    svc.clock(), CLAIM_LEASE, claim=False)
            for _ in batch:
                crash_point("intake.stored")
            waiting.update((row_id, dataclasses.replace(item, raw=b""))
                           for item, (row_id, _) in zip(batch, stored, strict=True))
            del batch
            drain(1)
            _file_settled(svc, box, waiting)
            crash_point("intake.filed")
        drain(None)
        _file_settled(svc, box, waiting)


def _file_settled(svc: Service, box: Mailbox, waiting: dict[int, FetchedMessage]) -> None:
    """File away the mailbox copies of the messages in `waiting` that are no longer "new"
    (robots' mail into the quarantine folder, the rest as processed); keep the others."""
    statuses = svc.store.message_statuses(list(waiting))
    settled = {row_id: item for row_id, item in waiting.items() if statuses.get(row_id, "new") != "new"}
    box.quarantine([item for row_id, item in settled.items() if statuses[row_id] == "quarantined"])
    box.acknowledge([item for row_id, item in settled.items() if statuses[row_id] != "quarantined"])
    for row_id in settled:
        del waiting[row_id]


def handle_group(svc: Service, message_ids: list[int],
                 claimed: dict[int, MailMessage] | None = None) -> tuple[list[Outcome], list[int]]:
    """Handle freshly stored messages (their first attempt counted) in one transaction, each
    in its own savepoint: what handle_stored does for one, with one commit for the group.
    The group ends after GROUP_SECONDS (at least one mail), so the first receipts of a burst
    are committed, and can be sent, within that time. Returns the outcomes and the ids not
    reached. Never raises: a mail that fails is rolled back alone and left "new" for the next
    poll; a commit that fails (a full disk) leaves the whole group "new". `claimed`: the
    rows as the claim read them (not read again)."""
    outcomes: list[Outcome] = []
    started = time.monotonic()
    try:
        with svc.store.transaction():
            # One query on SQLite (kept: the session holds them weakly); on a shared database each
            # row is read when its turn comes, after the lease check another daemon may race.
            rows = claimed or ({} if svc.store.shared else svc.store.messages_by_id(message_ids))
            # Whether each mail is a copy of an earlier one (the same Message-ID): one read for
            # the group, not one a mail (SQLite; Store.read_first_in).
            svc.store.read_first_in([row.message_id for row in rows.values()])
            for message_id in message_ids:
                if outcomes and time.monotonic() - started >= GROUP_SECONDS:
                    break
                row = rows[message_id] if message_id in rows else svc.store.message(message_id)
                assert row is not None
                try:
                    with svc.store.savepoint():
                        if not svc.store.still_new(message_id):  # another daemon's lease ran out
                            outcomes.append(Outcome(message_id, ELSEWHERE, "handled by another daemon"))
                            continue
                        outcomes.append(_handle_in_place(svc, message_id, row.raw, row.arrived, row.size))
                except Exception as exc:  # noqa: BLE001 - one bad message must not stop the others
                    outcomes.append(_failed_attempt(svc, message_id, row.attempts, exc))
    except Exception as exc:  # noqa: BLE001 - the commit itself: nothing of the batch was kept
        why = f"{type(exc).__name__}: {exc}"
        svc.say(f"could not commit the handling of {len(message_ids)} messages ({why}); "
                "they are tried again at the next poll")
        group = message_ids[:max(1, len(outcomes))]
        return ([Outcome(m, "new", f"internal error ({type(exc).__name__}); tried again at the next poll")
                 for m in group], message_ids[len(group):])
    return outcomes, message_ids[len(outcomes):]


def _handle_in_place(svc: Service, message_id: int, raw: bytes, arrived: datetime | None, size: int) -> Outcome:
    """_handle inside the caller's transaction, and the seat passwords masked once handled.
    The changes to the mail's own row are written as one UPDATE at the end (Store.gathering)."""
    with svc.store.gathering(message_id):
        outcome = _handle(svc, message_id, raw, _utc(arrived) if arrived else None, size if size > len(raw) else 0)
        if outcome.status == "held":  # read later: what its password proves is noted before it is masked
            _seal(svc, message_id, raw)
        elif outcome.status != "new" and (masked := mask_raw(raw)) != raw:
            svc.store.update_message(message_id, raw=masked)  # seat passwords out
    return outcome


def _failed_attempt(svc: Service, message_id: int, attempt: int, exc: Exception) -> Outcome:
    """Record that attempt number `attempt` at a message raised: tried again at the next poll,
    or set aside for review after MAX_ATTEMPTS."""
    why = f"{type(exc).__name__}: {exc}"
    if attempt < MAX_ATTEMPTS:
        svc.store.update_message(message_id, note=f"attempt {attempt} failed: {why}", next_attempt=None)
        return Outcome(message_id, "new", f"internal error ({type(exc).__name__}) in attempt {attempt} of "
                       f"{MAX_ATTEMPTS}; tried again at the next poll")
    return _shunt(svc, message_id, attempt, type(exc).__name__, why)


def handle_stored(svc: Service, message_id: int) -> Outcome:
    """Handle one stored message in one transaction: its submission, its receipt and its new
    status are committed together or not at all. Never raises: a failure is recorded on the
    message, which is tried again at the next poll and set aside for review (status "failed",
    `moderator mail redrive` runs it again) after MAX_ATTEMPTS. The attempt is counted
    before it starts, so a message that kills the process (memory, a parser stuck on hostile
    MIME) is set aside too instead of crashing every restarted daemon."""
    row = svc.store.claim_incoming(message_id, svc.clock(), CLAIM_LEASE)
    if row is None:  # handled meanwhile, or being handled by another daemon on this database
        return Outcome(message_id, ELSEWHERE, "taken by another daemon")
    attempt = row.attempts
    if attempt > MAX_ATTEMPTS:
        return _shunt(svc, message_id, attempt - 1, "the daemon stopped while handling it",
                      f"{attempt - 1} attempts were interrupted (the process died)")
    try:
        with svc.store.transaction():
            if not svc.store.still_new(message_id):  # another daemon's lease ran out and it took it
                return Outcome(message_id, ELSEWHERE, "handled by another daemon")
            return _handle_in_place(svc, message_id, row.raw, row.arrived, row.size)
    except Exception as exc:  # one bad message must not stop the daemon
        return _failed_attempt(svc, message_id, attempt, exc)


def _shunt(svc: Service, message_id: int, attempts: int, what: str, detail: str) -> Outcome:
    with svc.store.transaction():
        svc.store.update_message(message_id, status="failed", note=detail)
        _seal(svc, message_id)
        svc.store.add_review(game_id=None, turn=None, nation=None, kind="quarantine",
                             summary=f"message {message_id} could not be handled in {attempts} attempts: {what}; "
                                     f"`moderator mail redrive --message {message_id}` runs it again",
                             detail=detail)
    return Outcome(message_id, "failed", f"internal error ({what}); kept for review")


SEALED = "sealed|"  # a setting per mail set aside: the seats whose password it carried (_seal)


def _seal(svc: Service, message_id: int, raw: bytes | None = None) -> None:
    """A mail set aside unhandled, or held unread (_hold), keeps no seat password in clear
    (issue 11): before its copy is masked, the seats whose password it carries, from an
    address registered for the seat, are noted (a setting), and when it is read (`mail
    redrive`, or the held mail's turn to be read) its masked PASSWORD line is taken as the
    right one for exactly those seats (_refuse_stranger), so who is let in does not change.
    The SHA-256 of the bytes as they arrived stays on the row for audit. `raw`: the mail's, when
    the caller has it (the row's otherwise).

    Cost: a held mail with a wrong password pays its key derivation (PBKDF2) when it is held,
    where it paid it when it was read - most held mail is read in the end, THROTTLE_AFTER a
    window (docs/mail-service.md, "Throttling without losing orders")."""
    sender = ""
    if raw is None:
        row = svc.store.message(message_id)
        if row is None:
            return
        raw, sender = row.raw, row.sender
    if (masked := mask_raw(raw)) == raw:
        return
    secrets = secrets_in(raw)
    sender = sender or _from_address(raw)
    sealed = sorted(f"{seat.game_id}/{seat.nation}" for game in svc.store.games() if game.status != "finished"
                    for seat in svc.store.seats(game.id) if sender and seat.may_send_from(sender)
                    and any(verify_secret(secret, seat.secret_hash) for secret in secrets))
    svc.store.set_setting(f"{SEALED}{message_id}", json.dumps(sealed))
    svc.store.update_message(message_id, raw=masked)


def _sealed(svc: Service, message_id: int, game_id: str, nation: str) -> bool:
    """Whether the mail set aside carried `nation`'s password in `game_id` when it was masked."""
    noted = svc.store.setting(f"{SEALED}{message_id}")
    return noted is not None and f"{game_id}/{nation}" in json.loads(noted)


def _from_address(raw: bytes) -> str:
    """The single From address of a raw message, lower-cased ("" if none or several)."""
    try:
        found = getaddresses([str(BytesHeaderParser(policy=policy.default).parsebytes(raw).get("From", ""))])
    except Exception:  # noqa: BLE001 - a broken header: no address
        return ""
    return found[0][1].lower() if len(found) == 1 and "@" in found[0][1] else ""


def redrive(svc: Service, message_ids: list[int] | None = None) -> tuple[list[Outcome], bool]:
    """Handle again the received messages set aside after failing (or the ones named), with
    a fresh count of attempts: for after the moderator fixed what made them fail. Returns
    the outcomes and whether a daemon running on this database was left to handle them: on
    SQLite one holds the daemon lock, and this process handling them beside its poll (which
    takes every "new" row) could handle one twice, so they are only set back to "new" with
    their attempts at zero, and the daemon takes them at its next poll."""
    rows = [m for m in svc.store.messages(direction="in")
            if (m.id in message_ids if message_ids else m.status in ("failed", "new"))]
    ours = svc.store.daemon_locked  # called by the daemon itself: its lock stays
    try:
        svc.store.lock_for_daemon()
        handed = False
    except AlreadyRunning:
        handed = True
    try:
        outcomes = []
        for row in rows:
            assert row.id is not None
            svc.store.update_message(row.id, status="new", attempts=0, next_attempt=None)
            outcomes.append(Outcome(row.id, "new", "set back to new: the running daemon handles it at its next poll")
                            if handed else handle_stored(svc, row.id))
        return outcomes, handed
    finally:
        if not (ours or handed):
            svc.store.unlock()


def _handle(svc: Service, message_id: int, raw: bytes, arrived: datetime | None = None,
            oversize: int = 0) -> Outcome:
    """`oversize`: the message's size when it was over the cap and `raw` is only its head."""
    # Read ahead by a worker if poll() gave it one (the same reading as here: read_ahead.read)
    reading = svc.read_ahead.take(raw) if svc.read_ahead is not None else None
    mail = reading.mail if reading is not None else extract(raw)
    if oversize:
        cap = svc.require_mail().max_message_bytes
        mail = dataclasses.replace(mail, refused=f"it is {_megabytes(oversize)}, more than the {_megabytes(cap)} "
                                                  "the moderator accepts (attachments make mail big)")
    svc.store.update_message(message_id, sender=mail.sender, subject=mail.subject,
                             message_id=mail.message_id or "")
    if mail.auto_submitted or not mail.sender:
        why = ("sent by a robot (auto-submitted, bounce or list)" if mail.sender
               else "; ".join(p for p in mail.problems if "From" in p) or "no sender address")
        return _quarantine(svc, message_id, mail, why)
    earlier = svc.store.earlier_with_message_id(mail.message_id or "", message_id)
    if earlier is not None:
        # The same message again with other bytes (a replayed or forged copy, or one a server
        # or a migration rewrote): the first stored counts, whichever is handled first (the
        # store keeps each Message-ID when it stores the mail), and a copy never replaces a
        # seat's orders. The sender is told, so a player who reused a Message-ID knows to
        # send a new mail, and a seat whose old mail was replayed hears of it.
        outcome = _reply(svc, message_id, mail, None, "This mail is a copy of one already received.",
                         f"It carries the same Message-ID {mail.message_id} as a mail received before "
                         f"(a copy of message {earlier}); only the first mail with a Message-ID is read, "
                         "so nothing in this one was taken.",
                         "To give new orders, write a new mail (not a resent or edited copy of an old one).")
        svc.store.update_message(message_id, note=f"a copy of message {earlier} (same Message-ID): refused, "
                                                  "the sender told")
        return dataclasses.replace(outcome, summary=f"a copy of message {earlier} (same Message-ID): refused, "
                                                    f"{mail.sender} told")
    if asks_for_help(mail):
        text, html = reference()
        _queue_reply(svc, mail, None, [mail.sender], "The orders reference (HELP)", text, html)
        svc.store.update_message(message_id, status="processed", note="replied: the orders reference (HELP)")
        return Outcome(message_id, "processed", f"sent the orders reference to {mail.sender} (HELP)")
    if mail.refused:
        return _reply(svc, message_id, mail, None, "Your mail was not read.", f"{mail.refused[0].upper()}"
                      f"{mail.refused[1:]}.", "Send your orders as plain text in the body of a mail.")
    from moderator.service import review_mail  # the moderator answering the review queue (issue 12)

    if review_mail.is_command_mail(svc, mail):
        return review_mail.handle(svc, message_id, mail)  # type: ignore[no-any-return]
    from moderator.service import pool  # a player signing up for the replacement pool (issue 12)

    if pool.is_signup(mail):
        return pool.handle(svc, message_id, mail)  # type: ignore[no-any-return]
    from moderator.service import proxy  # an ally's proxy orders for a seat (issue 12)

    if reading is not None:
        check_only, text, proxy_for, parsed = reading.check_only, reading.text, reading.proxy_for, reading.parsed
    else:
        check_only, text, proxy_for = orders_text(mail)
        parsed = without_chatter(text, parse_orders(text))  # (read_ahead.orders_read, as a worker reads it)
    header = parsed.header
    game = _game_for(svc, getattr(header, "game", None))
    if game is None and not getattr(header, "game", None):  # many games: by address or subject tag
        from moderator.service.routing import game_for_mail

        game = game_for_mail(svc, raw, mail.subject)
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
    if svc.store.shared:
        # Another daemon may be about to resolve this turn: the game's row is held (FOR SHARE)
        # until this mail commits, so its resolution takes the turn either before (this mail
        # is told the turn is being resolved) or after these orders are in (and reads them),
        # never between reading the game here and committing the orders.
        game = svc.store.hold_game(game.id) or game
    scenario = svc.scenario(game)
    nation = nation_id(scenario, getattr(header, "nation", None) or "")
    if nation is None:
        return _reply(svc, message_id, mail, game, "Your orders do not name a nation I know.",
                      f"The NATION line said {getattr(header, 'nation', None)!r}.",
                      "Write your nation's name on the NATION line, e.g. NATION Germany.")
    seat = svc.store.seat(game.id, nation)
    if proxy.from_the_desk(svc, mail, getattr(header, "secret", None) or "",  # the moderator's orders for a seat
                           record=seat is None or not seat.may_send_from(mail.sender)):
        return proxy.enter_by_mail(svc, message_id, mail, game, nation, text, check_only)  # type: ignore[no-any-return]
    refused = _refuse_stranger(svc, message_id, mail, game, nation, getattr(header, "secret", None) or "")
    if refused is not None:
        return refused
    assert seat is not None
    turn = getattr(header, "turn", None)
    if game.status == "finished":
        return _reply(svc, message_id, mail, game, f"Game {game.id} is over.",
                      "The moderator finished it: its last reports, with the victory table, are the result.",
                      "Write to the moderator if you think it should go on.")
    if game.status != "open":
        return _reply(svc, message_id, mail, game, f"Turn {game.turn} of {game.id} is being resolved right now.",
                      "Orders cannot be accepted until the new turn's reports are out.",
                      "Wait for your report, then send orders for the new turn.")
    # Late is judged by when the mail reached the server, not when the daemon got to it (it
    # may have been down, or busy with a burst): orders in before the deadline count.
    if game.deadline is not None and min(arrived or svc.clock(), svc.clock()) > _utc(game.deadline):
        return _reply(svc, message_id, mail, game, f"The deadline for turn {game.turn} of {game.id} has passed "
                      f"({describe_deadline(game.deadline)}), so these orders were not accepted.",
                      "The turn is about to be resolved with the orders received in time.",
                      f"Wait for your report, then send orders for turn {game.turn + 1}.")
    if turn is not None and int(turn) != game.turn:
        return _reply(svc, message_id, mail, game, f"These orders are for turn {turn}, but game {game.id} is at "
                      f"turn {game.turn}.", "Only orders for the current turn are accepted.",
                      f"Change the TURN line to TURN {game.turn}.")
    written = written_at(mail.date, arrived or svc.clock())
    if turn is None and (refusal := _for_an_earlier_turn(svc, message_id, mail, game, written, arrived)):
        return refusal
    if proxy_for is not None:
        return proxy.accept(svc, message_id, mail, game, nation, proxy_for, text, check_only)  # type: ignore[no-any-return]
    if (by_host := proxy.host_commands(svc, game, nation)) is not None:  # a government in exile's host ordered
        return _reply(svc, message_id, mail, game, *by_host)
    # Only a mail whose Date was not taken (its arrival stands in for it) reads its Date again.
    dated = date_ignored(mail.date, written) if written == (arrived or svc.clock()) else ""
    return _accept(svc, message_id, mail, game, nation, parsed, check_only, seat.email, text,
                   written, reading.prepared if reading is not None else None, dated)


def _for_an_earlier_turn(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, written: datetime,
                         arrived: datetime | None) -> Outcome | None:
    """The refusal of orders without a TURN line written before the current turn began (when
    the turn before it was resolved), or None. Such a mail was meant for that earlier turn - a
    late mail, or one read only after `moderator resolve` - and taken for the current turn it
    would put orders given for another position in place (issue 11: "a submission for an old
    turn is refused"). When it was written is judged as for the mail written last (written_at:
    its Date header within sane bounds of its arrival, else its arrival); the player who means
    it for the current turn says so with a TURN line. A mail written within the second the
    turn began counts for it (the server's arrival times are whole seconds)."""
    if (began := svc.store.turn_resolved(game.id, game.turn - 1)) is None:  # the first turn (1, or 0: deployment)
        return None
    began = began.replace(microsecond=0)
    if written >= began:
        return None
    old, reached = game.turn - 1, arrived or svc.clock()
    when = "by its Date header" if _stated(mail.date) == written else "when it reached the server"
    came = (f"It reached the moderator at {reached.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC, when turn {old} had "
            "been resolved already." if reached >= began else
            f"It reached the server before turn {old} was resolved, but was not read in time to count for it.")
    return _reply(svc, message_id, mail, game,
                  f"These orders were written for turn {old} of {game.id}, which has been resolved; they were not "
                  f"taken for turn {game.turn}.",
                  f"Your mail has no TURN line and was written at {written.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC "
                  f"({when}), before "
                  f"turn {game.turn} began at {began.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC. {came}",
                  f"Send your orders for turn {game.turn}. If this mail's orders are meant for turn {game.turn}, "
                  f"send them again with the line TURN {game.turn}.")


# How far a mail's Date header may lie from its arrival and still say when it was written:
# a phone's clock running fast, a mail held in the sender's outbox or queued on the way.
# Outside these bounds (a forged or broken Date) the arrival time stands in for it.
DATE_AHEAD = timedelta(minutes=15)
DATE_BEHIND = timedelta(days=2)


def written_at(date_header: str | None, arrived: datetime) -> datetime:
    """When the player wrote a mail: its Date header (RFC 5322 3.6.1, "the date and time at
    which the creator of the message indicated that [it] was complete and ready to enter the
    mail delivery system") if that lies within sane bounds of its arrival, else the arrival.
    Servers deliver a burst out of order; the orders written last are the ones meant."""
    stated = _stated(date_header)
    return stated if stated is not None and arrived - DATE_BEHIND <= stated <= arrived + DATE_AHEAD else arrived


def date_ignored(date_header: str | None, arrived: datetime) -> str:
    """The receipt's line saying that a mail's Date header was not taken as when it was
    written (written_at took its arrival instead), or "" if it was taken or there was none:
    the player whose clock is wrong learns why a mail written earlier may stand over this one."""
    if not date_header or not date_header.strip():
        return ""
    stated = _stated(date_header)
    at = f"{arrived.astimezone(UTC):%Y-%m-%d %H:%M:%S} UTC"
    if stated is None:
        why = f"could not be read, so it counts as written when it arrived ({at})."
    elif stated > arrived + DATE_AHEAD:
        why = (f"is more than {int(DATE_AHEAD.total_seconds() // 60)} minutes after its arrival at {at}, so it "
               "counts as written when it arrived (is your clock right?).")
    elif stated < arrived - DATE_BEHIND:
        why = (f"is more than {DATE_BEHIND.days} days before its arrival at {at}, so it counts as written when it "
               "arrived (is your clock right?).")
    else:
        return ""
    shown = " ".join(date_header.split())[:80].strip()  # one line, never a header's folded or hostile length
    return f"Your mail's Date ({shown}) {why}"


def _stated(date_header: str | None) -> datetime | None:
    """A Date header as an aware datetime, or None if it cannot be read."""
    from email.utils import parsedate_to_datetime

    try:
        stated = parsedate_to_datetime(date_header or "")
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if stated.tzinfo is None:  # "-0000": the zone is unknown (RFC 5322 3.3); read it as UTC
        stated = stated.replace(tzinfo=UTC)
    return stated


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def _refuse_stranger(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str,
                     secret: str) -> Outcome | None:
    """None if `mail` may give `nation`'s orders: the right password, from one of the seat's
    addresses. Otherwise the refusal (a reply, or silence for a throttled sender) with the
    attempt recorded and the seat told - or, while the seat or the sender is throttled, the
    mail held unread (_hold): a guesser forging the seat's own address must not lock the
    player out, and must not get more guesses either.

    Mail from an address not registered for the seat can never give its orders, so its
    password is not even looked at and it gets the answer a wrong password gets: a stranger
    learns nothing of the password, so rotating From addresses gives no guesses at all. Only
    mail from a registered address is a guess, and those are throttled per sender and per
    seat (THROTTLE_AFTER within THROTTLE_WINDOW, whoever sent them)."""
    now = svc.clock()
    name = svc.scenario(game).nations[nation].name
    recent = svc.store.refused_attempts(mail.sender, now - THROTTLE_WINDOW, THROTTLE_AFTER)
    seat = svc.store.seat(game.id, nation)
    if seat is None or not seat.may_send_from(mail.sender):
        return _refuse(svc, message_id, mail, game, nation, name, seat is not None, "address", recent)
    at_seat = svc.store.refused_at_seat(game.id, nation, "secret", now - THROTTLE_WINDOW, THROTTLE_AFTER)
    if max(recent, at_seat) >= THROTTLE_AFTER:
        judging = _AT_DEADLINE.get()
        key = (mail.sender, game.id, nation)
        if judging is None:
            return _hold(svc, message_id, mail, game, nation, name, max(recent, at_seat))
        if key in judging:  # the sender's held mail written later was read at this deadline
            return _not_read(svc, message_id, mail, game, nation, judging[key])
        judging[key] = "refused"  # until the password says otherwise, just below
    if secret and (verify_secret(secret, seat.secret_hash)
                   or secret == MASK and _sealed(svc, message_id, game.id, nation)):  # set aside, then redriven
        if (judging := _AT_DEADLINE.get()) is not None and (mail.sender, game.id, nation) in judging:
            judging[(mail.sender, game.id, nation)] = "accepted"
        return None
    return _refuse(svc, message_id, mail, game, nation, name, True, "secret", recent)


def _refuse(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str, name: str,
            seat_exists: bool, reason: str, recent: int) -> Outcome:
    """Refuse `mail`'s orders for the seat: one answer whatever was wrong (the password, or the
    address, or no such seat), so the answer never says whether the password was right; the
    seat's own address is told (reason and all: that address is the player's)."""
    now = svc.clock()
    if reason == "secret":  # a guess (mail from a registered address): always counted
        svc.store.add_auth_failure(mail.sender, game.id, nation, reason, now)
    # A flood from one sender: not answered (nor recorded, if no guess). The one held mail of a
    # sender read at the deadline is answered: it came from a registered address, so the answer
    # goes to the player, never to a guesser who forged it.
    if recent >= THROTTLE_AFTER and _AT_DEADLINE.get() is None:
        svc.store.update_message(message_id, status="processed", game_id=game.id,
                                 note=f"throttled: {recent} refused attempts from {mail.sender}")
        return Outcome(message_id, "processed", f"ignored: {mail.sender} is throttled after {recent} "
                       "refused attempts")
    if reason != "secret":
        svc.store.add_auth_failure(mail.sender, game.id, nation, reason, now)
    if seat_exists and not svc.store.auth_failures(since=now - SEAT_NOTICE_EVERY, game_id=game.id,
                                                   nation=nation)[:-1]:
        seat = svc.store.seat(game.id, nation)
        assert seat is not None
        _tell_seat(svc, game, seat.email, name, mail.sender, reason)
    headline = (f"Nothing was submitted for {name} in game {game.id}: the password is missing or wrong, or "
                "this address is not registered for the seat.",
                "Orders are taken only with the seat's password on a PASSWORD line, from an address the "
                "moderator registered for the seat.",
                "Check the PASSWORD line (the one the moderator gave you) and send again from your registered "
                "address, or ask the moderator to add this one.")
    if recent + 1 == THROTTLE_AFTER:
        return _reply(svc, message_id, mail, game, headline[0], headline[1],
                      f"{headline[2]} After {THROTTLE_AFTER} refused attempts, mail from {mail.sender} is "
                      f"not answered for {int(THROTTLE_WINDOW.total_seconds() // 60)} minutes.")
    return _reply(svc, message_id, mail, game, *headline)


# Held mail (_hold) is marked with the turn it came in for, so a mail still held when its turn
# has been resolved (by `moderator resolve`, which does not read the mailbox first) is closed
# unread rather than taken as orders for the next turn.
HELD_NOTE = re.compile(r"^held for turn (\d+)")
# While the held mail of a game whose deadline has come is read (_read_held), for each
# (sender, game, nation) whose mail is still throttled: "refused" or "accepted", the fate of
# its one mail read (the one written last); its other held mails are not read.
_AT_DEADLINE: ContextVar[dict[tuple[str, str, str], str] | None] = ContextVar("at_deadline", default=None)


def _hold(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str, name: str,
          refused: int) -> Outcome:
    """Keep a throttled mail from a registered address unread, neither refused nor answered: it
    may be the player's own orders (a guesser forging the seat's address must not lock the
    player out), and reading its password now would give the guesser one more guess. It is read
    once the throttle's window has passed (poll(): _release_held) and, before the deadline
    resolves, the held mail of each sender written last is read whatever the throttle says - the
    one that would count, as the last written replaces the others - so a guesser gains at most
    one guess a deadline. Its lateness is by its arrival, so holding it costs nothing. The
    seat's registered address is told (at most once per SEAT_NOTICE_EVERY)."""
    until = svc.clock() + THROTTLE_WINDOW  # every refusal counted now has left the window by then
    svc.store.update_message(message_id, status="held", game_id=game.id, next_attempt=until,
                             note=f"held for turn {game.turn}: {refused} refused attempts at {nation} or from "
                                  f"{mail.sender} within {int(THROTTLE_WINDOW.total_seconds() // 60)} minutes; "
                                  f"read after {until:%H:%M} UTC or before the deadline")
    seat = svc.store.seat(game.id, nation)
    key = f"held-notice:{game.id}:{nation}"
    last = svc.store.setting(key)
    if seat is not None and (last is None or datetime.fromisoformat(last) <= svc.clock() - SEAT_NOTICE_EVERY):
        svc.store.set_setting(key, svc.clock().isoformat())
        cfg = svc.require_mail()
        queue(svc, compose(
            sender=cfg.from_address, to=[seat.email], subject=f"{game.title}: orders for {name} held unread",
            text=f"Mail from {mail.sender} with orders for {name} in game {game.id} arrived after {refused} refused "
                 f"attempts at your seat's orders within {int(THROTTLE_WINDOW.total_seconds() // 60)} minutes "
                 "(someone may be guessing its password). To stop the guessing, such mail is held unread: it "
                 f"is read after {until:%H:%M} UTC and, at the latest, just before the deadline - it counts as "
                 "arrived when it arrived, so it is not late. If it is yours, you need not send it again.\n\n"
                 "Of each sender's held mails the one written last is read at the deadline. If you did not "
                 f"send this mail, tell the moderator ({cfg.moderator_address}).\n(Further held mail within "
                 f"{int(SEAT_NOTICE_EVERY.total_seconds() // 3600)} hour is not reported again.)\n",
            date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED), game.id)
    return Outcome(message_id, "held", f"held unread until {until:%H:%M} UTC (or the deadline): {refused} refused "
                   f"attempts at {nation} or from {mail.sender}")


def _not_read(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str,
              later: str) -> Outcome:
    """A held mail not read at the deadline: the same sender's mail written after it was read
    (one guess a deadline). Closed unread; if that later mail was refused, the seat hears of it
    (its own orders may have been among these)."""
    note = (f"held, not read: a mail from {mail.sender} written later was read at the deadline of turn "
            f"{game.turn} ({later})")
    svc.store.update_message(message_id, status="processed", game_id=game.id, note=note)
    judging = _AT_DEADLINE.get()
    if later == "refused" and judging is not None:
        judging[(mail.sender, game.id, nation)] = "refused; the seat told"  # once a sender, not once a mail
        seat = svc.store.seat(game.id, nation)
        if seat is not None:
            cfg = svc.require_mail()
            name = svc.scenario(game).nations[nation].name
            queue(svc, compose(
                sender=cfg.from_address, to=[seat.email], subject=f"{game.title}: held mail for {name} not read",
                text=f"A mail from {mail.sender} for {name} in game {game.id}, held during the guessing at your "
                     f"seat's password, was not read before the deadline of turn {game.turn}: only the one written "
                     "last of a sender's held mails is read then, and that one was refused. If this mail had your "
                     f"orders, they did not count: tell the moderator ({cfg.moderator_address}).\n",
                date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED), game.id)
    return Outcome(message_id, "processed", note)


def _release_held(svc: Service) -> list[Outcome]:
    """Held mail (_hold) whose time has come: that of a game whose deadline has passed is read
    now (_read_held, before poll() lets the deadline resolve the turn); the rest, once the
    throttle's window has passed, goes back to "new" and is handled with the other stored mail
    (the throttle asked again: a guesser still gets THROTTLE_AFTER guesses a window)."""
    held = svc.store.held()
    if not held:
        return []
    now = svc.clock()
    games = {g.id: g for g in svc.store.games()}
    outcomes: list[Outcome] = []
    due: list[Held] = []
    for row in held:
        game = games.get(row.game_id or "")
        match = HELD_NOTE.match(row.note)
        if game is None or game.status == "finished" or (match and int(match.group(1)) != game.turn):
            svc.store.update_message(row.id, status="processed",
                                     note=f"held, not read: its turn was resolved before the throttle ended ({row.note})")
            outcomes.append(Outcome(row.id, "processed", "held mail not read: its turn was resolved meanwhile"))
            if game is not None:
                _tell_unread(svc, game, row)
        elif game.status == "open" and game.deadline is not None and _utc(game.deadline) <= now:
            due.append(row)
        elif row.next_attempt is None or row.next_attempt <= now:
            svc.store.take_held(row.id)  # handled with the other stored mail next in poll()
    return outcomes + _read_held(svc, due)


def _tell_unread(svc: Service, game: Game, row: Held) -> None:
    """The game's seats the sender is registered for hear that its held mail was never read:
    its turn was resolved while it was held (`moderator resolve` by hand)."""
    kept = svc.store.message(row.id)
    sender = kept.sender if kept is not None else ""
    seats = [s for s in svc.store.seats(game.id) if s.may_send_from(sender)] if sender else []
    cfg = svc.require_mail()
    for seat in seats:
        queue(svc, compose(
            sender=cfg.from_address, to=[seat.email], subject=f"{game.title}: held mail not read",
            text=f"A mail from {sender} received {row.arrived:%Y-%m-%d %H:%M} UTC, held during the guessing at your "
                 "seat's password, was not read: its turn was resolved before it could be. If it had your orders, "
                 f"they did not count; tell the moderator ({cfg.moderator_address}).\n",
            date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED), game.id)


def _read_held(svc: Service, rows: list[Held]) -> list[Outcome]:
    """Read the held mail of games whose deadline has come, each sender's written last first:
    that one is read whatever the throttle says; the sender's older held mail for the seat is
    then closed unread (_refuse_stranger, _not_read). Each mail's bytes are read one at a time
    (memory stays bounded however many are held)."""
    if not rows:
        return []

    def written(row: Held) -> tuple[datetime, int]:  # of two written in one second, the later stored
        kept = svc.store.message(row.id)
        return written_at(extract(kept.raw).date if kept is not None else None, row.arrived), row.id

    outcomes = []
    for game_id in sorted({row.game_id or "" for row in rows}):
        # One daemon at a time reads a game's held mail (on a shared database; the resolution's
        # own lock, so the turn cannot be resolved meanwhile): each sender's one read holds.
        with svc.store.resolving(game_id) as mine:
            if not mine:
                continue
            token = _AT_DEADLINE.set({})
            try:
                for row in sorted((r for r in rows if r.game_id == game_id), key=written, reverse=True):
                    try:
                        # Taken and read in one transaction: no other daemon ever sees it "new".
                        with svc.store.transaction():
                            if svc.store.take_held(row.id) and (kept := svc.store.message(row.id)) is not None:
                                outcomes.append(_handle_in_place(svc, row.id, kept.raw, kept.arrived, kept.size))
                    except Exception as exc:  # noqa: BLE001 - it stays held; the others are read
                        svc.say(f"held message {row.id} could not be read at the deadline ({type(exc).__name__}: "
                                f"{exc}); it stays held")
            finally:
                _AT_DEADLINE.reset(token)
    return outcomes


def _tell_seat(svc: Service, game: Game, to: str, name: str, sender: str, reason: str) -> None:
    """The seat's own address hears of a refused attempt at its orders (as the Diplomacy
    judges do), so a player knows when someone else tries - or when their own mail failed."""
    what = "with a wrong or missing password" if reason == "secret" else "from an address not registered for your seat"
    cfg = svc.require_mail()
    msg = compose(sender=cfg.from_address, to=[to], subject=f"{game.title}: refused orders for {name}",
                  text=f"Mail from {sender} tried to give orders for {name} in game {game.id} {what}; nothing "
                       f"was submitted.\n\nIf that was you, send your orders again from your registered address "
                       f"with the seat's password. If not, tell the moderator ({cfg.moderator_address}).\n"
                       f"(Further refused attempts within {int(SEAT_NOTICE_EVERY.total_seconds() // 3600)} hour "
                       "are not reported again.)\n",
                  date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED)
    queue(svc, msg, game.id)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _accept(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str, parsed: Any,
            check_only: bool, seat_email: str, text: str, written: datetime,
            prepared: read_ahead.Prepared | None = None, dated: str = "") -> Outcome:
    receipt = take_orders(svc, game, nation, text, check_only=check_only, stored_text=mask_text(mail.text),
                          message=message_id, parsed=parsed, written=written, prepared=prepared, dated=dated)
    recipients = [mail.sender] + ([seat_email] if seat_email and seat_email != mail.sender else [])
    _queue_reply(svc, mail, game, recipients, receipt.subject, receipt.text, receipt.html, receipt.parts)
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
    parts: Alternative | None = None  # text and HTML encoded for the mail, if a worker did it


def take_orders(svc: Service, game: Game, nation: str, text: str, *, check_only: bool = False,
                stored_text: str | None = None, message: int | None = None, parsed: ParseResult | None = None,
                entered: bool = False, written: datetime | None = None, preface: str = "",
                prepared: read_ahead.Prepared | None = None, dated: str = "") -> Receipt:
    """Check one seat's orders on the position they meet, store them (replacing the seat's
    earlier orders for the turn) unless check_only, and write the receipt. A mail with
    orders comes here, and so do orders the moderator enters (`moderator enter`, entered=True).
    `written`: when the mail was written (written_at); orders the seat wrote later that are
    in already stand, and these are kept for the record only (the receipt says so).
    `prepared`: the check and receipt a read-ahead worker made of `parsed` (service/read_ahead.py),
    taken only if made for this nation on what this check would be made from (the same Basis).
    `dated`: a line for the receipt on the mail's Date header (date_ignored); the worker's
    receipt lacks it, so such a receipt is written here."""
    parsed = parsed if parsed is not None else parse_orders(text)
    scenario = svc.scenario(game)
    if prepared is not None and (entered or preface or not read_ahead.still_holds(svc, prepared, game, nation)):
        prepared = None  # a turn resolved, a ruling given, the deadline moved since the batch began: checked here
    if prepared is not None:
        seat = prepared.seat
    else:
        state = svc.checking_position(game)  # the snapshot with the moderator's "now" rulings, read only
        seat = check_seat(parsed, text, nation, state, svc.world(game), scenario, svc.ruleset(game), preface)
    replaced, later = False, None
    if not check_only:
        _, replaced, later = svc.store.submit(
            game.id, nation, game.turn, text=text if stored_text is None else stored_text,
            normalized=seat.normalized, diagnostics=list(seat.diagnostics), message=message, written=written)
        # Flags go to the receipt only: the resolution makes the review items (service/review.py),
        # so orders replaced before the deadline leave nothing pending.
    name = scenario.nations[nation].name
    parts = None
    if prepared is not None and later is None and prepared.replaced == replaced and not dated:  # written ahead
        body, html, parts = prepared.receipt.text, prepared.receipt.html, prepared.receipt.parts
    else:
        if prepared is not None and later is None and not dated and svc.read_ahead is not None:
            svc.read_ahead.receipts_redone += 1  # the worker's guess was wrong (counted for the bench)
        body, html = receipt_words(seat, game=game.id, nation_name=name, turn=game.turn,
                                   date=turn_label(scenario, game.turn), deadline=describe_deadline(game.deadline),
                                   check_only=check_only, replaced=replaced, entered=entered,
                                   later=_utc(later.written).strftime("%Y-%m-%d %H:%M:%S UTC")
                                   if later and later.written else "", dated=dated)
    kind = "CHECK" if check_only else "Receipt"
    kept, errors, warnings = seat.kept, len(seat.shown["error"]), len(seat.shown["warning"])
    return Receipt(kind, kept, errors, warnings, replaced,
                   f"{kind}: {name}, turn {game.turn} ({counted(kept, 'order')}, "
                   f"{counted(errors, 'error')})", body, html,
                   f"{kind.lower()} for {name}, turn {game.turn}: {counted(kept, 'order')}, "
                   f"{counted(errors, 'error')}, {counted(warnings, 'warning')}"
                   + (" (replaces earlier orders)" if replaced else "")
                   + (" (not put in place: orders written later stand)" if later else ""), parts)


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
    subject = mail.subject if len(mail.subject) <= 200 else mail.subject[:200] + "..."
    _queue_reply(svc, mail, game, [mail.sender], f"Not accepted: {subject or 'your message'}", text, html)
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
                 text: str, html: str, parts: Alternative | None = None) -> None:
    cfg = svc.require_mail()
    day_ago = svc.clock() - timedelta(days=1)
    if svc.store.replies_answering(mail.sender, day_ago, REPLIES_PER_DAY) >= REPLIES_PER_DAY:
        note = f"{mail.sender} got {REPLIES_PER_DAY} replies within a day"
        if not any(r.summary.startswith(note) and _utc(r.created) >= day_ago for r in svc.store.reviews(status=None)):
            svc.store.add_review(game_id=game.id if game else None, turn=None, nation=None, kind="note",
                                 summary=f"{note}; further mail from it is handled but not answered until the "
                                         "day has passed (a mail loop, or someone flooding the moderator?)")
        return
    reply = compose_raw(sender=cfg.from_address, to=to, subject=reply_subject(subject) if mail.subject else subject,
                        text=text, html=html, date=svc.clock(), domain=cfg.message_id_domain,
                        in_reply_to=mail.message_id, references=mail.references, auto_submitted=AUTO_REPLIED,
                        parts=parts)
    svc.store.queue_outgoing(reply.raw, game_id=game.id if game else None, recipients=reply.to, subject=reply.subject,
                             message_id=reply.message_id, kind="reply", answers=mail.sender)


def queue(svc: Service, msg: EmailMessage, game_id: str | None, kind: str = "") -> int:
    """Put a composed message in the outbox table; the send job delivers it. `kind`: "reply"
    for an answer to a received mail (those are capped per address a day; _queue_reply
    queues them with the address they answer)."""
    return svc.store.queue_outgoing(bytes(msg), game_id=game_id, recipients=str(msg["To"]),
                                    subject=str(msg["Subject"]), message_id=str(msg["Message-ID"]), kind=kind)
