#!/usr/bin/env python3
"""Derive the drawable map of a scenario: maps/<scenario>/geometry.json.

Inputs (all kept in git, so a moderator can move a territory and rebuild):
  maps/<scenario>/territories/*.csv      the places and their lon/lat anchors (authority)
  maps/<scenario>/adjacency/*.txt        the rules' connections (only used for the review file)
  maps/<scenario>/geometry/anchor_overrides.csv   name,lon,lat: a better anchor for the geometry
  maps/<scenario>/geometry/seeds.csv     name,lon,lat: extra Voronoi seeds of a place, to stretch
                                         its cell to a neighbour the rules say it touches
  maps/<scenario>/geometry/islands.csv   territory,west,south,east,north,note: land with no anchor
                                         inside that box goes to that territory (small islands);
                                         territory "-" keeps it out of every place (background land)
  maps/<scenario>/geometry/cuts.csv      name,kind,points: fixed borders / basin separators as
                                         "lon lat; lon lat; ..." polylines; kind land|sea|both.
                                         A cut splits the faces it crosses completely and, where it
                                         does not (a strait between seas that also meet elsewhere),
                                         still splits every Voronoi cell it crosses
  maps/<scenario>/geometry/borders.csv   a,b,kind: a modern border (Natural Earth country names)
                                         that was also a border in the scenario's year
  Natural Earth coastlines and countries (public domain) from the npm package world-atlas,
  fetched once into var/cache/world-atlas (outside git).

Method: every place gets the Voronoi cell of its anchor (computed in Mercator space so cells
are not squashed at high latitudes, with copies of the anchors shifted by 360 degrees so cells
wrap around the antimeridian), clipped to land (land places) or to the sea (sea zones). Cut
lines split land and sea into faces first, and each face is shared only among the anchors
inside it, so cells cannot leak across a fixed border or through a strait. Pieces of a cell
cut off from its anchor, and faces without an anchor, go to the neighbour they share the longest
border with, else (islands) to the islands table or the nearest land place.

Outputs: maps/<scenario>/geometry.json and maps/<scenario>/adjacency_review.txt.
Run: .venv/bin/python maps/build_geometry.py [--scenario 1914]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import subprocess
import sys
import tarfile
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel, unary_union

ROOT = Path(__file__).resolve().parent.parent
ATLAS_VERSION = "2.0.2"
ATLAS_DIR = ROOT / "var" / "cache" / "world-atlas"

MERC_LIMIT = 85.0  # Mercator is undefined at the poles; clamp latitudes here
SEA_SOUTH = -66.0  # sea zones stop short of Antarctica
LAND_SOUTH = -60.0  # no land place south of here (Antarctica stays background)
ISLAND_REACH = 3.0  # degrees: an island with no owner goes to the nearest land place this close
SIMPLIFY = 0.03  # degrees: coverage simplification tolerance for the committed file
MIN_PART_AREA = 0.0015  # square degrees: drop specks smaller than this from the output
MIN_SHARED = 0.05  # degrees of common border for two places to count as touching
EPS = 1e-7
UNOWNED = "-"  # islands.csv owner meaning "no place: leave as background land"


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Place:
    name: str
    kind: str  # land | sea
    lon: float
    lat: float
    aliases: tuple[str, ...] = ()
    seeds: tuple[tuple[float, float], ...] = ()  # extra Voronoi seeds (geometry/seeds.csv)


def fold(name: str) -> str:
    """Same folding as moderator.world.model.fold (kept local: this script has no package deps)."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def read_places(scenario_dir: Path, quiet: bool = False) -> list[Place]:
    overrides = read_overrides(scenario_dir / "geometry" / "anchor_overrides.csv")
    seeds: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for row in read_rows(scenario_dir / "geometry" / "seeds.csv"):
        seeds[fold(row["name"])].append((float(row["lon"]), float(row["lat"])))
    places: list[Place] = []
    for path in sorted((scenario_dir / "territories").glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                name = (row.get("name") or "").strip()
                if not name:
                    continue
                try:
                    lon, lat = float(row["lon"]), float(row["lat"])
                except (KeyError, TypeError, ValueError):
                    if not quiet:
                        warn(f"{path.name}: {name}: no usable lon/lat, skipped")
                    continue
                lon, lat = overrides.get(fold(name), (lon, lat))
                kind = (row.get("kind") or "land").strip().lower()
                aliases = tuple(a.strip() for a in (row.get("aliases") or "").split(";") if a.strip())
                extra = tuple(seeds.pop(fold(name), ()))
                places.append(Place(name, "sea" if kind == "sea" else "land", lon, lat, aliases, extra))
    if seeds and not quiet:
        warn(f"seeds.csv: no such place: {', '.join(sorted(seeds))}")
    return sorted(places, key=lambda p: p.name)


def input_digest(scenario_dir: Path) -> str:
    """Fingerprint of everything the geometry is derived from (anchors and this folder's tables),
    so a test can tell when geometry.json is out of date."""
    h = hashlib.sha256()
    for place in read_places(scenario_dir, quiet=True):
        h.update(f"{place.name}|{place.kind}|{place.lon:.5f}|{place.lat:.5f}|{place.seeds}\n".encode())
    for path in sorted((scenario_dir / "geometry").glob("*.csv")):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def read_overrides(path: Path) -> dict[str, tuple[float, float]]:
    out: dict[str, tuple[float, float]] = {}
    for row in read_rows(path):
        out[fold(row["name"])] = (float(row["lon"]), float(row["lat"]))
    return out


def read_rows(path: Path) -> list[dict[str, str]]:
    """CSV rows, skipping lines whose first cell starts with '#'."""
    if not path.exists():
        return []
    with path.open(newline="", encoding="utf-8") as fh:
        lines = [ln for ln in fh if ln.strip() and not ln.lstrip().startswith("#")]
    # restkey: a free-text last column (note) may itself contain commas; extra cells are ignored.
    rows = csv.DictReader(lines, restkey="_rest")
    return [
        {k: (v or "").strip() for k, v in row.items() if k != "_rest" and isinstance(v, str | None)}
        for row in rows
    ]


def parse_points(text: str) -> list[tuple[float, float]]:
    pts = []
    for chunk in text.split(";"):
        if chunk.strip():
            lon, lat = chunk.split()
            pts.append((float(lon), float(lat)))
    return pts


def warn(msg: str) -> None:
    print(f"warning: {msg}", file=sys.stderr)


# ---------------------------------------------------------------- Natural Earth via TopoJSON


def ensure_atlas() -> Path:
    """The world-atlas TopoJSON, fetched with npm into the cache on first use."""
    target = ATLAS_DIR / "package" / "countries-50m.json"
    if not target.exists():
        ATLAS_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "pack", f"world-atlas@{ATLAS_VERSION}"], cwd=ATLAS_DIR, check=True)
        with tarfile.open(ATLAS_DIR / f"world-atlas-{ATLAS_VERSION}.tgz") as tar:
            tar.extractall(ATLAS_DIR, filter="data")
    return target


class Topology:
    """A minimal TopoJSON reader: quantized, delta-encoded arcs -> shapely polygons."""

    def __init__(self, data: dict) -> None:
        (sx, sy), (tx, ty) = data["transform"]["scale"], data["transform"]["translate"]
        self.objects = data["objects"]
        self.arcs: list[list[tuple[float, float]]] = []
        for arc in data["arcs"]:
            x = y = 0
            pts = []
            for dx, dy in arc:
                x += dx
                y += dy
                pts.append((snap_lon(x * sx + tx), y * sy + ty))
            self.arcs.append(pts)

    def ring(self, indexes: Sequence[int]) -> list[tuple[float, float]]:
        pts: list[tuple[float, float]] = []
        for i in indexes:
            arc = self.arcs[i] if i >= 0 else self.arcs[~i][::-1]
            pts.extend(arc if not pts else arc[1:])
        return pts

    def geometry(self, obj: dict) -> BaseGeometry:
        if obj["type"] == "Polygon":
            polys = [obj["arcs"]]
        elif obj["type"] == "MultiPolygon":
            polys = obj["arcs"]
        elif obj["type"] == "GeometryCollection":
            return unary_union([self.geometry(g) for g in obj["geometries"]])
        else:
            return Polygon()
        out = []
        for rings in polys:
            shell, *holes = [self.ring(r) for r in rings]
            if len(shell) >= 4:
                out.append(planar_polygon(shell, [h for h in holes if len(h) >= 4]))
        return unary_union(out) if out else Polygon()

    def arc_ids(self, obj: dict) -> set[int]:
        polys = [obj["arcs"]] if obj["type"] == "Polygon" else obj.get("arcs", [])
        return {i if i >= 0 else ~i for rings in polys for ring in rings for i in ring}

    def shared_border(self, a: dict, b: dict) -> list[LineString]:
        """The arcs two countries share: their common border, exactly as in the data."""
        return [LineString(self.arcs[i]) for i in sorted(self.arc_ids(a) & self.arc_ids(b))]


def unwrap(ring: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Make longitudes continuous: world-atlas rings may jump from +180 to -180 (spherical data)."""
    out = [ring[0]]
    offset = 0.0
    for (x0, _), (x1, y1) in zip(ring, ring[1:], strict=False):
        if x1 - x0 > 180:
            offset -= 360
        elif x0 - x1 > 180:
            offset += 360
        out.append((x1 + offset, y1))
    return out


def close_around_pole(ring: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A ring that winds once around the globe (Antarctica) is closed along its pole."""
    drift = ring[-1][0] - ring[0][0]
    if abs(drift) < 180:
        return ring
    pole = -90.0 if sum(y for _, y in ring) < 0 else 90.0
    return [*ring, (ring[-1][0], pole), (ring[0][0], pole), ring[0]]


def planar_polygon(shell: list[tuple[float, float]], holes: list[list[tuple[float, float]]]) -> BaseGeometry:
    """A polygon in plain lon/lat, cut at the antimeridian into parts within -180..180."""
    flat = close_around_pole(unwrap(shell))
    xs = [x for x, _ in flat]
    lo, hi = min(xs), max(xs)
    fixed_holes = []
    for hole in holes:
        h = unwrap(hole)
        mid = sum(x for x, _ in h) / len(h)
        shift = 360.0 * round(((lo + hi) / 2 - mid) / 360.0)
        fixed_holes.append([(x + shift, y) for x, y in h])
    poly = shapely.make_valid(Polygon(flat, fixed_holes))
    if lo >= -180 and hi <= 180:
        return poly
    parts = []
    for shift in (-360.0, 0.0, 360.0):
        window = box(-180 - shift, -90, 180 - shift, 90)
        piece = poly.intersection(window)
        if not piece.is_empty:
            parts.append(affinity.translate(piece, shift))
    return unary_union(parts)


def snap_lon(lon: float) -> float:
    # Quantization leaves the antimeridian at 179.99999...; snap so both sides meet exactly.
    if abs(abs(lon) - 180.0) < 1e-6:
        return math.copysign(180.0, lon)
    return lon


# ---------------------------------------------------------------- Voronoi in Mercator space


def merc_y(lat: float) -> float:
    lat = max(-MERC_LIMIT, min(MERC_LIMIT, lat))
    return math.degrees(math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))


def inv_merc_y(y: float) -> float:
    return math.degrees(2 * math.atan(math.exp(math.radians(y))) - math.pi / 2)


def to_lonlat(geom: BaseGeometry) -> BaseGeometry:
    dense = shapely.segmentize(geom, 1.0)  # straight Mercator edges become curves in lon/lat
    return shapely.transform(dense, lambda xy: _inv_merc_xy(xy))


def _inv_merc_xy(xy):  # type: ignore[no-untyped-def]
    out = xy.copy()
    out[:, 1] = [inv_merc_y(y) for y in xy[:, 1]]
    return out


def voronoi_cells(anchors: Sequence[tuple[float, float]]) -> list[BaseGeometry]:
    """Voronoi cell (lon/lat, within -180..180) of each anchor, wrapping at the antimeridian."""
    if len(anchors) == 1:
        return [box(-180, -90, 180, 90)]
    ylim = merc_y(MERC_LIMIT)
    pts: list[Point] = []
    for shift in (0.0, -360.0, 360.0):
        pts.extend(Point(lon + shift, merc_y(lat)) for lon, lat in anchors)
    diagram = shapely.voronoi_polygons(
        shapely.MultiPoint(pts), extend_to=box(-540, -ylim, 540, ylim), ordered=True
    )
    cells = list(diagram.geoms)
    world = box(-180, -ylim, 180, ylim)
    n = len(anchors)
    out = []
    for i in range(n):
        merged = unary_union([cells[i], cells[i + n], cells[i + 2 * n]]).intersection(world)
        out.append(to_lonlat(merged))
    return out


# ---------------------------------------------------------------- faces and pieces


def split_by_cuts(area: BaseGeometry, cuts: list[LineString]) -> list[Polygon]:
    """Connected faces of `area` after cutting it along the cut lines."""
    faces: list[Polygon] = []
    cut_union = unary_union(cuts) if cuts else None
    for poly in polygons_of(area):
        if cut_union is None or not poly.intersects(cut_union):
            faces.append(poly)
            continue
        lines = unary_union([poly.boundary, cut_union.intersection(poly.buffer(EPS))])
        for face in shapely.get_parts(shapely.polygonize(shapely.get_parts(lines))):
            if face.area > 1e-12 and poly.contains(face.representative_point()):
                faces.extend(polygons_of(shapely.make_valid(face)))
    return faces


def polygons_of(geom: BaseGeometry) -> list[Polygon]:
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    return [g for g in shapely.get_parts(geom) if isinstance(g, Polygon) and not g.is_empty]


@dataclass
class Piece:
    geom: Polygon
    face: int
    owner: str | None = None


@dataclass
class Layer:
    """One coverage (land or sea) being partitioned among its places."""

    kind: str
    faces: list[Polygon]
    cuts: list[LineString] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)

    @property
    def barrier(self) -> BaseGeometry | None:
        """The cut lines, widened a hair: borders along them do not join pieces."""
        return unary_union(self.cuts).buffer(2e-5) if self.cuts else None


def snap_anchor(place: Place, area: BaseGeometry) -> tuple[float, float]:
    pt = Point(place.lon, place.lat)
    if area.contains(pt):
        return place.lon, place.lat
    for radius in (0.25, 0.5, 1.0, 2.0, 4.0):
        near = area.intersection(pt.buffer(radius))
        if not near.is_empty:
            best = max(polygons_of(near), key=lambda g: g.area)
            rp = best.representative_point()
            warn(
                f"{place.name}: anchor ({place.lon}, {place.lat}) is not on {place_area(place)}; using ({rp.x:.2f}, {rp.y:.2f})"
            )
            return rp.x, rp.y
    warn(f"{place.name}: anchor ({place.lon}, {place.lat}) is far from any {place_area(place)}")
    return place.lon, place.lat


def place_area(place: Place) -> str:
    return "land" if place.kind == "land" else "open water"


def partition(
    layer: Layer, places: list[Place], area: BaseGeometry, forced: dict[int, str]
) -> dict[str, Point]:
    """Split the layer's faces into pieces, each owned by a place or orphaned (owner None)."""
    by_face: dict[int, list[tuple[Place, tuple[float, float]]]] = defaultdict(list)
    tree = shapely.STRtree(layer.faces)
    anchors: dict[str, Point] = {}
    for place in places:
        lon, lat = snap_anchor(place, area)
        anchors[place.name] = Point(lon, lat)
        # Extra seeds widen a place's cell where the rules need it to reach a neighbour.
        for xy in ((lon, lat), *place.seeds):
            hits = [int(i) for i in tree.query(Point(xy), predicate="intersects")]
            if hits:
                by_face[hits[0]].append((place, xy))
            elif xy != (lon, lat):
                warn(f"{place.name}: seed {xy} is not on {place_area(place)}")
    for fi, face in enumerate(layer.faces):
        members = by_face.get(fi, [])
        if not members:
            layer.pieces.append(Piece(face, fi, forced.get(fi)))
            continue
        cells = voronoi_cells(dedupe([xy for _, xy in members]))
        for (place, xy), cell in zip(members, cells, strict=True):
            for part in polygons_of(shapely.make_valid(face.intersection(cell))):
                # A cut that does not part the face (a strait between two seas that also meet
                # elsewhere) still parts the cell: the far side is not this anchor's.
                for sub in split_by_cuts(part, layer.cuts):
                    own = sub.buffer(EPS).contains(Point(xy))
                    layer.pieces.append(Piece(sub, fi, place.name if own else None))
    return anchors


def dedupe(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Two anchors on the same spot would break the Voronoi diagram: nudge the later one."""
    seen: set[tuple[float, float]] = set()
    out = []
    for lon, lat in points:
        while (round(lon, 6), round(lat, 6)) in seen:
            lon += 0.01
        seen.add((round(lon, 6), round(lat, 6)))
        out.append((lon, lat))
    return out


def seam_copies(geom: BaseGeometry) -> list[BaseGeometry]:
    """The geometry plus its copy across the antimeridian when it touches it."""
    out = [geom]
    minx, _, maxx, _ = geom.bounds
    if minx <= -180 + EPS:
        out.append(affinity.translate(geom, 360))
    if maxx >= 180 - EPS:
        out.append(affinity.translate(geom, -360))
    return out


def shared_length(
    a: BaseGeometry, b: BaseGeometry, barrier: BaseGeometry | None = None
) -> tuple[float, float]:
    """Length of the border two pieces share: (off the cut lines, in all)."""
    total = free = 0.0
    for copy in seam_copies(a):
        w, s, e, n = copy.bounds
        near = shapely.clip_by_rect(b, w - 1e-3, s - 1e-3, e + 1e-3, n + 1e-3)
        if near.is_empty:
            continue
        # Neighbours' borders were computed separately and may differ by rounding: widen a hair.
        grown = near.buffer(1e-5, quad_segs=1)
        common = copy.boundary.intersection(grown)
        total += common.length
        free += common.difference(barrier).length if barrier is not None else common.length
    return free, total


def settle_orphans(layer: Layer, *, island_reach: float | None) -> None:
    """Give every orphan piece to the owned neighbour it shares the longest border with."""
    geoms = [p.geom for p in layer.pieces]
    tree = shapely.STRtree(geoms)
    barrier = layer.barrier
    neighbours: dict[int, list[tuple[int, tuple[float, float]]]] = {}
    for i, piece in enumerate(layer.pieces):
        if piece.owner is not None:
            continue
        found: set[int] = set()
        for copy in seam_copies(piece.geom):
            found.update(int(j) for j in tree.query(copy.buffer(1e-5), predicate="intersects"))
        found.discard(i)
        neighbours[i] = sorted((j, shared_length(piece.geom, geoms[j], barrier)) for j in found)
    changed = True
    while changed:
        changed = False
        for i in sorted(neighbours):
            piece = layer.pieces[i]
            if piece.owner is not None:
                continue
            # Prefer a border off the cut lines within the same face; cross a cut line (a fixed
            # border, a strait) only when nothing else touches, as for a face with no anchor.
            tiers: list[list[tuple[float, str]]] = [[], [], []]
            for j, (free, total) in neighbours[i]:
                owner = layer.pieces[j].owner
                if owner is None or owner == UNOWNED:
                    continue
                same = layer.pieces[j].face == piece.face
                if same and free > 1e-4:
                    tiers[0].append((free, owner))
                if total > 0:
                    tiers[1 if same else 2].append((total, owner))
            pool = next((t for t in tiers if t), None)
            if pool:
                piece.owner = max(pool)[1]
                changed = True
    if island_reach is None:
        return
    # Islands: in rings, so a chain of islands (the Visayas down to Mindanao) is reached step
    # by step from the island that holds the anchor, each step no longer than island_reach.
    while True:
        owned = [p for p in layer.pieces if p.owner is not None and p.owner != UNOWNED]
        if not owned:
            return
        owned_tree = shapely.STRtree([p.geom for p in owned])
        claims: dict[int, str] = {}
        for i, piece in enumerate(layer.pieces):
            if piece.owner is None and piece.geom.representative_point().y > LAND_SOUTH:
                j = owned_tree.query_nearest(piece.geom, max_distance=island_reach)
                if len(j):
                    owner = owned[int(min(j))].owner
                    assert owner is not None
                    claims[i] = owner
        if not claims:
            return
        for i, owner in claims.items():
            layer.pieces[i].owner = owner


def forced_faces(faces: list[Polygon], rows: list[dict[str, str]], names: set[str]) -> dict[int, str]:
    """Faces (islands) whose owner the islands table names, unless an anchor already sits there."""
    out: dict[int, str] = {}
    for row in rows:
        terr = row["territory"]
        if terr == UNOWNED:
            pass
        elif terr not in names:
            warn(f"islands.csv: unknown territory {terr!r}")
            continue
        bbox = box(float(row["west"]), float(row["south"]), float(row["east"]), float(row["north"]))
        for fi, face in enumerate(faces):
            if fi not in out and bbox.contains(face.representative_point()):
                out[fi] = terr
    return out


# ---------------------------------------------------------------- assembly


def build(scenario: str, sdir: Path) -> dict:
    started = time.monotonic()
    gdir = sdir / "geometry"
    topo = Topology(json.loads(ensure_atlas().read_text()))
    land = topo.geometry(topo.objects["land"])
    land = land.intersection(box(-180, -90, 180, 90))
    places = read_places(sdir)
    names = {p.name for p in places}

    land_cuts, sea_cuts = read_cuts(gdir / "cuts.csv")
    land_cuts += border_cuts(topo, read_rows(gdir / "borders.csv"))

    land_faces = split_by_cuts(land, [line for _, line in land_cuts])
    land_layer = Layer("land", land_faces, [line for _, line in land_cuts])
    anchors = partition(
        land_layer,
        [p for p in places if p.kind == "land"],
        land,
        forced_faces(land_faces, read_rows(gdir / "islands.csv"), names),
    )
    check_cuts("land", [p.geom for p in land_layer.pieces], land_cuts)
    settle_orphans(land_layer, island_reach=ISLAND_REACH)

    ocean = box(-180, SEA_SOUTH, 180, 90).difference(land)
    sea_faces = split_by_cuts(ocean, [line for _, line in sea_cuts])
    sea_layer = Layer("sea", sea_faces, [line for _, line in sea_cuts])
    anchors.update(partition(sea_layer, [p for p in places if p.kind == "sea"], ocean, {}))
    check_cuts("sea", [p.geom for p in sea_layer.pieces], sea_cuts)
    settle_orphans(sea_layer, island_reach=None)

    shapes = {**assemble(land_layer), **assemble(sea_layer)}
    for p in places:
        if p.name not in shapes:
            warn(f"{p.name}: got no area at all")
    out_places = {}
    simplified = simplify_coverage(shapes)
    for name in sorted(simplified):
        geom = simplified[name]
        out_places[name] = {
            "kind": next(p.kind for p in places if p.name == name),
            "polygons": encode(geom),
            "label": label_point(geom, anchors[name]),
        }
    background = shapely.simplify(land.intersection(box(-180, -60, 180, 90)), SIMPLIFY * 2)
    result = {
        "scenario": scenario,
        "inputs": input_digest(sdir),
        "source": f"Natural Earth 1:50m via world-atlas {ATLAS_VERSION}; built by maps/build_geometry.py",
        "places": out_places,
        "land": encode(background),
    }
    write_review(sdir, shapes, places)
    print(f"built {len(out_places)} places in {time.monotonic() - started:.1f}s", file=sys.stderr)
    return result


Cut = tuple[str, LineString]


def read_cuts(path: Path) -> tuple[list[Cut], list[Cut]]:
    land: list[Cut] = []
    sea: list[Cut] = []
    for row in read_rows(path):
        line = LineString(parse_points(row["points"]))
        kind = row.get("kind", "both") or "both"
        if kind in ("land", "both"):
            land.append((row["name"], line))
        if kind in ("sea", "both"):
            sea.append((row["name"], line))
    return land, sea


def border_cuts(topo: Topology, rows: list[dict[str, str]]) -> list[Cut]:
    countries = {g["properties"]["name"]: g for g in topo.objects["countries"]["geometries"]}
    out: list[Cut] = []
    for row in rows:
        a, b = countries.get(row["a"]), countries.get(row["b"])
        if a is None or b is None:
            warn(f"borders.csv: unknown country in {row['a']!r} / {row['b']!r}")
            continue
        lines = topo.shared_border(a, b)
        if not lines:
            warn(f"borders.csv: {row['a']} and {row['b']} share no border")
        out.extend((f"{row['a']}|{row['b']}", extend_line(ln)) for ln in lines)
    return out


def check_cuts(kind: str, faces: list[BaseGeometry], cuts: list[Cut]) -> None:
    """Warn about cut lines that do not separate anything: a line must run from sea to sea (or
    close a loop with other cuts); one that ends inland dangles and polygonize drops it."""
    tree = shapely.STRtree(faces)
    seen: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for name, line in cuts:
        for dist in _sample_positions(line.length):
            p = line.interpolate(dist)
            q = line.interpolate(min(line.length, dist + 0.01))
            dx, dy = q.x - p.x, q.y - p.y
            norm = math.hypot(dx, dy) or 1.0
            left = Point(p.x - dy / norm * 0.01, p.y + dx / norm * 0.01)
            right = Point(p.x + dy / norm * 0.01, p.y - dx / norm * 0.01)
            hit_l = [int(i) for i in tree.query(left, predicate="intersects")]
            hit_r = [int(i) for i in tree.query(right, predicate="intersects")]
            if hit_l and hit_r:  # both sides on this layer's area: the line should part them
                seen[name][0] += 1
                seen[name][1] += hit_l[0] == hit_r[0]
    for name in sorted(seen):
        total, joined = seen[name]
        if joined > total / 4:
            warn(
                f"{kind} cut {name}: {joined} of {total} samples have the same piece on both sides (dangling?)"
            )


def _sample_positions(length: float, step: float = 0.25) -> list[float]:
    n = max(1, int(length / step))
    return [length * (i + 0.5) / n for i in range(n)]


def extend_line(line: LineString, by: float = 0.05) -> LineString:
    """Lengthen a border a little at both ends so it reaches the sea and really cuts the land."""
    coords = list(line.coords)
    if len(coords) < 2:
        return line

    def push(p: tuple[float, float], q: tuple[float, float]) -> tuple[float, float]:
        dx, dy = p[0] - q[0], p[1] - q[1]
        d = math.hypot(dx, dy) or 1.0
        return p[0] + dx / d * by, p[1] + dy / d * by

    return LineString([push(coords[0], coords[1]), *coords, push(coords[-1], coords[-2])])


def assemble(layer: Layer) -> dict[str, BaseGeometry]:
    groups: dict[str, list[Polygon]] = defaultdict(list)
    for piece in layer.pieces:
        if piece.owner is not None and piece.owner != UNOWNED:
            groups[piece.owner].append(piece.geom)
    return {name: unary_union(parts) for name, parts in sorted(groups.items())}


def simplify_coverage(shapes: dict[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    """Simplify shared borders once, so neighbours keep meeting without gaps or overlaps."""
    names = sorted(shapes)
    geoms = [shapely.make_valid(shapes[n]) for n in names]
    try:
        simple = shapely.coverage_simplify(geoms, SIMPLIFY)
    except Exception:  # an imperfect coverage: fall back to one-by-one simplification
        simple = [shapely.simplify(g, SIMPLIFY, preserve_topology=True) for g in geoms]
    out = {}
    for name, geom, orig in zip(names, simple, geoms, strict=True):
        parts = [p for p in polygons_of(shapely.make_valid(geom)) if p.area >= MIN_PART_AREA]
        if not parts:  # a tiny island place: keep its largest part unsimplified
            parts = [max(polygons_of(orig), key=lambda g: g.area)]
        out[name] = MultiPolygon(parts)
    return out


def encode(geom: BaseGeometry) -> list[list[list[list[float]]]]:
    out = []
    for poly in polygons_of(geom):
        rings = [poly.exterior, *poly.interiors]
        out.append([[[round(x, 3), round(y, 3)] for x, y in ring.coords] for ring in rings])
    return out


def label_point(geom: BaseGeometry, anchor: Point) -> list[float]:
    if geom.contains(Point(round(anchor.x, 3), round(anchor.y, 3))):
        return [round(anchor.x, 3), round(anchor.y, 3)]
    biggest = max(polygons_of(geom), key=lambda g: g.area)
    pt = polylabel(biggest, tolerance=0.01)
    if not geom.contains(Point(round(pt.x, 3), round(pt.y, 3))):
        pt = biggest.representative_point()
    return [round(pt.x, 3), round(pt.y, 3)]


# ---------------------------------------------------------------- adjacency review


def read_adjacency(sdir: Path, places: list[Place]) -> dict[frozenset[str], str]:
    """Every listed connection -> the adjacency file it comes from."""
    index: dict[str, str] = {}
    for p in places:
        for n in (p.name, *p.aliases):
            index.setdefault(fold(n), p.name)
    edges: dict[frozenset[str], str] = {}
    for path in sorted((sdir / "adjacency").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").splitlines():
            line = line.split("#", 1)[0].strip()
            if "--" not in line:
                continue
            a, b = (s.strip() for s in line.split("--", 1))
            ca, cb = index.get(fold(a)), index.get(fold(b))
            if ca and cb and ca != cb:
                edges.setdefault(frozenset((ca, cb)), path.name)
    return edges


def touching_pairs(shapes: dict[str, BaseGeometry]) -> dict[frozenset[str], float]:
    names = sorted(shapes)
    geoms = [shapes[n] for n in names]
    tree = shapely.STRtree(geoms)
    out: dict[frozenset[str], float] = {}
    for i, name in enumerate(names):
        cands: set[int] = set()
        for copy in seam_copies(geoms[i]):
            cands.update(int(j) for j in tree.query(copy.buffer(1e-4), predicate="intersects"))
        for j in sorted(cands):
            if j > i:
                length = shared_length(geoms[i], geoms[j])[1]
                if length >= MIN_SHARED:
                    out[frozenset((name, names[j]))] = length
    return out


def passage_pairs(sdir: Path) -> set[frozenset[str]]:
    out = set()
    for row in read_rows(sdir / "passages.csv"):
        out.add(frozenset((row["end_a"], row["end_b"])))
    return out


def write_review(sdir: Path, shapes: dict[str, BaseGeometry], places: list[Place]) -> None:
    touching = touching_pairs(shapes)
    listed = read_adjacency(sdir, places)
    passages = passage_pairs(sdir)
    missing = sorted((sorted(e) for e in touching if e not in listed), key=lambda e: (e[0], e[1]))
    apart = sorted((sorted(e) for e in listed if e not in touching), key=lambda e: (e[0], e[1]))
    lines = [
        "# Derived by maps/build_geometry.py: for human review only.",
        "# The adjacency files (maps/<scenario>/adjacency/*.txt) are the authority; this lists where",
        "# the drawn map and those files disagree.",
        "",
        f"## Cells that share a border (>= {MIN_SHARED} degrees) but are not adjacent in the files: {len(missing)}",
    ]
    lines += [f"{a} -- {b}    # shared {touching[frozenset((a, b))]:.2f} deg" for a, b in missing]
    lines += ["", f"## Adjacent in the files but the cells do not touch: {len(apart)}"]
    for a, b in apart:
        edge = frozenset((a, b))
        note = ""
        if edge in passages:
            note = "    # a passage (strait/canal) in passages.csv"
        elif listed[edge] == "cross_map.txt":
            note = "    # a cross-map link between board sections"
        lines.append(f"{a} -- {b}{note}")
    (sdir / "adjacency_review.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--scenario", default="1914")
    parser.add_argument("--dir", type=Path, help="scenario folder (default maps/<scenario>)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    sdir = args.dir or ROOT / "maps" / args.scenario
    result = build(args.scenario, sdir)
    out = sdir / "geometry.json"
    out.write_text(json.dumps(result, separators=(",", ":"), sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
