"""The moderator's hand in the game: `adjust`, `enter` and the `review` queue.

    moderator adjust --game G [--now] [--file F] [RULING ...]
    moderator enter --game G --nation N FILE [--check]
    moderator review list [--game G] [--all]
    moderator review approve ID [--ruling TEXT ...] [--now] [--note TEXT]
    moderator review edit ID --ruling TEXT [...] [--now] [--note TEXT]
    moderator review reject ID [--note TEXT]
    moderator review digest [--game G] [--mail]     (answer it by mail: service/review_mail.py)
    moderator review secret

docs/moderating.md is the moderator's guide to all of them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from moderator.orders.diagnostics import Diagnostic
from moderator.orders.messages import counted

RULINGS_HELP = """\
A ruling is one line (several: one per argument, or separated by ";"):
  SET SAVED OF France TO 40              ADJUST SAVED OF France BY -10
  SET SAVED OF Germany AT Cameroon TO 5  (the treasury of land cut off from the mainland, 3.1)
  SET MANPOWER OF Germany TO 120         SET BUILT OF Germany TO 30
  SET POINTS OF Belgium TO 5             (a neutral's points, -10 .. +10)
  SET TECH Improved Weapons OF Germany TO 1
  SET FLAG gear_up OF Belgium TO true    SET SIDE OF Belgium TO Allies
  ADD 2 inf OF Germany AT Berlin         REMOVE 1 inf OF Russia AT Warsaw
  MOVE 1 inf OF Russia FROM Warsaw TO Minsk
  DAMAGE 1 bb OF Britain AT North Sea    REPAIR 1 bb OF Britain AT North Sea
  CONTROL Warsaw TO Germany [INCORPORATED]       UNINCORPORATE Warsaw
  WAR Germany AND Belgium                PEACE Germany AND Belgium
  ROLL "US entry" 7                      (a die you rolled by hand)
docs/moderating.md explains each one."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", type=Path, default=None,
                        help="configuration file (default: $MODERATOR_CONFIG or ./moderator.toml)")
    raw = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser(
        "adjust", parents=[common], formatter_class=raw,
        help="change the game by a ruling: at the next resolution, or at once with --now",
        description="Rule on the game where the rules leave it to you, or where the engine does not decide "
                    "yet.\nRulings are checked on the position they will meet; if one is wrong nothing is stored. "
                    "By default they\nare carried out when the current turn is resolved (before Phase 1, so a "
                    "treasury you set pays\nfor the turn's builds); with --now they change the current position at "
                    "once, and players'\norders are checked against it from then on. Either way the reports of the "
                    "turn say what you\nruled, and `moderator replay` reproduces it.",
        epilog=RULINGS_HELP)
    p.add_argument("--game", required=True)
    p.add_argument("--now", action="store_true", help="apply at once to the current position")
    p.add_argument("--file", type=Path, help="a file of rulings, one per line (# starts a comment)")
    p.add_argument("rulings", nargs="*", metavar="RULING", help='e.g. "SET SAVED OF France TO 40"')
    p.set_defaults(func=cmd_adjust)

    p = sub.add_parser(
        "enter", parents=[common],
        help="enter a seat's orders that reached you another way (telephone, an ally's mail)",
        description="Enter orders for a seat as if its player had mailed them: the same checks and receipt, "
                    "and they replace the seat's earlier orders for the turn. No seat password is needed. "
                    "The receipt is printed, and mailed to the seat when the configuration has a [mail] section. "
                    "Exit 1 if an order had an error (it was dropped; the others are kept).")
    p.add_argument("--game", required=True)
    p.add_argument("--nation", required=True, help="the seat's nation (name or alias)")
    p.add_argument("file", type=Path, help="the orders, as the player would write them ('-': standard input)")
    p.add_argument("--check", action="store_true", help="only check and show the receipt; store nothing")
    p.set_defaults(func=cmd_enter)

    review = sub.add_parser("review", help="the moderator's review queue: decisions the rules leave to you").\
        add_subparsers(dest="review_verb", required=True)
    p = review.add_parser("list", parents=[common], help="items waiting for your decision")
    p.add_argument("--game", default=None)
    p.add_argument("--all", action="store_true", help="decided items too")
    p.set_defaults(func=cmd_review_list)
    p = review.add_parser("digest", parents=[common],
                          help="what waits, with the one-line commands that answer it by mail")
    p.add_argument("--game", default=None)
    p.add_argument("--mail", action="store_true", help="mail it to the moderator's address instead of printing it")
    p.set_defaults(func=cmd_review_digest)
    p = review.add_parser("secret", parents=[common],
                          help="make a new desk password: the review queue can then be answered by mail")
    p.set_defaults(func=cmd_review_secret)
    ruling_help = ("a ruling that carries out your decision (repeat for several); stored for the next "
                   "resolution of the game's current turn, or applied at once with --now")
    for verb, helptext in (("approve", "accept the item; with --ruling, also change the game by a ruling"),
                           ("edit", "decide otherwise than the engine's default: --ruling says how"),
                           ("reject", "refuse the item (nothing in the game changes)")):
        p = review.add_parser(verb, parents=[common], help=helptext, description=helptext + ".",
                              formatter_class=raw, epilog=None if verb == "reject" else RULINGS_HELP)
        p.add_argument("item", type=int, help="the item's number (#N in `review list`)")
        p.add_argument("--note", default="", help="your reasons, kept with the item")
        if verb != "reject":
            p.add_argument("--ruling", action="append", default=[], required=verb == "edit", help=ruling_help)
            p.add_argument("--now", action="store_true", help="apply the ruling at once to the current position")
        p.set_defaults(func=cmd_review_decide, verb=verb)


def _service(args: argparse.Namespace) -> Any:
    from moderator.service.commands import _service as service

    return service(args)[0]


def _can_send(args: argparse.Namespace) -> bool:
    from moderator.service.commands import can_send
    from moderator.service.config import load_config

    return can_send(load_config(args.config))


def _show(diagnostics: list[Diagnostic]) -> None:
    for d in diagnostics:
        print(d.render())


def _rulings_text(args: argparse.Namespace) -> tuple[str, str]:
    """The rulings to apply and their source ("file" or "adjust")."""
    if args.file and args.rulings:
        raise SystemExit("give the rulings either in a file (--file) or on the command line, not both")
    if args.file:
        return args.file.read_text(encoding="utf-8"), "file"
    if not args.rulings:
        raise SystemExit('no ruling given: e.g. moderator adjust --game G "SET SAVED OF France TO 40" '
                         "(moderator adjust --help lists them all)")
    if len(args.rulings) > 1 and not any(" " in word for word in args.rulings):
        return " ".join(args.rulings), "adjust"  # one ruling typed without quotes
    return "\n".join(args.rulings), "adjust"


def _report_rulings(ruled: Any, game: Any) -> int:
    """Print what became of checked rulings; exit status 1 if nothing was stored."""
    _show(ruled.diagnostics)
    if ruled.errors or not ruled.stored:
        print("nothing was stored: fix the ruling(s) above and give them again")
        return 1
    if ruled.applies == "now":
        print(f"applied {counted(len(ruled.stored), 'ruling')} to turn {game.turn} of {game.id} now:")
        for line in ruled.changes:
            print(f"  {line}")
        for d in ruled.orphaned:
            print(f"warning: a ruling stored for the next resolution no longer fits the position: {d.text}: "
                  f"{d.message}")
    else:
        print(f"stored {counted(len(ruled.stored), 'ruling')} for the resolution of turn {game.turn} of {game.id}:")
        for text in ruled.stored:
            print(f"  {text}")
    return 0


def cmd_adjust(args: argparse.Namespace) -> int:
    from moderator.service.rulings import NEXT, NOW, adjust

    text, source = _rulings_text(args)
    svc = _service(args)
    try:
        game = svc.game(args.game)
        ruled = adjust(svc, game, text, applies=NOW if args.now else NEXT, source=source)
    except (LookupError, RuntimeError) as exc:
        raise SystemExit(str(exc)) from None
    return _report_rulings(ruled, game)


def cmd_enter(args: argparse.Namespace) -> int:
    from moderator.service.entry import enter_orders
    from moderator.service.sending import send_queued

    text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8", errors="replace")
    svc = _service(args)
    try:
        entered = enter_orders(svc, args.game, args.nation, text, check_only=args.check)
    except (LookupError, ValueError) as exc:
        raise SystemExit(f"nothing was entered: {exc}") from None
    print(entered.receipt.text)
    for note in entered.notes:
        print(f"note: {note}")
    print(entered.receipt.summary)
    if entered.mailed_to and not _can_send(args):
        print(f"receipt for {entered.mailed_to} queued; the daemon sends it (the mail passwords are not set here)")
    elif entered.mailed_to:
        sent, failed = send_queued(svc)
        print(f"receipt mailed to {entered.mailed_to}" if not failed else
              f"the receipt for {entered.mailed_to} could not be sent yet; it stays queued for the daemon")
    return 1 if entered.receipt.errors else 0


def cmd_review_list(args: argparse.Namespace) -> int:
    svc = _service(args)
    items = svc.store.reviews(args.game, status=None if args.all else "pending")
    for r in items:
        where = f"{r.game_id or '-'} t{'-' if r.turn is None else r.turn} {r.nation or '-'}"
        print(f"#{r.id:<4} {r.status:<9} {r.kind:<14} {where:<28} {r.summary}")
        if r.detail:
            print(f"       {r.detail}")
        if r.resolution:
            print(f"       decided: {r.resolution}")
    if not items:
        print("nothing to review")
    return 0


def cmd_review_decide(args: argparse.Namespace) -> int:
    from moderator.service.review import decide

    svc = _service(args)
    try:
        decision = decide(svc, args.item, args.verb, rulings="\n".join(getattr(args, "ruling", [])),
                          now=getattr(args, "now", False), note=args.note)
    except (LookupError, ValueError, RuntimeError) as exc:
        raise SystemExit(str(exc)) from None
    for note in decision.notes:
        print(f"note: {note}")
    if decision.ruled is not None and _report_rulings(decision.ruled, svc.game(decision.item.game_id)):
        print(f"#{decision.item.id} is still {decision.item.status}")
        return 1
    item = decision.item
    print(f"#{item.id} {item.status}" + (f": {item.resolution}" if item.resolution else ""))
    return 0


def cmd_review_digest(args: argparse.Namespace) -> int:
    from moderator.service.review_mail import digest, queue_digest
    from moderator.service.sending import send_queued

    svc = _service(args)
    if not args.mail:
        print(digest(svc, args.game))
        return 0
    if svc.mail is None:
        raise SystemExit("--mail needs a [mail] section in the configuration file")
    queue_digest(svc, args.game)
    if _can_send(args):
        sent, failed = send_queued(svc)
        print(f"digest mailed to {svc.mail.moderator_address}" if not failed else "the digest stays queued")
    else:
        print("digest queued; the daemon sends it (the mail passwords are not set here)")
    return 0


def cmd_review_secret(args: argparse.Namespace) -> int:
    from moderator.service.review_mail import new_desk_secret

    secret = new_desk_secret(_service(args))
    print(f"desk password (shown once; it is kept only as a hash): {secret}\n"
          "Answer the review queue by mail from the moderator's address: a line PASSWORD <it>, then one line per "
          "decision (APPROVE 12, REJECT 12 reason, EDIT 12 RULING, DIGEST). A new `review secret` replaces it.")
    return 0
