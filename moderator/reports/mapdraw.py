"""Draw the political map of a game as a PNG (matplotlib, Agg backend).

The renderer draws only what it is given: who controls each place (colour) and a pre-filtered
summary of the units a viewer may see (reports decide visibility, not this module). Output is
byte-identical for identical inputs: fixed figure size and dpi, bundled fonts, no date or
software name in the PNG metadata, and every collection drawn in sorted order.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")

from matplotlib import patheffects  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.collections import LineCollection, PatchCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import PathPatch  # noqa: E402
from matplotlib.path import Path as MplPath  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

from moderator.reports.geometry import MAPS_DIR, Geometry, PlaceShape, Rings  # noqa: E402
from moderator.world.model import World  # noqa: E402

DPI = 100
WIDTH_PX = 2400
OCEAN = "#c9e3f2"  # water no sea zone claims
SEA = "#dcedf7"  # sea zones: pale blue
SEA_EDGE = "#6f9fc2"
LAND_BACKGROUND = "#e3e0d8"  # land outside the game's territories
NEUTRAL = "#c8c8c8"  # a place with no known controller
LAND_EDGE = "#404040"
UNKNOWN_NATION = "#b0b0b0"
SMALL_PLACE_PX = 8.0  # land smaller than this on the image gets a dot at its label point


@dataclass(frozen=True)
class Region:
    """A named lon/lat box to draw; lon may run past 180 for views across the Pacific."""

    west: float
    east: float
    south: float
    north: float
    font: float  # label size in points
    min_label_px: float  # labels need a place at least this many pixels across


REGIONS: dict[str, Region] = {
    "world": Region(-180, 180, -57, 80, 4.5, 55),
    "europe": Region(-12, 62, 23, 67, 6.5, 0),  # Western/Eastern/Italian fronts and the Middle East
    "western-front": Region(-6, 18, 41, 57, 9, 0),
    "eastern-front": Region(12, 46, 40, 62, 8, 0),
    "balkans": Region(12, 34, 33, 49, 8, 0),
    "middle-east": Region(24, 64, 10, 44, 7.5, 0),
    "africa": Region(-20, 56, -36, 38, 6.5, 0),
    "asia": Region(55, 155, -12, 60, 6, 0),
    "pacific": Region(95, 260, -50, 62, 6, 0),
    "north-america": Region(-170, -50, 5, 75, 6.5, 0),
}


# ---------------------------------------------------------------- projection


def miller_y(lat: float) -> float:
    """Miller cylindrical: like Mercator but with the poles finite, fine for a world view."""
    lat = max(-89.0, min(89.0, lat))
    return 1.25 * math.degrees(math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat))))


def image_size(region: str) -> tuple[int, int]:
    """Pixel size (width, height) of the PNG for a region."""
    r = REGIONS[region]
    height = WIDTH_PX * (miller_y(r.north) - miller_y(r.south)) / (r.east - r.west)
    return WIDTH_PX, int(round(height))


def _project_ring(ring: Sequence[tuple[float, float]], shift: float) -> list[tuple[float, float]]:
    return [(x + shift, miller_y(y)) for x, y in ring]


def _path(polygons: Iterable[Rings], shift: float) -> MplPath | None:
    verts: list[tuple[float, float]] = []
    codes: list[int] = []
    for rings in polygons:
        for ring in rings:
            pts = _project_ring(ring, shift)
            if len(pts) < 3:
                continue
            verts.extend(pts)
            codes.extend(
                [int(MplPath.MOVETO)] + [int(MplPath.LINETO)] * (len(pts) - 2) + [int(MplPath.CLOSEPOLY)]
            )
    return MplPath(verts, codes) if verts else None


def _shifts(region: Region) -> list[float]:
    """Copies of the map to draw so a view that runs past the antimeridian is filled."""
    shifts = [0.0]
    if region.east > 180:
        shifts.append(360.0)
    if region.west < -180:
        shifts.append(-360.0)
    return shifts


def _visible(bounds: tuple[float, float, float, float], region: Region, shift: float) -> bool:
    w, s, e, n = bounds
    return e + shift >= region.west and w + shift <= region.east and n >= region.south and s <= region.north


# ---------------------------------------------------------------- colours


def load_colors(scenario: str) -> dict[str, str]:
    """Nation id -> colour from maps/<scenario>/colors.csv."""
    path = MAPS_DIR / scenario / "colors.csv"
    if not path.exists():
        return {}
    with path.open(newline="", encoding="utf-8") as fh:
        return {
            row["nation"].strip(): row["color"].strip() for row in csv.DictReader(fh) if row.get("nation")
        }


def _fill(place: PlaceShape, controller: str | None, colors: Mapping[str, str]) -> str:
    if place.kind == "sea":
        return SEA
    if not controller:
        return NEUTRAL
    return colors.get(controller, UNKNOWN_NATION)


# ---------------------------------------------------------------- drawing


def render_map(
    geometry: Geometry,
    world: World,
    *,
    control: Mapping[str, str] | None = None,
    units: Mapping[str, Mapping[str, int]] | None = None,
    region: str = "world",
    title: str = "",
) -> bytes:
    """PNG of the map: land coloured by controller, sea zones pale blue, names and unit summaries.

    control: place -> nation id now controlling it (default: the 1914 owner from the world).
    units: place -> {"label": count}, already filtered to what the viewer may see.
    """
    if region not in REGIONS:
        raise ValueError(f"unknown region {region!r}; known: {', '.join(sorted(REGIONS))}")
    reg = REGIONS[region]
    owners = {t.name: t.owner for t in world.territories.values() if t.owner}
    controllers: dict[str, str | None] = {**owners, **(control or {})}
    colors = load_colors(geometry.scenario or "1914")

    width, height = image_size(region)
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    FigureCanvasAgg(fig)  # attach the Agg canvas: text extents are measured with its renderer
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(reg.west, reg.east)
    ax.set_ylim(miller_y(reg.south), miller_y(reg.north))
    ax.set_axis_off()
    ax.set_facecolor(OCEAN)
    fig.patch.set_facecolor(OCEAN)
    ax.add_patch(
        PathPatch(
            MplPath.unit_rectangle(), transform=ax.transAxes, facecolor=OCEAN, edgecolor="none", zorder=0
        )
    )

    _draw_background(ax, geometry, reg)
    _draw_places(ax, geometry, reg, controllers, colors)
    _draw_labels(fig, ax, geometry, reg, units or {})
    if title:
        ax.text(
            0.5,
            0.995,
            title,
            transform=ax.transAxes,
            ha="center",
            va="top",
            fontsize=14,
            weight="bold",
            zorder=10,
            path_effects=[patheffects.withStroke(linewidth=3, foreground="white")],
        )
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _draw_background(ax: object, geometry: Geometry, reg: Region) -> None:
    patches = []
    for shift in _shifts(reg):
        path = _path(geometry.land, shift)
        if path is not None:
            patches.append(PathPatch(path))
    ax.add_collection(  # type: ignore[attr-defined]
        PatchCollection(patches, facecolor=LAND_BACKGROUND, edgecolor="#9a9a9a", linewidth=0.3, zorder=1)
    )


def _draw_places(
    ax: object,
    geometry: Geometry,
    reg: Region,
    controllers: Mapping[str, str | None],
    colors: Mapping[str, str],
) -> None:
    for kind, edge, width, z in (("sea", SEA_EDGE, 0.5, 2), ("land", LAND_EDGE, 0.4, 3)):
        patches, faces, borders = [], [], []
        dots: list[tuple[float, float]] = []
        dot_faces: list[str] = []
        for name in sorted(geometry.places):
            place = geometry.places[name]
            if place.kind != kind:
                continue
            fill = _fill(place, controllers.get(name), colors)
            for shift in _shifts(reg):
                if not _visible(place.bounds, reg, shift):
                    continue
                path = _path(place.polygons, shift)
                if path is not None:
                    patches.append(PathPatch(path))
                    faces.append(fill)
                    borders.extend(_border_runs(place.polygons, shift))
            at = _label_anchor(place, reg)
            if kind == "land" and at is not None and _size_px(place, reg) < SMALL_PLACE_PX:
                dots.append(at)  # a speck of an island: mark it so it can be seen and coloured
                dot_faces.append(fill)
        ax.add_collection(  # type: ignore[attr-defined]
            PatchCollection(patches, facecolors=faces, edgecolor="none", linewidth=0, zorder=z)
        )
        ax.add_collection(LineCollection(borders, colors=edge, linewidths=width, zorder=z + 0.5))  # type: ignore[attr-defined]
        if dots:
            ax.scatter(  # type: ignore[attr-defined]
                [x for x, _ in dots],
                [y for _, y in dots],
                s=14,
                c=dot_faces,
                edgecolors=LAND_EDGE,
                linewidths=0.5,
                zorder=z + 0.6,
            )


def _border_runs(polygons: Iterable[Rings], shift: float) -> list[list[tuple[float, float]]]:
    """Outline pieces of the rings, leaving out the cut along the antimeridian (not a border)."""
    runs: list[list[tuple[float, float]]] = []
    for rings in polygons:
        for ring in rings:
            pts = _project_ring(ring, shift)
            run: list[tuple[float, float]] = [pts[0]] if pts else []
            for (x0, _), (x1, y1) in zip(ring, ring[1:], strict=False):
                if abs(x0) == 180.0 and x0 == x1:
                    if len(run) > 1:
                        runs.append(run)
                    run = []
                run.append((x1 + shift, miller_y(y1)))
            if len(run) > 1:
                runs.append(run)
    return runs


def _label_anchor(place: PlaceShape, reg: Region) -> tuple[float, float] | None:
    for shift in _shifts(reg):
        x = place.label[0] + shift
        if reg.west <= x <= reg.east and reg.south <= place.label[1] <= reg.north:
            return x, miller_y(place.label[1])
    return None


def _size_px(place: PlaceShape, reg: Region) -> float:
    """Rough width of a place on the image, to skip names that would not fit at world scale."""
    w, s, e, n = place.bounds
    px_per_deg = WIDTH_PX / (reg.east - reg.west)
    return min(e - w, (miller_y(n) - miller_y(s))) * px_per_deg


def _draw_labels(
    fig: Figure, ax: object, geometry: Geometry, reg: Region, units: Mapping[str, Mapping[str, int]]
) -> None:
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    halo = [patheffects.withStroke(linewidth=2, foreground="white")]
    taken: list[Bbox] = []
    # Units first: they are the news and are never dropped for lack of room.
    for name in sorted(units):
        place = geometry.places.get(name)
        summary = units[name]
        if place is None or not summary:
            continue
        at = _label_anchor(place, reg)
        if at is None:
            continue
        text = "\n".join(f"{count} {label}" for label, count in sorted(summary.items()))
        artist = ax.text(  # type: ignore[attr-defined]
            at[0],
            at[1],
            text,
            ha="center",
            va="top",
            fontsize=reg.font * 0.85,
            zorder=6,
            color="black",
            bbox={
                "boxstyle": "round,pad=0.15",
                "facecolor": "white",
                "edgecolor": "#333333",
                "linewidth": 0.4,
                "alpha": 0.85,
            },
        )
        taken.append(artist.get_window_extent(renderer))
    # Names: land first, biggest places first. A name that would overlap one already placed
    # tries a few nearby spots and is skipped only when none is free.
    order = sorted(geometry.places.values(), key=lambda p: (p.kind != "land", -_size_px(p, reg), p.name))
    for place in order:
        if _size_px(place, reg) < reg.min_label_px:
            continue
        at = _label_anchor(place, reg)
        if at is None:
            continue
        sea = place.kind == "sea"
        size = reg.font * (0.9 if sea else 1.0)
        # Above the point when a unit box hangs below it or a dot marks a speck of an island.
        above = place.name in units or (not sea and _size_px(place, reg) < SMALL_PLACE_PX)
        spots = [(0.0, 2.5), (0.0, -size - 4.0)] if above else _LABEL_SPOTS
        for dx, dy in spots:
            artist = ax.annotate(  # type: ignore[attr-defined]
                place.name,
                xy=at,
                xytext=(dx * size if not above else dx, dy * size if not above else dy),
                textcoords="offset points",
                ha="center",
                va="bottom" if above else "center",
                fontsize=size,
                style="italic" if sea else "normal",
                color="#1f4e79" if sea else "black",
                zorder=5,
                path_effects=halo,
            )
            box = artist.get_window_extent(renderer)
            if any(box.overlaps(other) for other in taken):
                artist.remove()
                continue
            taken.append(box)
            break


# Where a name may go around its label point, in multiples of the font size (points).
_LABEL_SPOTS = [(0.0, 0.0), (0.0, 1.1), (0.0, -1.1), (2.5, 0.0), (-2.5, 0.0), (0.0, 2.2), (0.0, -2.2)]
