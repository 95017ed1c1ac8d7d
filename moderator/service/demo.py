"""`moderator demo` (what `make run` starts): a whole turn cycle on this machine.

It starts the embedded mail server, creates a 1914 game with demo seats at local
addresses, starts the real daemon, and has two demo players mail their orders over
SMTP, so a new user sees receipts, a deadline, the resolution and the reports
within a few minutes, and can join in by mailing orders of their own.
"""

from __future__ import annotations

import json
import shutil
import signal
import smtplib
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from types import FrameType
from typing import Any

from moderator.mail.server import EmbeddedMailServer
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.demo_orders import GAME, sample_orders, seat_password
from moderator.service.games import new_game
from moderator.store.db import Store

__all__ = ["SEATS", "run_demo", "sample_orders", "seat_password", "GAME"]

DOMAIN = "demo.local"
MODERATOR = f"moderator@{DOMAIN}"  # the service's own mailbox: players write here
UMPIRE = f"umpire@{DOMAIN}"  # the human moderator: receives the moderator's copy of each turn
SEATS = ("germany", "austria-hungary", "france", "russia", "serbia", "britain")
ROBOT_PLAYERS = ("germany", "france", "russia")  # these mail orders by themselves


def _say(text: str) -> None:
    print(f"[{datetime.now(UTC):%H:%M:%S}] {text}", flush=True)


def _free(port: int) -> int:
    """`port` if nothing listens there, else 0 (let the system pick). SO_REUSEADDR as the
    servers themselves bind: a port the last run left in TIME_WAIT (a quick restart) is free
    to them, so the probe must not call it taken and send the demo to a random port."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return 0
    return port


def send_orders(smtp_port: int, sender: str, text: str, subject: str = "Orders") -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, MODERATOR, subject
    msg.set_content(text)
    with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
        smtp.send_message(msg)


def fresh_start(root: Path) -> None:
    """A new demo game in `root`: everything of the last run goes but the players' orders
    files (orders/*.txt), which a player may have edited and must find as they left them."""
    if root.exists():
        for entry in root.iterdir():
            if entry.name == "orders":
                continue
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()
    (root / "orders").mkdir(parents=True, exist_ok=True)


def run_demo(root: Path = Path("var/demo"), *, deadline_seconds: float = 150, poll_seconds: float = 5,
             exit_after_turn: bool = False, robots: bool = True, ports: tuple[int, int] = (1143, 1025)) -> int:
    """`ports` are the IMAP and SMTP ports a user's mail client is told to use (0 lets the
    system pick one: tests running side by side)."""
    interrupts = _Interrupts()
    users = {MODERATOR: "moderator-demo", UMPIRE: "umpire-demo", **{f"{n}@{DOMAIN}": f"mail-{n}" for n in SEATS}}
    server = EmbeddedMailServer(root / "mail", imap_port=_free(ports[0]) if ports[0] else 0,
                                smtp_port=_free(ports[1]) if ports[1] else 0, users=users)
    try:
        fresh_start(root)
        with interrupts.held():
            server.start()
        return _run(root, server, users, deadline_seconds, poll_seconds, exit_after_turn, robots, interrupts)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (_Interrupts), at any point of the demo
        _say("stopping")
        return 0
    finally:
        server.stop()
        interrupts.restore()


class _Interrupts:
    """Ctrl-C (SIGINT) and SIGTERM (`kill`, a terminal closing, a service manager or container
    stopping the demo) stop it alike: KeyboardInterrupt in the main thread, so the daemon and
    the mail server shut down and the demo exits 0, instead of dying where it stood.

    SIGINT is set here too, not left to Python: a process started with SIGINT ignored (a
    background job of a shell without job control: a script's `moderator demo &`, a CI step
    run so) inherits that, Python then keeps it ignored, and Ctrl-C or `kill -INT` did nothing:
    the demo ran on until killed. Once one of them came, both are ignored while the demo stops:
    a second one raised KeyboardInterrupt again inside the daemon's stop or the mail server's,
    cutting it short (the mail server's: with a traceback). Ctrl-\\ (SIGQUIT) still ends the
    process at once. Only the main thread may set a handler: elsewhere (a test's thread)
    nothing is changed."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self._previous: dict[signal.Signals, Callable[[int, FrameType | None], Any] | int | None] = {}
        self._holding = False
        self._pending = False
        if threading.current_thread() is threading.main_thread():
            self._previous = {each: signal.signal(each, self._stop) for each in self.SIGNALS}

    def _stop(self, _signum: int, _frame: FrameType | None) -> None:
        for each in self.SIGNALS:
            signal.signal(each, signal.SIG_IGN)
        if self._holding:
            self._pending = True
            return
        raise KeyboardInterrupt

    @contextmanager
    def held(self) -> Iterator[None]:
        """An interrupt during the block is raised at its end: starting a server's or the
        scheduler's thread is not cut in two. Cut inside Thread.start(), the thread ran on while
        its starter took it for not started: APScheduler's shutdown then failed with "cannot join
        thread before it is started" (the test, right after the banner, landed there often)."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
        if self._pending:
            raise KeyboardInterrupt

    def restore(self) -> None:
        for each, handler in self._previous.items():
            signal.signal(each, handler)


def _run(root: Path, server: EmbeddedMailServer, users: dict[str, str], deadline_seconds: float,
         poll_seconds: float, exit_after_turn: bool, robots: bool, interrupts: _Interrupts) -> int:
    # The demo's turns last deadline_seconds, not ten days: the resolution sets that deadline
    # before it writes the reports, so they print the game's real one.
    svc = Service(store=Store.at(root / "moderator.db"), mail=server.client_config(MODERATOR, users[MODERATOR], UMPIRE),
                  say=_say, archive=root / "sent",
                  next_deadline=lambda now, _game: now + timedelta(seconds=deadline_seconds))
    now = datetime.now(UTC)
    game = new_game(svc, GAME, "1914", title="Demo 1914", deadline=now + timedelta(seconds=deadline_seconds))
    for nation in SEATS:
        svc.store.add_seat(GAME, nation, f"{nation}@{DOMAIN}", seat_password(nation), player=f"demo {nation}")
    state, world = svc.position(game), svc.world(game)
    for nation in SEATS:
        path = root / "orders" / f"{nation}.txt"
        if path.exists():  # kept from the last run, perhaps edited: the same opening position
            _say(f"kept {path} from the last run (delete it for the demo's sample orders)")
            continue
        path.write_text(sample_orders(state, world, nation, svc.scenario(game), with_mistake=nation == "russia"),
                        encoding="utf-8")
    (root / "demo.json").write_text(json.dumps({
        "smtp_port": server.smtp_port, "imap_port": server.imap_port, "moderator": MODERATOR,
        "mailboxes": {a: p for a, p in users.items()}, "seat_passwords": {n: seat_password(n) for n in SEATS},
    }, indent=1), encoding="utf-8")
    # A configuration file for the moderator's tools on the demo game (no mail section: the
    # offline verbs need only the database).
    (root / "moderator.toml").write_text(
        f'[service]\ndatabase = "sqlite:///{(root / "moderator.db").resolve()}"\n', encoding="utf-8")
    if robots:
        for nation in ROBOT_PLAYERS:
            send_orders(server.smtp_port, f"{nation}@{DOMAIN}", (root / "orders" / f"{nation}.txt").read_text())
            _say(f"demo player {nation}@{DOMAIN} mailed its orders (file {root / 'orders' / (nation + '.txt')})")
    # The turn's clock starts now, once the demo players' mail is in: on a slow machine the
    # setup above may take longer than a short demo turn, and their orders must not be late.
    game = svc.store.update_game(GAME, deadline=datetime.now(UTC) + timedelta(seconds=deadline_seconds))
    _banner(root, server, users, game.deadline)
    # The daemon sends each turn's reports as soon as it is resolved, and counts the next
    # deadline again from then (calendar.keep_full_turn): rendering a turn's reports may take
    # as long as a short demo turn, and the players must still have the whole turn to answer.
    # --exit-after-turn: the daemon resolves one turn only, however soon the next is due.
    daemon = Daemon(svc, poll_seconds=poll_seconds, deadline_seconds=2, countdown_seconds=30,
                    remind_before=timedelta(seconds=deadline_seconds / 2),
                    max_resolutions=1 if exit_after_turn else None)
    try:  # Ctrl-C and SIGTERM stop the demo in run_demo; the daemon stops here first
        # start() inside, and whole (_Interrupts.held): an interrupt that comes while it starts
        # (right after the banner) stops what it started too; before, its jobs went on polling
        # the mail server stopped meanwhile, until the interpreter's exit, its database lock held.
        with interrupts.held():
            daemon.start()
        turn = 1
        while True:
            while not daemon.resolved.wait(1.0):
                pass
            daemon.resolved.clear()  # set once the turn's reports are sent
            _say(f"turn {turn} is done. Reports and their maps are in {root / 'sent'} (open the .png files), "
                 f"and in each player's mailbox over IMAP on 127.0.0.1:{server.imap_port}.")
            if exit_after_turn:
                return 0
            turn += 1
            deadline = svc.game(GAME).deadline  # set by the resolution (Service.next_deadline)
            _say(f"The game goes on: turn {turn} is open until {deadline:%H:%M:%S} UTC. Mail orders "
                 f"(TURN {turn}) with `moderator submit`, or press Ctrl-C to stop.")
    finally:
        daemon.stop()


def _banner(root: Path, server: EmbeddedMailServer, users: dict[str, str], deadline: datetime | None) -> None:
    lines = [
        "",
        "=== moderator demo: The War to End All Wars, 1914 ===",
        f"Mail server: IMAP 127.0.0.1:{server.imap_port}, SMTP 127.0.0.1:{server.smtp_port} (mail kept in {root / 'mail'})",
        f"Game 'demo', turn 1 (August 1914) resolves at {deadline:%H:%M:%S} UTC." if deadline else "",
        "Seats (mailbox password / seat password for the PASSWORD line):",
        *[f"  {n:<16} {n + '@' + DOMAIN:<28} {'mail-' + n:<22} {seat_password(n)}" for n in SEATS],
        f"The moderator's copy of each turn (all events, dice log) goes to {UMPIRE} (password umpire-demo).",
        f"Orders files to start from: {root / 'orders'}/<nation>.txt",
        "Send orders yourself from another terminal, e.g.:",
        f"  .venv/bin/moderator submit {root / 'orders' / 'britain.txt'} --demo britain",
        f"Every mail the moderator sends is also saved in {root / 'sent'} (.eml and map .png).",
        f"The moderator's tools work on the demo too, e.g. .venv/bin/moderator game show demo --config "
        f"{root / 'moderator.toml'}",
        "",
    ]
    for line in lines:
        print(line, flush=True)
