"""Phase 4.6: Land Combat with D10s.

Each round both sides roll one D10 per unit at once; a roll <= the unit's value is a
hit (attack value for attackers, defense value for defenders; Phase 4.6 steps 1-2). Each
hit removes one unit of the other side. The attacker keeps attacking until one side is
gone or one of its conditional orders withdraws it (combat_orders).

Also here:
- Cities: the territory's city rolls defense 1 while other defenders remain and can
  never be a casualty.
- Straits (also the Suez Canal, listed as a strait): only infantry and artillery may
  attack across; each -2 (never below 1, Phase 4.6); the defender has one virtual
  coastal defender at 1, taken as the first casualty.
- Artillery: defends at 1 when no infantry/tank/aircraft defender is left beside it;
  an attack with only artillery left ceases after that round.
- Multinational combat (note after 4.6.1): casualties are shared by each nation's share
  of the side's attack/defense total; a single nation facing a multinational side gets
  one fictive zero-value unit, taken first. (Reading: the rule "favors single nations
  armies", so the fictive casualty goes to the single-nation side.)
Default casualty order (the owner's choice in the rules, a documented default here):
cheapest first, then by kind and unit id, so results are deterministic.
Special terrain (mountains, Gibraltar) comes from terrain.py: the map's features.
- Trenches (Trenches; Phase 4.6 table of penalties): a unit attacking across a defender's
  trench (from the territory it faces) has infantry -2, artillery -3, tanks -2, aircraft
  -3; across a super trench infantry -3, artillery -4, tanks -2 (aircraft never reach the
  land battle: the land battle's setup, phase4_land, keeps them out). Tanks: one tank
  crossing with the infantry negates one point of the infantry's trench penalty, five
  tanks both; never against a super trench. Every penalty together (trench, strait) can
  never bring an attack value below 1.
- Fighters: against an attack by aircraft alone, with no AA gun and no trench of the
  defenders in the territory, defending land units have -3 (a reading: never below 1, as
  the attackers' penalties). Fixed when the battle starts.
- Anti Air Guns / 4.6: before the first round each defending AA gun rolls one D10 at its
  defense value (Improved AA: +1) against the attacking aircraft; its hits take aircraft
  only, the attackers' cheapest first. The attackers do not roll back. Improved AA guns
  fire so again in every round while attacking aircraft are there (aa_round_fire).
- Fuel (Fighters; 4.6 step 3): an attacking aircraft fights only as many rounds as its
  fuel allows with enough left to land (Front.rounds, worked out by phase4_land), then
  leaves the battle (Battle.departed) and flies home. Artillery firing from a territory
  that is itself attacked fires one round, then goes home to defend it (Artillery).
- Two attackers not allied to each other fight each other first, both as attackers
  (clash(): note after 4.6.1); the winner then attacks the territory.
- Naval invasions (4.6.1): units landing from transports (Front.beach) have infantry -3
  and artillery -4 (aircraft carried by sea: none), the defender has its coastal defence
  unit at 1, lost first, and "Beachlanding forces can NOT retreat": no withdrawal
  condition takes them out of the battle (the nation's units that came by land may still
  withdraw).
- Artillery support (Artillery: SUPPORT): artillery next door protecting the territory
  fires with its attack value among the defenders and is never a casualty (it is not
  there); the battle ends when no other defender is left; artillery whose own home is
  attacked by land from elsewhere supports one round, then goes home to defend it.
- Industrial complexes and ports defend at 1 when their holder ordered it (DEFEND WITH),
  and may then be lost like any unit; the city stops rolling when only they are left
  (Cities). A defending port brings one virtual defender at 0 for each three of the
  holder's ships beside it (rounded up), taken as casualties before real units (Ports).
- Tactical strike points (4.1.1): "If three or more Tactical Strike Points are scored
  against a territory in a single turn, then any infantry attacking that territory that
  turn receives a +1 to their attack ratings": +1 before the penalties (the floor of 1
  after), for every attacking nation's infantry in the battle for the territory; not in
  the clash of two attackers not allied (they attack each other there, not the
  territory; a reading).
- Air combat (4.5), after the AA guns and before the ground rounds: the defenders'
  fighters intercept the attacking aircraft (interception is the default; the rules'
  option to let them go is LET THROUGH AT the place: orders/interception.py), both
  sides rolling at their air-combat values (the fighter table, bombers at 1; no trench
  penalty: "do NOT receive the trench penalty ... for the purposes of the air combat").
  Each air round costs each plane one fuel point: attackers leave when their fuel allows no more rounds (Front.rounds counts
  air and ground rounds alike), interceptors stop when their tank is empty ("may expend
  all of their fuel points in this battle"). It goes on while both sides have planes
  in it, unless the attacker's BREAK OFF AIR COMBAT condition is met (break_off: his
  aircraft fly home and fight no ground round). Surviving attackers with fuel left
  fight the ground rounds ("only ... if those aircraft still have two or more fuel
  points remaining after any air battles"); the interceptors then defend in
  the ground rounds at their defense value (4.6 step 1). Shared casualties and the
  fictive unit as in any combat (note after 4.6.1). A fighter's value is read at its
  own level against the highest level among the other side's fighters in the air
  combat, fixed when it starts (a reading; combat_air).
- Radar (Radar: "Enemy planes receive -1 to their attack when radar is present"): a
  radar of the defenders in the territory (Front.radar) gives the attacking aircraft -1
  in the ground rounds (with the other penalties, the floor of 1 after them) and in the
  air combat. Super Trench: "Aircraft can, however, attack across a
  super trench if there are defending aircraft in the territory, but they may only
  battle the aircraft there and not the land units": such aircraft (Front.air_only)
  fight the air combat, then go home before the ground rounds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from moderator.engine import battle_forces, battlefield, shore_bombardment, terrain
from moderator.engine.casualty_shares import share
from moderator.engine.combat_air import RADAR_PENALTY, dogfight_value, enemy_level
from moderator.engine.combat_orders import BattleOrders, withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.state import AIR_UNITS, LAND_UNITS, Unit
from moderator.world.scenario_model import UnitStats

PHASE = "4.6"
STRAIT_PENALTY = {"infantry": 2, "artillery": 2}  # Straits
BEACH_PENALTY = {"infantry": 3, "artillery": 4}  # 4.6.1: "Infantry are -3 and artillery are -4"
STRAIT_ATTACKERS = frozenset(STRAIT_PENALTY)
CAPTURERS = frozenset({"infantry", "tank"})  # 4.4: only infantry or tanks capture
# Kinds whose presence lets artillery defend at full value (Artillery).
SUPPORTING = frozenset({"infantry", "tank", "fighter", "bomber"})
MAX_ROUNDS = 200  # safety net; a flag is raised if a battle ever gets there
TRENCH, SUPER_TRENCH = "trench", "super_trench"
# Trenches / Phase 4.6 "Table of penalties for attacking land forces"
TRENCH_PENALTY: dict[str, dict[str, int]] = {
    TRENCH: {"infantry": 2, "artillery": 3, "tank": 2, "fighter": 3, "bomber": 3, "rocket": 3},
    SUPER_TRENCH: {"infantry": 3, "artillery": 4, "tank": 2},
}
TANKS_FOR_BOTH = 5  # Tanks: "If there are five accompanying tanks, then both negative points ... are nullified"
ALL_AIR_PENALTY = 3  # Fighters: "all defending land units get -3 to their normal defensive value"
AIR = frozenset(AIR_UNITS)

VIRTUAL = ("fictive", "coastal", "boat")  # taken before real units, in this order
FACILITIES = frozenset({"industry", "port"})  # defend only by order (DEFEND WITH); the city ignores them


@dataclass(frozen=True)
class Front:
    """What the attackers' approach brings to a battle, by attacking unit id (phase4_land
    works it out from the map, the trenches and the fuel; odds passes it as given)."""

    across: frozenset[str] = frozenset()  # crossing a strait (Straits)
    trenches: Mapping[str, str] = field(default_factory=dict)  # the trench kind it attacks across
    origins: Mapping[str, str] = field(default_factory=dict)  # where it comes from (tanks cross with infantry)
    rounds: Mapping[str, int] = field(default_factory=dict)  # the most rounds it may fight (fuel; artillery called home)
    entrenched: bool = False  # a trench of the defenders stands in the territory (Fighters: no -3)
    beach: frozenset[str] = frozenset()  # landing from transports (4.6.1: a naval invasion)
    support: frozenset[str] = frozenset()  # defending artillery next door, by SUPPORT (Artillery)
    boats: int = 0  # the port's virtual defenders (Ports: one for each three of the holder's ships)
    strike: int = 0  # 4.1.1: +1 to attacking infantry after three tactical strike points (phase4_air.strike_bonus)
    retreat: Mapping[str, str] = field(default_factory=dict)  # defending unit id -> where it may disengage to (4.6)
    air_only: frozenset[str] = frozenset()  # aircraft that fight only the air combat (behind a super trench)
    radar: bool = False  # a radar of the defenders stands in the territory (Radar: enemy planes -1)


@dataclass(eq=False)  # one unit in one battle: compared by identity (list.remove is hot in odds.py)
class Fighter:
    nation: str
    kind: str  # a unit kind, or "city" / "coastal" / "fictive" / "boat"
    unit: Unit | None = None  # None for the virtual ones
    strait: bool = False  # attacking across a strait (Straits penalty)
    trench: str | None = None  # the defenders' trench kind it attacks across (Trenches)
    origin: str = ""  # the territory it attacks from
    rounds: int | None = None  # the most rounds it may fight, then it leaves (None: no limit)
    beach: bool = False  # landed from the sea (4.6.1): beach-landing penalty, never withdraws
    support: bool = False  # artillery next door protecting the territory (Artillery): never a casualty
    air_only: bool = False  # behind a super trench: it fights the defenders' aircraft only (Super Trench)
    cost: int | None = field(default=None, repr=False)  # its price, read once (the default casualty order)
    # its values with its technology, read once: they do not change during its battle, and
    # every round asked them again for every fighter (issue 14, the engine's cost)
    stats: UnitStats | None = field(default=None, repr=False, compare=False)

    @property
    def virtual(self) -> bool:
        return self.unit is None


@dataclass
class Side:
    role: str  # "attacker" | "defender"
    fighters: list[Fighter]
    losses: dict[str, dict[str, int]] = field(default_factory=dict)

    def real(self) -> list[Fighter]:
        return [f for f in self.fighters if f.unit is not None]

    def has_real(self) -> bool:
        """Any real unit left (what `bool(real())` says, without the list: asked every round)."""
        return any(f.unit is not None for f in self.fighters)

    def targets(self) -> list[Fighter]:
        """The real units the other side's hits can reach (not artillery firing from next door)."""
        return [f for f in self.fighters if f.unit is not None and not f.support]

    def standing(self) -> bool:
        """Anything left that fights on: real units or the coastal defender (not the fictive
        one; not artillery supporting from next door: "The battle ceased if there are no
        friendly units in designated province")."""
        return any(f.kind != "fictive" and not f.support for f in self.fighters)

    def nations(self) -> list[str]:
        return sorted({f.nation for f in self.fighters if f.unit is not None})  # (real(), without its list)

    def lose(self, f: Fighter) -> None:
        self.fighters.remove(f)
        per = self.losses.setdefault(f.nation, {})
        per[f.kind] = per.get(f.kind, 0) + 1


@dataclass
class Battle:
    territory: str
    origins: list[str]
    attacker: str
    strait: bool  # some attackers cross a strait: the coastal defender stands
    city_holder: str | None  # nation whose city rolls in defense, or None
    attack: Side
    defend: Side
    rounds: int = 0
    first_roll: int = 0
    defending_nations: tuple[str, ...] = ()
    defender: str | None = None  # the territory's holder when the battle began
    orders: BattleOrders = field(default_factory=BattleOrders)
    withdrawn: str | None = None  # the attacker's condition that ended the battle
    all_air: bool = False  # Fighters: the attack is all air, with no AA gun or trench to face it
    clash: bool = False  # two attackers not allied fighting each other first (both attack values)
    departed: list[Fighter] = field(default_factory=list)  # attackers that left alive (fuel, withdrawal)
    attackers: tuple[str, ...] = ()  # every attacking nation (allies attack together)
    beach: bool = False  # some attackers land from the sea: the coastal defence unit stands (4.6.1)
    air: bool = False  # an air combat (4.5): planes only, at their air-combat values
    air_rounds: int = 0  # rounds of air combat fought before the ground rounds (4.5)
    air_level: dict[str, int] = field(default_factory=dict)  # side role -> the fighter level it faces (4.5)
    radar: bool = False  # Front.radar: the attackers' aircraft have -1 (Radar)
    strike: int = 0  # 4.1.1: the tactical strike points' bonus to attacking infantry (Front.strike)
    retreat: Mapping[str, str] = field(default_factory=dict)  # Front.retreat
    disengaged: list[Fighter] = field(default_factory=list)  # defenders that left alive by their conditions (4.6)
    disengaged_by: dict[str, str] = field(default_factory=dict)  # defending nation -> its condition met
    spent: dict[str, int] = field(default_factory=dict)  # aircraft that left before the end -> rounds fought
    air_retreated: dict[str, str] = field(default_factory=dict)  # attacking nation -> its BREAK OFF condition met (4.5)


def penalty(side: Side, f: Fighter) -> int:
    """The attack-value penalty of an attacking unit: strait, beach landing and trench
    (Phase 4.6 table), less what accompanying tanks negate for infantry at a regular
    trench (Tanks)."""
    points = STRAIT_PENALTY.get(f.kind, 0) if f.strait else 0
    points += BEACH_PENALTY.get(f.kind, 0) if f.beach else 0
    if f.trench:
        trench = TRENCH_PENALTY[f.trench].get(f.kind, 0)
        if f.kind == "infantry" and f.trench == TRENCH:
            # (a tank is a real unit: the side's fighters are read as they are, no list of the real ones made)
            tanks = sum(1 for g in side.fighters if g.kind == "tank" and g.trench == TRENCH and g.origin == f.origin)
            trench -= 2 if tanks >= TANKS_FOR_BOTH else 1 if tanks else 0
        points += trench
    return points


def value_of(ctx: TurnContext, battle: Battle, side: Side, f: Fighter) -> int:
    if f.kind in ("fictive", "coastal", "city", "boat"):
        return 1 if f.kind in ("coastal", "city") else 0
    if battle.air:  # 4.5: the fighter table, bombers at 1
        assert f.unit is not None
        return dogfight_value(ctx, f.unit, battle.air_level.get(side.role, 0), battle.radar and side.role == "attacker")
    stats = f.stats
    if stats is None:
        stats = f.stats = ctx.stats(f.nation, f.kind, f.unit)  # the unit's technology (engine/technology.py)
    assert stats is not None
    if side.role == "attacker":
        value = stats.attack
        if battle.clash:  # attackers meeting in the field: no trench between them
            points = STRAIT_PENALTY.get(f.kind, 0) if f.strait else 0
            points += BEACH_PENALTY.get(f.kind, 0) if f.beach else 0
            return max(1, value - points) if points and value else value
        if f.kind == "infantry":
            value += battle.strike  # 4.1.1: "any infantry attacking that territory ... receives a +1"
        points = penalty(side, f) + (RADAR_PENALTY if battle.radar and f.kind in AIR else 0)
        return max(1, value - points) if points and value > 0 else value  # never below 1 (4.6)
    if f.support:
        return stats.attack  # Artillery: "protect any designated adjacent province by using its attack rating"
    if f.kind == "artillery" and not any(g.kind in SUPPORTING for g in side.fighters):  # (real kinds all)
        value = 1  # Artillery: unsupported artillery defends at 1
    else:
        value = terrain.defense(ctx.world, ctx.scenario, battle.territory, f.kind, stats.defense)  # mountains
    if battle.all_air and f.kind in LAND_UNITS:
        value = max(1, value - ALL_AIR_PENALTY)  # Fighters: -3 against aircraft alone
    return value


def roll_side(ctx: TurnContext, battle: Battle, side: Side) -> int:
    hits = 0
    # what every roll of the side says first (the purpose of each die: built once a round)
    said = f"{'air' if battle.air else 'land'} combat at {battle.territory} round {battle.rounds}: {side.role} "
    dice = ctx.dice
    dice_of: dict[str, int] = {}  # kind -> the dice a defender of it rolls here (the same all the round)
    for f in side.fighters:
        v = value_of(ctx, battle, side, f)
        if v <= 0:
            continue
        purpose = f"{said}{f.nation} {f.kind}"
        rolls = 1
        if side.role == "defender" and f.unit and not battle.air:
            rolls = dice_of.get(f.kind, 0) or dice_of.setdefault(
                f.kind, terrain.defense_dice(ctx.world, ctx.scenario, battle.territory, f.kind))
        for _ in range(rolls):  # Gibraltar: defending infantry roll 3 dice
            if dice.d10(purpose) <= v:
                hits += 1
    if side.role == "defender" and battle.city_holder and any(
            f.unit is not None and not f.support and f.kind not in FACILITIES for f in side.fighters):  # targets()
        purpose = f"land combat at {battle.territory} round {battle.rounds}: defender {battle.city_holder} city"
        if ctx.dice.d10(purpose) <= 1:  # Cities: defense 1
            hits += 1
    return hits


def aa_guns(battle: Battle) -> list[Fighter]:
    return [f for f in battle.defend.real() if f.kind == "aa"]


def aa_fire(ctx: TurnContext, battle: Battle) -> int:
    """Anti Air Guns, 4.6: "they roll 1D10 for each AA Gun unit now. This is the free roll
    that AA units get and the attacking force does not get to roll in exchange." Each gun
    hits at its defense value (Improved AA +1, the scenario's technology costs). Rolled
    only when aircraft attack."""
    if not any(f.kind in AIR for f in battle.attack.real()):
        return 0
    hits = 0
    for f in aa_guns(battle):
        stats = ctx.stats(f.nation, f.kind, f.unit)  # Improved AA: +1 (engine/technology.py)
        value = stats.defense if stats else 0
        if ctx.dice.d10(f"anti-air fire at {battle.territory}: {f.nation} aa") <= value:
            hits += 1
    return hits


IMPROVED_AA = "improved_aa"


def aa_round_fire(ctx: TurnContext, territory: str, rounds: int, attack: Side, defend: Side) -> int:
    """Improved Anti-Aircraft Guns: "Improved AA guns get to fire once every round of an
    attack against the territory they are in. This is in addition to the one die roll they
    receive when aircraft first enter the territory." Each defending AA gun of the
    technology (its own level, engine/technology.py) rolls once more in every round while
    attacking aircraft are in the battle, at its defense value; its hits take aircraft only,
    as the free roll's (a reading: its roll as a defender in the round stays)."""
    if not any(f.kind in AIR for f in attack.real()):
        return 0
    hits = 0
    for f in (g for g in defend.real() if g.kind == "aa"):
        assert f.unit is not None
        from moderator.engine import technology  # technology reads a Position

        if technology.unit_levels(ctx, f.unit).get(IMPROVED_AA, 0) < 1:
            continue
        stats = ctx.stats(f.nation, f.kind, f.unit)
        value = stats.defense if stats else 0
        if ctx.dice.d10(f"anti-air fire at {territory} round {rounds}: {f.nation} aa") <= value:
            hits += 1
    return hits


def take_aircraft(ctx: TurnContext, battle: Battle, side: Side, hits: int) -> None:
    """"Hits scored by the AA units can only be applied to attacking aircraft" (4.6):
    the owner's casualty order among aircraft, else the cheapest first."""
    if hits <= 0:
        return  # (most rounds: no AA hit, nothing to share out or rank)
    for nation, count in share_hits(ctx, battle, side, hits, only=AIR).items():
        first = battle.orders.casualty.get(nation, ())
        planes = sorted((f for f in side.real() if f.nation == nation and f.kind in AIR), key=partial(_rank, ctx, first))
        for f in planes[:count]:
            side.lose(f)


def _rank(ctx: TurnContext, first: tuple[str, ...], f: Fighter) -> tuple[int, int, str, str]:
    rank = first.index(f.kind) if f.kind in first else len(first)
    if f.cost is None:  # a unit's price does not change during its battle; odds ranks it thousands of times
        stats = f.stats  # its values as value_of read them (the same question: cost_of), else read now
        if stats is None:
            stats = f.stats = ctx.stats(f.nation, f.kind, f.unit)
        f.cost = stats.cost if stats is not None else 0
    return rank, f.cost, f.kind, f.unit.id if f.unit else ""


def take_casualties(ctx: TurnContext, battle: Battle, side: Side, hits: int) -> None:
    if hits <= 0:
        return  # no hit: no share to work out, nobody to rank (casualty_shares draws only for a hit)
    virtual = [f for f in side.fighters if f.unit is None]  # (mostly none: one look at the side, not three)
    for kind in VIRTUAL:
        for f in [f for f in virtual if f.kind == kind]:
            if hits == 0:
                return
            side.lose(f)
            hits -= 1
    quota = share_hits(ctx, battle, side, hits)
    targets = side.targets()  # once: a nation's losses take none of another nation's units
    for nation in sorted(quota):
        first = battle.orders.casualty.get(nation, ())
        # (the key a partial, not a lambda: _rank called straight from the sort, a frame less per unit)
        ranked = sorted((f for f in targets if f.nation == nation), key=partial(_rank, ctx, first))
        for f in ranked[: quota[nation]]:
            side.lose(f)


def share_hits(ctx: TurnContext, battle: Battle, side: Side, hits: int,
               only: Collection[str] | None = None) -> dict[str, int]:
    """Split hits between a side's nations by their share of its combat total (4.6.1 note).

    Largest remainder, equal remainders at the cut by lot (casualty_shares.share); a nation
    never loses more than it has, and what it cannot take is shared among the others by
    their strength again. `only`: the kinds that may be hit (AA hits take aircraft only).
    """
    targets = [f for f in side.targets() if only is None or f.kind in only]
    nations = sorted({f.nation for f in targets})
    hits = min(hits, len(targets))
    if len(nations) <= 1:
        return {n: hits for n in nations}
    count = dict.fromkeys(nations, 0)  # (one pass over the side for all its nations, not one each)
    for f in targets:
        count[f.nation] += 1
    strength = dict.fromkeys(nations, 0)
    for f in side.fighters:
        if f.unit is not None and f.nation in strength:
            strength[f.nation] += max(1, value_of(ctx, battle, side, f))
    return share(hits, strength, count, ctx.dice, f"casualties of the {side.role}s at {battle.territory}, odd hit")


def add_fictive(attack: Side, defend: Side) -> None:
    """Multinational note after 4.6.1: the single-nation side gets one fictive unit."""
    a, d = attack.nations(), defend.nations()
    if len(a) == 1 and len(d) > 1:
        attack.fighters.insert(0, Fighter(a[0], "fictive"))
    if len(d) == 1 and len(a) > 1:
        defend.fighters.insert(0, Fighter(d[0], "fictive"))


def attack_goes_on(side: Side) -> bool:
    """Artillery alone cannot carry an attack (Artillery)."""
    return any(f.kind != "artillery" and f.unit is not None for f in side.fighters)


def leaving(side: Side, rounds: int, air_rounds: int = 0) -> list[Fighter]:
    """After ground round `rounds`: the attackers whose fuel (or whose home's own battle)
    calls them away (4.6 step 3: "All aircraft which must disengage for lack of fuel
    points leave and fly to whichever friendly territory they can reach"). Aircraft have
    also spent a fuel point in each of the `air_rounds` of air combat before (4.5)."""
    return [f for f in side.real() if f.rounds is not None
            and f.rounds <= rounds + (air_rounds if f.kind in AIR else 0)]


def depart(battle: Battle, side: Side) -> None:
    """They leave the battle alive."""
    for f in leaving(side, battle.rounds, battle.air_rounds):
        side.fighters.remove(f)
        battle.departed.append(f)


def interceptors(side: Side, let_pass: Collection[str] = frozenset()) -> list[Fighter]:
    """The defenders' fighters that intercept (4.5: "the enemy fighters have the option of
    intercepting or letting them go"): all but those of the nations in `let_pass`
    (LET THROUGH, engine/orders/interception.py)."""
    return [f for f in side.real() if f.kind == "fighter" and not f.support and f.nation not in let_pass]


def air_battle(ctx: TurnContext, battle: Battle) -> Battle | None:
    """The air combat of a land battle (4.5) before its first round, or None when there
    is none (no attacking aircraft or no intercepting fighters). Its sides hold the land
    battle's own fighters; its fictive units are its own (note after 4.6.1: "all combats")."""
    planes = [f for f in battle.attack.real() if f.kind in AIR]
    guards = interceptors(battle.defend, battle.orders.let_pass)
    if not planes or not guards:
        return None
    air = Battle(battle.territory, battle.origins, battle.attacker, False, None, Side("attacker", planes),
                 Side("defender", guards), orders=battle.orders, air=True)
    for side, other in ((air.attack, air.defend), (air.defend, air.attack)):
        air.air_level[side.role] = enemy_level(ctx, [f.unit for f in other.real() if f.unit is not None])
    air.radar = battle.radar
    add_fictive(air.attack, air.defend)
    return air


def air_round(ctx: TurnContext, battle: Battle, air: Battle) -> None:
    """One round of air combat (4.5 steps 1-3), its losses carried into the land battle,
    then the fuel: attackers with no round left go home, interceptors with an empty tank
    stop intercepting (they still defend the land)."""
    air.rounds += 1
    battle.air_rounds = air.rounds
    a_hits = roll_side(ctx, air, air.attack)
    d_hits = roll_side(ctx, air, air.defend)
    for side, main, hits in ((air.defend, battle.defend, a_hits), (air.attack, battle.attack, d_hits)):
        before = [f for f in side.fighters if not f.virtual]
        take_casualties(ctx, air, side, hits)
        kept = {id(f) for f in side.fighters}
        for f in before:
            if id(f) not in kept:
                main.lose(f)
    for f in leaving(air.attack, 0, air.rounds):
        air.attack.fighters.remove(f)
        battle.attack.fighters.remove(f)
        battle.departed.append(f)
    for f in list(air.defend.real()):
        stats = ctx.stats(f.nation, f.kind, f.unit)
        if stats is None or stats.fuel <= air.rounds:
            air.defend.fighters.remove(f)


def air_goes_on(air: Battle) -> bool:
    return bool(air.attack.real() and air.defend.real()) and air.rounds < MAX_ROUNDS


def air_combat(ctx: TurnContext, battle: Battle) -> None:
    """4.5 inside a land battle: rounds of air combat until one side has no plane left in
    it, or the attackers retreat (break_off). Then the aircraft that came across a super
    trench go home (Super Trench: "they may only battle the aircraft there and not the
    land units")."""
    air = air_battle(ctx, battle)
    while air is not None and air_goes_on(air):
        air_round(ctx, battle, air)
        if air_goes_on(air):
            break_off(battle, air)
    for f in air_only(battle.attack):
        battle.attack.fighters.remove(f)
        battle.departed.append(f)
        if f.unit is not None:
            battle.spent[f.unit.id] = battle.air_rounds


def break_off(battle: Battle, air: Battle) -> None:
    """4.5 step 3: "The attacking player may now decide to retreat and end the battle. If
    he chooses to remain and the intercepting player still has fighters remaining, then
    repeat steps 1-3." After an air round with interceptors left, an attacking nation whose
    BREAK OFF AIR COMBAT condition is met (combat_orders.withdrawal: air rounds, its
    aircraft downed, interceptors downed) takes its aircraft out: they fly home with the
    fuel they have and fight no ground round (Battle.air_retreated)."""
    kills = real_losses(air.defend)
    for nation in air.attack.nations():
        own = battle.orders.air_retreat.get(nation, ())
        lost = sum(n for k, n in air.attack.losses.get(nation, {}).items() if k not in VIRTUAL)
        why = withdrawal(own, air.rounds, lost, kills) if own else None
        if why is None:
            continue
        battle.air_retreated[nation] = why
        for f in [f for f in air.attack.real() if f.nation == nation]:
            air.attack.fighters.remove(f)
            battle.attack.fighters.remove(f)
            battle.departed.append(f)
            if f.unit is not None:
                battle.spent[f.unit.id] = air.rounds


def air_only(side: Side) -> list[Fighter]:
    """The aircraft of a side that fight no ground round (behind a super trench)."""
    return [f for f in side.real() if f.air_only]


def fighters_of(units: Sequence[Unit], front: Front) -> list[Fighter]:
    return [Fighter(u.nation, u.kind, u, u.id in front.across, front.trenches.get(u.id), front.origins.get(u.id, ""),
                    front.rounds.get(u.id), u.id in front.beach, air_only=u.id in front.air_only) for u in units]


def setup(ctx: TurnContext | None, territory: str, origins: Sequence[str], attacker: str, attackers: Sequence[Unit],
          defenders: Sequence[Unit], holder: str | None, city: bool, front: Front,
          orders: BattleOrders | None = None) -> Battle:
    """The Battle before its first roll: sides, the coastal defender (Straits; 4.6.1: "Each
    and every naval invasion will face a 1 defense factor coastal defense unit"; one
    however the attackers come), the fictive unit (note after 4.6.1) and whether the
    attack is all air (Fighters)."""
    if ctx is not None:
        battlefield.fought(ctx, attackers, defenders)  # Phase 2.1: the weaponry each side meets
    strait = any(u.id in front.across for u in attackers)
    beach = any(u.id in front.beach for u in attackers)
    all_air = bool(attackers) and all(u.kind in AIR for u in attackers)
    aa = any(u.kind == "aa" for u in defenders)
    battle = Battle(
        territory, sorted(origins), attacker, strait, holder if city else None,
        Side("attacker", fighters_of(attackers, front)),
        Side("defender", [Fighter(u.nation, u.kind, u, rounds=front.rounds.get(u.id) if u.id in front.support else None,
                                  support=u.id in front.support) for u in defenders]),
        first_roll=len(ctx.dice.log) if ctx is not None else 0,
        defending_nations=tuple(sorted({u.nation for u in defenders} | ({holder} if (strait or beach) and holder else set()))),
        orders=orders or BattleOrders(),
        defender=holder,
        all_air=all_air and not aa and not front.entrenched,
        attackers=tuple(sorted({u.nation for u in attackers})),
        beach=beach,
        strike=front.strike,
        retreat=front.retreat,
        radar=front.radar,
    )
    if (strait or beach) and holder:
        battle.defend.fighters.insert(0, Fighter(holder, "coastal"))  # Straits; 4.6.1
    if holder:
        battle.defend.fighters[:0] = [Fighter(holder, "boat") for _ in range(front.boats)]  # Ports
    add_fictive(battle.attack, battle.defend)
    return battle


def fight(
    ctx: TurnContext, territory: str, origins: Sequence[str], attacker: str,
    attackers: Sequence[Unit], defenders: Sequence[Unit], across: Collection[str] = frozenset(),
    orders: BattleOrders | None = None, front: Front | None = None,
) -> Battle:
    """Fight the battle to its end, removing dead units from ctx.state; returns the record.

    across: ids of the attacking units that cross a strait to get there (or front.across)."""
    front = front or Front(across=frozenset(across))
    if across and not front.across:
        front = dataclasses.replace(front, across=frozenset(across))
    holder = ctx.state.controller(territory)
    battle = setup(ctx, territory, origins, attacker, attackers, defenders, holder,
                   ctx.world.territories[territory].city if territory in ctx.world.territories else False,
                   front, orders)
    battery = shore_bombardment.guns(ctx, territory, battle.attack.nations()) if battle.beach else []
    play(ctx, battle, battery)
    bury(ctx, battle, (*attackers, *defenders))
    return battle


def play(ctx: TurnContext, battle: Battle, battery: Sequence[shore_bombardment.Gun] = ()) -> None:
    """A battle set up, fought to its end: the AA guns' free roll (Anti Air Guns), the air
    combat (4.5, before the ground rounds), then the rounds. Also what `moderator odds`
    rolls when a battle is too large to walk exactly (engine/odds_sampled.py)."""
    take_aircraft(ctx, battle, battle.attack, aa_fire(ctx, battle))
    air_combat(ctx, battle)
    fight_rounds(ctx, battle, battery)


def going_on(battle: Battle) -> bool:
    """Before a round: is there still a battle? Attackers against standing defenders; in a
    clash, both sides with something that can carry an attack (artillery alone cannot)."""
    if battle.clash:
        return attack_goes_on(battle.attack) and attack_goes_on(battle.defend)
    return battle.attack.has_real() and battle.defend.standing()


def after_round(battle: Battle) -> bool:
    """After a round of a battle for a territory (not a clash, fought to the end): does it
    stop? An attack of artillery alone ceases (Artillery); the attackers' conditions may
    end it; then the defenders' may take them out (4.6)."""
    if not attack_goes_on(battle.attack):
        return True
    if battle.defend.standing() and battle.attack.has_real():
        why, ended = withdraw(battle)
        if ended:
            battle.withdrawn = why
            return True
    if battle.orders.defending and battle.defend.standing() and battle.attack.has_real():
        disengage(battle)  # (only defenders with conditions may disengage)
    return False


def fight_rounds(ctx: TurnContext, battle: Battle, battery: Sequence[shore_bombardment.Gun] = ()) -> None:
    """The rounds (4.6 steps 1-3), for a battle and a clash alike: both sides roll at once,
    take their casualties, and the units whose fuel (or home's battle) calls them away leave.
    battery: battleships bombarding the shore of a beach landing (engine/shore_bombardment.py)."""
    # No unit joins a battle once its rounds begin: what is not there before the first
    # round (a unit landed from the sea, an attacking aircraft, a unit that may fight only
    # so many rounds) is never there, and the rounds do not look for it again (issue 14)
    landed = any(f.beach for f in battle.attack.fighters)
    aircraft = not battle.clash and any(f.kind in AIR for f in battle.attack.fighters)
    timed = [side for side in (battle.attack, battle.defend) if any(f.rounds is not None for f in side.fighters)]
    while going_on(battle) and battle.rounds < MAX_ROUNDS:
        battle.rounds += 1
        a_hits = roll_side(ctx, battle, battle.attack)
        if landed and any(f.beach for f in battle.attack.fighters):  # (only real units land)  # Battleships: every round of a beach landing
            a_hits += shore_bombardment.fire(ctx, battle.territory, battle.rounds, battery)
        d_hits = roll_side(ctx, battle, battle.defend)
        aa_hits = aa_round_fire(ctx, battle.territory, battle.rounds, battle.attack,
                                battle.defend) if aircraft else 0  # Improved AA
        take_casualties(ctx, battle, battle.defend, a_hits)
        take_aircraft(ctx, battle, battle.attack, aa_hits)
        take_casualties(ctx, battle, battle.attack, d_hits)
        for side in timed:  # the attackers' fuel; supporting artillery called home (Artillery)
            depart(battle, side)
        if not battle.clash and after_round(battle):
            break
    if battle.rounds >= MAX_ROUNDS:
        ctx.flag(PHASE, reason="battle-round-limit", territory=battle.territory)


def withdraw(battle: Battle) -> tuple[str | None, bool]:
    """Conditional orders (combat_orders), after a round: the first condition met, as
    "kind:value", and whether the attack ends. A single attacking nation's condition ends
    the battle (its units stay where they attacked from); in an allied attack a nation
    whose condition is met takes its own units home and the others fight on. Units that
    landed from the sea never withdraw (4.6.1: "Beachlanding forces can NOT retreat")."""
    nations = battle.attack.nations()
    kills = real_losses(battle.defend)
    landed = any(f.beach for f in battle.attack.fighters)  # (only real units land)
    if len(nations) <= 1 and not battle.orders.by_nation and not landed:
        why = withdrawal(battle.orders.conditions, battle.rounds, real_losses(battle.attack), kills)
        return why, why is not None
    met = None
    for nation in nations:
        lost = sum(n for k, n in battle.attack.losses.get(nation, {}).items() if k not in VIRTUAL)
        own = battle.orders.by_nation.get(nation, battle.orders.conditions if len(nations) == 1 else ())
        why = withdrawal(own, battle.rounds, lost, kills)
        if why and len(nations) == 1 and not landed:
            return why, True
        if why:
            met = met or why
            for f in [f for f in battle.attack.real() if f.nation == nation and not f.beach]:
                battle.attack.fighters.remove(f)
                battle.departed.append(f)
    return met, met is not None and not battle.attack.real()


def disengage(battle: Battle) -> None:
    """4.6: "After the first round of combat and any subsequent round of combat, both
    attacker and defender can choose to disengage. If defenders disengage they must move
    to neighbouring friendly provinces, but if there are no free provinces, then they must
    fight to the end." A defending nation whose condition is met (combat_orders: rounds,
    own losses, kills) takes out its units that have somewhere to go (Front.retreat:
    not artillery, AA guns and rockets, which "cannot move ... if they are attacked", nor
    complexes and ports); the rest fight on."""
    kills = real_losses(battle.attack)
    for nation, own in sorted(battle.orders.defending.items()):
        if nation in battle.disengaged_by:
            continue
        lost = sum(n for k, n in battle.defend.losses.get(nation, {}).items() if k not in VIRTUAL)
        why = withdrawal(own, battle.rounds, lost, kills)
        going = [f for f in battle.defend.targets() if f.nation == nation and f.unit is not None
                 and f.unit.id in battle.retreat]
        if why is None or not going:
            continue
        battle.disengaged_by[nation] = why
        for f in going:
            battle.defend.fighters.remove(f)
            battle.disengaged.append(f)


def clash(ctx: TurnContext, territory: str, first: Sequence[Unit], second: Sequence[Unit],
          front: Front) -> Battle:
    """Note after 4.6.1: "if combat occurs when two nations not allied to each other attack
    third nation, then the first two nations would attack each other first and would both
    act as attackers." Both sides use attack values (no trench lies between them; a strait
    crossed still costs its penalty); the clash goes on until one side has nothing left
    that can carry an attack (artillery alone cannot), fuel sending aircraft home."""
    battle = setup(ctx, territory, [], first[0].nation, first, [], None, False, front)
    battle.clash, battle.all_air = True, False
    battle.defend = Side("attacker", fighters_of(second, front))
    battle.defending_nations = tuple(sorted({u.nation for u in second}))
    battle.attack.fighters = [f for f in battle.attack.fighters if f.kind != "fictive"]
    add_fictive(battle.attack, battle.defend)
    fight_rounds(ctx, battle)
    bury(ctx, battle, (*first, *second))
    return battle


def bury(ctx: TurnContext, battle: Battle, units: Sequence[Unit]) -> None:
    """The units that fell leave the game."""
    alive = {f.unit.id for side in (battle.attack, battle.defend)
             for f in (*side.fighters, *battle.departed, *battle.disengaged) if f.unit}
    ctx.state.remove_units(u for u in units if u.id not in alive)


def real_losses(side: Side) -> int:
    return sum(n for per in side.losses.values() for k, n in per.items() if k not in VIRTUAL)


def survivors(battle: Battle) -> list[Unit]:
    return [f.unit for f in battle.attack.fighters if f.unit is not None]


def defenders_left(battle: Battle) -> bool:
    return battle.defend.standing()


def battle_event(ctx: TurnContext, battle: Battle, captured: bool) -> None:
    """BattleFought: seen by every nation that fought in it; then each of them is told the
    forces as it saw them (battle_forces)."""
    attackers = sorted({battle.attacker, *battle.attackers})
    participants = sorted({*attackers, *battle.defending_nations})
    ctx.emit(
        "battle", PHASE, participants,
        territory=battle.territory,
        origins=battle.origins,
        attacker=battle.attacker,
        attackers=attackers,
        defender=battle.defender,
        defenders=[n for n in participants if n not in attackers],
        rounds=battle.rounds,
        strait=battle.strait,
        losses=losses_by_nation(battle, participants),
        captured=captured,
        withdrawn=battle.withdrawn,
        clash=battle.clash,
        air_rounds=battle.air_rounds,
        rolls=[battle.first_roll, len(ctx.dice.log)],
    )
    battle_forces.tell_forces(ctx, battle, attackers, participants)  # each participant's view of the forces


def losses_by_nation(battle: Battle, participants: Sequence[str]) -> dict[str, dict[str, int]]:
    """nation -> kind -> units lost, for every participant (an attacker is never a defender)."""
    merged = {**battle.defend.losses, **battle.attack.losses}
    return {n: dict(sorted(merged.get(n, {}).items())) for n in participants}
