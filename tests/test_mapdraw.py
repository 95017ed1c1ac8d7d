"""The map renderer: deterministic PNGs of the right size, colours by controller, units as given."""

from __future__ import annotations

import io
import re
import struct

import pytest
from matplotlib import colors as mcolors
from matplotlib import image as mimage

from moderator.reports.geometry import Geometry, PlaceShape, load_geometry
from moderator.reports.mapdraw import (
    DPI,
    FEATURE_GLYPHS,
    NEUTRAL,
    REGIONS,
    SEA,
    BaseLayer,
    build_figure,
    image_size,
    legend_entries,
    load_colors,
    map_features,
    miller_y,
    render_map,
    unit_owners,
)
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


NAMES = {"france": "French Empire", "germany": "German Empire"}


def _legend_labels(fig) -> list[str]:  # type: ignore[no-untyped-def]
    return [label for label, _ in fig.legend_entries]  # the legend is drawn as pixels (mapdraw._legend_pixels)


def _texts(fig) -> list[str]:  # type: ignore[no-untyped-def]
    """The map's texts, place names without the feature glyphs after them ("Berlin \u2605\u2699")."""
    ax = fig.axes[0]
    glyphs = " " + "".join(g for _, g in FEATURE_GLYPHS)
    pasted = [n.text for a in ax.artists if isinstance(a, BaseLayer) for n in a.names]  # names as pixels
    return [t.rstrip(glyphs) for t in [t.get_text() for t in ax.texts] + pasted]


def test_legend_names_the_nations_holding_land_in_view(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    colors = load_colors("1914")
    owners = {"Westland": "france", "Eastland": "germany"}
    both = legend_entries(geometry, REGIONS["world"], owners, colors, NAMES)
    assert both == [
        ("French Empire", colors["france"]),
        ("German Empire", colors["germany"]),
        ("Sea zone", SEA),
    ]
    # Asia (lon 55-155) shows Eastland (lon 40-80) but not Westland (lon 0-40).
    east = legend_entries(geometry, REGIONS["asia"], owners, colors, NAMES)
    assert [label for label, _ in east] == ["German Empire", "Sea zone"]
    unheld = legend_entries(geometry, REGIONS["world"], {"Eastland": "germany"}, colors, {})
    assert unheld == [("germany", colors["germany"]), ("No controller", NEUTRAL), ("Sea zone", SEA)]


def test_rendered_legend_follows_control_and_names(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    fig = build_figure(geometry, world, control={"Westland": "germany"}, names=NAMES)
    assert _legend_labels(fig) == ["German Empire", "Sea zone"]
    assert render_map(geometry, world, names=NAMES) != render_map(geometry, world)


def test_every_unit_box_is_drawn_even_when_crowded(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    units = {
        "Westland": {"fra inf": 12, "fra art": 3, "fra ftr": 1, "ger inf": 2},
        "Eastland": {"ger inf": 30, "ger art": 9, "ger AA": 1, "ger ftr": 4},
        "Deep Sea": {"ger BB": 2, "ger DD": 4, "fra TR": 1},
    }
    texts = _texts(build_figure(geometry, world, units=units, region="world"))
    boxes = [t for t in texts if t.startswith(("fra:", "ger:"))]
    assert len(boxes) == len(units)  # one box a place, none dropped for lack of room
    for place, summary in units.items():
        assert place in texts  # the name of a place holding units is always drawn
        assert any(_counts(box) == summary for box in boxes)  # every count, each under its nation


def _counts(box: str) -> dict[str, int]:
    """Parse a unit box back into {"nat kind": count}."""
    out: dict[str, int] = {}
    for line in box.replace("\n     ", "  ").splitlines():
        prefix, _, rest = line.partition(": ")
        words = rest.split()
        for count, kind in zip(words[::2], words[1::2], strict=True):
            out[f"{prefix} {kind}"] = int(count)
    return out


def test_units_beyond_the_region_are_listed_not_lost(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    fig = build_figure(
        geometry, world, units={"Westland": {"inf": 2}, "Eastland": {"art": 1}}, region="middle-east"
    )
    texts = _texts(fig)
    notes = next(t for t in texts if "Off this map:" in t)
    assert "Westland 2 inf" in notes and "Eastland" not in notes
    assert "art artillery" in notes and "inf infantry" in notes  # the unit key names what is used


def test_unit_prefix_resolves_to_the_nation_that_holds_its_land() -> None:
    colors = {"austria-hungary": "#e9c84c", "australia": "#eb8f8f", "germany": "#8b95a1"}
    control = {"Vienna": "austria-hungary", "Sydney": "australia"}
    units = {"Vienna": {"aus inf": 3}, "Adriatic Sea": {"aus BB": 1}, "Berlin": {"ger inf": 2}}
    assert unit_owners(units, control, colors) == {"aus": "austria-hungary", "ger": "germany"}


def test_alliance_labels_render_deterministically_with_a_legend(tiny) -> None:  # type: ignore[no-untyped-def]
    geometry, world = tiny
    units = {"Westland": {"ger inf": 2, "aus art": 1}, "Deep Sea": {"ger DD": 1}}
    a = render_map(geometry, world, units=units, names=NAMES, region="europe", title="T")
    assert a == render_map(geometry, world, units=units, names=NAMES, region="europe", title="T")


@pytest.mark.slow
def test_real_europe_legend_lists_only_nations_in_view() -> None:
    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    fig = build_figure(geometry, world, region="europe", names={"germany": "German Empire", "japan": "Japan"})
    labels = _legend_labels(fig)
    assert {"German Empire", "france", "russia", "britain", "Sea zone"} <= set(labels)
    assert not {"Japan", "usa", "mexico", "china"} & set(labels)
    nations = labels[: labels.index("Sea zone")]
    assert nations == sorted(nations)


@pytest.mark.slow
def test_crowded_real_places_keep_every_unit_box() -> None:
    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    crowded = ["Brussels", "Cologne", "Liege", "Luxembourg", "Ruhr", "Strasbourg", "Lille", "Amsterdam"]
    units = {p: {"ger inf": 10 + i, "ger art": 2, "fra inf": 1} for i, p in enumerate(crowded)}
    fig = build_figure(geometry, world, units=units, region="europe")
    texts = _texts(fig)
    markers = sorted(int(t) for t in texts if t.isdigit())
    assert markers == sorted(label.number for label in fig.unit_labels if label.number)  # each drawn once
    boxes = [t for t in texts if t.startswith(("fra:", "ger:"))]
    # A stack with no room in its territory is a numbered marker, its box a line of the notes.
    numbered = [m.group(2).replace("; ", "\n") for t in texts for line in t.splitlines()
                if (m := re.fullmatch(r"\s*\d+ ([^:]+): (.*)", line)) and m.group(1) in crowded]
    assert numbered, "the crowded Low Countries need numbered markers"
    boxes += numbered
    assert sorted(sorted(_counts(b).items()) for b in boxes) == sorted(
        sorted(u.items()) for u in units.values()
    )
    assert set(crowded) <= set(texts)


def test_a_numbered_marker_never_covers_another_box_on_the_western_front() -> None:
    """The demo's first turn (round 3): Strasbourg's marker stood over the French box of
    Alsace-Lorraine, placed before it. The small places go first now, and a marker looks
    further around its point (still in its territory) before it would cover anything."""
    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    units = {"Alsace-Lorraine": {"fra art": 2, "fra ftr": 1, "fra inf": 3, "fra trench": 1},
             "Strasbourg": {"ger inf": 9, "ger trench": 1}, "Lille": {"fra art": 3, "fra inf": 6},
             "Liege": {"ger inf": 15}, "Brussels": {"bel inf": 4}, "Champagne": {"fra art": 3, "fra inf": 9},
             "Paris": {"fra aa": 1, "fra art": 3, "fra ftr": 3, "fra inf": 7}, "Luxembourg": {"ger inf": 4},
             "Cologne": {"ger art": 3, "ger inf": 1}, "Amiens": {"fra inf": 2}}
    labels = build_figure(geometry, world, units=units, region="europe").unit_labels
    assert {label.place for label in labels} == set(units)
    assert any(label.number for label in labels)  # crowded enough to need markers
    covering = [(label.place, other.place) for label in labels if label.number
                for other in labels if other is not label and label.box.overlaps(other.box)]
    assert covering == []


def test_capitals_cities_complexes_and_ports_follow_their_names() -> None:
    world = load_world("1914", strict=False)
    glyph = dict(FEATURE_GLYPHS)
    features = map_features(world)
    berlin = world.territories["Berlin"]
    assert berlin.capital and glyph["capital"] in features["Berlin"] and glyph["city"] not in features["Berlin"]
    for name, t in world.territories.items():
        assert (glyph["port"] in features.get(name, "")) == t.port
        assert (glyph["industry"] in features.get(name, "")) == t.industry


def test_cached_base_and_names_draw_the_same_bytes_as_fresh_ones(tiny) -> None:  # type: ignore[no-untyped-def]
    """The base layer and the name sprites are cached per process (speed): a map drawn from
    the caches is byte for byte the one drawn with them empty."""
    from moderator.reports import mapdraw, mapnames

    geometry, world = tiny
    kwargs = {"units": {"Westland": {"fra inf": 2}}, "title": "Turn 1", "region": "europe"}
    warm = render_map(geometry, world, **kwargs)  # type: ignore[arg-type]
    mapdraw._BASES.clear()
    mapnames._EXTENTS.clear()
    mapnames._SPRITES.clear()
    assert render_map(geometry, world, **kwargs) == warm  # type: ignore[arg-type]


def test_an_enemy_seen_exactly_shows_its_troops_in_its_band_colour(tiny) -> None:  # type: ignore[no-untyped-def]
    from moderator.reports.sightings import Sighting

    geometry, world = tiny
    exact = Sighting("Eastland", "germany", "yellow", "6-20", units={"infantry": 7, "artillery": 2})
    band = Sighting("Westland", "france", "red", "21+")
    texts = _texts(build_figure(geometry, world, sightings={"Eastland": exact, "Westland": band}))
    assert "enemy, exactly:\n2 art  7 inf" in texts and "enemy 21+" in texts


def test_every_unit_box_sits_in_its_territory_or_is_numbered() -> None:
    """Issue 13: labels never leave their territory. On the crowded alliance map over
    Europe every place with units has its box with its centre inside the territory's
    outline, or a numbered marker at the place's point (inside the territory) with its
    text in the notes under that number; none is dropped."""
    from matplotlib.path import Path as MplPath

    from moderator.reports.mapdraw import _outline, miller_y
    from moderator.reports.mapview import _geometry
    from moderator.reports.visibility import alliance_view
    from moderator.world.scenario import initial_state, load_scenario

    world, scenario = load_world("1914", strict=False), load_scenario("1914")
    state = initial_state(scenario, world, "labels")
    view = alliance_view(state, scenario, [], "central", world)
    geometry = _geometry("1914")
    fig = build_figure(geometry, world, region="europe", units=view.map_units, control=view.control)
    ax = fig.axes[0]
    labels = fig.unit_labels
    reg = REGIONS["europe"]
    in_view = {p for p in view.map_units if view.map_units[p] and reg.west <= geometry.places[p].label[0] <= reg.east
               and reg.south <= geometry.places[p].label[1] <= reg.north}
    assert {label.place for label in labels} == in_view
    notes = "\n".join(t.get_text() for t in ax.texts)
    to_data = ax.transData.inverted()
    for label in labels:
        place = geometry.places[label.place]
        outline = _outline(place, reg, label.anchor)
        assert isinstance(outline, MplPath)
        assert label.anchor == (place.label[0], miller_y(place.label[1]))
        assert outline.contains_point(label.anchor), label.place  # the anchor lies in the territory
        if label.number:
            assert f"   {label.number} {label.place}: " in notes
            # A marker hides no other box (it moves off a covered point, within the territory).
            assert not any(label.box.overlaps(other.box) for other in labels if other is not label), label.place
        centre = to_data.transform(((label.box.x0 + label.box.x1) / 2, (label.box.y0 + label.box.y1) / 2))
        assert outline.contains_point(centre), label.place
    numbers = sorted(label.number for label in labels if label.number)
    assert numbers == list(range(1, len(numbers) + 1))
    assert sorted(int(t.get_text()) for t in ax.texts if t.get_text().isdigit()) == numbers  # one marker each


@pytest.mark.parametrize("region", ["europe", "eastern-front", "italy-balkans"])
def test_the_legend_notes_and_overview_stand_in_the_side_panel_hiding_no_land(region: str) -> None:
    """The Europe map and the fronts have no corner of open sea big enough: their legend,
    notes box (long here: units off the map) and world overview stand in a panel left of the
    map, so none of them hides Scotland, Croatia or any other land."""
    import numpy as np
    from matplotlib.transforms import Bbox

    from moderator.reports.mapdraw import Pixels

    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    panel = REGIONS[region].panel
    assert panel > 0 and image_size(region)[0] == panel + 2400
    far = {p: {"ger inf": 1} for p in ("Cameroon", "Togo", "Jiaozhou", "German East Africa", "Samoa")}
    fig = build_figure(geometry, world, region=region, units={**far, "Berlin": {"ger inf": 3}},
                       overview=np.zeros((300, 640, 3), dtype=np.uint8))
    fig.canvas.draw()  # the notes' box is laid out as it is drawn
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    [notes] = [t for t in ax.texts if t.get_text().startswith("\u2605 capital")]
    [legend] = [a for a in ax.artists if isinstance(a, Pixels)]
    boxes = [notes.get_bbox_patch().get_window_extent(renderer),
             Bbox.from_bounds(legend.x, legend.y, legend.pixels.shape[1], legend.pixels.shape[0]),
             fig.axes[1].get_window_extent(renderer)]
    assert "Off this map:" in notes.get_text()
    for box in boxes:
        assert box.x0 >= 0 and box.x1 <= panel, box
    assert ax.transData.transform((REGIONS[region].west, 0))[0] == pytest.approx(panel)


def test_a_unit_box_near_the_maps_edge_stays_inside_the_frame() -> None:
    """The demo's Russian map (round 10): the Gulf of Bothnia's "1 SS 1 TR" at the top of the
    eastern front was drawn half outside the frame. A box near the edge is moved inward."""
    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    units = {"Gulf of Bothnia": {"rus ss": 1, "rus tr": 1}, "Gulf of Riga": {"rus dd": 1}}
    fig = build_figure(geometry, world, units=units, region="eastern-front")
    frame = fig.axes[0].bbox
    labels = {label.place: label.box for label in fig.unit_labels}
    assert set(labels) == set(units)
    for place, box in labels.items():
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, place
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    names = [t.get_window_extent(renderer) for t in fig.axes[0].texts if t.get_text() in units]
    assert len(names) == len(units)  # the name over each box, inside the frame too
    assert all(frame.y0 <= box.y0 and box.y1 <= frame.y1 for box in names)


def test_place_names_near_the_maps_edge_stay_inside_the_frame() -> None:
    """The demo's Russian map (round 11): with no unit there, the Gulf of Bothnia's name sat on
    the eastern front's top edge, half cut off; Groznyy's ran off the right edge, and
    Gothenburg's and the Tyrrhenian Sea's under the panel on the left. Every place name is
    moved inward, as the unit boxes are, and none is dropped for it."""
    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    fig = build_figure(geometry, world, region="eastern-front")
    ax = fig.axes[0]
    frame = ax.bbox
    names = {n.text: n.box(DPI) for a in ax.artists if isinstance(a, BaseLayer) for n in a.names}
    for edge in ("Gulf of Bothnia", "Groznyy", "Gothenburg", "Tyrrhenian Sea"):  # feature glyphs may follow
        assert any(text.startswith(edge) for text in names), edge
    for text, box in names.items():
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, text
