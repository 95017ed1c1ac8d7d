"""A turn's maps drawn in worker processes (reports/mapjobs.py) are the same files, in the
same order, as drawn one after another here; a drawing error reaches the caller."""

from __future__ import annotations

import functools

import pytest
from PIL import Image

from moderator.reports.mapfiles import map_files
from moderator.reports.mapjobs import draw_all


def picture(n: int) -> Image.Image:
    img = Image.new("RGB", (40, 30), (10 * n, 200, 255 - 10 * n))
    img.putpixel((n, n), (0, 0, 0))
    return img


def broken() -> Image.Image:
    raise ValueError("no map today")


def test_workers_draw_the_same_files_in_the_same_order() -> None:
    jobs = [functools.partial(picture, n) for n in range(5)]
    assert draw_all(jobs, processes=2) == [map_files(picture(n)) for n in range(5)] == draw_all(jobs, processes=1)


def test_a_drawing_error_in_a_worker_reaches_the_caller() -> None:
    with pytest.raises(ValueError, match="no map today"):
        draw_all([functools.partial(picture, 0), functools.partial(picture, 1), broken], processes=2)


def test_no_maps_no_work() -> None:
    assert draw_all([lambda: b""] * 3, processes=2) == [(b"", b"")] * 3
