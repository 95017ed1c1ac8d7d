"""The way a bombing raid flies to its target (4.1.1 with 4.5), over the map.

4.5: "When aircraft move into a territory (or sea zone) containing enemy fighters, the
enemy fighters have the option of intercepting or letting them go." A raid meets the
fighters of every territory it flies through, not only those of its target, so the way
matters. The BOMB order names only where the raid starts and its target; the raid flies
the cheapest way in fuel (engine/fuel.py, the checker's measure), and among ways of equal
fuel the one over the fewest places guarded by enemy fighters or AA guns (the raider's commander
picks the safer), then the first by the names of its places, so the way never depends
on anything but the map and the position (a reading, docs/rules-coverage.md).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

from moderator.engine import fuel
from moderator.world.model import World

Way = tuple[int, int, tuple[str, ...]]  # fuel, guarded places passed, the places from the start


def way(world: World, start: str, goal: str, guarded: Callable[[str], bool], limit: int,
        double: Callable[[str], bool] | None = None) -> list[str] | None:
    """The places flown from `start` to `goal`, both included, or None beyond `limit` fuel.
    guarded(place): enemy fighters or AA guns defend it (the goal itself is not counted).
    double(place): moves into or out of it cost twice (4.1.2, a rebasing flight)."""
    best: dict[str, Way] = {start: (0, 0, (start,))}
    heap: list[Way] = [best[start]]
    while heap:
        here_way = heapq.heappop(heap)
        cost, risk, path = here_way
        here = path[-1]
        if here == goal:
            return list(path)
        if best.get(here, here_way) < here_way:
            continue
        for nxt in sorted(world.neighbours(here)):
            if nxt in path:
                continue
            c = cost + fuel.move_cost(world, here, nxt, double)
            if c > limit:
                continue
            found: Way = (c, risk + (1 if nxt != goal and guarded(nxt) else 0), (*path, nxt))
            if nxt not in best or found < best[nxt]:
                best[nxt] = found
                heapq.heappush(heap, found)
    return None


def passed(places: list[str]) -> list[str]:
    """The places flown over between the start and the target."""
    return places[1:-1]
