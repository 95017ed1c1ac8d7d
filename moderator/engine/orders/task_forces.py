"""TF name AT zone: ships, and the task force's missions (Phase 4.2: Naval Movement,
4.2.1-4.2.9, and the "List of surface/surface TF missions in one place").

4.2: "Before naval movement can begin, all ships must be assigned to a task force. A task
force (TF) is merely a group of ships traveling together to execute the same mission."
A TF order forms one from the nation's ships in one sea zone (they are claimed: a ship
is in one task force). The mission orders that follow give it one task per movement
point, in the order written: guideline 6, "All naval units can do a single task while
they spend one movement point. When they start spending next movement point they can
change a task"; guideline 5, "All naval units move one sea zone at a time" (TO a
neighbouring sea zone, or staying). A task force has the movement points of its slowest
ship (guideline 5: faster ships "move their last points after all units with the fewer
movement points cease moving"); loading troops (LOAD) is part of the transport mission
and spends no point of its own.

Who may do what:
- 4.2.1 TRANSPORT, and LOAD: "Troop transporting is only allowed for transports, and it
  is the only mean for transports to load, move and unload troops." Troops "embark from
  friendly territory", next to the sea zone the transports are in (Transports); "two
  troop points" each, "An infantry unit uses one troop point ... all other land and air
  units require two".
- 4.2.2 ESCORT: "Only destroyers and battleships can do an escort mission"; the escorted
  task force must be formed by an earlier order.
- 4.2.3 BOMBARD: "at least one battleship in count and any number of other surface units
  (except loaded transports)"; "Damaged battleships may not ... shore-bombard"
  (Battleships). A coast of the sea zone the task force is in.
- 4.2.4 CARRIER: "Any surface unit ... except loaded transports, but must have at least
  one aircraft carrier included."
- 4.2.5 PATROL, 4.2.6 BLOCKADE: surface units "(except loaded transports)"; "During the
  Naval Blockade mission, TF stays in the same sea zone."
- 4.2.7 MOVE: "Any number of naval units (except loaded transports)".
- 4.2.8 DOCK: "Any ship not doing any of above jobs but in the friendly waters (waters
  connected to ports belonged to friendly faction)".
- Straits and canals (The Map's notes, Phase 1.4): a move between the two sea zones of a
  closed gate is refused (engine/passages.py).
- 4.2.9 DETECT: "Submarine detection can be done only if such TF stays in the same sea
  zone", by ships with a detection capability (submarines, battleships, destroyers), or
  by the fighters aboard its carriers ("Fighters 2"): a task force of carriers alone with
  fighters aboard may hunt (hunters_on_deck).

- Guideline 6's first example: "In second sea zone TF #1 splits to TF #1 (BB and DD) and
  TF #3 (2 DD)". SPLIT <ships> INTO TF <name> [AT <zone>] forms a new task force from
  ships of the task force where it is at that point of the orders (AT, if written, must
  be that zone); it has spent the points its ships spent, and its own steps follow on
  its own lines. JOIN TF <name> puts a task force's ships into another of the nation's
  that has reached the same zone after the same number of points; it has no step of its
  own after that. Neither spends a movement point (a task is changed "When they start
  spending next movement point"). Troops aboard stay on their transports: a loaded task
  force splits off all its transports or none (the ledger counts troops by task force,
  not by ship).

The per-turn ledger (Position.task_forces, keyed (nation, name)) records where each task
force is after the missions read so far, the points it spent and the troops aboard: a
later mission, an ESCORT and a naval invasion (4.6.1) meet it as the earlier orders left
it. The orders only plan: the naval step (engine/phase4_naval.py, moving every task force
point by point, with contact and naval combat after each move) carries the plans out.
Troops left aboard at the end of a turn stay at sea (their location is the sea zone):
a task force formed with transports where they are takes them aboard again.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from moderator.engine import garrison_apart, passages
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.orders.submarines import DETECTION
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, with_ids
from moderator.orders.model import NavalInvasion, TaskForce, TaskForceMission

PHASE = "4.2"
SURFACE = frozenset(SEA_UNITS) - {"submarine"}
ESCORTS = frozenset({"battleship", "cruiser"})  # 4.2.2: "Only destroyers and battleships"
CARRIES = frozenset(LAND_UNITS) | frozenset(AIR_UNITS)  # Transports: "land and air units"
STAYS = frozenset({"blockade", "detect", "dock"})  # missions done without leaving the sea zone
LOADED_MAY = frozenset({"transport", "load"})  # loaded transports: troop transport only


@dataclass
class TaskForceRecord:
    """One task force formed this turn, as the orders read so far have left it."""

    nation: str
    name: str
    order: int  # position of the TF order in the nation's orders
    ships: dict[str, int]  # kind -> count
    unit_ids: tuple[str, ...]
    path: list[str]  # sea zones it has been in, the one it was formed in first
    points: int = 0  # movement points spent
    aboard: Counter[str] = field(default_factory=Counter)  # troops loaded, by kind
    landed: Counter[str] = field(default_factory=Counter)  # troops sent ashore (4.6.1)
    troops: list[str] = field(default_factory=list)  # ids of the units aboard
    plan: list[tuple[TaskForceMission, tuple[str, ...]]] = field(default_factory=list)  # its steps as written (LOAD: the ids taken)
    start: str = ""  # the sea zone its ships are in as the turn begins (a split-off one: its parent's)
    first_ids: tuple[str, ...] = ()  # the ships it had when formed or split off (later joins and splits aside)
    boarded: tuple[str, ...] = ()  # troops already aboard when it was formed (from an earlier turn)
    parent: str | None = None  # split off this task force (guideline 6) ...
    named: tuple[tuple[str, int], ...] = ()  # ... with the ships its SPLIT names, (kind, count) ...
    born: int = 0  # ... after this many movement points
    joined: str | None = None  # joined this task force (guideline 6), after `points` points
    regroup: int = -1  # the position of its SPLIT (split off) or JOIN order

    def __post_init__(self) -> None:
        self.start = self.start or self.path[0]
        self.first_ids = self.first_ids or self.unit_ids

    @property
    def zone(self) -> str:
        """Where the task force is now."""
        return self.path[-1]

    def kinds(self) -> set[str]:
        return {k for k, n in self.ships.items() if n}


def speed(pos: Position, nation: str, tf: TaskForceRecord) -> int:
    """Movement points: those of the slowest ship (4.2, guideline 5)."""
    moves = [s.move for k in tf.kinds() if (s := pos.stats(nation, k)) is not None]
    return min(moves, default=0)


def capacity(pos: Position, nation: str, tf: TaskForceRecord) -> int:
    """Troop points the task force's transports carry (Transports: two each; Improved
    Transports "+1 troop point", each transport at the level it was built or upgraded at,
    as the naval step stows them: phase4_sea.stow)."""
    ships = [u for u in pos.state.units_with_ids(tf.unit_ids) if u.kind == "transport"]  # (by the index: issue 14)
    return sum(stats.capacity for u in ships if (stats := pos.stats(nation, "transport", u)) is not None)


def troop_points(units: dict[str, int]) -> int:
    """Transports: "An infantry unit uses one troop point ... all other land and air units
    require two troop points each"."""
    return sum(n * (1 if kind == "infantry" else 2) for kind, n in units.items())


def friendly_waters(pos: Position, nation: str, zone: str) -> bool:
    """4.2.8: "waters connected to ports belonged to friendly faction"."""
    # friendly() read from the nation's allies, found once (allies_of, the same rule), and
    # asked first: most coasts of a zone are not the nation's side's (issue 14)
    friends, control = pos.state.allies_of(nation), pos.state.control
    return any(control.get(land) in friends and pos.place(land).is_land
               and (pos.place(land).port or any(u.kind == "port" for u in pos.units_at(land)))
               for land in pos.world.neighbours(zone))


def record(pos: Position, nation: str, name: str) -> TaskForceRecord | None:
    return pos.task_forces.get((nation, name))


def hunters_on_deck(pos: Position, nation: str, tf: TaskForceRecord) -> bool:
    """May the task force's carriers send fighters to hunt submarines (4.2.9 "Fighters 2";
    Aircraft Carriers: "This can become especially handy when hunting down submarines")?
    An undamaged carrier among its ships ("A damaged carrier cannot launch fighters") and
    fighters of its nation aboard in the zone it was formed in (they sail with it). Which
    fighters go is the naval step's (phase4_sea.on_deck: those no order of the turn names)."""
    ids = set(tf.unit_ids)
    here = pos.units_at(tf.start, nation)
    return (any(u.id in ids and u.kind == "carrier" and not u.damage
                and (stats := pos.stats(nation, "carrier", u)) is not None and stats.capacity > 0 for u in here)
            and any(u.kind == "fighter" for u in here))


def composition(pos: Position, nation: str, tf: TaskForceRecord, mission: str) -> Problem | None:
    """Which ships may do which mission (4.2.1-4.2.9)."""
    kinds = tf.kinds()
    allowed = {
        "transport": kinds <= {"transport"},
        "load": kinds <= {"transport"},
        "escort": kinds <= ESCORTS,
        "bombard": "battleship" in kinds and kinds <= SURFACE,
        "carrier": "carrier" in kinds and kinds <= SURFACE,
        "patrol": kinds <= SURFACE,
        "blockade": kinds <= SURFACE,
        "detect": bool(kinds & set(DETECTION)) or hunters_on_deck(pos, nation, tf),
    }.get(mission, True)
    if not allowed:
        return problem("tf-mission", mission=mission, tf=tf.name)
    if tf.aboard and mission not in LOADED_MAY:
        return problem("tf-loaded", mission=mission, tf=tf.name, transports=tf.ships.get("transport", 0),
                       mixed=not kinds <= {"transport"})
    return None


class TaskForceRule(OrderRule[TaskForce]):
    """TF name AT zone: ships (4.2)."""

    order = TaskForce
    section = PHASE

    def problem(self, pos: Position, nation: str, order: TaskForce) -> Problem | None:
        if not pos.is_sea(order.location):
            return problem("tf-on-land", order.location, place=order.location)
        others = sorted({u.kind for u in order.units} - set(SEA_UNITS))
        if others:
            return problem("tf-units", kinds=others)
        if record(pos, nation, order.name) is not None:
            return problem("tf-twice", order.name, tf=order.name)
        return missing_units(pos, nation, order.location, order.units)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: TaskForce) -> None:
        ships = take_units(ctx, nation, order.location, order.units, index)
        counts: Counter[str] = Counter()
        for uc in order.units:
            counts[uc.kind] += uc.count
        tf = TaskForceRecord(nation, order.name, index, dict(counts), tuple(u.id for u in ships), [order.location])
        ctx.task_forces[(nation, order.name)] = tf
        # Troops still aboard from an earlier turn (at sea, no order yet) go with the transports.
        if not any(u.kind == "transport" for u in ships):
            tf.boarded = ()  # no room aboard at all: most task forces (their zone not searched)
            return
        room = capacity(ctx, nation, tf)
        for u in sorted((u for u in ctx.units_at(order.location, nation)
                         if u.kind in CARRIES and u.id not in ctx.moved), key=lambda u: u.id):
            if troop_points(dict(tf.aboard)) + troop_points({u.kind: 1}) > room:
                break
            ctx.claimed[(nation, order.location, u.kind)] += 1
            ctx.claim([u])
            tf.aboard[u.kind] += 1
            tf.troops.append(u.id)
        tf.boarded = tuple(tf.troops)


class MissionRule(OrderRule[TaskForceMission]):
    """One step of a task force: a mission for one movement point, or LOAD (4.2.1-4.2.9)."""

    order = TaskForceMission
    section = PHASE

    def problem(self, pos: Position, nation: str, order: TaskForceMission) -> Problem | None:
        tf = record(pos, nation, order.name)
        if tf is None:
            return problem("tf-unknown", order.name, tf=order.name)
        if tf.joined is not None:
            return problem("tf-joined", tf=tf.name, other=tf.joined)
        if order.mission == "split":
            return self._split(pos, tf, order)
        if order.mission == "join":
            return self._join(pos, nation, tf, order)
        why = composition(pos, nation, tf, order.mission)
        if why is not None:
            return why
        if order.mission == "load":
            return self._load(pos, nation, tf, order)
        if order.dest is not None:
            if order.mission in STAYS:
                return problem("tf-stays", order.dest, mission=order.mission, tf=tf.name)
            if not pos.is_sea(order.dest):
                return problem("tf-not-sea", order.dest, place=order.dest)
            if not pos.adjacent(tf.zone, order.dest):
                return problem("tf-not-adjacent", order.dest, place=order.dest, zone=tf.zone, tf=tf.name)
            gate = passages.barred(pos, nation, tf.zone, order.dest, tf.kinds())
            if gate is not None:
                return problem("passage-closed", order.dest, passage=gate.name, zone=tf.zone, place=order.dest)
            apart = garrison_apart.apart_problem(pos, nation, order.dest)  # French #1: allied France and Spain
            if apart is not None:
                return apart
        if tf.points + 1 > speed(pos, nation, tf):
            return problem("tf-too-far", order.dest or "", tf=tf.name, points=speed(pos, nation, tf))
        if order.mission == "escort":
            return self._escort(pos, nation, tf, order)
        if order.mission == "bombard":
            return self._bombard(pos, tf, order)
        if order.mission == "dock" and not friendly_waters(pos, nation, tf.zone):
            return problem("dock-not-friendly", zone=tf.zone)
        return None

    def _load(self, pos: Position, nation: str, tf: TaskForceRecord, order: TaskForceMission) -> Problem | None:
        origin = order.origin or ""
        if not pos.adjacent(tf.zone, origin):
            return problem("tf-not-adjacent", origin, place=origin, zone=tf.zone, tf=tf.name)
        if not pos.friendly(nation, origin):
            return problem("load-hostile", origin, place=origin)
        kinds = {u.kind for u in order.units}
        if kinds - CARRIES:
            return problem("load-units", kinds=sorted(kinds - CARRIES))
        wanted: Counter[str] = Counter()
        for uc in order.units:
            wanted[uc.kind] += uc.count
        total = troop_points(dict(tf.aboard + wanted))
        if total > capacity(pos, nation, tf):
            return problem("tf-capacity", tf=tf.name, capacity=capacity(pos, nation, tf), total=total)
        return missing_units(pos, nation, origin, order.units)

    def _split(self, pos: Position, tf: TaskForceRecord, order: TaskForceMission) -> Problem | None:
        """Guideline 6: "In second sea zone TF #1 splits to TF #1 (BB and DD) and TF #3 (2 DD)"."""
        name = order.part or ""
        if record(pos, tf.nation, name) is not None:
            return problem("tf-twice", name, tf=name)
        if order.at is not None and order.at != tf.zone:
            return problem("tf-split-where", order.at, tf=tf.name, zone=tf.zone, place=order.at)
        wanted = counts(order)
        short = sorted(k for k, n in wanted.items() if n > tf.ships.get(k, 0))
        if short:
            return problem("tf-split-ships", tf=tf.name, kinds=short, ships=dict(tf.ships))
        if sum(wanted.values()) >= sum(tf.ships.values()):
            return problem("tf-split-all", tf=tf.name, other=name)
        if tf.aboard and 0 < wanted["transport"] < tf.ships.get("transport", 0):
            return problem("tf-split-loaded", tf=tf.name)
        return None

    def _join(self, pos: Position, nation: str, tf: TaskForceRecord, order: TaskForceMission) -> Problem | None:
        """Guideline 6, read backwards: two task forces of a nation in one zone become one."""
        other = record(pos, nation, order.part or "")
        if other is None or other is tf:
            return problem("tf-unknown", order.part or "", tf=order.part or "")
        if other.joined is not None:
            return problem("tf-joined", tf=other.name, other=other.joined)
        if other.zone != tf.zone or other.points != tf.points:
            return problem("tf-join-apart", tf=tf.name, other=other.name, zone=tf.zone, points=tf.points,
                           other_zone=other.zone, other_points=other.points)
        loaded = tf if tf.aboard else other if other.aboard else None
        if loaded is not None and not (tf.kinds() | other.kinds()) <= {"transport"}:
            # 4.2.1: loaded transports do troop transport only, and TRANSPORT is for transports
            # alone: joined with other ships they could take no step. Escorting is 4.2.2's.
            escort = other if loaded is tf else tf
            return problem("tf-join-loaded", tf=tf.name, other=other.name, loaded=loaded.name, escort=escort.name)
        return None

    def _escort(self, pos: Position, nation: str, tf: TaskForceRecord, order: TaskForceMission) -> Problem | None:
        other = order.escort_of or ""
        if other == tf.name or record(pos, nation, other) is None:
            return problem("tf-unknown", other, tf=other)
        return None

    def _bombard(self, pos: Position, tf: TaskForceRecord, order: TaskForceMission) -> Problem | None:
        target = order.target or ""
        if pos.is_sea(target) or not pos.adjacent(tf.zone, target):
            return problem("tf-not-adjacent", target, place=target, zone=tf.zone, tf=tf.name)
        ready = [u for u in with_ids(pos.state.units, set(tf.unit_ids)) if u.kind == "battleship" and not u.damage]
        if not ready:
            return problem("bombard-damaged", tf=tf.name)
        return None

    def remarks(self, pos: Position, nation: str, order: TaskForceMission) -> list[Problem]:
        tf = record(pos, nation, order.name)
        assert tf is not None
        if order.mission == "bombard":
            invaded = any(isinstance(o, NavalInvasion) and o.dest == order.target for o in pos.orders.get(nation, ()))
            if not invaded:
                return [warning("bombard-no-invasion", order.target or "", place=order.target)]
        if order.mission == "escort":
            escorted = record(pos, nation, order.escort_of or "")
            where = order.dest or tf.zone
            if escorted is not None and where not in escorted.path:
                return [warning("escort-apart", where, tf=tf.name, other=escorted.name, zone=where,
                                path=list(escorted.path))]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: TaskForceMission) -> None:
        tf = record(ctx, nation, order.name)
        assert tf is not None
        if order.mission == "split":
            split(ctx, tf, index, order)
            return
        if order.mission == "join":
            other = record(ctx, nation, order.part or "")
            assert other is not None
            join(tf, other, index)
            return
        if order.mission == "load":
            troops = take_units(ctx, nation, order.origin or "", order.units, index)
            for uc in order.units:
                tf.aboard[uc.kind] += uc.count
            tf.troops.extend(u.id for u in troops)
            tf.plan.append((order, tuple(u.id for u in troops)))
            return
        tf.points += 1
        tf.plan.append((order, ()))
        if order.dest is not None:
            tf.path.append(order.dest)


def counts(order: TaskForceMission) -> Counter[str]:
    out: Counter[str] = Counter()
    for uc in order.units:
        out[uc.kind] += uc.count
    return out


def split(ctx: TurnContext, tf: TaskForceRecord, index: int, order: TaskForceMission) -> None:
    """The new task force takes the named ships where `tf` is, with the points they have
    spent; the troops aboard go with the transports (all of them or none: MissionRule._split).
    The ids are the plan's (lowest of each kind first, as ships are taken when a task force
    is formed), for the later orders' checks; the naval step takes the kinds and counts
    again among the ships afloat at the split (phase4_sea.split: one sunk earlier in the
    move is replaced by another of its kind)."""
    wanted = counts(order)
    ships = sorted(with_ids(ctx.state.units, set(tf.unit_ids)), key=lambda u: u.id)
    ids: list[str] = []
    for kind, n in sorted(wanted.items()):
        ids += [u.id for u in ships if u.kind == kind][:n]
    child = TaskForceRecord(tf.nation, order.part or "", index, dict(wanted), tuple(ids), [tf.zone], tf.points,
                            start=tf.start, parent=tf.name, named=tuple(sorted(wanted.items())), born=tf.points,
                            regroup=index)
    if wanted["transport"] and tf.aboard:
        child.aboard, child.landed, child.troops = tf.aboard, tf.landed, tf.troops
        tf.aboard, tf.landed, tf.troops = Counter(), Counter(), []
    tf.ships = {k: n - wanted[k] for k, n in tf.ships.items() if n - wanted[k] > 0}
    tf.unit_ids = tuple(i for i in tf.unit_ids if i not in ids)
    ctx.task_forces[(tf.nation, child.name)] = child


def join(tf: TaskForceRecord, other: TaskForceRecord, index: int) -> None:
    """`tf`'s ships, and the troops aboard, become `other`'s; `tf` is done for the turn."""
    other.ships = dict(Counter(other.ships) + Counter(tf.ships))
    other.unit_ids += tf.unit_ids
    other.aboard += tf.aboard
    other.landed += tf.landed
    other.troops += tf.troops
    tf.ships, tf.unit_ids, tf.aboard, tf.landed, tf.troops = {}, (), Counter(), Counter(), []
    tf.joined, tf.regroup = other.name, index


FORM = TaskForceRule()
MISSION = MissionRule()
RULES = (FORM, MISSION)
