"""MOVE / ATTACK units FROM a TO b (Phase 4.4: Land Movement, and the land combat of 4.6).

A move takes land units to an adjacent land territory, and aircraft as far as their fuel
goes ("Fighters": 1 fuel into land, 2 into or out of a sea zone; fuel.py). Into friendly
land it is just a move; into empty enemy land infantry or tanks capture it (4.4: "Only
infantry or tanks can capture territories"); into enemy land with units it is an attack
(4.6, combat_land). Mountains keep units out (terrain.py, the map's features).

Phase 1.1: "If the war is not declared, then nation (and the block she is in) suffer double
penalty for US entry": an attack on a nation not yet at war with the mover is allowed,
starts the war without a declaration, and is flagged for the moderator (the US penalty).

Kept from the rules, held back at resolution (the rest of the order goes on): AA guns and
rockets never attack (Anti Air Guns, Rockets); artillery fires from home and does not
advance ("Artillery units cannot accompany units moving in enemy territory"); only
infantry and artillery attack across a strait (Straits).
Orders are resolved one after another, nations by id, each nation's moves as written; a
unit moves once a turn. When a move starts a battle, the nation's later moves into the
same territory join it: one battle, attacked from several sides. Aircraft flying into or
out of a sea zone go to the moderator (naval and air combat are not automated yet).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from moderator.engine import combat_land, combat_orders, fuel, terrain, wars
from moderator.engine.conquest import seize, take_territory
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders import artillery_support
from moderator.engine.orders.base import OrderRule, missing_units, refer, take_units
from moderator.engine.problems import Problem, flag, problem, warning
from moderator.engine.state import AIR_UNITS, LAND_UNITS, Unit, kinds
from moderator.orders.model import ArtillerySupport, Attack, Move
from moderator.world.model import World

PHASE = "4.4"
MOVABLE = frozenset(LAND_UNITS) | frozenset(AIR_UNITS)
NEVER_ATTACK = frozenset({"aa", "rocket"})
STAYS_AT_HOME = frozenset({"artillery"})  # fires in support, does not advance
SEA_COMBAT_FUEL = 5  # Fighters: "a minimum of 5 fuel points before they can enter into a sea zone for combat"


@dataclass
class Leg:
    """One Move order being carried out, with the units it took."""

    nation: str
    index: int
    order: Move
    units: list[Unit]

    @property
    def origin(self) -> str:
        return self.order.origin

    @property
    def dest(self) -> str:
        return self.order.dest


def strait_between(world: World, a: str, b: str) -> bool:
    """Straits: does the step a -> b cross one of the rules' straits (incl. the Suez Canal)?"""
    return world.is_strait(a, b)


def hostile(pos: Position, nation: str, dest: str) -> bool:
    """Does moving into `dest` attack someone (an enemy, or a nation not yet at war)?"""
    holder = pos.controller(dest)
    if holder is not None and not pos.allies(nation, holder):
        return True
    return bool(enemy_units(pos, nation, dest))


def enemy_units(pos: Position, nation: str, place: str) -> list[Unit]:
    """Units at `place` that would fight `nation`: not its own or allied, not on the rails."""
    return sorted((u for u in pos.units_at(place) if u.kind in MOVABLE and u.id not in pos.in_transit
                   and u.nation != nation and not pos.allies(nation, u.nation)), key=lambda u: u.id)


def landing_places(pos: Position, nation: str) -> list[str]:
    """Friendly land where aircraft may land (not the mountains)."""
    return [t.name for t in pos.world.lands() if pos.friendly(nation, t.name)
            and not terrain.no_landing(pos.world, pos.scenario, t.name)]


def air_problem(pos: Position, nation: str, order: Move, combat: bool) -> Problem | None:
    """Fighters and Bombers: fuel to get there, a round of combat, and back to a friend."""
    for kind in sorted({u.kind for u in order.units if u.kind in AIR_UNITS}):
        stats = pos.stats(nation, kind)
        tank = stats.fuel if stats else 0
        out = fuel.cheapest(pos.world, order.origin, order.dest, limit=tank)
        if out is None:
            return problem("out-of-range", order.dest, kind=kind, dest=order.dest, origin=order.origin, fuel=tank)
        if not combat:
            if terrain.no_landing(pos.world, pos.scenario, order.dest) or pos.is_sea(order.dest):
                return problem("cannot-land", order.dest, kind=kind, place=order.dest)
            continue
        if pos.is_sea(order.dest) and tank < SEA_COMBAT_FUEL:
            return problem("sea-combat-fuel", order.dest, kind=kind, fuel=tank)
        back = fuel.to_nearest(pos.world, order.dest, landing_places(pos, nation), limit=tank)
        if back is None or out + fuel.ROUND + back > tank:
            return problem("no-fuel-home", order.dest, kind=kind, dest=order.dest, fuel=tank)
    return None


def standing_problem(pos: Position, nation: str, order: Move) -> Problem | None:
    """What no battle of the turn can change: the order's shape, the map, the terrain and
    the units it names. Checked first, so that when several reasons apply the checker and
    the engine give the same one."""
    kinds = {u.kind for u in order.units}
    if order.origin == order.dest:
        return problem("move-same", order.dest, place=order.dest)
    ships = sorted(kinds - MOVABLE)
    if ships:
        return problem("move-ships", kinds=ships)
    ground = kinds - set(AIR_UNITS)
    if ground and at_sea(pos, order):
        return problem("move-sea", order.dest)
    if ground and not pos.adjacent(order.origin, order.dest):
        return problem("not-adjacent", order.dest, origin=order.origin, dest=order.dest)
    for kind in sorted(kinds):
        if not terrain.may_enter(pos.world, pos.scenario, nation, kind, order.dest):
            return problem("terrain-barred", order.dest, kind=kind, place=order.dest)
    return missing_units(pos, nation, order.origin, order.units)


def fighting_problem(pos: Position, nation: str, order: Move) -> Problem | None:
    """What the turn's battles can change: whether the destination is enemy land, hence
    the aircraft's fuel home and who may go in."""
    attack = hostile(pos, nation, order.dest)
    why = air_problem(pos, nation, order, attack)
    if why is not None:
        return why
    kinds = {u.kind for u in order.units}
    if attack and not kinds & combat_land.CAPTURERS and not enemy_units(pos, nation, order.dest):
        # 4.4: "Only infantry or tanks can capture territories"; nothing else may go in.
        return problem("cannot-capture", order.dest, place=order.dest)
    return None


def joined(pos: Position, nation: str, order: Move) -> bool:
    """Has this order joined an earlier move's battle (carry_out), so it is carried out?"""
    return any(o is order and pos.used(("joined", nation, str(i))) for i, o in enumerate(pos.orders.get(nation, ())))


def at_sea(pos: Position, order: Move) -> bool:
    return pos.is_sea(order.origin) or pos.is_sea(order.dest)


class MoveRule(OrderRule[Move]):
    order = Move
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Move) -> Problem | None:
        if joined(pos, nation, order):
            return None  # already carried out: it fought in an earlier move's battle
        return standing_problem(pos, nation, order) or fighting_problem(pos, nation, order)

    def remarks(self, pos: Position, nation: str, order: Move) -> list[Problem]:
        if joined(pos, nation, order):
            return []  # it fights in an earlier move's battle: that order's remarks cover it
        kinds = {u.kind for u in order.units}
        out: list[Problem] = []
        if at_sea(pos, order):
            return [flag("air-at-sea", order.dest, place=order.dest)]
        attack = hostile(pos, nation, order.dest)
        holder = pos.controller(order.dest)
        strangers = sorted({u.nation for u in enemy_units(pos, nation, order.dest)} | ({holder} if holder else set()))
        strangers = [n for n in strangers if not pos.at_war(nation, n) and not pos.allies(nation, n)]
        if attack and strangers:
            out.append(warning("undeclared-attack", order.dest, place=order.dest, nations=strangers))
        if attack and kinds & NEVER_ATTACK:
            out.append(warning("never-attack", kinds=sorted(kinds & NEVER_ATTACK)))
        if attack and strait_between(pos.world, order.origin, order.dest) and kinds - combat_land.STRAIT_ATTACKERS:
            out.append(warning("strait-units", order.dest, kinds=sorted(kinds - combat_land.STRAIT_ATTACKERS)))
        if not attack and isinstance(order, Attack):
            out.append(warning("attack-friendly", order.dest, place=order.dest))
        return out

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Move) -> None:
        take_units(ctx, nation, order.origin, order.units)

    def assume(self, ctx: TurnContext, nation: str, index: int, order: Move) -> None:
        """The checker takes an attack for a capture, with all that a capture does (the
        defenders destroyed; conquest.seize: conquered land is no longer incorporated),
        when infantry or tanks fight in it: the order's own, or those of the later moves
        that join its battle (later_legs), since the engine fights that battle now."""
        if not hostile(ctx, nation, order.dest) or at_sea(ctx, order):
            return
        start_war(ctx, nation, order.dest, enemy_units(ctx, nation, order.dest))  # whatever the dice
        legs = [Leg(nation, index, order, [])]
        defenders = {u.id for u in enemy_units(ctx, nation, order.dest)}
        if defenders or strait_between(ctx.world, order.origin, order.dest):
            legs += later_legs(ctx, self, legs[0])  # a battle: the later moves join it
        for later in legs[1:]:  # as in the engine: they fight in this battle, not at their own turn
            ctx.use(("joined", nation, str(later.index)))
        if any(capturers(ctx.world, g) for g in legs):
            ctx.state.units = [u for u in ctx.state.units if u.id not in defenders]
            seize(ctx, order.dest, nation)
            ctx.assumed[f"control:{order.dest}"] = f"your attack on {order.dest}"

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Move) -> None:
        if ctx.used(("joined", nation, str(index))):
            return  # it joined an earlier move's battle
        if at_sea(ctx, order):  # the moderator flies it; its aircraft have their order
            take_units(ctx, nation, order.origin, order.units)
            refer(ctx, nation, index, order, 0, "air-at-sea")
            return
        leg = Leg(nation, index, order, take_units(ctx, nation, order.origin, order.units, index))
        if not leg.units:
            return  # every unit it named fell earlier in the turn ("units-missing" says so)
        carry_out(ctx, leg, later_legs(ctx, self, leg))


def capturers(world: World, leg: Leg) -> set[str]:
    """The kinds of a leg that can take the land it attacks (4.4: infantry or tanks; across
    a strait only infantry attacks of those, Straits)."""
    kinds = {u.kind for u in leg.order.units} & combat_land.CAPTURERS
    return kinds & combat_land.STRAIT_ATTACKERS if strait_between(world, leg.origin, leg.dest) else kinds


def later_legs(ctx: TurnContext, rule: MoveRule, leg: Leg) -> list[Leg]:
    """The nation's later moves into the same territory, which join a battle there.

    Orders are carried out as written, so a later move joins only with units no order of
    this step written before it may still use (on a scratch tally: the units of every
    move whose standing_problem() passes are set aside, since whether it goes can depend
    on battles still to come, and the artillery of every SUPPORT the rules allow); a move
    that cannot join goes at its own turn."""
    out = []
    claimed = ctx.claimed
    ctx.claimed = Counter(claimed)
    try:
        for j, o in enumerate(ctx.orders[leg.nation]):
            if j <= leg.index:
                continue
            if isinstance(o, ArtillerySupport) and artillery_support.RULE.problem(ctx, leg.nation, o) is None:
                for uc in artillery_support.artillery(o):
                    ctx.claimed[(leg.nation, o.origin, uc.kind)] += uc.count
            if not isinstance(o, Move) or ctx.used(("joined", leg.nation, str(j))):
                continue
            if o.dest == leg.dest and not at_sea(ctx, o) and rule.problem(ctx, leg.nation, o) is None:
                out.append(Leg(leg.nation, j, o, []))
            if standing_problem(ctx, leg.nation, o) is None:
                for uc in o.units:
                    ctx.claimed[(leg.nation, o.origin, uc.kind)] += uc.count
    finally:
        ctx.claimed = claimed
    return out


def carry_out(ctx: TurnContext, leg: Leg, later: list[Leg]) -> None:
    nation, dest = leg.nation, leg.dest
    if not hostile(ctx, nation, dest):
        relocate(ctx, leg.units, dest)
        ctx.tell(nation, "moved", PHASE, order=leg.index, origin=leg.origin, dest=dest, units=kinds(leg.units))
        return
    defenders = enemy_units(ctx, nation, dest)
    start_war(ctx, nation, dest, defenders)
    if not defenders and not strait_between(ctx.world, leg.origin, dest):
        advance(ctx, leg)
        return
    # Straits: even empty land across a strait has its virtual coastal defender.
    legs = [attack_leg(ctx, leg)]
    for other in later:
        ctx.use(("joined", nation, str(other.index)))
        other.units = take_units(ctx, nation, other.origin, other.order.units, other.index)
        legs.append(attack_leg(ctx, other))
    attack(ctx, nation, dest, [g for g in legs if g.units], defenders)


def start_war(ctx: TurnContext, nation: str, dest: str, defenders: Sequence[Unit]) -> None:
    """Phase 1.1: attacking a nation not at war yet starts the war, undeclared (US penalty x2)."""
    holder = ctx.controller(dest)
    others = sorted({u.nation for u in defenders} | ({holder} if holder else set()))
    for target in others:
        if target == nation or ctx.at_war(nation, target) or ctx.allies(nation, target):
            continue
        wars.begin(ctx, nation, target, PHASE, surprise=True)
        if not ctx.checking:
            ctx.flag(PHASE, "undeclared-attack-penalty", nation=nation, target=target, place=dest)


def relocate(ctx: TurnContext, units: Sequence[Unit], dest: str) -> None:
    for u in units:
        u.location = dest
    ctx.claim(units)


def hold_back(ctx: TurnContext, leg: Leg, kinds_out: frozenset[str], reason: str) -> None:
    """Units of `kinds_out` stay where they are (telling the nation); the rest go on."""
    dropped = [u for u in leg.units if u.kind in kinds_out]
    leg.units = [u for u in leg.units if u.kind not in kinds_out]
    if dropped:
        ctx.tell(leg.nation, "units-held-back", PHASE, order=leg.index, reason=reason, units=kinds(dropped))


def advance(ctx: TurnContext, leg: Leg) -> None:
    """Into empty enemy land: infantry/tanks capture; nothing else may go in (4.4, Artillery)."""
    hold_back(ctx, leg, MOVABLE - combat_land.CAPTURERS, "cannot-enter-enemy-land")
    if not leg.units:
        ctx.refuse(leg.nation, PHASE, leg.index, leg.order, "cannot-capture", place=leg.dest)
        return
    relocate(ctx, leg.units, leg.dest)
    ctx.tell(leg.nation, "moved", PHASE, order=leg.index, origin=leg.origin, dest=leg.dest, units=kinds(leg.units))
    take_territory(ctx, leg.dest, leg.nation, PHASE)


def attack_leg(ctx: TurnContext, leg: Leg) -> Leg:
    """The units of a leg that may attack: no AA or rockets; across a strait only
    infantry and artillery (Straits)."""
    hold_back(ctx, leg, NEVER_ATTACK, "cannot-attack")
    if strait_between(ctx.world, leg.origin, leg.dest):
        hold_back(ctx, leg, MOVABLE - combat_land.STRAIT_ATTACKERS, "straits")
    return leg


def attack(ctx: TurnContext, nation: str, dest: str, legs: list[Leg], defenders: list[Unit]) -> None:
    units = [u for g in legs for u in g.units]
    if not units:
        return
    if not defenders and not any(u.kind in combat_land.CAPTURERS for u in units):
        first = legs[0]
        ctx.refuse(nation, PHASE, first.index, first.order, "cannot-capture", place=dest)
        return
    across = {u.id for g in legs if strait_between(ctx.world, g.origin, dest) for u in g.units}
    steer = combat_orders.for_battle(ctx, nation, [nation, *(u.nation for u in defenders)], dest)
    battle = combat_land.fight(ctx, dest, sorted({g.origin for g in legs}), nation, units, defenders,
                               across, steer)
    alive = combat_land.survivors(battle)
    won = not combat_land.defenders_left(battle)
    captured = won and any(u.kind in combat_land.CAPTURERS for u in alive)
    combat_land.battle_event(ctx, battle, captured)
    if captured:
        # Survivors that can advance move in; artillery stays where it fired from.
        relocate(ctx, [u for u in alive if u.kind not in STAYS_AT_HOME], dest)
        take_territory(ctx, dest, nation, combat_land.PHASE)



RULE = MoveRule()
