"""Command-line verbs of this package (registered by moderator.cli): map, site."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this package's verbs to the `moderator` command."""
    from moderator.reports.mapdraw import REGIONS

    p = sub.add_parser("map", help="draw the political map of a scenario (1914 owners) as a PNG")
    p.add_argument("--scenario", default="1914", help="scenario folder under maps/ (default 1914)")
    p.add_argument("--out", required=True, type=Path, help="PNG file to write")
    p.add_argument("--region", default="world", choices=sorted(REGIONS), help="area to draw (default world)")
    p.add_argument("--title", default=None, help="title on the map (default: the scenario name)")
    p.set_defaults(func=_cmd_map)
    register_site(sub)


def _cmd_map(args: argparse.Namespace) -> int:
    from moderator.reports.geometry import load_geometry
    from moderator.reports.mapdraw import render_map
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    # strict=False: a drawing of the map is useful even while the data still has review items.
    world = load_world(args.scenario, strict=False)
    geometry = load_geometry(args.scenario)
    title = args.title if args.title is not None else f"The War to End All Wars: {args.scenario}"
    names = {k: v.name for k, v in load_scenario(args.scenario).nations.items()}
    png = render_map(geometry, world, region=args.region, title=title, names=names)
    args.out.write_bytes(png)
    print(f"wrote {args.out} ({len(png) // 1024} KiB, region {args.region})")
    return 0


def register_site(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("site", help="write the game's public page (static HTML: the public map and the bulletin "
                                    "of every resolved turn, with an archive) to publish anywhere")
    p.add_argument("--config", type=Path, default=None,
                   help="configuration file (default: $MODERATOR_CONFIG or ./moderator.toml)")
    p.add_argument("--game", required=True)
    p.add_argument("--out", required=True, type=Path, help="folder to write (index.html, turn-N.html, maps)")
    p.set_defaults(func=_cmd_site)


def _cmd_site(args: argparse.Namespace) -> int:
    from moderator.service.commands import _service
    from moderator.service.site import publish_site

    svc, _ = _service(args)
    game = svc.game(args.game)
    written, turns = publish_site(svc, game, args.out)
    print(f"wrote {len(written)} files of the public page of {game.id} to {args.out} "
          f"({turns} resolved turn{'s' if turns != 1 else ''}); publish the folder as it is")
    return 0
