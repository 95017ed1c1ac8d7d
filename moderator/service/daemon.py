"""The daemon: APScheduler jobs that poll the mailbox, resolve turns at their deadlines,
send the outbox and keep the console informed.

All jobs run on one worker thread, one at a time, so a poll never races a resolution
over the same game; a job that fails is reported and the daemon keeps running.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import timedelta

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from moderator.orders.messages import counted
from moderator.service.context import Service
from moderator.service.inbox import poll
from moderator.service.reminders import send_reminders
from moderator.service.sending import send_queued
from moderator.service.turns import due_games, resolve_game


class Daemon:
    def __init__(self, svc: Service, *, poll_seconds: float = 60, deadline_seconds: float = 10,
                 countdown_seconds: float = 60, remind_before: timedelta = timedelta(hours=24)) -> None:
        self.svc = svc
        self.poll_seconds = poll_seconds
        self.deadline_seconds = deadline_seconds
        self.countdown_seconds = countdown_seconds
        self.remind_before = remind_before
        self.resolved = threading.Event()  # set whenever a turn has been resolved (tests and demo wait on it)
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
        for outcome in poll(self.svc):
            self.svc.say(f"mail {outcome.message}: {outcome.summary}")
        self._send()

    def _deadlines(self) -> None:
        send_reminders(self.svc, self.remind_before)
        for game in due_games(self.svc):
            self.svc.say(f"deadline reached for {game.id} turn {game.turn}: resolving")
            resolve_game(self.svc, game.id)
            self.resolved.set()
        self._send()

    def _send(self) -> None:
        sent, failed = send_queued(self.svc)
        if sent or failed:
            self.svc.say(f"sent {counted(sent, 'mail')}" + (f", {failed} failed (kept, will show in review)" if failed else ""))

    def _guard(self, what: str, job: Callable[[], None]) -> None:
        try:
            job()
        except Exception as exc:  # report and keep running; the next run tries again
            self.svc.say(f"{what} failed: {type(exc).__name__}: {exc}")

    def start(self) -> None:
        s = self.scheduler
        s.add_job(self.poll_job, "interval", seconds=self.poll_seconds, id="poll", next_run_time=self.svc.clock())
        s.add_job(self.deadline_job, "interval", seconds=self.deadline_seconds, id="deadlines")
        if self.countdown_seconds:
            s.add_job(self.countdown_job, "interval", seconds=self.countdown_seconds, id="countdown",
                      next_run_time=self.svc.clock())
        s.start()

    def stop(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=True)


def _clock(left: timedelta) -> str:
    total = int(left.total_seconds())
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    return (f"{days}d " if days else "") + (f"{hours:d}:{minutes:02d}:{seconds:02d}" if hours or days
                                             else f"{minutes:d}:{seconds:02d}")
