"""The game's public page ("Miscellaneous": after each update the new map is published on
the game's site): a static site a moderator can publish anywhere.

    index.html          the latest turn: its public map and bulletin, the archive
    turn-<N>.html       each resolved turn's bulletin and map, linked to its neighbours
    map-turn-<N>.png    the public map of that turn, full size (palette PNG)
    map-turn-<N>-small.png   the copy the page shows (it links to the full one)

Only public things go in: the bulletin (public events, the camps, every nation's manpower
losses) and the public map (who holds what, the turn's captures; no units). The same
content as the bulletin mail, from the same content model (reports/content.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from moderator.reports.content import Bulletin
from moderator.reports.render import environment


@dataclass
class TurnPage:
    news: Bulletin  # the turn's public bulletin
    map_full: bytes  # PNG
    map_small: bytes  # PNG


def page_name(turn: int) -> str:
    return f"turn-{turn}.html"


def write_site(out: Path, title: str, pages: Sequence[TurnPage]) -> list[Path]:
    """Write the site for `pages` (resolved turns, oldest first) into `out`; the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    template = environment().get_template("site.html.j2")
    turns = [p.news.resolved_turn for p in pages]
    archive = [(page_name(p.news.resolved_turn), f"Turn {p.news.resolved_turn} ({p.news.resolved_date})")
               for p in reversed(pages)]
    written: list[Path] = []
    for i, page in enumerate(pages):
        turn = page.news.resolved_turn
        full, small = out / f"map-turn-{turn}.png", out / f"map-turn-{turn}-small.png"
        full.write_bytes(page.map_full)
        small.write_bytes(page.map_small)
        written += [full, small]
        html = template.render(
            title=title, r=page.news, map_full=full.name, map_small=small.name, archive=archive,
            previous=page_name(turns[i - 1]) if i > 0 else "",
            following=page_name(turns[i + 1]) if i + 1 < len(pages) else "",
            latest=i == len(pages) - 1)
        path = out / page_name(turn)
        path.write_text(html, encoding="utf-8")
        written.append(path)
        if i == len(pages) - 1:
            (out / "index.html").write_text(html, encoding="utf-8")
            written.append(out / "index.html")
    if not pages:
        (out / "index.html").write_text(template.render(title=title, r=None, archive=[], latest=True,
                                                        previous="", following="", map_full="", map_small=""),
                                        encoding="utf-8")
        written.append(out / "index.html")
    return written
