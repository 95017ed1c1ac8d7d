"""The game's public page from the store (Miscellaneous: "after turn update ... the new map
will be published on the game's site"): `moderator site` writes it on demand, and with a
[site] section in the configuration every resolution writes it again (resolve_game):

    [site]
    dir = "/var/www/wtea"     # each game's page goes to <dir>/<game id>/

The folder can then be served as it is (any static web server, or a copy to one).
"""

from __future__ import annotations

import json
from pathlib import Path

from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.reports import mapview
from moderator.reports.build import namer
from moderator.reports.content import bulletin
from moderator.reports.mapfiles import map_files
from moderator.reports.site import TurnPage, write_site
from moderator.reports.visibility import public_view
from moderator.service.context import Service
from moderator.store.tables import Game


def publish_site(svc: Service, game: Game, out: Path) -> tuple[list[Path], int]:
    """Write the public page of every resolved turn of `game` into `out`: (files, turns)."""
    from moderator.service.turns import turn_info

    scenario, world = svc.scenario(game), svc.world(game)
    pages = []
    for turn in range(game.turn):
        record, after = svc.store.turn_record(game.id, turn), svc.store.snapshot(game.id, turn + 1)
        if record is None or after is None:
            continue
        events = [Event(e["code"], e["phase"], tuple(e["seen_by"]), e["args"]) for e in json.loads(record.events)]
        view = public_view(GameState.loads(after), events)
        info = turn_info(svc, game, turn, ordered=sorted(json.loads(record.orders)), updated=record.resolved)
        full_path, small_path = out / f"map-turn-{turn}.png", out / f"map-turn-{turn}-small.png"
        if full_path.exists() and small_path.exists():  # a turn's public map never changes: drawn once
            full, small = full_path.read_bytes(), small_path.read_bytes()
        else:
            full, small = map_files(mapview.draw_view(world, view, f"{game.title}, turn {turn} ({info.resolved_date})"))
        pages.append(TurnPage(bulletin(view, events, info, namer(scenario)), full, small))
    return write_site(out, game.title, pages), len(pages)


def publish_after_update(svc: Service, game: Game) -> None:
    """With [site] configured, the page of `game` written again after its update; a failure
    is told to the moderator and never holds up the turn (its reports are already queued)."""
    if svc.site_dir is None:
        return
    out = svc.site_dir / game.id
    try:
        written, turns = publish_site(svc, game, out)
    except Exception as exc:  # noqa: BLE001 - the turn is committed; the page can be written again
        svc.say(f"the public page of {game.id} could not be written to {out}: {type(exc).__name__}: {exc}; "
                f"`moderator site --game {game.id} --out {out}` tries again")
        return
    svc.say(f"published the public page of {game.id} ({turns} turn{'s' if turns != 1 else ''}) to {out}")
