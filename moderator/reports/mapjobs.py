"""A turn's maps drawn side by side (issue 13: every report of a turn in at most 10 s on a
2-core machine; one map costs about 0.6 s of CPU and a 1914 turn has twenty of them).

Drawing is matplotlib and Pillow in pure CPU, under the GIL: threads would not help, so
the maps are drawn in forked worker processes, one per core the process may use. The
parent draws the first map itself before forking, so the workers inherit what it warmed
(the projected shapes, the region's base layer, the world overview) instead of each
building them again, and each worker takes a whole region's maps at a time (`groups`),
so every region's base layer is drawn once in all, not once per worker that meets it. A worker returns the encoded files (reports/mapfiles.py), so only
bytes cross back. The same inputs give the same bytes whichever process drew them.

Anything unusual draws in this process instead, one map after another: one core, a
platform without fork, a pool that fails to start or does not answer within TIMEOUT (a
machine so loaded that waiting longer would stall the mail). A drawing error is raised
as it would be here: the caller decides what a failed map means.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import signal
from collections.abc import Callable, Sequence

from PIL import Image

from moderator.reports.mapfiles import map_files

Job = Callable[[], "bytes | Image.Image"]
TIMEOUT = 600.0  # s: for all the workers' maps together
WORKERS_ENV = "MODERATOR_MAP_WORKERS"  # a number of worker processes; 1 draws in this process

_JOBS: Sequence[Job] = ()  # the jobs of the pool being run: a forked worker reads them by index


def workers() -> int:
    """Worker processes to draw with: the cores this process may use, or WORKERS_ENV."""
    wanted = os.environ.get(WORKERS_ENV, "")
    if wanted.isdigit():
        return max(int(wanted), 1)
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run(indices: tuple[int, ...]) -> list[tuple[int, tuple[bytes, bytes]]]:
    return [(i, map_files(_JOBS[i]())) for i in indices]


def tasks(count: int, groups: Sequence[str] | None) -> list[tuple[int, ...]]:
    """Jobs 1..count-1 (job 0 is the parent's) as the workers' tasks: the jobs of each group
    (a region) together, the largest groups first so the last task to finish is a small one;
    without groups, two jobs at a time."""
    if groups is None:
        return [tuple(range(i, min(i + 2, count))) for i in range(1, count, 2)]
    by_group: dict[str, list[int]] = {}
    for i in range(1, count):
        by_group.setdefault(groups[i], []).append(i)
    return sorted((tuple(v) for v in by_group.values()), key=lambda t: (-len(t), t))


def make_pool(processes: int) -> multiprocessing.pool.Pool:
    """Forked map workers that leave signals to the parent: a fork inherits the parent's
    handlers, and the demo's SIGTERM handler raised KeyboardInterrupt in every idle worker
    when the pool was terminated, printing a traceback per worker into the console. Ctrl-C
    reaches the whole process group; the parent stops the pool."""
    return multiprocessing.get_context("fork").Pool(processes, initializer=_leave_signals_to_the_parent)


def _leave_signals_to_the_parent() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def draw_all(jobs: Sequence[Job], processes: int | None = None,
             groups: Sequence[str] | None = None) -> list[tuple[bytes, bytes]]:
    """(full, inline) PNGs of every job's map, in the jobs' order; `groups` names each job's
    region (jobs of one region share its base layer: one worker draws them all)."""
    count = workers() if processes is None else processes
    if count < 2 or len(jobs) < 3:
        return [map_files(job()) for job in jobs]
    first = map_files(jobs[0]())  # warms the caches the workers inherit
    global _JOBS
    _JOBS = jobs
    try:
        pool = make_pool(min(count, len(jobs) - 1))
    except OSError:
        _JOBS = ()
        return [first, *(map_files(job()) for job in jobs[1:])]
    try:
        done = pool.map_async(_run, tasks(len(jobs), groups), chunksize=1).get(TIMEOUT)
        files = dict(pair for task in done for pair in task)
        rest = [files[i] for i in range(1, len(jobs))]
    except multiprocessing.TimeoutError:
        rest = [map_files(job()) for job in jobs[1:]]
    finally:
        pool.terminate()
        pool.join()
        _JOBS = ()
    return [first, *rest]
