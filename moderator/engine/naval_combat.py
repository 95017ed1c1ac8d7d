"""Phase 4.3: Naval Combat -- one battle between task forces in one sea zone.

The naval step (phase4_naval.py) decides who meets whom (contact, 4.2) and calls fight()
with the two sides; this module fights the rounds the rules' steps 4-7 describe:

- Step 4: "All attacking ships ... roll for hits. Then defending ships ... roll for
  defense": one D10 per ship, a hit at or under its value. A side that sought the battle
  (it made the contact: an aggressive task force, an escort intercepting, submarines
  attacking, ships that detected submarines) rolls its attack values, the other side its
  defense values; when both sought it, both attack (reading, docs/rules-coverage.md).
- Step 4 with Phase 2.1's table: every ship fights with its own technology levels
  (values: Improved Battleships, Cruisers, Transports, Submarines, Carriers); Improved
  Battleships 3's "Second attack (2 attacks per combat round)": two D10s for such a
  battleship when its side attacks (attacks).
- Step 5: one hit removes one ship, "except for Battleships and Aircraft Carriers, both
  which can take two or more hits" (`hits`, with technology); a damaged one is kept.
  Battleships: "Damaged battleships may not attack or shore-bombard (attack/support value
  is 0), but may move and defend." A side takes as many hits in a round as its ships can
  absorb (take_hits), not one a ship. A ship damaged and later sunk is told among the
  losses only: the event's `damaged` is the ships left afloat damaged (NavalSide.damaged).
- Aircraft Carriers: the fighters aboard a carrier the battle sank land on the nation's
  other carriers there with room, else fly to friendly land, else are lost (carrier_loss).
- First round: 4.2.1 "Task forces in a troop transport mission ... cannot fight back
  during the first round of combat"; 4.2.3 and the note after 4.3: shore-bombarding
  battleships "use only 25% of their full attack/defense value against ships (rounded
  down)" in the first round.
- Free rounds: an escort that intercepts (4.2 example: "has free round against British
  TF before British TF can respond"), submarines that attack (note after 4.3: "Subs
  attacking surface vessels ... will have a free attack against them"), ships that detect
  submarines (4.2.9 note: "free round of combat before subs can strike back"): those
  ships fire alone once before the first round.
- Step 6: the attacker may retreat: its conditional orders for the sea zone (WITHDRAW
  ... from a battle there: combat_orders) are read after each round.
- 4.2: "On all subsequent rounds of combat opposing task forces can lose contact with
  enemy so the battle can end": after each round every side that sought the battle rolls
  its sighting again (its surviving ships' aggressive factors against the other side's
  best defensive factor); when none sights, contact is lost and the battle ends.
- Sonar: "all subs attacking a task force with a sonar unit in it receive -1 to their
  attack": submarines on a side that sought the battle, against a side with a sonar ship
  (engine/gear_aboard.py; radar's +2 to the sighting is there too). Radar: "Enemy planes
  receive -1 to their attack when radar is present": aircraft against a side with a
  radar ship.
- Transports: "If at any time a transport is sunk while carrying troops, then whatever
  was being transported is also sunk."
- Multinational sides (note after 4.6.1, "all combats--air, land or naval"): hits are
  shared by each nation's share of its side's combat total, and a single nation facing
  several gets one fictive zero-value ship, taken first.

Casualties are the owner's choice; the default is the nation's standing CASUALTIES
order (the sea zone's, else its general one), then a hit on an undamaged battleship or
carrier (it is only damaged), then the cheapest ship first, by kind and id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from moderator.engine import battlefield, carrier_loss, fuel, gear_aboard, naval_forces, phase4_naval
from moderator.engine.casualty_shares import share
from moderator.engine.combat_orders import BattleOrders, withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.state import AIR_UNITS, Unit
from moderator.world.scenario_model import UnitStats

PHASE = "4.3"
MAX_ROUNDS = 100  # safety net; a flag is raised if a battle ever gets there
BOMBARD_SHARE = (25, 100)  # 4.2.3: "only 25% of their full attack/defense value ... (rounded down)"
FICTIVE = "fictive"


@dataclass
class Ship:
    unit: Unit
    fleet: str  # the task force's key, "nation/name"
    mission: str  # its mission when the battle began (first-round penalties)
    cargo: list[Unit] = field(default_factory=list)  # troops aboard a transport


@dataclass
class NavalSide:
    ships: list[Ship]
    sought: bool  # it sought the battle: attack values (step 4)
    fictive: bool = False
    against_sonar: bool = False  # the other side has sonar aboard: its submarines attack at -1 (Sonar)
    against_radar: bool = False  # the other side has radar aboard: its aircraft attack at -1 (Radar)
    losses: dict[str, dict[str, int]] = field(default_factory=dict)
    hurt: dict[str, Unit] = field(default_factory=dict)  # id -> ship hit in this battle and not sunk by that hit

    def nations(self) -> list[str]:
        return sorted({s.unit.nation for s in self.ships})

    def kinds(self) -> list[str]:
        return [s.unit.kind for s in self.ships]

    def lose(self, nation: str, kind: str, n: int = 1) -> None:
        per = self.losses.setdefault(nation, {})
        per[kind] = per.get(kind, 0) + n

    def damaged(self) -> dict[str, dict[str, int]]:
        """nation -> kind -> ships this battle damaged that are still afloat at its end: a
        ship hit and later sunk is told once, among the losses."""
        out: dict[str, dict[str, int]] = {}
        for u in self.hurt.values():
            if any(s.unit.id == u.id for s in self.ships):
                per = out.setdefault(u.nation, {})
                per[u.kind] = per.get(u.kind, 0) + 1
        return out


@dataclass
class NavalBattle:
    zone: str
    sides: tuple[NavalSide, NavalSide]
    first_roll: int
    orders: tuple[BattleOrders, BattleOrders]
    rounds: int = 0
    free: str | None = None  # why a side had a free round ("escort", "submarines", "detection")
    ended: str = ""  # "destroyed", "contact-lost", "withdrawn", "submarines-dive", "round-limit"
    withdrawn: str | None = None
    aa_hits: int = 0  # planes downed by the ships' AA guns (4.3 step 3)
    retreating: int | None = None  # the index in `sides` of the side that withdrew (step 6)
    nations: tuple[list[str], list[str]] = ([], [])  # each side's nations as the battle began, and of ships joining
    fictive_given: set[int] = field(default_factory=set)  # the sides (0, 1) given the multinational fictive unit
    flown: dict[str, int] = field(default_factory=dict)  # aircraft id -> the rounds it fought, when it left early


def values(ctx: TurnContext, unit: Unit) -> UnitStats:
    """A ship's values with its own technology levels (Phase 2.1's Advancements table,
    engine/technology.py: Improved Battleships' hits, attack and second attack, Improved
    Cruisers, Transports, Submarines, Carriers' hits); aircraft's with their nation's
    levels, as phase4_land reads them."""
    if unit.kind in AIR_UNITS:
        found = ctx.stats(unit.nation, unit.kind)
    else:
        found = ctx.stats(unit.nation, unit.kind, unit)
    return found or ctx.scenario.stats(unit.nation, unit.kind)


def hits_to_kill(ctx: TurnContext, unit: Unit) -> int:
    return max(1, values(ctx, unit).hits)


def fire_value(ctx: TurnContext, side: NavalSide, ship: Ship, first_round: bool) -> int:
    """A ship's number on the D10 this round (steps 4-5, 4.2.1, 4.2.3)."""
    stats = values(ctx, ship.unit)
    if side.sought:
        value = 0 if ship.unit.damage and stats.hits > 1 else stats.attack  # damaged: may not attack
    else:
        value = stats.defense
    if first_round and ship.mission == "transport":
        return 0  # 4.2.1: cannot fight back during the first round
    if first_round and ship.mission == "bombard" and ship.unit.kind == "battleship":
        value = value * BOMBARD_SHARE[0] // BOMBARD_SHARE[1]
    if ship.unit.kind == "submarine" and side.sought and side.against_sonar:
        value = max(0, value - gear_aboard.SONAR_PENALTY)  # Sonar: attacking subs -1
    if ship.unit.kind in AIR_UNITS and side.against_radar:
        value = max(0, value - gear_aboard.RADAR_PENALTY)  # Radar: "Enemy planes receive -1 to their attack"
    return value


def roll(ctx: TurnContext, battle: NavalBattle, side: NavalSide, ships: Sequence[Ship], label: str,
         first_round: bool) -> int:
    return len(hitters(ctx, battle, side, ships, label, first_round))


def hitters(ctx: TurnContext, battle: NavalBattle, side: NavalSide, ships: Sequence[Ship], label: str,
            first_round: bool) -> list[Ship]:
    """The ships (and aircraft) that score a hit this round: one D10 each, in order."""
    out = []
    for s in ships:
        value = fire_value(ctx, side, s, first_round)
        if value <= 0:
            continue
        for n in range(attacks(ctx, side, s)):
            purpose = f"naval combat in {battle.zone} {label}: {s.unit.nation} {s.unit.kind}" + (" again" if n else "")
            if ctx.dice.d10(purpose) <= value:
                out.append(s)  # a ship that hits twice is here twice
    return out


def attacks(ctx: TurnContext, side: NavalSide, ship: Ship) -> int:
    """The D10s a ship rolls: Improved Battleships 3, "Second attack (2 attacks per combat
    round)" (the table: attack "2x"): a battleship with it rolls twice at its attack value
    when its side attacks (it sought the battle: step 4), in every round and free round;
    defending (and in the defensive fire at aircraft, steps 2 and 6) it rolls once, as the
    table doubles only its attack (a reading, docs/rules-coverage.md)."""
    return max(1, values(ctx, ship.unit).attacks) if side.sought and ship.unit.kind not in AIR_UNITS else 1


def strike(ctx: TurnContext, battle: NavalBattle, side: NavalSide, orders: BattleOrders, scored: Sequence[Ship],
           first_round: bool) -> None:
    """Step 5's last sentence: "hits scored by submarines can only be applied to ships"; the
    other hits go to any ship or aircraft of the side. Against ships alone it is one count."""
    if not any(s.unit.kind in AIR_UNITS for s in side.ships):
        take_hits(ctx, battle, side, orders, len(scored), first_round)
        return
    subs = sum(1 for s in scored if s.unit.kind == "submarine")
    take_hits(ctx, battle, side, orders, len(scored) - subs, first_round)
    take_hits(ctx, battle, side, orders, subs, first_round, ships_only=True)


def take_hits(ctx: TurnContext, battle: NavalBattle, side: NavalSide, orders: BattleOrders, hits: int,
              first_round: bool, ships_only: bool = False) -> None:
    """Step 5: one hit removes a ship (or an aircraft), or damages a battleship or carrier.
    ships_only: the submarines' hits, never applied to aircraft."""
    if hits and side.fictive:
        side.fictive = False  # the multinational note's fictive unit goes first
        hits -= 1
    if not hits or not side.ships:
        return
    nations = side.nations()
    strength = {n: sum(max(1, fire_value(ctx, side, s, first_round)) for s in side.ships if s.unit.nation == n)
                for n in nations}
    # Step 5: a battleship or carrier takes "two or more hits": a nation can take as many
    # hits as its ships (and aircraft) have left, not one a ship
    left = {n: sum(hits_to_kill(ctx, s.unit) - s.unit.damage for s in side.ships
                   if s.unit.nation == n and not (ships_only and s.unit.kind in AIR_UNITS)) for n in nations}
    quota = share(hits, strength, left, ctx.dice, f"naval combat in {battle.zone}, odd hit")
    for nation in nations:
        first = orders.casualty.get(nation, ())
        for _ in range(quota[nation]):
            mine = [s for s in side.ships if s.unit.nation == nation and not (ships_only and s.unit.kind in AIR_UNITS)]
            if not mine:
                break

            def key(s: Ship, first: tuple[str, ...] = first) -> tuple[int, int, int, str, str]:
                rank = first.index(s.unit.kind) if s.unit.kind in first else len(first)
                absorbs = 0 if s.unit.damage + 1 < hits_to_kill(ctx, s.unit) else 1
                cost = values(ctx, s.unit).cost
                return rank, absorbs, cost, s.unit.kind, s.unit.id

            hit = min(mine, key=key)
            hit.unit.damage += 1
            if hit.unit.damage < hits_to_kill(ctx, hit.unit):
                side.hurt[hit.unit.id] = hit.unit
                continue
            side.ships.remove(hit)
            side.lose(nation, hit.unit.kind)
            sink(ctx, hit.unit)
            for troop in hit.cargo:  # Transports: whatever was carried sinks with it
                side.lose(troop.nation, troop.kind)
                sink(ctx, troop)


def sink(ctx: TurnContext, unit: Unit) -> None:
    ctx.state.remove_units([unit])


def contact_factors(ctx: TurnContext, seeker: NavalSide, other: NavalSide) -> list[int]:
    """4.2: the sighting numbers of a side that sought the battle, after a round: its ships'
    aggressive factors against the other side's best defensive factor; a battleship or
    carrier with one hit left has none ("cannot use aggresive reconaissance factor")."""
    kinds = [s.unit.kind for s in seeker.ships if not (s.unit.damage + 1 >= hits_to_kill(ctx, s.unit) > 1)]
    return phase4_naval.aggressive_factors(kinds, other.kinds(),
                                           radar=gear_aboard.carries(ctx, [s.unit for s in seeker.ships], "radar"))


def sights(ctx: TurnContext, battle: NavalBattle, seeker: NavalSide, other: NavalSide) -> bool:
    """4.2: does the side that sought the battle keep contact? (contact_factors, rolled)"""
    factors = contact_factors(ctx, seeker, other)
    return phase4_naval.engages(factors, ctx.dice, f"naval combat in {battle.zone} round {battle.rounds}: contact")


def fight(
    ctx: TurnContext, zone: str, first: NavalSide, second: NavalSide,
    orders: tuple[BattleOrders, BattleOrders] = (BattleOrders(), BattleOrders()),
    free: tuple[NavalSide, list[Ship], str] | None = None,
    after_round: Callable[[NavalBattle], str | None] | None = None,
    opening: Callable[[NavalBattle], None] | None = None,
    fuel_spent: Mapping[str, int] | None = None,
    joining: Sequence[Ship] = (),
) -> NavalBattle:
    """Fight the battle to its end; sunk ships (and their cargo) leave ctx.state.

    free: (side, its ships that fire alone first, why). after_round: the caller's own end
    of a battle (submarines diving after the first round of a detection). opening: the
    caller's fire after the free round and before the first (4.3 step 3, the ships' AA).
    fuel_spent: aircraft id -> fuel its planes spent before the battle (the guards' air
    combat, 4.3 step 1), for the fighters of a sunk carrier (carrier_loss). joining:
    ships that join the second side once the free round is over (the note after 4.3:
    after the submarines' free attack "ALL ships in the same sea zone can engage
    attacking subs")."""
    battle = NavalBattle(zone, (first, second), len(ctx.dice.log), orders)
    a, b = first, second
    arm(ctx, battle)
    flyers = [s.unit.id for side in (a, b) for s in side.ships if s.unit.kind in AIR_UNITS]
    if free is not None:
        side, ships, why = free
        other = b if side is a else a
        battle.free = why
        scored = hitters(ctx, battle, side, ships, f"free round ({why})", first_round=False)
        strike(ctx, battle, other, orders[0] if other is a else orders[1], scored, first_round=False)
    if joining and a.ships:
        b.ships += list(joining)
        arm(ctx, battle)
    if opening is not None and a.ships and b.ships:
        opening(battle)
    while a.ships and b.ships:
        if battle.rounds >= MAX_ROUNDS:
            battle.ended = "round-limit"
            ctx.flag(PHASE, "battle-round-limit", territory=zone)
            break
        battle.rounds += 1
        one = battle.rounds == 1
        a_hits = hitters(ctx, battle, a, list(a.ships), f"round {battle.rounds}", one)
        b_hits = hitters(ctx, battle, b, list(b.ships), f"round {battle.rounds}", one)
        strike(ctx, battle, b, orders[1], a_hits, one)
        strike(ctx, battle, a, orders[0], b_hits, one)
        if not (a.ships and b.ships):
            battle.ended = "destroyed"
            break
        for index, (side, other, own) in enumerate(((a, b, orders[0]), (b, a, orders[1]))):
            if side.sought and own.conditions:
                lost = sum(n for per in side.losses.values() for n in per.values())
                kills = sum(n for per in other.losses.values() for n in per.values())
                battle.withdrawn = withdrawal(own.conditions, battle.rounds, lost, kills)
                if battle.withdrawn:
                    battle.retreating = index
                    break
        if battle.withdrawn:
            battle.ended = "withdrawn"
            break
        ending = after_round(battle) if after_round else None
        if ending:
            battle.ended = ending
            break
        seekers = [(s, o) for s, o in ((a, b), (b, a)) if s.sought]
        if not any([sights(ctx, battle, s, o) for s, o in seekers]):  # every seeker rolls
            battle.ended = "contact-lost"
            break
    if not battle.ended:
        battle.ended = "destroyed"
    spent = dict(fuel_spent or {})
    for plane in flyers:  # Fighters: "1 fuel point for each round of combat the fighter participates in"
        spent[plane] = spent.get(plane, 0) + battle.flown.get(plane, battle.rounds) * fuel.ROUND
    for nation in sorted({n for side in (a, b) for n, lost in side.losses.items() if lost.get("carrier")}):
        carrier_loss.strand(ctx, zone, nation, spent)  # Aircraft Carriers: the fighters aboard a sunk carrier
    return battle


def arm(ctx: TurnContext, battle: NavalBattle) -> None:
    """The sides as they fight (again after ships join them): who meets whose weaponry
    (Phase 2.1), sonar and radar against them, the multinational fictive unit (note after
    4.6.1: to a single nation's side against several), each side's nations."""
    a, b = battle.sides
    battlefield.fought(ctx, [s.unit for s in a.ships], [s.unit for s in b.ships])  # Phase 2.1
    a.against_sonar = a.against_sonar or gear_aboard.carries(ctx, [s.unit for s in b.ships], "sonar")
    b.against_sonar = b.against_sonar or gear_aboard.carries(ctx, [s.unit for s in a.ships], "sonar")
    a.against_radar = a.against_radar or gear_aboard.carries(ctx, [s.unit for s in b.ships], "radar")
    b.against_radar = b.against_radar or gear_aboard.carries(ctx, [s.unit for s in a.ships], "radar")
    for index, (side, other) in enumerate(((a, b), (b, a))):
        if index not in battle.fictive_given and len(side.nations()) == 1 and len(other.nations()) > 1:
            side.fictive = True  # one a battle: not again once taken as a casualty
            battle.fictive_given.add(index)
    battle.nations = (sorted({*battle.nations[0], *a.nations()}), sorted({*battle.nations[1], *b.nations()}))


def battle_event(ctx: TurnContext, battle: NavalBattle, fleets: Sequence[str]) -> None:
    """naval-battle: seen by every nation that fought in it. fleets: the task forces, "nation/name"."""
    a, b = battle.sides
    participants = sorted({*battle.nations[0], *battle.nations[1], *a.losses, *b.losses})
    losses = {n: dict(sorted({**b.losses.get(n, {}), **a.losses.get(n, {})}.items())) for n in participants}
    hurt = (a.damaged(), b.damaged())
    damaged = {n: dict(sorted({**hurt[1].get(n, {}), **hurt[0].get(n, {})}.items())) for n in participants}
    ctx.emit("naval-battle", PHASE, participants, zone=battle.zone, fleets=list(fleets),
             first=battle.nations[0], second=battle.nations[1],
             rounds=battle.rounds, free=battle.free or "", ended=battle.ended, losses=losses, damaged=damaged,
             withdrawn=battle.withdrawn, aa=battle.aa_hits, rolls=[battle.first_roll, len(ctx.dice.log)])
    naval_forces.tell_forces(ctx, battle)  # each participant's view of the forces, under the battle
