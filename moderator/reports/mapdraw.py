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
from matplotlib.backend_bases import RendererBase  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.collections import LineCollection, PatchCollection  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.legend import Legend  # noqa: E402
from matplotlib.patches import Patch, PathPatch  # noqa: E402
from matplotlib.path import Path as MplPath  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.transforms import Bbox, IdentityTransform  # noqa: E402
from PIL import Image  # noqa: E402

from moderator.reports.geometry import MAPS_DIR, Geometry, PlaceShape, Rings  # noqa: E402
from moderator.reports.visibility import UNIT_ABBREV  # noqa: E402
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
UNIT_FONT_MIN = 8.0  # points: at DPI 100 this is about 11 px, readable at 100% zoom
UNIT_EDGE = "#333333"  # unit box border when the owner is not named in the label
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
    names: Mapping[str, str] | None = None,
) -> bytes:
    """PNG of the map: land coloured by controller, sea zones pale blue, names, unit summaries
    and a legend of the nations holding land in view.

    control: place -> nation id now controlling it (default: the 1914 owner from the world).
    units: place -> {"label": count}, already filtered to what the viewer may see. A label may
        start with a nation prefix ("ger inf"): its box is then edged in that nation's colour.
    names: nation id -> display name for the legend (default: the id).
    """
    fig = build_figure(geometry, world, control=control, units=units, region=region, title=title, names=names)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def render_pixels(
    geometry: Geometry,
    world: World,
    *,
    control: Mapping[str, str] | None = None,
    units: Mapping[str, Mapping[str, int]] | None = None,
    region: str = "world",
    title: str = "",
    names: Mapping[str, str] | None = None,
) -> Image.Image:
    """The same map as render_map, as an RGB image straight from the Agg canvas: reports
    re-encode it as a palette PNG (reports/mapfiles.py), so it skips a PNG round trip."""
    fig = build_figure(geometry, world, control=control, units=units, region=region, title=title, names=names)
    canvas = fig.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    canvas.draw()
    return Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")


def build_figure(
    geometry: Geometry,
    world: World,
    *,
    control: Mapping[str, str] | None = None,
    units: Mapping[str, Mapping[str, int]] | None = None,
    region: str = "world",
    title: str = "",
    names: Mapping[str, str] | None = None,
) -> Figure:
    """The map as a matplotlib figure (see render_map); tests inspect what it holds."""
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

    land_paths = _draw_background(ax, geometry, reg)
    land_paths += _draw_places(ax, geometry, reg, controllers, colors)
    unit_boxes = _draw_labels(fig, ax, geometry, reg, units or {}, controllers, colors)
    entries = legend_entries(geometry, reg, controllers, colors, names or {})
    notes = _unit_key(units or {}) + _off_map(geometry, reg, units or {})
    _draw_legend(fig, ax, entries, notes, land_paths, unit_boxes)
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


def _draw_background(ax: object, geometry: Geometry, reg: Region) -> list[MplPath]:
    """Unowned land; returns the drawn paths (the legend avoids covering land)."""
    patches = []
    for shift in _shifts(reg):
        path = _path(geometry.land, shift)
        if path is not None:
            patches.append(PathPatch(path))
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
                path = _path(place.polygons, shift)
                if path is not None:
                    patches.append(PathPatch(path))
                    faces.append(fill)
                    if kind == "land":
                        land_paths.append(path)
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
) -> list[Bbox]:
    """Names of places holding units, their unit boxes, then other names where they fit.

    Returns the unit boxes' pixel extents (the legend keeps clear of them)."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    taken: list[Bbox] = []
    shown = {
        name: at
        for name in sorted(units)
        if units[name]
        and name in geometry.places
        and (at := _label_anchor(geometry.places[name], reg)) is not None
    }
    # A unit box must say where it stands, so these names are drawn first and always.
    for name, at in shown.items():
        _place_name(ax, renderer, geometry.places[name], reg, at, taken, has_units=True)
    unit_boxes = _draw_unit_boxes(
        ax, renderer, reg, units, shown, taken, unit_owners(units, controllers, colors), colors
    )
    # Other names: land first, biggest places first. A name that would overlap one already
    # placed tries a few nearby spots and is skipped only when none is free.
    order = sorted(geometry.places.values(), key=lambda p: (p.kind != "land", -_size_px(p, reg), p.name))
    for place in order:
        if place.name in shown or _size_px(place, reg) < reg.min_label_px:
            continue
        at = _label_anchor(place, reg)
        if at is not None:
            _place_name(ax, renderer, place, reg, at, taken, has_units=False)
    return unit_boxes


def _draw_unit_boxes(
    ax: object,
    renderer: RendererBase,
    reg: Region,
    units: Mapping[str, Mapping[str, int]],
    shown: Mapping[str, tuple[float, float]],
    taken: list[Bbox],
    owners: Mapping[str, str],
    colors: Mapping[str, str],
) -> list[Bbox]:
    """White boxes of unit counts, hanging below their place's name. Where that spot is taken
    a box moves beside or further below the point; when no spot is free it is drawn anyway:
    units are the news and are never dropped for lack of room."""
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
    boxes: list[Bbox] = []
    for name, at in shown.items():
        edge, width = _unit_edge(units[name], owners, colors)
        best: tuple[int, int, object, Bbox] | None = None
        for n, (dx, dy, ha, va) in enumerate(spots):
            artist = ax.annotate(  # type: ignore[attr-defined]
                _unit_text(units[name]),
                xy=at,
                xytext=(dx, dy),
                textcoords="offset points",
                ha=ha,
                va=va,
                fontsize=font,
                weight="bold",
                zorder=6,
                color="black",
                linespacing=1.1,
                multialignment="left",
                # A box moved off its usual spot gets a thin line back to its place.
                arrowprops={"arrowstyle": "-", "color": edge, "linewidth": 0.8, "shrinkA": 0, "shrinkB": 2}
                if n
                else None,
                bbox={
                    "boxstyle": "round,pad=0.2",
                    "facecolor": "white",
                    "edgecolor": edge,
                    "linewidth": width,
                },
            )
            # The box alone: a leader line may cross other labels without hiding them.
            artist.update_positions(renderer)
            box = Text.get_window_extent(artist, renderer).padded(pad_px)
            clashes = sum(box.overlaps(other) for other in taken)
            if best is None or (clashes, n) < best[:2]:
                if best is not None:
                    best[2].remove()  # type: ignore[attr-defined]
                best = (clashes, n, artist, box)
            else:
                artist.remove()
            if clashes == 0:
                break
        # The spot with fewest clashes is kept even when none is free: units are never dropped.
        assert best is not None
        taken.append(best[3])
        boxes.append(best[3])
    return boxes


def _place_name(
    ax: object,
    renderer: RendererBase,
    place: PlaceShape,
    reg: Region,
    at: tuple[float, float],
    taken: list[Bbox],
    *,
    has_units: bool,
) -> None:
    """One place name at the first free spot near its label point (forced for unit places)."""
    sea = place.kind == "sea"
    size = reg.font * (0.9 if sea else 1.0)
    # Above the point when a unit box hangs below it or a dot marks a speck of an island.
    above = has_units or (not sea and _size_px(place, reg) < SMALL_PLACE_PX)
    if has_units:
        spots = [(0.0, 2.5), (0.0, 2.5 + 1.2 * size)]
    elif above:
        spots = [(0.0, 2.5), (0.0, -size - 4.0)]
    else:
        spots = [(dx * size, dy * size) for dx, dy in _LABEL_SPOTS]
    for n, (dx, dy) in enumerate(spots):
        artist = ax.annotate(  # type: ignore[attr-defined]
            place.name,
            xy=at,
            xytext=(dx, dy),
            textcoords="offset points",
            ha="center",
            va="bottom" if above else "center",
            fontsize=size,
            style="italic" if sea else "normal",
            color="#1f4e79" if sea else "black",
            zorder=6.5 if has_units else 5,
            path_effects=[patheffects.withStroke(linewidth=2, foreground="white")],
        )
        box = artist.get_window_extent(renderer)
        if any(box.overlaps(other) for other in taken) and not (has_units and n == len(spots) - 1):
            artist.remove()
            continue
        taken.append(box)
        return


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
    known = [f"{a} {words[a]}" for a in sorted(used, key=str.lower) if a in words]
    rows = [", ".join(known[i : i + 4]) for i in range(0, len(known), 4)]
    return ["Units:", *("   " + r for r in rows)] if rows else []


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
    land_paths: Sequence[MplPath],
    avoid: Sequence[Bbox],
) -> None:
    """Colour swatches in the corner that covers least land and no unit box; below (or above)
    them a box of notes: what the unit abbreviations mean and units beyond the map's edge."""
    handles = [Patch(facecolor=c, edgecolor=LAND_EDGE, linewidth=0.5) for _, c in entries]
    labels = [label for label, _ in entries]
    columns = 1 if len(entries) <= LEGEND_ROWS else 2
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    best: tuple[float, int] | None = None
    chosen = LEGEND_CORNERS[0]
    for rank, corner in enumerate(LEGEND_CORNERS):
        legend = _legend(ax, handles, labels, corner, columns)
        box = legend.get_window_extent(renderer)
        legend.remove()
        score = (_land_share(ax, box, land_paths) + 10.0 * sum(box.overlaps(b) for b in avoid), rank)
        if best is None or score < best:
            best, chosen = score, corner
    legend = _legend(ax, handles, labels, chosen, columns)
    if not notes:
        return
    box = legend.get_window_extent(renderer)
    upper, left = chosen.startswith("upper"), chosen.endswith("left")
    ax.text(  # type: ignore[attr-defined]
        box.x0 if left else box.x1,
        box.y0 - 6 if upper else box.y1 + 6,
        "\n".join(notes),
        transform=IdentityTransform(),  # pixels: the legend's box is measured in pixels
        ha="left" if left else "right",
        va="top" if upper else "bottom",
        fontsize=LEGEND_FONT * 0.9,
        zorder=20,
        bbox={"boxstyle": "square,pad=0.4", "facecolor": "white", "edgecolor": LAND_EDGE, "linewidth": 0.8},
    )


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


def _land_share(ax: object, box: Bbox, land_paths: Sequence[MplPath]) -> float:
    """Share of a grid of points in a pixel box that fall on drawn land."""
    steps = 12
    points = [
        (box.x0 + (i + 0.5) * box.width / steps, box.y0 + (j + 0.5) * box.height / steps)
        for i in range(steps)
        for j in range(steps)
    ]
    to_pixels = ax.transData  # type: ignore[attr-defined]
    inverse = to_pixels.inverted()
    data_points = inverse.transform(points)
    on_land = [False] * len(points)
    lo, hi = data_points.min(axis=0), data_points.max(axis=0)
    for path in land_paths:
        ext = path.get_extents()
        if ext.x1 < lo[0] or ext.x0 > hi[0] or ext.y1 < lo[1] or ext.y0 > hi[1]:
            continue
        for k, inside in enumerate(path.contains_points(data_points)):
            on_land[k] = on_land[k] or bool(inside)
    return sum(on_land) / len(points)


# Where a name may go around its label point, in multiples of the font size (points).
_LABEL_SPOTS = [(0.0, 0.0), (0.0, 1.1), (0.0, -1.1), (2.5, 0.0), (-2.5, 0.0), (0.0, 2.2), (0.0, -2.2)]
