"""The pure steps of an order mail's handling, done ahead in worker processes (issue 11,
intake throughput on several cores).

What handling a mail first does depends on its bytes alone: extract() (MIME, charsets, quotes
cut) and the parse of the orders in its text. Then its orders are checked on the game's
checking position (Service.checking_position) and the receipt's words and bytes are written
(service/receipts.py, mail/compose.py): pure too, given that position and what the game's
row says. For a fetched batch all this is handed to a process pool while the daemon's thread
stores the batch and handles its mails one by one; when the thread comes to a mail, its
reading is usually done. Everything that reads or writes the database (the seat, its
password, the replay check, the turn's status, lateness, the submission and whether it
replaces another, the outbox) stays in the daemon's thread and its transactions, so exactly
once holds as before: the workers hold no state that matters, and what they return is what
the thread would have computed itself (the same pure functions), so a turn's result never
depends on them.

The position goes to the workers once per (database, game, turn, snapshot, ruleset, "now"
rulings): pickled once by the thread into a private file (Offer), read by each worker the
first time a mail names it, the last few kept by their key. Each check says what it was made
from (Basis: that key, and what the receipt reads of the game's row); the thread takes it only
if its own Basis for the mail is the same and the mail names the same nation (a turn resolved
or a ruling given since the batch began: the thread checks the mail itself). The receipt is
written ahead for one answer to "does it replace earlier orders?", which only the thread
learns for sure (from the database, when it stores them): the likely one, from the seats
whose orders were in at the batch's start (Offer.replacing; a CHECK replaces nothing). When
the guess is wrong (a seat's second mail in one batch, orders refused since) or orders
written later stand (rare), the thread writes the receipt itself, with the same functions.

Degrades to doing the work in the thread: with no workers configured (`[mail.imap]
intake_workers = 0`; by default one less than the machine's cores), when the pool cannot
start, breaks or is stuck (a worker killed, or no reading after LONGEST_WAIT: the rest of
the batch is read in the thread and no pool is tried again by this process), when a worker
raises (the thread reads the mail again and meets the same error where it always did; a
check that raises in a worker only leaves the check to the thread), for a mail whose reading
has not begun when the thread needs it (it is taken back, not waited for), and for a check a
worker could not make (no position offered for the game the mail names, or its file gone). A
worker exits when the daemon that started it is gone (kill -9 included), so no orphans are
left behind, and removes the position files it knows of.
"""

from __future__ import annotations

import atexit
import logging
import multiprocessing
import os
import pickle
import re
import shutil
import sys
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from moderator.mail.compose import Alternative, alternative
from moderator.mail.extract import ExtractedMessage, extract
from moderator.orders.parser import ParseResult, line_shapes, parse_orders
from moderator.service.receipts import SeatCheck, check_seat, receipt_words

if TYPE_CHECKING:
    from moderator.engine.state import GameState
    from moderator.service.context import Service
    from moderator.store.tables import Game

log = logging.getLogger(__name__)

FEWEST = 4  # a batch of fewer fresh mails is read in the thread: not worth the pool's round trips
# The longest the thread waits for a reading begun by a worker; then the worker is taken to be
# stuck (stopped, swapped out for good): the thread reads the mail, and no pool is used again.
# Reading a mail takes milliseconds; hostile mail is read in bounded time (mail/extract.py).
LONGEST_WAIT = 60.0
_CHECK = re.compile(r"\bcheck\b", re.IGNORECASE)
_CHECK_LINE = re.compile(r"(?im)^\s*check\s*$")
POSITIONS_KEPT = 4  # checking positions a worker keeps (and files the thread keeps): a few games, a new turn
# How long a thread may hold the GIL while another waits for it, once the pool is used (Python's
# default: 5 ms). The executor's own threads in this process hand a worker its next mail and take
# back its reading; while the polling thread runs Python they wait for the GIL, and a worker that
# reads a mail in about a millisecond sat idle up to 5 ms for the next one (issue 11, round 13:
# 250 such waits in a 300-mail burst, about half of the worker's time).
FEED_SWITCH_SECONDS = 0.0005


@dataclass(frozen=True)
class Basis:
    """What a seat's check and its receipt are made from besides the mail: the checking
    position (Service.checking_key, in which database) and what the receipt reads of the
    game's row. The thread takes a worker's check only for the very same Basis."""

    database: str
    game: str
    scenario: str
    turn: int
    ruleset: str
    ruleset_version: int
    deadline: str  # as the receipt writes it (games.describe_deadline)
    position: tuple[object, ...]  # Service.checking_key(game)


def basis(svc: Service, game: Game) -> Basis:
    """The Basis of a check of orders for `game` now, as the thread would make it."""
    from moderator.service.games import describe_deadline

    return Basis(svc.store.url, game.id, game.scenario, game.turn, game.ruleset, game.ruleset_version,
                 describe_deadline(game.deadline), svc.checking_key(game))


def still_holds(svc: Service, prepared: Prepared, game: Game, nation: str) -> bool:
    """Whether a worker's check is the one the thread would make now: for the same nation, on
    the same Basis (the thread checks the mail itself otherwise). Counted for the bench."""
    holds = prepared.nation == nation and prepared.basis == basis(svc, game)
    if svc.read_ahead is not None:
        if holds:
            svc.read_ahead.checks_taken += 1
        else:
            svc.read_ahead.checks_redone += 1
    return holds


# An open game's Basis, its checking position (asked for only if not offered yet), and the
# nations whose orders for the turn are in (their next orders replace them).
Position = tuple[Basis, Callable[[], "GameState"], frozenset[str]]


@dataclass(frozen=True)
class Offer:
    """An open game's checking position offered to the workers: its Basis and the file that
    holds it pickled (written once by the thread, read once by each worker); and the nations
    whose orders were in when the batch began, from which a worker guesses which receipt a
    mail needs (only one is written: two cost the worker a third more a mail)."""

    basis: Basis
    path: str
    replacing: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Words:
    """A receipt's words, and its text and HTML parts encoded as the outgoing mail holds them."""

    text: str
    html: str
    parts: Alternative


@dataclass(frozen=True)
class Prepared:
    """A mail's orders checked by a worker for `nation` on the position of `basis`, and the
    receipt written for the likely answer to "do they replace earlier orders?" (`replaced`:
    the thread takes the receipt only if its own answer is the same)."""

    basis: Basis
    nation: str
    seat: SeatCheck
    replaced: bool
    receipt: Words


@dataclass(frozen=True)
class Reading:
    """A mail read: extract()'s result, and the orders text (CHECK word and PROXY line out)
    with its parse (talk dropped: without_chatter); and, when a worker could, its orders
    checked and their receipt written (None: the thread does it)."""

    mail: ExtractedMessage
    check_only: bool
    text: str
    proxy_for: str | None
    parsed: ParseResult
    prepared: Prepared | None = None


def orders_text(mail: ExtractedMessage) -> tuple[bool, str, str | None]:
    """Whether the mail only asks for a check (CHECK in its subject or first), and its text
    with that word and the PROXY line taken out, and the nation that line names."""
    from moderator.service import proxy  # an ally's proxy orders for a seat (issue 12)

    check_only = bool(_CHECK.search(mail.subject)) or mail.text.strip().upper().startswith("CHECK")
    text = _CHECK_LINE.sub("", mail.text) if check_only else mail.text
    text, proxy_for = proxy.split(text)
    return check_only, text, proxy_for


def without_chatter(text: str, parsed: ParseResult) -> ParseResult:
    """`parsed` without the errors for lines that are talk (greetings, sign-offs: mail/chatter.py)."""
    from moderator.mail.chatter import chatty_lines

    unreadable = {d.line for d in parsed.diagnostics if d.code == "unknown-order"}
    talk = chatty_lines(text, unreadable)
    if not talk:
        return parsed
    return replace(parsed, diagnostics=[d for d in parsed.diagnostics
                                        if not (d.code == "unknown-order" and d.line in talk)])


def orders_read(mail: ExtractedMessage) -> tuple[bool, str, str | None, ParseResult]:
    """orders_text(mail), and the parse of the orders text with the talk dropped."""
    check_only, text, proxy_for = orders_text(mail)
    return check_only, text, proxy_for, without_chatter(text, parse_orders(text))


def read(raw: bytes, offers: Sequence[Offer] = ()) -> Reading:
    """What handling reads from a mail's bytes (pure: the same bytes, the same reading), and
    (prepare) its orders checked on one of the positions offered."""
    mail = extract(raw)
    reading = Reading(mail, *orders_read(mail))
    if not offers or reading.proxy_for is not None or mail.refused or mail.auto_submitted or not mail.sender:
        return reading  # not a seat's own orders (a proxy's are checked in the thread), or not read on
    try:
        return replace(reading, prepared=prepare(reading, offers))
    except Exception:  # noqa: BLE001 - the thread checks the mail itself and meets the error where it always did
        log.debug("a worker could not check a mail's orders; the daemon's thread will", exc_info=True)
        return reading


def prepare(reading: Reading, offers: Sequence[Offer]) -> Prepared | None:
    """The check of a mail's orders and its receipt, on the position of the game its GAME line
    names (or of the only game offered, without one), for the nation its NATION line names;
    None if there is none such, or its position cannot be read. As inbox.take_orders makes
    them for a mail with orders (inbox._accept): the same functions on the same inputs."""
    from moderator.service.context import playable_ruleset
    from moderator.service.games import nation_id, turn_label
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    parsed = reading.parsed
    named = (getattr(parsed.header, "game", None) or "").strip()
    offer = _offer_for(named, offers)
    if offer is None:
        return None
    at = offer.basis
    scenario = load_scenario(at.scenario)
    nation = nation_id(scenario, getattr(parsed.header, "nation", None) or "")
    state = _position(offer)
    if nation is None or state is None:
        return None
    seat = check_seat(parsed, reading.text, nation, state, load_world(at.scenario), scenario,
                      playable_ruleset(at.ruleset, at.ruleset_version))
    # The likely answer: orders replace the seat's if it had some in at the batch's start (a
    # CHECK stores nothing, so replaces nothing); a wrong guess costs the thread one receipt.
    replaced = not reading.check_only and nation in offer.replacing
    text, html = receipt_words(seat, game=at.game, nation_name=scenario.nations[nation].name, turn=at.turn,
                               date=turn_label(scenario, at.turn), deadline=at.deadline,
                               check_only=reading.check_only, replaced=replaced)
    return Prepared(at, nation, seat, replaced, Words(text, html, alternative(text, html)))


def _offer_for(named: str, offers: Sequence[Offer]) -> Offer | None:
    """The offer of the game a mail names as inbox._game_for finds it (its id, else in any
    case), or the only one offered if it names none (the thread checks which game it took)."""
    if not named:
        return offers[0] if len(offers) == 1 else None
    return next((o for o in offers if o.basis.game == named), None) or next(
        (o for o in offers if o.basis.game.lower() == named.lower()), None)


# In a worker: the checking positions read, the last few by their key, and the files read.
_positions: OrderedDict[tuple[object, ...], GameState] = OrderedDict()
_folders: set[str] = set()


def _position(offer: Offer) -> GameState | None:
    """The offered position, read from its file once (None if the file is gone: the thread
    has moved on from it), read only as the thread's own (Service.checking_position)."""
    key = (offer.basis.database, offer.basis.position)
    state = _positions.get(key)
    if state is None:
        try:
            with open(offer.path, "rb") as file:
                state = pickle.load(file)  # noqa: S301 - written by the daemon that started this worker
        except OSError:
            return None
        _folders.add(os.path.dirname(offer.path))
        state.share_units()
        _positions[key] = state
        while len(_positions) > POSITIONS_KEPT:
            _positions.popitem(last=False)
    else:
        _positions.move_to_end(key)
    return state


def default_workers() -> int:
    """One less than the cores this process may use: the daemon's thread has one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(0, cores - 1)


class ReadAhead:
    """A process pool reading a batch's mails ahead of the daemon's thread (see the module)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._owner = 0  # the process that started the pool
        self._given_up = workers <= 0
        self._pending: dict[bytes, Future[Reading]] = {}
        self._lock = threading.Lock()  # _pending: one process's services may poll in several threads
        self.taken = self.done_here = 0  # mails read by a worker, and in the thread though given to one
        self.checks_taken = self.checks_redone = 0  # workers' checks the thread took, and found stale
        self.receipts_redone = 0  # receipts the thread wrote for checks it took: the guess of "replaced?" wrong
        self._folder: str | None = None  # the positions offered, pickled (a private folder)
        self._offered: OrderedDict[tuple[object, ...], str] = OrderedDict()  # their files by key

    def start(self, raws: Sequence[bytes], positions: Callable[[], Sequence[Position]] | None = None) -> None:
        """Hand the batch's mails to the workers (none if too few, or without a pool), with
        the checking positions of the open games (`positions()`: each Basis, and how to get
        the position if it was not offered before)."""
        if self._given_up or len(raws) < FEWEST:
            return
        try:
            if self._pool is not None and self._owner != os.getpid():
                self._pool, self._pending = None, {}  # a forked child's copy: the parent's pool, not ours
                self._folder, self._offered = None, OrderedDict()  # (and the parent's positions)
            if self._pool is None:
                _remove_stale_folders()
                self._owner = os.getpid()
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_worker_start, initargs=(os.getpid(),))
                sys.setswitchinterval(min(sys.getswitchinterval(), FEED_SWITCH_SECONDS))
            offers = self._offers(positions) if positions is not None else ()
            with self._lock:
                for raw in raws:
                    if raw not in self._pending:
                        self._pending[raw] = self._pool.submit(read, raw, offers)
        except Exception as exc:  # noqa: BLE001 - no pool here (no processes, no semaphores): the thread reads
            self._give_up(exc)

    def _offers(self, positions: Callable[[], Sequence[Position]]) -> tuple[Offer, ...]:
        """The positions offered for a batch; none if they cannot be had or written (a full
        disk): then the workers only read the mails and the thread checks them, as it would."""
        offers: list[Offer] = []
        try:
            with self._lock:
                for at, state, replacing in positions():
                    try:
                        offers.append(self._offer(at, state, replacing))
                    except Exception as exc:  # noqa: BLE001 - that game's mails are checked in the thread, as ever
                        log.warning("the workers cannot check orders for game %s (%s: %s); the daemon checks them "
                                    "itself", at.game, type(exc).__name__, exc)
        except Exception as exc:  # noqa: BLE001 - the thread checks each mail itself and meets the error there
            log.warning("the workers get no positions to check orders on (%s: %s); the daemon checks them itself",
                        type(exc).__name__, exc)
        return tuple(offers)

    def _offer(self, at: Basis, state: Callable[[], GameState], replacing: frozenset[str] = frozenset()) -> Offer:
        """The Offer of a position: pickled into a file of its own the first time (the last
        few kept; a worker that finds one gone leaves that check to the thread)."""
        key = (at.database, at.position)
        path = self._offered.get(key)
        if path is None:
            if self._folder is None:
                # only this user may read it; named with its owner, so a pool started later removes it
                # if that process died without its exit hooks (_remove_stale_folders)
                self._folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")
                atexit.register(_remove_at_exit, self._folder, os.getpid())
            # A copy of the fields only: not the indexes and counts cached on the thread's position.
            data = pickle.dumps(replace(state()), protocol=pickle.HIGHEST_PROTOCOL)
            fd, path = tempfile.mkstemp(suffix=".pickle", dir=self._folder)
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            self._offered[key] = path
            while len(self._offered) > POSITIONS_KEPT:
                _, old = self._offered.popitem(last=False)
                os.unlink(old)
        else:
            self._offered.move_to_end(key)
        return Offer(at, path, replacing)

    def take(self, raw: bytes) -> Reading | None:
        """The worker's reading of `raw`, or None: the thread is to read it itself."""
        with self._lock:
            future = self._pending.pop(raw, None)
        if future is None:
            return None
        if future.cancel():  # not begun: reading it here is quicker than waiting for it
            self.done_here += 1
            return None
        try:
            reading = future.result(timeout=LONGEST_WAIT)
        except Exception as exc:  # noqa: BLE001 - a broken or stuck pool, or the mail's own error: read here again
            from concurrent.futures.process import BrokenProcessPool

            if isinstance(exc, BrokenProcessPool | TimeoutError):
                self._give_up(exc)
            self.done_here += 1
            return None
        self.taken += 1
        return reading

    def forget(self, raws: Sequence[bytes] | None = None) -> None:
        """Drop what is still pending of these mails (a batch done, or ended early: its rest is
        read again next poll), or of all (None)."""
        with self._lock:
            if raws is None:
                pending, self._pending = self._pending, {}
            else:
                pending = {raw: future for raw in raws if (future := self._pending.pop(raw, None)) is not None}
        for future in pending.values():
            future.cancel()

    @contextmanager
    def forgetting(self) -> Iterator[None]:
        """Whatever is pending at the end (a poll's batch fetched ahead and not reached, when
        the poll ends early) is dropped then: the next poll reads it again."""
        try:
            yield
        finally:
            self.forget()

    def close(self) -> None:
        self.forget()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self._remove_positions()

    def _remove_positions(self) -> None:
        folder, self._folder = self._folder, None
        self._offered.clear()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    def worker_cpu_seconds(self) -> float | None:
        """The CPU time the live workers have used (Linux: /proc), for the intake bench; None
        where it cannot be read."""
        processes = getattr(self._pool, "_processes", None) or {}  # (the executor's own: no public way)
        try:
            ticks = 0
            for pid in list(processes):
                with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                    fields = stat.read().rpartition(")")[2].split()
                ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
            return ticks / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def _give_up(self, exc: BaseException) -> None:
        log.warning("reading mail ahead in worker processes stopped (%s: %s); the daemon reads it itself",
                    type(exc).__name__, exc)
        self._given_up = True
        pool, self._pool = self._pool, None
        self.forget()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        self._remove_positions()


_shared: dict[int, ReadAhead] = {}
_shared_lock = threading.Lock()


def shared(workers: int) -> ReadAhead:
    """The process's one pool of `workers` workers, for all its services (a process may hold
    many, as the test suite does: one pool each would leave as many idle workers)."""
    with _shared_lock:
        found = _shared.get(workers)
        if found is None:
            found = _shared[workers] = ReadAhead(workers)
        return found


def _worker_start(parent: int) -> None:
    """In each worker: leave when the daemon is gone (a pool's workers outlive a daemon killed
    with -9, waiting for work for ever), and load the orders grammar before the first mail."""
    threading.Thread(target=_watch, args=(parent,), name="watch-daemon", daemon=True).start()
    line_shapes()


FOLDER_PREFIX = "moderator-positions-"


def _remove_stale_folders() -> None:
    """Remove this user's position folders whose owner process is gone: one killed with all
    its workers at once (kill -9 of the process group, a power cut) ran neither its exit hook
    nor a worker's watch, and its folder would stay in the temporary directory for ever."""
    pattern = re.compile(rf"^{re.escape(FOLDER_PREFIX)}(\d+)-")
    try:
        with os.scandir(tempfile.gettempdir()) as entries:
            found = [(e.path, int(m.group(1))) for e in entries
                     if (m := pattern.match(e.name)) and e.is_dir(follow_symlinks=False)
                     and e.stat(follow_symlinks=False).st_uid == os.getuid()]
    except OSError:
        return
    for path, owner in found:
        try:
            os.kill(owner, 0)  # alive (or another user's): left alone
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def _remove_at_exit(folder: str, owner: int) -> None:
    if os.getpid() == owner:  # not in a forked child that exits
        shutil.rmtree(folder, ignore_errors=True)


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    for folder in list(_folders):  # the daemon's positions: it cannot remove them any more
        shutil.rmtree(folder, ignore_errors=True)
    os._exit(0)
