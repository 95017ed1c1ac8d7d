"""A turn's maps drawn in worker processes (reports/mapjobs.py) are the same files, in the
same order, as drawn one after another here; a drawing error reaches the caller."""

from __future__ import annotations

import functools

import pytest
from PIL import Image

from moderator.reports import mapjobs
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


def test_a_regions_maps_go_to_one_worker_together() -> None:
    """Each worker task is a whole region's maps (its base layer drawn once in all), the
    largest regions first; the files come back in the jobs' order all the same."""
    from moderator.reports.mapjobs import tasks

    groups = ["africa", "asia", "asia", "europe", "europe", "europe", "world"]
    assert tasks(len(groups), groups) == [(3, 4, 5), (1, 2), (6,)]  # job 0 is the parent's
    assert tasks(6, None) == [(1, 2), (3, 4), (5,)]
    jobs = [functools.partial(picture, n) for n in range(7)]
    assert draw_all(jobs, processes=2, groups=groups) == [map_files(picture(n)) for n in range(7)]


def test_map_workers_leave_signals_to_the_parent() -> None:
    """A forked worker inherits the parent's handlers: under the demo's SIGTERM handler every
    idle worker printed a KeyboardInterrupt traceback when the pool was stopped."""
    import signal

    def raising(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, raising)
    try:
        pool = mapjobs.make_pool(1)
        try:
            seen = pool.apply(_handlers)
        finally:
            pool.terminate()
            pool.join()
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert seen == (signal.SIG_DFL, signal.SIG_IGN)


def _handlers() -> tuple[object, object]:
    import signal

    return signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
