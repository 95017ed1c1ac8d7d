"""`python -m moderator.intake_scale_bench [--workers N] [--messages M]`: the intake bench's
burst taken by several intake processes at once, on one PostgreSQL database and one Dovecot
mailbox fed by Postfix: how far the intake scales out beyond one core.

Several daemons on one PostgreSQL database is how the moderator scales out (a SQLite file has
one daemon, its flock): one of them at a time fetches and stores, and each takes a few stored
messages at a time just before handling them (row locks and a lease, store/db.py "several
daemons on one database"; service/inbox.py _poll_shared), and which of a seat's orders stand
does not depend on who handled what first (the one written last stands: service/inbox.py
written_at). The bench checks both after the burst: every mail handled once, with one receipt
each, every seat with one current submission, that of its last mail.

Each worker is a process of its own (spawned, so nothing is shared but the database and the
mailbox), which pays its one-time costs (the grammar, the map, the 1914 position, the seats'
password hashes) before the burst; the timed part is from the go to the last worker's poll
returning. PostgreSQL runs here as the tests run it (tests/postgres.py: a cluster in a
temporary directory, durability off), so the figures say what the intake costs, not the disk.
"""

from __future__ import annotations

import argparse
import multiprocessing
import signal
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from moderator import intake_bench
from moderator.intake_bench import DOMAIN, MODERATOR, SEATS, WARM_UP


@dataclass
class ScaleFigures:
    workers: int
    messages: int
    intake_per_s: float
    cpu_ms_per_message: float  # every worker's CPU, summed, per message
    handled: list[int]  # messages each worker handled

    def lines(self) -> list[str]:
        return [f"intake scale-out bench: {self.messages} order mails, {self.workers} intake processes on one "
                "PostgreSQL database (Dovecot + Postfix)",
                f"  intake, to checked orders+receipt {self.intake_per_s:>8.1f} messages/s",
                f"  CPU per message, all workers      {self.cpu_ms_per_message:>8.1f} ms",
                f"  handled by each worker            {', '.join(str(n) for n in self.handled)}"]


def missing() -> str:
    """Why this bench cannot run here, or ""."""
    if why := intake_bench.real_servers_missing():
        return why
    intake_bench._rig()
    from tests import postgres

    return str(postgres.missing())


def _worker(url: str, mail: Any, index: int, ready: Any, go: Any, results: Any) -> None:
    import moderator.service.inbox as inbox
    from moderator.orders import parse_orders
    from moderator.service.context import Service
    from moderator.store.db import Store, verify_secret

    inbox.REPLIES_PER_DAY = 1_000_000  # a burst from seven seats is no mail loop
    svc = Service(store=Store(url), mail=mail, say=lambda s: print(f"worker {index}: {s}", file=sys.stderr))
    game = svc.store.game("bench")
    assert game is not None
    svc.checking_position(game)
    parse_orders(f"GAME bench\nNATION germany\n{SEATS['germany']}\n")
    for seat in svc.store.seats("bench"):
        verify_secret("pw", seat.secret_hash)
    ready.put(index)
    go.wait()
    cpu = time.process_time()
    outcomes = inbox.poll(svc)
    for outcome in outcomes:
        if outcome.status != "processed":  # a failed attempt: say why (the bench then fails)
            row = svc.store.message(outcome.message)
            print(f"worker {index}: mail {outcome.message} {outcome.status}: {outcome.summary} "
                  f"({row.note if row else ''})", file=sys.stderr)
    results.put((index, len(outcomes), time.process_time() - cpu, time.perf_counter()))


def _send_dated(smtp_port: int, names: list[str], numbers: range, first: datetime) -> None:
    """The burst, mail n written at `first` + n seconds (its Date header): which of a seat's
    mails was written last is then known, however Postfix orders them and whoever handles them."""
    import smtplib
    from email.message import EmailMessage
    from email.utils import format_datetime

    with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
        for n in numbers:
            nation = names[n % len(names)]
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = f"{nation}@{DOMAIN}", MODERATOR, "Orders"
            msg["Message-ID"], msg["Date"] = f"<scale-{n}@{DOMAIN}>", format_datetime(first + timedelta(seconds=n))
            msg.set_content(f"Hello,\n\nGAME bench\nNATION {nation}\nTURN 1\nPASSWORD pw\n{SEATS[nation]}\n"
                            f"NOTE mail {n}\n\nThanks!\n")
            smtp.send_message(msg)


def run(messages: int = 200, workers: int = 2, root: Path | None = None) -> ScaleFigures:
    intake_bench._rig()  # the checkout's tests/ on the path: its PostgreSQL, Dovecot and Postfix
    from moderator.service.context import Service
    from moderator.service.games import new_game
    from moderator.service.inbox import poll
    from moderator.store.db import Store
    from tests import postgres

    base = root or Path(tempfile.mkdtemp(prefix="intake-scale-bench-"))
    users = {MODERATOR: "m", **{f"{n}@{DOMAIN}": "p" for n in SEATS}}
    server = postgres.start()
    try:
        url = server.new_database()
        with intake_bench.dovecot_postfix(base, users) as servers:
            config = servers.client_config(MODERATOR, "m")
            svc = Service(store=Store(url), mail=config, say=lambda s: None)
            new_game(svc, "bench", deadline=datetime.now(UTC) + timedelta(days=3))
            for nation in SEATS:
                svc.store.add_seat("bench", nation, f"{nation}@{DOMAIN}", "pw")
            names = list(SEATS)
            intake_bench._send_orders(servers.smtp_port, names, range(messages, messages + WARM_UP))
            intake_bench._until_delivered(servers, WARM_UP)
            if len(poll(svc)) != WARM_UP:
                raise RuntimeError("the scale-out bench's warm-up mails were not all taken")
            spawn = multiprocessing.get_context("spawn")
            ready, results, go = spawn.Queue(), spawn.Queue(), spawn.Event()
            procs = [spawn.Process(target=_worker, args=(url, config, n, ready, go, results)) for n in range(workers)]
            for proc in procs:
                proc.start()
            try:
                for _ in procs:
                    ready.get(timeout=300)
                _send_dated(servers.smtp_port, names, range(messages), datetime.now(UTC).replace(microsecond=0))
                intake_bench._until_delivered(servers, messages)
                start = time.perf_counter()
                go.set()
                done = [results.get(timeout=900) for _ in procs]
            except BaseException:  # stopped (a signal, Ctrl-C) or failed: the workers go at once
                for proc in procs:
                    proc.kill()
                raise
            finally:
                for proc in procs:
                    proc.join(timeout=60)
                    if proc.is_alive():
                        proc.kill()
            elapsed = max(finished for *_, finished in done) - start
            _check_exactly_once(svc.store, messages)
    finally:
        server.stop()
    handled = [n for _, n, _, _ in sorted(done)]
    if sum(handled) != messages:
        raise RuntimeError(f"the workers handled {sum(handled)} mails of {messages}")
    return ScaleFigures(workers, messages, messages / elapsed, sum(c for _, _, c, _ in done) / messages * 1000, handled)


def _check_exactly_once(store: Any, messages: int) -> None:
    """Every mail stored once and processed, one receipt each, each seat's last mail current."""
    received = store.messages("in")
    if len(received) != messages + WARM_UP or any(m.status != "processed" for m in received):
        raise RuntimeError(f"{len(received)} mails stored for {messages + WARM_UP}, "
                           f"{sum(m.status != 'processed' for m in received)} not processed: "
                           + "; ".join(f"{m.id} {m.status} {m.note}" for m in received if m.status != "processed"))
    receipts = [m for m in store.messages("out") if m.kind == "reply"]
    if len(receipts) != len(received) or len({m.answers + m.subject + m.message_id for m in receipts}) != len(receipts):
        raise RuntimeError(f"{len(receipts)} receipts for {len(received)} mails")
    from sqlmodel import select

    from moderator.store.tables import Submission

    with store.session() as session:  # one current submission a seat: never two (Store.submit's lock)
        rows = list(session.exec(select(Submission.nation).where(Submission.game_id == "bench",
                                                                 Submission.current == True)))  # noqa: E712
    if len(rows) != len(set(rows)):
        raise RuntimeError(f"seats with more than one current submission: {sorted(rows)}")
    current = store.current_submissions("bench", 1)
    last = {nation: max(n for n in range(messages) if n % len(SEATS) == i) for i, nation in enumerate(SEATS)}
    wrong = [nation for nation, sub in current.items() if f"NOTE mail {last[nation]}" not in sub.text]
    if wrong:
        raise RuntimeError(f"not the last mail's orders current for {wrong}")


@contextmanager
def _signals_stop_the_run() -> Iterator[None]:
    """SIGTERM (a `kill`, a CI job's timeout) and SIGINT end the bench by an exception, so the
    `finally` blocks of run() stop its PostgreSQL, Dovecot and Postfix and kill its workers
    instead of leaving them running (SIGTERM's default ends the process without them). A
    second signal while they stop is ignored, so it cannot cut the stopping short."""
    def stop(signum: int, _frame: object) -> None:
        for each in (signal.SIGTERM, signal.SIGINT):
            signal.signal(each, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    previous = {each: signal.signal(each, stop) for each in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield
    finally:
        for each, handler in previous.items():
            signal.signal(each, handler)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m moderator.intake_scale_bench",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200, help="order mails in the burst (default 200)")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="intake processes, one run for each number given (default 1 2)")
    args = parser.parse_args(argv)
    if why := missing():
        print(f"intake scale-out bench: not run here ({why})")
        return 1
    with _signals_stop_the_run():
        for workers in args.workers:
            print("\n".join(run(args.messages, workers).lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
