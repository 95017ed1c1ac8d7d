"""The demo players' orders: one of every kind the engine carries out, found on the real map.

The demo exists so a new user sees the whole turn at work, so its robots write a turn
that uses the orders the engine resolves by itself: a declaration of war, an attack with
a withdrawal condition, artillery support and a casualty order, an incorporation counting
on that attack, a fleet on patrol (task forces and naval combat, 4.2-4.3) splitting off a
cruiser on its way (guideline 6), submarines
lying in wait (4.2.3), a landing from transports (4.6), fighters striking, scouting and
rebasing (3.3, 4.1), air combat choices (letting enemy aircraft through, breaking off,
4.5), a factory defending its land, a hunt for submarines (4.2 DETECT), a blockade where
ships allow and Germany's unrestricted submarine warfare (1.4), builds, a trench, moves, a
rail move, research, espionage and counter-espionage, influence, a gift and money sent
home from a separated treasury (Phase 8). Candidates are proposed from the position, then
run through the checker, and only those the rules keep are written: a demo never mails an
order the receipt would refuse (except Russia's deliberate typo, which shows the "did you
mean" answer). Each candidate is a list of alternatives of which the first that keeps the
turn clean is written (the treasury runs out, units are spoken for, a target is out of
reach); the candidates come in order of preference, so the most telling orders come first.
"""

from __future__ import annotations

from collections.abc import Iterator

from moderator.engine.phase4_strategic import rail_region, strategic_capacity
from moderator.engine.state import GameState
from moderator.orders.checker import check_text
from moderator.orders.vocab import UNIT_ECHO
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

GAME = "demo"
# Warnings that an order would do nothing (no aircraft to let through or to break off):
# the demo leaves such an order out rather than confuse its reader.
IDLE = frozenset({"let-pass-no-fighters", "air-retreat-nothing"})
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
    for alternatives in _candidates(state, world, scenario, nation):
        for candidate in alternatives:
            trial = lines + [candidate]
            checked = check_text("\n".join(trial), nation, state, world, scenario)
            if not any(d.severity == "error" or d.code in IDLE for d in checked.diagnostics):
                lines = trial
                break
    if with_mistake:
        lines.append(_typo(state, world, nation))
    lines.append("NOTE Demo orders, sent by the demo robot.")
    return "\n".join(lines) + "\n"


def _count(state: GameState, nation: str, place: str, kind: str) -> int:
    return sum(1 for u in state.units_at(place, nation) if u.kind == kind)


def _infantry(state: GameState, nation: str, place: str) -> int:
    return _count(state, nation, place, "infantry")


def _stacks(state: GameState, world: World, nation: str) -> list[str]:
    return sorted({u.location for u in state.nation_units(nation)
                   if u.kind == "infantry" and world.territories[u.location].is_land})


def _candidates(state: GameState, world: World, scenario: Scenario, nation: str) -> Iterator[list[str]]:
    """Orders in order of preference, each a list of alternatives (see the module docstring)."""
    target = DECLARATIONS.get(nation)
    if target:
        yield [f"DECLARE WAR ON {target}"]
    attacked = None
    for order in _attack(state, world, nation):
        yield [order]
        attacked = attacked or order.split(" TO ")[1].split(" WITHDRAW")[0]
    yield from _navy(state, world, nation)
    yield from _air(state, world, nation, attacked)
    yield from _choices(state, world, scenario, nation)
    capital = next((t.name for t in world.lands() if t.owner == nation and t.capital), None)
    if capital:
        yield [f"BUILD 1 inf AT {capital}"]
    yield from ([o] for o in _trench(state, world, nation))
    yield from ([o] for o in _moves(state, world, nation))
    yield ["RESEARCH Improved Weapons"]
    enemy = next((n for n in sorted(state.nations[nation].at_war_with)), None)
    if enemy:
        yield [f"COUNTERESPIONAGE ARMY AGAINST {scenario.nations[enemy].name}"]
        yield [f"ESPIONAGE ARMY ON {scenario.nations[enemy].name}"]
    neutral = next((n for n in ("persia", "netherlands", "denmark", "norway") if n in state.nations
                    and state.nations[n].side == "neutral"), None)
    if neutral:
        yield [f"INFLUENCE {scenario.nations[neutral].name}"]
    ally = next((n for n in sorted(state.nations) if n != nation and state.allies(nation, n)
                 and state.nations[n].side != "neutral"), None)
    if ally:
        yield [f"GIFT 5 TO {scenario.nations[ally].name}"]
    factory = next((t.name for t in world.lands() if t.owner == nation and t.industry), None)
    if factory:
        yield [f"BUILD 1 art AT {factory}"]
    yield from _money(state, world, scenario, nation)
    yield ["CASUALTIES: art, inf"]


def _attack(state: GameState, world: World, nation: str) -> Iterator[str]:
    """An attack on an enemy (or the declared target) next door, with a condition and the
    artillery's support, and the incorporation of what it takes (Phase 6 meets it after the
    battle: a conditional order)."""
    foes = set(state.nations[nation].at_war_with) | ({DECLARATIONS[nation].lower()} if nation in DECLARATIONS else set())
    for origin in _stacks(state, world, nation):
        count = _infantry(state, nation, origin)
        if count < 3:
            continue
        for dest in sorted(world.neighbours(origin)):
            holder = state.controller(dest)
            if world.territories[dest].is_land and holder in foes and not world.is_strait(origin, dest):
                yield f"ATTACK {count - 1} inf FROM {origin} TO {dest} WITHDRAW IF LOSSES EXCEED {max(count // 2, 1)}"
                if any(u.kind == "artillery" for u in state.units_at(origin, nation)):
                    yield f"SUPPORT 1 art FROM {origin} TO {dest}"
                yield f"INCORPORATE {dest}"
                return


def _enemy_ships(state: GameState, nation: str, zone: str) -> int:
    return sum(1 for u in state.units_at(zone) if state.at_war(nation, u.nation))


def _navy(state: GameState, world: World, nation: str) -> Iterator[list[str]]:
    """The biggest surface fleet as a task force patrolling towards the enemy's ships (4.2,
    contact and naval combat 4.3), submarines lying in wait for transports (4.2.3), and a
    transport landing infantry on an enemy coast (4.2 TRANSPORT, 4.6 INVADE)."""
    warships = ("battleship", "cruiser")
    fleets = sorted({u.location for u in state.nation_units(nation) if u.kind in warships},
                    key=lambda z: (-sum(_count(state, nation, z, k) for k in warships), z))
    if fleets:
        zone = fleets[0]
        ships = ", ".join(f"{_count(state, nation, zone, k)} {UNIT_ECHO[k]}" for k in warships
                          if _count(state, nation, zone, k))
        seas = sorted((z for z in world.neighbours(zone) if world.territories[z].is_sea),
                      key=lambda z: (-_enemy_ships(state, nation, z), z))
        # a cruiser splits off after the first move and sails back (Phase 4 guideline 6), where
        # the fleet has one to spare; else the whole fleet patrols
        spare = _count(state, nation, zone, "cruiser") and sum(_count(state, nation, zone, k) for k in warships) > 1
        splits = [f"TF 1 AT {zone}: {ships}\nTF 1 PATROL TO {z}, SPLIT 1 {UNIT_ECHO['cruiser']} INTO TF 3, PATROL\n"
                  f"TF 3 MOVE TO {zone}" for z in seas] if spare else []
        yield splits + [f"TF 1 AT {zone}: {ships}\nTF 1 PATROL TO {z}" for z in seas]
    for zone in sorted({u.location for u in state.nation_units(nation) if u.kind == "submarine"}):
        subs = _count(state, nation, zone, "submarine")
        yield [f"INTERCEPT WITH {subs} ss IN {zone} AGAINST transports"]
        break
    landings = []
    for zone in sorted({u.location for u in state.nation_units(nation) if u.kind == "transport"}):
        coasts = sorted(d for d in world.neighbours(zone) if world.territories[d].is_land)
        for home in (c for c in coasts if state.controller(c) == nation and _infantry(state, nation, c) >= 2):
            for shore in (c for c in coasts if state.at_war(nation, state.controller(c) or "")):
                landings.append(f"TF 2 AT {zone}: 1 tr\nTF 2 LOAD 1 inf FROM {home}\nTF 2 TRANSPORT\n"
                                f"INVADE 1 inf FROM {zone} TO {shore}")
    yield landings


def _air(state: GameState, world: World, nation: str, attacked: str | None) -> Iterator[list[str]]:
    """Fighters over the attacked territory (a tactical strike where their fuel allows, 4.1.1,
    else joining the attack: air combat in the land battle, 4.5), scouting an enemy
    neighbour (active reconnaissance, 3.3) and rebasing to the front (4.1.2)."""
    fields = sorted({u.location for u in state.nation_units(nation) if u.kind == "fighter"})
    if attacked and fields:
        yield ([f"BOMB TACTICAL 1 ftr FROM {f} TO {attacked}" for f in fields]
               + [f"ATTACK 1 ftr FROM {f} TO {attacked}" for f in fields])
        yield [f"BREAK OFF AIR COMBAT AT {attacked} AFTER 1 ROUND"]
    yield [f"RECON 1 ftr FROM {f} TO {d}" for f in fields for d in sorted(world.neighbours(f))
           if world.territories[d].is_land and state.at_war(nation, state.controller(d) or "")]
    yield [f"REBASE 1 ftr FROM {f} TO {d}" for f in fields for d in sorted(world.neighbours(f))
           if world.territories[d].is_land and state.controller(d) == nation]


def _choices(state: GameState, world: World, scenario: Scenario, nation: str) -> Iterator[list[str]]:
    """What a player decides about the enemy's moves: fighters at home letting enemy aircraft
    through (4.5), the factory nearest the front defending its land (4.6), a warship hunting
    submarines (4.2 DETECT), a naval blockade of an enemy (1.4) and, for Germany as in 1917,
    unrestricted submarine warfare (1.4)."""
    fields = sorted(f for f in {u.location for u in state.nation_units(nation) if u.kind == "fighter"}
                    if _count(state, nation, f, "fighter") >= 2)
    yield [f"LET THROUGH AT {f}" for f in fields]
    foes = set(state.nations[nation].at_war_with)
    front = [t.name for t in world.lands() if t.owner == nation and t.industry
             and any(state.controller(d) in foes for d in world.neighbours(t.name))]
    yield [f"DEFEND WITH INDUSTRY AT {f}" for f in sorted(front)]
    zones = sorted({u.location for u in state.nation_units(nation) if u.kind == "cruiser"})
    yield [f"DETECT SUBS IN {z} WITH 1 dd" for z in zones]
    yield [f"BLOCKADE {scenario.nations[f].name}" for f in sorted(foes)]
    if nation == "germany":
        yield ["DECLARE UNRESTRICTED SUBMARINE WARFARE AGAINST Allies"]


def _money(state: GameState, world: World, scenario: Scenario, nation: str) -> Iterator[list[str]]:
    """Money home from a separated treasury (Phase 8 TRANSFER), as much as it holds."""
    from moderator.engine.context import Position
    from moderator.engine.treasuries import separated

    capital = next((t.name for t in world.lands() if t.owner == nation and t.capital), None)
    pos = Position(state, {}, world, scenario, checking=True)
    if capital:
        yield [f"TRANSFER {n} FROM {key} TO {capital}" for key, _group in separated(pos, nation) for n in (5, 3, 2, 1)]


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
