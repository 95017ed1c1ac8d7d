"""Command-line verbs of this package (registered by moderator.cli)."""

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
