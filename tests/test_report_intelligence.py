"""A report's intelligence section (3.3, 3.2): the passive reconnaissance misses of a long
front on one line, grouped by colour band; hits and espionage keep their own lines; the
JSON keeps every event."""

from __future__ import annotations

import json

from moderator.engine.context import MODERATOR
from moderator.engine.events import Event
from moderator.reports.build import nation_mail
from moderator.reports.content import TurnInfo
from tests import engine_fixture as fx
from tests.report_text import flat

CENTRAL = ("austria", "germany")


def miss(place: str, band: str, percent: int) -> Event:
    return Event("recon-report", "3.3", CENTRAL, {"place": place, "seen": "band", "units": {}, "band": band,
                                                   "percent": percent})


def test_the_misses_are_one_line_grouped_by_band_and_the_hits_keep_theirs() -> None:
    hit = Event("recon-report", "3.3", CENTRAL, {"place": "Lublin", "seen": "exact",
                                                  "units": {"russia": {"infantry": 4}}, "band": "black", "percent": 81})
    spy = Event("spied-army", "3.2", ("germany", MODERATOR), {"nation": "germany", "order": 1, "target": "russia",
                                                              "units": {"infantry": 2}})
    events = [miss("Warsaw", "black", 19), hit, miss("Kovno", "red", 40), spy, miss("Lodz", "black", 25)]
    state = fx.state([("germany", "infantry", "Posen", 2), ("russia", "infantry", "Warsaw", 3)])
    info = TurnInfo("g1", "War", 1, "August 1914", 2, "October 1914", "soon")
    report = nation_mail(state, events, fx.scenario(), fx.world(), info, "germany")
    section = report.text.split("== What your reconnaissance and agents learned ==\n")[1].split("\n\n")[0]
    lines = [flat(x) for x in section.split("\n- ")]  # one bullet each, wrapped at 78 characters
    assert len(lines) == 3, section
    assert lines[0] == ("- Reconnaissance missed 3 places, colour band only (the chance of a hit in brackets): "
                        "red (21 or more): Kovno (40%); black (0-5): Lodz (25%), Warsaw (19%).")
    assert "Lublin" in lines[1] and "Russia 4 infantry" in lines[1] and "2 infantry" in lines[2]
    assert "Reconnaissance missed 3 places" in report.html
    data = json.loads(report.json_bytes())
    assert [t["code"] for t in data["intelligence"]] == ["recon-report"] * 3 + ["spied-army", "recon-report"]


def test_a_single_miss_reads_as_before() -> None:
    state = fx.state([("germany", "infantry", "Posen", 2)])
    info = TurnInfo("g1", "War", 1, "August 1914", 2, "October 1914", "soon")
    report = nation_mail(state, [miss("Warsaw", "yellow", 19)], fx.scenario(), fx.world(), info, "germany")
    assert "- Reconnaissance of Warsaw (19%): yellow" in report.text and "missed" not in report.text
