"""Miscellaneous, missed turns: the orders the moderator plays for a seat that sent none.

"If such situation happens once then moderator will take defensive actions for neutrals
(for main war participants allies can give proxy orders), and will spend half of income
for new units (not half of saved resources). If possible moderator will build units in
the following odds: infantry:artillery:fighters=3:1:1. If it happens in two consecutive
turns then the player will be replaced."

The default, written as orders in the players' language so they are checked, stored and
replayed like any seat's (service/turns.py plays them at the deadline):
* defensive: no move, no attack: every unit stays where it is;
* half the income (rounded down) the nation collects on its current land and income rule
  (Phase 8), never more than it has saved, spent in turn on infantry, infantry, infantry,
  artillery, fighter until the next unit is unaffordable (infantry past the manpower limit
  at twice the price);
* each kind placed where the rules allow it (engine/placement.py) in the first of the
  nation's own held start territories by: its capital, an industrial complex, a city,
  value (highest first), name. A kind with no such place is not bought.
The text opens with MARKER so a second consecutive miss is recognized.
"""

from __future__ import annotations

from moderator.engine import manpower, placement
from moderator.engine.context import Position
from moderator.engine.phase8_income import apply_income_rule, full_income
from moderator.engine.problems import Problem
from moderator.engine.state import GameState
from moderator.orders.vocab import UNIT_ECHO
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

MARKER = "# Missed turn: the moderator's default orders (Miscellaneous)"
CYCLE = ("infantry", "infantry", "infantry", "artillery", "fighter")  # 3:1:1


def budget(pos: Position, nation: str) -> int:
    """Half the income (not of the saved resources), within what is saved."""
    ns = pos.nation(nation)
    income = apply_income_rule(ns.income_rule, full_income(pos.world, pos.state, nation, pos.turn))
    return max(0, min(income // 2, ns.saved))


def places(pos: Position, nation: str) -> list[str]:
    spec = pos.scenario.nations.get(nation)
    capital = spec.capital if spec else None
    held = [t for t in pos.world.home_of(nation) if pos.controller(t) == nation]
    return sorted(held, key=lambda t: (t != capital, not placement.has_industry(pos, nation, t),
                                       not pos.place(t).city, -pos.place(t).value, t))


def place_for(pos: Position, nation: str, kind: str) -> str | None:
    return next((t for t in places(pos, nation)
                 if not isinstance(placement.placement(pos, nation, kind, t), Problem)), None)


def purchases(pos: Position, nation: str) -> dict[tuple[str, str], int]:
    """(kind, place) -> count, bought in the 3:1:1 cycle within the budget."""
    money = budget(pos, nation)
    where = {k: place_for(pos, nation, k) for k in sorted(set(CYCLE))}
    normal_infantry = manpower.normal_left(pos, nation, where.get("infantry"))
    out: dict[tuple[str, str], int] = {}
    infantry = 0
    while True:
        bought = False
        for kind in CYCLE:
            stats, place = pos.stats(nation, kind), where[kind]
            if stats is None or place is None:
                continue
            price = stats.cost * (2 if kind == "infantry" and infantry >= normal_infantry else 1)
            if price > money or price <= 0:
                continue
            money -= price
            infantry += kind == "infantry"
            out[(kind, place)] = out.get((kind, place), 0) + 1
            bought = True
        if not bought:
            return out


def default_orders(state: GameState, world: World, scenario: Scenario, nation: str) -> str:
    """The order text played for a seat that missed the turn."""
    pos = Position(state, {}, world, scenario)
    lines = [MARKER, "# Defensive: every unit stays where it is; half the income spent on 3:1:1 units."]
    if nation not in state.nations:
        return "\n".join(lines) + "\n"
    for (kind, place), count in sorted(purchases(pos, nation).items(), key=lambda kv: (CYCLE.index(kv[0][0]), kv[0][1])):
        lines.append(f"BUILD {count} {UNIT_ECHO.get(kind, kind)} AT {place}")
    return "\n".join(lines) + "\n"


def is_default(text: str) -> bool:
    return text.startswith(MARKER)
