"""The map renderer: deterministic PNGs of the right size, colours by controller, units as given."""

from __future__ import annotations

import io
import struct

import pytest
from matplotlib import colors as mcolors
from matplotlib import image as mimage

from moderator.reports.geometry import Geometry, PlaceShape, load_geometry
from moderator.reports.mapdraw import REGIONS, SEA, image_size, load_colors, miller_y, render_map
from moderator.world.loader import load_world
from moderator.world.model import Territory, World

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == PNG_MAGIC
    width, height = struct.unpack(">II", png[16:24])  # the IHDR chunk comes first
    return width, height


def _chunks(png: bytes) -> list[bytes]:
    out, pos = [], 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        out.append(png[pos + 4 : pos + 8])
        pos += 12 + length
    return out


def _square(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[tuple[float, float], ...], ...]:
    return (((x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)),)


@pytest.fixture(scope="module")
def tiny() -> tuple[Geometry, World]:
    """Two land squares and a sea square, far from anything else."""
    places = {
        "Westland": PlaceShape("Westland", "land", (_square(0, 0, 40, 40),), (5.0, 35.0)),
        "Eastland": PlaceShape("Eastland", "land", (_square(40, 0, 80, 40),), (45.0, 35.0)),
        "Deep Sea": PlaceShape("Deep Sea", "sea", (_square(0, -40, 80, 0),), (40.0, -20.0)),
    }
    world = World(
        territories={
            "Westland": Territory("Westland", "land", "E", owner="france"),
            "Eastland": Territory("Eastland", "land", "E", owner="germany"),
            "Deep Sea": Territory("Deep Sea", "sea", "E"),
        },
        adjacency={},
    )
    return Geometry("1914", places, ()), world


def _pixel(png: bytes, region: str, lon: float, lat: float) -> tuple[float, float, float]:
    r = REGIONS[region]
    width, height = image_size(region)
    img = mimage.imread(io.BytesIO(png), format="png")
    x = int((lon - r.west) / (r.east - r.west) * width)
    top, bottom = miller_y(r.north), miller_y(r.south)
    y = int((top - miller_y(lat)) / (top - bottom) * height)
    return tuple(float(c) for c in img[y, x, :3])  # type: ignore[return-value]


def _rgb(color: str) -> tuple[float, float, float]:
    return mcolors.to_rgb(color)


def test_same_input_gives_the_same_bytes(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    a = render_map(geometry, world, units={"Westland": {"france inf": 2}}, title="Turn 1")
    b = render_map(geometry, world, units={"Westland": {"france inf": 2}}, title="Turn 1")
    assert a == b


def test_png_has_the_region_size_and_no_software_or_date(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    for region in ("world", "europe"):
        png = render_map(geometry, world, region=region)
        assert _png_size(png) == image_size(region)
        assert b"tIME" not in _chunks(png)
        assert b"Software" not in png


def test_land_is_coloured_by_its_original_owner_by_default(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    colors = load_colors("1914")
    png = render_map(geometry, world)
    assert _pixel(png, "world", 30, 15) == pytest.approx(_rgb(colors["france"]), abs=0.01)
    assert _pixel(png, "world", 70, 15) == pytest.approx(_rgb(colors["germany"]), abs=0.01)
    assert _pixel(png, "world", 60, -25) == pytest.approx(_rgb(SEA), abs=0.01)


def test_control_overrides_the_owner(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    colors = load_colors("1914")
    png = render_map(geometry, world, control={"Westland": "germany"})
    assert _pixel(png, "world", 30, 15) == pytest.approx(_rgb(colors["germany"]), abs=0.01)


def test_units_are_drawn_only_where_given(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    plain = render_map(geometry, world)
    assert render_map(geometry, world, units={}) == plain
    assert render_map(geometry, world, units={"Nowhere": {"x": 1}}) == plain  # unknown place: nothing to draw
    assert render_map(geometry, world, units={"Eastland": {"germany inf": 3}}) != plain


def test_unknown_region_is_refused(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    with pytest.raises(ValueError, match="unknown region"):
        render_map(geometry, world, region="atlantis")


def test_every_nation_in_the_data_has_a_colour() -> None:
    world = load_world("1914", strict=False)
    owners = {t.owner for t in world.territories.values() if t.owner}
    assert not owners - set(load_colors("1914"))


@pytest.mark.slow
def test_real_map_renders_deterministically() -> None:
    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    a = render_map(geometry, world, region="europe", title="1914")
    assert _png_size(a) == image_size("europe")
    assert render_map(geometry, world, region="europe", title="1914") == a
