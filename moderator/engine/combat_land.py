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
Not yet: trenches, AA pre-combat fire, aircraft fuel,
ports and industrial complexes as defenders, tactical-bombing bonus.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from moderator.engine import terrain
from moderator.engine.combat_orders import BattleOrders, withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.state import Unit

PHASE = "4.6"
STRAIT_PENALTY = {"infantry": 2, "artillery": 2}  # Straits
STRAIT_ATTACKERS = frozenset(STRAIT_PENALTY)
CAPTURERS = frozenset({"infantry", "tank"})  # 4.4: only infantry or tanks capture
# Kinds whose presence lets artillery defend at full value (Artillery).
SUPPORTING = frozenset({"infantry", "tank", "fighter", "bomber"})
MAX_ROUNDS = 200  # safety net; a flag is raised if a battle ever gets there

VIRTUAL = ("fictive", "coastal")  # taken before real units, in this order


@dataclass
class Fighter:
    nation: str
    kind: str  # a unit kind, or "city" / "coastal" / "fictive"
    unit: Unit | None = None  # None for the virtual ones
    strait: bool = False  # attacking across a strait (Straits penalty)

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

    def standing(self) -> bool:
        """Anything left that fights on: real units or the coastal defender (not the fictive one)."""
        return any(f.kind != "fictive" for f in self.fighters)

    def nations(self) -> list[str]:
        return sorted({f.nation for f in self.real()})

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


def value_of(ctx: TurnContext, battle: Battle, side: Side, f: Fighter) -> int:
    if f.kind in ("fictive", "coastal", "city"):
        return 0 if f.kind == "fictive" else 1
    stats = ctx.stats(f.nation, f.kind, f.unit)  # the unit's technology (engine/technology.py)
    assert stats is not None
    if side.role == "attacker":
        value = stats.attack
        if f.strait and f.kind in STRAIT_PENALTY:
            value = max(1, value - STRAIT_PENALTY[f.kind])
        return value
    if f.kind == "artillery" and not any(g.kind in SUPPORTING for g in side.real()):
        return 1  # Artillery: unsupported artillery defends at 1
    return terrain.defense(ctx.world, ctx.scenario, battle.territory, f.kind, stats.defense)  # mountains


def cost_of(ctx: TurnContext, f: Fighter) -> int:
    stats = ctx.stats(f.nation, f.kind, f.unit)
    return stats.cost if stats is not None else 0


def roll_side(ctx: TurnContext, battle: Battle, side: Side) -> int:
    hits = 0
    for f in side.fighters:
        v = value_of(ctx, battle, side, f)
        if v <= 0:
            continue
        purpose = f"land combat at {battle.territory} round {battle.rounds}: {side.role} {f.nation} {f.kind}"
        dice = terrain.defense_dice(ctx.world, ctx.scenario, battle.territory, f.kind) if side.role == "defender" and f.unit else 1
        for _ in range(dice):  # Gibraltar: defending infantry roll 3 dice
            if ctx.dice.d10(purpose) <= v:
                hits += 1
    if side.role == "defender" and battle.city_holder and side.real():
        purpose = f"land combat at {battle.territory} round {battle.rounds}: defender {battle.city_holder} city"
        if ctx.dice.d10(purpose) <= 1:  # Cities: defense 1
            hits += 1
    return hits


def take_casualties(ctx: TurnContext, battle: Battle, side: Side, hits: int) -> None:
    for kind in VIRTUAL:
        for f in [f for f in side.fighters if f.kind == kind]:
            if hits == 0:
                return
            side.lose(f)
            hits -= 1
    quota = share_hits(ctx, battle, side, hits)
    for nation in sorted(quota):
        first = battle.orders.casualty.get(nation, ())

        def key(f: Fighter, first: tuple[str, ...] = first) -> tuple[int, int, str, str]:
            rank = first.index(f.kind) if f.kind in first else len(first)
            return rank, cost_of(ctx, f), f.kind, f.unit.id if f.unit else ""

        for f in sorted((f for f in side.real() if f.nation == nation), key=key)[: quota[nation]]:
            side.lose(f)


def share_hits(ctx: TurnContext, battle: Battle, side: Side, hits: int) -> dict[str, int]:
    """Split hits between a side's nations by their share of its combat total (4.6.1 note).

    Largest remainder, ties by nation id; a nation never loses more than it has, and
    what it cannot take goes to the others in nation order.
    """
    nations = side.nations()
    count = {n: sum(1 for f in side.real() if f.nation == n) for n in nations}
    hits = min(hits, sum(count.values()))
    if len(nations) <= 1:
        return {n: hits for n in nations}
    strength = {n: sum(max(1, value_of(ctx, battle, side, f)) for f in side.real() if f.nation == n)
                for n in nations}
    total = sum(strength.values())
    quota = {n: hits * strength[n] // total for n in nations}
    rest = hits - sum(quota.values())
    by_remainder = sorted(nations, key=lambda n: (-(hits * strength[n] % total), n))
    for n in by_remainder[:rest]:
        quota[n] += 1
    overflow = sum(max(0, quota[n] - count[n]) for n in nations)
    quota = {n: min(quota[n], count[n]) for n in nations}
    for n in nations:
        extra = min(overflow, count[n] - quota[n])
        quota[n] += extra
        overflow -= extra
    return quota


def add_fictive(attack: Side, defend: Side) -> None:
    """Multinational note after 4.6.1: the single-nation side gets one fictive unit."""
    a, d = attack.nations(), defend.nations()
    if len(a) == 1 and len(d) > 1:
        attack.fighters.insert(0, Fighter(a[0], "fictive"))
    if len(d) == 1 and len(a) > 1:
        defend.fighters.insert(0, Fighter(d[0], "fictive"))


def attack_goes_on(side: Side) -> bool:
    """Artillery alone cannot carry an attack (Artillery)."""
    return any(f.kind != "artillery" for f in side.real())


def fight(
    ctx: TurnContext, territory: str, origins: Sequence[str], attacker: str,
    attackers: Sequence[Unit], defenders: Sequence[Unit], across: Collection[str] = frozenset(),
    orders: BattleOrders | None = None,
) -> Battle:
    """Fight the battle to its end, removing dead units from ctx.state; returns the record.

    across: ids of the attacking units that cross a strait to get there."""
    holder = ctx.state.controller(territory)
    city = ctx.world.territories[territory].city
    strait = any(u.id in across for u in attackers)
    battle = Battle(
        territory, sorted(origins), attacker, strait, holder if city else None,
        Side("attacker", [Fighter(u.nation, u.kind, u, u.id in across) for u in attackers]),
        Side("defender", [Fighter(u.nation, u.kind, u) for u in defenders]),
        first_roll=len(ctx.dice.log),
        defending_nations=tuple(sorted({u.nation for u in defenders} | ({holder} if strait and holder else set()))),
        orders=orders or BattleOrders(),
        defender=holder,
    )
    if strait and holder:
        battle.defend.fighters.insert(0, Fighter(holder, "coastal"))  # Straits
    add_fictive(battle.attack, battle.defend)
    while battle.attack.real() and battle.defend.standing() and battle.rounds < MAX_ROUNDS:
        battle.rounds += 1
        a_hits = roll_side(ctx, battle, battle.attack)
        d_hits = roll_side(ctx, battle, battle.defend)
        take_casualties(ctx, battle, battle.defend, a_hits)
        take_casualties(ctx, battle, battle.attack, d_hits)
        if not attack_goes_on(battle.attack):
            break
        if battle.defend.standing() and battle.attack.real():
            battle.withdrawn = withdrawal(battle.orders.conditions, battle.rounds,
                                          real_losses(battle.attack), real_losses(battle.defend))
            if battle.withdrawn:
                break
    if battle.rounds >= MAX_ROUNDS:
        ctx.flag(PHASE, reason="battle-round-limit", territory=territory)
    alive = {f.unit.id for side in (battle.attack, battle.defend) for f in side.fighters if f.unit}
    lost_ids = {u.id for u in (*attackers, *defenders)} - alive
    ctx.state.units = [u for u in ctx.state.units if u.id not in lost_ids]
    return battle


def real_losses(side: Side) -> int:
    return sum(n for per in side.losses.values() for k, n in per.items() if k not in VIRTUAL)


def survivors(battle: Battle) -> list[Unit]:
    return [f.unit for f in battle.attack.fighters if f.unit is not None]


def defenders_left(battle: Battle) -> bool:
    return battle.defend.standing()


def battle_event(ctx: TurnContext, battle: Battle, captured: bool) -> None:
    """BattleFought: seen by every nation that fought in it."""
    participants = sorted({battle.attacker, *battle.defending_nations})
    ctx.emit(
        "battle", PHASE, participants,
        territory=battle.territory,
        origins=battle.origins,
        attacker=battle.attacker,
        defender=battle.defender,
        defenders=[n for n in participants if n != battle.attacker],
        rounds=battle.rounds,
        strait=battle.strait,
        losses=losses_by_nation(battle, participants),
        captured=captured,
        withdrawn=battle.withdrawn,
        rolls=[battle.first_roll, len(ctx.dice.log)],
    )


def losses_by_nation(battle: Battle, participants: Sequence[str]) -> dict[str, dict[str, int]]:
    """nation -> kind -> units lost, for every participant (the attacker is never a defender)."""
    merged = {**battle.defend.losses, **battle.attack.losses}
    return {n: dict(sorted(merged.get(n, {}).items())) for n in participants}
