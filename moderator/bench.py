"""`make bench` / `python -m moderator.bench [--quick] [--json]`: how fast the work that matters is.

Each operation runs on the real 1914 data and is timed with time.perf_counter over N
repetitions; the table shows the median (robust on a shared, noisy machine), the
operations per second, and the ratio of the median to a fixed calibration workload (a
pure-Python loop) timed in the same run. The ratio is what compares across machines
and runs: "resolving a turn costs 40 calibration loops" holds on a fast laptop and a slow
VM alike, while milliseconds do not. See docs/benchmarks.md.

--quick runs every operation once (no warm-up): the tests use it to prove the bench works.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any, TextIO

from moderator.engine.dice import Dice
from moderator.engine.state import GameState
from moderator.orders.model import Order
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

CALIBRATION_N = 20_000  # loop length of the calibration workload (~2-3 ms on a 2026 server core)

# A realistic full turn for Germany at the 1914 opening (the orders language, docs/orders.md).
GERMAN_TURN = """\
GAME bench-1914
NATION Germany
TURN 1
PASSWORD bench-secret
BEGIN
DECLARE WAR ON Belgium
DECLARE WAR ON Luxembourg
RESEARCH Improved Weapons
BUILD 3 inf AT Berlin
BUILD TRENCH AT Strasbourg FACING Alsace-Lorraine
ATTACK 10 inf, 2 art FROM Cologne TO Liege WITHDRAW AFTER 3 ROUNDS
MOVE 4 inf FROM Cologne TO Luxembourg
ATTACK 6 inf, 2 art FROM Strasbourg TO Alsace-Lorraine WITHDRAW IF LOSSES EXCEED 4
MOVE 2 inf FROM Ruhr TO Cologne
MOVE 2 inf FROM Hamburg TO Berlin
MOVE 2 inf FROM Bavaria TO Stuttgart
ATTACK 3 inf, 1 art FROM Konigsberg TO Lithuania
MOVE 2 inf FROM West Prussia TO Konigsberg
STRATEGIC MOVE 2 inf FROM Berlin TO Konigsberg
CASUALTIES: inf, art
NOTE opening moves in the west, holding in the east
END
"""

OTHER_TURNS = {
    "France": "ATTACK 8 inf, 2 art FROM Alsace-Lorraine TO Strasbourg\nMOVE 2 inf FROM Lyon TO Burgundy\n"
              "BUILD 2 inf AT Paris",
    "Russia": "ATTACK 6 inf FROM Lithuania TO Konigsberg\nATTACK 3 inf FROM Plock TO West Prussia\n"
              "STRATEGIC MOVE 1 inf FROM Warsaw TO Vladivostok\nBUILD 2 inf AT Petrograd",
    "Austria": "ATTACK 6 inf, 2 art FROM Lemberg TO Volhynia\nMOVE 2 inf FROM Krakow TO Galicia",
}


@dataclass
class Row:
    name: str
    runs: int
    median_s: float
    ratio: float = 1.0  # median / calibration median

    @property
    def ops_per_s(self) -> float:
        return 1.0 / self.median_s if self.median_s > 0 else float("inf")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "runs": self.runs, "median_ms": self.median_s * 1000,
                "ops_per_s": self.ops_per_s, "ratio": self.ratio}


@dataclass
class Case:
    name: str
    setup: Callable[[], Callable[[], object]]  # untimed: returns the timed callable
    runs: int  # repetitions in a full run


def median_time(fn: Callable[[], object], runs: int, warmup: bool) -> float:
    if warmup:
        fn()  # first call pays for imports and caches: not what we measure
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def calibration() -> int:
    """A fixed pure-Python workload: integer arithmetic, a dict and a list, like our code."""
    seen: dict[int, int] = {}
    out: list[int] = []
    for i in range(CALIBRATION_N):
        k = (i * 7919) % 1009
        seen[k] = seen.get(k, 0) + 1
        if k & 1:
            out.append(k)
    return len(out) + len(seen)


# ---- the workloads (data loaded once, outside the timing) ---------------------------


@dataclass
class Data:
    world: World
    scenario: Scenario
    state: GameState


def load_data() -> Data:
    from moderator.world.loader import load_world
    from moderator.world.scenario import initial_state, load_scenario

    world, scenario = load_world("1914", strict=False), load_scenario("1914")
    return Data(world, scenario, initial_state(scenario, world, "bench-1914"))


def checked_orders(data: Data, text: str, nation: str) -> list[Order]:
    from moderator.orders.checker import check_text

    result = check_text(text, nation, data.state, data.world, data.scenario)
    errors = [d.render() for d in result.diagnostics if d.severity == "error"]
    if errors:  # the bench must time a clean turn, not an error path
        raise RuntimeError(f"bench orders for {nation} do not check: {errors}")
    return list(result.orders)


def raw_mail(text: str) -> bytes:
    """A typical player mail: plain + HTML alternatives, a quoted report below, a signature."""
    msg = EmailMessage()
    msg["From"] = "Kaiser Player <kaiser@example.org>"
    msg["To"] = "moderator@example.org"
    msg["Subject"] = "Re: [bench-1914] Turn 1 orders for Germany"
    msg["Message-ID"] = "<bench-0001@example.org>"
    msg["In-Reply-To"] = "<report-0001@moderator.example.org>"
    msg["Date"] = "Mon, 03 Aug 1914 06:00:00 +0000"
    quoted = "\n".join(f"> report line {i}: units, battles and income as the moderator saw them" for i in range(60))
    body = f"{text}\n-- \nWilhelm\n\nOn Sunday the moderator wrote:\n{quoted}\n"
    msg.set_content(body)
    html = "<html><body><pre>" + text.replace("&", "&amp;").replace("<", "&lt;") + "</pre></body></html>"
    msg.add_alternative(html, subtype="html")
    return msg.as_bytes()


def case_check(data: Data) -> Callable[[], object]:
    checked_orders(data, GERMAN_TURN, "Germany")  # fail early if the text stopped checking
    return lambda: checked_orders(data, GERMAN_TURN, "Germany")


def case_extract(data: Data) -> Callable[[], object]:
    from moderator.mail.extract import extract

    raw = raw_mail(GERMAN_TURN)
    if "ATTACK" not in extract(raw).text:
        raise RuntimeError("extract() lost the orders of the bench mail")
    return lambda: extract(raw)


def case_resolve(data: Data) -> Callable[[], object]:
    from moderator.engine.resolve import resolve
    from moderator.orders.checker import resolve_nation_id

    orders: dict[str, list[Order]] = {"germany": checked_orders(data, GERMAN_TURN, "Germany")}
    for nation, text in OTHER_TURNS.items():
        nid = resolve_nation_id(nation, data.scenario)
        assert nid is not None
        orders[nid] = checked_orders(data, text, nation)
    return lambda: resolve(data.state, orders, data.world, data.scenario, Dice("bench", data.state.turn))


def case_map(data: Data) -> Callable[[], object]:
    from moderator.reports.mapfiles import map_files
    from moderator.reports.mapview import draw_view
    from moderator.reports.visibility import nation_view

    view = nation_view(data.state, data.scenario, [], "germany")
    # Drawn and encoded as a report carries it: the palette PNG to attach and the inline copy.
    return lambda: map_files(draw_view(data.world, view, "Germany, turn 1", region="europe"))


def bot_turn(data: Data) -> tuple[GameState, list[Any], dict[str, list[Order]]]:
    """One real turn of every 1914 seat: each playable nation's orders written by its bot
    (moderator/bots, the soak's players) on the opening position, then resolved."""
    from moderator.bots.bot import play
    from moderator.engine.resolve import resolve

    seats = sorted(n for n, info in data.scenario.nations.items() if info.playable)
    orders = {n: play(data.state, data.world, data.scenario, n, "bench").orders for n in seats}
    state, events = resolve(data.state, orders, data.world, data.scenario, Dice("bench", data.state.turn))
    return state, events, orders


def case_turn_reports(data: Data, maps: bool = True) -> Callable[[], object]:
    """Every report of a real 1914 turn (every seat's bot orders, bot_turn), maps and all:
    each playable nation's, each alliance's, the public bulletin and the moderator's copy
    (issue 13: at most 10 s on 2 cores), the maps drawn in worker processes as the service
    draws them. Without `maps` (the quick run the tests make) the reports only: one map is case_map."""
    from moderator.reports.build import TurnInfo, build_reports
    from moderator.reports.mapview import draw_view
    from moderator.reports.render import render

    state, events, orders = bot_turn(data)
    seats = sorted(n for n, info in data.scenario.nations.items() if info.playable)
    info = TurnInfo("bench-1914", "Bench 1914", 1, "1 August 1914", 2, "10 August 1914", "2026-01-01 12:00 UTC",
                    ordered=tuple(sorted(orders)))

    def everything() -> int:
        reports = build_reports(state, events, data.scenario, data.world, info, seats,
                                lambda view, title: draw_view(data.world, view, title) if maps else b"",
                                parallel=maps)
        render("moderator", title=info.title, game=info.game, resolved_turn=1, resolved_date=info.resolved_date,
               ordered=sorted(orders), missing=[], flags=[], waiting=[], missed={}, desk_by_mail=False,
               dice_count=0, sha256="", events=events, names=lambda n: n)
        return len(reports)
    return everything


def case_state_json(data: Data) -> Callable[[], object]:
    return lambda: GameState.loads(data.state.dumps())


def case_strategic(data: Data) -> Callable[[], object]:
    from moderator.engine.phase4_strategic import strategic_paths

    # Phase 4.1.3, first example: Warsaw (2) sends one infantry each to Vladivostok and Khabarovsk.
    wanted = {"Vladivostok": 1, "Khabarovsk": 1}
    return lambda: strategic_paths(data.world, data.state, "russia", "Warsaw", wanted)


def case_odds(data: Data) -> Callable[[], object]:
    from moderator.engine.odds import odds_for

    return lambda: odds_for(data.scenario, "germany", {"infantry": 10, "artillery": 2}, "belgium",
                            {"infantry": 4}, territory="Liege", city=True)


def case_big_odds(data: Data) -> Callable[[], object]:
    from moderator.engine.odds import odds_for

    # The benchmark: exact odds of a large battle with aircraft (fuel, 4.6 step 3).
    return lambda: odds_for(data.scenario, "germany", {"infantry": 30, "artillery": 10, "fighter": 5}, "france",
                            {"infantry": 30, "artillery": 5})


def case_naval_odds(data: Data) -> Callable[[], object]:
    from moderator.engine.naval_odds import naval_odds_for

    # 4.3: ten ships a side, both patrolling (both attack), to the end of the exact chain.
    return lambda: naval_odds_for(data.scenario, "britain", {"battleship": 4, "cruiser": 6}, "germany",
                                  {"battleship": 3, "cruiser": 7}, defend_mission="patrol")


def cases(data: Data, quick: bool = False) -> list[tuple[Case, Data]]:
    table = [
        Case("parse+check German turn (1914)", lambda: case_check(data), 25),
        Case("extract() of a raw MIME mail", lambda: case_extract(data), 51),
        Case("resolve a full turn, 4 nations", lambda: case_resolve(data), 15),
        Case("render a report map PNG (europe)", lambda: case_map(data), 5),
        Case("every report of a 1914 turn, all seats", lambda: case_turn_reports(data, maps=not quick), 3),
        Case("GameState dumps()+loads() (1914)", lambda: case_state_json(data), 25),
        Case("strategic max flow: Warsaw example", lambda: case_strategic(data), 51),
        Case("battle odds: 10 inf 2 art v 4 inf", lambda: case_odds(data), 25),
        Case("battle odds: 30i 10a 5f v 30i 5a", lambda: case_big_odds(data), 5),
        Case("naval odds: 10 ships a side", lambda: case_naval_odds(data), 5),
    ]
    return [(c, data) for c in table]


def run(quick: bool = False, out: TextIO | None = None, only: str = "") -> list[Row]:
    """Time everything (or the rows whose name holds `only`); print the table to `out` as
    rows complete; return the rows."""
    stream = out or sys.stdout
    data = load_data()
    calib_runs = 1 if quick else 51
    calib = median_time(calibration, calib_runs, warmup=not quick)
    rows = [Row("calibration: pure-Python loop", calib_runs, calib)]
    print(header(quick), file=stream)
    print(format_row(rows[0]), file=stream, flush=True)
    for case, _ in cases(data, quick):
        if only not in case.name:
            continue
        fn = case.setup()
        runs = 1 if quick else case.runs
        median = median_time(fn, runs, warmup=not quick)
        rows.append(Row(case.name, runs, median, median / calib))
        print(format_row(rows[-1]), file=stream, flush=True)
    return rows


def header(quick: bool) -> str:
    mode = "quick: one run each, no warm-up" if quick else "median of N runs after one warm-up"
    return (f"moderator bench ({mode}; Python {platform.python_version()})\n"
            f"ratio = median / calibration median, comparable across machines\n\n"
            f"{'operation':<38} {'runs':>4} {'median ms':>10} {'ops/s':>9} {'ratio':>8}")


def format_row(row: Row) -> str:
    return (f"{row.name:<38} {row.runs:>4} {row.median_s * 1000:>10.2f} {row.ops_per_s:>9.1f} "
            f"{row.ratio:>8.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m moderator.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="one run of each operation (for tests)")
    parser.add_argument("--json", action="store_true", help="also print the rows as JSON at the end")
    parser.add_argument("--only", default="", metavar="WORDS", help="time only the rows whose name holds WORDS")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = run(quick=args.quick, only=args.only)
    if not args.quick and not args.only:  # the engine's per-unit cost beside the MILA adjudicator's (issue 14)
        from moderator.bench_unit_cost import pipeline, report

        report(sys.stdout)
        pipeline(sys.stdout)
    print(f"\ntotal bench time {time.perf_counter() - start:.1f} s")
    if args.json:
        print(json.dumps([r.to_json() for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
