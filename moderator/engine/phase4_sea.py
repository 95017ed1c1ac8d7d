"""Phase 4.2 with 4.3: every task force moves, point by point, and meets the enemy.

The orders of step 4.2 (engine/orders/task_forces.py, submarines.py) only plan: each task
force's ledger holds its steps as written. naval_movement() carries the plans of every
nation out together, so nothing depends on nation ids or the order of lines:

1. Guidelines 4-6: movement point by point. At point k every task force with a k-th step
   does it (a mission, moving one sea zone or staying); "Ships with more movement points
   move their last points after all units with the fewer movement points cease moving"
   follows, since point k of all task forces comes before point k+1 of any. LOAD steps
   happen where they are written: before the next move, in the zone the task force is in.
2. Ships without a task force (4.2.8): in friendly waters they "do the docking and
   replenishment mission" (defensive, but aggressive against an invasion force: a task
   force in troop transport); elsewhere they form "a TF in patrol mission". Submarines
   without a task force are submerged: they fight only by detection (4.2.9) or
   interception (4.2.10).
3. Guideline 4: "Combat and engagement chance is calculated after each move." In every
   sea zone holding task forces of nations at war, each aggressive task force (patrol,
   blockade, bombard; dock against a transport; see `seeks`) rolls its sighting against
   each enemy task force (phase4_naval: aggressive factors against the best defensive
   factor). Guideline 3: two task forces that both seek each other and shared the sea
   zone at the beginning of the turn roll once, with the lower chance. 4.2.2: an escort
   whose protected task force was sighted by an enemy that missed the escort rolls its
   own sighting of that enemy; if it sights, it joins with a free round (once per enemy:
   then "British are alerted"). Task forces linked by contacts fight one battle
   (naval_combat.fight): "If British fleet engages both fleet then they fight as it is
   single battle". A side that withdraws (its conditional orders) goes to an allied or
   empty sea zone (engine/naval_retreat.py) and stops. After contact is lost (4.2: "both
   TF can choose to disengage and to continue their mission or to cancel mission and
   return to the sea zone from where they came. That must be explained to moderator")
   a nation's task forces go on with their missions, unless its orders say WITHDRAW FROM
   the zone IF CONTACT LOST: then they go back to the zone they came from and stop.
4. 4.2.10 Submarine interception: an INTERCEPT order's submarines attack the enemy task
   force it names (AGAINST TF B OF Britain), or one doing the mission it names (drawn by
   lot when several do: `chosen`), that moves into or out of their zone, or that will
   unload troops there (a landing written for it); they have a
   free attack, fight one round and then dive (the default: "If the attacking subs
   attempt to retreat, the combat ends but the surviving subs remain"). Aircraft sent
   from land as cover over the zone join the battle, and the submarines cannot dive
   while one still has fuel (cover_over, until_cover_leaves). Allies intercepting the
   same task force at the same point fight it together, in one battle (guideline 2).
5. 4.2.9 Submarine detection: ships ordered to DETECT, and task forces on a detect
   mission, roll their capability each (phase4_naval.DETECTION); those that find the
   submarines fight all enemy submarines in the zone, with a free round; the submarines
   use their defense value and dive after the first round ("After one round of combat
   has concluded, either side may chose to disengage"; without aircraft they stay, from
   a force with aircraft they move to a neighbouring sea zone). The DETECT orders of
   allies in one zone are one hunt: one battle, one free round (guideline 2), and so
   are allied task forces on a detect mission in one zone at one point. Aircraft
   flown in to hunt (DETECT ... FROM a land territory) fly 2 fuel a sea zone, fight the
   free round and the first round as their fuel allows, are never hit by the submarines
   ("hits scored by submarines can only be applied to ships") and fly home; fighters off
   carriers (a DETECT without FROM in their carriers' zone, or FROM it at another zone)
   likewise, coming back aboard. Only the DETECT and INTERCEPT orders the engine kept
   act (submarines.hunts, submarines.kept).

6. Guideline 6's first example: a task force splits ("In second sea zone TF #1 splits to
   TF #1 (BB and DD) and TF #3 (2 DD)") or joins another of its nation between two
   movement points, where its plan says (engine/orders/task_forces.py); the halves then
   move point by point on their own plans, each rolling its own sightings from there.
   Splits, joins and LOAD steps due before a point happen in the order written
   (`between`). A SPLIT names kinds and counts: they are taken among the ships afloat at
   the split (`pick`). A split or join the turn has made impossible (the task force was
   held, turned back or retreated, or has fewer ships of a kind afloat than the SPLIT
   names) does not happen, and the nation is told (task-force-split, task-force-joined
   with done=false).

Troops aboard move with their transports (their location is the sea zone) and sink with
them (naval_combat). Landings are step 4.4's (orders/naval_invasion.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import compress
from operator import attrgetter

from moderator.engine import (
    alliances,
    carrier_loss,
    fuel,
    gear_aboard,
    naval_combat,
    naval_retreat,
    phase3_recon_missions,
    phase4_naval,
    placement,
)
from moderator.engine.combat_orders import BattleOrders, casualty_preferences
from moderator.engine.context import TurnContext
from moderator.engine.naval_combat import NavalSide, Ship
from moderator.engine.orders import submarines
from moderator.engine.orders.move import landing_places
from moderator.engine.orders.submarines import DETECTION
from moderator.engine.orders.task_forces import CARRIES, TaskForceRecord, friendly_waters, troop_points
from moderator.engine.state import AIR_UNITS, SEA_UNITS, Unit, ids_of, kinds
from moderator.orders.model import (
    CombatCondition,
    Move,
    NavalInvasion,
    SubInterception,
    TaskForceMission,
)

PHASE = "4.2"
CARRIED = "carried"  # a battle Ship's mission: a fighter off its task force's carriers (side_of)
AGGRESSIVE = frozenset({"patrol", "blockade", "bombard"})  # the list of missions: "aggresive"
SUBS_DIVE = "submarines-dive"


@dataclass
class Fleet:
    """A task force at sea during the step (one the orders formed, or ships without orders)."""

    nation: str
    name: str
    ships: list[Unit]
    zone: str
    mission: str
    order: int = -1  # the TF order's position; -1 for ships without orders
    moves: list[TaskForceMission] = field(default_factory=list)  # one per movement point
    loads: dict[int, list[tuple[TaskForceMission, tuple[str, ...]]]] = field(default_factory=dict)
    escort_of: str | None = None
    came_from: str | None = None
    path: list[str] = field(default_factory=list)
    stopped: bool = False
    moved_at: str | None = None  # the zone it left at this point
    cargo: dict[str, list[Unit]] = field(default_factory=dict)  # transport id -> troops aboard
    planes: list[Unit] = field(default_factory=list)  # fighters aboard its carriers (they sail with them)
    scouts: list[Unit] = field(default_factory=list)  # those of them no order names (4.2.4: on reconnaissance)
    absent: bool = False  # its ships are not its own (yet, or any more): split off later, or joined another

    @property
    def key(self) -> str:
        return f"{self.nation}/{self.name}"

    def troops(self) -> list[Unit]:
        return [t for load in self.cargo.values() for t in load]


@dataclass
class Sea:
    """The step's working state."""

    fleets: list[Fleet]
    regroups: list[Regroup] = field(default_factory=list)  # the splits and joins of the plans (guideline 6)
    planned: list[Fleet] = field(default_factory=list)  # those of the fleets with steps (moves), in their order
    alerted: set[tuple[str, str]] = field(default_factory=set)  # (escort, enemy): no second free round
    spent: set[tuple[str, int]] = field(default_factory=set)  # (nation, position) of INTERCEPT orders used
    used_subs: set[str] = field(default_factory=set)
    held: set[tuple[str, str, str]] = field(default_factory=set)  # (zone, blockade, fleet): sighted leaving
    strikes: dict[str, list[tuple[Unit, str, int]]] = field(default_factory=dict)  # zone -> (plane, origin, order)
    cover: dict[str, list[tuple[Unit, str, int]]] = field(default_factory=dict)  # zone -> cover flown from land
    cover_fought: dict[str, int] = field(default_factory=dict)  # cover plane id -> rounds fought against submarines


@dataclass(frozen=True)
class Regroup:
    """A split or a join of the plans, due before movement point `point`."""

    nation: str
    index: int  # the SPLIT or JOIN order's position
    point: int
    kind: str  # "split" or "join"
    tf: str  # the task force splitting, or joining
    other: str  # the one split off, or joined
    zone: str  # where the plan has it happen
    ships: tuple[tuple[str, int], ...] = ()  # split: the ships the SPLIT names, (kind, count)


def naval_movement(ctx: TurnContext) -> None:
    from moderator.engine import phase4_air_sea  # it reads this module's fleets

    sea = Sea(fleets(ctx), regroups(ctx))
    # only a fleet with a plan has a step at a point: most (ships without orders) have none,
    # and the plans are set once (fleets): each point looks at those alone (issue 14)
    sea.planned = [f for f in sea.fleets if f.moves]
    phase4_air_sea.take_flights(ctx, sea, from_land=True)
    # only a fleet with transports stows (stow finds room on its transports alone): most
    # fleets have none, and looking for troops where each is cost a search of its zone
    carrying = [f for f in sea.fleets if any(u.kind == "transport" for u in f.ships)]
    for f in carrying:
        named = set(ctx.task_forces[(f.nation, f.name)].boarded) if f.order >= 0 else set()
        if named:
            stow(ctx, f, [u for u in ctx.state.units_at(f.zone, f.nation) if u.kind in CARRIES and u.id in named])
    aboard = {t.id for g in carrying for t in g.troops()}  # kept up as each fleet stows (not found again for each)
    for f in carrying:  # ships without orders carry what is left aboard in their zone
        if f.order < 0:
            stow(ctx, f, [u for u in ctx.state.units_at(f.zone, f.nation)
                          if u.kind in CARRIES and u.id not in aboard])
            aboard.update(t.id for t in f.troops())
    detect_by_order(ctx, sea)
    points = max((len(f.moves) for f in sea.planned), default=0)
    for k in range(points):
        between(ctx, sea, k)
        for f in sea.planned:  # guideline 6: each task force's task for this point
            if not f.stopped and k < len(f.moves) and f.ships:
                f.mission, f.escort_of = f.moves[k].mission, f.moves[k].escort_of
        blockade(ctx, sea, k)
        for f in sea.planned:  # (moved_at is set below only: the others' stays None)
            f.moved_at = None
            if f.stopped or k >= len(f.moves) or not f.ships:
                continue
            step = f.moves[k]
            if step.dest is not None and step.dest != f.zone:
                f.came_from, f.moved_at = f.zone, f.zone
                sail(f, step.dest)
        intercept(ctx, sea, moving=True)
        task_force_hunts(ctx, sea, k)
        contacts(ctx, sea, first_point=k == 0)
    between(ctx, sea, points, last=True)
    for f in sea.fleets:
        f.moved_at = None
    intercept(ctx, sea, moving=False)
    phase4_air_sea.air_strikes(ctx, sea)
    hold_zones(ctx, sea)
    mark_prowlers(ctx, sea)
    for f in sea.fleets:
        if f.order >= 0 and not f.absent:
            ctx.tell(f.nation, "task-force", PHASE, order=f.order, tf=f.name, path=f.path, ships=kinds(f.ships),
                     troops=kinds(f.troops()), mission=f.mission)


# ---- the fleets --------------------------------------------------------------------------------


_kind = attrgetter("kind")


def fleets(ctx: TurnContext) -> list[Fleet]:
    alive = ctx.state.units_by_id()
    out: list[Fleet] = []
    in_tf: set[str] = set()
    records = ctx.task_forces
    for (nation, name), tf in sorted(records.items()):
        # a task force split off another sails in it until the split (`between`)
        ids = () if tf.parent is not None else tf.first_ids
        ships = [alive[i] for i in ids if i in alive and alive[i].location == tf.start]
        in_tf.update(tf.first_ids)
        f = Fleet(nation, name, ships, tf.start, "", tf.order, path=[tf.start], absent=tf.parent is not None)
        f.moves = inherited(records, tf)
        for order, ids in tf.plan:
            if order.mission == "load":
                f.loads.setdefault(len(f.moves), []).append((order, ids))
            else:
                f.moves.append(order)
        f.mission = f.moves[0].mission if f.moves else standing_mission(ctx, f)
        out.append(f)
    idle: dict[tuple[str, str], list[Unit]] = defaultdict(list)
    units = ctx.state.units  # its surface ships picked at C speed (map, compress), then looked at (issue 14)
    for u in compress(units, map(phase4_naval.SURFACE_SHIPS.__contains__, map(_kind, units))):
        if u.id not in in_tf and ctx.is_sea(u.location):
            idle[(u.nation, u.location)].append(u)
    for (nation, zone), ships in sorted(idle.items()):
        f = Fleet(nation, f"{zone} (no orders)", sorted(ships, key=lambda u: u.id), zone, "", path=[zone])
        f.mission = standing_mission(ctx, f)
        out.append(f)
    board(ctx, out)
    return out


def inherited(records: dict[tuple[str, str], TaskForceRecord], tf: TaskForceRecord) -> list[TaskForceMission]:
    """The steps a split-off task force's ships did before the split, with the task force
    they split from (and its own parent's before that): its plan's movement points are
    counted from the start of the turn, as every task force's are."""
    if tf.parent is None:
        return []
    parent = records[(tf.nation, tf.parent)]
    return [*inherited(records, parent), *(o for o, _ in parent.plan if o.mission != "load")][: tf.born]


def regroups(ctx: TurnContext) -> list[Regroup]:
    """The splits and joins of the orders (engine/orders/task_forces.py split, join)."""
    out: list[Regroup] = []
    for (nation, name), tf in sorted(ctx.task_forces.items()):
        if tf.parent is not None:
            out.append(Regroup(nation, tf.regroup, tf.born, "split", tf.parent, name, tf.path[0], tf.named))
        if tf.joined is not None:
            out.append(Regroup(nation, tf.regroup, tf.points, "join", name, tf.joined, tf.zone))
    return out


def between(ctx: TurnContext, sea: Sea, k: int, last: bool = False) -> None:
    """What the plans do before movement point k (with `last`, after the last point): LOAD
    steps, splits and joins, in the order written, so that a task force loads, splits off
    or joins with the ships and troops the orders gave it at that point."""
    due: list[tuple[tuple[str, int], Callable[[], None]]] = []
    for f in sea.fleets:
        if not f.loads:
            continue  # (most have no LOAD step)
        for order, ids in f.loads.get(k, []):
            due.append(((f.nation, order_index(ctx, f.nation, order)), partial(load_one, ctx, f, order, ids)))
    for r in sea.regroups:
        if r.point == k or (last and r.point > k):
            due.append(((r.nation, r.index), partial(split if r.kind == "split" else join, ctx, sea, r)))
    for _, act in sorted(due, key=lambda d: d[0]):
        act()


def order_index(ctx: TurnContext, nation: str, order: TaskForceMission) -> int:
    return next(i for i, o in enumerate(ctx.orders[nation]) if o is order)


def fleet_named(sea: Sea, nation: str, name: str) -> Fleet:
    return next(f for f in sea.fleets if (f.nation, f.name) == (nation, name))


def split(ctx: TurnContext, sea: Sea, r: Regroup) -> None:
    """Guideline 6: "In second sea zone TF #1 splits to TF #1 (BB and DD) and TF #3 (2 DD)".
    The ships named go on as the new task force, with the troops on their transports and
    the fighters their carriers hold, from where the old one is, having spent the same
    points and doing its task until their own next step. The order names kinds and counts,
    not ships: they are taken among the old task force's ships afloat at the split (`pick`),
    so a ship sunk earlier in the move is replaced by another of its kind. Not when the old
    task force is not where its plan has it split (held, turned back, retreated: why
    "apart"), or has fewer ships of a kind left than the order names (why "lost": `left`
    tells how many of each such kind it had)."""
    old, new = fleet_named(sea, r.nation, r.tf), fleet_named(sea, r.nation, r.other)
    named = dict(r.ships)
    left = {kind: sum(1 for u in old.ships if u.kind == kind) for kind in named}
    apart = old.absent or old.stopped or old.zone != r.zone
    lost = any(left[kind] < n for kind, n in named.items())
    going = [] if apart or lost else pick(old.ships, named)
    if going:
        ids = {u.id for u in going}
        old.ships = [u for u in old.ships if u.id not in ids]
        old.absent = not old.ships  # the losses left it only the ships named: it is gone with them, not sunk
        new.ships, new.zone, new.path, new.came_from = going, old.zone, list(old.path), old.came_from
        new.mission, new.escort_of, new.absent = old.mission, old.escort_of, False
        new.cargo = {t: old.cargo.pop(t) for t in list(old.cargo) if t in ids}
        hand_planes(ctx, old, new)
    why = None if going else "apart" if apart else "lost"
    ctx.tell(r.nation, "task-force-split", PHASE, order=r.index, tf=r.other, parent=r.tf, zone=r.zone,
             ships=kinds(going) if going else named, done=bool(going), why=why,
             left={k: n for k, n in left.items() if n < named[k]} if why == "lost" else None)


def pick(ships: Sequence[Unit], named: dict[str, int]) -> list[Unit]:
    """The ships a split takes: of each kind named, the lowest ids among those afloat (as
    a TF order takes ships, engine/orders/base.py take_units); damaged or not, the order
    does not say (docs/rules-coverage.md, "Splitting and joining task forces")."""
    out: list[Unit] = []
    for kind, n in sorted(named.items()):
        out += sorted((u for u in ships if u.kind == kind), key=lambda u: u.id)[:n]
    return out


def join(ctx: TurnContext, sea: Sea, r: Regroup) -> None:
    """A task force joins another of its nation in the same zone (guideline 6, read
    backwards): its ships, troops and fighters aboard go on with the other's plan. Not when
    either has been held, turned back or retreated, or they are not in one zone."""
    f, into = fleet_named(sea, r.nation, r.tf), fleet_named(sea, r.nation, r.other)
    done = bool(f.ships) and not f.stopped and not into.stopped and not into.absent and f.zone == into.zone
    ships = kinds(f.ships)
    if done:
        into.ships = [*into.ships, *f.ships]
        into.cargo.update(f.cargo)
        into.planes, into.scouts = [*into.planes, *f.planes], [*into.scouts, *f.scouts]
        f.ships, f.cargo, f.planes, f.scouts, f.absent = [], {}, [], [], True
    ctx.tell(r.nation, "task-force-joined", PHASE, order=r.index, tf=r.tf, into=r.other, zone=f.zone,
             ships=ships, done=done)


def hand_planes(ctx: TurnContext, old: Fleet, new: Fleet) -> None:
    """Aircraft Carriers: the fighters aboard go with the carriers, as many as the new task
    force's carriers hold (lowest ids first), all of them if the old one keeps no carrier."""
    room = sum((stats.capacity if (stats := ctx.stats(new.nation, "carrier", u)) else 0)
               for u in new.ships if u.kind == "carrier")
    kept = any(u.kind == "carrier" for u in old.ships)
    going = old.planes[:room] if kept else (old.planes if room else [])
    new.planes = going
    new.scouts = [u for u in old.scouts if u in going]
    old.planes = [u for u in old.planes if u not in going]
    old.scouts = [u for u in old.scouts if u not in going]


def board(ctx: TurnContext, fleets: Sequence[Fleet]) -> None:
    """Aircraft Carriers: the fighters in a sea zone are aboard their nation's carriers
    there, as many as each holds (its capacity with its technology); each task force with
    carriers takes the fighters of its nation in its zone up to its carriers' room, lowest
    ids first, task forces in order (those the orders formed, by nation and name, first)."""
    taken: set[str] = set()
    for f in fleets:
        room = sum((stats.capacity if (stats := ctx.stats(f.nation, "carrier", u)) else 0)
                   for u in f.ships if u.kind == "carrier")
        if not room:
            continue
        free = sorted((u for u in ctx.state.units_at(f.zone, f.nation) if u.kind == "fighter" and u.id not in taken),
                      key=lambda u: u.id)
        f.planes = free[:room]
        taken.update(u.id for u in f.planes)
    named_from: dict[tuple[str, str | None], int] = {}  # fighters the MOVE orders name, by (nation, origin): read once
    for n, _, o in ctx.orders_of(Move):
        for uc in o.units:
            if uc.kind == "fighter":
                named_from[(n, o.origin)] = named_from.get((n, o.origin), 0) + uc.count
    for f in fleets:  # the fighters an order names (lowest ids first, as the naval step takes them) do not scout
        if not f.planes:
            continue  # no fighters aboard: none scouts (f.scouts stays empty)
        named = named_from.get((f.nation, f.zone), 0)
        ordered = {u.id for u in ctx.free(f.nation, f.zone, "fighter")[:named]} if named else set()
        f.scouts = [u for u in f.planes if u.id not in ordered and u.id not in ctx.moved]


def standing_mission(ctx: TurnContext, f: Fleet) -> str:
    """4.2.8: docking in friendly waters, else "a TF in patrol mission"; loaded transports
    with no move keep their troop transport mission."""
    if any(u.kind == "transport" for u in f.ships) and all(u.kind == "transport" for u in f.ships):
        return "transport"
    return "dock" if friendly_waters(ctx, f.nation, f.zone) else "patrol"


def sail(f: Fleet, dest: str) -> None:
    """Guideline 5: one sea zone at a time; the troops aboard go with their transports, the
    fighters aboard with their carriers (while the task force has one)."""
    if not any(u.kind == "carrier" for u in f.ships):
        f.planes = []
    f.planes = [u for u in f.planes if u.location == f.zone]  # not those flown off a sunk carrier (carrier_loss)
    for u in (*f.ships, *f.troops(), *f.planes):
        u.location = dest
    f.zone = dest
    f.path.append(dest)


def stow(ctx: TurnContext, f: Fleet, troops: Sequence[Unit]) -> list[Unit]:
    """Put troops aboard the fleet's transports, each up to its capacity with its own
    technology (Transports; Improved Transports); the troops that find no room are returned."""
    left = []
    for t in sorted(troops, key=lambda u: u.id):
        for ship in sorted((u for u in f.ships if u.kind == "transport"), key=lambda u: u.id):
            load_now = f.cargo.setdefault(ship.id, [])
            stats = ctx.stats(ship.nation, "transport", ship)
            room = stats.capacity if stats is not None else 0
            if troop_points(kinds(load_now)) + troop_points({t.kind: 1}) <= room:
                load_now.append(t)
                break
        else:
            left.append(t)
    return left


def load(ctx: TurnContext, f: Fleet, k: int) -> None:
    """4.2.1: troops "embark from friendly territory BEFORE the attack on that territory
    commences": they go aboard where the task force is at that point of its plan."""
    for order, ids in f.loads.get(k, []):
        load_one(ctx, f, order, ids)


def load_one(ctx: TurnContext, f: Fleet, order: TaskForceMission, ids: tuple[str, ...]) -> None:
    troops = [u for u in ctx.state.units_at(order.origin or "") if u.id in ids]  # the place's, in the list's order
    if f.stopped or not f.ships or not ctx.adjacent(f.zone, order.origin or ""):
        left = troops
    else:
        left = stow(ctx, f, troops)
        for u in troops:
            if u not in left:
                u.location = f.zone
    if left:
        ctx.tell(f.nation, "units-held-back", PHASE, order=order_index(ctx, f.nation, order), reason="no-transport",
                 units=kinds(left))


# ---- contact and battle ---------------------------------------------------------------------------


def seeks(a: Fleet, b: Fleet) -> bool:
    """Does task force a seek combat with b? (4.2's list of missions)"""
    if a.mission in AGGRESSIVE:
        return True
    return a.mission == "dock" and b.mission == "transport"  # 4.2.8: "prevent any invasion"


def sighting(ctx: TurnContext, seeker: Fleet, other: Fleet, zone: str, why: str = "contact") -> bool:
    factors = phase4_naval.aggressive_factors(*sides_in(ctx, seeker, other, zone),
                                              radar=gear_aboard.carries(ctx, seeker.ships, "radar"))
    return phase4_naval.engages(factors, ctx.dice, f"{why} in {zone}: {seeker.key} sights {other.key}")


def sides_in(ctx: TurnContext, seeker: Fleet, other: Fleet, zone: str) -> tuple[list[str], list[str]]:
    """The kinds whose factors count: each task force's, with the units its side sent on a
    reconnaissance mission to the zone this turn (3.3: they "help own TF ... to engage
    enemy or avoid detection"; engine/phase3_recon_missions.py helping_at_sea)."""
    def helpers(nation: str) -> list[Unit]:
        return [u for u in phase3_recon_missions.helping_at_sea(ctx, nation, zone) if u.kind in phase4_naval.RECON_FACTORS]

    return (seeker_kinds(ctx, [*seeker.ships, *on_deck(ctx, seeker), *helpers(seeker.nation)]),
            [u.kind for u in [*other.ships, *on_deck(ctx, other), *helpers(other.nation)]])


def on_deck(ctx: TurnContext, f: Fleet) -> list[Unit]:
    """The fighters aboard the task force's carriers that scout for it: 4.2.4: "Aircraft
    carriers usualy have at least one fighter unit on board, and if no orders are set for
    these fighters then they are working on reconaissance missions"; the 4.2 table: a
    carrier's defensive factor "depends of aircrafts on deck, base is 0". Reading: its
    fighters no order of the turn names (board: f.scouts), still afloat with it, as many as
    its undamaged carriers can launch ("A damaged carrier cannot launch fighters"); each
    counts with a fighter's factors as a member of the task force."""
    launch = sum((stats.capacity if (stats := ctx.stats(f.nation, "carrier", u)) else 0)
                 for u in f.ships if u.kind == "carrier" and not u.damage)
    planes = {u.id for u in f.planes}
    return [u for u in f.scouts if u.id in planes and u.location == f.zone][:launch]


def seeker_kinds(ctx: TurnContext, ships: Sequence[Unit]) -> list[str]:
    """4.2: "battleships and aircraft carrier, when they have only one hit point left, cannot
    use aggresive reconaissance factor"."""
    return [u.kind for u in ships if not (u.damage and naval_combat.hits_to_kill(ctx, u) - u.damage <= 1)]


def chance(ctx: TurnContext, seeker: Fleet, other: Fleet, zone: str) -> float:
    factors = phase4_naval.aggressive_factors(*sides_in(ctx, seeker, other, zone),
                                              radar=gear_aboard.carries(ctx, seeker.ships, "radar"))
    return float(phase4_naval.contact_chance(factors))


def contacts(ctx: TurnContext, sea: Sea, first_point: bool) -> None:
    """contact() in every zone with task forces at this point, by name. Each zone's are
    found in one pass over the fleets, not one a zone (issue 14, the engine's cost): a
    battle in one zone moves only its own task forces (back, go_back), so those that
    left it join the zone they reached, in the fleets' order, before its turn comes."""
    at: dict[str, list[Fleet]] = defaultdict(list)
    for f in sea.fleets:
        if f.ships:
            at[f.zone].append(f)
    rank: dict[int, int] = {}
    for zone in sorted(at):
        if len({f.nation for f in at[zone]}) < 2:
            continue  # a nation's task forces alone meet no enemy (and move none: none comes or goes)
        contact(ctx, sea, zone, first_point, at[zone])
        for f in at[zone]:
            if f.zone != zone and f.zone in at and all(g is not f for g in at[f.zone]):
                rank = rank or {id(g): i for i, g in enumerate(sea.fleets)}
                at[f.zone] = sorted([*at[f.zone], f], key=lambda g: rank[id(g)])


def contact(ctx: TurnContext, sea: Sea, zone: str, first_point: bool, among: Sequence[Fleet] | None = None) -> None:
    """Contact (4.2, guidelines 3 and 4) among the task forces in `zone` (of `among`, a
    list that holds every fleet there in the fleets' order, else of all fleets)."""
    here = [f for f in (sea.fleets if among is None else among) if f.zone == zone and f.ships]
    foes = [(a, b) for a in here for b in here if ctx.at_war(a.nation, b.nation)]
    if not foes:
        return
    sighted: set[tuple[str, str]] = set()  # (seeker, sighted)
    done: set[tuple[str, str]] = set()
    by_key = {f.key: f for f in here}
    for a, b in foes:
        if (zone, a.key, b.key) in sea.held:  # the blockade that held b here has sighted it
            sea.held.discard((zone, a.key, b.key))
            sighted.add((a.key, b.key))
            done |= {(a.key, b.key), (b.key, a.key)}
            continue
        if (a.key, b.key) in done or not seeks(a, b):
            continue
        if seeks(b, a) and first_point and a.path[0] == b.path[0] == zone and len(a.path) == len(b.path) == 1:
            # Guideline 3: sharing the zone from the start, one roll, with the lower chance.
            low = min((a, b), key=lambda f: (chance(ctx, f, by_key[other_key(f, a, b)], zone), f.key))
            high = b if low is a else a
            done |= {(a.key, b.key), (b.key, a.key)}
            if sighting(ctx, low, high, zone):
                sighted |= {(a.key, b.key), (b.key, a.key)}
            continue
        done.add((a.key, b.key))
        if sighting(ctx, a, b, zone):
            sighted.add((a.key, b.key))
    free: dict[str, str] = {}  # escort key -> the enemy it caught with a free round
    for e in here:
        if e.mission != "escort" or not e.escort_of:
            continue
        ward = f"{e.nation}/{e.escort_of}"
        for a in here:
            if (a.key, ward) not in sighted or (a.key, e.key) in sighted or (e.key, a.key) in sighted:
                continue
            if sighting(ctx, e, a, zone):
                sighted.add((e.key, a.key))
                if (e.key, a.key) not in sea.alerted:
                    free[e.key] = a.key
                sea.alerted.add((e.key, a.key))
    for group in components(sighted):
        battle(ctx, sea, zone, [by_key[k] for k in sorted(group)], sighted, free)


def other_key(f: Fleet, a: Fleet, b: Fleet) -> str:
    return b.key if f is a else a.key


def components(pairs: set[tuple[str, str]]) -> list[set[str]]:
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x

    for a, b in sorted(pairs):
        parent[root(a)] = root(b)
    groups: dict[str, set[str]] = defaultdict(set)
    for x in sorted(parent):
        groups[root(x)].add(x)
    return [groups[r] for r in sorted(groups, key=lambda r: min(groups[r]))]


def battle(ctx: TurnContext, sea: Sea, zone: str, group: list[Fleet], sighted: set[tuple[str, str]],
           free: dict[str, str]) -> None:
    lead = group[0]
    first = [f for f in group if ctx.allies(f.nation, lead.nation)]
    second = [f for f in group if f not in first]
    if not second:
        return
    seekers = {s for s, _ in sighted}
    sides = (side_of(first, any(f.key in seekers for f in first), ctx),
             side_of(second, any(f.key in seekers for f in second), ctx))
    head = None
    for e_key, _ in sorted(free.items()):
        e = next((f for f in group if f.key == e_key), None)
        if e is not None:
            own = sides[0] if e in first else sides[1]
            head = (own, [s for s in own.ships if s.fleet == e.key], "escort")
            break
    orders = (orders_for(ctx, first, zone), orders_for(ctx, second, zone))
    result = naval_combat.fight(ctx, zone, *sides, orders=orders, free=head, after_round=off_sunk_carriers)
    settle(ctx, group)
    naval_combat.battle_event(ctx, result, [f.key for f in group])
    if result.ended == "withdrawn" and result.retreating is not None:
        for f in (first, second)[result.retreating]:  # only the side that withdrew
            back(ctx, f)
    elif result.ended == "contact-lost":
        for f in group:
            if turns_back(ctx, f.nation, zone):
                go_back(ctx, f)


def off_sunk_carriers(battle: naval_combat.NavalBattle) -> str | None:
    """Aircraft Carriers: a carrier's fighters fight from it; when their nation has no
    carrier left in the battle they leave it (after it, to another of its carriers in the
    zone with room, or to friendly land: carrier_loss.strand, with the rounds they
    fought). A side left with nothing ends the battle: its ships were destroyed."""
    for side in battle.sides:
        decks = {s.unit.nation for s in side.ships if s.unit.kind == "carrier"}
        for s in [s for s in side.ships if s.mission == CARRIED and s.unit.nation not in decks]:
            side.ships.remove(s)
            battle.flown[s.unit.id] = battle.rounds
    return "destroyed" if not all(side.ships for side in battle.sides) else None


def turns_back(ctx: TurnContext, nation: str, zone: str) -> bool:
    """4.2: after contact is lost "both TF can choose to disengage and to continue their
    mission or to cancel mission and return to the sea zone from where they came. That
    must be explained to moderator": WITHDRAW FROM <zone> IF CONTACT LOST is the second
    choice, for every task force of the nation in a battle there; without it, the first."""
    return any(n == nation and c.kind == "contact-lost" and ctx.name(c.dest) == zone
               for n, _, c in ctx.orders_of(CombatCondition))


def go_back(ctx: TurnContext, f: Fleet) -> None:
    """The mission cancelled: back to the zone it came from at its last move (a task force
    that has not moved stays), and no further step this turn."""
    zone = f.zone
    if f.came_from is not None and f.came_from != f.zone and f.ships:
        sail(f, f.came_from)
    f.stopped = True
    ctx.tell(f.nation, "task-force-turned-back", PHASE, tf=f.name, zone=zone, dest=f.zone)


def side_of(group: Sequence[Fleet], sought: bool, ctx: TurnContext | None = None) -> NavalSide:
    """The task forces' ships as one side of a battle; with `ctx`, their carriers' fighters
    too (flying), those on_deck scouts for them: 4.3 step 4 "All attacking ships and
    aircraft roll for hits. Then defending ships and planes roll for defense"."""
    ships = [Ship(u, f.key, f.mission, list(f.cargo.get(u.id, []))) for f in group for u in f.ships]
    planes = [Ship(u, f.key, CARRIED) for f in group for u in on_deck(ctx, f)] if ctx is not None else []
    return NavalSide(ships + planes, sought)


def orders_for(ctx: TurnContext, group: Sequence[Fleet], zone: str) -> BattleOrders:
    return battle_orders(ctx, sorted({f.nation for f in group}), zone)


def battle_orders(ctx: TurnContext, nations: Sequence[str], zone: str) -> BattleOrders:
    """The nations' casualty preferences and withdrawal conditions for a battle in `zone`."""
    conditions = tuple(o for n, _, o in ctx.orders_of(CombatCondition)
                       if n in nations and o.kind in ("rounds", "losses", "kills") and ctx.name(o.dest) == zone)
    return BattleOrders(casualty_preferences(ctx, nations, zone), conditions)


def settle(ctx: TurnContext, group: Sequence[Fleet]) -> None:
    """After a battle: sunk ships and troops leave their task forces."""
    alive = ids_of(ctx.state.units)
    for f in group:
        f.ships = [u for u in f.ships if u.id in alive]
        f.cargo = {t: [u for u in load if u.id in alive] for t, load in f.cargo.items() if t in alive}
        f.planes = [u for u in f.planes if u.id in alive and u.location == f.zone]  # not those downed or flown to land


def back(ctx: TurnContext, f: Fleet) -> None:
    """Step 6: a retreating task force goes "into any allied occupied or empty sea zone"
    (engine/naval_retreat.py) and stops."""
    named = naval_retreat.named_zone(ctx, f.nation, f.zone)
    dest = naval_retreat.retreat_zone(ctx, f.nation, f.zone, f.came_from, named)
    if dest is None:
        ctx.flag(naval_retreat.PHASE, "naval-retreat-nowhere", nation=f.nation, tf=f.name, zone=f.zone)
    elif f.ships:
        sail(f, dest)
    f.stopped = True


# ---- naval blockade (4.2.6) -----------------------------------------------------------------------


def blockade(ctx: TurnContext, sea: Sea, k: int) -> None:
    """4.2.6: a blockade "prevents enemy surface ships to move through or from the sea zone
    the blockaders control". Reading (docs/rules-coverage.md): a task force with surface
    ships that would leave a zone where an enemy task force is on blockade at this point
    is held there if the blockade sights it (its aggressive factors, 4.2); the contact
    that follows needs no second roll. A task force the blockade does not sight slips
    through: 4.2.7's MOVE exists "to pass blockade"."""
    for f in sea.planned:  # (only a fleet with a step at this point may leave)
        if f.stopped or k >= len(f.moves) or not f.ships or f.moves[k].dest in (None, f.zone):
            continue
        if not any(u.kind in phase4_naval.SURFACE_SHIPS for u in f.ships):
            continue  # submarines are not "surface ships"
        for b in sea.fleets:
            if b.zone != f.zone or not b.ships or b.mission != "blockade" or not ctx.at_war(b.nation, f.nation):
                continue
            if not sighting(ctx, b, f, f.zone, "blockade"):
                continue
            f.stopped = True
            sea.held.add((f.zone, b.key, f.key))
            ctx.emit("blockade-held", PHASE, sorted({f.nation, b.nation}), nation=f.nation, tf=f.name,
                     zone=f.zone, dest=f.moves[k].dest or "", by=b.nation)
            break


BLOCKADES = "blockaded-zones"  # ctx.memo key: zone -> nations whose blockade holds it as movement ends


def hold_zones(ctx: TurnContext, sea: Sea) -> None:
    """As movement ends, the zones each nation's blockade holds (4.2.6: "During the Naval
    Blockade mission, TF stays in the same sea zone"): a task force whose last task was a
    blockade, with surface ships left. Phase 8 transfers read them (engine/sea_lanes.py)."""
    held: dict[str, list[str]] = {}
    for f in sea.fleets:
        if f.mission == "blockade" and any(u.kind in phase4_naval.SURFACE_SHIPS for u in f.ships):
            held[f.zone] = sorted({*held.get(f.zone, []), f.nation})
    ctx.memo[(BLOCKADES,)] = held


PROWLERS = "prowling-zones"  # ctx.memo key: zone -> the task forces there on another aggressive mission


def mark_prowlers(ctx: TurnContext, sea: Sea) -> None:
    """As movement ends, the task forces with surface ships whose last task was an
    aggressive mission other than a blockade (patrol, shore bombardment; ships without
    orders in unfriendly waters patrol, 4.2.8), by zone. 4.2.6 Note: "this is the only way
    that surface units can prevent, with 100% chance, that two territories exchange saved
    resources. Other aggresive missions can have 0-100% chance to prevent transfer of
    resources": the rules give that chance to no number, so a transfer whose sea path
    crosses such a zone is the moderator's to judge (engine/sea_lanes.py, flag
    transfer-past-enemy-fleet)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for f in sea.fleets:
        if f.mission in AGGRESSIVE - {"blockade"} and any(u.kind in phase4_naval.SURFACE_SHIPS for u in f.ships):
            out.setdefault(f.zone, []).append((f.nation, f.name))
    ctx.memo[(PROWLERS,)] = {z: sorted(fs) for z, fs in sorted(out.items())}


# ---- submarines -----------------------------------------------------------------------------------


def intercept(ctx: TurnContext, sea: Sea, moving: bool) -> None:
    """4.2.10: submarines attack a task force moving into or out of their zone, or one
    whose troops will land from it.

    Phase 4 guideline 2 and the note after 4.6.1 ("all combats--air, land or naval"):
    allies attacking together fight one battle. The submarines of allied nations that
    intercept the same task force in the same zone at the same movement point are one
    side: they make the free attack together and the target's side (with the ships that
    engage) fights them once, its single nation facing several getting the fictive unit
    (naval_combat.arm). Submarines of nations not allied to each other fight it one camp
    after the other; the battles in one zone at one point (other camps, other targets:
    the target's side joins each of them, so one changes the next) come in an order drawn
    by lot (alliances.by_lot, logged), zones by name: no nation's id or line decides."""
    by_zone: dict[str, list[list[Claim]]] = defaultdict(list)
    claimed = claims(ctx, sea, moving)
    for zone, key in sorted({(c.zone, c.target.key) for c in claimed}):
        on_it = [c for c in claimed if (c.zone, c.target.key) == (zone, key)]
        by_zone[zone] += alliances.by_alliance(ctx.state, on_it, lambda c: c.nation, lambda c: c.index)
    for zone, camps in sorted(by_zone.items()):
        if len(camps) > 1:
            camps = alliances.by_lot(ctx.dice, camps, lambda g: " + ".join(sorted({c.nation for c in g}))
                                     + f" on {g[0].target.key}", f"submarine interceptions in {zone}, first")
        for camp in camps:
            if camp[0].target.ships:
                interception(ctx, sea, camp)
            else:  # sunk by an interception before: the orders wait for another target
                for c in camp:
                    sea.spent.discard((c.nation, c.index))
                    sea.used_subs.difference_update(u.id for u in c.subs)


@dataclass(frozen=True, eq=False)
class Claim:
    """One kept INTERCEPT order at one movement point: its submarines and the task force
    they attack."""

    nation: str
    index: int
    subs: list[Unit]
    target: Fleet
    zone: str


def claims(ctx: TurnContext, sea: Sea, moving: bool) -> list[Claim]:
    """The INTERCEPT orders that find a target at this point, each with its submarines (a
    nation's orders in one zone take them in the order written) and its target (`chosen`)."""
    out: list[Claim] = []
    near: dict[str, list[Fleet]] | None = None  # zone -> the task forces in or leaving it (none moves here)
    sailing: set[str] | None = None  # the ids of the ships in task forces
    for nation, index, order in ctx.orders_of(SubInterception):
        if (nation, index) in sea.spent or not submarines.kept(ctx, nation, index):
            continue
        # the task forces first (most orders find none at a point): only in or leaving the
        # zone can one cross it (crosses), told without a call for each of some forty
        zone, wars = order.zone, ctx.nation(nation).at_war_with
        if near is None:  # found once a point for every order, in the fleets' order (issue 14)
            near = defaultdict(list)
            for f in sea.fleets:
                near[f.zone].append(f)
                if f.moved_at is not None and f.moved_at != f.zone:
                    near[f.moved_at].append(f)
        targets = [f for f in near.get(zone, ()) if (f.zone == zone or f.moved_at == zone) and f.ships and f.nation in wars
                   and order.target in ("any", f.mission) and crosses(ctx, f, zone, moving)
                   and (order.tf is None or (f.nation, f.name) == (order.tf_nation, order.tf))]
        if not targets:
            continue  # (its submarines not looked for: most orders find no target at a point)
        # the zone's units by the index (in the list's order), not every unit on the map,
        # not those sailing in a task force; by id, one object per unit in the turn's state
        # (a Unit's == compares every field: a third of the naval step, asked for every ship)
        if sailing is None:  # found once a point: no ship joins or leaves a task force here
            sailing = {s.id for f in sea.fleets for s in f.ships}
        subs = [u for u in ctx.units_at(order.zone, nation) if u.kind == "submarine" and u.id not in sea.used_subs
                and u.id not in sailing][: order.count]
        if not subs:
            continue
        sea.spent.add((nation, index))
        sea.used_subs.update(u.id for u in subs)
        out.append(Claim(nation, index, subs, chosen(ctx, nation, order.zone, targets), zone))
    return out


def interception(ctx: TurnContext, sea: Sea, camp: Sequence[Claim]) -> None:
    """One battle: the submarines of one camp of allies against the task force they all
    intercept (its cover, the fighters on its decks, and once their free attack is over
    the ships of its side in the zone: `engaging`)."""
    target, zone = camp[0].target, camp[0].zone
    nations = sorted({c.nation for c in camp})
    subs = [u for c in camp for u in c.subs]  # each fights in its camp's battle only: all afloat
    own = NavalSide([Ship(u, f"{u.nation}/submarines", "intercept") for u in subs], sought=True)
    them = side_of([target], sought=False)
    cover = cover_over(ctx, sea, target, zone)
    deck = deck_cover(ctx, target)
    spare = {u.id: n for u, n in [*cover, *deck]}
    them.ships += [Ship(u, f"{u.nation}/aircraft", "cover") for u, _ in cover]
    them.ships += [Ship(u, target.key, CARRIED) for u, _ in deck]
    others = engaging(ctx, sea, nations, target, zone)
    joining = [s for s in side_of(others, sought=False).ships if s.unit.kind != "transport"]
    group = [target, *others]
    result = naval_combat.fight(ctx, zone, own, them, orders=(BattleOrders(), orders_for(ctx, group, zone)),
                                free=(own, list(own.ships), "submarines"), after_round=until_cover_leaves(them, spare),
                                joining=joining)
    for u, rounds in cover:
        sea.cover_fought[u.id] = sea.cover_fought.get(u.id, 0) + min(result.rounds, rounds)
    settle(ctx, group)
    fought = sorted({s.fleet for s in joining})
    naval_combat.battle_event(ctx, result, [*(f"{n}/submarines" for n in nations), target.key, *fought,
                                            *sorted({f"{u.nation}/aircraft" for u, _ in cover})])


def chosen(ctx: TurnContext, nation: str, zone: str, targets: Sequence[Fleet]) -> Fleet:
    """4.2.10: the player "may choose to have the subs attack any number of task forces":
    an order naming a task force (AGAINST TF B OF Britain) has chosen it. An order naming
    a mission, or none, leaves a choice among the task forces doing it: it is drawn by
    lot, a logged pick rolled only when two or more qualify at once, so neither the enemy's
    nation id nor the names it gave its task forces decide (issue 10)."""
    if len(targets) == 1:
        return targets[0]
    ordered = sorted(targets, key=lambda f: f.key)
    return ctx.dice.pick(ordered, f"submarine interception in {zone} by {nation}, the target: "
                         + " or ".join(f.key for f in ordered))


def engaging(ctx: TurnContext, sea: Sea, nations: Sequence[str], target: Fleet, zone: str) -> list[Fleet]:
    """The note after 4.3: "Subs attacking surface vessels and attacking other subs will
    have a free attack against them. After that ALL ships in the same sea zone can engage
    attacking subs". Reading: the other task forces in the submarines' zone at that point
    of the movement, of the target's nation and its allies at war with the submarines'
    nations (one of them), join the battle once the free attack is over, with their ships
    that can fire (not transports, whose attack is 0: they would only be targets); by
    default they do."""
    return [f for f in sea.fleets if f is not target and f.ships and f.zone == zone
            and (f.nation == target.nation or ctx.allies(f.nation, target.nation))
            and any(ctx.at_war(n, f.nation) for n in nations)]


def cover_over(ctx: TurnContext, sea: Sea, target: Fleet, zone: str) -> list[tuple[Unit, int]]:
    """4.2: "Aircraft may be sent into a sea zone during naval movement and assigned to a
    task force as cover. If subs attack that task force, the aircraft may then participate
    in the battle." Reading: the cover flown from land to the zone (a MOVE of aircraft to
    it) covers the task forces of its nation and its allies there; each plane joins with
    the rounds its fuel still pays for (2 a sea zone, 1 a round, enough to fly home), less
    those fought against submarines earlier in the step."""
    out: list[tuple[Unit, int]] = []
    for u, origin, _ in sea.cover.get(zone, []):
        if u in ctx.state.units and ctx.allies(u.nation, target.nation):
            left = air_rounds(ctx, u, origin, zone) - sea.cover_fought.get(u.id, 0)
            if left >= 1:
                out.append((u, left))
    return out


def deck_cover(ctx: TurnContext, target: Fleet) -> list[tuple[Unit, int]]:
    """4.2.10 with Aircraft Carriers: the fighters aboard the intercepted task force's
    carriers. Reading (docs/rules-coverage.md, 4.2.10): those on deck that no order names
    (on_deck: 4.2.4 "if no orders are set for these fighters then they are working on
    reconaissance missions" for it) are "aircraft ... assigned to the naval task force":
    they fight in the battle (4.3 step 4, "All attacking ships and aircraft"; the
    submarines' hits go to ships only, step 5) and hold the submarines while they have
    fuel. They fly from their carrier in the zone and land back on it, so their whole tank
    pays for rounds, 1 a round (as when they hunt with it, hunt_from_carriers): a fighter
    of 5 fuel holds them 5 rounds at most, and the submarines, who sought the battle,
    still lose contact as any seeker does (naval_combat.fight). Those of the task forces
    that join after the free attack do not: "ALL ships ... can engage" names ships."""
    out: list[tuple[Unit, int]] = []
    for u in on_deck(ctx, target):
        tank = (stats.fuel if (stats := ctx.stats(u.nation, u.kind)) else 0) or 0
        if tank // fuel.ROUND >= 1:
            out.append((u, tank // fuel.ROUND))
    return out


def until_cover_leaves(them: NavalSide, spare: dict[str, int]) -> Callable[[naval_combat.NavalBattle], str | None]:
    """4.2.10: "The intercepting subs cannot retreat if aircraft are assigned to the naval
    task force, but once the aircraft are forced to return to land (due to lack of fuel
    points), then the subs may retreat as usual": after each round the cover whose fuel is
    spent leaves, and so do the carriers' fighters whose nation has no carrier left in the
    battle (off_sunk_carriers); the submarines dive (dive) once no cover is left in it."""
    def after_round(battle: naval_combat.NavalBattle) -> str | None:
        if off_sunk_carriers(battle):
            return "destroyed"
        for s in [s for s in them.ships if s.unit.id in spare and spare[s.unit.id] <= battle.rounds]:
            them.ships.remove(s)
            if s.mission == CARRIED:
                battle.flown[s.unit.id] = battle.rounds
        if any(s.unit.id in spare for s in them.ships):
            return None
        return dive(battle)

    return after_round


def crosses(ctx: TurnContext, f: Fleet, zone: str, moving: bool) -> bool:
    if moving:
        return f.moved_at == zone or (f.moved_at is not None and f.zone == zone)
    if f.zone != zone:  # (first: the rest reads the nation's orders, for every fleet and order)
        return False
    if not f.cargo or not any(u.kind == "transport" for u in f.ships) or not f.troops():
        return False  # (before the nation's orders are read: few task forces carry troops)
    return any(isinstance(o, NavalInvasion) and o.origin == zone for o in ctx.orders.get(f.nation, ()))


def dive(battle: naval_combat.NavalBattle) -> str | None:
    """Submarines break off after the first round (the default; 4.2.9, 4.2.10)."""
    return SUBS_DIVE if battle.rounds >= 1 else None


def detect_by_order(ctx: TurnContext, sea: Sea) -> None:
    """4.2.9 DETECT orders the engine kept, with the units each claimed (submarines.hunts):
    ships where they are, aircraft flown in from land ("fighters and bombers (assuming they
    have the range: fuel) may be flown into a sea zone"), fighters off their carriers in the
    zone or in another zone in range (Aircraft Carriers: "especially handy when hunting down
    submarines"), their rounds from their tank as any flight's (air_rounds), coming back
    aboard (fly_home).

    Phase 4 guideline 2: the hunters of allied nations (and a nation's several orders) in
    one sea zone hunt together: each rolls its own detection and all that find the
    submarines fight them in one battle, with one free round (`detect`). Camps not allied
    to each other hunt one after the other, in an order drawn by lot (alliances.by_lot,
    logged), zones by name: no nation's id or line decides."""
    orders: dict[str, list[tuple[str, int, str, list[Unit]]]] = defaultdict(list)  # zone -> (nation, index, from, units)
    for nation, index, order, claimed in submarines.hunts(ctx):
        where = order.origin or order.zone
        alive = {u.id for u in ctx.units_at(where, nation)}
        orders[order.zone].append((nation, index, where, [u for u in claimed if u.id in alive]))
    for zone, here in sorted(orders.items()):
        camps = alliances.by_alliance(ctx.state, here, lambda o: o[0], lambda o: o[1])
        if len(camps) > 1:
            camps = alliances.by_lot(ctx.dice, camps, lambda c: " + ".join(sorted({o[0] for o in c})),
                                     f"submarine hunts in {zone}, first")
        for camp in camps:
            rounds = {u.id: air_rounds(ctx, u, where, zone) for _, _, where, units in camp
                      for u in units if u.kind in AIR_UNITS}
            fought = detect(ctx, sea, zone, [Hunters(n, units, f"{n} detects", (i, "")) for n, i, _, units in camp],
                            rounds)
            for _, _, where, units in camp:
                for u in units:
                    if u.kind in AIR_UNITS:
                        fly_home(ctx, u, where, zone, fought.get(u.id, 0))


def air_rounds(ctx: TurnContext, plane: Unit, origin: str, zone: str) -> int:
    """Fighters and Bombers: the rounds of combat a plane's fuel pays for in the sea zone
    (2 a sea zone, 1 a round; Fighters) with enough left to reach friendly land, or, for a
    fighter off a carrier (its origin a sea zone), its carrier's zone."""
    tank = (stats.fuel if (stats := ctx.stats(plane.nation, plane.kind)) else 0) or 0  # as phase4_land and the checker
    out = fuel.cheapest(ctx.world, origin, zone, limit=tank)
    back = fuel.to_nearest(ctx.world, zone, landing_places(ctx, plane.nation) + carrier_zone(ctx, plane, origin),
                           limit=tank)
    if out is None or back is None:
        return 0
    return fuel.rounds_paid(tank, out, back)


def fly_home(ctx: TurnContext, plane: Unit, origin: str, zone: str, fought: int) -> None:
    """After a strike, a hunt or a cover flight over the sea zone `zone` the aircraft fly
    back where they came from (their base, or their carrier with room) when their fuel
    still reaches it; else a fighter lands aboard its nation's carriers in `zone` when
    they have room (Aircraft Carriers: "fighters may still land on it"; no fuel to spend,
    the nearest friendly place there is); else the aircraft fly to the nearest friendly
    land (4.5 step 3: "flown to a friendly controlled territory within range"), or are
    lost. A plane shot down is already gone. Home comes first, as after a land battle
    (phase4_land.land): a strike's fighters go back to the carrier they left, whose
    fleet they guard; the carriers under them are where they come down when home is
    out of reach (a reading, docs/rules-coverage.md "Where aircraft come down at sea")."""
    if plane not in ctx.state.units:
        return
    tank = (stats.fuel if (stats := ctx.stats(plane.nation, plane.kind)) else 0) or 0  # as phase4_land and the checker
    out = fuel.cheapest(ctx.world, origin, zone, limit=tank) or 0
    left = tank - out - fought * fuel.ROUND
    home = fuel.cheapest(ctx.world, zone, origin, limit=max(left, 0))
    if home is not None and ctx.friendly(plane.nation, origin):
        return  # back at its base: it never left it on the map
    if home is not None and carrier_zone(ctx, plane, origin) and placement.berth(ctx, plane, origin):
        return  # back aboard its carrier (damaged ones too: "fighters may still land on it")
    if aboard_here(ctx, plane, zone):
        plane.location = zone
        ctx.tell(plane.nation, "aircraft-landed", PHASE, place=zone, battle=zone, units={plane.kind: 1}, aboard=True)
        return
    carrier_loss.land_or_lose(ctx, plane, zone, landing_places(ctx, plane.nation), left, PHASE)


def aboard_here(ctx: TurnContext, plane: Unit, zone: str) -> bool:
    """May a fighter over the sea zone land aboard its nation's carriers there: their room
    (placement.berth, damaged carriers too) and a tank fit for a carrier (Fighters: "a
    fighter needs 5 fuel points before it can be used on an Aircraft Carrier")?"""
    stats = ctx.stats(plane.nation, plane.kind)
    return (ctx.is_sea(zone) and stats is not None and (stats.fuel or 0) >= placement.CARRIER_FUEL
            and placement.berth(ctx, plane, zone))


def carrier_zone(ctx: TurnContext, plane: Unit, origin: str) -> list[str]:
    """[origin] for a fighter that took off from a carrier there (a sea zone), else []:
    where the text is silent, it may come down where it took off (Aircraft Carriers)."""
    return [origin] if plane.kind == "fighter" and ctx.is_sea(origin) else []


@dataclass(frozen=True, eq=False)
class Hunters:
    """One nation's part in a hunt (4.2.9): its units, the name its ships fight under, and
    what a hunt that finds nothing tells it (`told`: the order's position and the task
    force's name, "" for a DETECT order)."""

    nation: str
    units: list[Unit]
    label: str
    told: tuple[int, str] = (-1, "")


def detect(ctx: TurnContext, sea: Sea, zone: str, parts: Sequence[Hunters],
           air: dict[str, int] | None = None) -> dict[str, int]:
    """The hunt of one camp of allies (Phase 4 guideline 2: one battle); returns the rounds
    each aircraft fought (air: the rounds its fuel pays for).

    Each hunter rolls its own detection (4.2.9: "Each ship attempting to detect enemy subs
    must roll equal to or lower than its search capability"); "All ships and aircraft that
    successfully detect the submarines", of every nation of the camp, "are then engaged in
    battle against all of the enemy submarines in that sea zone", with one free round. A
    part whose hunters found nothing is told so (submarines-not-found) in the same words
    whether submarines were there and escaped every roll or there were none.

    Aircraft fire in the free round, and stay for the first round when their fuel pays for
    two; the submarines' hits go to ships only (4.3 step 5), so aircraft alone are never
    hit. Submarines that break off from a force with aircraft "must move into an adjacent
    sea zone" (dive_away)."""
    air = air or {}
    nations = sorted({p.nation for p in parts})
    subs = [u for u in ctx.state.units_at(zone) if u.kind == "submarine"  # the zone's, in the list's order
            and any(ctx.at_war(n, u.nation) for n in nations)]
    able = [[u for u in p.units if u.kind in DETECTION and (u.kind not in AIR_UNITS or air.get(u.id, 0) >= 1)]
            for p in parts]
    found: list[list[Unit]] = [[] for _ in parts]
    if subs:
        found = [[u for u in mine if ctx.dice.d10(f"submarine detection in {zone}: {p.nation} {u.kind}")
                  <= gear_aboard.detection(ctx, u, DETECTION[u.kind])] for p, mine in zip(parts, able, strict=True)]
    for p, mine in zip(parts, found, strict=True):
        if not mine:
            nothing_found(ctx, p.nation, zone, p.units, p.told)
    if not any(found):
        return {}
    staying = {u.id for mine in found for u in mine if u.kind not in AIR_UNITS or air.get(u.id, 0) >= 2}
    own = NavalSide([Ship(u, p.label, "detect") for p, mine in zip(parts, found, strict=True)
                     for u in mine if u.id in staying], sought=True)
    them = NavalSide([Ship(u, f"{u.nation}/submarines", "dive") for u in subs], sought=False)
    first = [Ship(u, p.label, "detect") for p, mine in zip(parts, found, strict=True) for u in mine
             if u.id not in staying]
    result = naval_combat.fight(ctx, zone, own, them, free=(own, [*own.ships, *first], "detection"), after_round=dive)
    if not own.ships and them.ships and result.ended == "destroyed":
        result.ended = "aircraft-home"  # aircraft whose fuel paid for the free round only
    for f in sea.fleets:
        settle(ctx, [f])
    hunting = sorted({p.nation for p, mine in zip(parts, found, strict=True) if mine})
    naval_combat.battle_event(ctx, result, [*(f"{n}/hunters" for n in hunting),
                                            *sorted({s.fleet for s in them.ships})])
    flown = [u for mine in found for u in mine if u.kind in AIR_UNITS]
    if flown and result.ended == SUBS_DIVE:
        dive_away(ctx, sea, [s.unit for s in them.ships], zone)
    return {u.id: (2 if u.id in staying else 1) if result.rounds else 1 for u in flown}


def task_force_hunts(ctx: TurnContext, sea: Sea, k: int) -> None:
    """The task forces whose task at movement point k is the detect mission (4.2.9), zone by
    zone (by name): those of allied nations in one zone hunt together (guideline 2: one
    battle, one free round), camps not allied to each other one after the other, in an
    order drawn by lot (alliances.by_lot, logged)."""
    hunting = [f for f in sea.planned if f.ships and not f.stopped and k < len(f.moves) and f.mission == "detect"]
    for zone in sorted({f.zone for f in hunting}):
        camps = alliances.by_alliance(ctx.state, [f for f in hunting if f.zone == zone], lambda f: f.nation,
                                      lambda f: f.name)
        if len(camps) > 1:
            camps = alliances.by_lot(ctx.dice, camps, lambda c: " + ".join(sorted({f.nation for f in c})),
                                     f"submarine hunts in {zone}, first")
        for camp in camps:
            hunt_from_carriers(ctx, sea, [f for f in camp if f.ships])  # (not those an earlier hunt sank)


def hunt_from_carriers(ctx: TurnContext, sea: Sea, camp: Sequence[Fleet]) -> None:
    """Task forces' detect mission (4.2.9) in one zone, each with its carriers' fighters on
    deck hunting with its ships (Aircraft Carriers: "an aircraft carrier allows extended
    aerial operations for a limited number of fighters. This can become especially handy
    when hunting down submarines"; 4.2.9: fighters detect at 2). They fly from their carrier
    in the zone and land back on it: their whole tank pays for rounds (as a carrier's
    guards, 4.5 step 3), and the submarines breaking off from a force with aircraft "must
    move into an adjacent sea zone" (dive_away)."""
    if not camp:
        return
    parts, air = [], {}
    for f in camp:
        deck = on_deck(ctx, f)
        air.update({u.id: (stats.fuel if (stats := ctx.stats(u.nation, u.kind)) else 0) or 0 for u in deck})
        parts.append(Hunters(f.nation, [*f.ships, *deck], f"{f.key} detects", (f.order, f.name)))
    detect(ctx, sea, camp[0].zone, parts, air=air)


def nothing_found(ctx: TurnContext, nation: str, zone: str, hunters: Sequence[Unit],
                  told: tuple[int, str]) -> dict[str, int]:
    """The hunt's outcome when nothing was found: one sentence for both ways it happens,
    so the report never says whether submarines were there."""
    if hunters:
        ctx.tell(nation, "submarines-not-found", PHASE, order=told[0], zone=zone, units=kinds(hunters), tf=told[1])
    return {}


def dive_away(ctx: TurnContext, sea: Sea, subs: Sequence[Unit], zone: str) -> None:
    """4.2.9: "If the detecting force has aircraft among the attacking force, then if the
    submarines disengage, they must move into an adjacent sea zone." The owner's choice; the
    default (flagged): the first by name of the neighbouring sea zones holding no ship of a
    nation at war with it, else the first by name. Submarines in a task force go with it."""
    in_tf = {u.id for f in sea.fleets for u in f.ships}
    for nation in sorted({u.nation for u in subs}):
        mine = [u for u in subs if u.nation == nation and u.id not in in_tf and u in ctx.state.units]
        seas = sorted(n for n in ctx.world.neighbours(zone) if ctx.is_sea(n))
        if not mine or not seas:
            continue
        quiet = [z for z in seas if not any(ctx.at_war(nation, u.nation) for u in ctx.units_at(z)
                                            if u.kind in SEA_UNITS)]
        dest = (quiet or seas)[0]
        for u in mine:
            u.location = dest
        ctx.flag(PHASE, "submarines-dived-away", nation=nation, zone=zone, dest=dest, count=len(mine))
