"""The demo players' orders: one of every kind the engine carries out, found on the real map.

The demo exists so a new user sees the whole turn at work, so its robots write a turn
that uses every order the engine resolves by itself (a declaration of war, an attack with
a withdrawal condition and a casualty order, an incorporation counting on that attack,
moves, a rail move, builds, a trench, an upgrade, a gift) and a few it charges and hands
to the moderator (research, influence, espionage, a note). Candidates are proposed from
the position, then run through the checker, and only those the rules keep are written:
a demo never mails an order the receipt would refuse (except Russia's deliberate typo,
which shows the "did you mean" answer). The candidates come in order of preference and
each is kept only if the turn still checks clean with it (the treasury runs out, units
are spoken for), so the most telling orders are written first.
"""

from __future__ import annotations

from collections.abc import Iterator

from moderator.engine.phase4_strategic import rail_region, strategic_capacity
from moderator.engine.state import GameState
from moderator.orders.checker import check_text
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

GAME = "demo"
# Where a demo nation opens the war, as it did in August 1914.
DECLARATIONS = {"germany": "Belgium"}


def seat_password(nation: str) -> str:
    return f"demo-{nation}"


def sample_orders(state: GameState, world: World, nation: str, scenario: Scenario | None = None, *,
                  with_mistake: bool = False) -> str:
    """A whole demo turn for `nation`, every line checked clean on this position."""
    if scenario is None:
        from moderator.world.scenario import load_scenario

        scenario = load_scenario(state.scenario)
    header = [f"GAME {GAME}", f"NATION {nation}", f"TURN {state.turn}", f"PASSWORD {seat_password(nation)}", ""]
    lines = list(header)
    for candidate in _candidates(state, world, scenario, nation):
        trial = lines + [candidate]
        checked = check_text("\n".join(trial), nation, state, world, scenario)
        if not any(d.severity == "error" for d in checked.diagnostics):
            lines = trial
    if with_mistake:
        lines.append(_typo(state, world, nation))
    lines.append("NOTE Demo orders, sent by the demo robot.")
    return "\n".join(lines) + "\n"


def _infantry(state: GameState, nation: str, place: str) -> int:
    return sum(1 for u in state.units_at(place, nation) if u.kind == "infantry")


def _stacks(state: GameState, world: World, nation: str) -> list[str]:
    return sorted({u.location for u in state.nation_units(nation)
                   if u.kind == "infantry" and world.territories[u.location].is_land})


def _candidates(state: GameState, world: World, scenario: Scenario, nation: str) -> Iterator[str]:
    """Orders in order of preference (see the module docstring)."""
    target = DECLARATIONS.get(nation)
    if target:
        yield f"DECLARE WAR ON {target}"
    yield from _attack(state, world, nation)
    capital = next((t.name for t in world.lands() if t.owner == nation and t.capital), None)
    if capital:
        yield f"BUILD 2 inf AT {capital}"
        yield f"BUILD 1 inf AT {capital}"
    yield from _trench(state, world, nation)
    yield from _moves(state, world, nation)
    factory = next((t.name for t in world.lands() if t.owner == nation and t.industry), None)
    if factory:
        yield f"BUILD 1 art AT {factory}"
    yield "RESEARCH Improved Weapons"
    ally = next((n for n in sorted(state.nations) if n != nation and state.allies(nation, n)
                 and state.nations[n].side != "neutral"), None)
    if ally:
        yield f"GIFT 5 TO {scenario.nations[ally].name}"
    neutral = next((n for n in ("persia", "netherlands", "denmark", "norway") if n in state.nations
                    and state.nations[n].side == "neutral"), None)
    if neutral:
        yield f"INFLUENCE {scenario.nations[neutral].name}"
    enemy = next((n for n in sorted(state.nations[nation].at_war_with)), None)
    if enemy:
        yield f"ESPIONAGE ARMY ON {scenario.nations[enemy].name}"
    yield "CASUALTIES: art, inf"


def _attack(state: GameState, world: World, nation: str) -> Iterator[str]:
    """An attack on an enemy (or the declared target) next door, with a condition, and the
    incorporation of what it takes (Phase 6 meets it after the battle: a conditional order)."""
    foes = set(state.nations[nation].at_war_with) | ({DECLARATIONS[nation].lower()} if nation in DECLARATIONS else set())
    for origin in _stacks(state, world, nation):
        count = _infantry(state, nation, origin)
        if count < 3:
            continue
        for dest in sorted(world.neighbours(origin)):
            holder = state.controller(dest)
            if world.territories[dest].is_land and holder in foes and not world.is_strait(origin, dest):
                yield f"ATTACK {count - 1} inf FROM {origin} TO {dest} WITHDRAW IF LOSSES EXCEED {max(count // 2, 1)}"
                yield f"INCORPORATE {dest}"
                return


def _moves(state: GameState, world: World, nation: str) -> Iterator[str]:
    """A march between two own territories, and a rail move to a far one."""
    moved = railed = False
    for origin in _stacks(state, world, nation):
        count = _infantry(state, nation, origin)
        if count < 2:
            continue
        if not moved:
            dest = next((d for d in sorted(world.neighbours(origin)) if state.controller(d) == nation), None)
            if dest:
                yield f"MOVE 1 inf FROM {origin} TO {dest}"
                moved = True
                continue
        if not railed and count >= 3:
            far = [d for d in rail_region(world, state, nation, origin)
                   if d != origin and not world.adjacent(origin, d) and state.controller(d) == nation]
            dest = next((d for d in far if strategic_capacity(world, state, nation, origin, [d]) >= 2), None)
            if dest:
                yield f"STRATEGIC MOVE 2 inf FROM {origin} TO {dest}"
                railed = True
        if moved and railed:
            return


def _trench(state: GameState, world: World, nation: str) -> Iterator[str]:
    """A trench where the nation's biggest stack faces an enemy."""
    for place in sorted(_stacks(state, world, nation), key=lambda p: (-_infantry(state, nation, p), p)):
        if world.territories[place].owner != nation:
            continue
        foe = next((d for d in sorted(world.neighbours(place)) if world.territories[d].is_land
                    and state.at_war(nation, state.controller(d) or "")), None)
        if foe:
            yield f"BUILD TRENCH AT {place} FACING {foe}"
            return


def _typo(state: GameState, world: World, nation: str) -> str:
    """A natural typo in a place name: the receipt answers "did you mean ...?"."""
    mine = _stacks(state, world, nation)
    border = [(o, d) for o in mine for d in sorted(world.neighbours(o)) if state.controller(d) == nation]
    origin, dest = border[-1]
    return f"MOVE 1 inf FROM {origin} TO {dest[:-1]}"
