"""The pure first steps of an order mail's handling, done ahead in worker processes (issue 11,
intake throughput on several cores).

What handling a mail first does depends on its bytes alone: extract() (MIME, charsets, quotes
cut) and the parse of the orders in its text. For a fetched batch those are handed to a
process pool while the daemon's thread stores the batch and handles its mails one by one;
when the thread comes to a mail, its reading is usually done. Everything that reads or
writes the database (the seat, its password, the replay check, the submission, the receipt)
stays in the daemon's thread and its transactions, so exactly once holds as before: the
workers hold no state that matters, and what they return is what the thread would have
computed itself (the same pure functions), so a turn's result never depends on them.

Degrades to doing the work in the thread: with no workers configured (`[mail.imap]
intake_workers = 0`; by default one less than the machine's cores), when the pool cannot
start, breaks or is stuck (a worker killed, or no reading after LONGEST_WAIT: the rest of
the batch is read in the thread and no pool is tried again by this process), when a worker
raises (the thread reads the mail again and meets the same error where it always did), and
for a mail whose reading has not begun when the thread needs it (it is taken back, not
waited for). A worker exits when the daemon that
started it is gone (kill -9 included), so no orphans are left behind.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from moderator.mail.extract import ExtractedMessage, extract
from moderator.orders.parser import ParseResult, line_shapes, parse_orders

log = logging.getLogger(__name__)

FEWEST = 4  # a batch of fewer fresh mails is read in the thread: not worth the pool's round trips
# The longest the thread waits for a reading begun by a worker; then the worker is taken to be
# stuck (stopped, swapped out for good): the thread reads the mail, and no pool is used again.
# Reading a mail takes milliseconds; hostile mail is read in bounded time (mail/extract.py).
LONGEST_WAIT = 60.0
_CHECK = re.compile(r"\bcheck\b", re.IGNORECASE)
_CHECK_LINE = re.compile(r"(?im)^\s*check\s*$")


@dataclass(frozen=True)
class Reading:
    """A mail read: extract()'s result, and the orders text (CHECK word and PROXY line out)
    with its parse (before the chatter is dropped)."""

    mail: ExtractedMessage
    check_only: bool
    text: str
    proxy_for: str | None
    parsed: ParseResult


def orders_text(mail: ExtractedMessage) -> tuple[bool, str, str | None]:
    """Whether the mail only asks for a check (CHECK in its subject or first), and its text
    with that word and the PROXY line taken out, and the nation that line names."""
    from moderator.service import proxy  # an ally's proxy orders for a seat (issue 12)

    check_only = bool(_CHECK.search(mail.subject)) or mail.text.strip().upper().startswith("CHECK")
    text = _CHECK_LINE.sub("", mail.text) if check_only else mail.text
    text, proxy_for = proxy.split(text)
    return check_only, text, proxy_for


def read(raw: bytes) -> Reading:
    """What handling reads from a mail's bytes (pure: the same bytes, the same reading)."""
    mail = extract(raw)
    check_only, text, proxy_for = orders_text(mail)
    return Reading(mail, check_only, text, proxy_for, parse_orders(text))


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

    def start(self, raws: Sequence[bytes]) -> None:
        """Hand the batch's mails to the workers (none if too few, or without a pool)."""
        if self._given_up or len(raws) < FEWEST:
            return
        try:
            if self._pool is not None and self._owner != os.getpid():
                self._pool, self._pending = None, {}  # a forked child's copy: the parent's pool, not ours
            if self._pool is None:
                self._owner = os.getpid()
                self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_worker_start, initargs=(os.getpid(),))
            with self._lock:
                for raw in raws:
                    if raw not in self._pending:
                        self._pending[raw] = self._pool.submit(read, raw)
        except Exception as exc:  # noqa: BLE001 - no pool here (no processes, no semaphores): the thread reads
            self._give_up(exc)

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

    def forget(self) -> None:
        """Drop what is still pending (a batch ended early: its rest is read again next poll)."""
        with self._lock:
            pending, self._pending = self._pending, {}
        for future in pending.values():
            future.cancel()

    def close(self) -> None:
        self.forget()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

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


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)
