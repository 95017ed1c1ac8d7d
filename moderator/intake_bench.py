"""`make bench` (second part) / `python -m moderator.intake_bench [--messages N]`: how fast
order mail goes from the IMAP server to stored, checked orders with a receipt queued.

A burst of N order mails (seven seats, real 1914 orders) is delivered to the embedded mail
server (not timed); then the same server's raw fetch rate (BODY.PEEK in batches, nothing
stored) is measured, and the intake's own rate: one poll() taking every message through
storing, extraction, password check, parsing and checking on the real map, the receipt
and the filing, each message in its own durable transaction. The two rates side by side
say how much of the time is the server's and how much ours. Also shown: the time to the
first receipt queued (what a player in a burst waits for, before sending) and the CPU time
per message. The issue's goal is 500 messages per second; docs/benchmarks.md has the
figures measured so far.

Then the receipt latency a player sees: the daemon runs with IMAP IDLE, mails are sent one
at a time, and each is timed from the SMTP send to its receipt in the player's mailbox
(the issue's goal: p95 at most 3 s).
"""

from __future__ import annotations

import argparse
import smtplib
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

SEATS = {"germany": "MOVE 2 inf FROM Ruhr TO Cologne", "france": "MOVE 2 inf FROM Paris TO Picardy",
         "russia": "MOVE 2 inf FROM Moscow TO Smolensk", "britain": "BUILD 1 inf AT London",
         "austria-hungary": "MOVE 2 inf FROM Vienna TO Bohemia", "italy": "BUILD 1 inf AT Rome",
         "ottoman": "BUILD 1 inf AT Constantinople"}


@dataclass
class IntakeFigures:
    messages: int
    raw_fetch_per_s: float
    intake_per_s: float
    first_receipt_s: float
    cpu_ms_per_message: float

    def lines(self) -> list[str]:
        return [f"intake bench: a burst of {self.messages} order mails on the embedded IMAP server",
                f"  raw fetch, server only           {self.raw_fetch_per_s:>9.1f} messages/s",
                f"  intake, to checked orders+receipt {self.intake_per_s:>8.1f} messages/s",
                f"  first receipt queued after       {self.first_receipt_s:>9.2f} s",
                f"  CPU per message                  {self.cpu_ms_per_message:>9.1f} ms"]


WARM_UP = 2 * len(SEATS)  # mails polled before the timed burst, a second from each seat included


def _send_orders(smtp_port: int, names: list[str], numbers: range) -> None:
    with smtplib.SMTP("127.0.0.1", smtp_port) as smtp:
        for n in numbers:
            nation = names[n % len(names)]
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = f"{nation}@bench.local", "moderator@bench.local", "Orders"
            msg["Message-ID"] = f"<bench-{n}@bench.local>"
            msg.set_content(f"Hello,\n\nGAME bench\nNATION {nation}\nTURN 1\nPASSWORD pw\n{SEATS[nation]}\n"
                            f"NOTE mail {n}\n\nThanks!\n")
            smtp.send_message(msg)


def run(messages: int = 200, root: Path | None = None) -> IntakeFigures:
    from moderator.mail.intake import Mailbox
    from moderator.mail.server import EmbeddedMailServer
    from moderator.service.context import Service
    from moderator.service.games import new_game
    from moderator.service.inbox import Outcome, poll
    from moderator.store.db import Store

    base = root or Path(tempfile.mkdtemp(prefix="intake-bench-"))
    users = {"moderator@bench.local": "m", **{f"{n}@bench.local": "p" for n in SEATS}}
    with EmbeddedMailServer(base / "mail", users=users) as server:
        svc = Service(store=Store.at(base / "db"), mail=server.client_config("moderator@bench.local", "m"),
                      say=lambda s: None)
        new_game(svc, "bench", deadline=datetime.now(UTC) + timedelta(days=3))
        for nation in SEATS:
            svc.store.add_seat("bench", nation, f"{nation}@bench.local", "pw")
        names = list(SEATS)
        # A daemon runs for days: the one-time costs (the orders grammar, the map, the scenario,
        # the 1914 position, each seat's password hash) are paid by a few mails polled first.
        _send_orders(server.smtp_port, names, range(messages, messages + WARM_UP))
        if len(poll(svc)) != WARM_UP:
            raise RuntimeError("the intake bench's warm-up mails were not all taken")
        _send_orders(server.smtp_port, names, range(messages))
        start = time.perf_counter()
        with Mailbox(svc.require_mail()) as box:
            seen: set[int] = set()
            while batch := box.fetch_unseen(limit=50, skip=frozenset(seen)):
                seen.update(m.uid for m in batch)
        raw_s = time.perf_counter() - start
        first: list[float] = []

        def handled(_: Outcome) -> None:
            if not first:
                first.append(time.perf_counter() - start)

        start, cpu = time.perf_counter(), time.process_time()
        outcomes = poll(svc, on_handled=handled)
        intake_s, cpu_s = time.perf_counter() - start, time.process_time() - cpu
        if len(outcomes) != messages or any(o.status != "processed" for o in outcomes):
            raise RuntimeError(f"the intake bench lost or refused mail: {[o.summary for o in outcomes][:5]}")
        return IntakeFigures(messages, len(seen) / raw_s, messages / intake_s, first[0] if first else 0.0,
                             cpu_s / messages * 1000)


def latency(samples: int = 20, root: Path | None = None) -> list[float]:
    """Seconds from sending each of `samples` order mails to its receipt in the sender's INBOX."""
    from moderator.mail.intake import Mailbox
    from moderator.mail.server import EmbeddedMailServer
    from moderator.service.context import Service
    from moderator.service.daemon import Daemon
    from moderator.service.games import new_game
    from moderator.store.db import Store

    base = root or Path(tempfile.mkdtemp(prefix="latency-bench-"))
    player = "germany@bench.local"
    with EmbeddedMailServer(base / "mail", users={"moderator@bench.local": "m", player: "p"}) as server:
        svc = Service(store=Store.at(base / "db"), mail=server.client_config("moderator@bench.local", "m"),
                      say=lambda s: None)
        new_game(svc, "bench", deadline=datetime.now(UTC) + timedelta(days=3))
        svc.store.add_seat("bench", "germany", player, "pw")
        daemon = Daemon(svc, poll_seconds=3600, deadline_seconds=3600, countdown_seconds=0, idle=True)
        daemon.start()
        times: list[float] = []
        try:
            if not daemon.idling.wait(60):
                raise RuntimeError("the daemon's IMAP IDLE did not start")
            with Mailbox(server.client_config(player, "p")) as inbox:
                for n in range(samples):
                    msg = EmailMessage()
                    msg["From"], msg["To"], msg["Subject"] = player, "moderator@bench.local", "Orders"
                    msg.set_content(f"GAME bench\nNATION germany\nTURN 1\nPASSWORD pw\n{SEATS['germany']}\n"
                                    f"NOTE mail {n}\n")
                    start = time.perf_counter()
                    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
                        smtp.send_message(msg)
                    while len(inbox.client.search(["ALL"])) < n + 1:
                        if time.perf_counter() - start > 120:
                            raise RuntimeError(f"no receipt for mail {n} within 120 s")
                        time.sleep(0.02)
                        inbox.client.noop()
                    times.append(time.perf_counter() - start)
        finally:
            daemon.stop()
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m moderator.intake_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=200, help="order mails in the burst (default 200)")
    parser.add_argument("--latency-samples", type=int, default=20, help="mails timed one by one (default 20)")
    args = parser.parse_args(argv)
    print("\n".join(run(args.messages).lines()))
    times = sorted(latency(args.latency_samples))
    p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
    print(f"receipt latency, send to receipt in the player's mailbox (IDLE), {len(times)} mails: "
          f"p50 {times[len(times) // 2]:.2f} s, p95 {p95:.2f} s, max {times[-1]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
