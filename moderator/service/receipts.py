"""A seat's orders checked on a position, and the words of its receipt: the pure part of
taking orders (inbox.take_orders), kept apart so that the read-ahead worker processes
(service/read_ahead.py) can do it ahead of the daemon's thread with the very same code.

Nothing here reads or writes the database: the check's inputs are the parse, the nation,
the checking position and the game's map, scenario and rules; the receipt's are those and
what the thread decides from the database (whether the orders replace earlier ones, whether
orders written later stand, the game's deadline as it is written), passed in."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from moderator.engine.ruleset import Ruleset
from moderator.engine.state import GameState
from moderator.orders import check, normalize
from moderator.orders.diagnostics import Diagnostic
from moderator.orders.echo import nation_words
from moderator.orders.parser import ParseResult
from moderator.reports.render import render
from moderator.world.model import World
from moderator.world.scenario_model import Scenario


@dataclass(frozen=True)
class SeatCheck:
    """One seat's orders checked: what is stored of them and what the receipt lists."""

    kept: int  # valid orders
    normalized: str  # the kept orders as the moderator reads them ("DECLARE WAR ON Belgium", not the id)
    diagnostics: tuple[dict[str, Any], ...]  # every problem, parse's then check's, as stored with the submission
    shown: dict[str, tuple[dict[str, Any], ...]]  # the problems by severity, each with its line as written


def check_seat(parsed: ParseResult, text: str, nation: str, state: GameState, world: World, scenario: Scenario,
               ruleset: Ruleset, preface: str = "") -> SeatCheck:
    """`parsed` (the parse of `text`, chatter dropped) checked for `nation` on `state`, the
    checking position (read only: the checker works on its own copy)."""
    checked = check(parsed.orders, nation, state, world, scenario, ruleset)
    diagnostics: list[Diagnostic] = [*parsed.diagnostics, *checked.diagnostics]
    normalized = normalize(checked.orders, nations=nation_words(scenario))
    if preface:  # a comment opening the stored orders: who gave them (service/proxy.py)
        normalized = f"{preface}\n{normalized}"
    lines = text.splitlines()
    # Each Diagnostic's fields are plain values: a copy of its __dict__ (the fields in order)
    # is dataclasses.asdict's result without its recursion (for every mail, issue 11).
    stored = tuple(vars(d).copy() for d in diagnostics)
    shown = [{**d, "source": lines[d["line"] - 1].strip() if 0 < d["line"] <= len(lines) else d["text"]}
             for d in stored]
    return SeatCheck(len(checked.orders), normalized, stored,
                     {s: tuple(d for d in shown if d["severity"] == s) for s in ("error", "warning", "flag")})


def receipt_words(seat: SeatCheck, *, game: str, nation_name: str, turn: int, date: str, deadline: str,
                  check_only: bool, replaced: bool, entered: bool = False, later: str = "",
                  dated: str = "") -> tuple[str, str]:
    """The receipt's text and HTML (templates/receipt.*.j2)."""
    return render("receipt", game=game, nation_name=nation_name, turn=turn, date=date, check_only=check_only,
                  replaced=replaced, deadline=deadline, errors=list(seat.shown["error"]),
                  warnings=list(seat.shown["warning"]), flags=list(seat.shown["flag"]),
                  normalized=seat.normalized, entered=entered, later=later, dated=dated)
