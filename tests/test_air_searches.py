"""The aircraft searches that look ahead (fuel.cheapest, air_route.way: A*, issue 14) find
what a plain search over every way from the start finds ("Fighters": fuel; 4.5 with 4.1.1:
the way a raid flies). Checked on the 1914 map for seeded random flights, with and without
places to avoid, doubled places (4.1.2) and guarded places."""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable

import pytest

from moderator.engine import air_route, fuel
from moderator.world.loader import load_world
from moderator.world.model import World

WORLD = load_world("1914")
SEEDS = range(6)
FLIGHTS = 60  # per seed


def plain_way(world: World, start: str, goal: str, guarded: Callable[[str], bool], limit: int,
              double: Callable[[str], bool] | None = None) -> list[str] | None:
    """The reading, searched plainly: every way from the start by (fuel, guarded places, places)."""
    best = {start: (0, 0, (start,))}
    heap = [best[start]]
    while heap:
        cost, risk, path = heapq.heappop(heap)
        here = path[-1]
        if here == goal:
            return list(path)
        if best[here] < (cost, risk, path):
            continue
        for nxt in sorted(world.neighbours(here)):
            if nxt in path:
                continue
            step = fuel.step_cost(world.territories[here].is_sea, world.territories[nxt].is_sea)
            c = cost + (2 * step if double is not None and (double(here) or double(nxt)) else step)
            if c > limit:
                continue
            found = (c, risk + (1 if nxt != goal and guarded(nxt) else 0), (*path, nxt))
            if nxt not in best or found < best[nxt]:
                best[nxt] = found
                heapq.heappush(heap, found)
    return None


def plain_cheapest(world: World, start: str, goal: str, limit: int,
                   avoid: Callable[[str], bool] | None = None,
                   double: Callable[[str], bool] | None = None) -> int | None:
    """Fewest fuel points, searched plainly from the start (Dijkstra, no look-ahead)."""
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if here == goal:
            return cost
        if cost > best[here]:
            continue
        for nxt in sorted(world.neighbours(here)):
            if avoid is not None and nxt != goal and avoid(nxt):
                continue
            step = fuel.step_cost(world.territories[here].is_sea, world.territories[nxt].is_sea)
            c = cost + (2 * step if double is not None and (double(here) or double(nxt)) else step)
            if c <= limit and c < best.get(nxt, limit + 1):
                best[nxt] = c
                heapq.heappush(heap, (c, nxt))
    return None


def flights(seed: int) -> list[tuple[str, str, int, frozenset[str], frozenset[str], frozenset[str]]]:
    """Random flights: (start, goal, limit, guarded, doubled, avoided); goals near the start
    mostly (a flight's range), some far (out of range)."""
    rng = random.Random(seed)
    names = sorted(WORLD.territories)
    out = []
    for _ in range(FLIGHTS):
        start = rng.choice(names)
        goal = start
        for _ in range(rng.randint(0, 6)):  # a walk from the start, so most goals are in reach
            goal = rng.choice(sorted(WORLD.neighbours(goal)) or [goal])
        if rng.random() < 0.15:
            goal = rng.choice(names)
        marked = [frozenset(n for n in names if rng.random() < share) for share in (0.3, 0.15, 0.1)]
        out.append((start, goal, rng.randint(0, 12), *marked))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_way_is_the_plain_searchs(seed: int) -> None:
    found = 0
    for start, goal, limit, guarded, doubled, _ in flights(seed):
        for double in (None, doubled.__contains__):
            want = plain_way(WORLD, start, goal, guarded.__contains__, limit, double)
            assert air_route.way(WORLD, start, goal, guarded.__contains__, limit, double) == want, (start, goal, limit)
            found += want is not None and len(want) > 2
    assert found > FLIGHTS // 2  # ways over other places, not only next door or none


@pytest.mark.parametrize("seed", SEEDS)
def test_cheapest_is_the_plain_searchs(seed: int) -> None:
    found = 0
    for start, goal, limit, _, doubled, avoided in flights(seed):
        for avoid in (None, avoided.__contains__):
            for double in (None, doubled.__contains__):
                want = plain_cheapest(WORLD, start, goal, limit, avoid, double)
                assert fuel.cheapest(WORLD, start, goal, limit, avoid, double) == want, (start, goal, limit)
                found += want is not None and want > 2
    assert found > FLIGHTS // 2  # flights of more than one move, not only next door or none


def test_within_counts_fuel_to_the_goal() -> None:
    """London -> North Sea -> Amsterdam costs 2 + 2 ("Fighters": into or out of a sea zone, 2);
    Wales -> London by land, 1."""
    near = fuel.within(WORLD, "Amsterdam", 4)
    assert near["Amsterdam"] == 0 and near["North Sea"] == 2 and near["London"] == 4
    assert "London" not in fuel.within(WORLD, "Amsterdam", 3)
    assert fuel.within(WORLD, "London", 1) == {"London": 0, "Wales": 1, "Midlands": 1}


def test_landing_places_leave_out_the_alps_and_high_mountains() -> None:
    """Switzerland ("No aircraft can land within Switzerland"), Afghanistan and Tibet: no
    landing place however friendly; every other friendly land is one, in the same order."""
    from moderator.engine.context import Position
    from moderator.engine.orders.move import landing_places
    from moderator.world.scenario import initial_state, load_scenario

    scenario = load_scenario("1914")
    state = initial_state(scenario, WORLD, "landing")
    for place in ("Switzerland", "Afghanistan", "Tibet", "Corsica"):
        state.control[place] = "germany"
    pos = Position(state, {}, WORLD, scenario)
    lands = pos.friendly_lands("germany")
    assert {"Switzerland", "Afghanistan", "Tibet", "Corsica"} <= set(lands)
    assert landing_places(pos, "germany") == [n for n in lands if n not in ("Switzerland", "Afghanistan", "Tibet")]
