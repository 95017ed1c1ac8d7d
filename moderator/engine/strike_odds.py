"""`moderator odds --sea` with aircraft attacking ships: the whole strike of
engine/phase4_air_sea.py, before the exact rounds that naval_odds.py walks.

In the order the engine plays it (phase4_air_sea.strike):
- Radar: "If on a ship, that ship has a 50% chance of detecting them, and the ships have
  the option of retreating to an adjacent sea zone": when the defender ordered WITHDRAW
  FROM the zone IF RADAR WARNS, each radar ship rolls 1 to RADAR_SIGHTS on a D10 and one
  sighting takes the task forces away before anything is fired ("evaded"), 1 - (1/2)^n.
- 4.3 step 1: "Any fighter stationed aboard undamaged aircraft carriers may attempt to
  intercept any aircraft in the attacking force and engage in air combat ... Also, all
  protecting fighters from land can fight attacking aircrafts in air combat": that air
  combat is air_combat_sea.fight itself, flown on a stand-in position with seeded dice,
  `samples` times (carrier fighters with their whole tank, 4.5 step 3; the cover with the
  rounds its fuel leaves); each run leaves some strikers with some rounds of fuel, and
  some interceptors. The interceptors are air_combat_sea.guards' own choice on that
  stand-in (the carriers' fighters up to their room, the cover), and the stand-in carries
  the players' choices of 4.5 as orders for the zone, read by the engine's own code:
  the defender's LET THROUGH (4.5: "the enemy fighters have the option of intercepting
  or letting them go": no air combat, and its fighters do not defend with the ships
  either, as in the engine) and the attacker's BREAK OFF AIR COMBAT (4.5 step 3: "The
  attacking player may now decide to retreat", read after each air round while
  interceptors remain: those strikers fly home without striking).
- Steps 2-6 for each such outcome: naval_odds.naval_battle_odds, exact, with the
  interceptors left among the defenders (step 4: "defending ships and planes roll for
  defense"), the ships' AA guns, radar's -1 to the aircraft (Radar: "Enemy planes receive
  -1 to their attack when radar is present").
So the result is exact but for the sampling of the air combat. Strikes do not attack
submarines (they are found only by detection, 4.2.9): only surface ships are struck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from moderator.engine import air_combat_sea, naval_odds, phase4_naval
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.naval_combat import Ship
from moderator.engine.naval_odds import NavalOdds
from moderator.engine.odds import _levels, add_weighed, make_units
from moderator.engine.phase4_air_sea import RADAR_SIGHTS
from moderator.engine.state import NationState, Unit
from moderator.orders.model import AirRetreat, LetPass, Order
from moderator.world.model import SEA, Territory, World
from moderator.world.scenario_model import Scenario

ZONE = "the sea zone"  # the stand-in zone of the strike
STAND_IN = World({ZONE: Territory(ZONE, SEA, "")}, {})  # the orders name the zone: it must resolve
SAMPLES = 2000

# the strikers that reach the ships, with the rounds of fuel each has left; the
# interceptors left; the strikers downed, gone home; the interceptors downed
Outcome = tuple[tuple[tuple[str, int], ...], tuple[str, ...], int, int, int]


def interceptors(scenario: Scenario, defender: str, defend: Mapping[str, int], carrier_fighters: int,
                 cover: int, tech: Mapping[str, Mapping[str, int]]) -> tuple[list[Unit], list[Unit]]:
    """The defender's fighters over the zone: aboard its carriers (at most what they hold,
    Aircraft Carriers; a ValueError beyond), and the cover flown from land."""
    ctx = TurnContext(_levels(scenario, tech), {}, World({}, {}), scenario)
    carriers = make_units(defender, {"carrier": defend.get("carrier", 0)}, "d")
    room = sum((stats.capacity if (stats := ctx.stats(defender, "carrier", u)) else 0) for u in carriers)
    if carrier_fighters > room:
        raise ValueError(f"{defend.get('carrier', 0)} carrier(s) hold {room} fighter(s), not {carrier_fighters} "
                         "(Aircraft Carriers)")
    return make_units(defender, {"fighter": carrier_fighters}, "c"), make_units(defender, {"fighter": cover}, "l")


def choices(attacker: str, defender: str, let_through: bool,
            break_off: Sequence[tuple[str, int]]) -> dict[str, list[Order]]:
    """The players' choices of 4.5 for the stand-in zone, as orders: the defender's LET
    THROUGH, the attacker's BREAK OFF AIR COMBAT conditions ("rounds" | "losses" | "kills", n)."""
    return {attacker: [AirRetreat(ZONE, kind, value) for kind, value in break_off],
            defender: [LetPass(ZONE)] if let_through else []}


def stand_in(scenario: Scenario, attacker: str, strikers: Sequence[Unit], defender: str, guards: Sequence[Unit],
             carriers: Sequence[Unit], tech: Mapping[str, Mapping[str, int]], orders: Mapping[str, list[Order]],
             dice: Dice) -> TurnContext:
    """The strike's zone with the strikers, the defender's fighters and its carriers in it,
    the two nations at war, the players' choices as orders."""
    state = _levels(scenario, tech)
    for nation, enemy in ((attacker, defender), (defender, attacker)):
        state.nations.setdefault(nation, NationState(nation)).at_war_with = [enemy]
    state.units = [Unit(u.id, u.nation, u.kind, ZONE) for u in (*strikers, *guards, *carriers)]
    return TurnContext(state, {n: list(o) for n, o in orders.items()}, STAND_IN, scenario, dice_root=dice)


def intercepting(ctx: TurnContext, attacker: str, cover: set[str]) -> list[Unit]:
    """The fighters that intercept over the stand-in zone: air_combat_sea.guards itself
    (none when the defender lets the strikers through)."""
    flown = [u for u in ctx.state.units if u.id in cover]
    return air_combat_sea.guards(ctx, ZONE, [attacker], flown)


def air_outcomes(scenario: Scenario, attacker: str, strikers: list[Unit], defender: str, guards: list[Unit],
                 cover: set[str], rounds: int, cover_rounds: int, tech: Mapping[str, Mapping[str, int]],
                 samples: int = SAMPLES, seed: str = "strike-odds",
                 progress: Callable[[int, int], None] | None = None, carriers: Sequence[Unit] = (),
                 orders: Mapping[str, list[Order]] | None = None) -> dict[Outcome, float]:
    """How often each outcome of step 1's air combat comes, over `samples` seeded runs of
    air_combat_sea.fight (`rounds`: the strikers' rounds at sea; `cover`: the ids of the
    fighters from land, with `cover_rounds` each; those aboard `carriers` have their tank;
    `orders`: the players' choices, choices())."""
    seen: Counter[Outcome] = Counter()
    for i in range(samples):
        ctx = stand_in(scenario, attacker, strikers, defender, guards, carriers, tech, orders or {},
                       Dice(f"{seed}-{i}", 1))
        mine = [u for u in ctx.state.units if u.nation == attacker]
        theirs = intercepting(ctx, attacker, cover)
        guard_rounds = {g.id: cover_rounds if g.id in cover else air_combat_sea.carrier_rounds(ctx, g) for g in theirs}
        air = air_combat_sea.fight(ctx, ZONE, mine, dict.fromkeys((u.id for u in mine), rounds), theirs, guard_rounds)
        left = tuple(sorted((u.id, rounds - air.fought.get(u.id, 0)) for u in air.strikers))
        home = len(air.turned_back) + sum(len(v) for v in air.broke_off.values())
        seen[(left, tuple(sorted(g.id for g in air.guards)), len(air.lost), home, len(air.guards_lost))] += 1
        if progress is not None:
            progress(i + 1, samples)
    return {k: n / samples for k, n in sorted(seen.items())}


def strike_odds(scenario: Scenario, attacker: str, attack: Mapping[str, int], defender: str,
                defend: Mapping[str, int], *, rounds: int = 1, tech: Mapping[str, Mapping[str, int]] | None = None,
                aa: int = 0, carrier_fighters: int = 0, cover: int = 0, cover_rounds: int = 1,
                radar_ships: int = 0, radar_retreat: bool = False, sonar: bool = False,
                let_through: bool = False, break_off: Sequence[tuple[str, int]] = (),
                samples: int = SAMPLES, progress: Callable[[int, int], None] | None = None) -> NavalOdds:
    """The odds of `attack` (aircraft, kind -> count) striking the ships of `defend`
    (kind -> count) with `rounds` rounds of fuel at sea. aa: AA guns aboard (Improved AA,
    the room of ship_gear.AA_ROOM, the ships in order); radar_ships: battleships or
    carriers carrying radar; radar_retreat: the defender withdraws when its radar warns;
    sonar: one of the ships carries sonar (nothing against aircraft: Sonar is against
    submarines; told for completeness); carrier_fighters / cover: the defender's fighters
    aboard its carriers there / sent from land as cover, with `cover_rounds` rounds of
    air combat in their fuel. let_through: the defender lets the strikers go by (LET THROUGH
    AT the zone); break_off: the attacker's BREAK OFF AIR COMBAT AT the zone conditions
    (("rounds" | "losses" | "kills", n), 4.5 step 3)."""
    levels = {n: dict(v) for n, v in (tech or {}).items()}
    if aa:  # Improved AA: "Improved AA guns may also be put on ships"
        levels.setdefault(defender, {}).setdefault("improved_aa", 1)
    surface = {k: n for k, n in defend.items() if k in phase4_naval.SURFACE_SHIPS}
    ships = naval_odds.task_force(defender, surface, "move", "d")
    gear = naval_odds.gear_for(ships, aa, radar_ships, sonar)
    aboard, flown = interceptors(scenario, defender, defend, carrier_fighters, cover, levels)
    guards = aboard + flown
    strikers = make_units(attacker, attack, "a")
    total = NavalOdds(len(strikers), len(ships))
    if not ships:  # nothing a strike attacks: the aircraft fly home
        total.outcomes["withdrawn"], total.rounds[0] = 1.0, 1.0
        return total
    warned = 1 - (1 - RADAR_SIGHTS / 10) ** radar_ships if radar_retreat else 0.0
    if warned:
        total.outcomes["evaded"] += warned
        total.rounds[0] = warned
    carriers = [s.unit for s in ships if s.unit.kind == "carrier"]
    orders = choices(attacker, defender, let_through, break_off)
    from_land = {g.id for g in flown}
    met = intercepting(stand_in(scenario, attacker, strikers, defender, guards, carriers, levels, orders, Dice("", 0)),
                       attacker, from_land)
    outcomes = air_outcomes(scenario, attacker, strikers, defender, guards, from_land, rounds, cover_rounds, levels,
                            samples, progress=progress, carriers=carriers, orders=orders) if met \
        else {(tuple((u.id, rounds) for u in strikers), (), 0, 0, 0): 1.0}  # no air combat: all strike
    by_id = {u.id: u for u in (*strikers, *guards)}
    for (left, standing, lost, home, downed), p in outcomes.items():
        w = p * (1 - warned)
        total.attacker_losses += w * lost
        total.defender_planes_lost += w * downed
        if not left:  # none reached the ships: no fire at them
            total.outcomes["withdrawn" if home else "attackers_sunk"] += w
            total.rounds[0] = total.rounds.get(0, 0.0) + w
            continue
        o = naval_odds.naval_battle_odds(
            scenario, [Ship(by_id[uid], f"{attacker}/aircraft", "attack") for uid, _ in left],
            ships + [Ship(by_id[g], f"{defender}/aircraft", "defend") for g in standing],
            free="defender", max_rounds=min(n for _, n in left), tech=levels, guns=gear["aa"], parting=True,
            gear=gear["other"])
        merge(total, o, w)
    return total


def merge(total: NavalOdds, o: NavalOdds, w: float) -> None:
    """Add the odds `o` of one outcome of the way, weighed `w`."""
    add_weighed(total, o, w, ("attacker_losses", "defender_losses", "attacker_damaged", "defender_damaged",
                              "defender_planes_lost", "pruned"))
