"""Read the map data files of maps/<scenario>/ into a World.

The format is documented for moderators in docs/map-data.md. Loading is strict about
what it can't interpret (unknown columns, unknown names in adjacency) but reports
every problem instead of stopping at the first, so `moderator scenario check` can list
them all.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass, field
from pathlib import Path

from moderator.world.model import LAND, SEA, Passage, Territory, World, fold

MAPS_DIR = Path(__file__).resolve().parents[2] / "maps"

# File stem -> section key (model.SECTIONS uses the rules' letters).
SECTION_FILES = {
    "europe": "E",
    "middle_east": "M",
    "africa": "A",
    "asia_pacific": "P",
    "central_asia": "CA",
    "north_america": "N",
}
COLUMNS = ["name", "kind", "value", "owner", "city", "industry", "port", "capital",
           "colony", "features", "aliases", "lon", "lat"]
FEATURES = {"alps", "high-mountains", "fortress", "kiel-canal", "canal", "island", "strait-controller"}


@dataclass
class LoadReport:
    world: World
    problems: list[str] = field(default_factory=list)
    edge_sources: dict[frozenset[str], str] = field(default_factory=dict)  # edge -> "file:line"


def _flag(value: str) -> bool:
    return value.strip().lower() in {"y", "yes", "true", "1", "x"}


def _split(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(";") if v.strip())


def _read_territories(folder: Path, problems: list[str]) -> dict[str, Territory]:
    territories: dict[str, Territory] = {}
    for stem, section in SECTION_FILES.items():
        path = folder / "territories" / f"{stem}.csv"
        if not path.exists():
            problems.append(f"{path.name}: missing territory file for section {stem}")
            continue
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            if reader.fieldnames != COLUMNS:
                problems.append(f"{path.name}: header must be {','.join(COLUMNS)}")
            for lineno, row in enumerate(reader, start=2):
                where = f"{path.name}:{lineno}"
                try:
                    t = _territory(row, section)
                except (ValueError, KeyError, TypeError) as exc:
                    problems.append(f"{where}: cannot read row ({exc})")
                    continue
                if t.name in territories:
                    problems.append(f"{where}: duplicate name {t.name!r}")
                    continue
                unknown = set(t.features) - FEATURES
                if unknown:
                    problems.append(f"{where}: unknown feature(s) {', '.join(sorted(unknown))}")
                territories[t.name] = t
    return territories


def _territory(row: dict[str, str], section: str) -> Territory:
    kind = row["kind"].strip().lower()
    if kind not in (LAND, SEA):
        raise ValueError(f"kind must be land or sea, not {row['kind']!r}")
    colony = row["colony"].strip().lower() or None
    if colony not in (None, "major", "minor"):
        raise ValueError(f"colony must be major, minor or empty, not {colony!r}")
    return Territory(
        name=row["name"].strip(),
        kind=kind,
        section=section,
        aliases=_split(row["aliases"]),
        value=int(row["value"] or 0),
        owner=row["owner"].strip() or None,
        city=_flag(row["city"]),
        industry=_flag(row["industry"]),
        port=_flag(row["port"]),
        capital=_flag(row["capital"]),
        colony=colony,
        features=_split(row["features"]),
        label=(float(row["lon"]), float(row["lat"])),
    )


def _read_passages(folder: Path, problems: list[str]) -> list[Passage]:
    path = folder / "passages.csv"
    if not path.exists():
        return []
    out = []
    with path.open(newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            out.append(Passage(
                name=row["name"].strip(),
                kind=row["kind"].strip(),
                ends=(row["end_a"].strip(), row["end_b"].strip()),
                controllers=_split(row["controllers"]),
                note=row["note"].strip(),
            ))
    return out


def _read_edges(folder: Path) -> tuple[list[tuple[str, str, str]], dict[str, tuple[str, ...]], list[str]]:
    """(a, b, where) for every `A -- B` line, plus `# group: Name = A; B` declarations."""
    edges: list[tuple[str, str, str]] = []
    groups: dict[str, tuple[str, ...]] = {}
    problems: list[str] = []
    adj = folder / "adjacency"
    for path in sorted(adj.glob("*.txt")) if adj.exists() else []:
        for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            where = f"{path.name}:{lineno}"
            stripped = raw.strip()
            if stripped.startswith("#"):
                body = stripped.lstrip("#").strip()
                if body.lower().startswith("group:") and "=" in body:
                    name, members = body[len("group:"):].split("=", 1)
                    groups[name.strip()] = _split(members)
                continue
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split("--")]
            if len(parts) != 2 or not all(parts):
                problems.append(f"{where}: expected 'Place A -- Place B', got {line!r}")
                continue
            edges.append((parts[0], parts[1], where))
    return edges, groups, problems


def load_report(name: str = "1914", maps_dir: Path | None = None) -> LoadReport:
    """Load a world and every problem found while reading it."""
    folder = (maps_dir or MAPS_DIR) / name
    problems: list[str] = []
    territories = _read_territories(folder, problems)
    passages = _read_passages(folder, problems)
    probe = World(territories, {}, ())
    problems.extend(_alias_clashes(territories))
    raw_edges, groups, edge_problems = _read_edges(folder)
    problems.extend(edge_problems)
    # Straits, canals and sea gates are connections too: add them so authors need not repeat them.
    raw_edges += [(p.ends[0], p.ends[1], f"passages.csv:{p.name}") for p in passages]
    adjacency: dict[str, set[str]] = {n: set() for n in territories}
    sources: dict[frozenset[str], str] = {}
    for a, b, where in raw_edges:
        ca, cb = probe.resolve(a), probe.resolve(b)
        for typed, canon in ((a, ca), (b, cb)):
            if canon is None:
                hint = probe.suggest(typed)
                problems.append(f"{where}: unknown place {typed!r}" + (f" (did you mean {hint[0]!r}?)" if hint else ""))
        if ca is None or cb is None:
            continue
        if ca == cb:
            problems.append(f"{where}: {ca!r} is joined to itself")
            continue
        adjacency[ca].add(cb)
        adjacency[cb].add(ca)
        sources.setdefault(frozenset((ca, cb)), where)
    for p in passages:
        for c in p.controllers:
            if probe.resolve(c) is None:
                problems.append(f"passages.csv: {p.name}: unknown controller {c!r}")
    for gname, members in groups.items():
        for m in members:
            if probe.resolve(m) is None:
                problems.append(f"group {gname!r}: unknown member {m!r}")
    world = World(
        territories=territories,
        adjacency={k: frozenset(sorted(v)) for k, v in sorted(adjacency.items())},
        passages=tuple(passages),
        groups={g: tuple(probe.resolve(m) or m for m in ms) for g, ms in groups.items()},
    )
    return LoadReport(world, problems, sources)


def _alias_clashes(territories: dict[str, Territory]) -> list[str]:
    seen: dict[str, str] = {}
    problems = []
    for t in sorted(territories.values(), key=lambda t: t.name):
        for n in (t.name, *t.aliases):
            key = fold(n)
            other = seen.get(key)
            if other is not None and other != t.name:
                problems.append(f"name {n!r} of {t.name!r} clashes with {other!r}")
            seen.setdefault(key, t.name)
    return problems


@functools.lru_cache(maxsize=8)
def load_world(name: str = "1914", strict: bool = True) -> World:
    """The world of a scenario, cached. Raises if the data has problems (unless strict=False)."""
    report = load_report(name)
    if report.problems and strict:
        shown = "\n  ".join(report.problems[:20])
        more = f"\n  ... and {len(report.problems) - 20} more" if len(report.problems) > 20 else ""
        raise ValueError(f"map data for {name!r} has problems (run `moderator scenario check`):\n  {shown}{more}")
    return report.world
