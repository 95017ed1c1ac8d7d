"""Initial Deployment: the players place the free half of their starting units (turn 0).

Rules, "Initial Deployment": "50% units (rounded up) are deployed in predeterminated
provinces/sea zones, last 50% (rounded down) should be deployed by active players for
each nation at the own provinces and at the sea zones adjacent to own land provinces.
Units cannot be deployed onboard transports. Also, if two or more enemy units share the
same sea zone, then all units will be removed to appropriate sea zone adjacent to own
land provinces by moderator choice. No one can deploy units prior to first turn in
allied lands or to colonies (for British Commonwealt, German Empire and French Empire
only)".

A game created with a deployment turn starts at turn 0 with the free half listed in each
nation's flags["to_deploy"] ([{"kind", "count", "default"}], see
moderator.world.scenario.initial_state). This step is the whole of turn 0 (resolve()
runs the ruleset's opening table instead of the nine phases): it places what the DEPLOY
orders ask for, puts every free unit left over at its default place, and flags sea zones
where enemies now share the water, because the rules leave that move to the moderator.

deploy_problem() is the placement rule itself; the DEPLOY order's home
(engine/orders/deploy.py) uses it for the checker and the engine alike.
"""

from __future__ import annotations

from collections import Counter

from moderator.engine import terrain
from moderator.engine.context import TurnContext
from moderator.engine.state import AIR_UNITS, SEA_UNITS, GameState
from moderator.world.model import Territory, World
from moderator.world.scenario_model import Scenario

PHASE = "0"

# "No one can deploy units prior to first turn ... to colonies (for British Commonwealt,
# German Empire and French Empire only)".
NO_COLONY_DEPLOYMENT = frozenset({"britain", "germany", "france"})


def deploy_problem(world: World, scenario: Scenario, state: GameState, nation: str, kind: str,
                   place: str) -> str | None:
    """Why `nation` may not deploy a `kind` at `place` (canonical name), or None if it may.

    Reasons: "ship-on-land", "at-sea" (land or air units at sea would be aboard
    transports), "sea-not-adjacent", "allied-land", "not-own-land", "colony",
    "mountains" (no aircraft can land there), "not-held"."""
    t = world.territories[place]
    if kind in SEA_UNITS:
        if not t.is_sea:
            return "ship-on-land"
        # Sea zones adjacent to own land provinces (original ownership, as the
        # scenario's predetermined ships are checked).
        if not any(world.territories[n].owner == nation for n in world.neighbours(place)):
            return "sea-not-adjacent"
        return None
    if t.is_sea:
        return "at-sea"  # "Units cannot be deployed onboard transports."
    if t.owner != nation:
        return "allied-land" if t.owner is not None and state.allies(nation, t.owner) else "not-own-land"
    if nation in NO_COLONY_DEPLOYMENT and is_colony(t):
        return "colony"
    if kind in AIR_UNITS and terrain.no_landing(world, scenario, place):
        return "mountains"
    if state.controller(place) != nation:
        return "not-held"
    return None


def is_colony(t: Territory) -> bool:
    """A colony for the deployment rule: marked as one on the map (the Colonies Allowance
    class), or any land outside the European map section. The map marks only the colonies
    of the Colonies Allowance table, but the three empires' home provinces all lie on the
    European map, while Cameroon, Togo or Jiaozhou are colonies all the same."""
    return bool(t.colony) or t.section != "E"


def free_counts(state: GameState, nation: str) -> Counter[str]:
    """How many units of each kind `nation` still has to deploy (flags["to_deploy"])."""
    counts: Counter[str] = Counter()
    for item in state.nations[nation].flags.get("to_deploy", ()) if nation in state.nations else ():
        counts[str(item["kind"])] += int(item["count"])
    return counts


def initial_deployment(ctx: TurnContext) -> None:
    """Initial Deployment, after the DEPLOY orders (engine/orders/deploy.py): put every free
    unit no order placed at its default place, and flag the sea zones enemies share.
    Nations in id order, so unit ids come out the same every time."""
    if ctx.turn != 0:
        return  # the deployment happens once, before the first turn
    for nation in sorted(ctx.state.nations):
        flags = ctx.state.nations[nation].flags
        if "to_deploy" not in flags:
            continue
        left = free_counts(ctx.state, nation)
        for kind in list(left):
            left[kind] -= ctx.tally[("deploy", nation, kind)]
        _place_defaults(ctx, nation, left)
        del flags["to_deploy"]  # the deployment is done
    _flag_shared_seas(ctx)


def _place_defaults(ctx: TurnContext, nation: str, left: Counter[str]) -> None:
    """Free units no DEPLOY order placed stand where the scenario puts them by default.
    The units the orders placed are taken from a kind's default places in list order, so
    the last listed defaults are the ones still filled."""
    skip = free_counts(ctx.state, nation) - left  # per kind: how many the orders placed
    for item in ctx.state.nations[nation].flags["to_deploy"]:
        kind, count, place = str(item["kind"]), int(item["count"]), str(item["default"])
        taken = min(count, skip[kind])
        skip[kind] -= taken
        if count == taken:
            continue
        for _ in range(count - taken):
            ctx.state.new_unit(nation, kind, place)
        ctx.tell(nation, "deploy-defaulted", PHASE, kind=kind, count=count - taken, place=place)


def _flag_shared_seas(ctx: TurnContext) -> None:
    """Enemy ships in one sea zone after deployment: the rules have the moderator move
    them all to sea zones next to their own land, so the engine only names the zone."""
    by_zone: dict[str, set[str]] = {}
    for u in ctx.state.units:
        if ctx.world.territories.get(u.location) is not None and ctx.world.territories[u.location].is_sea:
            by_zone.setdefault(u.location, set()).add(u.nation)
    for zone in sorted(by_zone):
        nations = sorted(by_zone[zone])
        enemies = sorted({n for n in nations for m in nations if ctx.state.at_war(n, m)})
        if enemies:
            ctx.flag(PHASE, "enemies-share-sea-zone", zone=zone, nations=enemies)
