"""check(): parsed orders against the game, by the engine's own rules.

The rules live in the order types' homes (moderator/engine/orders/); this module runs
them read-only on the position the orders will meet (moderator.engine.check) and turns
what they say into Diagnostics for the receipt: the line and column of the words at
fault, the sentence from templates/problems/, and the severity (error: the order is
dropped; warning: kept, read it; flag: kept, the moderator reviews it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.engine.check import check_orders
from moderator.engine.names import nation_id
from moderator.engine.problems import ERROR, WARNING, Problem
from moderator.engine.ruleset import Ruleset
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.orders.diagnostics import Diagnostic
from moderator.orders.messages import message
from moderator.orders.parser import Header, parse_orders
from moderator.world.model import World
from moderator.world.scenario_model import Scenario


@dataclass
class Validation:
    """Orders that survive (canonical names, in the order written) and all diagnostics."""

    orders: list[m.Order] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def resolve_nation_id(nation: str, scenario: Scenario) -> str | None:
    return nation_id(scenario, nation)


def diagnostic(order: m.Order, p: Problem, names: object = None) -> Diagnostic:
    """Where in the mail the problem is: the order's line, at the offending words if given."""
    span = order.span
    column = span.column
    if p.at:
        at = span.text.lower().find(p.at.lower())
        column = span.column + at if at >= 0 else span.column
    return Diagnostic(p.severity, span.line, column, p.at or span.text,
                      message(p, names if callable(names) else None), p.code)


def check(orders: list[m.Order], nation: str, state: GameState, world: World,
          scenario: Scenario, ruleset: Ruleset | None = None) -> Validation:
    """Validate and canonicalise: the kept orders plus every diagnostic, by line."""
    nid = resolve_nation_id(nation, scenario)
    if nid is None:
        names = ", ".join(sorted(n.name for n in scenario.nations.values()))
        return Validation([], [Diagnostic(ERROR, 0, 0, nation, f'"{nation}" is not a nation in this '
                                          f"game. The nations are: {names}", "unknown-nation")])

    def name(n: str) -> str:
        return scenario.nations[n].name if n in scenario.nations else n

    kept: list[m.Order] = []
    diagnostics: list[Diagnostic] = []
    for verdict in check_orders(orders, nid, state, world, scenario, ruleset, whole_table=False):
        if verdict.kept:
            kept.append(verdict.order)
        diagnostics.extend(diagnostic(verdict.order, p, name) for p in verdict.problems)
    return Validation(kept, sorted(diagnostics, key=lambda d: (d.line, d.column)))


def check_rulings(text: str, state: GameState, world: World, scenario: Scenario,
                  ruleset: Ruleset | None = None) -> Validation:
    """A moderator's rulings (grammar/rulings.lark) checked on the position they will meet."""
    from moderator.engine.context import MODERATOR
    from moderator.orders.rulings import parse_rulings

    parsed = parse_rulings(text)

    def name(n: str) -> str:
        return scenario.nations[n].name if n in scenario.nations else n

    kept: list[m.Order] = []
    diagnostics = list(parsed.diagnostics)
    for verdict in check_orders(parsed.orders, MODERATOR, state, world, scenario, ruleset):
        if verdict.kept:
            kept.append(verdict.order)
        diagnostics.extend(diagnostic(verdict.order, p, name) for p in verdict.problems)
    return Validation(kept, sorted(diagnostics, key=lambda d: (d.line, d.column)))


def validate(orders: list[m.Order], nation: str, state: GameState, world: World,
             scenario: Scenario) -> list[Diagnostic]:
    """The diagnostics of `orders` for `nation` in this state (parsing is separate)."""
    return check(orders, nation, state, world, scenario).diagnostics


@dataclass
class CheckResult:
    header: Header
    orders: list[m.Order]  # kept orders, canonical
    diagnostics: list[Diagnostic]


def check_text(text: str, nation: str, state: GameState, world: World, scenario: Scenario,
               game: str | None = None) -> CheckResult:
    """Parse and validate a whole mail body: what `moderator check` and the CHECK mail do."""
    parsed = parse_orders(text)
    result = check(parsed.orders, nation, state, world, scenario)
    extra = header_problems(parsed.header, nation, state, scenario, game)
    diagnostics = sorted(parsed.diagnostics + result.diagnostics + extra, key=lambda d: (d.line, d.column))
    return CheckResult(parsed.header, result.orders, diagnostics)


def header_problems(h: Header, nation: str, state: GameState, scenario: Scenario,
                    game: str | None) -> list[Diagnostic]:
    """The header lines against the game: each problem once, on the header line itself."""
    out: list[Diagnostic] = []
    nid = resolve_nation_id(nation, scenario)
    if h.nation is not None and resolve_nation_id(h.nation, scenario) != nid:
        name = scenario.nations[nid].name if nid in scenario.nations else nation
        out.append(Diagnostic(ERROR, h.lines.get("nation", 0), 1, h.nation,
                              f"the NATION line says {h.nation}, but these orders are checked for {name}",
                              "header-nation"))
    if h.turn is not None and h.turn != state.turn:
        out.append(Diagnostic(WARNING, h.lines.get("turn", 0), 1, str(h.turn),
                              f"the TURN line says {h.turn}, but the game is at turn {state.turn}",
                              "header-turn"))
    if game is not None and h.game is not None and h.game.strip().lower() != game.strip().lower():
        out.append(Diagnostic(ERROR, h.lines.get("game", 0), 1, h.game, f"the GAME line says {h.game}, not {game}",
                              "header-game"))
    return out
