"""A report's map as mail carries it (reports/mapfiles.py): a palette PNG that keeps every
fill colour exactly (no two nations merged), an inline copy in the same palette, the same
bytes for the same pixels, and far fewer bytes than the RGBA PNG."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from moderator.reports.mapfiles import map_files

FILLS = [(95, 174, 110), (200, 168, 136), (192, 160, 128), (220, 237, 247), (91, 134, 214)]


def picture() -> Image.Image:
    """Flat fills (two of them one shade apart, as neighbouring nations can be), edges and
    text that anti-aliasing fills with in-between shades."""
    img = Image.new("RGB", (2400, 1200), FILLS[-1])
    draw = ImageDraw.Draw(img)
    for i, fill in enumerate(FILLS[:-1]):
        draw.rectangle((i * 600, 0, i * 600 + 560, 1100), fill=fill, outline=(64, 64, 64), width=3)
        draw.ellipse((i * 600 + 50, 200, i * 600 + 500, 900), outline=(20, 20, 20), width=2)
        for y in range(100, 1000, 40):
            draw.text((i * 600 + 60, y), f"Territory {i}-{y}: 3 inf 2 art", fill=(0, 0, 0))
    return img.resize((2400, 1200), Image.Resampling.BICUBIC).rotate(1.5, resample=Image.Resampling.BICUBIC,
                                                                         fillcolor=FILLS[-1])


def test_fills_keep_their_exact_colours_in_a_palette_png() -> None:
    img = picture()
    full, inline = map_files(img)
    out = Image.open(io.BytesIO(full))
    assert out.mode == "P" and out.size == img.size and full[25] == 3  # IHDR colour type 3: palette
    rgb = out.convert("RGB")
    for i, fill in enumerate(FILLS[:-1]):
        assert rgb.getpixel((i * 600 + 530, 150)) == fill  # exactly, so no two nations merge
    small = Image.open(io.BytesIO(inline))
    assert small.mode == "P" and small.size == (1200, 600)
    assert small.getpalette() == out.getpalette()


def test_same_pixels_same_bytes_and_fewer_of_them() -> None:
    img = picture()
    assert map_files(img) == map_files(img.copy())
    rgba = io.BytesIO()
    img.convert("RGBA").save(rgba, format="PNG")
    full, inline = map_files(rgba.getvalue())  # a PNG in works too
    assert len(full) < len(rgba.getvalue()) / 2 and len(inline) < len(full)
    assert map_files(b"") == (b"", b"")


def test_a_colour_off_the_palette_takes_a_colour_next_to_its_nearest() -> None:
    """An anti-aliased pixel is matched from its cell of the search grid (QUANTUM), not its
    exact value: its palette colour is never more than 2 x sqrt(3) x QUANTUM / 2 further
    from it than the exact nearest palette colour (the triangle inequality), and a palette
    colour is itself."""
    import numpy as np

    from moderator.reports.mapfiles import QUANTUM, indexed, palette_of

    rgb = picture()
    palette = palette_of(rgb, colors=64)  # a short palette: many pixels are off it
    got = np.asarray(indexed(rgb, palette).convert("RGB"), dtype=np.float64).reshape(-1, 3)
    pixels = np.asarray(rgb, dtype=np.float64).reshape(-1, 3)
    pal = np.array(palette, dtype=np.float64)
    sample = np.unique(pixels, axis=0)
    exact = np.sqrt(((sample[:, None, :] - pal[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    first = {tuple(p): i for i, p in reversed(list(enumerate(pixels.tolist())))}
    chosen = np.array([got[first[tuple(c)]] for c in sample.tolist()])
    dist = np.sqrt(((sample - chosen) ** 2).sum(axis=1))
    assert len(sample) > 1000 and (exact > 0).sum() > 500  # the test sees many off-palette colours
    assert (dist <= exact + np.sqrt(3) * QUANTUM + 1e-9).all()
    assert (dist[exact == 0] == 0).all()  # a palette colour keeps its value
