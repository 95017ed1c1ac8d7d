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
from dataclasses import dataclass, replace
from typing import Literal, TypedDict, Unpack, overload

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib import patheffects  # noqa: E402
from matplotlib.artist import Artist  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.backend_bases import RendererBase  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg  # noqa: E402
from matplotlib.collections import LineCollection, PatchCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.legend import Legend  # noqa: E402
from matplotlib.patches import Patch, PathPatch, Rectangle  # noqa: E402
from matplotlib.path import Path as MplPath  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.transforms import Bbox, IdentityTransform  # noqa: E402
from PIL import Image  # noqa: E402

from moderator.reports import mapnames, mapstory, trenchlines  # noqa: E402
from moderator.reports.geometry import MAPS_DIR, Geometry, PlaceShape, Rings  # noqa: E402
from moderator.reports.mapfiles import packed_rgb  # noqa: E402
from moderator.reports.sightings import Sighting  # noqa: E402
from moderator.reports.visibility import UNIT_ABBREV  # noqa: E402
from moderator.world.model import World  # noqa: E402

DPI = 100
WIDTH_PX = 2400
OCEAN = "#c9e3f2"  # water no sea zone claims
SEA = "#dcedf7"  # sea zones: pale blue
SEA_EDGE = "#6f9fc2"
LAND_BACKGROUND = "#e3e0d8"  # land outside the game's territories
PANEL = "#f7f6f2"  # the side panel of a map with no free corner: paper, not sea
NEUTRAL = "#c8c8c8"  # a place with no known controller
LAND_EDGE = "#404040"
UNKNOWN_NATION = "#b0b0b0"
SMALL_PLACE_PX = 8.0  # land smaller than this on the image gets a dot at its label point
UNIT_FONT_MIN = 8.0  # points: at DPI 100 this is about 11 px, readable at 100% zoom
UNIT_EDGE = "#333333"
# Enemy troops seen by reconnaissance, by the rules' colour bands (3.2.2.4): (face, ink).
BAND_COLOURS = {"black": ("#202020", "white"), "yellow": ("#f5c400", "black"), "red": ("#d21f1f", "white")}
BAND_SPANS = {"black": "0-5", "yellow": "6-20", "red": "21+"}  # unit box border when the owner is not named in the label
LEGEND_FONT = 9.5
LEGEND_ROWS = 12  # more swatches than this go in two columns, to keep the box off the land
# Corners the legend may take, tried in this order when two cover equally little land.
LEGEND_CORNERS = ("upper left", "lower left", "upper right", "lower right")


@dataclass(frozen=True)
class Region:
    """A named lon/lat box to draw; lon may run past 180 for views across the Pacific."""

    west: float
    east: float
    south: float
    north: float
    font: float  # label size in points
    min_label_px: float  # labels need a place at least this many pixels across
    # px of a panel left of the map for the legend, the notes and the overview: a region with
    # no corner of open sea big enough for them (Europe: the notes box hid Scotland).
    panel: int = 0


PANEL_PX = 500  # holds the two-column legend of the Europe map
# The theatres whose corners are land (the fronts, the Middle East, Asia; Africa's one
# corner of open sea is the overview's) have the panel; the world, the British Isles,
# the Pacific, Australasia and North America have open sea in their corners.
REGIONS: dict[str, Region] = {
    "world": Region(-180, 180, -57, 80, 4.5, 55),
    "europe": Region(-12, 62, 23, 67, 6.5, 0, PANEL_PX),  # Western/Eastern/Italian fronts and the Middle East
    "british-isles": Region(-11, 5, 49, 61, 9, 0),
    "western-front": Region(-6, 18, 41, 57, 9, 0, PANEL_PX),
    "eastern-front": Region(12, 46, 40, 62, 8, 0, PANEL_PX),
    "balkans": Region(12, 34, 33, 49, 8, 0, PANEL_PX),
    "italy-balkans": Region(6, 32, 35, 48.5, 8, 0, PANEL_PX),
    "middle-east": Region(24, 64, 10, 44, 7.5, 0, PANEL_PX),
    "africa": Region(-20, 56, -36, 38, 6.5, 0, PANEL_PX),
    "asia": Region(55, 155, -12, 60, 6, 0, PANEL_PX),
    "pacific": Region(95, 260, -50, 62, 6, 0),
    # Australia, New Zealand and the islands between them and the Indies (Samoa at 188): the
    # Pacific's other nine tenths are open ocean an Australian map has nothing to show on.
    "australasia": Region(95, 190, -50, 6, 8, 0),
    "north-america": Region(-170, -50, 5, 75, 6.5, 0),
}


# ---------------------------------------------------------------- projection


def miller_y(lat: float) -> float:
    """Miller cylindrical: like Mercator but with the poles finite, fine for a world view."""
    lat = max(-89.0, min(89.0, lat))
    return 1.25 * math.degrees(math.log(math.tan(math.pi / 4 + 0.4 * math.radians(lat))))


def image_size(region: str) -> tuple[int, int]:
    """Pixel size (width, height) of the PNG for a region."""
    return image_size_of(REGIONS[region])


def image_size_of(r: Region) -> tuple[int, int]:
    """The map's WIDTH_PX and its side panel, if any; the height keeps the map's proportions."""
    height = WIDTH_PX * (miller_y(r.north) - miller_y(r.south)) / (r.east - r.west)
    return WIDTH_PX + r.panel, int(round(height))


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


_PROJECTED: dict[tuple[int, float], tuple[object, MplPath | None, list[list[tuple[float, float]]]]] = {}


def _projected(polygons: tuple[Rings, ...], shift: float) -> tuple[MplPath | None, list[list[tuple[float, float]]]]:
    """A place's projected path and border runs, computed once per process: every map of a
    turn (each nation's, each alliance's, the bulletin's) draws the same shapes."""
    key = (id(polygons), shift)
    hit = _PROJECTED.get(key)
    if hit is None or hit[0] is not polygons:  # the ids of freed shapes may come back
        hit = (polygons, _path(polygons, shift), _border_runs(polygons, shift))
        _PROJECTED[key] = hit
    return hit[1], hit[2]


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


def _cielab(colour: str) -> tuple[float, float, float]:
    """sRGB "#rrggbb" -> CIELAB (D65)."""
    lin = []
    for i in (1, 3, 5):
        c = int(colour[i:i + 2], 16) / 255
        lin.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = lin
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    fx, fy, fz = (t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def colour_distance(a: str, b: str) -> float:
    """CIE76 delta E between two colours: about 2 is the least step an eye sees side by side;
    the palette keeps neighbours 25 apart and any two nations 12 (tests/test_map_colours.py)."""
    return math.dist(_cielab(a), _cielab(b))


def _fill(place: PlaceShape, controller: str | None, colors: Mapping[str, str]) -> str:
    if place.kind == "sea":
        return SEA
    if not controller:
        return NEUTRAL
    return colors.get(controller, UNKNOWN_NATION)


# ---------------------------------------------------------------- drawing


class MapOptions(TypedDict, total=False):
    """What a map shows; every key may be left out.

    control: place -> nation id now controlling it (default: the 1914 owner from the world).
    units: place -> {"label": count}, already filtered to what the viewer may see. A label may
        start with a nation prefix ("ger inf"): its box is then edged in that nation's colour.
    region: the REGIONS entry to draw ("world" by default).
    title: written at the top (game, turn, audience).
    names: nation id -> display name for the legend (default: the id).
    sightings: place -> what the viewer knows of the enemy troops there (reports/sightings.py):
        a box in the colour of their band, with the exact troops where a roll saw them.
    story: the turn's moves, battles and captures the viewer may know (reports/mapstory.py).
    trenches: (nation, place, facing, kind) of the trenches the viewer may know, each drawn
        on the border it faces (reports/trenchlines.py).
    overview: the world map's pixels (RGB), shown small in a corner with this region outlined.
    bare: colours and borders only (no names, boxes or legend): the overview itself.
    """

    control: Mapping[str, str]
    units: Mapping[str, Mapping[str, int]]
    region: str
    title: str
    names: Mapping[str, str]
    sightings: Mapping[str, Sighting]
    story: Sequence[mapstory.Mark]
    trenches: Sequence[tuple[str, str, str, str]]
    overview: np.ndarray | None
    bare: bool


@overload
def render_map(geometry: Geometry, world: World, output: Literal["png"] = "png",
               **options: Unpack[MapOptions]) -> bytes: ...
@overload
def render_map(geometry: Geometry, world: World, output: Literal["pixels"],
               **options: Unpack[MapOptions]) -> Image.Image: ...
def render_map(geometry: Geometry, world: World, output: Literal["png", "pixels"] = "png",
               **options: Unpack[MapOptions]) -> bytes | Image.Image:
    """The map (MapOptions): land coloured by controller, sea zones pale blue, names, unit
    summaries and a legend of the nations holding land in view. As a PNG (`output` "png"),
    or as an RGB image straight from the Agg canvas ("pixels"): reports re-encode it as a
    palette PNG (reports/mapfiles.py), so they skip a PNG round trip."""
    fig = build_figure(geometry, world, **options)
    if output == "png":
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
        return buf.getvalue()
    canvas = fig.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    canvas.draw()
    return Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")


def build_figure(geometry: Geometry, world: World, **options: Unpack[MapOptions]) -> Figure:
    """The map as a matplotlib figure (see render_map); tests inspect what it holds."""
    region, title, story = options.get("region", "world"), options.get("title", ""), options.get("story", ())
    units, sightings, overview = options.get("units", {}), options.get("sightings", {}), options.get("overview")
    if region not in REGIONS:
        raise ValueError(f"unknown region {region!r}; known: {', '.join(sorted(REGIONS))}")
    reg = REGIONS[region]
    owners = {t.name: t.owner for t in world.territories.values() if t.owner}
    controllers: dict[str, str | None] = {**owners, **options.get("control", {})}
    colors = load_colors(geometry.scenario or "1914")

    fig, ax = _blank(reg)
    base = _base_layer(geometry, region, controllers, colors)
    if options.get("bare", False):
        ax.add_artist(BaseLayer(base.pixels, []))
        return fig
    features = map_features(world)
    unit_boxes, placed, labels = _draw_labels(fig, ax, geometry, reg, units, controllers, colors, sightings,
                                             mapstory.glyphs(story), features, mapstory.missions(story))
    fig.unit_labels = labels  # type: ignore[attr-defined]  # where each box went: tests read it
    pixels = base.pixels.copy()
    mapnames.paste(pixels, placed, DPI)
    ax.add_artist(BaseLayer(pixels, placed))
    land = base.land
    if story:
        places = {p for m in story for p in (m.origin, m.dest) if p in geometry.places}
        anchors = {p: at for p in sorted(places) if (at := _label_anchor(geometry.places[p], reg)) is not None}
        story = [m for m in story if m.dest in anchors and (not m.origin or m.origin in anchors)]
        mapstory.draw(ax, story, anchors, colors)
    dug = trenchlines.draw(ax, geometry, options.get("trenches", ()), lambda run: _in_view(run, reg))
    entries = legend_entries(geometry, reg, controllers, colors, options.get("names", {}))
    notes = (_FEATURE_KEY + _unit_key(units) + _band_key(sightings) + mapstory.key(story)
             + (trenchlines.KEY if dug else []) + _numbered_key(labels) + _off_map(geometry, reg, units))
    corner = _draw_legend(fig, ax, entries, notes, land, unit_boxes)
    if overview is not None and region != "world":
        _draw_overview(fig, ax, overview, reg, corner, land, unit_boxes)
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
    return fig


_RENDERERS: dict[tuple[int, int, float], RendererAgg] = {}
RENDERERS_KEPT = 2  # maps are drawn region by region: one size at a time, about 21 MB each


class Canvas(FigureCanvasAgg):
    """An Agg canvas that draws with a renderer shared by every figure of its size, one after
    another: each figure of a turn's maps (the map, its region's base layer, its legend) is
    drawn and its pixels copied out before the next is drawn. A new renderer per figure
    allocated its pixels again and, since matplotlib caches text metrics per renderer,
    measured every name and box again while drawing."""

    def get_renderer(self) -> RendererAgg:
        width, height = self.get_width_height(physical=True)
        key = (width, height, self.figure.dpi)
        renderer = _RENDERERS.pop(key, None)
        if renderer is None:
            renderer = RendererAgg(width, height, self.figure.dpi)
            if len(_RENDERERS) >= RENDERERS_KEPT:
                _RENDERERS.pop(next(iter(_RENDERERS)))
        _RENDERERS[key] = renderer  # the most recently used last
        self.renderer, self._lastKey = renderer, key
        return renderer


def _blank(reg: Region) -> tuple[Figure, Axes]:
    """A figure of the region's pixel size whose axes fill it (right of its panel, if any),
    in projected lon/lat."""
    width, height = image_size_of(reg)
    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    Canvas(fig)  # attach the Agg canvas
    ax = fig.add_axes((reg.panel / width, 0.0, 1.0 - reg.panel / width, 1.0))
    ax.set_xlim(reg.west, reg.east)
    ax.set_ylim(miller_y(reg.south), miller_y(reg.north))
    ax.set_axis_off()
    fig.patch.set_facecolor(PANEL if reg.panel else OCEAN)
    if reg.panel:  # the map's edge beside the panel
        fig.add_artist(Rectangle((reg.panel / width, 0.0), 0.0, 1.0, transform=fig.transFigure,
                                 edgecolor=LAND_EDGE, linewidth=1.0, fill=False))
    return fig, ax


@dataclass(frozen=True)
class Base:
    """A region's static layer as pixels: water, land coloured by controller, borders, the
    dots on small islands (RGBA, bottom row first, as Agg draws an image: row y is y pixels
    up); and where land is (True), for the legend and the overview to keep off it."""

    pixels: np.ndarray  # shared by every map of the region: never written (names go on a copy)
    land: np.ndarray


_BASES: dict[tuple[int, str, tuple[tuple[str, str | None], ...], tuple[tuple[str, str], ...]],
             tuple[Geometry, Base]] = {}
BASES_KEPT = 6  # a turn's maps use a few regions, all with the same control: about 16 MB each


def _base_layer(geometry: Geometry, region: str, controllers: Mapping[str, str | None],
                colors: Mapping[str, str]) -> Base:
    """The static layer of a map, drawn once per region and control and then reused by every
    map of the turn (each nation's, each alliance's, the bulletin's, the overview)."""
    key = (id(geometry), region, tuple(sorted(controllers.items())), tuple(sorted(colors.items())))
    hit = _BASES.get(key)
    if hit is None or hit[0] is not geometry:  # the id of a freed geometry may come back
        reg = REGIONS[region]
        fig, ax = _blank(reg)
        ax.add_patch(PathPatch(MplPath.unit_rectangle(), transform=ax.transAxes, facecolor=OCEAN,
                               edgecolor="none", zorder=0))
        _draw_background(ax, geometry, reg)
        _draw_places(ax, geometry, reg, controllers, colors)
        canvas = fig.canvas
        assert isinstance(canvas, FigureCanvasAgg)
        canvas.draw()
        pixels = np.ascontiguousarray(np.asarray(canvas.buffer_rgba())[::-1])
        packed = packed_rgb(pixels)
        water = packed == int(OCEAN[1:], 16)  # free for the legend
        for colour in (SEA, PANEL):
            water |= packed == int(colour[1:], 16)
        if len(_BASES) >= BASES_KEPT:
            _BASES.pop(next(iter(_BASES)))
        hit = (geometry, Base(pixels, ~water))
    _BASES.pop(key, None)
    _BASES[key] = hit  # the most recently used last: the oldest unused goes first
    return hit[1]


class BaseLayer(Artist):
    """The base pixels with the place names pasted on (mapnames), drawn as one image under
    the unit boxes, arrows and legend. `names` are the names it holds, for tests to read."""

    def __init__(self, pixels: np.ndarray, names: Sequence[mapnames.PlacedName]) -> None:
        super().__init__()
        self.pixels = pixels
        self.names = list(names)
        self.set_zorder(4.9)  # over the fills (1-3.6), under arrows (5.4) and boxes (6)

    def draw(self, renderer: RendererBase) -> None:
        gc = renderer.new_gc()
        renderer.draw_image(gc, 0, 0, self.pixels)
        gc.restore()


# The colour of a PathPatch that only carries its path into a PatchCollection (which colours
# it): matplotlib's default, "C0", is looked up in the colour cycle on every patch made.
_CARRIER = "none"


def _draw_background(ax: object, geometry: Geometry, reg: Region) -> list[MplPath]:
    """Unowned land; returns the drawn paths (the legend avoids covering land)."""
    patches = []
    for shift in _shifts(reg):
        path = _projected(geometry.land, shift)[0]
        if path is not None:
            patches.append(PathPatch(path, facecolor=_CARRIER))
    ax.add_collection(  # type: ignore[attr-defined]
        PatchCollection(patches, facecolor=LAND_BACKGROUND, edgecolor="#9a9a9a", linewidth=0.3, zorder=1)
    )
    return [p.get_path() for p in patches]


def _draw_places(
    ax: object,
    geometry: Geometry,
    reg: Region,
    controllers: Mapping[str, str | None],
    colors: Mapping[str, str],
) -> list[MplPath]:
    """Sea zones then land; returns the land paths drawn (the legend avoids covering them)."""
    land_paths: list[MplPath] = []
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
                path = _projected(place.polygons, shift)[0]
                if path is not None:
                    patches.append(PathPatch(path, facecolor=_CARRIER))
                    faces.append(fill)
                    if kind == "land":
                        land_paths.append(path)
                    borders.extend(_projected(place.polygons, shift)[1])
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
    return land_paths


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


def _in_view(run: Sequence[tuple[float, float]], reg: Region) -> list[list[tuple[float, float]]]:
    """A lon/lat line projected for the region, once for each copy of the map it shows on."""
    out = []
    for shift in _shifts(reg):
        xs = [x + shift for x, _ in run]
        ys = [y for _, y in run]
        if max(xs) >= reg.west and min(xs) <= reg.east and max(ys) >= reg.south and min(ys) <= reg.north:
            out.append([(x, miller_y(y)) for x, y in zip(xs, ys, strict=True)])
    return out


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
    fig: Figure,
    ax: object,
    geometry: Geometry,
    reg: Region,
    units: Mapping[str, Mapping[str, int]],
    controllers: Mapping[str, str | None],
    colors: Mapping[str, str],
    sightings: Mapping[str, Sighting],
    marked: Mapping[str, str],
    features: Mapping[str, str],
    missions: Mapping[str, Sequence[tuple[str, str]]] = {},
) -> tuple[list[Bbox], list[mapnames.PlacedName], list[UnitLabel]]:
    """Names of places holding units or seen enemies, their boxes, then other names where they fit.
    `missions`: zone -> (glyph, nation) of the task forces patrolling or blockading there.

    Returns the unit boxes' pixel extents (the legend keeps clear of them), the other
    names, placed, for the base layer to paste (reports/mapnames.py), and where each box went."""
    renderer = mapnames.measurer(DPI)  # for extents only: the figure's canvas draws them
    taken = mapnames.Occupied()
    placed: list[mapnames.PlacedName] = []
    named = {
        name: at
        for name in sorted(set(units) | set(sightings) | set(marked) | set(missions))
        if (units.get(name) or name in sightings or name in marked or name in missions)
        and name in geometry.places
        and (at := _label_anchor(geometry.places[name], reg)) is not None
    }
    shown = {name: at for name, at in named.items() if units.get(name) or name in sightings}
    # A unit box must say where it stands, so these names are drawn first and always; so
    # are the places of the turn's battles and captures, with their marks.
    for name, at in named.items():
        _unit_place_name(ax, renderer, geometry.places[name], reg, at, taken,
                         mark=marked.get(name, ""), suffix=features.get(name, ""),
                         flags=[(glyph, colors.get(nation, UNIT_EDGE)) for glyph, nation in missions.get(name, ())])
    owners = unit_owners(units, controllers, colors)
    styles: dict[str, tuple[str, str, str, str, float]] = {}
    for name in shown:
        if units.get(name):
            edge, width = _unit_edge(units[name], owners, colors)
            styles[name] = (_unit_text(units[name]), "white", "black", edge, width)
        else:
            seen = sightings[name]
            face, ink = BAND_COLOURS[seen.band]
            text = f"enemy {BAND_SPANS[seen.band]}"
            if seen.units is not None:  # a reconnaissance hit or espionage: the exact troops
                text = "enemy, exactly:\n" + (_unit_text({UNIT_ABBREV.get(k, k): c for k, c in seen.units.items()})
                                              or "no troops")
            styles[name] = (text, face, ink, UNIT_EDGE, 1.2)
    labels = _draw_unit_boxes(ax, renderer, geometry, reg, styles, shown, taken)
    unit_boxes = [label.box for label in labels]
    # Other names: land first, biggest places first. A name that would overlap one already
    # placed tries a few nearby spots and is skipped only when none is free.
    order = sorted(geometry.places.values(), key=lambda p: (p.kind != "land", -_size_px(p, reg), p.name))
    to_pixels, frame = ax.transData, ax.bbox  # type: ignore[attr-defined]
    for place in order:
        if place.name in named or _size_px(place, reg) < reg.min_label_px:
            continue
        at = _label_anchor(place, reg)
        if at is not None:
            label = _free_name(place, reg, to_pixels.transform(at), taken, features.get(place.name, ""), frame)
            if label is not None:
                placed.append(label)
    return unit_boxes, placed, labels


@dataclass(frozen=True)
class UnitLabel:
    """Where a place's unit (or enemy) box went: in its territory (`number` 0), or, where no
    free spot in the territory holds it, a numbered marker at the place's point with the
    box's text in the map's notes (`number` k)."""

    place: str
    text: str
    box: Bbox  # pixels: the box, or the numbered marker
    anchor: tuple[float, float]  # data coordinates: the place's label point
    number: int = 0


def _numbered_key(labels: Sequence[UnitLabel]) -> list[str]:
    numbered = [label for label in labels if label.number]
    if not numbered:
        return []
    lines = ["Numbered stacks (no room in their territory):"]
    for label in numbered:
        parts = [x.strip() for x in label.text.split("\n")]  # "enemy, exactly:" runs on into its troops
        joined = "".join(p + (" " if p.endswith(":") else "; ") for p in parts[:-1]) + parts[-1]
        lines.append(f"   {label.number} {label.place}: {joined}")
    return lines


def _draw_unit_boxes(
    ax: object,
    renderer: RendererBase,
    geometry: Geometry,
    reg: Region,
    styles: Mapping[str, tuple[str, str, str, str, float]],
    shown: Mapping[str, tuple[float, float]],
    taken: mapnames.Occupied,
) -> list[UnitLabel]:
    """Boxes of unit counts (white) or of seen enemy bands (in the band's colour), each
    (text, face, ink, edge, edge width), hanging below their place's name. Where that spot is taken
    a box moves beside or further below the point, always within its territory (its centre
    inside the territory's outline). Where no free spot in the territory holds it (a small
    territory, a crowded front), a numbered marker stands at the place's point and the box's
    text goes to the map's notes under that number: units are the news and are never
    dropped for lack of room, nor drawn over another territory."""
    font = max(reg.font * 1.2, UNIT_FONT_MIN)
    pad_px = 0.3 * font * DPI / 72  # the box's padding lies outside the text's own extent
    # Spots in rings further and further out: below the point, beside it, above its name.
    spots: list[tuple[float, float, str, str]] = []
    for ring in range(4):
        down, side = -2.0 - ring * 2.4 * font, 7.0 + ring * 3.0 * font
        spots += [
            (0.0, down, "center", "top"),
            (side, down, "left", "top"),
            (-side, down, "right", "top"),
            (0.0, 4.0 + 1.3 * reg.font + ring * 2.4 * font, "center", "bottom"),
        ]
    labels: list[UnitLabel] = []
    from_pixels = ax.transData.inverted()  # type: ignore[attr-defined]
    frame = ax.bbox  # type: ignore[attr-defined]
    # The smallest territories first: they have the fewest spots (often only a numbered
    # marker at their point), and a large neighbour placed before them could cover that
    # point, leaving the marker nowhere but over the neighbour's box; a large territory
    # placed later still finds room elsewhere in itself.
    for name in sorted(shown, key=lambda n: (_size_px(geometry.places[n], reg), n)):
        at = shown[name]
        text, face, ink, edge, width = styles[name]
        outline = _outline(geometry.places[name], reg, at)
        kept: Bbox | None = None
        moved = False
        # The spots are tried with one plain text probe moved from spot to spot (a box's
        # extent is its text's, padded); only the spot kept gets the annotation with its box
        # and leader line: building an annotation per spot tried cost a third of the map.
        probe = ax.annotate(  # type: ignore[attr-defined]
            text, xy=at, xytext=(0.0, 0.0), textcoords="offset points", fontsize=font, weight="bold",
            linespacing=1.1, multialignment="left")
        for spot in spots:
            dx, dy, ha, va = spot
            probe.xyann = (dx, dy)
            probe.set_horizontalalignment(ha)
            probe.set_verticalalignment(va)
            # The box alone: a leader line may cross other labels without hiding them.
            probe.update_positions(renderer)
            box = Text.get_window_extent(probe, renderer).padded(pad_px)
            # A place near the map's edge would have its box cut by the frame: moved inward.
            sx, sy = _into_frame(box, frame)
            if sx or sy:
                dx, dy = dx + sx * 72 / DPI, dy + sy * 72 / DPI
                probe.xyann = (dx, dy)
                probe.update_positions(renderer)
                box = Text.get_window_extent(probe, renderer).padded(pad_px)
            centre = from_pixels.transform(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2))
            if not taken.count(box) and (outline is None or outline.contains_point(centre)):
                kept = box
                moved = spot is not spots[0] or bool(sx or sy)
                break
        probe.remove()
        if kept is not None:
            ax.annotate(  # type: ignore[attr-defined]
                text,
                xy=at,
                xytext=(dx, dy),
                textcoords="offset points",
                ha=ha,
                va=va,
                fontsize=font,
                weight="bold",
                zorder=6,
                color=ink,
                linespacing=1.1,
                multialignment="left",
                # A box moved off its usual spot gets a thin line back to its place.
                arrowprops={"arrowstyle": "-", "color": edge, "linewidth": 0.8, "shrinkA": 0, "shrinkB": 2}
                if moved
                else None,
                bbox={
                    "boxstyle": "round,pad=0.2",
                    "facecolor": face,
                    "edgecolor": edge,
                    "linewidth": width,
                },
            )
            taken.add(kept)
            labels.append(UnitLabel(name, text, kept, at))
            continue
        number = sum(1 for label in labels if label.number) + 1
        # The marker at the place's point, or where that is covered (a neighbour's box hangs
        # over it), at the first free spot around it still in the territory: a marker drawn
        # over another box would hide that box's figures.
        step = 1.6 * font
        around = [(0.0, -2.0)] + [(k * step * x, k * step * y - 2.0) for k in (1, 2, 3)
                                  for x, y in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))]
        probe = ax.annotate(  # type: ignore[attr-defined]
            str(number), xy=at, xytext=(0.0, 0.0), textcoords="offset points", ha="center", va="top",
            fontsize=font, weight="bold")
        for dx, dy in around:
            probe.xyann = (dx, dy)
            probe.update_positions(renderer)
            box = Text.get_window_extent(probe, renderer).padded(pad_px)
            centre = from_pixels.transform(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2))
            inside = _into_frame(box, frame) == (0.0, 0.0)  # not cut by the map's edge
            if inside and not taken.count(box) and (outline is None or outline.contains_point(centre)):
                break
        else:  # nowhere free: at the point after all
            dx, dy = 0, -2.0
            probe.xyann = (dx, dy)
            probe.update_positions(renderer)
            box = Text.get_window_extent(probe, renderer).padded(pad_px)
        probe.remove()
        ax.annotate(  # type: ignore[attr-defined]
            str(number), xy=at, xytext=(dx, dy), textcoords="offset points", ha="center", va="top",
            fontsize=font, weight="bold", zorder=6, color=ink,
            bbox={"boxstyle": "circle,pad=0.2", "facecolor": face, "edgecolor": UNIT_EDGE, "linewidth": 1.4})
        taken.add(box)
        labels.append(UnitLabel(name, text, box, at, number))
    return labels


def _into_frame(box: Bbox, frame: Bbox) -> tuple[float, float]:
    """The shift, in pixels, that brings `box` inside the map's `frame` (0, 0 where it is
    inside): a label is news, and half of it cut off by the map's edge is lost."""
    def shift(lo: float, hi: float, low: float, high: float) -> float:
        if hi - lo >= high - low:  # wider than the frame: its start at the frame's
            return low - lo
        return low - lo if lo < low else high - hi if hi > high else 0.0
    return shift(box.x0, box.x1, frame.x0, frame.x1), shift(box.y0, box.y1, frame.y0, frame.y1)


def _away(shift: float) -> int:
    """A shift in whole pixels at least as long as `shift`, in its direction."""
    return math.ceil(shift) if shift > 0 else math.floor(shift)


def _outline(place: PlaceShape, reg: Region, at: tuple[float, float]) -> MplPath | None:
    """The place's outline in data coordinates, on the copy of the map its point `at` is on."""
    for shift in _shifts(reg):
        if abs(place.label[0] + shift - at[0]) < 1e-9:
            return _projected(place.polygons, shift)[0]
    return None


def _unit_place_name(
    ax: object,
    renderer: RendererBase,
    place: PlaceShape,
    reg: Region,
    at: tuple[float, float],
    taken: mapnames.Occupied,
    *,
    mark: str = "",
    suffix: str = "",
    flags: Sequence[tuple[str, str]] = (),
) -> None:
    """The name of a place holding units, seen enemies or the turn's battle or capture, above
    its point (the box hangs below), moved up once if that spot is taken, drawn in any case.
    `mark`: the battle or capture there (mapstory glyphs), written before the name in bold
    red, so it is never hidden under a unit box. `flags`: (glyph, colour) of the task forces
    patrolling or blockading there, written after the name, each in its nation's colour."""
    sea = place.kind == "sea"
    size = reg.font * (0.9 if sea else 1.0)
    spots = [(0.0, 2.5), (0.0, 2.5 + 1.2 * size)]
    for n, (dx, dy) in enumerate(spots):
        artist = ax.annotate(  # type: ignore[attr-defined]
            (f"{mark} " if mark else "") + place.name + suffix,
            xy=at,
            xytext=(dx, dy),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=size * 1.25 if mark else size,
            style="italic" if sea else "normal",
            weight="bold" if mark else "normal",
            color=mapstory.BATTLE_COLOUR if mark else "#1f4e79" if sea else "black",
            zorder=6.5,
            path_effects=[patheffects.withStroke(linewidth=2, foreground="white")],
        )
        box = artist.get_window_extent(renderer)
        sx, sy = _into_frame(box, ax.bbox)  # type: ignore[attr-defined]
        if sx or sy:  # near the map's edge: moved inward, as the unit boxes are
            artist.xyann = (dx + sx * 72 / DPI, dy + sy * 72 / DPI)
            box = artist.get_window_extent(renderer)
        if taken.count(box) and n < len(spots) - 1:
            artist.remove()
            continue
        taken.add(box)
        x = box.x1 + 2.0
        for glyph, colour in flags:  # large, thinly edged dark: a pale nation's colour still shows on the sea
            flag = ax.annotate(  # type: ignore[attr-defined]
                glyph, xy=(x, (box.y0 + box.y1) / 2), xycoords=IdentityTransform(), ha="left",
                va="center", fontsize=size * 2.4, weight="bold", color=colour, zorder=6.5,
                path_effects=[patheffects.withStroke(linewidth=1.0, foreground=UNIT_EDGE)])
            extent = flag.get_window_extent(renderer)
            taken.add(extent)
            x = extent.x1 + 1.0
        return


def _free_name(place: PlaceShape, reg: Region, anchor: np.ndarray, taken: mapnames.Occupied,
               suffix: str, frame: Bbox) -> mapnames.PlacedName | None:
    """Another place's name at the first free spot near its label point (pixels `anchor`),
    or None where every spot is taken. A spot that the map's `frame` would cut (a place near
    the edge, such as the Gulf of Bothnia at the top of the eastern front) is moved inward, as
    the unit boxes and their names are."""
    sea = place.kind == "sea"
    size = reg.font * (0.9 if sea else 1.0)
    above = not sea and _size_px(place, reg) < SMALL_PLACE_PX  # a dot marks a speck of an island
    spots = [(0.0, 2.5), (0.0, -size - 4.0)] if above else [(dx * size, dy * size) for dx, dy in _LABEL_SPOTS]
    style = mapnames.NameStyle(size, sea, "#1f4e79" if sea else "black", "center", "bottom" if above else "center")
    for dx, dy in spots:
        name = mapnames.PlacedName(place.name + suffix, style, round(anchor[0] + dx * DPI / 72),
                                   round(anchor[1] + dy * DPI / 72))
        box = name.box(DPI)
        sx, sy = _into_frame(box, frame)
        if sx or sy:  # whole pixels (names are pasted as pixels), rounded away from the edge
            name = replace(name, x=name.x + _away(sx), y=name.y + _away(sy))
            box = name.box(DPI)
        if not taken.count(box):
            taken.add(box)
            return name
    return None


def _unit_text(summary: Mapping[str, int]) -> str:
    """Counts as short lines so a box fits a territory: plain labels two to a line ("2 art  4 inf");
    nation-prefixed ones ("ger inf") grouped by nation, the prefix written once ("ger: 2 art  4 inf")."""
    groups: dict[str, list[str]] = {}
    for label, count in sorted(summary.items()):
        prefix = _prefix(label)
        kind = label.split(" ", 1)[1] if prefix else label
        groups.setdefault(prefix or "", []).append(f"{count} {kind}")
    lines: list[str] = []
    for prefix, items in sorted(groups.items()):
        per_line = 3 if prefix else 2
        head = f"{prefix}: " if prefix else ""
        for i in range(0, len(items), per_line):
            lead = head if i == 0 else " " * len(head)
            lines.append(lead + "  ".join(items[i : i + per_line]))
    return "\n".join(lines)


def _prefix(label: str) -> str | None:
    head, sep, _ = label.partition(" ")
    return head if sep else None


def unit_owners(
    units: Mapping[str, Mapping[str, int]],
    controllers: Mapping[str, str | None],
    colors: Mapping[str, str],
) -> dict[str, str]:
    """Nation prefix of unit labels ("ger", "aus") -> nation id.

    A prefix is the start of a nation id; when several ids share it ("aus": Austria-Hungary,
    Australia) the nation that controls land where such units stand wins, as armies stand at home.
    """
    known = sorted(set(colors) | {n for n in controllers.values() if n})
    votes: dict[str, dict[str, int]] = {}
    for place in sorted(units):
        for label in sorted(units[place]):
            prefix = _prefix(label)
            if prefix is None:
                continue
            tally = votes.setdefault(prefix, {})
            holder = controllers.get(place)
            if holder and holder.startswith(prefix):
                tally[holder] = tally.get(holder, 0) + 1
    owners: dict[str, str] = {}
    for prefix, tally in sorted(votes.items()):
        candidates = [n for n in known if n.startswith(prefix)]
        if len(candidates) == 1:
            owners[prefix] = candidates[0]
        elif tally:
            owners[prefix] = max(sorted(tally), key=lambda n: tally[n])
    return owners


def _unit_edge(
    summary: Mapping[str, int], owners: Mapping[str, str], colors: Mapping[str, str]
) -> tuple[str, float]:
    """Border of a unit box: the owner's colour when every label names the same nation."""
    nations = {owners.get(p) for p in (_prefix(label) for label in summary) if p is not None}
    if len(nations) == 1 and len(summary) and all(_prefix(label) for label in summary):
        (nation,) = nations
        if nation is not None:
            return colors.get(nation, UNIT_EDGE), 1.5
    return UNIT_EDGE, 0.6


# ---------------------------------------------------------------- legend

_UNIT_WORDS = {"aa": "anti-aircraft"}  # unit kind ids that are not words


def legend_entries(
    geometry: Geometry,
    reg: Region,
    controllers: Mapping[str, str | None],
    colors: Mapping[str, str],
    names: Mapping[str, str],
) -> list[tuple[str, str]]:
    """(label, colour) for each nation holding land in view, sorted by label; then sea, and
    "no controller" only when such land is in view."""
    nations: set[str] = set()
    unheld = False
    for name in sorted(geometry.places):
        place = geometry.places[name]
        if place.kind != "land" or not any(_visible(place.bounds, reg, s) for s in _shifts(reg)):
            continue
        holder = controllers.get(name)
        if holder:
            nations.add(holder)
        else:
            unheld = True
    entries = sorted(((names.get(n, n), colors.get(n, UNKNOWN_NATION)) for n in nations), key=lambda e: e)
    if unheld:
        entries.append(("No controller", NEUTRAL))
    entries.append(("Sea zone", SEA))
    return entries


def _unit_key(units: Mapping[str, Mapping[str, int]]) -> list[str]:
    """What the unit abbreviations on this map stand for ("inf = infantry")."""
    words = {abbrev: _UNIT_WORDS.get(kind, kind) for kind, abbrev in UNIT_ABBREV.items()}
    used = {label.rsplit(" ", 1)[-1] for summary in units.values() for label in summary}
    known = [f"{a} {words[a]}" for a in sorted(used, key=str.lower) if a in words
             and a.replace("-", " ") != words[a].replace("_", " ")]  # "super-trench" needs no key
    rows = [", ".join(known[i : i + 4]) for i in range(0, len(known), 4)]
    return ["Units:", *("   " + r for r in rows)] if rows else []


# After a place's name: its capital, city, industrial complex and port (the map's features).
FEATURE_GLYPHS = (("capital", "\u2605"), ("city", "\u2022"), ("industry", "\u2699"), ("port", "\u2693"))
_FEATURE_KEY = ["\u2605 capital  \u2022 city  \u2699 industrial complex  \u2693 port"]


def map_features(world: World) -> dict[str, str]:
    """Place -> the glyphs written after its name (a capital is a city: only the star)."""
    out = {}
    for name, t in world.territories.items():
        glyphs = "".join(g for attr, g in FEATURE_GLYPHS
                         if getattr(t, attr, False) and not (attr == "city" and t.capital))
        if glyphs:
            out[name] = " " + glyphs
    return out


def _band_key(sightings: Mapping[str, Sighting]) -> list[str]:
    """What the enemy boxes mean, when the map has any."""
    if not sightings:
        return []
    return ["Enemy seen (3.3): black 0-5 units,", "   yellow 6-20, red 21 or more"]


def _off_map(geometry: Geometry, reg: Region, units: Mapping[str, Mapping[str, int]]) -> list[str]:
    """Units standing outside the drawn region, so a report never silently loses any."""
    lines = []
    for name in sorted(units):
        place = geometry.places.get(name)
        if place is None or not units[name] or _label_anchor(place, reg) is not None:
            continue
        lines.append(f"{name} " + ", ".join(f"{c} {label}" for label, c in sorted(units[name].items())))
    return ["Off this map:", *("   " + line for line in lines)] if lines else []


def _draw_legend(
    fig: Figure,
    ax: object,
    entries: Sequence[tuple[str, str]],
    notes: Sequence[str],
    land: np.ndarray,
    avoid: Sequence[Bbox],
) -> str:
    """Colour swatches in the corner that covers least land and no unit box; below (or above)
    them a box of notes: what the unit abbreviations mean and units beyond the map's edge."""
    columns = 1 if len(entries) <= LEGEND_ROWS else 2
    fig_w, fig_h = fig.bbox.width, fig.bbox.height
    # The legend as it stands in the upper left: every map of a region (each nation's, each
    # alliance's, the bulletin's) has the same, so it is laid out and drawn once
    # (_legend_pixels) and pasted; its box in another corner is the mirror image (the axes
    # fill the figure and the padding is the same on every side). What it holds is kept on
    # the figure for tests to read (legend_entries, like unit_labels): a matplotlib Legend
    # built per map only to say so cost as much as a unit box's placement.
    fig.legend_entries = list(entries)  # type: ignore[attr-defined]
    pixels, first = _legend_pixels(tuple(entries), columns, (fig_w, fig_h))
    # The notes box hangs below the swatches (above them in a lower corner): the corner is
    # chosen for the two together, so a long list of notes does not cover Scotland.
    note = None
    note_w = note_h = 0.0
    if notes:
        note = ax.text(  # type: ignore[attr-defined]
            0, 0, "\n".join(notes), transform=IdentityTransform(),  # pixels, as the legend's box
            fontsize=LEGEND_FONT * 0.9, zorder=20,
            bbox={"boxstyle": "square,pad=0.4", "facecolor": "white", "edgecolor": LAND_EDGE, "linewidth": 0.8})
        extent = note.get_window_extent(mapnames.measurer(DPI))
        pad = 0.4 * LEGEND_FONT * 0.9 * DPI / 72
        note_w, note_h = extent.width + 2 * pad, extent.height + 2 * pad
    best: tuple[float, int] | None = None
    chosen = LEGEND_CORNERS[0]
    box = first
    for rank, corner in enumerate(LEGEND_CORNERS):
        upper, left = corner.startswith("upper"), corner.endswith("left")
        xs = (first.x0, first.x1) if left else (fig_w - first.x1, fig_w - first.x0)
        ys = (first.y0, first.y1) if upper else (fig_h - first.y1, fig_h - first.y0)
        here = Bbox.from_extents(xs[0], ys[0], xs[1], ys[1])
        parts = [here]
        if note is not None:
            nx0 = here.x0 if left else here.x1 - note_w
            ny0 = here.y0 - 6 - note_h if upper else here.y1 + 6
            parts.append(Bbox.from_bounds(nx0, ny0, note_w, note_h))
        area = sum(b.width * b.height for b in parts) or 1.0
        covered = sum(_land_share(b, land) * b.width * b.height for b in parts) / area
        score = (covered + 10.0 * sum(b.overlaps(a) for b in parts for a in avoid), rank)
        if best is None or score < best:
            best, chosen, box = score, corner, here
    fig.legend_corner = chosen  # type: ignore[attr-defined]
    ax.add_artist(Pixels(pixels, round(box.x0) - LEGEND_MARGIN, round(box.y0) - LEGEND_MARGIN, 20))  # type: ignore[attr-defined]
    if note is None:
        return chosen
    upper, left = chosen.startswith("upper"), chosen.endswith("left")
    note.set_position((box.x0 if left else box.x1, box.y0 - 6 if upper else box.y1 + 6))
    note.set_horizontalalignment("left" if left else "right")
    note.set_multialignment("left")  # its lines read from the left in a right-hand corner too
    note.set_verticalalignment("top" if upper else "bottom")
    return chosen


LEGEND_MARGIN = 2  # px kept around the legend's box when its pixels are cut out
LEGENDS_KEPT = 8
_LEGENDS: dict[tuple[tuple[tuple[str, str], ...], int, tuple[float, float]], tuple[np.ndarray, Bbox]] = {}


def _legend_pixels(entries: tuple[tuple[str, str], ...], columns: int,
                   size: tuple[float, float]) -> tuple[np.ndarray, Bbox]:
    """The legend of `entries` drawn alone in the upper left of a transparent figure of
    `size` px, cut out with LEGEND_MARGIN px around it (RGBA, bottom row first, as
    BaseLayer), and its box there; drawn once per entries, kept for the turn's maps."""
    key = (entries, columns, size)
    hit = _LEGENDS.get(key)
    if hit is None:
        fig = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI)
        canvas = Canvas(fig)
        fig.patch.set_alpha(0.0)
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
        ax.set_axis_off()
        handles = [Patch(facecolor=c, edgecolor=LAND_EDGE, linewidth=0.5) for _, c in entries]
        legend = _legend(ax, handles, [label for label, _ in entries], "upper left", columns)
        canvas.draw()
        box = legend.get_window_extent(canvas.get_renderer())
        rgba = np.asarray(canvas.buffer_rgba())[::-1]  # bottom row first
        x0, y0 = max(round(box.x0) - LEGEND_MARGIN, 0), max(round(box.y0) - LEGEND_MARGIN, 0)
        x1, y1 = round(box.x1) + LEGEND_MARGIN, round(box.y1) + LEGEND_MARGIN
        hit = (np.ascontiguousarray(rgba[y0:y1, x0:x1]), box)
        if len(_LEGENDS) >= LEGENDS_KEPT:
            _LEGENDS.pop(next(iter(_LEGENDS)))
        _LEGENDS[key] = hit
    return hit


class Pixels(Artist):
    """Pixels (RGBA, bottom row first) drawn with their lower left corner at (x, y) px."""

    def __init__(self, pixels: np.ndarray, x: int, y: int, zorder: float) -> None:
        super().__init__()
        self.pixels, self.x, self.y = pixels, x, y
        self.set_zorder(zorder)

    def draw(self, renderer: RendererBase) -> None:
        gc = renderer.new_gc()
        renderer.draw_image(gc, self.x, self.y, self.pixels)
        gc.restore()


OVERVIEW_SHARE = 0.22  # of the map's width: the world overview in a corner of a theatre map


def _draw_overview(fig: Figure, ax: object, pixels: np.ndarray, reg: Region, legend_corner: str,
                   land: np.ndarray, avoid: Sequence[Bbox]) -> None:
    """The world overview, small, in the corner (other than the legend's) that covers least
    land and fewest unit boxes, with the drawn region outlined in red; at the foot of the
    side panel where the map has one."""
    world = REGIONS["world"]
    fig_w, fig_h = fig.bbox.width, fig.bbox.height
    pad = 8.0
    w_px = reg.panel - 2 * pad if reg.panel else fig_w * OVERVIEW_SHARE
    h_px = w_px * pixels.shape[0] / pixels.shape[1]
    best: tuple[float, int] | None = None
    chosen = (0.0, 0.0)
    corners = ["lower left"] if reg.panel else [c for c in LEGEND_CORNERS if c != legend_corner]
    for rank, corner in enumerate(corners):
        x0 = pad if corner.endswith("left") else fig_w - pad - w_px
        y0 = fig_h - pad - h_px - 28 if corner.startswith("upper") else pad  # below the title
        box = Bbox.from_bounds(x0, y0, w_px, h_px)
        score = (_land_share(box, land) + 10.0 * sum(box.overlaps(b) for b in avoid), rank)
        if best is None or score < best:
            best, chosen = score, (x0, y0)
    inset = fig.add_axes((chosen[0] / fig_w, chosen[1] / fig_h, w_px / fig_w, h_px / fig_h), zorder=30)
    inset.imshow(pixels, extent=(world.west, world.east, miller_y(world.south), miller_y(world.north)),
                 interpolation="antialiased", aspect="auto")
    inset.set_xlim(world.west, world.east)
    inset.set_ylim(miller_y(world.south), miller_y(world.north))
    inset.set_xticks([])
    inset.set_yticks([])
    for spine in inset.spines.values():
        spine.set_edgecolor(LAND_EDGE)
        spine.set_linewidth(1.0)
    for shift in (0.0, -360.0):  # a region past 180 degrees east shows on the left edge as well
        inset.add_patch(Rectangle((reg.west + shift, miller_y(reg.south)), reg.east - reg.west,
                                  miller_y(reg.north) - miller_y(reg.south), fill=False,
                                  edgecolor=mapstory.BATTLE_COLOUR, linewidth=1.6))


def _legend(ax: object, handles: list[Patch], labels: list[str], corner: str, columns: int) -> Legend:
    legend: Legend = ax.legend(  # type: ignore[attr-defined]
        handles,
        labels,
        loc=corner,
        ncols=columns,
        columnspacing=1.0,
        fontsize=LEGEND_FONT,
        title="Control",
        title_fontproperties={"weight": "bold", "size": LEGEND_FONT},
        frameon=True,
        framealpha=0.95,
        facecolor="white",
        edgecolor=LAND_EDGE,
        fancybox=False,
        borderaxespad=0.6,
        handlelength=1.6,
        labelspacing=0.35,
    )
    legend.set_zorder(20)
    return legend


def _land_share(box: Bbox, land: np.ndarray) -> float:
    """Share of a grid of points in a pixel box that fall on land (`land`: the base layer's
    land mask, bottom row first); points off the image count as water."""
    steps = 12
    height, width = land.shape
    xs = np.floor(box.x0 + (np.arange(steps) + 0.5) * box.width / steps).astype(int)
    ys = np.floor(box.y0 + (np.arange(steps) + 0.5) * box.height / steps).astype(int)
    cols, rows = np.meshgrid(xs, ys)
    inside = (cols >= 0) & (cols < width) & (rows >= 0) & (rows < height)
    on_land = land[rows.clip(0, height - 1), cols.clip(0, width - 1)] & inside
    return float(on_land.sum()) / (steps * steps)


# Where a name may go around its label point, in multiples of the font size (points).
_LABEL_SPOTS = [(0.0, 0.0), (0.0, 1.1), (0.0, -1.1), (2.5, 0.0), (-2.5, 0.0), (0.0, 2.2), (0.0, -2.2)]
