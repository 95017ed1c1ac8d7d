"""The engine's cost per unit beside the MILA `diplomacy` adjudicator's, in the same run.

Issue 14 asks that the engine stay under what a well-known adjudicator spends per unit as
the rules grow. Both are timed on a whole movement turn of their own game's opening:

* ours: `resolve()` of the 1914 opening with every playable nation's bot orders (the
  orders `moderator simulate` writes), divided by the units on the map;
* theirs: `Game.process()` of the Spring 1901 movement phase of standard Diplomacy with
  random legal orders for every unit (seeded), divided by its units. The package lives in
  the benchmark's own environment (`make bench` creates .venv-bench with it), so the
  moderator never depends on it; without it the row says how to get it.

Medians of several runs, like the rest of `make bench`; the ratio is what to watch. Both
are timed in CPU time (time.process_time: each is one single-threaded process): on a
shared machine wall time also counts the waits for a core, which weigh on our 20-odd
milliseconds and hardly on their one, so the ratio would measure the machine's load.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any, TextIO

RUNS = 7
DIPLOMACY_PYTHON = "MODERATOR_BENCH_DIPLOMACY"  # env: the python that has `diplomacy` installed
DEFAULT_PYTHON = Path(".venv-bench/bin/python")

# Run in the benchmark environment's python: seeded random legal orders, process() timed.
DIPLOMACY_SCRIPT = """
import json, random, statistics, sys, time
from diplomacy import Game
runs = int(sys.argv[1])
times, units = [], 0
for run in range(runs + 1):
    rng = random.Random(run)
    game = Game()
    possible = game.get_all_possible_orders()
    for power in sorted(game.powers):
        locs = game.get_orderable_locations(power)
        game.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in locs if possible[loc]])
    units = sum(len(u) for u in game.get_units().values())
    start = time.process_time()
    game.process()
    if run:  # the first run warms up
        times.append(time.process_time() - start)
print(json.dumps({"median_s": statistics.median(times), "units": units}))
"""


def engine_cost(runs: int = RUNS) -> dict[str, Any]:
    """Median seconds of one resolution of the 1914 opening with every bot's orders, and units."""
    from moderator.bots.bot import play
    from moderator.engine.dice import Dice
    from moderator.engine.resolve import resolve
    from moderator.world.loader import load_world
    from moderator.world.scenario import initial_state, load_scenario

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "bench")
    orders = {n: play(state, world, scenario, n, "bench").orders
              for n, info in sorted(scenario.nations.items()) if info.playable}
    times = []
    for run in range(runs + 1):
        start = time.process_time()
        resolve(state, orders, world, scenario, Dice("bench", state.turn))
        if run:
            times.append(time.process_time() - start)
    return {"median_s": statistics.median(times), "units": len(state.units),
            "orders": sum(len(o) for o in orders.values())}


def diplomacy_cost(runs: int = RUNS) -> dict[str, Any] | str:
    """The MILA adjudicator's median seconds and units, or why it could not be measured."""
    python = os.environ.get(DIPLOMACY_PYTHON) or (str(DEFAULT_PYTHON) if DEFAULT_PYTHON.exists() else "")
    if not python:
        return "the `diplomacy` package is not installed: `make bench` installs it in .venv-bench"
    try:
        done = subprocess.run([python, "-c", DIPLOMACY_SCRIPT, str(runs)], capture_output=True, text=True,
                              timeout=600, check=True)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the `diplomacy` adjudicator did not run ({type(exc).__name__}: {exc})"
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


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
    ours = engine_cost(runs)
    theirs = diplomacy_cost(runs)
    ours_us = ours["median_s"] / ours["units"] * 1e6
    print(f"\nper-unit cost of one movement turn (median of {runs}):", file=out)
    print(f"  moderator engine   {ours_us:8.1f} us/unit  ({ours['median_s'] * 1000:.1f} ms for {ours['units']} "
          f"units, {ours['orders']} bot orders of every playable nation, 1914 opening)", file=out)
    result: dict[str, Any] = {"engine_us_per_unit": ours_us, "engine": ours}
    if isinstance(theirs, str):
        print(f"  MILA diplomacy     {theirs}", file=out)
        return result
    theirs_us = theirs["median_s"] / theirs["units"] * 1e6
    print(f"  MILA diplomacy     {theirs_us:8.1f} us/unit  ({theirs['median_s'] * 1000:.1f} ms for "
          f"{theirs['units']} units, random legal orders, Spring 1901)", file=out)
    print(f"  ratio engine/diplomacy {ours_us / theirs_us:.2f} (the engine must stay under 1)", file=out)
    result.update(diplomacy_us_per_unit=theirs_us, diplomacy=theirs, ratio=ours_us / theirs_us)
    return result
