"""`moderator check ORDERS.txt --nation NATION [--game GAME] [--json]`: the offline checker.

Players (and the CHECK mail keyword) use it before sending: it parses and validates the
orders and prints every diagnostic with line and column. Exit 0 when there is no error,
1 when an order would be dropped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from moderator.engine.state import GameState
from moderator.orders.checker import CheckResult, check_text
from moderator.orders.diagnostics import ERROR
from moderator.orders.echo import nation_words, normalize
from moderator.orders.messages import counted
from moderator.world.model import World
from moderator.world.scenario_model import Scenario


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this package's verbs to the `moderator` command."""
    p = sub.add_parser("check", help="check a file of orders without submitting them",
                       description="Parse and validate orders; exit 0 if clean, 1 if any order has an error.")
    p.add_argument("orders", type=Path, help="the orders file ('-' reads standard input)")
    p.add_argument("--nation", required=True, help="the nation giving the orders (name or alias)")
    p.add_argument("--game", help="check against this game's current state (default: the scenario's start)")
    p.add_argument("--scenario", default="1914", help="scenario when no --game is given (default 1914)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--config", type=Path, default=None,
                   help="configuration file, for --game (default: $MODERATOR_CONFIG or ./moderator.toml)")
    p.set_defaults(func=run_check)


def _load(game: str | None, scenario_name: str,
          config: Path | None = None) -> tuple[GameState, World, Scenario, str]:
    """The state to check against: the game's current snapshot, else the opening position."""
    from moderator.world.loader import load_world
    from moderator.world.scenario import initial_state, load_scenario

    if game:
        from moderator.service.config import load_config
        from moderator.service.context import Service
        from moderator.store.db import Store

        svc = Service(store=Store(load_config(config).database))
        record = svc.store.game(game)
        if record is None:
            raise SystemExit(f"moderator check: no game '{game}' in the database")
        world, scenario = load_world(record.scenario), load_scenario(record.scenario)
        has_snapshot = svc.store.snapshot(game, record.turn) is not None
        # The position the orders will meet: with the moderator's "now" rulings of the turn.
        state = svc.position(record) if has_snapshot else initial_state(scenario, world, game)
        return state, world, scenario, f"game {game}, turn {state.turn}"
    world, scenario = load_world(scenario_name, strict=False), load_scenario(scenario_name)
    return initial_state(scenario, world, "check"), world, scenario, f"the {scenario_name} opening position"


def run_check(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if str(args.orders) == "-" else args.orders.read_text(encoding="utf-8", errors="replace")
    state, world, scenario, against = _load(args.game, args.scenario, args.config)
    result = check_text(text, args.nation, state, world, scenario, game=args.game)
    if args.json:
        print(json.dumps(to_json(result, scenario), indent=1, ensure_ascii=False))
    else:
        print(render(result, against, scenario))
    return 1 if any(d.severity == ERROR for d in result.diagnostics) else 0


def to_json(result: CheckResult, scenario: Scenario | None = None) -> dict[str, object]:
    h = result.header
    nations = nation_words(scenario) if scenario is not None else None
    return {
        "header": {"game": h.game, "nation": h.nation, "turn": h.turn, "secret": "******" if h.secret else None},
        "orders": normalize(result.orders, nations=nations).splitlines(),
        "diagnostics": [d.to_dict() for d in result.diagnostics],
        "errors": sum(d.severity == ERROR for d in result.diagnostics),
    }


def render(result: CheckResult, against: str, scenario: Scenario | None = None) -> str:
    """The plain-text report: diagnostics first, then the orders as understood."""
    lines = [f"Checked against {against}."]
    counts = {s: sum(d.severity == s for d in result.diagnostics) for s in ("error", "warning", "flag")}
    lines.append(f"{counted(len(result.orders), 'order')} accepted; {counted(counts['error'], 'error')}, "
                 f"{counted(counts['warning'], 'warning')}, {counts['flag']} for the moderator's review.")
    lines.extend(d.render() for d in result.diagnostics)
    lines.append("")
    lines.append("Your orders as the moderator reads them:")
    nations = nation_words(scenario) if scenario is not None else None
    lines.append(normalize(result.orders, result.header, nations).rstrip() or "(none)")
    return "\n".join(lines)
