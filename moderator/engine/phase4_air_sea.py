"""4.2-4.3: aircraft flown from land to attack the enemy's ships in a sea zone.

4.2: "Aircraft being sent into a sea zone without any accompanying ships to attack an
enemy fleet also move during naval movement." An ATTACK of fighters and bombers FROM a
land territory TO a sea zone (engine/orders/move.py judges it, with the fuel: 2 a sea zone,
1 a round, enough left to reach friendly land, "a minimum of 5 fuel points before they can
enter into a sea zone for combat", Fighters) is flown here, when the ships have finished
moving (phase4_sea.naval_movement), against every surface ship in the zone of a nation at
war with the attacker:

- 4.3 step 2: "Defending ships get to roll their defensive factors against any attacking
  aircraft ... The attack removes one plane for each hit that is taken. Aircraft at this
  stage do NOT get to roll": the ships' free round (naval_combat.fight's `free`).
- Step 4-5: the aircraft roll their attack values, the ships their defense values; hits
  remove ships (battleships and carriers take two), the ships' hits remove aircraft.
- Fuel (Fighters; 4.5 step 3): each plane fights the rounds its fuel pays for; when none
  is left the attack ends, and (step 6) "Retreating aircraft are subject to 1 round of
  defensive fire as listed in step 2, but no AA fire": the ships fire once more at the
  aircraft that leave with ships still afloat (by fuel, or by the attacker's WITHDRAW
  condition for the sea zone). Contact is kept or lost as in any naval battle (4.2: the
  aircraft's aggressive factors, fighters 2 and bombers 4, against the ships' best
  defensive factor).
- The aircraft then fly home, or to the nearest friendly land their fuel reaches
  (phase4_sea.fly_home).
- Radar: "If on a ship, that ship has a 50% chance of detecting them, and the ships have
  the option of retreating to an adjacent sea zone" (radar_warning), before step 1.

Every attack on one sea zone is one battle: the attackers' aircraft together (allies,
guideline 2, with the multinational note's sharing), ordered by nation and order.
- Step 1: "Any fighter stationed aboard undamaged aircraft carriers may attempt to
  intercept any aircraft in the attacking force and engage in air combat": the air combat
  comes first (engine/air_combat_sea.py); the strikers that get past it attack, and the
  interceptors left defend with the ships in the rounds (step 4: "defending ships and
  planes roll for defense"), not in the ships' free fire of steps 2 and 6.
  The fighters sent from land as cover (a MOVE of aircraft to the sea zone; 4.2: "Aircraft
  may be sent into a sea zone during naval movement and assigned to a task force as
  cover"; step 1: "all protecting fighters from land can fight attacking aircrafts")
  intercept too, with the fuel that still takes them home; the cover flies home when the
  zone's strikes are over, unless its fighters can land aboard their nation's carriers
  there (their room, damaged ones too: "fighters may still land on it"): then they stay
  aboard (Aircraft Carriers: "an aircraft carrier allows extended aerial operations").
- Step 3: "Any AA guns on the ships get to fire at the planes that are going to attack"
  (ships_aa): after the ships' free fire, each gun aboard (gear_aboard.guns) rolls one
  D10 at the nation's AA value (Improved AA: 2), its hits taking planes only. Anti Air
  Guns: "Ships with AA guns mounted ... use AA guns then as though the AA were placed in
  provinces--one roll for each gun before air attack and then the ships fire during each
  round of combat as usual": once, before the rounds (a reading: not again each round as
  improved guns on land do; step 7 repeats steps 4-7 only), and step 6 says "no AA fire"
  at leaving aircraft.
The cover also joins a battle when submarines intercept its task forces ("If subs attack
that task force, the aircraft may then participate in the battle": phase4_sea.cover_over,
with the cover taken as the naval step begins, take_flights); strikes do not attack
submarines (they are found only by detection, 4.2.9).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from moderator.engine import air_combat_sea, fuel, gear_aboard, naval_combat, phase4_naval, phase4_sea
from moderator.engine.combat_orders import BattleOrders
from moderator.engine.context import TurnContext
from moderator.engine.naval_combat import NavalBattle, NavalSide, Ship
from moderator.engine.orders import move
from moderator.engine.placement import carrier_room
from moderator.engine.state import AIR_UNITS, Unit, kinds
from moderator.orders.model import Attack, CombatCondition, Move

PHASE = "4.3"
FUEL_GONE = "aircraft-home"
RADAR_SIGHTS = 5  # Radar: "that ship has a 50% chance of detecting them": 1-5 on a D10


Flight = tuple[Unit, str, int]  # (plane, origin, order index)


def take_flights(ctx: TurnContext, sea: phase4_sea.Sea, from_land: bool) -> None:
    """The aircraft of the MOVE/ATTACK orders flown in the naval step, in the orders' order,
    into sea.strikes and sea.cover by zone: those from land as the step begins (the cover
    is over its zone while the ships move, 4.2: "Aircraft may be sent into a sea zone
    during naval movement and assigned to a task force as cover. If subs attack that task
    force, the aircraft may then participate in the battle"), those off carriers once the
    ships have moved (they take off from where they are then)."""
    for nation, index, order in ctx.orders_of(Move):
        if ctx.is_sea(order.origin) == from_land:
            continue
        if not move.flown_at_sea(ctx, nation, order) or move.RULE.problem(ctx, nation, order) is not None:
            continue
        if short(ctx, nation, index, order):
            continue  # earlier moves of step 4.4 name these aircraft: refused there, never flown
        taken = [u for uc in order.units for u in ctx.free(nation, order.origin, uc.kind)[: uc.count]]
        if not taken:
            continue  # fighters that sailed away with their carrier
        ctx.claim(taken)  # the ids only: the order is counted in step 4.4, as the checker counts it
        move.take_off(ctx, nation, order)  # judged now: step 4.4 does not judge their carriers again
        strikes = isinstance(order, Attack) or move.carrier_strike(ctx, nation, order)  # a MOVE at enemy aircraft
        if strikes and not isinstance(order, Attack) and not move.combat_ready(ctx, nation, order):
            # a MOVE off carriers (move.carrier_flight) that meets enemy aircraft without the
            # fuel to fight ("a minimum of 5 fuel points"): the fighters turn back at once
            for u in taken:
                phase4_sea.fly_home(ctx, u, order.origin, order.dest, 0)
            ctx.tell(nation, "aircraft-turned-back", PHASE, order=index, zone=order.dest, units=kinds(taken))
            continue
        (sea.strikes if strikes else sea.cover).setdefault(order.dest, []).extend(
            (u, order.origin, index) for u in taken)


def air_strikes(ctx: TurnContext, sea: phase4_sea.Sea) -> None:
    """Every strike on a sea zone, zone by zone (by name), with the cover flown there."""
    take_flights(ctx, sea, from_land=False)
    planes, cover = sea.strikes, sea.cover
    fought: dict[str, int] = {}  # cover plane id -> rounds of air combat
    for zone in sorted(planes):
        fought.update(strike(ctx, sea, zone, planes[zone], cover.get(zone, [])))
    for zone in sorted(cover):  # the cover lands aboard its carriers there, or flies home, when the strikes are over
        aboard: dict[tuple[str, int], list[Unit]] = defaultdict(list)
        for u, origin, index in cover[zone]:
            if u.kind == "fighter" and u in ctx.state.units and carrier_room(ctx, u.nation, zone) > 0:
                u.location = zone  # Aircraft Carriers: "an aircraft carrier allows extended aerial operations"
                aboard[(u.nation, index)].append(u)
            else:
                phase4_sea.fly_home(ctx, u, origin, zone, fought.get(u.id, 0) + sea.cover_fought.get(u.id, 0))
        for (nation, index), landed in sorted(aboard.items()):
            ctx.tell(nation, "aircraft-aboard", PHASE, order=index, zone=zone, units=kinds(landed))


def short(ctx: TurnContext, nation: str, index: int, order: Move) -> bool:
    """Would step 4.4 find the aircraft named by the nation's earlier MOVE/ATTACK orders
    (each unit does one thing a turn; the checker counts them in order)?"""
    for uc in order.units:
        before = sum(u.count for o in ctx.orders[nation][:index] if isinstance(o, Move) and o.origin == order.origin
                     for u in o.units if u.kind == uc.kind)
        if ctx.unclaimed(nation, order.origin, uc.kind) - before < uc.count:
            return True
    return False


def strike(ctx: TurnContext, sea: phase4_sea.Sea, zone: str, flying: list[tuple[Unit, str, int]],
           cover: Sequence[tuple[Unit, str, int]] = ()) -> dict[str, int]:
    """One strike on the zone's ships; returns the rounds of air combat each cover plane fought."""
    lead = flying[0][0].nation
    origins = {u.id: origin for u, origin, _ in flying}
    rounds = {u.id: phase4_sea.air_rounds(ctx, u, origins[u.id], zone) for u, _, _ in flying}
    radar_warning(ctx, sea, zone, [u for u, _, _ in flying])
    ships = [u for u in ctx.units_at(zone) if u.kind in phase4_naval.SURFACE_SHIPS and ctx.at_war(lead, u.nation)]
    planes = [u for u, _, _ in flying]
    fought = dict.fromkeys(rounds, 0)  # the rounds each plane fought, air and naval (its fuel)
    attacking: list[Unit] = []
    left: dict[str, int] = {}
    covering: list[Unit] = []
    if ships:
        # Step 1: the carriers' fighters (and fighters sent as cover) intercept first.
        guarding = air_combat_sea.guards(ctx, zone, sorted({u.nation for u in planes}), [u for u, _, _ in cover])
        flown = {u.id: origin for u, origin, _ in cover}  # from land: they keep the fuel to fly back
        air = air_combat_sea.fight(ctx, zone, planes, rounds, guarding,
                                   {g.id: phase4_sea.air_rounds(ctx, g, flown[g.id], zone) - sea.cover_fought.get(g.id, 0)
                                    if g.id in flown else air_combat_sea.carrier_rounds(ctx, g) for g in guarding})
        air_combat_sea.event(ctx, zone, air, planes)
        fought.update(air.fought)
        left = {u.id: rounds[u.id] - fought[u.id] for u in air.strikers}  # rounds still paid for at sea
        attacking = [u for u in air.strikers if left[u.id] >= 1]
        covering = [g for g in air.guards if g in ctx.state.units]  # step 4: "defending ships and planes"
    if ships and attacking:
        attackers = NavalSide([Ship(u, f"{u.nation}/aircraft", "attack") for u in attacking], sought=True)
        fleets = {u.id: f.key for f in sea.fleets for u in f.ships}
        defenders = NavalSide([Ship(u, fleets.get(u.id, f"{u.nation}/ships"), "defend") for u in ships]
                              + [Ship(g, f"{g.nation}/aircraft", "defend") for g in covering], sought=False)
        orders = (phase4_sea.battle_orders(ctx, attackers.nations(), zone),
                  phase4_sea.battle_orders(ctx, defenders.nations(), zone))
        gone: list[Ship] = []

        def fuel_left(battle: NavalBattle) -> str | None:
            for s in [s for s in attackers.ships if left[s.unit.id] <= battle.rounds]:
                attackers.ships.remove(s)  # out of fuel: it leaves the battle
                gone.append(s)
            return FUEL_GONE if not attackers.ships else None

        # Step 2: the ships alone fire first ("Defending ships get to roll their defensive factors").
        firing = [s for s in defenders.ships if s.unit.kind not in AIR_UNITS]

        def step_3(battle: NavalBattle) -> None:
            ships_aa(ctx, battle, defenders, attackers, orders[0])

        result = naval_combat.fight(ctx, zone, attackers, defenders, orders,
                                    free=(defenders, firing, "defensive fire"), after_round=fuel_left,
                                    opening=step_3,
                                    fuel_spent={g.id: air.guard_fought.get(g.id, 0) * fuel.ROUND for g in covering})
        attackers.ships += gone  # still flying: they leave together
        if defenders.ships and attackers.ships and result.ended in (FUEL_GONE, "withdrawn"):
            parting(ctx, result, defenders, attackers, orders[0])
        for f in sea.fleets:
            phase4_sea.settle(ctx, [f])
        naval_combat.battle_event(ctx, result, [f"{lead}/aircraft", *sorted({s.fleet for s in defenders.ships}
                                                                          | {fleets.get(u.id, "") for u in ships} - {""})])
        for u in attacking:
            fought[u.id] += min(result.rounds, left[u.id])
    for u, origin, _ in flying:
        phase4_sea.fly_home(ctx, u, origin, zone, fought[u.id])
    return dict(air.guard_fought) if ships else {}


def radar_warning(ctx: TurnContext, sea: phase4_sea.Sea, zone: str, strikers: Sequence[Unit]) -> None:
    """Radar: "If on a ship, that ship has a 50% chance of detecting them, and the ships have
    the option of retreating to an adjacent sea zone." Before the strike, each nation at war
    with the strikers whose orders take that option (WITHDRAW FROM the zone IF RADAR WARNS)
    rolls for each of its radar ships there, 1-5 on a D10; when one sights the aircraft, its
    task forces in the zone retreat as a withdrawing task force does (engine/naval_retreat.py:
    the TO zone if open, else where they came from, else the first open neighbour) and stop.
    The carriers' fighters go with their carriers; the strike meets the ships left."""
    attackers = sorted({u.nation for u in strikers})
    here = sorted({u.nation for u in ctx.units_at(zone) if u.kind in phase4_naval.SURFACE_SHIPS})
    for nation in here:
        if not any(ctx.at_war(nation, a) for a in attackers) or not warned_by_radar(ctx, nation, zone):
            continue
        radars = sorted((u for u in ctx.units_at(zone, nation) if "radar" in gear_aboard.aboard(ctx, u)),
                        key=lambda u: u.id)
        seen = [u for u in radars
                if ctx.dice.d10(f"radar in {zone}: {nation} {u.kind} watches for aircraft") <= RADAR_SIGHTS]
        if not seen:
            continue
        for f in [f for f in sea.fleets if f.nation == nation and f.zone == zone and f.ships]:
            ships = kinds(f.ships)
            phase4_sea.back(ctx, f)
            if f.zone != zone:
                ctx.tell(nation, "radar-retreat", PHASE, zone=zone, dest=f.zone, ships=ships)


def warned_by_radar(ctx: TurnContext, nation: str, zone: str) -> bool:
    return any(n == nation and c.kind == "radar" and ctx.name(c.dest) == zone
               for n, _, c in ctx.orders_of(CombatCondition))


def ships_aa(ctx: TurnContext, battle: NavalBattle, ships: NavalSide, planes: NavalSide,
             orders: BattleOrders) -> None:
    """4.3 step 3: one D10 for each AA gun aboard the ships still afloat, a hit at or under
    the nation's AA value (Anti Air Guns: "as though the AA were placed in provinces");
    the hits take planes only (step 5: "Hits scored by AA guns can only be used to destroy
    planes"), the owner's casualty order among them, else the cheapest first."""
    hits = 0
    for s in ships.ships:
        if s.unit.kind in AIR_UNITS:
            continue
        stats = ctx.stats(s.unit.nation, "aa")
        value = stats.defense if stats else 0
        for _ in range(gear_aboard.guns(ctx, s.unit)):
            if ctx.dice.d10(f"naval combat in {battle.zone} AA fire: {s.unit.nation} aa aboard {s.unit.kind}") <= value:
                hits += 1
    battle.aa_hits += hits
    naval_combat.take_hits(ctx, battle, planes, orders, hits, first_round=False)


def parting(ctx: TurnContext, battle: NavalBattle, ships: NavalSide, planes: NavalSide, orders: BattleOrders) -> None:
    """Step 6: the ships' one round of defensive fire at the aircraft that leave ("as listed
    in step 2": the ships, not the planes guarding them)."""
    firing = [s for s in ships.ships if s.unit.kind not in AIR_UNITS]
    scored = naval_combat.hitters(ctx, battle, ships, firing, "defensive fire at the leaving aircraft",
                                  first_round=False)
    naval_combat.strike(ctx, battle, planes, orders, scored, first_round=False)
