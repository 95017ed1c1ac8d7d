"""The lines of a report's intelligence section (3.3 Reconaissance, 3.2 Espionage).

Passive reconnaissance rolls once for every enemy place next to the side's units, so a
front of thirty places gives thirty misses, each telling only a colour band (3.2.2.4).
One line a miss buried the few hits and the espionage among them: the misses are told
together on one line, grouped by band (red first: the biggest stacks matter most), at
the place of the first; everything else keeps its own line. The report's JSON keeps
every event as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

BAND_ORDER = ("red", "yellow", "black")
SPANS = {"black": "0-5", "yellow": "6-20", "red": "21 or more"}


def _miss(told: Any) -> bool:
    return bool(told.code == "recon-report" and told.args.get("seen") != "exact")


def intelligence_lines(told: Sequence[Any]) -> list[str]:
    """The section's lines: each event's text, the reconnaissance misses (two or more) as one."""
    misses = [t for t in told if _miss(t)]
    if len(misses) < 2:
        return [t.text for t in told]
    by_band: dict[str, list[str]] = {}
    for t in misses:
        by_band.setdefault(str(t.args.get("band", "black")), []).append(f"{t.args['place']} ({t.args['percent']}%)")
    bands = sorted(by_band, key=lambda b: BAND_ORDER.index(b) if b in BAND_ORDER else len(BAND_ORDER))
    parts = [f"{band} ({SPANS.get(band, '?')}): {', '.join(sorted(by_band[band]))}" for band in bands]
    grouped = (f"Reconnaissance missed {len(misses)} places, colour band only (the chance of a hit in "
               f"brackets): {'; '.join(parts)}.")
    lines: list[str] = []
    for t in told:
        if not _miss(t):
            lines.append(t.text)
        elif t is misses[0]:
            lines.append(grouped)
    return lines
