"""`moderator simulate`: a war played by bots, before a real game is opened."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from moderator.bots.simulate import simulate


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate", help="play a 1914 game with a bot on every seat and report what broke",
        description="Create a game of the 1914 scenario, seat a bot on every playable nation (or those "
                    "listed; the others miss their turns), play N turns and print a summary: orders written "
                    "and accepted, battles, mail delivered, review items per turn, time per phase, replay. "
                    "Exit status 1 if anything went wrong (a refused bot order, an unexpected drop from a "
                    "bot's draft, a crash, a lost or doubled mail, a report that disagrees with the position, "
                    "a turn that does not replay).")
    p.add_argument("--turns", type=int, default=3, help="turns to play (default 3; a whole war is 26)")
    p.add_argument("--seed", default="1", help="seed of the bots and of the game's dice (default 1)")
    p.add_argument("--seats", default="all", help="'all' or a comma-separated list of nation ids with a bot")
    p.add_argument("--mail", action="store_true",
                   help="through the embedded IMAP/SMTP server and the real daemon (slower)")
    p.add_argument("--no-maps", dest="maps", action="store_false",
                   help="--mail: reports without their map (drawing a map takes seconds per seat and turn)")
    p.add_argument("--deployment", action="store_true",
                   help="open with the deployment turn (turn 0: the bots DEPLOY the free half of their units)")
    p.add_argument("--daemon-apart", action="store_true",
                   help="--mail: run the daemon in a process of its own and show its peak memory apart")
    p.add_argument("--unit-cost", action="store_true",
                   help="at the end, time the engine's cost per unit beside the MILA `diplomacy` adjudicator's "
                        "(as `make bench` does; `make soak` passes it)")
    p.add_argument("--dir", type=Path, help="keep the database and the mail here (default: a temporary folder)")
    p.add_argument("--summary", type=Path, help="also write the summary to this file")
    p.set_defaults(func=run_simulate)


def unit_cost_line(runs: int = 7) -> str:
    """The engine's per-unit cost beside MILA's, timed turn about (moderator/bench_unit_cost.py)."""
    from moderator.bench_unit_cost import measure

    ours, theirs = measure(runs)
    ours_us = ours["median_s"] / ours["units"] * 1e6
    line = f"{ours_us:.1f} us a unit (the 1914 opening's bench turn, median of {runs})"
    if isinstance(theirs, str):
        return f"{line}; MILA: {theirs}"
    theirs_us = theirs["median_s"] / theirs["units"] * 1e6
    return f"{line}; MILA {theirs_us:.1f} us a unit; ratio {ours_us / theirs_us:.2f} (must stay under 1)"


def run_simulate(args: argparse.Namespace) -> int:
    seats = None if args.seats.strip().lower() == "all" else [s.strip().lower() for s in args.seats.split(",") if s.strip()]

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    summary = simulate(args.turns, str(args.seed), seats, mail=args.mail, root=args.dir, maps=args.maps, progress=progress,
                       deployment=args.deployment, daemon_apart=args.daemon_apart)
    if args.unit_cost:
        summary.unit_cost = unit_cost_line()
    text = summary.text()
    print(text, end="")
    if args.summary:
        args.summary.write_text(text, encoding="utf-8")
    return 0 if summary.ok else 1
