"""Fighter and bomber fuel (rules section "Fighters"; bombers spend fuel the same way, "Bombers").

Movement of aircraft is counted in fuel points, not distance:
- entering a land territory costs 1;
- moving into or out of a sea zone costs 2 ("most sea zones are at least twice the size");
  a move between two sea zones is one move into a sea zone, so it also costs 2;
- each round of combat the aircraft fights costs 1 (anti-air shots are not a round).

The rules' own check of these costs: "fighters must have a minimum of 5 fuel points
before they can enter into a sea zone for combat" = 2 in + 1 round + 2 out to land.
So London -> North Sea -> Belgium costs 2 + 2 = 4.

The order checker and the engine both count fuel here (the aircraft orders' homes).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from itertools import chain

from moderator.world.model import World

LAND_STEP = 1
SEA_STEP = 2
ROUND = 1


def step_cost(from_sea: bool, to_sea: bool) -> int:
    """Fuel for one move: 2 if it enters or leaves a sea zone, else 1 ("Fighters")."""
    return SEA_STEP if from_sea or to_sea else LAND_STEP


def path_cost(seas: Sequence[bool]) -> int:
    """Fuel to fly a path given as is-sea flags of every place, start included."""
    return sum(step_cost(a, b) for a, b in zip(seas, seas[1:], strict=False))


def fuel_left(fuel: int, outbound: Sequence[bool], rounds: int) -> int:
    """Fuel remaining after flying `outbound` (start included) and fighting `rounds` rounds."""
    return fuel - path_cost(outbound) - ROUND * rounds


def rounds_paid(tank: int, out: int, back: int) -> int:
    """The rounds of combat a plane's tank pays for after `out` fuel points to the battle,
    keeping `back` to the nearest place it may come down (4.6 step 3: "Aircraft *must*
    disengage with enough fuel points to safely return to a friendly territory"): the
    attacks on land and at sea (phase4_land, phase4_sea) and `moderator odds` (odds.py)."""
    return max(0, (tank - out - back) // ROUND)


def can_land(left: int, at_sea: bool, landing_is_sea: bool) -> bool:
    """Whether an aircraft with `left` fuel can still reach an adjacent landing place.

    Rules, "Fighters": after combat the aircraft "must ... land in a friendly controlled
    territory adjacent"; it must keep the fuel for that last move.
    """
    return left >= step_cost(at_sea, landing_is_sea)


def max_rounds(fuel: int, outbound: Sequence[bool], landing_is_sea: bool = False) -> int:
    """How many combat rounds the aircraft can fight and still land next to the target."""
    spare = fuel - path_cost(outbound) - step_cost(outbound[-1], landing_is_sea)
    return max(spare // ROUND, 0)


# ---- on the map ----------------------------------------------------------------------------


def move_cost(world: World, here: str, nxt: str, double: Callable[[str], bool] | None = None) -> int:
    """Fuel for the move here -> nxt (step_cost), twice it into or out of a place `double`
    names (4.1.2)."""
    step = step_cost(world.territories[here].is_sea, world.territories[nxt].is_sea)
    return 2 * step if double is not None and (double(here) or double(nxt)) else step


def steps(world: World) -> dict[str, tuple[tuple[str, int], ...]]:
    """Every place's moves: (the next place, its fuel by step_cost), by the next place's
    name; once per map (the map never changes once loaded), where each search asked the
    kind of both places of every move it tried (issue 14, the engine's cost)."""
    kept: dict[str, tuple[tuple[str, int], ...]] | None = world.__dict__.get("_fuel_steps")
    if kept is None:
        places = world.territories
        kept = world.__dict__["_fuel_steps"] = {
            here: tuple((nxt, step_cost(places[here].is_sea, places[nxt].is_sea)) for nxt in world.sorted_neighbours(here)
                        if nxt in places)  # (a link to a place the map does not describe leads nowhere)
            for here in world.adjacency if here in places}
    return kept


def _into_by_fuel(world: World) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """steps() the other way, by fuel: for each place, the places a move of LAND_STEP comes
    from into it, and those a move of SEA_STEP comes from (every place of the map in both)."""
    kept = world.__dict__.get("_fuel_into")
    if kept is None:
        into: dict[int, dict[str, list[str]]] = {LAND_STEP: {}, SEA_STEP: {}}
        for here, moves in steps(world).items():
            for nxt, step in moves:
                into[step].setdefault(nxt, []).append(here)
        kept = world.__dict__["_fuel_into"] = tuple({t: tuple(sorted(by.get(t, ()))) for t in world.territories}
                                                    for by in (into[LAND_STEP], into[SEA_STEP]))
    return kept  # type: ignore[no-any-return]


WITHIN_KEPT = 256  # within()'s answers kept per map: a turn asks for a few dozen


def within(world: World, goal: str, limit: int) -> dict[str, int]:
    """The places from which `goal` is `limit` fuel points away or less, each with its fewest
    fuel points to the goal (step_cost per move; doubled moves only cost more): what a search
    towards the goal may look ahead by (air_route.way, A*).

    A question of the map alone, kept on it (as steps()) by (goal, limit): a raid's way, its
    fuel out and its order's check ask the same, as do the turns after (issue 14, the
    engine's cost). The answer is read only: no caller changes it. The kept answers are
    dropped together when WITHIN_KEPT are kept, so a long-running service stays small."""
    kept: dict[tuple[str, int], dict[str, int]] | None = world.__dict__.get("_fuel_within")
    if kept is None:
        kept = world.__dict__["_fuel_within"] = {}
    found = kept.get((goal, limit))
    if found is None:
        if len(kept) >= WITHIN_KEPT:
            kept.clear()
        found = kept[(goal, limit)] = _within(world, goal, limit)
    return found


def _within(world: World, goal: str, limit: int) -> dict[str, int]:
    """within(), found: a fuel point at a time, each ring of places at once with set
    operations (at C speed: a step costs 1 or 2, so the places first reached at d points
    are all there is at d)."""
    if goal not in world.territories:
        return {}
    land, sea = _into_by_fuel(world)
    found: dict[str, int] = {}
    reached: list[set[str]] = [{goal}] + [set() for _ in range(limit + SEA_STEP)]  # by fuel points to the goal
    for d in range(limit + 1):
        ring = reached[d].difference(found)
        if not ring:
            continue
        found.update(dict.fromkeys(ring, d))
        reached[d + LAND_STEP].update(chain.from_iterable(map(land.__getitem__, ring)))
        reached[d + SEA_STEP].update(chain.from_iterable(map(sea.__getitem__, ring)))
    return found


def cheapest(world: World, start: str, goal: str, limit: int = 40,
             avoid: Callable[[str], bool] | None = None,
             double: Callable[[str], bool] | None = None) -> int | None:
    """Fewest fuel points to fly from start to goal (step_cost per move), or None beyond
    `limit`. `avoid(place)` keeps a flight out of places it may not cross; start and goal
    are always allowed. `double(place)`: every move into or out of such a place costs
    twice its fuel (4.1.2, rebasing "over enemy controlled sea zone or province").

    The search looks ahead (A*, as air_route.way): a place is ranked by its fuel plus its
    fewest fuel points to the goal on the plain map (within), never more than the flight
    still needs, so the first time the goal comes up its fuel is the fewest; places the
    goal is beyond `limit` from are never tried (issue 14, the engine's cost)."""
    if start == goal:
        return 0
    near = within(world, goal, limit)
    if start not in near:
        return None
    moves = steps(world)
    best = {start: 0}
    heap = [(near[start], start)]  # fuel so far plus the fewest still to fly, the place
    while heap:
        ahead, here = heapq.heappop(heap)
        cost = ahead - near[here]
        if here == goal:
            return cost
        if cost > best[here]:
            continue
        doubled = double is not None and double(here)
        for nxt, step in moves.get(here, ()):
            to_goal = near.get(nxt)
            if to_goal is None or (avoid is not None and nxt != goal and avoid(nxt)):
                continue
            c = cost + (2 * step if double is not None and (doubled or double(nxt)) else step)
            if c + to_goal <= limit and c < best.get(nxt, limit + 1):
                best[nxt] = c
                heapq.heappush(heap, (c + to_goal, nxt))
    return None


def to_nearest(world: World, start: str, goals: Iterable[str], limit: int = 40) -> int | None:
    """Fewest fuel points from start to any of `goals` (where the aircraft may land)."""
    found = nearest(world, start, goals, limit)
    return found[0] if found is not None else None


def nearest(world: World, start: str, goals: Iterable[str], limit: int = 40) -> tuple[int, str] | None:
    """The cheapest of `goals` to fly to from start, and its fuel (ties: the first by name)."""
    wanted = set(goals)
    if start in wanted:
        return 0, start
    moves = steps(world)
    best = {start: 0}
    heap = [(0, start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if here in wanted:
            return cost, here
        if cost > best.get(here, limit + 1):
            continue
        for nxt, step in moves.get(here, ()):
            c = cost + step
            if c <= limit and c < best.get(nxt, limit + 1):
                best[nxt] = c
                heapq.heappush(heap, (c, nxt))
    return None
