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
    double(place): moves into or out of it cost twice (4.1.2, a rebasing flight).

    The ways are tried best first, by (fuel, guarded places, places) as the reading says,
    and the search looks ahead (A*): each way is ranked by its fuel plus the fewest fuel
    points from its end to the goal on the plain map (`near`), so it goes towards the goal
    and never sets out over places the goal is beyond `limit` from, where it went every way
    from the start within `limit` (issue 14, the engine's cost). The same way is found: the
    look-ahead adds the same to every way that ends at one place (their order there stands),
    never more than the fuel still to fly (a doubled move costs more, never less), and is
    nothing at the goal, so the first way to reach it is still the best."""
    if start == goal:
        return [start]
    near = fuel.within(world, goal, limit)  # place -> fewest fuel points to the goal, if within limit
    if start not in near:
        return None
    steps = fuel.steps(world)
    best: dict[str, Way] = {start: (0, 0, (start,))}
    heap: list[tuple[int, int, tuple[str, ...], int]] = [(near[start], 0, (start,), 0)]  # ahead, risk, path, fuel
    while heap:
        _, risk, path, cost = heapq.heappop(heap)
        here = path[-1]
        if here == goal:
            return list(path)
        if best[here] < (cost, risk, path):
            continue  # a better way reached this place first
        doubled = double is not None and double(here)
        for nxt, step in steps.get(here, ()):
            to_goal = near.get(nxt)
            if to_goal is None or nxt in path:
                continue
            c = cost + (2 * step if double is not None and (doubled or double(nxt)) else step)
            if c + to_goal > limit:
                continue
            known = best.get(nxt)
            if known is not None and known[0] < c:
                continue  # cheaper there already: whether nxt is guarded cannot matter
            found: Way = (c, risk + (1 if nxt != goal and guarded(nxt) else 0), (*path, nxt))
            if known is None or found < known:
                best[nxt] = found
                heapq.heappush(heap, (c + to_goal, found[1], found[2], c))
    return None


def passed(places: list[str]) -> list[str]:
    """The places flown over between the start and the target."""
    return places[1:-1]
