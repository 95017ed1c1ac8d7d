"""Exact odds of a land battle (Phase 4.6), for players and the moderator (`moderator odds`).

The battle is a Markov chain whose state is the set of fighters each side still has.
It is walked forward round by round, exactly as combat_land.fight() plays it:

- the dice one side rolls in a round are found by running combat_land.roll_side() itself
  with a probing Dice that records each "roll <= value" comparison and never hits, so
  unit values, strait penalties (Straits), unsupported artillery (Artillery), mountain
  infantry and Gibraltar's three dice (terrain.py) and the city's defense roll (Cities)
  can never drift from the engine;
- casualties are taken by combat_land.take_casualties() on a copy of the side: cheapest
  first, the coastal defender (Straits) and the fictive unit (multinational note after
  4.6.1) first, the multinational sharing of hits and any casualty orders included.
  The engine's casualty choice is a function of (side, hits) but for one thing: an odd
  hit between allies of equal shares goes by lot (casualty_shares.share), and every_lot
  follows each way the lot can fall with its chance. So the chain is exact for
  multinational battles too: the state simply remembers which fighters are left, not
  only how many;
- before the first round, the defenders' AA guns fire once at the attacking aircraft
  (combat_land.aa_fire, probed the same way; hits taken by combat_land.take_aircraft);
  Improved AA guns again in every round (combat_land.aa_round_fire), their hits taken
  before the round's other casualties, as the engine takes them;
- then the air combat (4.5) when the defenders have fighters: its sides are built by
  combat_land.air_battle for each state the AA guns leave, rolled and hit by the same
  roll_side/take_casualties in air mode, round by round, the air rounds fought (fuel)
  and whether the air combat's fictive units still stand being part of the state;
  the attackers' fuel then counts the air rounds (combat_land.leaving);
- trench and strait penalties, tanks at a trench, the all-air -3 (Fighters) come from
  combat_land.value_of with the battle's Front, as in the engine;
- after each round: aircraft out of fuel leave the battle (combat_land.leaving; the state
  remembers who left, so they are not counted as losses); an attack with only artillery
  left ceases (Artillery); a withdrawal condition (Phase 4.6 "Conditional orders",
  combat_orders.withdrawal) or `max_rounds` ends it; the engine's safety limit
  combat_land.MAX_ROUNDS applies.

The only approximation: states whose probability falls below PRUNE are dropped (their
total is reported as `pruned`, normally < 1e-11) so long battles stay fast; a round's
pair of hit counts below PRUNE is dropped before its state is even looked up (_step:
the long tails of 40 dice are most of the pairs).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from moderator.engine import combat_land, combat_orders, fuel, technology
from moderator.engine.combat_land import Battle, Fighter, Front, Side
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.phase4_land import DISENGAGING
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, GameState, NationState, Unit
from moderator.orders.model import CombatCondition
from moderator.world.model import World
from moderator.world.scenario_model import Scenario, UnitStats

ALL_KINDS = (*LAND_UNITS, *AIR_UNITS, *SEA_UNITS)
PRUNE = 1e-16  # drop a state whose probability is below this (tracked in Odds.pruned)
# The states the exact walk may visit before it gives way to rolling the battle
# (odds_sampled.py): some 3 s. 30 infantry, 10 artillery and 5 fighters against 30
# infantry and 5 artillery (make bench) visit about 2,500; adding 10 more infantry, 5
# artillery, 5 tanks a side and 3 fighters to the defence, some 92,000 (about 12 s).
STEP_BUDGET = 20_000


class TooLarge(Exception):
    """The battle's exact walk would visit more than its budget of states."""
T = TypeVar("T")
R = TypeVar("R")
OUTCOMES = ("captured", "cleared", "both_destroyed", "repulsed", "stopped")


@dataclass
class Odds:
    """The distribution of a battle's end. Probabilities of OUTCOMES sum to 1 - pruned.

    captured: no defender left and an infantry/tank survivor takes the land (4.4);
    cleared: no defender left, but only units that cannot capture survive (artillery,
    aircraft, also those that left the battle for fuel);
    both_destroyed: neither side has anything left;
    repulsed: every attacker destroyed, defenders stand;
    stopped: both still stand but the attack ended: artillery alone, aircraft gone home
    for fuel, a withdrawal condition, max_rounds, or the engine's round limit.
    """

    attackers: int  # real units at the start
    defenders: int
    outcomes: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0.0))
    attacker_losses: float = 0.0  # expected real units lost
    defender_losses: float = 0.0
    rounds: dict[int, float] = field(default_factory=dict)  # rounds fought -> probability
    pruned: float = 0.0
    # Apart from the outcome: the expected attacking units still in the battle at its end
    # (those holding the field), aircraft that left it alive for their fuel (flown home:
    # they count in no outcome as holding the field), defenders that disengaged (4.6) or
    # supported one round from next door and went home.
    attackers_left: float = 0.0
    flown_home: float = 0.0
    defenders_escaped: float = 0.0
    samples: int = 0  # 0: exact; else the battles the engine fought for these figures (odds_sampled.py)

    @property
    def attacker_wins(self) -> float:
        return self.outcomes["captured"] + self.outcomes["cleared"]

    @property
    def defender_holds(self) -> float:
        return self.outcomes["repulsed"] + self.outcomes["stopped"]

    @property
    def expected_rounds(self) -> float:
        return sum(r * p for r, p in self.rounds.items())

    def to_json(self) -> dict[str, Any]:
        return {
            "attackers": self.attackers, "defenders": self.defenders,
            "outcomes": dict(self.outcomes),
            "attacker_wins": self.attacker_wins, "defender_holds": self.defender_holds,
            "attacker_losses": self.attacker_losses, "defender_losses": self.defender_losses,
            "rounds": {str(r): p for r, p in sorted(self.rounds.items())},
            "expected_rounds": self.expected_rounds, "pruned": self.pruned,
            "attackers_left": self.attackers_left, "flown_home": self.flown_home,
            "defenders_escaped": self.defenders_escaped,
            "method": "simulated" if self.samples else "exact", "samples": self.samples,
        }


class Steady(TurnContext):
    """The stand-in turn of the odds, with each unit's values (engine/technology.py) worked
    out once (`known`, shared by every battle rolled for one answer): the engine asks them
    for every unit at every die and every hit, and nothing in a battle changes them (the
    levels are the nations' and the units' own, fixed before it). Without it the engine's
    own lookup is nine tenths of the cost of a rolled naval battle, a third of a land one."""

    known: dict[tuple[str, str, str | None], UnitStats | None]

    def stats(self, nid: str, kind: str, unit: Unit | None = None) -> UnitStats | None:
        key = (nid, kind, unit.id if unit is not None else None)
        if key not in self.known:
            self.known[key] = super().stats(nid, kind, unit)
        return self.known[key]


class _Threshold(int):
    """A die that shows "no hit" but remembers the value it was compared with."""

    seen: list[int]

    def __new__(cls, seen: list[int]) -> _Threshold:
        die = super().__new__(cls, 11)  # 11 is above any value: never a hit
        die.seen = seen
        return die

    def __le__(self, other: int) -> bool:
        self.seen.append(int(other))
        return False


class _ProbeDice(Dice):
    """Dice for reading roll_side(): every d10 is a _Threshold writing into `seen`."""

    def __init__(self) -> None:
        super().__init__("odds-probe", 0)
        self.seen: list[int] = []
        self.path: list[int] = []  # every_lot: the options the lots take, in the order drawn
        self.sizes: list[int] = []

    def for_step(self, section: str) -> Dice:
        return self  # every step's rolls are read the same way

    def d10(self, purpose: str) -> int:
        return _Threshold(self.seen)

    def pick(self, options: Sequence[T], purpose: str) -> T:
        """A lot (the odd hit between equal allies, casualty_shares.share): the option
        `path` says, the first beyond it; each lot's number of options noted in `sizes`."""
        i = len(self.sizes)
        self.sizes.append(len(options))
        return options[self.path[i] if i < len(self.path) else 0]


def every_lot(probe: _ProbeDice, run: Callable[[], R]) -> list[tuple[float, R]]:
    """run() once for every way the lots it draws can fall, each result with its chance:
    who of equal allies takes an odd hit changes what is left (an infantry or an artillery),
    so the odds follow each branch as the engine's lot would, one in len(options)."""
    out: list[tuple[float, R]] = []
    path: list[int] = []
    while True:
        probe.path, probe.sizes = path, []
        result = run()
        sizes, chance = probe.sizes, 1.0
        for size in sizes:
            chance /= size
        out.append((chance, result))
        path = [path[i] if i < len(path) else 0 for i in range(len(sizes))]
        while path and path[-1] + 1 >= sizes[len(path) - 1]:
            path.pop()
        if not path:
            probe.path, probe.sizes = [], []
            return out
        path[-1] += 1


def _merged(branches: Sequence[tuple[float, int]]) -> dict[int, float]:
    out: dict[int, float] = {}
    for chance, state in branches:
        out[state] = out.get(state, 0.0) + chance
    return out


def _pmf(thresholds: Sequence[int]) -> list[float]:
    """Distribution of the number of hits when die i hits on a roll <= thresholds[i]."""
    dist = [1.0]
    for t in thresholds:
        p = min(max(t, 0), 10) / 10
        nxt = [0.0] * (len(dist) + 1)
        for k, x in enumerate(dist):
            nxt[k] += x * (1 - p)
            nxt[k + 1] += x * p
        dist = nxt
    while len(dist) > 1 and dist[-1] == 0.0:
        dist.pop()
    return dist


class _Chain:
    """Side states interned as small ints; hit distributions and casualties memoised."""

    def __init__(self, ctx: TurnContext, battle: Battle, probe: _ProbeDice) -> None:
        self.ctx, self.battle, self.probe = ctx, battle, probe
        self.pool = {"attacker": list(battle.attack.fighters), "defender": list(battle.defend.fighters)}
        self.where = {role: {id(f): i for i, f in enumerate(fs)} for role, fs in self.pool.items()}
        Key = tuple[tuple[int, ...], tuple[int, ...]]  # (fighters in the battle, fighters that left it)
        self.keys: dict[str, list[Key]] = {"attacker": [], "defender": []}
        self.ids: dict[str, dict[Key, int]] = {"attacker": {}, "defender": {}}
        self.hits: dict[tuple[str, int], list[float]] = {}
        self.aa_hits: dict[tuple[int, int], list[float]] = {}
        self.after: dict[tuple[str, int, int], dict[int, float]] = {}
        self.gone: dict[tuple[int, int, int], int] = {}
        self.gone_d: dict[tuple[str, int, int], int] = {}
        self.escaped: dict[tuple[int, int, int], int] = {}
        self.start = {role: self.intern(role, (tuple(range(len(fs))), ())) for role, fs in self.pool.items()}
        # real units that can be lost (not artillery supporting from next door)
        self.start_real = {role: sum(1 for f in fs if not f.virtual and not f.support) for role, fs in self.pool.items()}

    def intern(self, role: str, key: tuple[tuple[int, ...], tuple[int, ...]]) -> int:
        if key not in self.ids[role]:
            self.ids[role][key] = len(self.keys[role])
            self.keys[role].append(key)
        return self.ids[role][key]

    def side(self, role: str, state: int) -> Side:
        return Side(role, [self.pool[role][i] for i in self.keys[role][state][0]])

    def departed(self, role: str, state: int) -> list[Fighter]:
        return [self.pool[role][i] for i in self.keys[role][state][1]]

    def hit_dist(self, role: str, state: int) -> list[float]:
        if (role, state) not in self.hits:
            self.probe.seen = []
            combat_land.roll_side(self.ctx, self.battle, self.side(role, state))
            self.hits[role, state] = _pmf(self.probe.seen)
        return self.hits[role, state]

    def hit(self, role: str, state: int, hits: int) -> dict[int, float]:
        """The side's states after taking `hits`, as the engine chooses the casualties, with
        their chances (more than one only when a lot gives an odd hit: every_lot)."""
        if hits == 0:
            return {state: 1.0}
        memo = (role, state, hits)
        if memo not in self.after:
            def run() -> int:
                side = self.side(role, state)
                combat_land.take_casualties(self.ctx, self.battle, side, hits)
                return self.intern(role, (tuple(self.where[role][id(f)] for f in side.fighters),
                                          self.keys[role][state][1]))
            self.after[memo] = _merged(every_lot(self.probe, run))
        return self.after[memo]

    def aa(self, state: int, hits: int) -> dict[int, float]:
        """The attackers after the AA guns' free roll (aircraft only), with their chances."""
        if hits == 0:
            return {state: 1.0}

        def run() -> int:
            side = self.side("attacker", state)
            combat_land.take_aircraft(self.ctx, self.battle, side, hits)
            return self.intern("attacker", (tuple(self.where["attacker"][id(f)] for f in side.fighters),
                                            self.keys["attacker"][state][1]))
        return _merged(every_lot(self.probe, run))

    def aa_round(self, a: int, d: int, rnd: int) -> list[float]:
        """The hits of the defenders' Improved AA guns in round `rnd` (combat_land.aa_round_fire, probed;
        the same in every round)."""
        if (a, d) not in self.aa_hits:
            self.probe.seen = []
            combat_land.aa_round_fire(self.ctx, self.battle.territory, rnd, self.side("attacker", a),
                                      self.side("defender", d))
            self.aa_hits[a, d] = _pmf(self.probe.seen)
        return self.aa_hits[a, d]

    def depart(self, state: int, rnd: int, air_rounds: int = 0) -> int:
        """The attackers after round `rnd`, those out of fuel gone home (fuel spent in
        `air_rounds` of air combat counted)."""
        if (state, rnd, air_rounds) not in self.gone:
            alive, left = self.keys["attacker"][state]
            gone = combat_land.leaving(self.side("attacker", state), rnd, air_rounds)
            out = {self.where["attacker"][id(f)] for f in gone}
            self.gone[state, rnd, air_rounds] = state if not out else self.intern(
                "attacker", (tuple(i for i in alive if i not in out), tuple(sorted((*left, *out)))))
        return self.gone[state, rnd, air_rounds]

    def depart_defenders(self, state: int, rnd: int) -> int:
        """The defenders after round `rnd`: artillery supporting from a home that is itself
        attacked goes home after its one round (combat_land.fight_rounds: depart)."""
        if ("d", state, rnd) not in self.gone_d:
            alive, left = self.keys["defender"][state]
            out = {self.where["defender"][id(f)] for f in combat_land.leaving(self.side("defender", state), rnd)}
            self.gone_d["d", state, rnd] = state if not out else self.intern(
                "defender", (tuple(i for i in alive if i not in out), tuple(sorted((*left, *out)))))
        return self.gone_d["d", state, rnd]

    def lost_by(self, role: str, state: int) -> dict[str, dict[str, int]]:
        """Real units each nation of the side lost, as Side.losses counts them."""
        alive, left = self.keys[role][state]
        kept = {*alive, *left}
        out: dict[str, dict[str, int]] = {}
        for i, f in enumerate(self.pool[role]):
            if i not in kept and not f.virtual and not f.support:
                out.setdefault(f.nation, {})
                out[f.nation][f.kind] = out[f.nation].get(f.kind, 0) + 1
        return out

    def disengage(self, a: int, d: int, rnd: int) -> int:
        """The defenders after their conditions are read (4.6), by combat_land.disengage
        itself on the battle in state (a, d): those that disengage leave it alive."""
        if not self.battle.orders.defending:
            return d
        if (a, d, rnd) not in self.escaped:
            att, dfn = self.side("attacker", a), self.side("defender", d)
            att.losses, dfn.losses = self.lost_by("attacker", a), self.lost_by("defender", d)
            now = dataclasses.replace(self.battle, attack=att, defend=dfn, rounds=rnd, disengaged=[],
                                      disengaged_by={})
            combat_land.disengage(now)
            alive, left = self.keys["defender"][d]
            out = {self.where["defender"][id(f)] for f in now.disengaged}
            self.escaped[a, d, rnd] = d if not out else self.intern(
                "defender", (tuple(i for i in alive if i not in out), tuple(sorted((*left, *out)))))
        return self.escaped[a, d, rnd]

    def grounded(self, state: int) -> int:
        """The attackers after the air combat, the aircraft that fight no ground round
        (behind a super trench) gone home (combat_land.air_combat)."""
        alive, left = self.keys["attacker"][state]
        out = {self.where["attacker"][id(f)] for f in combat_land.air_only(self.side("attacker", state))}
        if not out:
            return state
        return self.intern("attacker", (tuple(i for i in alive if i not in out), tuple(sorted((*left, *out)))))

    def without(self, role: str, state: int, lost: Collection[int]) -> int:
        """The side's state with the fighters `lost` (ids of pool fighters) dead."""
        alive, left = self.keys[role][state]
        return self.intern(role, (tuple(i for i in alive if id(self.pool[role][i]) not in lost), left))

    def losses(self, role: str, state: int) -> int:
        """Real units lost: not those that left the battle alive (fuel, disengaging)."""
        left = sum(1 for i in self.keys[role][state][1] if not self.pool[role][i].support)
        return self.start_real[role] - len(self.side(role, state).targets()) - left


def battle_odds(
    scenario: Scenario, territory: str, attacker: str, attackers: Sequence[Unit], defenders: Sequence[Unit],
    *, holder: str | None = None, city: bool = False, across: Collection[str] = frozenset(),
    orders: combat_orders.BattleOrders | None = None, max_rounds: int | None = None,
    world: World | None = None, front: Front | None = None, tech: Mapping[str, Mapping[str, int]] | None = None,
    budget: int | None = None, walking: Callable[[int, int], None] | None = None,
) -> Odds:
    """Exact odds of combat_land.fight(ctx, territory, ..., attacker, attackers, defenders, across, orders).

    holder: the territory's controller (default: the first defender's nation); it owns the
    city (when `city`) and the coastal defender (when any attacker is in `across`).
    max_rounds: the attacker withdraws after that many rounds (a "rounds" condition).
    front: the trenches crossed, the rounds aircraft may fight (phase4_land works them
    out on the map); `across` is merged into it.
    tech: nation -> technology -> level, its units' levels (values, fuel, the fighter table).
    budget: raise TooLarge once the walk has visited more states than this (None: no limit).
    walking: told (states visited, budget) as the walk goes, for a progress bar: the budget
    is only its most, so the bar runs towards it and the walk may end well before.
    """
    holder = holder or (defenders[0].nation if defenders else None)
    probe = _ProbeDice()  # the context only serves unit statistics and this probe
    ctx = TurnContext(_levels(scenario, tech or {}), {}, world or World({}, {}), scenario, dice_root=probe)
    front = front or Front()
    front = dataclasses.replace(front, across=front.across | frozenset(across))
    battle = combat_land.setup(None, territory, [], attacker, attackers, defenders, holder, city, front, orders)
    chain = _Chain(ctx, battle, probe)
    a0, d0 = chain.start["attacker"], chain.start["defender"]
    limit = min(max_rounds or combat_land.MAX_ROUNDS, combat_land.MAX_ROUNDS)
    odds = Odds(chain.start_real["attacker"], chain.start_real["defender"])
    probe.seen = []
    combat_land.aa_fire(ctx, battle)  # the AA guns' free roll, read by the probe
    live: dict[tuple[int, int], float] = {}
    for hits, p in enumerate(_pmf(probe.seen)):
        if p:
            for a1, q in chain.aa(a0, hits).items():
                live[a1, d0] = live.get((a1, d0), 0.0) + p * q
    ground: dict[tuple[int, int, int], float] = {}
    for (a, d), mass in sorted(live.items()):
        _air(chain, battle, a, d, mass, ground, odds)
    for (a, d, _k), mass in sorted(ground.items()):
        if _over(chain, battle, a, d, 0, limit, before_first=True):
            _finish(chain, odds, a, d, 0, mass)
    going = {key: v for key, v in ground.items() if not _over(chain, battle, *key[:2], 0, limit, before_first=True)}
    if not going:
        return odds
    visited = 0
    for rnd in range(1, limit + 1):
        nxt: dict[tuple[int, int, int], float] = {}
        visited += len(going)
        if budget is not None and visited > budget:
            raise TooLarge(f"more than {budget} states")
        if walking and budget:
            walking(visited, budget)
        for (a, d, k), mass in going.items():
            odds.pruned += _step(chain, a, d, k, mass, nxt, rnd)
        going = {}
        for (a, d, k), mass in sorted(nxt.items()):
            if not _over(chain, battle, a, d, rnd, limit):
                d = chain.disengage(a, d, rnd)  # 4.6: the defenders' conditions, after the attackers'
                if not chain.side("defender", d).standing():
                    _finish(chain, odds, a, d, rnd, mass)
                    continue
            if _over(chain, battle, a, d, rnd, limit):
                _finish(chain, odds, a, d, rnd, mass)
            elif mass < PRUNE:
                odds.pruned += mass
            else:
                going[a, d, k] = going.get((a, d, k), 0.0) + mass
        if not going:
            break
    return odds


def _levels(scenario: Scenario, tech: Mapping[str, Mapping[str, int]]) -> GameState:
    """A state whose nations have these technology levels, their deployed units too
    (technology.UPGRADED: the levels the engine reads for a unit already on the map)."""
    state = GameState("odds", scenario.id, 1)
    for nation in tech:
        known = _known(scenario, nation, tech)
        state.nations[nation] = NationState(nation, tech=dict(known), flags={
            technology.UPGRADED: {kind: dict(known) for kind in ALL_KINDS}})
    return state


def _air(chain: _Chain, battle: Battle, a: int, d: int, mass: float,
         out: dict[tuple[int, int, int], float], odds: Odds) -> None:
    """The air combat (4.5) from the state the AA guns left, as combat_land.air_combat
    fights it; adds to `out` the states the ground rounds start from, with the air
    rounds fought (their fuel is spent)."""
    start = dataclasses.replace(battle, attack=chain.side("attacker", a), defend=chain.side("defender", d))
    air = combat_land.air_battle(chain.ctx, start)
    if air is None:
        key = (chain.grounded(a), d, 0)
        out[key] = out.get(key, 0.0) + mass
        return
    fictive = {role: next((f for f in side.fighters if f.virtual), None)
               for role, side in (("attacker", air.attack), ("defender", air.defend))}
    ctx = chain.ctx
    Key = tuple[int, int, int, bool, bool]  # (attackers, defenders, air rounds, air fictive units standing)
    live: dict[Key, float] = {(a, d, 0, fictive["attacker"] is not None, fictive["defender"] is not None): mass}
    memo: dict[tuple[str, int, int, bool], Side] = {}

    def side(role: str, state: int, k: int, virtual: bool) -> Side:
        """The side's planes still in the air combat after k rounds."""
        if (role, state, k, virtual) not in memo:
            main = chain.side(role, state)
            if role == "attacker":
                planes = [f for f in main.real() if f.kind in combat_land.AIR]
            else:
                planes = [f for f in combat_land.interceptors(main, battle.orders.let_pass)
                          if (stats := ctx.stats(f.nation, f.kind, f.unit)) is not None and stats.fuel > k]
            mark = fictive[role]
            memo[role, state, k, virtual] = Side(role, [mark, *planes] if virtual and mark is not None else planes)
        return memo[role, state, k, virtual]

    def dist(s: Side) -> list[float]:
        chain.probe.seen = []
        combat_land.roll_side(ctx, air, s)
        return _pmf(chain.probe.seen)

    def struck(role: str, state: int, s: Side, hits: int) -> list[tuple[float, tuple[int, bool]]]:
        def run() -> tuple[int, bool]:
            copy = Side(role, list(s.fighters))
            combat_land.take_casualties(ctx, air, copy, hits)
            kept = {id(f) for f in copy.fighters}
            lost = {id(f) for f in s.fighters if not f.virtual and id(f) not in kept}
            return chain.without(role, state, lost), any(f.virtual for f in copy.fighters)
        return every_lot(chain.probe, run)

    def lost(role: str, state: int, since: int) -> dict[str, dict[str, int]]:
        """Each nation's real units lost since state `since` (the air combat's own losses)."""
        now, before = chain.lost_by(role, state), chain.lost_by(role, since)
        return {n: {"aircraft": sum(v.values()) - sum(before.get(n, {}).values())} for n, v in now.items()}

    broken: dict[tuple[int, int, int], int] = {}

    def break_off(sa: int, sd: int, k: int) -> int:
        """The attackers after air round k, those whose BREAK OFF condition is met gone home
        (combat_land.break_off itself, on the air combat in this state)."""
        if not battle.orders.air_retreat:
            return sa
        if (sa, sd, k) not in broken:
            att, dfn = side("attacker", sa, k, False), side("defender", sd, k, False)
            broken[sa, sd, k] = sa
            if att.real() and dfn.real():
                now = dataclasses.replace(battle, attack=chain.side("attacker", sa), departed=[], spent={},
                                          air_retreated={})
                combat_land.break_off(now, dataclasses.replace(
                    air, attack=Side("attacker", list(att.real()), lost("attacker", sa, a)),
                    defend=Side("defender", list(dfn.real()), lost("defender", sd, d)), rounds=k))
                out_ = {chain.where["attacker"][id(f)] for f in now.departed}
                if out_:
                    alive, left = chain.keys["attacker"][sa]
                    broken[sa, sd, k] = chain.intern("attacker", (tuple(i for i in alive if i not in out_),
                                                                  tuple(sorted((*left, *out_)))))
        return broken[sa, sd, k]

    while live:
        nxt: dict[Key, float] = {}
        for (sa, sd, k, va, vd), m in sorted(live.items()):
            att, dfn = side("attacker", sa, k, va), side("defender", sd, k, vd)
            if not att.real() or not dfn.real() or k >= combat_land.MAX_ROUNDS:
                done = (chain.grounded(sa), sd, k)
                out[done] = out.get(done, 0.0) + m
                continue
            for ha, x in enumerate(dist(att)):
                if x == 0.0:
                    continue
                for q, (sd2, vd2) in struck("defender", sd, dfn, ha):
                    for hd, y in enumerate(dist(dfn)):
                        if y == 0.0:
                            continue
                        for r, (sa2, va2) in struck("attacker", sa, att, hd):
                            then = (break_off(chain.depart(sa2, 0, k + 1), sd2, k + 1), sd2, k + 1, va2, vd2)
                            nxt[then] = nxt.get(then, 0.0) + m * x * y * q * r
        live = {}
        for then, m in nxt.items():
            if m < PRUNE:
                odds.pruned += m
            else:
                live[then] = m


def _step(chain: _Chain, a: int, d: int, k: int, mass: float, out: dict[tuple[int, int, int], float],
          rnd: int) -> float:
    """One round from (a, d): both sides fire at once, then each takes its casualties;
    then the attackers out of fuel leave (k: the air rounds their fuel paid for first).
    Returns the mass of the outcomes below PRUNE, dropped as they arise."""
    # The attackers' state after each number of hits does not depend on the defenders' fate:
    # worked out once per round and state, not once per pair of hit counts.
    # Hit counts leading to the same state are merged first (more hits than units, say):
    # the pairs below are the bulk of the time.
    struck: dict[int, float] = {}
    for ha, z in enumerate(chain.aa_round(a, d, rnd)):  # Improved AA: aircraft first
        if z == 0.0:
            continue
        for hd, y in enumerate(chain.hit_dist("defender", d)):
            if y != 0.0:
                for a1, q in chain.aa(a, ha).items():
                    for a3, r in chain.hit("attacker", a1, hd).items():
                        a2 = chain.depart(a3, rnd, k)
                        struck[a2] = struck.get(a2, 0.0) + y * z * q * r
    dropped = 0.0
    weights: dict[int, float] = {}
    for ha, x in enumerate(chain.hit_dist("attacker", a)):
        weight = mass * x
        if weight < PRUNE:  # all it leads to is below PRUNE: skip its pairs
            dropped += weight
            continue
        for d1, q in chain.hit("defender", d, ha).items():
            d2 = chain.depart_defenders(d1, rnd)
            weights[d2] = weights.get(d2, 0.0) + weight * q
    for d2, weight in weights.items():
        for a2, y in struck.items():
            m = weight * y
            if m < PRUNE:
                dropped += m
                continue
            key = (a2, d2, k)
            out[key] = out.get(key, 0.0) + m
    return dropped


def _over(chain: _Chain, battle: Battle, a: int, d: int, rnd: int, limit: int, before_first: bool = False) -> bool:
    """Does the battle end in state (a, d) after round `rnd`? (combat_land.fight's loop)."""
    att, dfn = chain.side("attacker", a), chain.side("defender", d)
    if not att.real() or not dfn.standing():
        return True
    if before_first:
        return False
    if not combat_land.attack_goes_on(att):
        return True  # Artillery: an attack of artillery alone ceases
    withdrawn = combat_orders.withdrawal(battle.orders.conditions, rnd,
                                         chain.losses("attacker", a), chain.losses("defender", d))
    return withdrawn is not None or rnd >= limit


def ending(defend: Side, holding: Sequence[Fighter], home: Sequence[Fighter]) -> str:
    """The battle's end as Odds counts it (OUTCOMES), from the defenders left, the attackers
    still in the battle and those that left it alive: the exact walk (_finish) and the
    engine's battles rolled (odds_sampled.tally) read it alike."""
    if defend.standing():
        return "stopped" if holding or home else "repulsed"
    if not holding and not home:
        return "both_destroyed"
    return "captured" if any(f.kind in combat_land.CAPTURERS for f in holding) else "cleared"


def _finish(chain: _Chain, odds: Odds, a: int, d: int, rnd: int, mass: float) -> None:
    att, dfn = chain.side("attacker", a), chain.side("defender", d)
    odds.outcomes[ending(dfn, att.real(), chain.departed("attacker", a))] += mass
    odds.rounds[rnd] = odds.rounds.get(rnd, 0.0) + mass
    odds.attacker_losses += mass * chain.losses("attacker", a)
    odds.defender_losses += mass * chain.losses("defender", d)
    odds.attackers_left += mass * len(att.targets())
    odds.flown_home += mass * sum(1 for f in chain.departed("attacker", a) if f.kind in combat_land.AIR)
    odds.defenders_escaped += mass * sum(1 for f in chain.departed("defender", d) if not f.support)


def make_units(nation: str, counts: Mapping[str, int], tag: str) -> list[Unit]:
    """Stand-in units for odds: ids sort like the engine's ("{nation}-{kind}-{n}")."""
    out: list[Unit] = []
    for kind in sorted(counts):
        out.extend(Unit(f"{nation}-{kind}-{tag}{i:05d}", nation, kind, "") for i in range(counts[kind]))
    return out


def odds_for(
    scenario: Scenario, attacker: str, attack: Mapping[str, int], defender: str, defend: Mapping[str, int],
    *, territory: str = "", city: bool = False, strait: bool = False, max_rounds: int | None = None,
    world: World | None = None, trench: str | None = None, air_distance: int = 1, home: int = 1,
    beach: bool = False, strike: bool = False, support: int = 0, support_rounds: int | None = None,
    tech: Mapping[str, Mapping[str, int]] | None = None,
    disengage: Sequence[tuple[str, int]] = (), let_through: bool = False, break_off: Sequence[tuple[str, int]] = (),
    radar: bool = False, budget: int | None = None, progress: Callable[[int, int], None] | None = None,
    walking: Callable[[int, int], None] | None = None,
) -> Odds:
    """Odds of `attack` (kind -> count) of `attacker` against `defend` of `defender`,
    who holds `territory` (it only matters for special terrain, terrain.py: pass the `world`).
    The battle is set up by matchup() (its arguments explained there); max_rounds: the
    attacker withdraws after that many rounds. budget: past that many states the exact
    walk gives way to the engine's battle fought odds_sampled.SAMPLES times (`progress`
    is told how many so far); None: always exact. walking: told how the exact walk goes
    (battle_odds)."""
    if beach and max_rounds:
        raise ValueError("beach landers cannot withdraw (4.6.1): leave out the rounds")
    mu = matchup(scenario, attacker, attack, defender, defend, territory=territory, strait=strait, trench=trench,
                 air_distance=air_distance, home=home, beach=beach, strike=strike, support=support,
                 support_rounds=support_rounds, tech=tech, disengage=disengage, let_through=let_through,
                 break_off=break_off, radar=radar)
    try:
        return battle_odds(scenario, territory, attacker, mu.attackers, mu.defenders, holder=defender, city=city,
                           max_rounds=max_rounds, world=world, front=mu.front, tech=mu.tech, orders=mu.orders,
                           budget=budget, walking=walking)
    except TooLarge:
        if walking and budget:
            walking(budget, budget)  # the walk is over: its bar closes before the rolled battles' opens
        from moderator.engine import odds_sampled  # it builds on this module: imported only when needed
        return odds_sampled.sampled_odds(scenario, territory, attacker, mu.attackers, mu.defenders, holder=defender,
                                         city=city, front=mu.front, orders=mu.orders, max_rounds=max_rounds,
                                         world=world, tech=mu.tech, progress=progress)


@dataclass(frozen=True)
class Matchup:
    """A battle as `moderator odds` describes it: the stand-in units, what their approach
    brings (combat_land.Front), the defenders' conditions and the technology levels. The
    tests fight the same with combat_land.fight() to check the odds against the engine."""

    attackers: list[Unit]
    defenders: list[Unit]
    front: Front
    orders: combat_orders.BattleOrders | None
    tech: Mapping[str, Mapping[str, int]]


def matchup(
    scenario: Scenario, attacker: str, attack: Mapping[str, int], defender: str, defend: Mapping[str, int],
    *, territory: str = "", strait: bool = False, trench: str | None = None, air_distance: int = 1, home: int = 1,
    beach: bool = False, strike: bool = False, support: int = 0, support_rounds: int | None = None,
    tech: Mapping[str, Mapping[str, int]] | None = None, disengage: Sequence[tuple[str, int]] = (),
    let_through: bool = False, break_off: Sequence[tuple[str, int]] = (), radar: bool = False,
) -> Matchup:
    """The battle of `attack` (kind -> count) of `attacker` against `defend` of `defender`.
    strait: every attacker crosses a strait (Straits). trench: "trench" or "super_trench",
    a trench of the defender facing the attackers (behind a super trench aircraft cannot
    fight, so they are left out). air_distance: the fuel the aircraft spend to get there
    (1: from next door); home: the fuel from the territory to the nearest friendly land
    where they may come down (1: friendly land next door, as the start is from next door);
    they fight the rounds their fuel pays for (fuel.rounds_paid, as the engine).
    beach: the land units land from the sea (4.6.1: -3/-4, the coastal defence unit, no
    tanks, no retreat: max_rounds must be left out). strike: three tactical strike points
    or more were scored on the territory this turn (4.1.1: attacking infantry +1). support:
    the defender's artillery next door protecting the territory (Artillery: SUPPORT; it
    fires with its attack value, is never a casualty, and the battle ends when no other
    defender is left); support_rounds=1: their own home is attacked by land from elsewhere,
    so they support one round and go home (Artillery). tech: nation -> technology -> level
    (fighter levels for the fighter table, Improved Weapons, fuel ...). disengage: the
    defender's conditions ("rounds" | "losses" | "kills", n), read after each round (4.6):
    when one is met its infantry, tanks and aircraft leave for a friendly neighbour.
    let_through: the defender's fighters let the attacking aircraft go (4.5, LET THROUGH).
    break_off: the attacker's conditions for leaving the air combat (4.5, BREAK OFF AIR
    COMBAT: "rounds" | "losses" | "kills", n). radar: a radar of the defender stands in the
    territory (Radar: the attacking aircraft have -1, in the air combat and on the ground)."""
    if beach and attack.get("tank"):
        raise ValueError("tanks may not take part in a naval invasion (4.6.1)")
    guarded = bool(defend.get("fighter"))  # Super Trench: aircraft "may only battle the aircraft there"
    if trench == combat_land.SUPER_TRENCH and not guarded:
        attack = {k: n for k, n in attack.items() if k not in combat_land.AIR}
    attackers = make_units(attacker, attack, "a")
    defenders = make_units(defender, defend, "d")
    helpers = make_units(defender, {"artillery": support}, "s") if support else []
    rounds = {u.id: support_rounds for u in helpers if support_rounds is not None}
    levels = tech or {}
    if any(u.kind in combat_land.AIR for u in attackers):
        check_home(air_distance, home)
    for u in attackers:
        stats = technology.values(scenario, attacker, u.kind, _known(scenario, attacker, levels)) \
            or scenario.stats(attacker, u.kind)
        if u.kind in combat_land.AIR:
            rounds[u.id] = fuel.rounds_paid(stats.fuel or 0, air_distance, home)  # as phase4_land.air_rounds
            if rounds[u.id] < 1:
                raise ValueError(f"a {u.kind} with {stats.fuel} fuel cannot fight {air_distance} away and fly "
                                 f"{home} to friendly land")
    front = Front(
        across=frozenset(u.id for u in attackers) if strait else frozenset(),
        trenches={u.id: trench for u in attackers} if trench else {},
        origins={u.id: "" for u in attackers},
        rounds=rounds,
        entrenched=bool(trench),
        beach=frozenset(u.id for u in attackers if u.kind not in combat_land.AIR) if beach else frozenset(),
        strike=1 if strike else 0,
        support=frozenset(u.id for u in helpers),
        air_only=frozenset(u.id for u in attackers if u.kind in combat_land.AIR)
        if trench == combat_land.SUPER_TRENCH else frozenset(),
        retreat={u.id: "a friendly neighbour" for u in defenders if u.kind in DISENGAGING} if disengage else {},
        radar=radar,
    )
    orders = combat_orders.BattleOrders(
        defending={defender: tuple(CombatCondition(territory, kind, value) for kind, value in disengage)}
        if disengage else {},
        let_pass=frozenset({defender}) if let_through else frozenset(),
        air_retreat={attacker: tuple(CombatCondition(territory, kind, value) for kind, value in break_off)}
        if break_off else {},
    ) if disengage or let_through or break_off else None
    return Matchup(attackers, [*defenders, *helpers], front, orders, levels)


def check_home(air_distance: int, home: int) -> None:
    """The way home is at least one move (the target is enemy land) and at most the way
    there: the start is friendly land the aircraft may come back to."""
    if air_distance < 1:
        raise ValueError("the aircraft fly at least 1 fuel point to the battle (--air-distance)")
    if not 1 <= home <= air_distance:
        raise ValueError(f"the way home (--home) is 1 to {air_distance} fuel points: friendly land next door to the "
                         "territory at the nearest, the start at the farthest")


def _known(scenario: Scenario, nation: str, tech: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """The nation's levels: the scenario's start, raised by `tech`."""
    start = scenario.nations.get(nation)
    return {**(dict(start.tech) if start is not None else {}), **tech.get(nation, {})}


def add_weighed(total: Any, o: Any, w: float, fields: tuple[str, ...]) -> None:
    """Add the odds `o` of one outcome of what happens before the battle (a flight on the
    way, an air combat over the ships), weighed by its chance `w`, into `total`: the
    outcomes, the rounds and the named averages. One home for the land and the sea odds."""
    for k, v in o.outcomes.items():
        total.outcomes[k] += w * v
    for r, v in o.rounds.items():
        total.rounds[r] = total.rounds.get(r, 0.0) + w * v
    for name in fields:
        setattr(total, name, getattr(total, name) + w * getattr(o, name))
