"""`moderator simulate`: a game of the 1914 scenario played by bots, and what it showed.

Direct mode: the service in this process with a SQLite store; each bot's orders go
through the same intake as a mail (inbox.take_orders: parser, checker, stored
submission, receipt), then the turn is resolved as at a deadline (turns.resolve_game).
No mail: reports are not built (--mail builds and sends them).

Mail mode (--mail): the embedded IMAP/SMTP server (mail/server.py) and the real daemon
(service/daemon.py, its scheduler running, taking new mail at once with IMAP IDLE as
`moderator run` does by default; its poll every 2 s is the fallback): each bot mails
its orders from its seat's address, waits for its receipt, the deadline is moved to now,
the daemon resolves the turn and sends the reports, and each bot reads its report's
report.json and holds it to the position it will play next (`Mailbox`); from its next
turn on it plays under fog of war, from what its own mails told it (its report, its
alliance's, the bulletin) on a skeleton of public facts (bots/fog.py). Every mail a seat receives is counted and its report.json checked for
leaks (bots/leaks.py): one receipt per turn, one report, one bulletin, one alliance
status if its side has one, each to the right seat and nothing else. Every exception the
daemon caught and went on from (a fault: service/daemon.py) is counted and fails the run.

After the last turn every turn is replayed (turns.replay) and must come out identical.
The summary (Summary.text) is what a moderator reads before opening a real game.
"""

from __future__ import annotations

import dataclasses
import email
import json
import re
import smtplib
import subprocess
import sys
import tempfile
import time
import weakref
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import TYPE_CHECKING, Any

from moderator.bots.bot import Turn, play
from moderator.bots.fog import fogged
from moderator.engine import judgement
from moderator.orders.model import Order
from moderator.service.context import Service
from moderator.service.daemon import Fault
from moderator.service.games import new_game
from moderator.service.inbox import take_orders
from moderator.service.turns import replay, resolve_game
from moderator.store.db import Store

if TYPE_CHECKING:
    from moderator.engine.state import GameState
    from moderator.store.tables import Game
    from moderator.world.model import World
    from moderator.world.scenario_model import Nation

GAME = "soak"
DOMAIN = "bots.local"
MODERATOR_ADDRESS = f"moderator@{DOMAIN}"
UMPIRE = f"umpire@{DOMAIN}"
# The review items a resolution may leave: the rules' own judgement calls (service/review.py):
# an order referred to the moderator, a default the engine chose (a flag), a NOTE, each for
# a reason named in engine/judgement.py (and docs/rules-coverage.md). Anything else in the
# queue (a failed resolution or report, a refused ruling, mail set aside, a reason not
# named) is a problem the simulation reports.
JUDGEMENT = ("referred", "flag", "note")
HEADLINES = ("battle", "captured", "war-declared", "incorporated", "order-referred", "moderator-flag")
# The politics line: (event code, what the summary calls it). The event `revolution` is a
# stage of the Russian Revolution (Phase 9), not the socialist revolution repeated mutinies
# may start (Mutinies: `socialist-revolution`), so each is named plainly and counted apart.
POLITICS = (("joined", "joined"), ("revolution", "Russian Revolution stages reached"), ("mutiny", "mutiny"),
            ("socialist-revolution", "socialist revolution after mutinies"), ("rebellion", "rebellion"),
            ("local-war-ended", "local-war-ended"), ("victory-outright", "victory-outright"),
            ("victory-side", "victory-side"))


def seat_password(nation: str) -> str:
    return f"bot-{nation}"


def playable(svc: Service, scenario_name: str = "1914") -> list[str]:
    from moderator.world.scenario import load_scenario

    return sorted(n for n, info in load_scenario(scenario_name).nations.items() if info.playable)


@dataclass
class Summary:
    """What a simulation did and found."""

    mode: str
    seed: str
    seats: list[str]
    turns: int = 0
    written: int = 0  # orders the bots wrote
    accepted: int = 0  # orders the service kept (receipts)
    refused: list[str] = field(default_factory=list)  # "turn n nation: receipt says ..." (bugs)
    dropped: Counter[str] = field(default_factory=Counter)  # drafts the bots' own check refused, by code
    drop_bugs: list[str] = field(default_factory=list)  # "turn n nation: order: code (whose)": not bot.EXPECTED_DROPS
    kinds: Counter[str] = field(default_factory=Counter)  # orders the bots wrote, by type
    proxies: Counter[str] = field(default_factory=Counter)  # "giver for nation" -> turns it gave the orders (PROXY FOR)
    events: Counter[str] = field(default_factory=Counter)
    joins: list[tuple[int, str, str]] = field(default_factory=list)  # (turn, nation, side) of each `joined` event
    reviews: dict[int, Counter[str]] = field(default_factory=dict)  # turn -> kind -> items
    unnamed: list[str] = field(default_factory=list)  # judgement items whose reason engine/judgement.py lacks
    seconds: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))  # phase -> seconds, all turns
    mails: Counter[str] = field(default_factory=Counter)  # kind of mail delivered to seats -> count
    delivery: list[str] = field(default_factory=list)  # mails missing, doubled or misdelivered (bugs)
    report_mismatch: list[str] = field(default_factory=list)  # report.json disagreeing with the position (bugs)
    leaks: list[str] = field(default_factory=list)  # a mail showing what its readers may not see (bugs)
    replays: dict[int, bool] = field(default_factory=dict)
    victory: str = ""
    peak_mb: float = 0.0  # the process's peak resident memory at the end
    daemon_peak_mb: float = 0.0  # --daemon-apart: the daemon's own process's peak
    errors: list[str] = field(default_factory=list)  # exceptions (bugs)
    unit_cost: str = ""  # --unit-cost: the engine's per-unit cost beside MILA's (bench_unit_cost.measure)
    faults: list[Fault] | None = None  # exceptions the daemon caught and went on from (bugs), by step and
    # error; None: no daemon

    @property
    def strange_reviews(self) -> list[str]:
        return [f"turn {t}: {k} {n}" for t, kinds in sorted(self.reviews.items()) for k, n in sorted(kinds.items())
                if k not in JUDGEMENT] + self.unnamed

    @property
    def ok(self) -> bool:
        return not (self.refused or self.drop_bugs or self.delivery or self.report_mismatch or self.leaks
                    or self.errors or self.faults or self.strange_reviews
                    or not all(self.replays.values()))

    def joins_text(self) -> str:
        """The joins per side, in the order they came: whether the neutrals played history."""
        by_side: dict[str, list[str]] = {}
        for turn, nation, side in self.joins:
            by_side.setdefault(side, []).append(f"{nation} {turn}")
        return "; ".join(f"{side} {len(who)}: {', '.join(who)}" for side, who in sorted(by_side.items()))

    def faults_text(self) -> str:
        """The daemon's faults by step and error, each with how often it came (a job fails
        again at every run until the cause is gone)."""
        if self.faults is None:
            return "not watched (no daemon in direct mode)"
        total = sum(f.times for f in self.faults)
        return f"{total}: " + "; ".join(f"{f} ({f.times}x)" for f in self.faults) if total else "none"

    def text(self) -> str:
        per_turn = {k: v / max(self.turns, 1) for k, v in self.seconds.items()}
        lines = [
            f"Simulation ({self.mode}), seed {self.seed}: {self.turns} turns, {len(self.seats)} seats "
            f"({', '.join(self.seats)})",
            f"Orders written by the bots: {self.written}; accepted by the service: {self.accepted}; "
            f"refused by the service: {len(self.refused)}",
            "Orders by type: " + ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items())),
            "Orders given for a nation its player commands by the rules (PROXY FOR; turns): "
            + (", ".join(f"{k} {n}" for k, n in sorted(self.proxies.items())) or "none"),
            "Drafts the bots' own check dropped before writing: "
            + (", ".join(f"{c} {n}" for c, n in sorted(self.dropped.items())) or "none"),
            "Events: " + ", ".join(f"{c} {self.events[c]}" for c in HEADLINES),
            "Nations joined, the Russian Revolution, mutinies and their revolutions, rebellions, victories: "
            + ", ".join(f"{label} {self.events[code]}" for code, label in POLITICS),
            "Who joined which side (nation turn): " + (self.joins_text() or "nobody"),
            "Mail delivered to the seats: " + (", ".join(f"{k} {n}" for k, n in sorted(self.mails.items()))
                                               or "none (direct mode sends no mail)"),
            "Time per turn (resolution: the engine and the commit; reports: building them): " + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(per_turn.items())),
            (f"Peak memory of this process (bots, service and mail server): {self.peak_mb:.0f} MB; "
             f"of the daemon, in a process of its own: {self.daemon_peak_mb:.0f} MB" if self.daemon_peak_mb else
             f"Peak memory of this process (bots, service, daemon and mail server together): {self.peak_mb:.0f} MB"
             if self.mode.startswith("mail") else
             f"Peak memory of this process (bots and service; direct mode, no daemon or mail): {self.peak_mb:.0f} MB"),
            *([f"Engine cost per unit beside MILA's `diplomacy`: {self.unit_cost}"] if self.unit_cost else []),
            "Leak check (every report.json against the turn's events and the position): "
            + (f"{len(self.leaks)} found" if self.leaks else "none found" if self.mails else "not run (no mail)"),
            "Replay: " + (f"{sum(self.replays.values())} of {len(self.replays)} turns identical"
                          if self.replays else "not run"),
            "Daemon faults (exceptions the daemon caught and went on from): " + self.faults_text(),
            "Moderator review items per turn, by kind:",
        ]
        for turn, kinds in sorted(self.reviews.items()):
            lines.append(f"  turn {turn}: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
        if not self.reviews:
            lines.append("  none")
        lines.append("Victory: " + (self.victory or "no victory check in this ruleset yet"))
        for title, items in (("REFUSED (bot, parser or checker bug)", self.refused),
                             ("DROPPED FROM A BOT'S DRAFT, NOT AN EXPECTED DROP (bot or checker bug)", self.drop_bugs),
                             ("MAIL NOT DELIVERED EXACTLY ONCE", self.delivery),
                             ("REPORT.JSON DISAGREES WITH THE POSITION", self.report_mismatch),
                             ("A MAIL SHOWS WHAT ITS READERS MAY NOT SEE", self.leaks),
                             ("REVIEW ITEMS THAT ARE NOT THE RULES' JUDGEMENT CALLS", self.strange_reviews),
                             ("ERRORS", self.errors)):
            if items:
                lines.append(f"{title}: {len(items)}")
                lines += [f"  {x}" for x in items[:20]]
        if self.faults:  # each step and error once, with where it came from the first time
            lines.append(f"DAEMON FAULTS: {sum(f.times for f in self.faults)}")
            for fault in self.faults:
                lines += [f"  {fault} ({fault.times}x)", *(f"    {x}" for x in fault.trace.rstrip().splitlines())]
        lines.append("Result: " + ("OK" if self.ok else "PROBLEMS FOUND (above)"))
        return "\n".join(lines) + "\n"


@contextmanager
def timed(summary: Summary, phase: str) -> Iterator[None]:
    start = time.perf_counter()
    try:
        yield
    finally:
        summary.seconds[phase] += time.perf_counter() - start


def _quiet(_: str) -> None:
    pass


def simulate(turns: int, seed: str, seats: list[str] | None = None, *, mail: bool = False,
             root: Path | None = None, maps: bool = True, progress: Callable[[str], None] = _quiet,
             say: Callable[[str], None] = _quiet, deployment: bool = False,
             start: Callable[[Service], None] | None = None, daemon_apart: bool = False) -> Summary:
    """Play `turns` turns of a new 1914 game with bots on `seats` (default: every playable
    nation); seated nations without a bot (seats given) miss their turns. With
    `deployment`, the game opens with its deployment turn (turn 0, Initial Deployment:
    the bots DEPLOY) before those turns. `start` may change the game once it is set up,
    before the first turn (the tests open a war where a revolution's army or a
    government in exile is already commanded by another seat). With `daemon_apart` (mail
    only), the daemon runs in a process of its own (bots/daemon_apart.py), whose peak
    memory the summary shows apart."""
    with tempfile.TemporaryDirectory(prefix="moderator-simulate-") as tmp:
        where = root or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        if mail:
            return _mail_run(turns, seed, seats, where, maps, progress, say, deployment, start, daemon_apart)
        svc = Service(store=Store.at(where / "simulate.db"), say=say)
        return _direct_run(svc, turns, seed, seats, progress, deployment, start)


def _setup(svc: Service, seed: str, seats: list[str] | None,
           deployment: bool = False) -> tuple[list[str], list[str]]:
    """The game and its seats: every playable nation is seated; bots play `seats`."""
    game = new_game(svc, GAME, "1914", title="Bots' war", seed=f"simulate/{seed}",
                    deadline=svc.clock() + timedelta(days=10), deployment=deployment)
    everyone = playable(svc)
    for nation in everyone:
        svc.store.add_seat(game.id, nation, f"{nation}@{DOMAIN}", seat_password(nation), player=f"bot {nation}")
    bots = everyone if not seats else sorted(seats)
    unknown = sorted(set(bots) - set(everyone))
    if unknown:
        raise ValueError(f"not playable nations of 1914: {', '.join(unknown)} (playable: {', '.join(everyone)})")
    return everyone, bots


def order_kind(order: Order) -> str:
    """What the summary counts an order as: its type, and for the types whose variants
    are separate rules its variant (a withdrawal condition's kind: IF CONTACT LOST and IF
    RADAR WARNS are the sea's; the gear put aboard or on land; an attack by fighters off
    a carrier), so the counts show which of the engine's orders a war exercised."""
    from moderator.orders import model as m

    name = type(order).__name__
    if isinstance(order, m.CombatCondition):
        return f"{name} {order.kind}"
    if isinstance(order, m.BuildShipGear):
        return f"{name} {order.kind}" + (" aboard" if order.ship else "")
    if isinstance(order, m.Attack) and _at_sea(order.origin):  # fighters off their carriers
        return f"{name} from the sea"
    return name


def _at_sea(place: str) -> bool:
    from moderator.world.loader import load_world

    territory = load_world("1914").territories.get(place)  # simulate plays the 1914 scenario
    return territory is not None and territory.is_sea


def commanded(svc: Service, bots: list[str]) -> list[tuple[str, str]]:
    """(giver, nation): each nation whose orders a bot's player gives by the rules, from
    its own seat with a PROXY FOR line (service/proxy.py): the army of a socialist
    revolution its commander orders (Phase 9, Mutinies: phase9_mutiny.commander_of), and a
    government in exile's forces its host commands (Conquest: engine/exile.py). A nation
    with no units left has nothing to order."""
    from moderator.engine.exile import host_of
    from moderator.engine.phase9_mutiny import commander_of

    state = svc.position(svc.game(GAME))
    out = []
    for nation in sorted(state.nations):
        giver = commander_of(state, nation) or host_of(state, nation)
        if giver in bots and giver != nation and state.nation_units(nation):
            out.append((giver, nation))
    return out


def _bot_turn(svc: Service, nation: str, seed: str, summary: Summary, password: bool,
              report: dict[str, Any] | None = None, giver: str | None = None) -> Turn:
    """`nation`'s orders by its bot; with `giver`, written by the giver's bot for it
    (PROXY FOR `nation` from the giver's seat)."""
    game = svc.game(GAME)
    writer = giver or nation
    header = {"game": GAME, "nation": writer, "turn": str(game.turn)}
    if password:
        header["password"] = seat_password(writer)
    if giver is not None:
        header["proxy for"] = svc.scenario(game).nations[nation].name
        summary.proxies[f"{giver} for {nation}"] += 1
    state = svc.position(game)
    if report is not None:  # its mails: what a player's tool reads (bots/fog.py)
        state = fogged(state, svc.scenario(game), svc.world(game), nation, report["report"], report.get("alliance"),
                       report.get("bulletin"))
    turn = play(state, svc.world(game), svc.scenario(game), nation, seed, header=header)
    summary.written += len(turn.orders)
    summary.kinds.update(order_kind(o) for o in turn.orders)
    summary.dropped.update(code for _, code in turn.dropped)
    summary.drop_bugs += [f"turn {state.turn} {nation}: {bug}" for bug in turn.bugs]
    return turn


def _direct_run(svc: Service, turns: int, seed: str, seats: list[str] | None,
                progress: Callable[[str], None], deployment: bool = False,
                start: Callable[[Service], None] | None = None) -> Summary:
    everyone, bots = _setup(svc, seed, seats, deployment)
    if start is not None:
        start(svc)
    summary = Summary("direct" + (", deployment turn first" if deployment else ""), seed, bots)
    turns += deployment  # turn 0 first
    for n in range(turns):
        game = svc.game(GAME)
        texts = {}
        proxied = commanded(svc, bots)
        with timed(summary, "bots"):
            for nation in writers(bots, proxied):
                texts[nation] = _bot_turn(svc, nation, seed, summary, password=False)
            given = {(giver, nation): _bot_turn(svc, nation, seed, summary, password=False, giver=giver)
                     for giver, nation in proxied}
        with timed(summary, "intake"):
            for nation, turn in texts.items():
                with svc.store.transaction():
                    receipt = take_orders(svc, game, nation, turn.text)
                _receipted(summary, game.turn, nation, turn, receipt.kept, receipt.errors, receipt.summary,
                           receipt.text)
            for (giver, nation), turn in given.items():
                _proxy_in_process(svc, summary, giver, nation, turn)
        try:
            with timed(summary, "resolution"):
                resolve_game(svc, GAME)
        except Exception as exc:  # noqa: BLE001 - a crash is what the simulation is for: report it
            summary.errors.append(f"turn {game.turn}: {type(exc).__name__}: {exc}")
            break
        summary.turns += 1
        _count_events(svc, summary, game.turn)
        progress(_progress_line(summary, n + 1, turns))
    _finish(svc, summary)
    return summary


def writers(bots: list[str], proxied: list[tuple[str, str]]) -> list[str]:
    """The bots that write their own nation's orders: not a government in exile whose host
    is a bot (the host's orders come first and replace its own: service/proxy.py)."""
    return [b for b in bots if b not in {nation for _, nation in proxied}]


def _receipted(summary: Summary, turn: int, nation: str, bot: Turn, kept: int, errors: int, headline: str,
               text: str) -> None:
    """A receipt's count against what the bot wrote: any order not kept is a bug."""
    summary.accepted += kept
    if errors or kept != len(bot.orders):
        summary.refused.append(f"turn {turn} {nation}: {headline} ({whose_bug(bot)})\n{text}")


def _proxy_in_process(svc: Service, summary: Summary, giver: str, nation: str, bot: Turn) -> None:
    """Orders given for `nation` by `giver` in process, as service/proxy.py takes them from
    a mail: the service's refusal if any (a bug: the rules give the giver that command),
    else the nation's orders stored with the marker saying who gave them."""
    from moderator.service import proxy

    game = svc.game(GAME)
    why = proxy.refusal(svc, game, giver, nation, svc.position(game))
    if why is not None:
        summary.refused.append(f"turn {game.turn} {giver} for {nation}: proxy refused: {why[0]}")
        return
    text, _ = proxy.split(bot.text)
    marker = proxy.PROXY_MARKER.format(giver=svc.scenario(game).nations[giver].name)
    with svc.store.transaction():
        receipt = take_orders(svc, game, nation, text, preface=marker)
    _receipted(summary, game.turn, f"{giver} for {nation}", bot, receipt.kept, receipt.errors, receipt.summary,
               receipt.text)


def peak_memory_mb() -> float:
    """Peak resident memory of this process (Linux reports kilobytes, macOS bytes)."""
    import resource
    import sys

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _count_events(svc: Service, summary: Summary, turn: int) -> None:
    record = svc.store.turn_record(GAME, turn)
    if record is not None:
        events = json.loads(record.events)
        summary.events.update(e["code"] for e in events)
        summary.joins += [(turn, e["args"]["nation"], e["args"]["side"]) for e in events if e["code"] == "joined"]


def victory_table(result: Any) -> str:
    """The ruleset's victory standings as a table (one row per nation, its fields and, if
    it has one, its combined mean), best first; anything else as it prints."""
    rows = list(result) if isinstance(result, (list, tuple)) else [result]
    if not rows or not dataclasses.is_dataclass(rows[0]):
        return str(result)
    names = [f.name for f in dataclasses.fields(rows[0])]
    has_mean = hasattr(rows[0], "mean")
    if has_mean:
        rows.sort(key=lambda r: -float(r.mean))

    def cell(value: Any) -> str:
        return f"{value:.0f}" if isinstance(value, float) else str(value)

    table = [[*names, *(["mean"] if has_mean else [])]]
    table += [[cell(getattr(r, n)) for n in names] + ([cell(float(r.mean))] if has_mean else []) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return "\n" + "\n".join("  " + "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
                            for row in table)


def whose_bug(turn: Turn) -> str:
    """Which side of a refused bot order is wrong: if the text does not read back as the
    orders the bot checked, the echo or the parser; if it does, the checker judged the same
    orders twice differently (or the position moved between the bot's check and the mail)."""
    from moderator.orders import parse_orders
    from moderator.orders.echo import normalize_order

    # Case aside: the text names nations as the orders do ("Venezuela"), the bot's orders by id.
    read = [normalize_order(o).lower() for o in parse_orders(turn.text).orders]
    meant = [normalize_order(o).lower() for o in turn.orders]
    if read != meant:
        wrong = next((f"{a!r} read back as {b!r}" for a, b in zip(meant, read, strict=False) if a != b),
                     f"{len(meant)} orders read back as {len(read)}")
        return f"echo or parser: {wrong}"
    return "checker: the same orders, judged differently by the service"


def _progress_line(summary: Summary, done: int, total: int) -> str:
    width = 26
    filled = width * done // max(total, 1)
    return (f"[{'#' * filled}{'.' * (width - filled)}] turn {done}/{total}: {summary.written} orders written, "
            f"{summary.accepted} accepted, {summary.events['battle']} battles")


def _finish(svc: Service, summary: Summary) -> None:
    """Events, review items, replay of every turn, victory."""
    game = svc.game(GAME)
    for turn in range(0, game.turn):  # turn 0: a deployment turn, if the game had one
        if svc.store.turn_record(GAME, turn) is None:
            continue
        with timed(summary, "replay"):
            try:
                summary.replays[turn] = replay(svc, GAME, turn)[0]
            except Exception as exc:  # noqa: BLE001
                summary.errors.append(f"replay of turn {turn}: {type(exc).__name__}: {exc}")
                summary.replays[turn] = False
    summary.peak_mb = peak_memory_mb()
    by_turn: dict[int, Counter[str]] = defaultdict(Counter)
    for item in svc.store.reviews(GAME, status=None):
        by_turn[item.turn if item.turn is not None else 0][item.kind] += 1
        if item.kind in JUDGEMENT and not judgement.named(item.kind, json.loads(item.detail or "{}")):
            summary.unnamed.append(f"turn {item.turn}: {item.kind} not named in docs/rules-coverage.md: "
                                   f"{item.summary}")
    summary.reviews = dict(by_turn)
    victory = svc.ruleset(game).victory
    if victory is not None:
        try:
            summary.victory = victory_table(victory(svc.position(game), svc.world(game), svc.scenario(game)))
        except Exception as exc:  # noqa: BLE001
            summary.errors.append(f"victory check: {type(exc).__name__}: {exc}")


# ---- mail mode -----------------------------------------------------------------------------


RECEIPT = re.compile(r"Receipt: .*, turn (\d+) \((\d+) orders?, (\d+) errors?\)")


def _mail_run(turns: int, seed: str, seats: list[str] | None, root: Path, maps: bool,
              progress: Callable[[str], None], say: Callable[[str], None], deployment: bool = False,
              start: Callable[[Service], None] | None = None, apart: bool = False) -> Summary:
    from moderator.mail.server import EmbeddedMailServer
    from moderator.service.daemon import Daemon

    everyone = playable(Service(store=Store.at(root / "probe.db")))
    users = {MODERATOR_ADDRESS: "moderator-pw", UMPIRE: "umpire-pw", **{f"{n}@{DOMAIN}": f"mail-{n}" for n in everyone}}
    with EmbeddedMailServer(root / "mail", users=users) as server:
        svc = Service(store=Store.at(root / "simulate.db"),
                      mail=server.client_config(MODERATOR_ADDRESS, users[MODERATOR_ADDRESS], UMPIRE), say=say,
                      next_deadline=lambda now, _game: now + timedelta(days=10), maps=maps)
        _, bots = _setup(svc, seed, seats, deployment)
        if start is not None:
            start(svc)
        summary = Summary(("mail" if maps else "mail, reports without maps")
                          + (", deployment turn first" if deployment else ""), seed, bots)
        turns += deployment  # turn 0 first
        boxes = {n: Mailbox(server.imap_port, f"{n}@{DOMAIN}", users[f"{n}@{DOMAIN}"]) for n in everyone}
        daemon: Daemon | ApartDaemon = (
            ApartDaemon(svc, [str(root), server.host, str(server.imap_port), str(server.smtp_port), MODERATOR_ADDRESS,
                              users[MODERATOR_ADDRESS], UMPIRE, "maps" if maps else "no-maps"]) if apart
            # IDLE rather than a poll every quarter second: a poll is a new IMAP login and
            # costs CPU the bots and the daemon's own work then wait for (a fifth of the soak's).
            else Daemon(svc, poll_seconds=2, deadline_seconds=0.25, countdown_seconds=0, idle=True))
        daemon.start()
        read: dict[str, dict[str, Any]] = {}
        try:
            for n in range(turns):
                if not _mail_turn(svc, server.smtp_port, daemon, boxes, bots, everyone, seed, summary, read):
                    break
                summary.turns += 1
                _count_events(svc, summary, svc.game(GAME).turn - 1)
                progress(_progress_line(summary, n + 1, turns))
        finally:
            daemon.stop()
            for box in boxes.values():
                box.close()
        summary.faults = list(daemon.faults)
        if isinstance(daemon, ApartDaemon):
            summary.daemon_peak_mb = daemon.peak_kb / 1024
            summary.seconds["reports"] += daemon.report_seconds  # built in the daemon's process
            summary.seconds["resolution"] -= daemon.report_seconds
        for row in svc.store.messages("in"):  # a bot's mail the daemon could not handle
            if row.status != "processed":
                summary.errors.append(f"incoming mail {row.id} from {row.sender}: {row.status} {row.note}".strip())
        _finish(svc, summary)
        return summary


class ApartDaemon:
    """The daemon in a child process (bots/daemon_apart.py), driven as the soak drives its
    own: start, `resolved` (here read from the database: the game's turn moved on), stop.
    Its peak memory and the seconds it spent building reports come back when it stops."""

    def __init__(self, svc: Service, args: list[str]) -> None:
        self.svc, self.args = svc, args
        self.child: subprocess.Popen[str] | None = None
        self.resolved = self  # clear() and wait() below
        self.turn = 0
        self.peak_kb, self.report_seconds = 0, 0.0
        self.faults: list[Fault] = []

    def start(self) -> None:
        self.child = subprocess.Popen([sys.executable, "-m", "moderator.bots.daemon_apart", *self.args],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def clear(self) -> None:
        self.turn = self.svc.game(GAME).turn

    def wait(self, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.svc.game(GAME).turn > self.turn:
                return True
            time.sleep(0.1)
        return False

    def stop(self) -> None:
        if self.child is None:
            return
        out, _ = self.child.communicate(timeout=120)  # closes its standard input: it stops
        done = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        self.peak_kb, self.report_seconds = int(done.get("peak_kb", 0)), float(done.get("report_seconds", 0.0))
        self.faults = [Fault(**f) for f in done.get("faults", [])]
        if self.child.returncode:  # it died: whatever it caught is lost with it
            self.faults.append(Fault("the daemon's process", f"exit status {self.child.returncode}", ""))


def _mail_turn(svc: Service, smtp_port: int, daemon: Any, boxes: dict[str, Mailbox], bots: list[str],
               everyone: list[str], seed: str, summary: Summary, read: dict[str, dict[str, Any]]) -> bool:
    """One turn through mail; `read`: each seat's last report.json and its alliance's
    (the position its bot plays comes from them: bots/fog.py), updated with this turn's."""
    game = svc.game(GAME)
    turn_no = game.turn
    proxied = commanded(svc, bots)
    with timed(summary, "bots"):
        turns = {nation: _bot_turn(svc, nation, seed, summary, password=True, report=read.get(nation))
                 for nation in writers(bots, proxied)}
        given = {(giver, nation): _bot_turn(svc, nation, seed, summary, password=True, report=read.get(nation),
                                            giver=giver) for giver, nation in proxied}
    # Receipts: one for a seat's own orders; a proxy receipt for orders given for another
    # nation, to the giver and to that nation's seat if it has one (service/proxy.py).
    wanted: Counter[str] = Counter(list(turns))
    for giver, nation in proxied:
        wanted[giver] += 1
        if nation in everyone and nation != giver:
            wanted[nation] += 1
    with timed(summary, "intake"):
        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as smtp:
            for writer, turn in [*turns.items(), *((g, t) for (g, _), t in given.items())]:
                msg = EmailMessage()
                msg["From"], msg["To"], msg["Subject"] = f"{writer}@{DOMAIN}", MODERATOR_ADDRESS, f"Orders turn {turn_no}"
                msg.set_content(turn.text)
                smtp.send_message(msg)
        receipts = _wait({n: boxes[n] for n in wanted},
                         lambda n, mails: sum(1 for m in mails if _is_receipt(m)) >= wanted[n], 120)
        names = {info.name: nid for nid, info in svc.scenario(game).nations.items()}
        for nation, mails in receipts.items():
            got = [m for m in mails if _is_receipt(m)]
            own = [m for m in got if not _is_proxy_receipt(m)]
            if len(got) != wanted[nation] or len(own) != (nation in turns):
                summary.delivery.append(f"turn {turn_no} {nation}: {len(own)} receipts and {len(got) - len(own)} "
                                        f"proxy receipts, expected {int(nation in turns)} and "
                                        f"{wanted[nation] - int(nation in turns)}")
            summary.mails["receipt"] += len(own)
            summary.mails["proxy receipt"] += len(got) - len(own)
            for m in got:
                match = RECEIPT.search(_subject(m))
                kept, errors = (int(match.group(2)), int(match.group(3))) if match else (0, -1)
                if not _is_proxy_receipt(m):
                    bot, writer = turns.get(nation), nation
                else:  # counted once, in the giver's box: "Proxy Receipt: <nation's name>, turn ..."
                    about = names.get(_subject(m).split("Proxy Receipt: ", 1)[-1].split(",", 1)[0], "")
                    bot, writer = given.get((nation, about)), f"{nation} for {about}"
                if bot is not None:
                    _receipted(summary, turn_no, writer, bot, kept, errors, _subject(m), _text(m))
    daemon.resolved.clear()
    svc.store.update_game(GAME, deadline=svc.clock() - timedelta(seconds=1))
    with timed(summary, "resolution"):
        before = svc.report_seconds
        if not daemon.resolved.wait(900):
            game = svc.game(GAME)
            summary.errors.append(f"turn {turn_no} was not resolved: {game.problem or 'no reason given'}")
            return False
    built = svc.report_seconds - before  # the daemon built the reports within the resolution
    summary.seconds["reports"] += built
    summary.seconds["resolution"] -= built
    with timed(summary, "sending"):
        expected = _expected_reports(svc, everyone)
        reports = _wait(boxes, lambda _, mails: sum(1 for m in mails if not _is_receipt(m)) >= 2, 300)
        _settle(svc)
        for nation in everyone:
            reports[nation] += boxes[nation].new()
    looked = _Looked.at(svc, turn_no)
    for nation, mails in sorted(reports.items()):
        kinds = Counter(_kind(m) for m in mails)
        if kinds != expected[nation]:
            summary.delivery.append(f"turn {turn_no} {nation}: got {dict(kinds)}, expected {dict(expected[nation])}")
        summary.mails.update(kinds)
        wrong = [m["To"] for m in mails if str(m["To"]) != f"{nation}@{DOMAIN}"]
        if wrong:
            summary.delivery.append(f"turn {turn_no} {nation}: mail addressed to {wrong}")
        for m in mails:
            summary.leaks += _leaks(svc, looked, nation, m)
        alliance = next((_report_json(m) for m in mails if _kind(m) == "alliance"), None)
        news = next((_report_json(m) for m in mails if _kind(m) == "bulletin"), None)
        for data in (_report_json(m) for m in mails if _kind(m) == "report"):
            if data is None:
                continue
            about = str(data.get("nation"))  # its own, or the report of an army it commands
            if about == nation:
                summary.report_mismatch += _held_to_position(looked, nation, data)
            read[about] = {"report": data, "alliance": alliance if about == nation else None, "bulletin": news}
    return True


def _settle(svc: Service, timeout: float = 60) -> None:
    """Until the outbox has nothing left to send."""
    end = time.monotonic() + timeout
    while time.monotonic() < end and svc.store.messages("out", "queued"):
        time.sleep(0.2)
    time.sleep(0.5)


def _expected_reports(svc: Service, everyone: list[str]) -> dict[str, Counter[str]]:
    """Each seat's mails after a resolution: its report, the bulletin, and its alliance's
    status when it is on a side; and the report of a nation without a seat that it
    commands by the rules (service/turns.py report_addresses: the Mutineers' to the
    player who commands them)."""
    from moderator.engine.phase9_mutiny import commander_of

    state = svc.position(svc.game(GAME))
    out = {}
    for nation in everyone:
        kinds = Counter({"report": 1, "bulletin": 1})
        if state.nations[nation].side != "neutral":
            kinds["alliance"] = 1
        out[nation] = kinds
    for nation in sorted(state.nations):
        commander = commander_of(state, nation)
        if nation not in everyone and commander in out:
            out[commander]["report"] += 1
    return out


def _kind(msg: EmailMessage) -> str:
    if _is_receipt(msg):
        return "receipt"
    data = _report_json(msg)
    return {"nation": "report", "alliance": "alliance", "bulletin": "bulletin"}.get(
        str(data.get("kind")) if data else "", f"other: {_subject(msg)}")


def _is_receipt(msg: EmailMessage) -> bool:
    return "Receipt:" in _subject(msg)


def _is_proxy_receipt(msg: EmailMessage) -> bool:
    return "Proxy Receipt:" in _subject(msg)  # "Re: Proxy Receipt: <nation>, turn ..."


# A mail's subject and its report.json, read once: the soak looks at each mail's again and
# again (waiting for a seat's mail, counting kinds, the leak and position checks), and the
# email package parses a header or walks the MIME parts anew at every look.
_SUBJECTS: weakref.WeakKeyDictionary[EmailMessage, str] = weakref.WeakKeyDictionary()
_REPORTS: weakref.WeakKeyDictionary[EmailMessage, dict[str, Any] | None] = weakref.WeakKeyDictionary()


def _subject(msg: EmailMessage) -> str:
    if msg not in _SUBJECTS:
        _SUBJECTS[msg] = str(msg["Subject"])
    return _SUBJECTS[msg]


def _report_json(msg: EmailMessage) -> dict[str, Any] | None:
    """The mail's report.json (the same dict at every call: read, never changed), or None."""
    if msg not in _REPORTS:
        _REPORTS[msg] = _read_report_json(msg)
    return _REPORTS[msg]


def _read_report_json(msg: EmailMessage) -> dict[str, Any] | None:
    for part in msg.walk():
        if part.get_filename() == "report.json":
            payload = part.get_payload(decode=True)
            if isinstance(payload, bytes):
                data = json.loads(payload)
                return data if isinstance(data, dict) else None
    return None


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""


@dataclass
class _Looked:
    """What a turn's mail is held to, read once for all of it: the game, the position after
    the turn, the turn's events and the nations' names."""

    turn: int
    game: Game
    state: GameState
    world: World
    nations: dict[str, Nation]  # the scenario's
    events: list[dict[str, Any]]

    @staticmethod
    def at(svc: Service, turn: int) -> _Looked:
        game = svc.game(GAME)
        record = svc.store.turn_record(GAME, turn)
        return _Looked(turn, game, svc.position(game), svc.world(game), svc.scenario(game).nations,
                       json.loads(record.events) if record is not None else [])


def _leaks(svc: Service, looked: _Looked, nation: str, msg: EmailMessage) -> list[str]:
    """What a seat's mail shows that the seat may not see: a nation's report of another
    nation, an alliance status of a side it is not on, or sheets of nations off that side;
    then, part by part, what the report holds against the turn's events and the position
    (bots/leaks.py: events its readers did not see, others' units, sightings)."""
    from moderator.bots.leaks import report_leaks

    data = _report_json(msg)
    if not data:
        return []
    turn, state = looked.turn, looked.state
    readers = [nation]
    if data.get("kind") == "nation" and data.get("nation") != nation:
        from moderator.engine.phase9_mutiny import commander_of

        about = str(data.get("nation"))
        if commander_of(state, about) != nation or svc.store.seat(GAME, about) is not None:
            return [f"turn {turn} {nation}: got the report of {data.get('nation')}"]
        readers = [about]  # the army its player commands: what that army saw (service/turns.py)
    side = state.nations[readers[0]].side
    side_members = sorted(n for n, ns in state.nations.items() if ns.side == side) if side != "neutral" else readers
    if data.get("kind") == "alliance":
        sides = {data.get("side")} | {sh.get("side") for sh in data.get("sheets", [])}
        if sides != {side}:
            return [f"turn {turn} {nation} ({side}): got an alliance status with sides {sorted(map(str, sides))}"]
        readers = sorted(n for n, ns in state.nations.items() if ns.side == side)
    names = {nid: info.name for nid, info in looked.nations.items()}
    return [f"turn {turn} {nation} ({data.get('kind')}): {leak}"
            for leak in report_leaks(data, readers, names, looked.events, state, looked.world, side_members)]


def _held_to_position(looked: _Looked, nation: str, data: dict[str, Any]) -> list[str]:
    """What the report's own sheet says, against the position the bot plays next: the
    turn, the treasury, the units, the technology and the wars must agree."""
    game, state = looked.game, looked.state
    ns = state.nations[nation]
    sheet = data.get("sheet", {})
    units: dict[str, Counter[str]] = defaultdict(Counter)
    for u in state.nation_units(nation):
        units[u.location][u.kind] += 1
    mine = {p: dict(c) for p, c in units.items()}
    said = {"turn": data.get("turn"), "saved": sheet.get("saved"), "units": sheet.get("units"),
            "tech": {k: v for k, v in (sheet.get("tech") or {}).items() if v},
            "at_war_with": sorted(sheet.get("at_war_with") or [])}
    names = looked.nations
    truth = {"turn": game.turn, "saved": ns.saved, "units": mine, "tech": {k: v for k, v in ns.tech.items() if v},
             "at_war_with": sorted(names[n].name if n in names else n for n in ns.at_war_with)}  # the report names them
    return [f"turn {game.turn - 1} {nation}: report.json says {k}={said[k]!r}, the position has {truth[k]!r}"
            for k in truth if said[k] != truth[k]]


class Mailbox:
    """A seat's INBOX over IMAP: the mails it has not read yet (a player's mail client, which
    stays logged in: a login and logout per look cost a fifth of a second, dozens a turn)."""

    def __init__(self, port: int, address: str, password: str) -> None:
        self.port, self.address, self.password = port, address, password
        self.seen: set[int] = set()
        self._client: Any = None

    def _connected(self) -> Any:
        from imapclient import IMAPClient

        if self._client is None:
            client = IMAPClient("127.0.0.1", port=self.port, ssl=False, timeout=30)
            client.login(self.address, self.password)
            client.select_folder("INBOX", readonly=True)
            self._client = client
        return self._client

    def close(self) -> None:
        if self._client is not None:
            try:
                self._client.logout()
            except Exception:  # noqa: BLE001 - the server may be gone already; nothing to keep
                pass
            self._client = None

    def new(self) -> list[EmailMessage]:
        try:
            client = self._connected()
            client.noop()  # the server tells what arrived since the last look
            uids = [u for u in client.search(["ALL"]) if u not in self.seen]
            data = client.fetch(uids, [b"BODY.PEEK[]"]) if uids else {}
        except Exception:  # a dropped connection: log in again, once
            self._client = None
            client = self._connected()
            uids = [u for u in client.search(["ALL"]) if u not in self.seen]
            data = client.fetch(uids, [b"BODY.PEEK[]"]) if uids else {}
        out = []
        for uid in sorted(data):
            self.seen.add(uid)
            msg = email.message_from_bytes(data[uid][b"BODY[]"], policy=policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out


def _wait(boxes: dict[str, Mailbox], enough: Callable[[str, list[EmailMessage]], bool],
          timeout: float) -> dict[str, list[EmailMessage]]:
    """New mail of each box, read until `enough` (the box's nation, its mail) holds for
    every box (or time runs out)."""
    got: dict[str, list[EmailMessage]] = {n: [] for n in boxes}
    end = time.monotonic() + timeout
    waiting = set(boxes)
    while waiting and time.monotonic() < end:
        for n in sorted(waiting):
            got[n] += boxes[n].new()
            if enough(n, got[n]):
                waiting.discard(n)
        if waiting:
            time.sleep(0.3)
    return got
