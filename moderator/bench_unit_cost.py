"""The engine's cost per unit beside the MILA `diplomacy` adjudicator's, in the same run.

Issue 14 asks that the engine stay under what a well-known adjudicator spends per unit as
the rules grow. Both are timed on a whole movement turn of their own game's opening:

* ours: `resolve()` of the 1914 opening with every playable nation's bot orders (the
  orders `moderator simulate` writes), divided by the units on the map;
* theirs: `Game.process()` of the Spring 1901 movement phase of standard Diplomacy with
  random legal orders for every unit (seeded), divided by its units. The package lives in
  the benchmark's own environment (`make bench` creates .venv-bench with it), so the
  moderator never depends on it; without it the row says how to get it.

The two are timed in turns, one turn of ours then one of theirs, with their process
waiting on ours for each turn: a shared machine's load comes and goes in seconds, and two
series timed one after the other (as this row first did) met different loads, so the ratio
ranged from 0.7 to 1.5 on the same code. Each side's median is reported, and the ratio of
the medians with the spread of the paired turns' ratios. Both are timed in CPU time
(time.process_time: each is one single-threaded process): on a shared machine wall time
also counts the waits for a core, which weigh on our 20-odd milliseconds and hardly on
their one, so the ratio would measure the machine's load.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any, TextIO

RUNS = 15
DIPLOMACY_PYTHON = "MODERATOR_BENCH_DIPLOMACY"  # env: the python that has `diplomacy` installed
DEFAULT_PYTHON = Path(".venv-bench/bin/python")

# Run in the benchmark environment's python: it answers each number n written to it with the
# CPU time of Game.process() of Spring 1901 for GAMES games of seeded random legal orders
# (seeds n*GAMES onwards), built before the clock starts. One of their turns takes about a
# millisecond, so a batch of them is timed against one of ours, which takes about twenty.
GAMES = 16
DIPLOMACY_SCRIPT = """
import json, random, sys, time
from diplomacy import Game
def game(seed):
    rng = random.Random(seed)
    game = Game()
    possible = game.get_all_possible_orders()
    for power in sorted(game.powers):
        locs = game.get_orderable_locations(power)
        game.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]])
    return game
def batch(n, games):
    played = [game(n * games + i) for i in range(games)]
    start = time.process_time()
    for one in played:
        one.process()
    return time.process_time() - start, sum(len(u) for u in played[0].get_units().values())
games = int(sys.argv[1])
batch(0, 1)  # warms up
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    spent, units = batch(int(line), games)
    print(json.dumps({"s": spent / games, "units": units}), flush=True)
"""


class Diplomacy:
    """The MILA adjudicator in its own environment's process, timing its turns on request
    (the mean of a batch: `DIPLOMACY_SCRIPT`)."""

    def __init__(self, python: str) -> None:
        self.process = subprocess.Popen([python, "-c", DIPLOMACY_SCRIPT, str(GAMES)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.units = 0
        self._answer()  # the warm-up turn: also fails early when the package is missing

    def _answer(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            error = self.process.stderr.read() if self.process.stderr else ""
            raise RuntimeError(f"it stopped: {error.strip().splitlines()[-1:] or 'no output'}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def turn(self, seed: int) -> float:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{seed}\n")
        self.process.stdin.flush()
        answer = self._answer()
        self.units = answer["units"]
        return float(answer["s"])

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def diplomacy_python() -> str:
    """The python that has `diplomacy` installed, or "" when there is none."""
    return os.environ.get(DIPLOMACY_PYTHON) or (str(DEFAULT_PYTHON) if DEFAULT_PYTHON.exists() else "")


def measure(runs: int = RUNS) -> tuple[dict[str, Any], dict[str, Any] | str]:
    """Our resolution of the 1914 opening with every bot's orders and, turn about with it,
    the MILA adjudicator's Spring 1901 (or why it could not be measured): medians, units,
    and the ratios of the paired turns."""
    from moderator.bots.bot import play
    from moderator.engine.dice import Dice
    from moderator.engine.resolve import resolve
    from moderator.world.loader import load_world
    from moderator.world.scenario import initial_state, load_scenario

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "bench")
    orders = {n: play(state, world, scenario, n, "bench").orders
              for n, info in sorted(scenario.nations.items()) if info.playable}
    theirs: Diplomacy | str = "the `diplomacy` package is not installed: `make bench` installs it in .venv-bench"
    if python := diplomacy_python():
        try:
            theirs = Diplomacy(python)
        except (OSError, RuntimeError, ValueError) as exc:
            theirs = f"the `diplomacy` adjudicator did not run ({type(exc).__name__}: {exc})"
    ours_s, theirs_s = [], []
    try:
        resolve(state, orders, world, scenario, Dice("bench", state.turn))  # warms up the caches
        for run in range(1, runs + 1):
            start = time.process_time()
            resolve(state, orders, world, scenario, Dice("bench", state.turn))
            ours_s.append(time.process_time() - start)
            if isinstance(theirs, Diplomacy):
                theirs_s.append(theirs.turn(run))
    except RuntimeError as exc:
        theirs = f"the `diplomacy` adjudicator stopped ({exc})"
    finally:
        if isinstance(theirs, Diplomacy):
            theirs.close()
    ours = {"median_s": statistics.median(ours_s), "units": len(state.units),
            "orders": sum(len(o) for o in orders.values())}
    if isinstance(theirs, str):
        return ours, theirs
    pairs = [(a / ours["units"]) / (b / theirs.units) for a, b in zip(ours_s, theirs_s, strict=True)]
    return ours, {"median_s": statistics.median(theirs_s), "units": theirs.units,
                  "pair_ratios": sorted(pairs)}


def pipeline(out: TextIO, turns: int = 2) -> dict[str, float]:
    """A whole turn in process, every playable seat: bots, intake (parse, check, store,
    receipt) and resolution (engine and commit), per turn; the same through mail, with
    the reports and their sending, is in the soak summary (`make soak`, docs/soak.md)."""
    from moderator.bots.simulate import simulate

    summary = simulate(turns, "bench")
    per_turn = {k: v / max(summary.turns, 1) for k, v in summary.seconds.items() if k != "replay"}
    print(f"\nwhole turn in process, {len(summary.seats)} seats, mean of {summary.turns} turns (no mail; "
          "`make soak` has the mail pipeline):", file=out)
    print("  " + ", ".join(f"{k} {v:.2f} s" for k, v in sorted(per_turn.items()))
          + f"; total {sum(per_turn.values()):.2f} s", file=out)
    return per_turn


def report(out: TextIO, runs: int = RUNS) -> dict[str, Any]:
    """Print the comparison; return it (for --json)."""
    ours, theirs = measure(runs)
    ours_us = ours["median_s"] / ours["units"] * 1e6
    print(f"\nper-unit cost of one movement turn (median of {runs}, the two timed turn about):", file=out)
    print(f"  moderator engine   {ours_us:8.1f} us/unit  ({ours['median_s'] * 1000:.1f} ms for {ours['units']} "
          f"units, {ours['orders']} bot orders of every playable nation, 1914 opening)", file=out)
    result: dict[str, Any] = {"engine_us_per_unit": ours_us, "engine": ours}
    if isinstance(theirs, str):
        print(f"  MILA diplomacy     {theirs}", file=out)
        return result
    theirs_us = theirs["median_s"] / theirs["units"] * 1e6
    pairs = theirs["pair_ratios"]
    print(f"  MILA diplomacy     {theirs_us:8.1f} us/unit  ({theirs['median_s'] * 1000:.1f} ms for "
          f"{theirs['units']} units, random legal orders, Spring 1901)", file=out)
    print(f"  ratio engine/diplomacy {ours_us / theirs_us:.2f} (the engine must stay under 1; paired turns "
          f"{pairs[0]:.2f} to {pairs[-1]:.2f}, median {statistics.median(pairs):.2f})", file=out)
    result.update(diplomacy_us_per_unit=theirs_us, diplomacy=theirs, ratio=ours_us / theirs_us)
    return result
