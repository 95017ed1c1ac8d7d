"""Exact odds of a naval battle (4.3) between two task forces, for `moderator odds --sea`.

The battle is a Markov chain whose state is each side's ships still afloat and the hits
each has taken (battleships and carriers take two or more: Step 5). It is walked round by
round as naval_combat.fight() plays it, with the engine's own code for every part:

- the dice a side rolls in a round are read by running naval_combat.roll() itself with the
  land odds' probing dice (engine/odds.py), so attack or defense values (who sought the
  battle, Step 4) with the ships' technology (Improved Battleships 3 rolling twice when
  attacking: naval_combat.attacks), damaged battleships not attacking, troop transports silent in the first
  round (4.2.1) and bombarding battleships at 25% in it (4.2.3) never drift from the
  engine;
- hits are taken by naval_combat.take_hits() on a copy of the side (the owner's casualty
  order, damage before sinking, the cheapest ship first, the multinational fictive ship);
- a free round (an escort's interception, attacking submarines, ships that detected
  submarines) is the same roll by the side that has it, before the first round;
- after each round: a side wiped out ends it; the attacker's "withdraw after N rounds"
  (combat_orders.withdrawal); then every side that sought the battle rolls to keep contact
  (4.2 "On all subsequent rounds of combat opposing task forces can lose contact"), its
  numbers from naval_combat.contact_factors, and the battle ends when none keeps it;
  naval_combat.MAX_ROUNDS is the engine's safety limit.

States whose probability falls below odds.PRUNE are dropped and reported as `pruned`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from moderator.engine import naval_combat, phase4_naval
from moderator.engine.combat_orders import BattleOrders, withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.gear_aboard import GEAR
from moderator.engine.naval_combat import NavalBattle, NavalSide, Ship
from moderator.engine.odds import PRUNE, _levels, _pmf, _ProbeDice, make_units
from moderator.engine.orders.ship_gear import AA_ROOM
from moderator.engine.phase4_sea import AGGRESSIVE
from moderator.engine.state import AIR_UNITS, NationState, Unit
from moderator.orders.model import CombatCondition
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

OUTCOMES = ("defenders_sunk", "attackers_sunk", "both_sunk", "contact_lost", "withdrawn", "round_limit")
ROLES = ("attacker", "defender")
Key = tuple[tuple[tuple[int, int], ...], bool]  # ((pool index, hits taken) of each ship afloat, fictive ship stands)


@dataclass
class NavalOdds:
    """The distribution of a naval battle's end; OUTCOMES sum to 1 - pruned.

    defenders_sunk / attackers_sunk / both_sunk: one side or both have no ship left;
    contact_lost: both still afloat when no side that sought the battle keeps contact (4.2);
    withdrawn: the attacker withdrew after its rounds (Step 6); round_limit: the engine's
    safety limit. Losses count ships sunk (a damaged battleship is not lost)."""

    attackers: int
    defenders: int
    outcomes: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0.0))
    attacker_losses: float = 0.0
    defender_losses: float = 0.0
    attacker_damaged: float = 0.0  # expected ships afloat with a hit taken, at the end
    defender_damaged: float = 0.0
    rounds: dict[int, float] = field(default_factory=dict)
    pruned: float = 0.0

    @property
    def expected_rounds(self) -> float:
        return sum(r * p for r, p in self.rounds.items())

    def to_json(self) -> dict[str, Any]:
        return {
            "attackers": self.attackers, "defenders": self.defenders, "outcomes": dict(self.outcomes),
            "attacker_losses": self.attacker_losses, "defender_losses": self.defender_losses,
            "attacker_damaged": self.attacker_damaged, "defender_damaged": self.defender_damaged,
            "rounds": {str(r): p for r, p in sorted(self.rounds.items())},
            "expected_rounds": self.expected_rounds, "pruned": self.pruned,
        }


class _Chain:
    """The two sides' states, rebuilt as engine NavalSides on demand; rolls and hits memoised."""

    def __init__(self, ctx: TurnContext, probe: _ProbeDice, pool: Mapping[str, list[Ship]],
                 sought: Mapping[str, bool], orders: Mapping[str, BattleOrders]) -> None:
        self.ctx, self.probe, self.pool, self.sought, self.orders = ctx, probe, pool, sought, orders
        self.index = {role: {s.unit.id: i for i, s in enumerate(ships)} for role, ships in pool.items()}
        self.battle = NavalBattle("odds", (self.side("attacker", self.start("attacker")),
                                           self.side("defender", self.start("defender"))), 0,
                                  (orders["attacker"], orders["defender"]))
        self.hits: dict[tuple[str, Key, bool], list[float]] = {}
        self.after: dict[tuple[str, Key, int, bool], Key] = {}
        self.keep: dict[tuple[Key, Key], float] = {}
        self.struck: dict[tuple[str, Key, Key, bool], list[tuple[Key, float]]] = {}

    def start(self, role: str) -> Key:
        other = "defender" if role == "attacker" else "attacker"
        nations = {s.unit.nation for s in self.pool[role]}
        fictive = len(nations) == 1 and len({s.unit.nation for s in self.pool[other]}) > 1  # as fight() sets it
        return tuple((i, s.unit.damage) for i, s in enumerate(self.pool[role])), fictive

    def side(self, role: str, key: Key) -> NavalSide:
        ships = []
        for i, damage in key[0]:
            model = self.pool[role][i]
            unit = Unit(model.unit.id, model.unit.nation, model.unit.kind, "", damage)
            ships.append(Ship(unit, model.fleet, model.mission))
        return NavalSide(ships, self.sought[role], fictive=key[1])

    def key(self, role: str, side: NavalSide) -> Key:
        return tuple(sorted((self.index[role][s.unit.id], s.unit.damage) for s in side.ships)), side.fictive

    def dist(self, role: str, key: Key, first_round: bool) -> list[float]:
        memo = (role, key, first_round)
        if memo not in self.hits:
            side = self.side(role, key)
            self.probe.seen = []
            naval_combat.roll(self.ctx, self.battle, side, side.ships, "odds", first_round)
            self.hits[memo] = _pmf(self.probe.seen)
        return self.hits[memo]

    def hit(self, role: str, key: Key, hits: int, first_round: bool) -> Key:
        memo = (role, key, hits, first_round)
        if memo not in self.after:
            side = self.side(role, key)
            naval_combat.take_hits(self.ctx, self.battle, side, self.orders[role], hits, first_round)
            self.after[memo] = self.key(role, side)
        return self.after[memo]

    def taking(self, role: str, key: Key, firing: Key, first_round: bool) -> list[tuple[Key, float]]:
        """The states the side can be in after the other side's fire in a round, with their
        chances (hit counts that leave the same ships merged)."""
        memo = (role, key, firing, first_round)
        if memo not in self.struck:
            other = "defender" if role == "attacker" else "attacker"
            out: dict[Key, float] = {}
            for hits, p in enumerate(self.dist(other, firing, first_round)):
                if p:
                    after = self.hit(role, key, hits, first_round)
                    out[after] = out.get(after, 0.0) + p
            self.struck[memo] = list(out.items())
        return self.struck[memo]

    def kept(self, a: Key, d: Key) -> float:
        """The chance that some side that sought the battle keeps contact after a round."""
        if (a, d) not in self.keep:
            sides = {"attacker": self.side("attacker", a), "defender": self.side("defender", d)}
            miss = 1.0
            for role, other in (("attacker", "defender"), ("defender", "attacker")):
                if self.sought[role]:
                    factors = naval_combat.contact_factors(self.ctx, sides[role], sides[other])
                    miss *= 1 - float(phase4_naval.contact_chance(factors))
            self.keep[a, d] = 1 - miss
        return self.keep[a, d]

    def lost(self, role: str, key: Key) -> int:
        return len(self.pool[role]) - len(key[0])


def naval_battle_odds(
    scenario: Scenario, attackers: list[Ship], defenders: list[Ship], *, defenders_sought: bool = False,
    free: str | None = None, max_rounds: int | None = None, world: World | None = None,
    tech: Mapping[str, Mapping[str, int]] | None = None, guns: Mapping[str, int] | None = None,
    parting: bool = False,
) -> NavalOdds:
    """Exact odds of naval_combat.fight(ctx, zone, attackers' side, defenders' side): the
    attackers sought the battle (attack values), the defenders too when `defenders_sought`.
    free: "attacker" or "defender", the side that fires alone first. max_rounds: the
    attacker withdraws after that many rounds (a "rounds" condition). tech: nation ->
    technology -> level, its ships' levels (Improved Battleships' hits and second attack,
    Improved Cruisers, ...: naval_combat.values).

    An air strike on ships (engine/phase4_air_sea.py strike; the attackers are aircraft):
    free="defender" is the ships' defensive fire (4.3 step 2); guns (defending ship id ->
    AA guns aboard) fire once after it (step 3, phase4_air_sea.ships_aa); max_rounds is the
    rounds the aircraft's fuel pays for, and with `parting` the ships fire once more at the
    aircraft that leave with ships afloat (step 6, "withdrawn"). The carriers' fighters and
    cover intercepting first (step 1) are not modelled."""
    probe = _ProbeDice()
    state = _levels(scenario, tech or {})
    mounted = guns or {}
    for ship in defenders:
        if mounted.get(ship.unit.id):
            gear = state.nations.setdefault(ship.unit.nation, NationState(ship.unit.nation)).flags.setdefault(GEAR, {})
            gear[ship.unit.id] = ["aa"] * mounted[ship.unit.id]
    ctx = TurnContext(state, {}, world or World({}, {}), scenario, dice_root=probe)
    conditions = (CombatCondition("", "rounds", max_rounds),) if max_rounds else ()
    orders = {"attacker": BattleOrders({}, conditions), "defender": BattleOrders()}
    chain = _Chain(ctx, probe, {"attacker": attackers, "defender": defenders},
                   {"attacker": True, "defender": defenders_sought}, orders)
    odds = NavalOdds(len(attackers), len(defenders))
    live: dict[tuple[Key, Key], float] = {(chain.start("attacker"), chain.start("defender")): 1.0}
    if free is not None:
        other = "defender" if free == "attacker" else "attacker"
        after: dict[tuple[Key, Key], float] = {}
        for (a, d), mass in live.items():
            own = a if free == "attacker" else d
            for hits, p in enumerate(chain.dist(free, own, first_round=False)):
                struck = chain.hit(other, d if other == "defender" else a, hits, first_round=False)
                key = (a, struck) if other == "defender" else (struck, d)
                after[key] = after.get(key, 0.0) + mass * p
        live = after
    if guns:
        live = aa_fire(chain, live)
    for (a, d), mass in list(live.items()):
        if not (a[0] and d[0]):  # fight()'s loop never starts: no round fought
            finish(chain, odds, a, d, 0, "destroyed", mass)
            del live[a, d]
    rnd = 0
    while live:
        if rnd >= naval_combat.MAX_ROUNDS:
            for (a, d), mass in live.items():
                finish(chain, odds, a, d, rnd, "round_limit", mass)
            break
        rnd += 1
        first = rnd == 1
        nxt: dict[tuple[Key, Key], float] = {}
        for (a, d), mass in live.items():  # both fire at once, then both take their hits
            after_a = chain.taking("attacker", a, d, first)
            for d2, x in chain.taking("defender", d, a, first):
                for a2, y in after_a:
                    key = (a2, d2)
                    nxt[key] = nxt.get(key, 0.0) + mass * x * y
        live = {}
        for (a, d), mass in nxt.items():
            if not (a[0] and d[0]):
                finish(chain, odds, a, d, rnd, "destroyed", mass)
            elif withdrawal(conditions, rnd, chain.lost("attacker", a), chain.lost("defender", d)):
                for a2, p in chain.taking("attacker", a, d, False) if parting else [(a, 1.0)]:  # step 6
                    finish(chain, odds, a2, d, rnd, "withdrawn" if a2[0] else "destroyed", mass * p)
            else:
                keep = chain.kept(a, d)
                finish(chain, odds, a, d, rnd, "contact_lost", mass * (1 - keep))
                if mass * keep < PRUNE:
                    odds.pruned += mass * keep
                elif keep:
                    live[a, d] = live.get((a, d), 0.0) + mass * keep
    return odds


def aa_fire(chain: _Chain, live: Mapping[tuple[Key, Key], float]) -> dict[tuple[Key, Key], float]:
    """4.3 step 3: the ships' AA guns, one D10 each, read from phase4_air_sea.ships_aa itself
    with the probing dice; their hits go to the aircraft (take_hits)."""
    from moderator.engine import phase4_air_sea  # it reads the naval step

    out: dict[tuple[Key, Key], float] = {}
    for (a, d), mass in live.items():
        chain.probe.seen = []
        if a[0] and d[0]:
            phase4_air_sea.ships_aa(chain.ctx, chain.battle, chain.side("defender", d), chain.side("attacker", a),
                                    chain.orders["attacker"])
        for hits, p in enumerate(_pmf(chain.probe.seen)):
            key = (chain.hit("attacker", a, hits, False), d)
            out[key] = out.get(key, 0.0) + mass * p
    return out


def finish(chain: _Chain, odds: NavalOdds, a: Key, d: Key, rnd: int, how: str, mass: float) -> None:
    if not mass:
        return
    if how == "destroyed":
        how = "both_sunk" if not (a[0] or d[0]) else "attackers_sunk" if not a[0] else "defenders_sunk"
    odds.outcomes[how] += mass
    odds.rounds[rnd] = odds.rounds.get(rnd, 0.0) + mass
    odds.attacker_losses += mass * chain.lost("attacker", a)
    odds.defender_losses += mass * chain.lost("defender", d)
    odds.attacker_damaged += mass * sum(1 for _, hits in a[0] if hits)
    odds.defender_damaged += mass * sum(1 for _, hits in d[0] if hits)


def task_force(nation: str, counts: Mapping[str, int], mission: str, tag: str) -> list[Ship]:
    """Stand-in ships of one task force doing `mission`, ids sorting like the engine's."""
    return [Ship(u, f"{nation}/{tag}", mission) for u in make_units(nation, counts, tag)]


def naval_odds_for(
    scenario: Scenario, attacker: str, attack: Mapping[str, int], defender: str, defend: Mapping[str, int],
    *, attack_mission: str = "patrol", defend_mission: str = "move", free: str | None = None,
    max_rounds: int | None = None, tech: Mapping[str, Mapping[str, int]] | None = None, aa: int = 0,
) -> NavalOdds:
    """Odds of a task force of `attack` (kind -> count) on `attack_mission` that sighted one
    of `defend` on `defend_mission`; the defenders attack too when their mission is
    aggressive (4.2's list: patrol, blockade, bombard).

    `attack` all aircraft: an air strike on the ships (naval_battle_odds): the ships'
    defensive fire first, `aa` AA guns aboard them (Improved AA, the room of
    ship_gear.AA_ROOM, the ships in order), max_rounds the rounds the fuel pays (1 if not
    given: a fighter of fuel 5, "Fighters"), the ships' fire at the leaving aircraft."""
    ships = task_force(defender, defend, defend_mission, "d")
    if not set(attack) <= set(AIR_UNITS):
        return naval_battle_odds(scenario, task_force(attacker, attack, attack_mission, "a"), ships,
                                 defenders_sought=defend_mission in AGGRESSIVE, free=free, max_rounds=max_rounds,
                                 tech=tech)
    guns: dict[str, int] = {}
    for s in ships:
        guns[s.unit.id] = min(AA_ROOM.get(s.unit.kind, 0), aa - sum(guns.values()))
    levels = {n: dict(v) for n, v in (tech or {}).items()}
    if aa:  # Improved AA: "Improved AA guns may also be put on ships"
        levels.setdefault(defender, {}).setdefault("improved_aa", 1)
    return naval_battle_odds(scenario, task_force(attacker, attack, "attack", "a"), ships, free="defender",
                             max_rounds=max_rounds or 1, tech=levels, guns=guns, parting=True)

