"""A drawn map as mail carries it: a palette PNG (a map has few colours, so 256 keep it
sharp at a quarter of the bytes of Agg's RGBA output), full size to attach, and a
narrower copy in the same palette to show inline in the HTML part.

The palette is the image's own most frequent colours, exactly: every nation's fill, the
sea and the label colours keep their values (a quantizer would nudge them and could merge
two nations' colours); anti-aliased edge pixels take the nearest of them to their cell
of a fine colour grid (indexed). Deterministic like the drawing: the same pixels give
the same bytes (colours are ranked by count, then by value; no time or software chunk
is written).
"""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

INLINE_WIDTH = 1200  # px, about: readable in a mail window; the attached map has every pixel
SAMPLE_STEP = 3  # colours are counted on every third pixel each way: flat fills dominate anyway
QUANTUM = 4  # the grid step of the nearest-colour search for colours not in the palette (indexed)


def _rgb(picture: bytes | Image.Image) -> Image.Image:
    if isinstance(picture, Image.Image):
        return picture.convert("RGB")
    with Image.open(io.BytesIO(picture)) as img:
        return img.convert("RGB")


def palette_of(rgb: Image.Image, colors: int = 256) -> list[tuple[int, int, int]]:
    """The `colors` most frequent colours of `rgb` (counted on a sample), most frequent first."""
    sample = rgb.resize((max(rgb.width // SAMPLE_STEP, 1), max(rgb.height // SAMPLE_STEP, 1)),
                        Image.Resampling.NEAREST)
    counted = sample.getcolors(maxcolors=sample.width * sample.height) or []
    # Only the colours counted at least as often as the `colors`-th most frequent can be
    # among the first `colors`: those few are ranked, not the tens of thousands of edge colours.
    counts = sorted((n for n, _ in counted), reverse=True)
    floor = counts[colors - 1] if len(counts) >= colors else 0
    ranked = sorted((nc for nc in counted if nc[0] >= floor), key=lambda nc: (-nc[0], nc[1]))
    return [c for _, c in ranked[:colors]]  # type: ignore[misc]


def packed_rgb(pixels: np.ndarray) -> np.ndarray:
    """Each pixel of `pixels` (rows x columns x 3 or 4 channels, uint8) as one uint32 0xRRGGBB.
    Shifted in place: half the time of three widened temporaries, a quarter of a matrix product."""
    packed = pixels[..., 0].astype(np.uint32)
    packed <<= 8
    packed |= pixels[..., 1]
    packed <<= 8
    packed |= pixels[..., 2]
    return packed


_TABLE: np.ndarray | None = None  # every 24-bit colour -> palette index, -1 when unset


def indexed(rgb: Image.Image, palette: list[tuple[int, int, int]]) -> Image.Image:
    """`rgb` as a "P" image on `palette`: a pixel of a palette colour keeps it exactly, any
    other takes the nearest (Pillow's own palette mapping is approximate: it would shift
    fills by a few units).

    A table over every 24-bit colour (16 M entries, kept between calls and cleared after
    each) maps a pixel to its index in one gather, far quicker than a search per pixel;
    only the colours the image has are filled in."""
    global _TABLE
    if _TABLE is None:
        _TABLE = np.full(1 << 24, -1, dtype=np.int16)
    table = _TABLE
    packed = packed_rgb(np.asarray(rgb, dtype=np.uint8))
    pal = np.array(palette, dtype=np.int32).reshape(-1, 3)
    keys = (pal[:, 0].astype(np.uint32) << 16) | (pal[:, 1].astype(np.uint32) << 8) | pal[:, 2].astype(np.uint32)
    others = np.empty(0, dtype=np.uint32)
    lost = others
    try:
        table[keys[::-1]] = np.arange(len(keys) - 1, -1, -1, dtype=np.int16)  # a repeated colour: its first index
        index = table[packed]
        missing = index < 0
        if missing.any():
            lost = packed[missing]
            table[lost] = -2  # mark the colours to map: reading the marks back gives them sorted, once each
            others = np.flatnonzero(table == -2).astype(np.uint32)
            # The search runs once per cell of a grid of 64 levels a channel (QUANTUM), from the
            # cell's centre: a map's anti-aliased colours (some 40 000) fall in about a fifth as
            # many cells, and an edge pixel is placed as if off by 2 at most in a channel, which
            # no eye sees. Palette colours stay exact (the table above).
            cells, cell_of = np.unique(((others >> 16 & 255) // QUANTUM << 16) | ((others >> 8 & 255) // QUANTUM << 8)
                                       | ((others & 255) // QUANTUM), return_inverse=True)
            rgb_others = np.stack([(cells >> 16) & 255, (cells >> 8) & 255, cells & 255], axis=1) * QUANTUM + QUANTUM // 2
            nearest = np.empty(len(cells), dtype=np.int16)
            # Nearest by squared distance |c - p|^2 = |c|^2 - 2 c.p + |p|^2; |c|^2 is the same for
            # every p, so argmin(|p|^2 - 2 c.p): a matrix product. Every term is an integer below
            # 2^24 (at most 2 * 3 * 255^2), exact in float32, so ties and results are the integer sums'.
            pal_f = pal.astype(np.float32)
            pal_sq = (pal_f ** 2).sum(axis=1)[None, :]
            others_f = rgb_others.astype(np.float32)
            for first in range(0, len(cells), 4096):  # bounded memory: 4096 x 256 scores at a time
                chunk = others_f[first:first + 4096]
                # The three products written out: a BLAS matrix product would start threads that
                # spin on a busy machine for a sum over only three terms.
                scores = pal_sq - 2.0 * (chunk[:, 0:1] * pal_f[:, 0] + chunk[:, 1:2] * pal_f[:, 1]
                                         + chunk[:, 2:3] * pal_f[:, 2])
                nearest[first:first + 4096] = scores.argmin(axis=1)
            table[others] = nearest[cell_of.reshape(-1)]
            index[missing] = table[lost]
    finally:
        table[keys] = -1
        table[lost] = -1
    out = Image.fromarray(index.astype(np.uint8), mode="P")
    out.putpalette([v for c in palette for v in c])
    return out


def _encode(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=6)  # optimize=True: 7x the time for 6% fewer bytes
    return out.getvalue()


def map_files(picture: bytes | Image.Image, inline_width: int = INLINE_WIDTH) -> tuple[bytes, bytes]:
    """(full, inline): the map as a palette PNG, and a copy about `inline_width` px wide in
    the same palette (a whole fraction of the full width: a map with a side panel, 2900 px,
    gives 1450). Empty in, empty out (reports built without maps)."""
    if isinstance(picture, bytes) and not picture:
        return b"", b""
    rgb = _rgb(picture)
    palette = palette_of(rgb)
    full = _encode(indexed(rgb, palette))
    factor = round(rgb.width / inline_width)
    if factor < 2:
        return full, full
    small = rgb.reduce(factor)  # blocks averaged: ten times quicker than a Lanczos resize, as sharp at 1/2
    return full, _encode(indexed(small, palette))
