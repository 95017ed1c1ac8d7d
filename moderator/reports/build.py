"""Turn reports: one per nation, one shared per alliance, and the public bulletin
(Miscellaneous: "each alliance will receive common status and positions of all members
units, and neutrals (including Japan) will receive only own status"; "after turn update,
all players will receive ... the information about common news"). Each with text, HTML,
the same content as JSON, and a map PNG of what that audience may see. No mail and no
database here: the service sends what this returns.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.orders.echo import nation_words
from moderator.reports.content import SIDE_NAMES, TurnInfo, alliance_report, bulletin, nation_report
from moderator.reports.mapfiles import map_files
from moderator.reports.mapjobs import Job, draw_all
from moderator.reports.mapview import region_for
from moderator.reports.neutrals import neutrals_known
from moderator.reports.render import render
from moderator.reports.visibility import View, alliance_members, alliance_view, nation_view, public_view
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

__all__ = ["MAP_CID", "FULL_MAP_CID", "Part", "Report", "TurnInfo", "build_reports", "draw_maps", "PUBLIC",
           "report_parts", "with_map"]

# Placeholders in a report's HTML the service swaps for the real Content-IDs (with_map): the
# inline copy shown in the mail, and the full-size map attached (map.png), which the inline
# copy links to so a click opens it at every pixel.
MAP_CID = "MAP-CID"
FULL_MAP_CID = "FULL-MAP-CID"
MAP_FILE = "map.png"


def with_map(html: str, inline: str = MAP_FILE, full: str = MAP_FILE) -> str:
    """`html` referring to the inline map as `inline` and to the full-size one as `full`
    (the mail's cid: URLs; both "map.png" where the report is written as files)."""
    return html.replace(f"cid:{FULL_MAP_CID}", full).replace(f"cid:{MAP_CID}", inline)
PUBLIC = "public"  # the audience of the bulletin


@dataclass
class Report:
    audience: str  # nation id, "alliance:<side>" or "public"
    nations: list[str]  # whose seats receive it
    subject: str
    text: str
    html: str  # refers to the inline map as MAP_CID, the full-size one as FULL_MAP_CID (with_map)
    png: bytes  # the full-size map (palette PNG), attached
    data: dict[str, Any]  # the same content for players' tools (report.json)
    png_inline: bytes = b""  # the narrower copy shown in the HTML part

    def json_bytes(self) -> bytes:
        return (json.dumps(self.data, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


MapRenderer = Callable[[View, str], "bytes | Image.Image"]  # (view, title) -> the map (PNG or pixels)


def map_title(info: TurnInfo, audience: str = "") -> str:
    """A map's title: the game, the turn and its date (the map shows the position after
    it), and whose map it is ("Demo 1914, turn 1 (August 1914): German Empire")."""
    title = f"{info.title}, turn {info.resolved_turn} ({info.resolved_date})"
    return f"{title}: {audience}" if audience else title


def _no_map() -> bytes:
    return b""


def _report(audience: str, nations: list[str], subject: str, text: str, html: str, data: dict[str, Any]) -> Report:
    """A report whose map is drawn later (mapjobs.draw_all fills png and png_inline)."""
    return Report(audience, nations, subject, text, html, b"", data)


def namer(scenario: Scenario) -> Callable[[str], str]:
    def names(nid: str) -> str:
        n = scenario.nations.get(nid)
        return n.name if n else nid
    return names


Built = tuple[Report, Job, str]  # a report without its map, the job that draws it, its region


@dataclass(frozen=True)
class Part:
    """One audience's report, made on demand: a nation's, an alliance's status or the public
    bulletin. The service makes each apart when making them all at once failed, so one
    audience's failure never takes another's report with it (issue 11), and makes one again
    without its map (words that say no map is attached) when its map cannot be drawn."""

    audience: str  # nation id, "alliance:<side>" or "public" (Report.audience)
    maker: Callable[[MapRenderer | None], Built]
    draw: MapRenderer | None

    def make(self) -> Built:
        return self.maker(self.draw)

    def without_map(self) -> Report:
        return self.maker(None)[0]


def report_parts(state: GameState, events: Sequence[Event], scenario: Scenario, world: World,
                 info: TurnInfo, nations: Sequence[str], draw: MapRenderer | None, *,
                 bulletin_too: bool = True) -> list[Part]:
    """The reports for the seated `nations`, for each alliance that has a seated member, and
    (bulletin_too) the public bulletin for every seated nation; without `draw`, no maps."""
    events = list(events)
    parts = [Part(nation, functools.partial(_nation_part, state, events, scenario, world, info, nation), draw)
             for nation in sorted(nations)]
    for side in ("central", "allied"):
        seated = [n for n in alliance_members(state, side) if n in nations]
        if seated:
            parts.append(Part(f"alliance:{side}", functools.partial(
                _alliance_part, state, events, scenario, world, info, side, seated), draw))
    if bulletin_too and nations:
        parts.append(Part(PUBLIC, functools.partial(_bulletin_part, state, events, scenario, world, info,
                                                    sorted(nations)), draw))
    return parts


def build_reports(state: GameState, events: Sequence[Event], scenario: Scenario, world: World,
                  info: TurnInfo, nations: Sequence[str], draw: MapRenderer | None, *,
                  bulletin_too: bool = True, parallel: bool = False) -> list[Report]:
    """Every report of report_parts(): the words first, then every map (draw_maps)."""
    parts = report_parts(state, events, scenario, world, info, nations, draw, bulletin_too=bulletin_too)
    return draw_maps([part.make() for part in parts], parallel)


def draw_maps(built: Sequence[Built], parallel: bool = False) -> list[Report]:
    """The reports with their maps drawn: `parallel`, in worker processes (reports/mapjobs.py;
    worth it only when the maps are really drawn). Drawn region by region: a region's base
    layer is drawn once and reused by its next maps while it is still in mapdraw's small
    cache (a turn's maps span up to eleven regions)."""
    order = sorted(range(len(built)), key=lambda i: (built[i][2], i))
    drawn = draw_all([built[i][1] for i in order], None if parallel else 1, [built[i][2] for i in order])
    for i, files in zip(order, drawn, strict=True):
        built[i][0].png, built[i][0].png_inline = files
    return [report for report, _, _ in built]


def _nation_part(state: GameState, events: Sequence[Event], scenario: Scenario, world: World, info: TurnInfo,
                 nation: str, draw: MapRenderer | None) -> Built:
    report, job, view = _nation_parts(state, events, scenario, world, info, nation, draw)
    return report, job, region_for(world, view)


def _alliance_part(state: GameState, events: list[Event], scenario: Scenario, world: World, info: TurnInfo,
                   side: str, seated: list[str], draw: MapRenderer | None) -> Built:
    view = alliance_view(state, scenario, events, side, world)
    content = alliance_report(world, view, info, namer(scenario), side)
    text, html = render("alliance", r=content, map_src=f"cid:{MAP_CID}" if draw else "", full_src=f"cid:{FULL_MAP_CID}")
    report = _report(view.audience, seated, f"{info.title}: turn {info.resolved_turn} status of the {SIDE_NAMES[side]}",
                     text, html, content.to_json())
    job = functools.partial(draw, view, map_title(info, SIDE_NAMES[side])) if draw else _no_map
    return report, job, region_for(world, view)


def _bulletin_part(state: GameState, events: list[Event], scenario: Scenario, world: World, info: TurnInfo,
                   nations: list[str], draw: MapRenderer | None) -> Built:
    view = public_view(state, events)
    news = bulletin(view, events, info, namer(scenario))
    text, html = render("bulletin", r=news, map_src=f"cid:{MAP_CID}" if draw else "", full_src=f"cid:{FULL_MAP_CID}")
    report = _report(PUBLIC, nations, f"{info.title}: turn {info.resolved_turn} news (public bulletin)",
                     text, html, news.to_json())
    return report, functools.partial(draw, view, map_title(info)) if draw else _no_map, region_for(world, view)


def _nation_parts(state: GameState, events: Sequence[Event], scenario: Scenario, world: World, info: TurnInfo,
                  nation: str, draw: MapRenderer | None) -> tuple[Report, Job, View]:
    """One nation's report without its map, the job that draws the map, and its view."""
    names = namer(scenario)
    view = nation_view(state, scenario, list(events), nation, world)
    content = nation_report(world, view, info, names, nation_words(scenario))
    content.neutrals = neutrals_known(scenario, view.sides, view.events, nation, names)
    text, html = render("report", r=content, map_src=f"cid:{MAP_CID}" if draw else "", full_src=f"cid:{FULL_MAP_CID}")
    report = _report(nation, [nation], f"{info.title}: turn {info.resolved_turn} report for {names(nation)}",
                     text, html, content.to_json())
    job = functools.partial(draw, view, map_title(info, names(nation))) if draw else _no_map
    return report, job, view


def nation_mail(state: GameState, events: Sequence[Event], scenario: Scenario, world: World, info: TurnInfo,
                nation: str, draw: MapRenderer | None = None) -> Report:
    """One nation's own report; without `draw`, no map (the JSON and text tools need none)."""
    report, job, _ = _nation_parts(state, events, scenario, world, info, nation, draw)
    report.png, report.png_inline = map_files(job())
    return report
