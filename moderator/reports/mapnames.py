"""Place names on a map as cached pixels: each name is measured and drawn once per process
(per text and style) and then pasted wherever a map wants it.

A report's map carries some two hundred names, each with a white halo (a path effect, which
matplotlib draws glyph by glyph as paths): drawing them was most of a map's time, yet the
same names in the same fonts come back on every map of a turn. Here a name's size is
measured once and its pixels (the halo included) drawn once into a small transparent
sprite; a map pastes the sprites it places onto its base layer (reports/mapdraw.py).
Positions are whole pixels, so the same names at the same places give the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib import patheffects
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox, IdentityTransform

HALO_POINTS = 2.0  # the white stroke around each letter, in points
MARGIN_PX = 4  # room around the measured text for the halo and anti-aliasing


@dataclass(frozen=True)
class NameStyle:
    size: float  # points
    italic: bool
    color: str
    ha: str  # horizontal alignment on the position: "center", "left", "right"
    va: str  # vertical: "center", "bottom", "top"


@dataclass(frozen=True)
class PlacedName:
    """A name at a whole-pixel position (x right, y up from the image's bottom left)."""

    text: str
    style: NameStyle
    x: int
    y: int

    def box(self, dpi: float) -> Bbox:
        """Where the letters fall on the image (the halo excluded, as matplotlib measures text)."""
        x0, y0, x1, y1 = _extent(self.text, self.style, dpi)
        return Bbox.from_extents(self.x + x0, self.y + y0, self.x + x1, self.y + y1)


_SCRATCH: dict[float, tuple[Figure, RendererAgg]] = {}
_EXTENTS: dict[tuple[str, NameStyle, float], tuple[float, float, float, float]] = {}
_SPRITES: dict[tuple[str, NameStyle, float], tuple[int, int, np.ndarray]] = {}


def _scratch(dpi: float) -> tuple[Figure, RendererAgg]:
    if dpi not in _SCRATCH:
        fig = Figure(dpi=dpi)
        canvas = FigureCanvasAgg(fig)
        _SCRATCH[dpi] = (fig, canvas.get_renderer())
    return _SCRATCH[dpi]


def measurer(dpi: float) -> RendererAgg:
    """A renderer kept for measuring text at `dpi`: matplotlib caches text metrics per
    renderer, and each map's own canvas is new, so measuring with this one lets every map of
    the turn reuse what the others measured (the same fonts and dpi give the same extents)."""
    return _scratch(dpi)[1]


def _artist(text: str, style: NameStyle, dpi: float, x: float, y: float) -> Text:
    artist = Text(x, y, text, fontsize=style.size, style="italic" if style.italic else "normal",
                  color=style.color, ha=style.ha, va=style.va, transform=IdentityTransform(),
                  path_effects=[patheffects.withStroke(linewidth=HALO_POINTS, foreground="white")])
    artist.set_figure(_scratch(dpi)[0])
    return artist


def _extent(text: str, style: NameStyle, dpi: float) -> tuple[float, float, float, float]:
    """The letters' box relative to the name's position, in pixels."""
    key = (text, style, dpi)
    if key not in _EXTENTS:
        box = _artist(text, style, dpi, 0.0, 0.0).get_window_extent(_scratch(dpi)[1])
        _EXTENTS[key] = (box.x0, box.y0, box.x1, box.y1)
    return _EXTENTS[key]


def _sprite(text: str, style: NameStyle, dpi: float) -> tuple[int, int, np.ndarray]:
    """(left, bottom, RGBA pixels): the name drawn on transparency, its bottom-left corner
    at (left, bottom) pixels from its position; rows run from the top, as in an image."""
    key = (text, style, dpi)
    if key not in _SPRITES:
        x0, y0, x1, y1 = _extent(text, style, dpi)
        left, bottom = math.floor(x0) - MARGIN_PX, math.floor(y0) - MARGIN_PX
        width, height = math.ceil(x1) + MARGIN_PX - left, math.ceil(y1) + MARGIN_PX - bottom
        renderer = RendererAgg(width, height, dpi)
        _artist(text, style, dpi, float(-left), float(-bottom)).draw(renderer)
        _SPRITES[key] = (left, bottom, np.asarray(renderer.buffer_rgba()).copy())
    return _SPRITES[key]


def paste(image: np.ndarray, names: Sequence[PlacedName], dpi: float) -> None:
    """Draw `names` onto an opaque RGBA `image` (bottom row first: row y is y pixels up) in
    place, in order."""
    height, width = image.shape[:2]
    for name in names:
        left, bottom, sprite = _sprite(name.text, name.style, dpi)
        h, w = sprite.shape[:2]
        col0, row0 = name.x + left, name.y + bottom
        sprite = sprite[::-1]  # drawn top row first, pasted bottom row first
        c0, r0 = max(col0, 0), max(row0, 0)
        c1, r1 = min(col0 + w, width), min(row0 + h, height)
        if c0 >= c1 or r0 >= r1:
            continue
        part = sprite[r0 - row0:r1 - row0, c0 - col0:c1 - col0].astype(np.float32)
        alpha = part[..., 3:4] / 255.0  # Agg's buffer holds straight (not premultiplied) alpha
        under = image[r0:r1, c0:c1, :3].astype(np.float32)
        image[r0:r1, c0:c1, :3] = np.rint(part[..., :3] * alpha + under * (1.0 - alpha)).astype(np.uint8)


class Occupied:
    """Pixel boxes already taken on a map, for quick "does this box hit any?" questions."""

    def __init__(self) -> None:
        self.boxes: list[Bbox] = []
        self._extents = np.empty((64, 4))

    def add(self, box: Bbox) -> None:
        if len(self.boxes) == len(self._extents):
            self._extents = np.concatenate([self._extents, np.empty_like(self._extents)])
        self._extents[len(self.boxes)] = sorted((box.x0, box.x1)) + sorted((box.y0, box.y1))
        self.boxes.append(box)

    def count(self, box: Bbox) -> int:
        """How many taken boxes `box` overlaps (edges touching count, as in Bbox.overlaps)."""
        e = self._extents[: len(self.boxes)]
        x0, x1 = sorted((box.x0, box.x1))
        y0, y1 = sorted((box.y0, box.y1))
        return int(((e[:, 0] <= x1) & (x0 <= e[:, 1]) & (e[:, 2] <= y1) & (y0 <= e[:, 3])).sum())
