"""Turn reports: one per nation, one shared per alliance (Miscellaneous: "each alliance
will receive common status and positions of all members units, and neutrals (including
Japan) will receive only own status"). Each with text, HTML and a map PNG of what that
audience may see. No mail and no database here: the service sends what this returns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.reports.render import render
from moderator.reports.visibility import View, alliance_members, alliance_view, nation_view
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

SIDE_NAMES = {"central": "Central Powers", "allied": "Allied Powers"}
MAP_CID = "MAP-CID"  # placeholder the service swaps for the real Content-ID


@dataclass
class Report:
    audience: str  # nation id or "alliance:<side>"
    nations: list[str]  # whose seats receive it
    subject: str
    text: str
    html: str  # refers to the map as MAP_CID
    png: bytes


@dataclass
class TurnInfo:
    game: str
    title: str
    resolved_turn: int
    resolved_date: str
    turn: int
    date: str
    deadline: str


MapRenderer = Callable[[View, str], bytes]  # (view, title) -> PNG


def build_reports(state: GameState, events: Sequence[Event], scenario: Scenario, world: World,
                  info: TurnInfo, nations: Sequence[str], draw: MapRenderer) -> list[Report]:
    """Reports for the seated `nations` and for each alliance that has a seated member."""
    def names(nid: str) -> str:
        n = scenario.nations.get(nid)
        return n.name if n else nid

    out = []
    for nation in sorted(nations):
        view = nation_view(state, scenario, list(events), nation)
        out.append(_report(view, info, names, draw, [nation],
                           f"{info.title}: turn {info.resolved_turn} report for {names(nation)}", alliance=False))
    for side in ("central", "allied"):
        members = alliance_members(state, side)
        seated = [n for n in members if n in nations]
        if not seated:
            continue
        view = alliance_view(state, scenario, list(events), side)
        out.append(_report(view, info, names, draw, seated,
                           f"{info.title}: turn {info.resolved_turn} status of the {SIDE_NAMES[side]}",
                           alliance=True, side_name=SIDE_NAMES[side]))
    return out


def _report(view: View, info: TurnInfo, names: Callable[[str], str], draw: MapRenderer, nations: list[str],
            subject: str, *, alliance: bool, side_name: str = "") -> Report:
    title = f"{info.title}, turn {info.resolved_turn}: {side_name or names(view.audience)}"
    png = draw(view, title)
    text, html = render("report", view=view, names=names, alliance=alliance, side_name=side_name,
                        map_src=f"cid:{MAP_CID}", **vars(info))
    return Report(view.audience, nations, subject, text, html, png)
