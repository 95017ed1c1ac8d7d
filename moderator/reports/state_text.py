"""`moderator state` for a reader: the position as a table of nations, or one nation's
status as its report shows it (templates/state.txt.j2); `--json` keeps the raw state."""

from __future__ import annotations

from dataclasses import dataclass

from moderator.engine.state import GameState
from moderator.reports.content import sheet
from moderator.reports.render import environment
from moderator.reports.visibility import nation_view
from moderator.world.model import World
from moderator.world.scenario_model import Scenario


@dataclass
class Row:
    name: str
    side: str
    saved: int
    lands: int
    units: int
    at_war_with: list[str]


def position_text(state: GameState, scenario: Scenario, world: World, title: str, date: str,
                  nation: str | None = None) -> str:
    """The text `moderator state` prints: every nation on the map in a table, or `nation`'s status."""
    def names(nid: str) -> str:
        return scenario.nations[nid].name if nid in scenario.nations else nid

    context: dict[str, object] = {"title": title, "turn": state.turn, "date": date,
                                  "nation": None, "nations": []}
    if nation is not None:
        status = nation_view(state, scenario, [], nation).statuses[0]
        context["nation"] = sheet(world, status, state.turn, names)
    else:
        lands: dict[str, int] = {}
        for holder in state.control.values():
            lands[holder] = lands.get(holder, 0) + 1
        units: dict[str, int] = {}
        for u in state.units:
            units[u.nation] = units.get(u.nation, 0) + 1
        context["nations"] = [Row(names(n), ns.side, ns.saved, lands.get(n, 0), units.get(n, 0),
                                  sorted(names(w) for w in ns.at_war_with))
                              for n, ns in sorted(state.nations.items(), key=lambda item: names(item[0]))
                              if lands.get(n) or units.get(n)]
    return environment().get_template("state.txt.j2").render(**context).strip() + "\n"
