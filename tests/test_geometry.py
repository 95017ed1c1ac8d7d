"""The derived map geometry (maps/1914/geometry.json) against the territory data it comes from."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from shapely.geometry import Point

from moderator.reports.geometry import geometry_path, load_geometry, parse_geometry
from moderator.world.loader import load_world

ROOT = Path(__file__).resolve().parent.parent
REBUILD = "rebuild with: .venv/bin/python maps/build_geometry.py"


def _build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_geometry", ROOT / "maps" / "build_geometry.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_geometry"] = module
    spec.loader.exec_module(module)
    return module


build = _build_module()


@pytest.fixture(scope="module")
def geometry():  # type: ignore[no-untyped-def]
    return load_geometry("1914")


@pytest.fixture(scope="module")
def world():  # type: ignore[no-untyped-def]
    return load_world("1914", strict=False)


def test_geometry_names_match_the_territory_files(geometry, world) -> None:  # type: ignore[no-untyped-def]
    expected = set(world.territories)
    drawn = set(geometry.places)
    assert not expected - drawn, f"places without geometry: {sorted(expected - drawn)}; {REBUILD}"
    assert not drawn - expected, (
        f"geometry of places no longer in the data: {sorted(drawn - expected)}; {REBUILD}"
    )


def test_geometry_is_built_from_the_current_anchors_and_tables() -> None:
    data = json.loads(geometry_path("1914").read_text())
    assert data["inputs"] == build.input_digest(ROOT / "maps" / "1914"), f"geometry.json is stale; {REBUILD}"


def test_every_label_lies_inside_its_own_polygon(geometry) -> None:  # type: ignore[no-untyped-def]
    outside = [
        name
        for name, place in geometry.places.items()
        if not place.shape().buffer(1e-9).contains(Point(place.label))
    ]
    assert not outside


def test_kinds_follow_the_data(geometry, world) -> None:  # type: ignore[no-untyped-def]
    wrong = [
        n
        for n, p in geometry.places.items()
        if n in world.territories and p.kind != world.territories[n].kind
    ]
    assert not wrong


def test_no_polygon_wraps_around_the_antimeridian(geometry) -> None:  # type: ignore[no-untyped-def]
    # A ring that jumps from +180 to -180 shows up as a part spanning (almost) the whole globe.
    for name, place in geometry.places.items():
        for rings in place.polygons:
            xs = [x for x, _ in rings[0]]
            ys = [y for _, y in rings[0]]
            assert -180 <= min(xs) and max(xs) <= 180, name
            assert -90 <= min(ys) and max(ys) <= 90, name
            assert max(xs) - min(xs) < 200, f"{name}: a part {max(xs) - min(xs):.0f} degrees wide"


def test_places_are_where_their_anchor_says(geometry, world) -> None:  # type: ignore[no-untyped-def]
    # The label sits near the anchor the data gives (it only moves when the anchor is off its area).
    far = []
    for name, terr in world.territories.items():
        lon, lat = geometry[name].label
        if abs(lon - terr.label[0]) + abs(lat - terr.label[1]) > 8:
            far.append(name)
    assert not far


def test_committed_file_stays_small() -> None:
    size = geometry_path("1914").stat().st_size
    assert 100_000 < size < 5_000_000


def test_parse_geometry_reads_rings_and_labels() -> None:
    square = [[[0, 0], [2, 0], [2, 2], [0, 2], [0, 0]]]
    g = parse_geometry(
        {"scenario": "x", "places": {"A": {"kind": "land", "polygons": [square], "label": [1, 1]}}}
    )
    assert g["A"].shape().area == pytest.approx(4.0)
    assert g["A"].bounds == (0, 0, 2, 2)
    assert "A" in g and "B" not in g


# ---------------------------------------------------------------- the build script's own parts


def test_topojson_decoder_handles_deltas_reversed_arcs_and_the_antimeridian() -> None:
    topo = build.Topology(
        {
            "transform": {"scale": [1.0, 1.0], "translate": [0.0, 0.0]},
            "arcs": [
                [[0, 0], [4, 0], [0, 4]],  # (0,0) (4,0) (4,4)
                [[0, 0], [0, 4], [4, 0]],  # (0,0) (0,4) (4,4)
                [[170, 10], [10, 0], [-350, 0], [0, 10], [340, 0], [0, -10]],  # 170..190 x 10..20
            ],
            "objects": {},
        }
    )
    square = topo.geometry({"type": "Polygon", "arcs": [[0, ~1]]})
    assert square.area == pytest.approx(16.0)
    # A ring drawn across the date line (170 -> 180 == -180 -> -170) comes back as two parts.
    crossing = topo.geometry({"type": "Polygon", "arcs": [[2]]})
    assert crossing.geom_type == "MultiPolygon"
    assert crossing.area == pytest.approx(200.0)
    assert crossing.bounds == (-180.0, 10.0, 180.0, 20.0)


def test_voronoi_cells_wrap_across_the_antimeridian() -> None:
    cells = build.voronoi_cells([(179.0, 0.0), (-179.0, 0.0), (0.0, 0.0)])
    # The two anchors 2 degrees apart across the date line split the Pacific between them,
    # and the one at 0 keeps the other side of the world.
    assert cells[0].contains(Point(170, 0)) and cells[1].contains(Point(-170, 0))
    assert cells[2].contains(Point(80, 0)) and not cells[2].contains(Point(100, 0))


def test_cut_lines_split_land_into_faces() -> None:
    from shapely.geometry import LineString, box

    faces = build.split_by_cuts(box(0, 0, 10, 10), [LineString([(5, -1), (5, 11)])])
    assert sorted(round(f.area) for f in faces) == [50, 50]


@pytest.mark.slow
def test_build_on_a_small_scenario(tmp_path: Path) -> None:
    if not (build.ATLAS_DIR / "package" / "countries-50m.json").exists():
        if shutil.which("npm") is None:
            pytest.skip("no world-atlas cache and no npm to fetch it")
        try:
            build.ensure_atlas()
        except (OSError, subprocess.CalledProcessError) as exc:
            pytest.skip(f"could not fetch world-atlas with npm: {exc}")
    terr = tmp_path / "territories"
    terr.mkdir()
    (terr / "europe.csv").write_text(
        "name,kind,value,owner,city,industry,port,capital,colony,features,aliases,lon,lat\n"
        "Paris,land,5,france,y,,,y,,,,2.3,48.8\n"
        "Berlin,land,5,germany,y,,,y,,,,13.4,52.5\n"
        "Corsica,land,1,france,,,y,,,island,,9.1,42.1\n"
        "North Sea,sea,0,,,,,,,,,3,56\n"
        "Western Mediterranean,sea,0,,,,,,,,,5,39\n"
        "Pacific,sea,0,,,,,,,,,-179.5,0\n"
    )
    (tmp_path / "adjacency").mkdir()
    (tmp_path / "adjacency" / "europe.txt").write_text("Paris -- Berlin\nParis -- Corsica\n")
    data = build.build("test", tmp_path)
    g = parse_geometry(data)
    assert sorted(g.places) == ["Berlin", "Corsica", "North Sea", "Pacific", "Paris", "Western Mediterranean"]
    assert g["Paris"].shape().contains(Point(2.3, 48.8))
    # Islands stay islands: Corsica (and Sardinia, its nearest land) but no slice of the mainland.
    assert not g["Corsica"].shape().contains(Point(11.0, 43.5))
    assert g["Corsica"].shape().contains(Point(9.1, 40.0))
    assert g["Pacific"].shape().contains(Point(179.9, 0)) and g["Pacific"].shape().contains(Point(-179.9, 0))
    review = (tmp_path / "adjacency_review.txt").read_text()
    assert "Corsica -- Paris" in review  # listed in the files, but an island apart
