"""The moderator's verbs: run, demo, game, seat, submit, resolve, replay, state, report.
(adjust, enter and review are in moderation_commands.py.)"""

from __future__ import annotations

import argparse
import json
import secrets
import signal
import smtplib
import sys
import threading
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from moderator.orders.messages import counted

SubParsers = "argparse._SubParsersAction[argparse.ArgumentParser]"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", type=Path, default=None,
                        help="configuration file (default: $MODERATOR_CONFIG or ./moderator.toml)")

    p = sub.add_parser("run", parents=[common], help="run the daemon: poll mail, resolve at deadlines, send reports")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("demo", help="a local demo game with its own mail server (what `make run` starts)")
    p.add_argument("--root", type=Path, default=Path("var/demo"), help="where the demo keeps its files")
    p.add_argument("--deadline-seconds", type=float, default=150, help="time until turn 1 resolves")
    p.add_argument("--poll-seconds", type=float, default=5)
    p.add_argument("--exit-after-turn", action="store_true", help="stop once turn 1's reports are sent")
    p.add_argument("--no-robots", action="store_true", help="demo players send nothing by themselves")
    p.set_defaults(func=cmd_demo)

    game = sub.add_parser("game", help="create, list or show games").add_subparsers(dest="game_verb", required=True)
    p = game.add_parser("new", parents=[common], help="create a game at its opening position")
    p.add_argument("game")
    p.add_argument("--scenario", default="1914")
    p.add_argument("--title", default="")
    p.add_argument("--deadline", type=datetime.fromisoformat, default=None,
                   help="first deadline, ISO 8601 with time zone (default: end of day ten)")
    p.add_argument("--deployment", action="store_true",
                   help="start with a deployment turn (turn 0): players place the free half of their "
                        "starting units with DEPLOY orders (Initial Deployment)")
    p.add_argument("--cycle-days", type=int, default=10,
                   help="days from one update to the next deadline (Miscellaneous: ten; orders due at the end of "
                        "the last day, UTC)")
    p.add_argument("--correction-days", type=int, default=2,
                   help="days after each update for error corrections (default 2)")
    p.add_argument("--address", default="", metavar="EMAIL",
                   help="the game's own address: mail sent to it is for this game without a GAME line (several "
                        "games, one mailbox; moderator+GAME@... works without it)")
    p.add_argument("--reminders", default="48,12", metavar="HOURS",
                   help="reminders to seats without orders, hours before the deadline (default 48,12; '' for none)")
    p.set_defaults(func=cmd_game_new)
    p = game.add_parser("list", parents=[common], help="every game: its turn, deadline and state")
    p.set_defaults(func=cmd_game_list)
    p = game.add_parser("show", parents=[common], help="one game: its settings, turn and seats")
    p.add_argument("game")
    p.set_defaults(func=cmd_game_show)
    p = game.add_parser("finish", parents=[common],
                        help="end a game that is over (an outright victory, or the main war over after turn 26): "
                             "no more turns, reminders or orders")
    p.add_argument("game")
    p.set_defaults(func=cmd_game_finish)

    seat = sub.add_parser("seat", help="give nations to players").add_subparsers(dest="seat_verb", required=True)
    for verb, helptext in (("add", "seat a player"), ("replace", "hand a nation to a new player")):
        p = seat.add_parser(verb, parents=[common], help=helptext)
        p.add_argument("--game", required=True)
        p.add_argument("--nation", required=True)
        p.add_argument("--email", required=verb == "add")
        if verb == "replace":
            p.add_argument("--from-pool", type=int, metavar="ID",
                           help="the replacement pool's player #ID takes the seat (`moderator pool list`)")
        p.add_argument("--also", action="append", default=[], metavar="EMAIL",
                       help="another address the player may send orders from (repeatable); orders from any "
                            "address not registered for the seat are refused, even with the right password")
        p.add_argument("--player", default="")
        p.add_argument("--password", default=None, help="seat password (default: a new random one, printed once)")
        p.set_defaults(func=cmd_seat_add)
    p = seat.add_parser("list", parents=[common], help="a game's seats: nation and player's address")
    p.add_argument("--game", required=True)
    p.set_defaults(func=cmd_seat_list)

    pool = sub.add_parser("pool", help="the replacement pool: players waiting for a seat").\
        add_subparsers(dest="pool_verb", required=True)
    p = pool.add_parser("list", parents=[common], help="who waits, for which side")
    p.add_argument("--all", action="store_true", help="those seated already too")
    p.set_defaults(func=cmd_pool_list)
    p = pool.add_parser("add", parents=[common], help="put a player on the pool (players can sign up by mail)")
    p.add_argument("--name", required=True)
    p.add_argument("--email", required=True)
    p.add_argument("--side", default="any", help="Central Powers, Allies or any (default)")
    p.add_argument("--game", default="", help="only for this game (default: any)")
    p.set_defaults(func=cmd_pool_add)

    p = sub.add_parser("submit", help="mail an orders file to the moderator (a player's tool)")
    p.add_argument("file", type=Path)
    p.add_argument("--demo", metavar="NATION", help="use the running demo's addresses for NATION")
    p.add_argument("--from", dest="sender")
    p.add_argument("--to")
    p.add_argument("--smtp", default="127.0.0.1:25", help="HOST:PORT of the SMTP server")
    p.add_argument("--check", action="store_true", help="only check: the moderator answers without submitting")
    p.add_argument("--demo-root", type=Path, default=Path("var/demo"))
    p.set_defaults(func=cmd_submit)

    p = sub.add_parser("resolve", parents=[common], help="resolve the current turn now (deadline or not)")
    p.add_argument("--game", required=True)
    p.set_defaults(func=cmd_resolve)

    p = sub.add_parser("replay", parents=[common], help="re-run a past turn from stored inputs and compare")
    p.add_argument("--game", required=True)
    p.add_argument("--turn", type=int, required=True)
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("verify", parents=[common],
                       help="recompute every die of a resolved turn from its revealed seed (docs/dice.md)")
    p.add_argument("--game", required=True)
    p.add_argument("--turn", type=int, required=True)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("report", parents=[common], help="write a nation's report of a resolved turn to files")
    p.add_argument("--game", required=True)
    p.add_argument("--nation", required=True)
    p.add_argument("--turn", type=int, default=None, help="the resolved turn (default: the last one)")
    p.add_argument("--out", type=Path, default=Path("."),
                   help="folder for report.txt, report.html, report.json and map.png")
    p.add_argument("--json", action="store_true",
                   help="print the report's content as JSON (what report.json holds) instead of writing files")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("state", parents=[common], help="the game state (a nation's own part with --nation)")
    p.add_argument("--game", required=True)
    p.add_argument("--nation", default=None)
    p.add_argument("--turn", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_state)


def _service(args: argparse.Namespace, need_mail: bool = False) -> Any:
    from moderator.service.config import load_config
    from moderator.service.context import Service
    from moderator.store.db import Store

    cfg = load_config(args.config)
    if need_mail and cfg.mail is None:
        raise SystemExit("this needs a [mail] section in the configuration file (see moderator.example.toml)")
    if need_mail and cfg.missing_secrets:
        raise SystemExit(f"the [mail] section names the environment variable(s) {', '.join(cfg.missing_secrets)}, "
                         "which are not set: export them before starting the daemon")
    return Service(store=Store(cfg.database), mail=cfg.mail, say=lambda s: print(s, flush=True),
                   archive=cfg.archive, reports_dir=cfg.reports, maps=cfg.maps, site_dir=cfg.site), cfg


def can_send(cfg: Any) -> bool:
    """Mail can go out from this process: a [mail] section with its passwords set."""
    return cfg.mail is not None and not cfg.missing_secrets


def cmd_run(args: argparse.Namespace) -> int:
    from moderator.service.daemon import Daemon
    from moderator.store.db import AlreadyRunning

    svc, cfg = _service(args, need_mail=True)
    svc.say = _timestamped
    daemon = Daemon(svc, poll_seconds=cfg.poll_seconds, deadline_seconds=cfg.deadline_check_seconds, idle=cfg.idle)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        daemon.start()
    except AlreadyRunning as exc:
        print(f"moderator run: {exc}", file=sys.stderr)
        return 1
    print(f"moderator running: polling {cfg.mail.imap.host} every {cfg.poll_seconds:g} s"
          + (" and waiting for new mail (IMAP IDLE)" if cfg.idle else "") + "; Ctrl-C stops.", flush=True)
    try:
        while not stop.wait(1):
            pass
    except KeyboardInterrupt:
        pass
    daemon.stop()
    return 0


def _timestamped(line: str) -> None:
    """The daemon's console lines, each with its UTC time (for the log it usually ends up in)."""
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M:%S}Z {line}", flush=True)


def cmd_demo(args: argparse.Namespace) -> int:
    from moderator.service.demo import run_demo

    return run_demo(args.root, deadline_seconds=args.deadline_seconds, poll_seconds=args.poll_seconds,
                    exit_after_turn=args.exit_after_turn, robots=not args.no_robots)


def cmd_game_new(args: argparse.Namespace) -> int:
    from moderator.service.games import describe_deadline, new_game
    from moderator.service.turns import dice_commitment

    svc, _ = _service(args)
    try:
        reminders = ",".join(f"{float(h):g}" for h in args.reminders.replace(" ", "").split(",") if h)
    except ValueError:
        raise SystemExit(f"--reminders takes hours before the deadline, e.g. 48,12 (not {args.reminders!r})") from None
    if args.cycle_days < 1 or not 0 <= args.correction_days < args.cycle_days:
        raise SystemExit("the cycle is at least one day, and the correction window shorter than the cycle")
    game = new_game(svc, args.game, args.scenario, title=args.title, deadline=args.deadline,
                    deployment=args.deployment, cycle_days=args.cycle_days)
    game = svc.store.update_game(game.id, correction_days=args.correction_days, reminder_hours=reminders,
                                 address=args.address.strip().lower())
    what = "turn 0, the deployment turn (DEPLOY orders only)" if game.turn == 0 else f"turn {game.turn}"
    print(f"created game {game.id} ({game.title}), {what}; orders due {describe_deadline(game.deadline)}")
    print(f"dice of turn {game.turn}: the seed's SHA-256 is {dice_commitment(game, game.turn)} (publish it; "
          "the seed comes with the results)")
    return 0


def cmd_game_list(args: argparse.Namespace) -> int:
    from moderator.service.games import describe_deadline

    svc, _ = _service(args)
    for g in svc.store.games():
        print(f"{g.id:<16} {g.scenario:<6} turn {g.turn:<3} {g.status:<10} due {describe_deadline(g.deadline)}")
    return 0


def cmd_game_finish(args: argparse.Namespace) -> int:
    from moderator.service.games import finish_game

    svc, _ = _service(args)
    try:
        game = finish_game(svc, args.game)
    except (LookupError, ValueError) as exc:
        raise SystemExit(f"moderator game finish: {exc}") from None
    last = f"after turn {game.turn - 1}" if game.turn > 1 else "before any turn was resolved"
    print(f"game {game.id} is finished {last}: its last reports, with the victory table for everyone, are the "
          "result; it is no longer resolved, reminded or open to orders")
    return 0


def cmd_game_show(args: argparse.Namespace) -> int:
    from moderator.service.games import describe_deadline, turn_label
    from moderator.service.turns import dice_commitment

    svc, _ = _service(args)
    g = svc.game(args.game)
    scenario = svc.scenario(g)
    subs = svc.store.current_submissions(g.id, g.turn)
    print(f"{g.title} [{g.id}], scenario {g.scenario}, ruleset {g.ruleset} v{g.ruleset_version}")
    print(f"turn {g.turn} ({turn_label(scenario, g.turn)}), {g.status}, orders due {describe_deadline(g.deadline)}")
    print(f"dice of turn {g.turn}: committed, the seed's SHA-256 is {dice_commitment(g, g.turn)}")
    print(f"cycle: {g.cycle_days} days, corrections in the first {g.correction_days}, reminders "
          + (f"{g.reminder_hours.replace(',', ' h, ')} h before the deadline" if g.reminder_hours else "none"))
    if g.status == "correcting":
        print(f"CORRECTING: turn {g.turn} was opened again (`moderator rollback`); `moderator resolve --game {g.id}` "
              "publishes the correction")
    if g.problem:
        print(f"PROBLEM: {g.problem} (the turn stays open and is retried; `moderator review list` has the details)")
    stuck = [m for m in svc.store.messages(direction="out", status="queued") if m.game_id == g.id and m.attempts]
    if stuck:
        print(f"{len(stuck)} mail(s) not sent yet after failed attempts (the daemon retries them)")
    for seat in svc.store.seats(g.id):
        print(f"  {seat.nation:<16} {seat.email:<32} {'orders in' if seat.nation in subs else 'waiting'}")
    pending = [r for r in svc.store.reviews(None) if r.game_id in (g.id, None)]  # set-aside mail too
    kinds: dict[str, int] = {}
    for r in pending:
        kinds[r.kind] = kinds.get(r.kind, 0) + 1
    print(f"{counted(len(pending), 'item')} waiting for review"
          + (f" ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}): `moderator review list`" if pending else ""))
    for r in pending[:10]:
        print(f"  #{r.id} [{r.kind}{f', turn {r.turn}' if r.turn is not None else ''}] {r.summary}")
    if len(pending) > 10:
        print(f"  ... and {len(pending) - 10} more")
    failed = [m for m in svc.store.messages(direction="out", status="failed") if m.game_id == g.id]
    if failed:
        print(f"FAILED: {counted(len(failed), 'mail')} could not be delivered (`moderator mail list --status failed`)")
    return 0


def cmd_seat_add(args: argparse.Namespace) -> int:
    from moderator.service.games import nation_id

    svc, _ = _service(args)
    game = svc.game(args.game)
    nation = nation_id(svc.scenario(game), args.nation)
    if nation is None:
        raise SystemExit(f"no nation {args.nation!r} in scenario {game.scenario}")
    password = args.password or secrets.token_urlsafe(9)
    if getattr(args, "from_pool", None) is not None:
        from moderator.service.pool import seat_from_pool

        try:
            entry = seat_from_pool(svc, game.id, nation, args.from_pool, password)
        except LookupError as exc:
            raise SystemExit(str(exc)) from None
        print(f"{nation} in {game.id} -> {entry.email} ({entry.name}, from the replacement pool)")
    elif not args.email:
        raise SystemExit("say who takes the seat: --email ADDRESS, or --from-pool ID")
    else:
        svc.store.add_seat(game.id, nation, args.email, password, player=args.player, also=args.also)
        print(f"{nation} in {game.id} -> {', '.join(a.lower() for a in [args.email, *args.also])}")
    if not args.password:
        print(f"seat password (tell the player privately; it is not stored in clear): {password}")
    return 0


def cmd_pool_list(args: argparse.Namespace) -> int:
    svc, _ = _service(args)
    entries = svc.store.pool(None if args.all else "waiting")
    for e in entries:
        print(f"#{e.id:<4} {e.name:<24} {e.email:<32} {e.side:<8} {e.game_id or 'any game':<10} {e.status}"
              + (f" ({e.seated})" if e.seated else ""))
    if not entries:
        print("nobody waits on the replacement pool")
    return 0


def cmd_pool_add(args: argparse.Namespace) -> int:
    from moderator.service.pool import SIDE_NAMES, side_of

    svc, _ = _service(args)
    side = side_of(args.side)
    if side is None:
        raise SystemExit(f"--side {args.side!r}: write Central Powers, Allies or any")
    if args.game:
        svc.game(args.game)
    entry = svc.store.add_to_pool(name=args.name, email=args.email, side=side, game_id=args.game)
    print(f"#{entry.id} {entry.name} <{entry.email}> waits on the replacement pool for {SIDE_NAMES[side]}")
    return 0


def cmd_seat_list(args: argparse.Namespace) -> int:
    svc, _ = _service(args)
    for s in svc.store.seats(args.game):
        print(f"{s.nation:<16} {s.email:<32} {s.player}" + (f"  (also {s.addresses})" if s.addresses else ""))
    return 0


def cmd_submit(args: argparse.Namespace) -> int:
    sender, to, smtp = args.sender, args.to, args.smtp
    if args.demo:
        info = json.loads((args.demo_root / "demo.json").read_text())
        sender = sender or f"{args.demo}@demo.local"
        to = to or info["moderator"]
        smtp = f"127.0.0.1:{info['smtp_port']}"
    if not sender or not to:
        raise SystemExit("say who sends and who receives: --from and --to (or --demo NATION)")
    host, _, port = smtp.rpartition(":")
    msg = EmailMessage()
    msg["From"], msg["To"] = sender, to
    msg["Subject"] = "CHECK orders" if args.check else "Orders"
    msg.set_content(args.file.read_text(encoding="utf-8"))
    with smtplib.SMTP(host or "127.0.0.1", int(port), timeout=30) as client:
        client.send_message(msg)
    print(f"sent {args.file} from {sender} to {to} via {smtp}" + (" (check only)" if args.check else ""))
    return 0


def cmd_resolve(args: argparse.Namespace) -> int:
    from moderator.service.sending import send_queued
    from moderator.service.turns import GameFinished, resolve_game

    svc, cfg = _service(args)
    try:
        resolve_game(svc, args.game)
    except GameFinished as exc:
        raise SystemExit(f"moderator resolve: {exc}") from None
    if can_send(cfg):
        sent, failed = send_queued(svc)
        print(f"sent {counted(sent, 'mail')}, {failed} failed")
    elif svc.mail is not None:
        print("the report mails are queued; the daemon sends them (the mail passwords are not set here)")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from moderator.service.turns import ReplayUnavailable, replay

    svc, _ = _service(args)
    try:
        ok, detail = replay(svc, args.game, args.turn)
    except ReplayUnavailable as exc:
        print(f"CANNOT REPLAY: {exc}")
        return 2
    print(("identical: " if ok else "MISMATCH: ") + detail)
    return 0 if ok else 1


def cmd_verify(args: argparse.Namespace) -> int:
    from moderator.service.turns import verify

    svc, _ = _service(args)
    result = verify(svc, args.game, args.turn)
    for line in result.lines:
        print(line)
    return 0 if result.ok else 1


def cmd_report(args: argparse.Namespace) -> int:
    """A nation's report of a resolved turn, as the player received it (files), or its
    content as JSON (--json) for players' tools."""
    from moderator.engine.events import Event
    from moderator.engine.state import GameState
    from moderator.reports.build import nation_mail, with_map
    from moderator.reports.mapview import draw_view
    from moderator.reports.render import render_failures
    from moderator.service.games import nation_id
    from moderator.service.turns import ordered_in, turn_info

    svc, _ = _service(args)
    game = svc.game(args.game)
    scenario, world = svc.scenario(game), svc.world(game)
    nation = nation_id(scenario, args.nation)
    if nation is None:
        raise SystemExit(f"no nation {args.nation!r}")
    turn = args.turn if args.turn is not None else game.turn - 1  # turn 0 (deployment) is a turn
    record = svc.store.turn_record(game.id, turn)
    after = svc.store.snapshot(game.id, turn + 1)
    if record is None or after is None:
        raise SystemExit(f"turn {turn} of {game.id} has not been resolved")
    events = [Event(e["code"], e["phase"], tuple(e["seen_by"]), e["args"]) for e in json.loads(record.events)]
    info = turn_info(svc, game, turn, ordered=ordered_in(record), updated=record.resolved,
                     dice_scheme=record.dice_scheme)
    draw = None if args.json else (lambda view, title: draw_view(world, view, title))  # type: ignore[no-untyped-def]
    with render_failures() as unrendered:  # events stored before their template changed
        report = nation_mail(GameState.loads(after), events, scenario, world, info, nation, draw)
    for line in unrendered:
        print(f"note: an event's template could not render it, so it is told in plain words ({line})",
              file=sys.stderr)
    if args.json:
        sys.stdout.write(report.json_bytes().decode())
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "report.txt").write_text(report.text, encoding="utf-8")
    (args.out / "report.html").write_text(with_map(report.html), encoding="utf-8")
    (args.out / "report.json").write_bytes(report.json_bytes())
    (args.out / "map.png").write_bytes(report.png)
    print(f"wrote {args.out / 'report.txt'}, report.html, report.json and map.png for {nation}, turn {turn}")
    return 0


def cmd_state(args: argparse.Namespace) -> int:
    from moderator.reports.visibility import nation_view

    svc, _ = _service(args)
    game = svc.game(args.game)
    state = svc.position(game, args.turn)  # with the moderator's "now" rulings of that turn
    nation: str | None = None
    if args.nation:
        from moderator.service.games import nation_id

        nation = nation_id(svc.scenario(game), args.nation)
        if nation is None:
            raise SystemExit(f"no nation {args.nation!r}")
        status = nation_view(state, svc.scenario(game), [], nation).statuses[0]
        data: Any = vars(status)
    else:
        data = state.to_json()
    if args.json:
        json.dump(data, sys.stdout, indent=1, sort_keys=True, default=str)
        print()
    else:
        from moderator.reports.state_text import position_text
        from moderator.service.games import turn_label

        print(position_text(state, svc.scenario(game), svc.world(game), game.title,
                            turn_label(svc.scenario(game), state.turn), nation), end="")
    return 0
