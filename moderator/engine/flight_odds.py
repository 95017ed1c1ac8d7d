"""`moderator odds --raid` and `--rebase`: the odds of a bombing raid (4.1.1) and of a
rebasing flight over enemy land (4.1.2), from the engine's own flights, rolled.

Issue 10: "Battle odds for every kind of battle ... exact where the state space allows,
seeded simulation of the same engine code otherwise ... It calls the engine's combat
code, never a copy". A raid or a rebase is many small dice-driven steps (the AA guns of
every place flown over, the air combats of 4.5 with their fuel, turning back, breaking
off, the damage), so its odds are the engine's own flight, rolled `samples` times with
seeded dice (Dice(f"{seed}-{i}", 1) for flight i: the same answer every time):

- the order's home checks it first (orders/bombing.py, orders/rebase.py: the bombers'
  technology for industrial bombing, the 4 fuel of tactical bombing, the range there,
  the round and back; a rebase's doubled range), and a refusal is the answer;
- then the order's own execute() and the step's flight (phase4_air.fly_pending for a
  raid, phase4_rebase.fly_pending for a rebase) fly it on a stand-in map: the start (the
  attacker's), the places between in the order flown over (the defender's: "on the way
  1", ...), each with the defender's fighters and AA guns given, and the goal: a raid's
  target (the defender's, with the fighters and AA guns defending it, a city or an
  industrial complex as the aim needs) or a rebase's destination (the attacker's). A
  raid's way home is the way out, or a shorter one to friendly land (`home`). The
  engine finds the way, spends the fuel, fires the guns, fights the air combats and
  counts the damage.

What a player asks is read from the flight's event (air-raid; flight-intercepted) and
its rail group (the rebasing planes that arrive in Phase 7): how many planes get
through (the chance of each count, and each plane's chance), those downed by the AA
guns and in the air, those turned back short of fuel or sent home by BREAK OFF, the
interceptors downed, and for a raid the damage: resources (1D10 a bomber through, never
more than the target nation has saved), manpower (1 a bomber), tactical strike points
(1 a plane; three or more give attacking infantry +1 that turn).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from moderator.engine import phase4_air, phase4_rebase
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.odds import _levels, make_units
from moderator.engine.odds_on_the_way import Guarded
from moderator.engine.orders import bombing, rebase
from moderator.engine.orders.base import OrderRule, OrderT
from moderator.engine.problems import Problem
from moderator.engine.state import AIR_UNITS, GameState, NationState, Unit
from moderator.orders.messages import message
from moderator.orders.model import AirRetreat, Bombing, LetPass, Order, Rebase, UnitCount
from moderator.world.model import LAND, Territory, World
from moderator.world.scenario_model import Scenario

SAMPLES = 2000
SEED = "moderator-flight-odds"
PROGRESS_EVERY = 100
START, TARGET, DEST = "the start", "the target", "the destination"
AIMS = ("industry", "city", "tactical")
PLENTY = 10**6  # saved resources or manpower when not told: the damage is never capped


@dataclass
class FlightOdds:
    """The distribution of a raid's or a rebase's end over `samples` flights.

    through: planes through -> chance (a raid: over the target, bombing; a rebase:
    arriving at the destination in Phase 7). The expected planes downed by AA guns and in
    air combat (lost: both), turned back short of fuel, broken off (BREAK OFF AIR COMBAT;
    a rebase's turned back and broken off planes go back to the start), interceptors
    downed; a raid's expected damage (resources, manpower or strike points) and the chance
    of three or more strike points (tactical: attacking infantry +1)."""

    mission: str  # "industry", "city", "tactical" or "rebase"
    planes: int
    samples: int
    through: dict[int, float] = field(default_factory=dict)
    aa_downed: float = 0.0
    lost: float = 0.0
    turned_back: float = 0.0
    broke_off: float = 0.0
    interceptors_lost: float = 0.0
    rounds: float = 0.0  # air-combat rounds the flight fought, on the way and over the target
    damage: float = 0.0
    strike_bonus: float = 0.0

    @property
    def expected_through(self) -> float:
        return sum(k * p for k, p in self.through.items())

    @property
    def each_through(self) -> float:
        """A plane's chance of getting through (the planes are alike but for their kinds)."""
        return self.expected_through / self.planes if self.planes else 0.0

    @property
    def all_through(self) -> float:
        return self.through.get(self.planes, 0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "mission": self.mission, "planes": self.planes, "method": "simulated", "samples": self.samples,
            "through": {str(k): p for k, p in sorted(self.through.items())}, "expected_through": self.expected_through,
            "each_through": self.each_through, "all_through": self.all_through, "aa_downed": self.aa_downed,
            "lost": self.lost, "turned_back": self.turned_back, "broke_off": self.broke_off,
            "interceptors_lost": self.interceptors_lost, "rounds": self.rounds, "damage": self.damage,
            "strike_bonus": self.strike_bonus,
        }


def stand_in(attacker: str, defender: str, way: Sequence[Guarded], between: int, goal: str,
             home: int | None, aim: str = "") -> tuple[World, dict[str, str]]:
    """The stand-in map: START - "on the way 1" - ... - "on the way `between`" - goal, land
    all of it, the places between and a raid's target the defender's, the start and a
    rebase's destination the attacker's; with `home` shorter than the way back, a way
    home of that many moves from the target to friendly land ("way home 1", ..., "haven").
    Returns the world and who holds each place."""
    places = [START, *(f"on the way {i + 1}" for i in range(between)), goal]
    holder = {p: defender for p in places[1:-1]}
    holder[START] = attacker
    holder[goal] = attacker if goal == DEST else defender
    links = list(zip(places, places[1:], strict=False))
    if home is not None and home < between + 1:
        back = [goal, *(f"way home {i + 1}" for i in range(home - 1)), "haven"]
        links += list(zip(back, back[1:], strict=False))
        holder.update({p: defender for p in back[1:-1]})
        holder["haven"] = attacker
    territories = {p: Territory(p, LAND, "", owner=holder[p], city=(p == goal and aim == "city"),
                                industry=(p == goal and aim == "industry")) for p in holder}
    near: dict[str, set[str]] = {p: set() for p in holder}
    for a, b in links:
        near[a].add(b)
        near[b].add(a)
    return World(territories, {p: frozenset(n) for p, n in near.items()}), holder


def position(scenario: Scenario, tech: Mapping[str, Mapping[str, int]], attacker: str, defender: str,
             planes: Sequence[Unit], holder: Mapping[str, str], guards: Mapping[str, Guarded], radar: str | None,
             saved: int, manpower: int) -> GameState:
    """The two nations at war, the places held and incorporated, the planes at the start,
    the defender's fighters and AA guns (and a radar) where given."""
    state = _levels(scenario, {n: tech.get(n, {}) for n in (attacker, defender)})  # the start levels, raised
    for nation, enemy in ((attacker, defender), (defender, attacker)):
        state.nations.setdefault(nation, NationState(nation)).at_war_with = [enemy]
    state.nations[defender].saved, state.nations[defender].manpower_limit = saved, manpower
    for place, nation in holder.items():
        state.control[place] = nation
        state.incorporated[place] = 1
    state.units = [Unit(u.id, u.nation, u.kind, START) for u in planes]
    for p, (place, g) in enumerate(sorted(guards.items())):
        state.units += [Unit(f"guard-{p:02d}-{n:03d}", defender, "fighter", place) for n in range(g.fighters)]
        state.units += [Unit(f"gun-{p:02d}-{n:03d}", defender, "aa", place) for n in range(g.aa)]
    if radar:
        state.units.append(Unit("radar-00", defender, "radar", radar))
    return state


def flight_odds(
    scenario: Scenario, attacker: str, attack: Mapping[str, int], defender: str, *, mission: str,
    defend: Mapping[str, int] | None = None, distance: int = 1, home: int | None = None,
    way: Sequence[Guarded] = (), tech: Mapping[str, Mapping[str, int]] | None = None,
    let_through: bool = False, break_off: Sequence[tuple[str, int]] = (), radar: bool = False,
    saved: int | None = None, manpower: int | None = None, samples: int = SAMPLES, seed: str = SEED,
    progress: Callable[[int, int], None] | None = None,
) -> FlightOdds:
    """The odds of `attack` (aircraft, kind -> count) of `attacker` flying `mission`: a raid
    ("industry", "city", "tactical") on a target of `defender` guarded by `defend`
    (fighters and AA guns, kind -> count), or a "rebase" to friendly land over the
    defender's. distance: the moves to get there (1: next door; the places between are
    distance - 1, the first of them guarded as `way` says, in order); home: a raid's moves
    from the target back to friendly land (default: the way out). let_through: the
    defender's fighters let the planes go (LET THROUGH, at the goal and on the way);
    break_off: the attacker's BREAK OFF AIR COMBAT conditions ("rounds" | "losses" |
    "kills", n); radar: a radar of the defender at the target (its fighters' foes -1);
    saved / manpower: what the target nation has to lose (default: plenty). A ValueError
    when the order's home refuses the flight (its message)."""
    if mission not in (*AIMS, "rebase"):
        raise ValueError(f"a flight is a raid ({', '.join(AIMS)}) or a rebase, not {mission!r}")
    if set(attack) - set(AIR_UNITS) or not attack:
        raise ValueError("raids and rebases are flown by aircraft (4.1.1, 4.1.2): --attack names fighters and bombers")
    if distance < 1 or len(way) > distance - 1:
        raise ValueError(f"{len(way)} guarded place(s) on the way need --air-distance {len(way) + 1} or more")
    if home is not None and not 1 <= home <= distance:
        raise ValueError("--home is 1 to --air-distance: the start is friendly land, --air-distance away")
    rebasing = mission == "rebase"
    goal = DEST if rebasing else TARGET
    world, holder = stand_in(attacker, defender, way, distance - 1, goal, None if rebasing else home, mission)
    guards = {f"on the way {i + 1}": g for i, g in enumerate(way) if g.fighters or g.aa}
    if not rebasing and defend:
        guards[TARGET] = Guarded(fighters=defend.get("fighter", 0), aa=defend.get("aa", 0))
    planes = make_units(attacker, attack, "a")
    base = position(scenario, tech or {}, attacker, defender, planes, holder, guards,
                    TARGET if radar and not rebasing else None, PLENTY if saved is None else saved,
                    PLENTY if manpower is None else manpower)
    units = tuple(UnitCount(kind, n) for kind, n in sorted(attack.items()))
    orders: dict[str, list[Order]] = {
        attacker: [AirRetreat(goal, kind, value) for kind, value in break_off],
        defender: [LetPass(p) for p in sorted(holder) if holder[p] == defender] if let_through else []}
    fly = (order_flight(attacker, Rebase(units, START, DEST), rebase.RULE, phase4_rebase.fly_pending) if rebasing
           else order_flight(attacker, Bombing(mission, units, START, TARGET), bombing.RULE, phase4_air.fly_pending))
    refused = fly(TurnContext(base.copy(), orders, world, scenario), True)
    if refused is not None:
        raise ValueError(message(refused))
    odds = FlightOdds(mission, len(planes), samples)
    w = 1.0 / samples
    for i in range(samples):
        ctx = TurnContext(base.copy(), {n: list(o) for n, o in orders.items()}, world, scenario,
                          dice_root=Dice(f"{seed}-{i}", 1))
        fly(ctx, False)
        tally(odds, ctx, rebasing, w)
        if progress and (i + 1) % PROGRESS_EVERY == 0:
            progress(i + 1, samples)
    return odds


Fly = Callable[[TurnContext, bool], Problem | None]  # (the turn, only check) -> the order's refusal


def order_flight(attacker: str, order: OrderT, rule: OrderRule[OrderT], step: Callable[[TurnContext], None]) -> Fly:
    """An air order, BOMB or REBASE: its home's check (`rule`), or its execute() and then
    its step's flights (4.1.1's raids, phase4_air.fly_pending; 4.1.2's, phase4_rebase's)."""
    def fly(ctx: TurnContext, check: bool) -> Problem | None:
        if check:
            return rule.problem(ctx, attacker, order)
        rule.execute(ctx, attacker, 0, order)
        step(ctx)
        return None
    return fly


def tally(odds: FlightOdds, ctx: TurnContext, rebasing: bool, w: float) -> None:
    """One flight's end, from what the engine told: the raid's event, or a rebase's
    interception event (none when nothing met it) and its rail group."""
    code = "flight-intercepted" if rebasing else "air-raid"
    told = next((e.args for e in ctx.events if e.code == code), None)
    if rebasing:
        through = sum(len(g.unit_ids) for g in ctx.rail)
    else:
        assert told is not None  # a raid always tells its end
        through = sum(told["through"].values())
        odds.damage += w * told["damage"]
        odds.strike_bonus += w * (told["strike_points"] >= phase4_air.STRIKES_FOR_BONUS)
    odds.through[through] = odds.through.get(through, 0.0) + w
    if told is not None:
        lost, back = sum(told["lost"].values()), sum(told["turned_back"].values())
        odds.aa_downed += w * told["aa_hits"]
        odds.lost += w * lost
        odds.turned_back += w * back
        odds.broke_off += w * (odds.planes - through - lost - back)
        odds.interceptors_lost += w * sum(told["interceptors_lost"].values())
        odds.rounds += w * told["rounds"]
