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

__all__ = ["MAP_CID", "FULL_MAP_CID", "Report", "TurnInfo", "build_reports", "PUBLIC", "with_map"]

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


def build_reports(state: GameState, events: Sequence[Event], scenario: Scenario, world: World,
                  info: TurnInfo, nations: Sequence[str], draw: MapRenderer, *,
                  bulletin_too: bool = True, parallel: bool = False) -> list[Report]:
    """Reports for the seated `nations`, for each alliance that has a seated member, and
    (bulletin_too) the public bulletin for every seated nation. The words first, then
    every map: `parallel`, in worker processes (reports/mapjobs.py; worth it only when
    `draw` really draws)."""
    names = namer(scenario)
    events = list(events)
    out: list[Report] = []
    jobs: list[Job] = []
    regions: list[str] = []  # the region each map will be drawn on (mapview.region_for)
    for nation in sorted(nations):
        report, job, view = _nation_parts(state, events, scenario, world, info, nation, draw)
        out.append(report)
        jobs.append(job)
        regions.append(region_for(world, view))
    for side in ("central", "allied"):
        members = alliance_members(state, side)
        seated = [n for n in members if n in nations]
        if not seated:
            continue
        view = alliance_view(state, scenario, events, side, world)
        content = alliance_report(world, view, info, names, side)
        title = map_title(info, SIDE_NAMES[side])
        text, html = render("alliance", r=content, map_src=f"cid:{MAP_CID}", full_src=f"cid:{FULL_MAP_CID}")
        out.append(_report(view.audience, seated,
                           f"{info.title}: turn {info.resolved_turn} status of the {SIDE_NAMES[side]}",
                           text, html, content.to_json()))
        jobs.append(functools.partial(draw, view, title))
        regions.append(region_for(world, view))
    if bulletin_too and nations:
        view = public_view(state, events)
        news = bulletin(view, events, info, names)
        text, html = render("bulletin", r=news, map_src=f"cid:{MAP_CID}", full_src=f"cid:{FULL_MAP_CID}")
        out.append(_report(PUBLIC, sorted(nations), f"{info.title}: turn {info.resolved_turn} news (public bulletin)",
                           text, html, news.to_json()))
        jobs.append(functools.partial(draw, view, map_title(info)))
        regions.append(region_for(world, view))
    # Drawn region by region: a region's base layer is drawn once and reused by its next
    # maps while it is still in mapdraw's small cache (a turn's maps span up to eleven regions).
    order = sorted(range(len(jobs)), key=lambda i: (regions[i], i))
    drawn = draw_all([jobs[i] for i in order], None if parallel else 1, [regions[i] for i in order])
    for i, files in zip(order, drawn, strict=True):
        out[i].png, out[i].png_inline = files
    return out


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
