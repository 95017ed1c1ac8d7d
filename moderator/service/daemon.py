"""The daemon: APScheduler jobs that poll the mailbox, resolve turns at their deadlines,
send the outbox and keep the console informed.

All jobs run on one worker thread, one at a time, so a poll never races a resolution
over the same game; a job that fails is reported and the daemon keeps running. Every
exception the daemon catches so that it can go on (a guarded job, a resolution that failed)
is a fault (`Daemon.faults`): said on the console with its traceback (`moderator run`
prints each line with its time: that is the daemon's log; the demo prints it too), and
kept, so that `moderator simulate` counts them and fails on any (issue 14: "no
exception anywhere"). A mail server that cannot be reached is said in one line: its
message says all, and an outage would repeat the traceback at every poll.

At start (issue 11): the daemon takes the database's daemon lock (a second daemon on the
same database refuses to start), reopens a turn a killed predecessor left "resolving"
(nothing of it was committed; at every deadline check too, turns.recover_interrupted: on
PostgreSQL other daemons run on, and on SQLite a failed resolution whose failure could not be
recorded leaves it so), and runs the deadline check at once, so a deadline that
passed while it was down resolves exactly once, right away. A turn whose resolution
fails stays open and is retried with growing pauses (RETRY_AFTER). Its reports are sent at
once (or, in an SMTP outage, once the outbox has sent them, even by a daemon started again
meanwhile: the turn owed this is kept in the database), and if they left much later than
the resolution, the next deadline is counted again from then (calendar.keep_full_turn): a player always has the whole turn after the reports are out.
`max_resolutions` (the demo's --exit-after-turn) stops resolving after that many turns.

With `idle`, a thread waits on the mailbox with IMAP IDLE (mail/idle.py) and runs the poll
job at once when mail arrives; the periodic poll goes on beside it as the fallback.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from moderator.mail.idle import watch
from moderator.mail.intake import IntakeError
from moderator.orders.messages import counted
from moderator.service.calendar import keep_full_turn
from moderator.service.context import Service
from moderator.service.inbox import Outcome, poll
from moderator.service.reminders import send_reminders
from moderator.service.sending import send_queued
from moderator.service.turns import AlreadyResolved, due_games, recover_interrupted, resolve_game

RETRY_AFTER = (timedelta(seconds=30), timedelta(minutes=2), timedelta(minutes=10), timedelta(minutes=30))
SEND_EVERY = 1.0  # seconds: during a long poll, receipts go out at least this often


REPORTS_OUT = "reports-out:"


def _reports_out_key(game_id: str) -> str:
    """The setting that holds the turn of `game_id` resolved whose reports have not all left
    yet ("" once they have): keep_full_turn is owed once they do."""
    return f"{REPORTS_OUT}{game_id}"


@dataclass
class Fault:
    """An exception the daemon caught and went on after: in which step, and where it came
    from (the first time); how often that step has failed so since."""

    what: str  # the step: "mail poll", "keeping the whole turn", "resolving <game> turn <n>", ...
    error: str  # "TypeError: ..."
    trace: str  # the traceback of the first time, as Python prints it
    times: int = 1

    def __str__(self) -> str:
        return f"{self.what} failed: {self.error}"


class Daemon:
    def __init__(self, svc: Service, *, poll_seconds: float = 60, deadline_seconds: float = 10,
                 countdown_seconds: float = 60, remind_before: timedelta | None = None,
                 idle: bool = False, max_resolutions: int | None = None) -> None:
        # remind_before: one reminder at that lead for every game (the demo's short turns);
        # None: each game's own reminders (Game.reminder_hours, 48 and 12 hours by default)
        self.svc = svc
        self.idle = idle
        self._stop = threading.Event()
        self._wanted = threading.Event()  # new mail announced (IDLE) since the last poll began
        self._watcher: threading.Thread | None = None
        self.idling = threading.Event()  # set while the IDLE connection is up (tests wait on it)
        self.poll_seconds = poll_seconds
        self.deadline_seconds = deadline_seconds
        self.countdown_seconds = countdown_seconds
        self.remind_before = remind_before
        self.resolved = threading.Event()  # set whenever a turn has been resolved and its reports sent
        self.max_resolutions = max_resolutions  # None: no limit
        self.resolutions = 0
        self._retry: dict[tuple[str, int], tuple[int, datetime]] = {}  # (game, turn) -> (failures, not before)
        # Every exception caught and gone on from (see _fault), one entry per step and error in
        # the order they first came: a step that fails at every run of its job for weeks
        # must not fill the memory.
        self._faults: dict[tuple[str, str], Fault] = {}
        # APScheduler warns whenever a run is skipped because the previous one is still busy;
        # with one worker that is the intended behaviour, not news for the console.
        logging.getLogger("apscheduler").setLevel(logging.ERROR)
        self.scheduler = BackgroundScheduler(executors={"default": ThreadPoolExecutor(1)}, timezone="UTC",
                                             job_defaults={"coalesce": True, "max_instances": 1})

    # ---- jobs --------------------------------------------------------------------------
    def poll_job(self) -> None:
        self._guard("mail poll", self._poll)

    def deadline_job(self) -> None:
        self._guard("deadline check", self._deadlines)

    def countdown_job(self) -> None:
        self._guard("countdown", self._countdown)

    def _countdown(self) -> None:
        now = self.svc.clock()
        for g in self.svc.store.games():
            if g.status == "open" and g.deadline is not None:
                left = max(g.deadline - now, timedelta(0))
                subs = self.svc.store.current_submissions(g.id, g.turn)
                seats = self.svc.store.seats(g.id)
                self.svc.say(f"game {g.id}: turn {g.turn} resolves in {_clock(left)}; "
                             f"orders in from {len(subs)} of {len(seats)} seats")

    def tick(self) -> None:
        """One round of every job, in order: what the scheduler does over time."""
        self.poll_job()
        self.deadline_job()

    # ---- plumbing ------------------------------------------------------------------------
    def _poll(self) -> None:
        while True:
            self._wanted.clear()
            self._poll_once()
            if not self._wanted.is_set():  # mail announced during the poll: look again at once
                return

    def _wake(self) -> None:
        """New mail announced by IDLE: poll now (if a poll is running, it looks again when done)."""
        self._wanted.set()
        try:
            self.scheduler.modify_job("poll", next_run_time=datetime.now(UTC))
        except Exception:  # noqa: BLE001 - not started yet, or stopping: the periodic poll will do
            pass

    def _poll_once(self) -> None:
        last_send = time.monotonic()

        def handled(outcome: Outcome) -> None:
            nonlocal last_send
            self.svc.say(f"mail {outcome.message}: {outcome.summary}")
            if time.monotonic() - last_send >= SEND_EVERY:  # a burst's first receipts leave at once
                self._send()
                last_send = time.monotonic()

        poll(self.svc, on_handled=handled)
        self._send()

    def _deadlines(self) -> None:
        # A turn left "resolving": by another daemon that died (a shared database), or here by
        # a failure whose own record failed too (mark_failed on a full disk). No resolution is
        # under way in this daemon now (its jobs run one at a time), and on SQLite it is the
        # only daemon (Store.daemon_lock), so the turn is open again and retried.
        self._reopen_interrupted()
        send_reminders(self.svc, self.remind_before)
        now = self.svc.clock()
        if due_games(self.svc):
            # Orders that reached the mailbox before the deadline count even if the last poll
            # was earlier: take them in before resolving.
            self._guard("mail poll before the deadline", self._poll)
        kept = False  # whether _keep_full_turns has looked since the last mail was sent
        for game in due_games(self.svc):
            if self.max_resolutions is not None and self.resolutions >= self.max_resolutions:
                break  # the demo's --exit-after-turn: the turns after it wait for the next start
            failures, not_before = self._retry.get((game.id, game.turn), (0, now))
            if now < not_before:
                continue
            self.svc.say(f"deadline reached for {game.id} turn {game.turn}: resolving"
                         + (f" (attempt {failures + 1})" if failures else ""))
            try:
                resolve_game(self.svc, game.id)
            except AlreadyResolved:  # another daemon on this database has it (PostgreSQL)
                self.svc.say(f"{game.id} turn {game.turn} is resolved by another daemon")
                continue
            except Exception as exc:  # the turn stays open and visible (turns.mark_failed); the others go on
                self._fault(f"resolving {game.id} turn {game.turn}", exc)
                pause = RETRY_AFTER[min(failures, len(RETRY_AFTER) - 1)]
                self._retry[(game.id, game.turn)] = (failures + 1, self.svc.clock() + pause)
                self.svc.say(f"{game.id} turn {game.turn}: next attempt in {int(pause.total_seconds())} s")
                continue
            self._retry.pop((game.id, game.turn), None)
            self.resolutions += 1
            self.svc.store.set_setting(_reports_out_key(game.id), str(game.turn))
            self._send()  # the reports go out now, and the next turn's clock counts from then
            self._guard("keeping the whole turn", self._keep_full_turns)
            kept = True
            self.resolved.set()
        # Reports held back (SMTP down) that have left since, even before a restart. Right after
        # a resolution's own look only mail sent since can have changed anything.
        if self._send() or not kept:
            self._guard("keeping the whole turn", self._keep_full_turns)

    def _keep_full_turns(self) -> None:
        """Once every mail of a resolved turn's game has left the outbox (at once, or after
        an SMTP outage), count the next deadline again from now if the reports left late.
        The turns whose reports are on their way are kept in the database (a setting per game,
        _reports_out_key, all read in one query), not in memory: a daemon restarted during an
        outage keeps the promise. Several daemons on one PostgreSQL database all look: the one
        that takes the setting (Store.take_setting) keeps the promise, in the same transaction,
        so the deadline moves once and a failure leaves the setting for the next look."""
        store = self.svc.store
        out = {key.removeprefix(REPORTS_OUT): turn for key, turn in store.settings_starting(REPORTS_OUT).items()
               if turn}
        if not out:
            return
        waiting = store.games_with_queued_mail()
        for game_id, resolved_turn in out.items():
            if game_id in waiting or store.game(game_id) is None:
                continue
            with store.transaction():
                if not store.take_setting(_reports_out_key(game_id), resolved_turn):
                    continue  # another daemon on this database took it a moment ago
                moved = keep_full_turn(self.svc, game_id, int(resolved_turn))
            if moved is not None:
                self._send()  # the seats hear of the new deadline at once

    def _reopen_interrupted(self) -> None:
        for game_id in recover_interrupted(self.svc):
            self.svc.say(f"{game_id}: the last resolution was interrupted before it was stored; the turn is open "
                         "again and is resolved at its deadline")

    def _send(self) -> int:
        """Send what the outbox holds; returns how many mails left."""
        sent, failed = send_queued(self.svc)
        if sent or failed:
            self.svc.say(f"sent {counted(sent, 'mail')}" + (f", {failed} failed (kept, will show in review)" if failed else ""))
        return sent

    def _guard(self, what: str, job: Callable[[], None]) -> None:
        try:
            job()
        except Exception as exc:  # report and keep running; the next run tries again
            self._fault(what, exc)

    @property
    def faults(self) -> list[Fault]:
        return list(self._faults.values())

    def _fault(self, what: str, exc: Exception) -> None:
        """Count the fault and say it, with its traceback the first time this step fails so
        (a job fails again at every run, seconds apart, until it is fixed: once is enough
        for the traceback). A mail server out of reach is an outage, not a bug: one line."""
        error = f"{type(exc).__name__}: {exc}"
        seen = self._faults.get((what, error))
        if seen is not None:
            seen.times += 1
            self.svc.say(str(seen))
            return
        fault = self._faults[(what, error)] = Fault(what, error, "".join(traceback.format_exception(exc)))
        self.svc.say(str(fault) if isinstance(exc, IntakeError) else f"{fault}\n{fault.trace.rstrip()}")

    def start(self) -> None:
        """Start the jobs; AlreadyRunning if another daemon holds the database."""
        self.svc.store.lock_for_daemon()
        self._reopen_interrupted()
        s = self.scheduler
        start = self.svc.clock()
        s.add_job(self.poll_job, "interval", seconds=self.poll_seconds, id="poll", next_run_time=start)
        # Orders that arrived while the daemon was down are taken first (poll), then a deadline
        # that passed meanwhile resolves: both at once, not a period later.
        s.add_job(self.deadline_job, "interval", seconds=self.deadline_seconds, id="deadlines",
                  next_run_time=start + timedelta(seconds=0.5))
        if self.countdown_seconds:
            s.add_job(self.countdown_job, "interval", seconds=self.countdown_seconds, id="countdown",
                      next_run_time=self.svc.clock())
        # Hushed from the start, not only in stop(): a SIGTERM can begin the interpreter's
        # shutdown, which closes the executor ("after interpreter shutdown") before stop() runs.
        logging.getLogger("apscheduler.scheduler").addFilter(_submitting_after_shutdown)
        s.start()
        if self.idle and self.svc.mail is not None:
            self._watcher = threading.Thread(target=self._watch, name="imap-idle", daemon=True)
            self._watcher.start()

    def _watch(self) -> None:
        """The IDLE thread (mail/idle.py rides out the mail server's outages itself): if it
        dies of anything else, that is a fault, and the periodic poll goes on alone."""
        mail = self.svc.mail
        assert mail is not None
        self._guard("IMAP IDLE (new mail is found by polling only from now on)",
                    lambda: watch(mail, self._wake, self._stop, self.svc.say, idling=self.idling))

    def stop(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=30)
        if self.scheduler.running:
            # APScheduler 3 may be handing a job to its executor at the very moment shutdown closes
            # it, and then logs the executor's refusal with a traceback: harmless (the daemon is
            # stopping, the job would not have run anyway), so pause first; start() hushed that record.
            self.scheduler.pause()
            self.scheduler.shutdown(wait=True)
        self.svc.store.unlock()


def _submitting_after_shutdown(record: logging.LogRecord) -> bool:
    """False for APScheduler's "Error submitting job" record about an executor already shut down
    (by the daemon's stop, or by the interpreter's shutdown: "cannot schedule new futures after
    [interpreter] shutdown")."""
    exc = record.exc_info[1] if record.exc_info else None
    return not (isinstance(exc, RuntimeError) and "cannot schedule new futures after" in str(exc))


def _clock(left: timedelta) -> str:
    total = int(left.total_seconds())
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    return (f"{days}d " if days else "") + (f"{hours:d}:{minutes:02d}:{seconds:02d}" if hours or days
                                             else f"{minutes:d}:{seconds:02d}")
