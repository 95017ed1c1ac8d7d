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
- hits are taken by naval_combat.strike() (take_hits(), the submarines' hits on ships
  only: a side's hits are counted apart, by its submarines and by the rest) on a copy of
  the side (the owner's casualty
  order, damage before sinking, the cheapest ship first, the multinational fictive ship; an odd
  hit between equal allies, drawn by lot, followed every way it can fall: odds.every_lot);
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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from moderator.engine import gear_aboard, naval_combat, phase4_naval, phase4_sea
from moderator.engine.combat_orders import BattleOrders, withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.gear_aboard import GEAR
from moderator.engine.naval_combat import NavalBattle, NavalSide, Ship
from moderator.engine.odds import PRUNE, Steady, TooLarge, _levels, _pmf, _ProbeDice, every_lot, make_units
from moderator.engine.orders.ship_gear import AA_ROOM
from moderator.engine.phase4_sea import AGGRESSIVE
from moderator.engine.state import AIR_UNITS, NationState, Unit
from moderator.orders.model import CombatCondition
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

OUTCOMES = ("defenders_sunk", "attackers_sunk", "both_sunk", "contact_lost", "withdrawn", "round_limit", "evaded")
ROLES = ("attacker", "defender")
# The walk's steps (pairs of states added up, naval_battle_odds) a ship on either side buys
# before `moderator odds --sea` gives way to rolling the battle (naval_odds_sampled.py).
# Rolling costs about the same per ship at any size (2,000 battles of 40 ships some 15 s,
# of 80 ships some 45 s under a load of 5), the walk grows much faster than the fleets:
# ten ships a side (make bench) take some 25,000 steps (0.2 s), twenty a side 170,000 to
# 1,000,000 by their kinds and technology (2 to 9 s), 43 against 37 some 25 s. At some
# 50,000 steps a ship the walk has cost about what rolling the battle would.
STEPS_PER_SHIP = 50_000


def step_budget(ships: int) -> int:
    """The walk's budget for a battle of `ships` ships and aircraft on both sides."""
    return STEPS_PER_SHIP * ships
# ((pool index, hits taken) of each ship afloat, fictive ship stands, pool indices of the
# fighters that flew off their sunk carriers: not lost)
Key = tuple[tuple[tuple[int, int], ...], bool, tuple[int, ...]]
Hits = tuple[int, int]  # a side's hits in a round: by its other ships and aircraft, by its submarines
_GUN = Ship(Unit("hit", "", "cruiser", ""), "", "")  # stand-ins for the ships that scored (naval_combat.strike)
_SUB = Ship(Unit("hit", "", "submarine", ""), "", "")


@dataclass
class NavalOdds:
    """The distribution of a naval battle's end; OUTCOMES sum to 1 - pruned.

    defenders_sunk / attackers_sunk / both_sunk: one side or both have no ship left;
    contact_lost: both still afloat when no side that sought the battle keeps contact (4.2);
    withdrawn: the attacker withdrew after its rounds (Step 6); round_limit: the engine's
    safety limit; evaded: the defending ships sailed away before any fire (an air strike
    sighted by their radar, engine/strike_odds.py). Losses count ships sunk (a damaged
    battleship is not lost), the attacker's aircraft downed in an air strike;
    defender_planes_lost the defender's fighters downed (carriers' fighters and cover)."""

    attackers: int
    defenders: int
    outcomes: dict[str, float] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0.0))
    attacker_losses: float = 0.0
    defender_losses: float = 0.0
    attacker_damaged: float = 0.0  # expected ships afloat with a hit taken, at the end
    defender_damaged: float = 0.0
    rounds: dict[int, float] = field(default_factory=dict)
    pruned: float = 0.0
    defender_planes_lost: float = 0.0
    samples: int = 0  # 0: exact; else the battles the engine fought for these figures (naval_odds_sampled.py)

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
            "defender_planes_lost": self.defender_planes_lost,
            "method": "simulated" if self.samples else "exact", "samples": self.samples,
        }


class _Chain:
    """The two sides' states, rebuilt as engine NavalSides on demand; rolls and hits memoised."""

    def __init__(self, ctx: TurnContext, probe: _ProbeDice, pool: Mapping[str, list[Ship]],
                 sought: Mapping[str, bool], orders: Mapping[str, BattleOrders]) -> None:
        self.ctx, self.probe, self.pool, self.sought, self.orders = ctx, probe, pool, sought, orders
        # as fight() sets them when the battle begins: the other side's sonar (its attacking
        # submarines -1) and radar (its aircraft -1) aboard
        self.against = {role: {gear: gear_aboard.carries(ctx, [s.unit for s in pool[other]], gear)
                               for gear in ("sonar", "radar")}
                        for role, other in (("attacker", "defender"), ("defender", "attacker"))}
        self.index = {role: {s.unit.id: i for i, s in enumerate(ships)} for role, ships in pool.items()}
        self.battle = NavalBattle("odds", (self.side("attacker", self.start("attacker")),
                                           self.side("defender", self.start("defender"))), 0,
                                  (orders["attacker"], orders["defender"]))
        self.hits: dict[tuple[str, Key, bool, bool], list[tuple[Hits, float]]] = {}
        self.after: dict[tuple[str, Key, Hits, bool], dict[Key, float]] = {}
        self.keep: dict[tuple[Key, Key], float] = {}
        self.flying: dict[tuple[Key, Key], tuple[Key, Key]] = {}
        self.struck: dict[tuple[str, Key, Key, bool, bool], list[tuple[Key, float]]] = {}

    def start(self, role: str) -> Key:
        other = "defender" if role == "attacker" else "attacker"
        nations = {s.unit.nation for s in self.pool[role]}
        fictive = len(nations) == 1 and len({s.unit.nation for s in self.pool[other]}) > 1  # as fight() sets it
        return tuple((i, s.unit.damage) for i, s in enumerate(self.pool[role])), fictive, ()

    def side(self, role: str, key: Key) -> NavalSide:
        ships = []
        for i, damage in key[0]:
            model = self.pool[role][i]
            unit = Unit(model.unit.id, model.unit.nation, model.unit.kind, "", damage)
            ships.append(Ship(unit, model.fleet, model.mission))
        return NavalSide(ships, self.sought[role], fictive=key[1], against_sonar=self.against[role]["sonar"],
                         against_radar=self.against[role]["radar"])

    def key(self, role: str, side: NavalSide, flown: tuple[int, ...] = ()) -> Key:
        return tuple(sorted((self.index[role][s.unit.id], s.unit.damage) for s in side.ships)), side.fictive, flown

    def fire(self, role: str, key: Key, first_round: bool, ships_only: bool = False) -> list[tuple[Hits, float]]:
        """The side's hits this round, (by the others, by its submarines), with their
        chances: the two are apart because "hits scored by submarines can only be applied
        to ships" (4.3 step 5, naval_combat.strike); `ships_only`: the ships' defensive fire
        at aircraft (4.3 steps 2 and 6: the ships fire, not the fighters guarding them)."""
        memo = (role, key, first_round, ships_only)
        if memo not in self.hits:
            side = self.side(role, key)
            firing = [s for s in side.ships if not (ships_only and s.unit.kind in AIR_UNITS)]
            apart = []
            for subs in (False, True):  # the dice are one a ship: the two counts are independent
                self.probe.seen = []
                naval_combat.roll(self.ctx, self.battle, side, [s for s in firing if (s.unit.kind == "submarine") == subs],
                                  "odds", first_round)
                apart.append(_pmf(self.probe.seen))
            self.hits[memo] = [((o, u), p * q) for o, p in enumerate(apart[0]) if p
                               for u, q in enumerate(apart[1]) if q]
        return self.hits[memo]

    def hit(self, role: str, key: Key, hits: Hits, first_round: bool) -> dict[Key, float]:
        """The side's states after `hits` (by others, by submarines), taken as
        naval_combat.strike takes them, with their chances: more than one only when a lot
        gives an odd hit between equal allies (odds.every_lot)."""
        memo = (role, key, hits, first_round)
        if memo not in self.after:
            scored = [_GUN] * hits[0] + [_SUB] * hits[1]  # strike reads only how many, and which are submarines

            def run() -> Key:
                side = self.side(role, key)
                naval_combat.strike(self.ctx, self.battle, side, self.orders[role], scored, first_round)
                return self.key(role, side, key[2])
            out: dict[Key, float] = {}
            for chance, after in every_lot(self.probe, run):
                out[after] = out.get(after, 0.0) + chance
            self.after[memo] = out
        return self.after[memo]

    def taking(self, role: str, key: Key, firing: Key, first_round: bool,
               ships_only: bool = False) -> list[tuple[Key, float]]:
        """The states the side can be in after the other side's fire in a round, with their
        chances (hit counts that leave the same ships merged)."""
        memo = (role, key, firing, first_round, ships_only)
        if memo not in self.struck:
            other = "defender" if role == "attacker" else "attacker"
            flying = any(self.pool[role][i].unit.kind in AIR_UNITS for i, _ in key[0])
            out: dict[Key, float] = {}
            for (o, u), p in self.fire(other, firing, first_round, ships_only):
                # against ships alone a submarine's hit is any hit (naval_combat.strike: one count)
                for after, q in self.hit(role, key, (o, u) if flying else (o + u, 0), first_round).items():
                    out[after] = out.get(after, 0.0) + p * q
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

    def fly_off(self, a: Key, d: Key) -> tuple[Key, Key]:
        """After a round the engine fights on: the fighters on deck of a nation with no
        carrier left in the battle leave it (Aircraft Carriers; phase4_sea.off_sunk_carriers
        itself, the engine's after_round of a battle of task forces)."""
        if (a, d) not in self.flying:
            sides = (self.side("attacker", a), self.side("defender", d))
            battle = NavalBattle("odds", sides, 0, (self.orders["attacker"], self.orders["defender"]))
            phase4_sea.off_sunk_carriers(battle)
            self.flying[a, d] = (
                self.key("attacker", sides[0], a[2] + tuple(self.index["attacker"][u] for u in sorted(battle.flown)
                                                            if u in self.index["attacker"])),
                self.key("defender", sides[1], d[2] + tuple(self.index["defender"][u] for u in sorted(battle.flown)
                                                            if u in self.index["defender"])))
        return self.flying[a, d]

    def lost(self, role: str, key: Key, planes: bool | None = None) -> int:
        """The side's units lost (planes=False: its ships sunk; True: its aircraft downed)."""
        left = {i for i, _ in key[0]} | set(key[2])
        return sum(1 for i, s in enumerate(self.pool[role])
                   if i not in left and planes in (None, s.unit.kind in AIR_UNITS))


def naval_battle_odds(
    scenario: Scenario, attackers: list[Ship], defenders: list[Ship], *, defenders_sought: bool = False,
    free: str | None = None, max_rounds: int | None = None, world: World | None = None,
    tech: Mapping[str, Mapping[str, int]] | None = None, guns: Mapping[str, int] | None = None,
    parting: bool = False, gear: Mapping[str, Sequence[str]] | None = None, budget: int | None = None,
    walking: Callable[[int, int], None] | None = None,
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
    aircraft that leave with ships afloat (step 6, "withdrawn"). The defenders may hold
    fighters (those left of the carriers' fighters and cover after step 1's air combat,
    engine/strike_odds.py): they fire in the rounds (step 4, "defending ships and planes"),
    not in steps 2 and 6. gear: ship id -> "radar" / "sonar" aboard (Radar: the other
    side's aircraft -1; Sonar: its attacking submarines -1; radar's +2 to sighting).
    budget: raise odds.TooLarge once the walk has added up more pairs of states than this
    (its cost grows with them; None: no limit; naval_odds_for then rolls the battle).
    walking: told (steps so far, budget) as the walk goes, for a progress bar that runs
    towards the budget (the walk may end well before it)."""
    probe = _ProbeDice()
    state = _levels(scenario, tech or {})
    mounted = guns or {}
    for ship in (*attackers, *defenders):
        aboard = [*(gear or {}).get(ship.unit.id, ()), *["aa"] * mounted.get(ship.unit.id, 0)]
        if aboard:
            record = state.nations.setdefault(ship.unit.nation, NationState(ship.unit.nation)).flags.setdefault(GEAR, {})
            record[ship.unit.id] = sorted(aboard)
    ctx = Steady(state, {}, world or World({}, {}), scenario, dice_root=probe)
    ctx.known = {}
    conditions = (CombatCondition("", "rounds", max_rounds),) if max_rounds else ()
    orders = {"attacker": BattleOrders({}, conditions), "defender": BattleOrders()}
    chain = _Chain(ctx, probe, {"attacker": attackers, "defender": defenders},
                   {"attacker": True, "defender": defenders_sought}, orders)
    odds = NavalOdds(sum(1 for s in attackers if s.unit.kind not in AIR_UNITS) or len(attackers),
                     sum(1 for s in defenders if s.unit.kind not in AIR_UNITS))
    live: dict[tuple[Key, Key], float] = {(chain.start("attacker"), chain.start("defender")): 1.0}
    if free is not None:
        other = "defender" if free == "attacker" else "attacker"
        after: dict[tuple[Key, Key], float] = {}
        for (a, d), mass in live.items():
            own, theirs = (a, d) if free == "attacker" else (d, a)
            for struck, q in chain.taking(other, theirs, own, first_round=False, ships_only=True):
                key = (a, struck) if other == "defender" else (struck, d)
                after[key] = after.get(key, 0.0) + mass * q
        live = after
    if guns:
        live = aa_fire(chain, live)
    for (a, d), mass in list(live.items()):
        if not (a[0] and d[0]):  # fight()'s loop never starts: no round fought
            finish(chain, odds, a, d, 0, "destroyed", mass)
            del live[a, d]
    rnd, work = 0, 0
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
            after_d = chain.taking("defender", d, a, first)
            work += len(after_a) * len(after_d)  # the walk's cost: the pairs of states it adds up
            if budget is not None and work > budget:
                raise TooLarge(f"more than {budget} steps")
            if walking and budget:
                walking(work, budget)
            for d2, x in after_d:
                for a2, y in after_a:
                    key = (a2, d2)
                    nxt[key] = nxt.get(key, 0.0) + mass * x * y
        live = {}
        for (a, d), mass in nxt.items():
            if not (a[0] and d[0]):
                finish(chain, odds, a, d, rnd, "destroyed", mass)
            elif withdrawal(conditions, rnd, chain.lost("attacker", a), chain.lost("defender", d)):
                for a2, p in chain.taking("attacker", a, d, False, ships_only=True) if parting else [(a, 1.0)]:  # step 6
                    finish(chain, odds, a2, d, rnd, "withdrawn" if a2[0] else "destroyed", mass * p)
            else:
                a, d = chain.fly_off(a, d)
                if not (a[0] and d[0]):  # a side left with nothing: its ships were destroyed
                    finish(chain, odds, a, d, rnd, "destroyed", mass)
                    continue
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
            for struck, q in chain.hit("attacker", a, (hits, 0), False).items():
                out[struck, d] = out.get((struck, d), 0.0) + mass * p * q
    return out


def finish(chain: _Chain, odds: NavalOdds, a: Key, d: Key, rnd: int, how: str, mass: float) -> None:
    if not mass:
        return
    if how == "destroyed":
        how = "both_sunk" if not (a[0] or d[0]) else "attackers_sunk" if not a[0] else "defenders_sunk"
    odds.outcomes[how] += mass
    odds.rounds[rnd] = odds.rounds.get(rnd, 0.0) + mass
    strike = all(s.unit.kind in AIR_UNITS for s in chain.pool["attacker"])  # its losses are aircraft
    odds.attacker_losses += mass * chain.lost("attacker", a, planes=None if strike else False)
    odds.defender_losses += mass * chain.lost("defender", d, planes=False)
    odds.defender_planes_lost += mass * chain.lost("defender", d, planes=True)
    odds.attacker_damaged += mass * sum(1 for _, hits in a[0] if hits)
    odds.defender_damaged += mass * sum(1 for _, hits in d[0] if hits)


def task_force(nation: str, counts: Mapping[str, int], mission: str, tag: str) -> list[Ship]:
    """Stand-in ships of one task force doing `mission`, ids sorting like the engine's."""
    return [Ship(u, f"{nation}/{tag}", mission) for u in make_units(nation, counts, tag)]


def naval_odds_for(
    scenario: Scenario, attacker: str, attack: Mapping[str, int], defender: str, defend: Mapping[str, int],
    *, attack_mission: str = "patrol", defend_mission: str = "move", free: str | None = None,
    max_rounds: int | None = None, tech: Mapping[str, Mapping[str, int]] | None = None, aa: int = 0,
    radar_ships: int = 0, sonar: bool = False, attack_deck: int = 0, defend_deck: int = 0,
    budget: int | None = None, progress: Callable[[int, int], None] | None = None,
    walking: Callable[[int, int], None] | None = None, **strike: Any,
) -> NavalOdds:
    """Odds of a task force of `attack` (kind -> count) on `attack_mission` that sighted one
    of `defend` on `defend_mission`; the defenders attack too when their mission is
    aggressive (4.2's list: patrol, blockade, bombard). radar_ships: the defenders'
    battleships and carriers carrying radar (their foes' aircraft -1, their sighting +2);
    sonar: one defending ship carries sonar (the attackers' submarines -1). attack_deck /
    defend_deck: the fighters aboard each side's carriers (on_deck), fighting with them.

    `attack` all aircraft: an air strike on the ships (engine/strike_odds.py, its other
    arguments in `strike`): the ships' defensive fire first, `aa` AA guns aboard them
    (Improved AA, the room of ship_gear.AA_ROOM, the ships in order), max_rounds the
    rounds the fuel pays (1 if not given: a fighter of fuel 5, "Fighters"), the ships'
    fire at the leaving aircraft (`progress` is told how its air combat's runs go).

    budget: past that many steps (step_budget for `moderator odds`) the exact walk of a
    battle of ships gives way to the engine's battle fought naval_odds_sampled.SAMPLES
    times (`progress` is told how many so far); None: always exact. walking: told how the
    exact walk goes (naval_battle_odds)."""
    if (attack_deck or defend_deck) and set(attack) & set(AIR_UNITS):
        raise ValueError("fighters on deck fight in a battle of ships (an air strike: --carrier-fighters)")
    if set(attack) <= set(AIR_UNITS):
        from moderator.engine import strike_odds  # it builds on this module

        return strike_odds.strike_odds(scenario, attacker, attack, defender, defend, rounds=max_rounds or 1,
                                       tech=tech, aa=aa, radar_ships=radar_ships, sonar=sonar, progress=progress,
                                       **strike)
    ships = task_force(defender, defend, defend_mission, "d")
    gear = gear_for(ships, 0, radar_ships, sonar)
    ships += on_deck(scenario, defender, defend, defend_deck, "d", tech)
    fleet = task_force(attacker, attack, attack_mission, "a") + on_deck(scenario, attacker, attack, attack_deck, "a",
                                                                         tech)
    battle: dict[str, Any] = dict(defenders_sought=defend_mission in AGGRESSIVE, free=free, max_rounds=max_rounds,
                                  tech=tech, gear=gear["other"])
    try:
        return naval_battle_odds(scenario, fleet, ships, budget=budget, walking=walking, **battle)
    except TooLarge:
        if walking and budget:
            walking(budget, budget)  # the walk is over: its bar closes before the rolled battles' opens
        from moderator.engine import naval_odds_sampled  # it builds on this module: imported only when needed

        return naval_odds_sampled.sampled_naval_odds(scenario, fleet, ships, progress=progress, **battle)


def on_deck(scenario: Scenario, nation: str, counts: Mapping[str, int], fighters: int, fleet: str,
            tech: Mapping[str, Mapping[str, int]] | None) -> list[Ship]:
    """The fighters aboard a task force's carriers, fighting in its battle as the engine's
    phase4_sea.side_of puts them (4.3 step 4 "All attacking ships and aircraft roll for
    hits"; mission CARRIED): at most what its undamaged carriers can launch (Aircraft
    Carriers; phase4_sea.on_deck), a ValueError beyond."""
    if fighters < 0:
        raise ValueError("fighters on deck are at least 0")
    ctx = TurnContext(_levels(scenario, tech or {}), {}, World({}, {}), scenario)
    carriers = make_units(nation, {"carrier": counts.get("carrier", 0)}, "s")
    room = sum((stats.capacity if (stats := ctx.stats(nation, "carrier", u)) else 0) for u in carriers)
    if fighters > room:
        raise ValueError(f"{counts.get('carrier', 0)} carrier(s) of {nation} launch {room} fighter(s), not {fighters} "
                         "(Aircraft Carriers)")
    return [Ship(u, f"{nation}/{fleet}", phase4_sea.CARRIED) for u in make_units(nation, {"fighter": fighters}, fleet)]


RADAR_ROOM = ("battleship", "carrier")  # Radar: "may be placed on battleships or carriers"


def gear_for(ships: Sequence[Ship], aa: int, radar_ships: int, sonar: bool) -> dict[str, Any]:
    """The gear aboard stand-in ships: {"aa": ship id -> AA guns, by room in order
    (ship_gear.AA_ROOM), "other": ship id -> ["radar"] on the first `radar_ships`
    battleships and carriers, ["sonar"] on the first ship}; a ValueError when there is
    no room for the radar."""
    guns: dict[str, int] = {}
    for s in ships:
        guns[s.unit.id] = min(AA_ROOM.get(s.unit.kind, 0), aa - sum(guns.values()))
    room = [s for s in ships if s.unit.kind in RADAR_ROOM]
    if radar_ships > len(room):
        raise ValueError(f"radar goes on battleships and carriers (Radar): {len(room)} among the defending ships, "
                         f"not {radar_ships}")
    other: dict[str, list[str]] = {}
    for s in room[:radar_ships]:
        other.setdefault(s.unit.id, []).append("radar")
    if sonar and ships:
        other.setdefault(ships[0].unit.id, []).append("sonar")
    return {"aa": guns, "other": other}
