"""The moderator's calendar and corrections:

    moderator deadline --game G --extend 2d | --set 2026-12-01T23:59:59+00:00 [--no-mail]
    moderator rollback --game G --turn N        (then enter / adjust, then resolve)
    moderator rollback --game G --cancel
    moderator verify --game G --turn N          (service/commands.py)
"""

from __future__ import annotations

import argparse
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from moderator.orders.messages import counted


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", type=Path, default=None,
                        help="configuration file (default: $MODERATOR_CONFIG or ./moderator.toml)")

    p = sub.add_parser("deadline", parents=[common], help="move the current turn's deadline (and tell the seats)",
                       description="Move the deadline of the game's current turn: later by --extend (2d, 36h, "
                                   "90m) or to a moment given with --set (ISO 8601, UTC if no zone). The seats are "
                                   "told by mail when the configuration has a [mail] section, and the reminders "
                                   "go out again before the new deadline.")
    p.add_argument("--game", required=True)
    when = p.add_mutually_exclusive_group(required=True)
    when.add_argument("--extend", metavar="DURATION", help="e.g. 2d, 36h, 90m, 1d12h")
    when.add_argument("--set", metavar="MOMENT", help="e.g. 2026-12-01T23:59:59+00:00")
    p.add_argument("--no-mail", action="store_true", help="do not tell the seats")
    p.set_defaults(func=cmd_deadline)

    p = sub.add_parser(
        "rollback", parents=[common],
        help="open the last resolved turn again to correct it; `resolve` then publishes the correction",
        description="A published turn with an error (orders misread, a ruling forgotten): open it again, correct "
                    "it with `moderator enter` and `moderator adjust` as for any open turn, then `moderator resolve` "
                    "resolves it again and sends the corrected reports, marked as corrections. Only the last "
                    "resolved turn can be opened again. `moderator replay` then shows what the correction changed.")
    p.add_argument("--game", required=True)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--turn", type=int, help="the turn to correct (the last resolved one)")
    what.add_argument("--cancel", action="store_true", help="give up the correction: back to the turn after")
    p.set_defaults(func=cmd_rollback)


DURATION = re.compile(r"^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?$")


def parse_duration(text: str) -> timedelta:
    """2d, 36h, 90m, 1d12h -> timedelta; ValueError for anything else."""
    m = DURATION.match(text.strip().lower())
    if not m or not any(m.groups()):
        raise ValueError(f"{text!r} is not a duration: write it as 2d, 36h, 90m or 1d12h")
    days, hours, minutes = (int(x or 0) for x in m.groups())
    return timedelta(days=days, hours=hours, minutes=minutes)


def _service(args: argparse.Namespace) -> Any:
    from moderator.service.commands import _service as service

    return service(args)


def cmd_deadline(args: argparse.Namespace) -> int:
    from moderator.service.calendar import move_deadline

    svc, _cfg = _service(args)
    try:
        game = svc.game(args.game)
        if args.extend:
            if game.deadline is None:
                raise ValueError(f"{game.id} has no deadline to extend: give one with --set")
            when = game.deadline + parse_duration(args.extend)
        else:
            when = datetime.fromisoformat(args.set)
        moved = move_deadline(svc, game.id, when, tell=not args.no_mail)
    except (LookupError, ValueError) as exc:
        raise SystemExit(f"moderator deadline: {exc}") from None
    print(moved.summary)
    _send(args, svc)
    return 0


def cmd_rollback(args: argparse.Namespace) -> int:
    from moderator.service.corrections import cancel, rollback

    svc, _cfg = _service(args)
    try:
        if args.cancel:
            game = cancel(svc, args.game)
            print(f"{game.id} is back at turn {game.turn}, as the last resolution left it; corrections entered "
                  f"for turn {game.turn - 1} stay unused")
            return 0
        game = rollback(svc, args.game, args.turn)
    except (LookupError, ValueError) as exc:
        raise SystemExit(f"moderator rollback: {exc}") from None
    waiting = svc.store.current_submissions(game.id, game.turn + 1)
    print(f"turn {game.turn} of {game.id} is open again for corrections (the daemon will not resolve it by "
          "itself). Correct it:\n"
          f"  moderator enter --game {game.id} --nation NATION FILE     orders of turn {game.turn}\n"
          f"  moderator adjust --game {game.id} \"RULING\"                 rulings for turn {game.turn}\n"
          f"then publish the correction (reports marked as corrections):\n"
          f"  moderator resolve --game {game.id}\n"
          f"or give it up: moderator rollback --game {game.id} --cancel")
    if waiting:
        print(f"{counted(len(waiting), 'seat')} sent orders for turn {game.turn + 1} already "
              f"({', '.join(waiting)}): they stay, and are checked again when turn {game.turn + 1} is resolved")
    return 0


def _send(args: argparse.Namespace, svc: Any) -> None:
    from moderator.service.commands import can_send
    from moderator.service.config import load_config
    from moderator.service.sending import send_queued

    if can_send(load_config(args.config)):
        sent, failed = send_queued(svc)
        print(f"sent {counted(sent, 'mail')}, {failed} failed")
