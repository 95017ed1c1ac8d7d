"""`moderator scenario check|show`: the world and scenario data as loaded, and their integrity."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("scenario", help="check or show a scenario's map and data")
    verbs = p.add_subparsers(dest="scenario_verb", metavar="check|show", required=True)
    c = verbs.add_parser("check", help="integrity report; exit 1 on any failure")
    c.add_argument("--scenario", default="1914")
    c.add_argument("--json", action="store_true", help="machine-readable output")
    c.set_defaults(func=cmd_check)
    s = verbs.add_parser("show", help="print the map and scenario data as loaded")
    s.add_argument("--scenario", default="1914")
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=cmd_show)


def cmd_check(args: argparse.Namespace) -> int:
    from moderator.world.check import run_checks

    results = run_checks(args.scenario)
    failed = [r for r in results if not r.ok]
    if args.json:
        print(json.dumps([{"check": r.name, "ok": r.ok, "problems": r.problems} for r in results], indent=1))
    else:
        for r in results:
            print(f"{'ok  ' if r.ok else 'FAIL'} {r.name}")
            for p in r.problems[:40]:
                print(f"       - {p}")
            if len(r.problems) > 40:
                print(f"       ... and {len(r.problems) - 40} more")
        print(f"\n{len(results) - len(failed)} of {len(results)} checks passed.")
    return 1 if failed else 0


def show_data(name: str) -> dict[str, Any]:
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    world = load_world(name)
    scenario = load_scenario(name)
    return {
        "territories": [
            {**asdict(t), "neighbours": sorted(world.neighbours(t.name))}
            for t in sorted(world.territories.values(), key=lambda t: (t.section, t.name))
        ],
        "passages": [asdict(p) for p in world.passages],
        "groups": world.groups,
        "nations": {k: asdict(v) for k, v in sorted(scenario.nations.items())},
        "calendar": {"start": f"{scenario.start_year}-{scenario.start_month:02d}",
                     "months_per_turn": scenario.months_per_turn, "turns": scenario.turns},
    }


def cmd_show(args: argparse.Namespace) -> int:
    data = show_data(args.scenario)
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    print(f"Scenario {args.scenario}: {len(data['territories'])} places, {len(data['nations'])} nations\n")
    section = None
    for t in data["territories"]:
        if t["section"] != section:
            section = t["section"]
            print(f"== {section} ==")
        flags = "".join(f for f, on in (("C", t["city"]), ("I", t["industry"]), ("P", t["port"]),
                                        ("*", t["capital"])) if on)
        owner = t["owner"] or "sea"
        print(f"  {t['name']:<28} {t['kind']:<4} {t['value']:>3} {owner:<16} {flags:<4} "
              f"-> {', '.join(t['neighbours'])}")
    print("\nNations:")
    for nid, n in data["nations"].items():
        print(f"  {nid:<16} {n['name']:<28} {n['kind']:<8} {n['side']:<8} income {n['income_rule']}")
    return 0
