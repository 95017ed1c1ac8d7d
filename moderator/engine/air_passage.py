"""Aircraft on their way: the air combats over the places they fly through (4.5), every
flight of a step at once.

4.5: "When aircraft move into a territory (or sea zone) containing enemy fighters, the
enemy fighters have the option of intercepting or letting them go. When an interception
is chosen (default), air combat occurs." A bombing raid (4.1.1, engine/phase4_air.py)
and the aircraft of an attack from further than next door (4.4, engine/phase4_land.py)
fly the way engine/air_route.py finds and meet the AA guns, then the fighters, of every
land territory on it (at sea, guns and fighters fight with the naval battles); a raid
meets those of its target too. "If the player has aircraft which are
intercepted and successfully defeat or merely outlast ... the intercepting aircraft, then
the mission the aircraft had originally been sent on ... may continue, assuming those
planes still have enough fuel points remaining to do so."

All at once (Phase 4: "It is hard to make real distinction between movement and combat.
Each can happen in the same time"; issue 10: "The result never depends on the order of
nation ids or of lines in a mail"). A flight is over a place at the time of the fuel its
way spends to get there (Fighters: "Movement is measured in fuel expended not distance
covered"; the rounds of air combat fought before are not counted: a reading). The step's
air combats are fought by time, then by the place's name; every flight over one place at
one time meets its fighters in one air combat: flights of allied nations as one side
(Phase 4 guideline 2: casualties by each nation's share of the side's air-combat total;
the note after 4.6.1: a single nation facing several has one fictive plane, hit first),
flights of nations not allied to each other one camp after the other (a reading: they do
not fight each other, neither attacks the other there), in an order drawn by lot when
two or more camps meet fighters there (camp_order; a reading, docs/rules-coverage.md
"Flights of camps not allied over one place": the rules give no camp precedence, and
the order of nation ids must not decide, issue 10).
Dice are rolled by nation, then unit id, never by line. A fighter's fuel spent
intercepting is kept for the whole step ("Intercepting aircraft may expend all of their
fuel points"): at a later time it has what is left. Planes flying a mission this step do
not intercept (they are away).

One air combat (4.5 steps 1-3): rounds in which both sides roll one D10 a plane, fighters
at their value in the fighter table (combat_air: their own level against the highest
level they face), bombers at 1, a radar of the guards' side giving the flyers -1; each hit
downs a plane: the kinds its nation's CASUALTIES order names first, then the cheapest. "Each plane removes 1 fuel point": a flyer fights on
while its fuel keeps what its mission needs after (Flight.spare; else it turns back), a
guard while its tank lasts. After a round with guards left, a nation's BREAK OFF AIR
COMBAT condition at the place or at its goal (engine/orders/interception.py) sends that
flight home. Fighters of a nation that ordered LET THROUGH there let the flights go.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from moderator.engine import fuel
from moderator.engine.alliances import by_alliance, by_lot
from moderator.engine.casualty_shares import share
from moderator.engine.combat_air import dogfight_value, enemy_level, radar_against
from moderator.engine.combat_orders import casualty_preferences, withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.orders import interception
from moderator.engine.state import Unit, kinds
from moderator.orders.model import CombatCondition

PHASE = "4.5"


def phase(ctx: TurnContext) -> str:
    """The step the flights belong to (4.1.1 for raids, 4.4 for attacks), for what is told."""
    return ctx.step.section if ctx.step is not None else PHASE


def tank_of(ctx: TurnContext, plane: Unit) -> int:
    """The plane's fuel, by its own technology (Improved Fighters and Bombers add fuel)."""
    stats = ctx.stats(plane.nation, plane.kind, plane)
    return stats.fuel if stats is not None else 0


def down(ctx: TurnContext, planes: list[Unit], hits: int, first: Sequence[str] = ()) -> list[Unit]:
    """Remove `hits` planes, the kinds in `first` (the owner's CASUALTIES order) first, then
    the cheapest; returns those lost."""
    def rank(u: Unit) -> tuple[int, int, str, str]:
        return (list(first).index(u.kind) if u.kind in first else len(first),
                ctx.scenario.stats(u.nation, u.kind).cost, u.kind, u.id)

    order = sorted(planes, key=rank)
    lost = order[:hits]
    for u in lost:
        planes.remove(u)
    ctx.state.remove_units(lost)
    return lost


def shared_down(ctx: TurnContext, planes: Sequence[Unit], hits: int, value: Mapping[str, int],
                place: str) -> list[Unit]:
    """`hits` among planes of several nations: each nation's share of their combined
    air-combat values (unit id -> value; Phase 4 guideline 2), then within a nation as its
    CASUALTIES order for `place` (or everywhere) says, else the cheapest first."""
    nations = sorted({u.nation for u in planes})
    strength = {n: sum(max(1, value.get(u.id, 1)) for u in planes if u.nation == n) for n in nations}
    count = {n: sum(1 for u in planes if u.nation == n) for n in nations}
    quota = share(hits, strength, count, ctx.dice, f"air combat at {place}: planes lost, odd hit")
    first = casualty_preferences(ctx, nations, place)
    return [u for n in nations for u in down(ctx, [p for p in planes if p.nation == n], quota.get(n, 0),
                                             first.get(n, ()))]


@dataclass
class Flight:
    """Aircraft of one order on their way, and what befell them."""

    nation: str
    key: tuple[str, ...]  # its place among the step's flights: never the line it was written on
    planes: list[Unit]  # still flying on
    way: list[str]  # the places from the start to the goal, both included (air_route.way)
    spare: dict[str, int]  # unit id -> air-combat rounds its fuel allows on the way
    retreat: tuple[CombatCondition, ...] = ()  # its nation's BREAK OFF AIR COMBAT at the goal
    stops: list[tuple[int, str]] = field(default_factory=list)  # (time in fuel, place) where it may be intercepted
    rounds: int = 0  # air-combat rounds fought so far, wherever (a fuel point each)
    lost: list[Unit] = field(default_factory=list)
    turned_back: list[Unit] = field(default_factory=list)  # short of fuel for the rest of the mission
    broke_off: list[Unit] = field(default_factory=list)  # sent home by BREAK OFF AIR COMBAT
    guards_lost: list[Unit] = field(default_factory=list)
    fought: set[str] = field(default_factory=set)  # nations whose fighters intercepted or let it go
    over: list[str] = field(default_factory=list)  # places where it fought an air combat
    aa_hits: dict[str, int] = field(default_factory=dict)  # place -> its planes the AA guns there downed
    aa_by: set[str] = field(default_factory=set)  # nations whose AA guns fired at it

    @property
    def goal(self) -> str:
        return self.way[-1]

    @property
    def via(self) -> list[str]:
        """The places flown over between the start and the goal."""
        return self.way[1:-1]


def flight(ctx: TurnContext, nation: str, key: tuple[str, ...], planes: Sequence[Unit], way: Sequence[str],
           spare: dict[str, int], retreat: tuple[CombatCondition, ...] = (), goal: bool = False,
           double: Callable[[str], bool] | None = None) -> Flight:
    """A Flight with its stops: every place after the start (the goal only with `goal`),
    at the fuel spent to reach it (`double`: a rebasing flight's places of double cost)."""
    f = Flight(nation, key, list(planes), list(way), spare, retreat)
    spent = 0
    for here, nxt in zip(way, way[1:], strict=False):
        spent += fuel.move_cost(ctx.world, here, nxt, double)
        if nxt != f.goal or goal:
            f.stops.append((spent, nxt))
    return f


def guards_at(ctx: TurnContext, nation: str, place: str, away: Collection[str] = frozenset()) -> list[Unit]:
    """Enemy fighters at `place` that may intercept: not those passing through on rails
    nor those flying a mission of their own (`away`)."""
    return [u for u in ctx.units_at(place) if u.kind == "fighter" and ctx.at_war(nation, u.nation)
            and u.id not in ctx.in_transit and u.id not in away]


def defended(ctx: TurnContext, nation: str, place: str, away: Collection[str] = frozenset()) -> bool:
    """Whether enemy fighters may intercept or enemy AA guns fire at `nation`'s planes over
    `place` (air_route's choice among ways of equal fuel: the commander picks the safer)."""
    # guards_at's fighters and the AA guns looked for in one pass over the place's units,
    # the nation's wars read once (asked for every place a search tries: issue 14)
    na = ctx.state.nations.get(nation)
    if na is None:
        return False  # (at_war: a nation not in the game is at war with none)
    wars, transit = na.at_war_with, ctx.in_transit
    return any(u.nation in wars and u.id not in transit and (u.kind == "aa" or (u.kind == "fighter" and u.id not in away))
               for u in ctx.units_at(place))


def camps(ctx: TurnContext, flights: Sequence[Flight]) -> list[list[Flight]]:
    """The flights by alliance (allies fly as one side), by first nation id, then key
    (the order the fighters meet them is camp_order's lot)."""
    return by_alliance(ctx.state, flights, lambda f: f.nation, lambda f: f.key)


def fly(ctx: TurnContext, flights: Sequence[Flight], away: Collection[str] = frozenset()) -> None:
    """Every flight of the step at once, by time then place: over each land place the AA
    guns first, then the air combats."""
    spent: dict[str, int] = {}  # guard id -> air-combat rounds it fought this step
    for time, place in sorted({stop for f in flights for stop in f.stops}):
        here = [f for f in flights if f.planes and (time, place) in f.stops]
        if ctx.is_sea(place):
            continue  # at sea, ships' guns and fighters fight with the naval battles
        anti_aircraft(ctx, place, here)
        for group in camp_order(ctx, place, camps(ctx, [f for f in here if f.planes]), away):
            air_combat(ctx, place, group, spent, away)


def camp_order(ctx: TurnContext, place: str, groups: list[list[Flight]],
               away: Collection[str]) -> list[list[Flight]]:
    """The order in which the fighters over `place` meet camps not allied to each other.
    4.5 says the fighters there intercept aircraft moving in, Phase 4 that movement and
    combat happen at the same time, and nothing gives one camp precedence: when two or
    more camps meet fighters there, the order is drawn by lot (one pick among the camps
    left, logged), so that no nation's id or line decides who is intercepted first. The
    camps no fighter meets keep their place (nothing happens to them)."""
    passing = interception.passing(ctx, place)
    met = [g for g in groups if any(u.nation not in passing for u in guards_at(ctx, g[0].nation, place, away))]
    if len(met) < 2:
        return groups
    drawn = by_lot(ctx.dice, met, lambda g: " + ".join(sorted({f.nation for f in g})),
                   f"fighters over {place} meet first")
    return drawn + [g for g in groups if not any(g is d for d in drawn)]


def anti_aircraft(ctx: TurnContext, place: str, flights: Sequence[Flight]) -> None:
    """Anti Air Guns: "Each AA unit gets only one die roll against enemy planes entering
    the given territory; this is not one die role per plane ... The AA roll against
    aircraft happens before any other combat. Planes destroyed do not get to attack."
    Every plane flying into a land territory enters it, whether it attacks there, bombs
    there or flies on (a reading, docs/rules-coverage.md: ships' guns fire "only if
    attacked", the guns on land at planes "entering"). Each gun there of a nation at war
    with a flight rolls once against all the flights entering at one time, at its defense
    value (Improved AA +1); its hits down planes of the nations at war with the guns,
    shared by nation, the cheapest first. The guns of a place attacked by land are the
    battle's (combat_land.aa_fire): an attack's goal is not one of its flight's stops."""
    guns = sorted((u for u in ctx.units_at(place) if u.kind == "aa" and u.id not in ctx.in_transit
                   and any(ctx.at_war(f.nation, u.nation) for f in flights)), key=lambda u: u.id)
    if not guns:
        return
    targets = [f for f in flights if any(ctx.at_war(f.nation, g.nation) for g in guns)]
    hits = 0
    for gun in guns:
        stats = ctx.stats(gun.nation, gun.kind, gun)
        if ctx.dice.d10(f"AA at {place}: {gun.nation} aa") <= (stats.defense if stats else 0):
            hits += 1
    downed = {u.id for u in shared_down(ctx, [u for f in targets for u in f.planes], hits, {}, place)}
    for f in targets:
        mine = [u for u in f.planes if u.id in downed]
        f.aa_hits[place] = f.aa_hits.get(place, 0) + len(mine)
        f.aa_by |= {g.nation for g in guns}
        f.lost += mine
        f.planes = [u for u in f.planes if u.id not in downed]


def air_combat(ctx: TurnContext, place: str, group: list[Flight], spent: dict[str, int],
               away: Collection[str]) -> None:
    """4.5 over `place`: its enemy fighters intercept the flights of one camp, as one side."""
    lead = group[0].nation
    fighters = guards_at(ctx, lead, place, away)
    passing = interception.passing(ctx, place)  # 4.5: "the option of intercepting or letting them go"
    guards = sorted((u for u in fighters if u.nation not in passing), key=lambda u: u.id)
    for other in sorted({u.nation for u in fighters} & passing):
        ctx.tell(other, "let-through", phase(ctx), territory=place, units=kinds([u for u in fighters if u.nation == other]))
    for f in group:
        f.fought |= {u.nation for u in fighters}
    if not guards:
        return
    flyers = [u for f in group for u in f.planes]
    against_flyers, against_guards = enemy_level(ctx, guards), enemy_level(ctx, flyers)  # fixed as it starts
    radar = radar_against(ctx, place, lead)
    # The note after 4.6.1: a single nation facing several has a fictive plane, hit first.
    fictive_guard = len({u.nation for u in flyers}) > 1 and len({u.nation for u in guards}) == 1
    fictive_flyer = len({u.nation for u in guards}) > 1 and len({u.nation for u in flyers}) == 1
    here = 0
    lost_here: dict[int, int] = {id(f): 0 for f in group}
    killed: list[Unit] = []
    while True:
        fit = [g for g in guards if tank_of(ctx, g) > spent.get(g.id, 0)]
        if not fit:
            break  # downed or outlasted: "the mission ... may continue"
        for f in group:  # a flyer whose fuel allows no more rounds turns back
            able = [u for u in f.planes if f.spare[u.id] > f.rounds]
            f.turned_back += [u for u in f.planes if u not in able]
            f.planes = able
        flying = sorted((u for f in group for u in f.planes), key=lambda u: (u.nation, u.id))
        if not flying:
            break
        here += 1
        for f in group:
            if f.planes:
                f.rounds += 1
                if place not in f.over:
                    f.over.append(place)
        for g in fit:
            spent[g.id] = spent.get(g.id, 0) + 1
        purpose = f"air combat over {place} round {here}"
        flyer_value = {u.id: dogfight_value(ctx, u, against_flyers, radar) for u in flying}
        guard_value = {g.id: dogfight_value(ctx, g, against_guards) for g in fit}
        f_hits = sum(ctx.dice.d10(f"{purpose}: {u.nation} {u.kind}") <= flyer_value[u.id] for u in flying)
        g_hits = sum(ctx.dice.d10(f"{purpose}: {g.nation} fighter") <= guard_value[g.id] for g in fit)
        if fictive_guard and f_hits:
            fictive_guard, f_hits = False, f_hits - 1
        if fictive_flyer and g_hits:
            fictive_flyer, g_hits = False, g_hits - 1
        killed += shared_down(ctx, fit, f_hits, guard_value, place)  # only guards in the air can be hit
        guards = [g for g in guards if g not in killed]
        downed = {u.id for u in shared_down(ctx, flying, g_hits, flyer_value, place)}
        for f in group:
            mine = [u for u in f.planes if u.id in downed]
            f.planes = [u for u in f.planes if u.id not in downed]
            f.lost += mine
            lost_here[id(f)] += len(mine)
        if not any(tank_of(ctx, g) > spent.get(g.id, 0) for g in guards):
            continue  # nobody left to break off from: the loop ends at its top
        for f in group:  # 4.5 step 3: "The attacking player may now decide to retreat" (BREAK OFF AIR COMBAT)
            why = withdrawal((*interception.retreat_conditions(ctx, f.nation, place), *f.retreat), here,
                             lost_here[id(f)], len(killed)) if f.planes else None
            if why:
                ctx.emit("air-retreat", phase(ctx), sorted({f.nation, *(g.nation for g in (*guards, *killed))}),
                         nation=f.nation, territory=place, condition=why, rounds=here, units=kinds(f.planes))
                f.broke_off += f.planes
                f.planes = []
    for f in group:
        if place in f.over:
            f.guards_lost += killed


def tell_flight(ctx: TurnContext, f: Flight, order: int, origin: str, dest: str, rebase: bool) -> None:
    """What befell a MOVE's or a REBASE's flight on its way, if anything did (flight-intercepted)."""
    if not (f.over or f.aa_hits):
        return
    ctx.emit("flight-intercepted", phase(ctx), sorted({f.nation, *f.fought, *f.aa_by}), nation=f.nation,
             order=order, origin=origin, dest=dest, rebase=rebase, via=f.via, intercepted_over=f.over,
             aa_over=list(f.aa_hits), aa_hits=sum(f.aa_hits.values()), rounds=f.rounds, lost=kinds(f.lost),
             interceptors_lost=kinds(f.guards_lost), turned_back=kinds(f.turned_back), broke_off=kinds(f.broke_off),
             through=kinds(f.planes))
