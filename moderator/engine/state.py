"""The game state between turns: who owns what, where every unit stands, treasuries.

A GameState is plain data with a canonical JSON form (sorted keys, sorted lists), so
the same state always serialises to the same bytes; the store keeps one snapshot per
turn and replays compare those bytes.
"""

from __future__ import annotations

import copy
import itertools
import json
import marshal
import pickle
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from operator import attrgetter, eq, is_, itemgetter, not_
from types import MappingProxyType
from typing import Any

# Unit kinds, as the rules name them ("Units"). Order words map onto these ids.
LAND_UNITS = ("infantry", "artillery", "tank", "aa", "rocket")
AIR_UNITS = ("fighter", "bomber")
SEA_UNITS = ("battleship", "cruiser", "transport", "carrier", "submarine")
STRUCTURES = ("trench", "super_trench", "industry", "port", "radar", "sonar")
UNIT_KINDS = LAND_UNITS + AIR_UNITS + SEA_UNITS


def kinds(units: Iterable[Unit]) -> dict[str, int]:
    """How many units of each kind, sorted by kind: the units mapping events carry."""
    out: dict[str, int] = {}
    for u in units:
        out[u.kind] = out.get(u.kind, 0) + 1
    return dict(sorted(out.items()))


@dataclass(init=False)
class Unit:
    """One unit on the map. Ids are stable across turns and sort deterministically."""

    id: str  # e.g. "germany-infantry-0007"
    nation: str
    kind: str  # one of UNIT_KINDS
    location: str  # canonical territory or sea-zone name
    damage: int = 0  # hits taken (battleships and carriers survive one or more)

    def __init__(self, id: str, nation: str, kind: str, location: str, damage: int = 0) -> None:  # noqa: A002
        # One mark that the units changed (a new unit may replace a removed one in a list of
        # the same length), not one per field through __setattr__: a tenth of a copy().
        global _MOVED
        _MOVED = next(_TICKS)
        self.__dict__.update(id=id, nation=nation, kind=kind, location=location, damage=damage)

    def __setattr__(self, name: str, value: Any) -> None:
        # A unit that changes place (the engine moves units by assignment, everywhere)
        # makes every GameState's index of units by place stale: see GameState.units_at.
        # The move is written in the log of moves first, so an index that only moves have
        # made stale follows them rather than be built again (_Index.follow).
        global _MOVED, _LOG
        if name == "location":
            base, log = _LOG
            if len(log) >= LOG_LIMIT:
                base, log = _LOG = (base + len(log), [])  # those indexes older than this are built again
            log.append((self, self.__dict__.get("location")))
            object.__setattr__(self, name, value)
            _MOVED = next(_TICKS)
            return
        object.__setattr__(self, name, value)
        if name == "id":  # (never done by the engine) an index's units by id would be wrong: built again
            _MOVED = next(_TICKS)


def stand_in(id: str, nation: str, kind: str, location: str) -> Unit:  # noqa: A002
    """A unit that goes into no state's list (a battle's stand-in for a complex printed on
    the map), made without Unit()'s mark that the units changed, which would have every
    index of units by place built again over the whole map (issue 14, the engine's cost).
    Should it ever be appended to a list, that list's index sees it longer and is built
    again (_Index.holds_for)."""
    twin = object.__new__(Unit)
    object.__setattr__(twin, "__dict__", {"id": id, "nation": nation, "kind": kind, "location": location,
                                          "damage": 0})
    return twin


def _unit_copy(unit: Unit) -> Unit:
    """A copy of `unit` for a new state's list, its fields copied at once (a third of what
    Unit() costs; the checker copies some 700 for every mail). No mark that units changed:
    the copy goes into a new list, which no index of units by place was built from."""
    twin = object.__new__(Unit)
    object.__setattr__(twin, "__dict__", unit.__dict__.copy())  # the fields are plain values: a shallow copy
    return twin


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _deep_copy(value: Any, memo: dict[int, Any]) -> Any:
    """copy.deepcopy(value, memo) for the plain data of NationState.flags (dicts, lists,
    strings, numbers), written out for those: the flags grow with the game (each nation's
    reconnaissance record, its ledgers), and deepcopy's general machinery was two thirds
    of a state's copy by turn four (issue 14). The same result as deepcopy: new dicts and
    lists, one copy of a container met twice (the memo), anything else to deepcopy itself
    (with the same memo)."""
    cls = type(value)
    if cls in _SCALARS:
        return value
    if cls is dict or cls is list:
        twin = memo.get(id(value))
        if twin is not None:
            return twin
        if cls is dict:
            twin = memo[id(value)] = {}
            for k, v in value.items():
                twin[k if type(k) in _SCALARS else copy.deepcopy(k, memo)] = _deep_copy(v, memo)
        else:
            twin = memo[id(value)] = []
            twin.extend(_deep_copy(v, memo) for v in value)
        return twin
    return copy.deepcopy(value, memo)


BIG_FLAG = 16  # entries of a flag's dict or list from which the nation's flags are copied by pickle


def _flags_copy(flags: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of one nation's flags (_deep_copy's result: one memo for the nation).
    The flags are plain data (dicts, lists, strings, numbers), which marshal carries at C
    speed and exactly (each value of its own built-in type; a container met twice is one
    in the copy too, as deepcopy's memo makes it): a round trip through it is a third less
    than through pickle, and a half less than _deep_copy's call per entry, on the flags of
    turn eight (the reconnaissance record: a sighting for each of some 50 places by turn
    six), where they were most of a state's copy (issue 14). marshal refuses anything
    else (a class of the program's own, a subclass of dict): those flags are copied by
    pickle, when they hold a record, or _deep_copy (a pickle costs a few entries)."""
    try:
        return marshal.loads(marshal.dumps(flags))  # type: ignore[no-any-return]
    except ValueError:  # "unmarshallable object": not plain data
        pass
    if any(type(v) in (dict, list) and len(v) >= BIG_FLAG for v in flags.values()):
        try:
            return pickle.loads(pickle.dumps(flags, pickle.HIGHEST_PROTOCOL))  # type: ignore[no-any-return]
        except (pickle.PicklingError, TypeError, AttributeError):
            pass
    return _deep_copy(flags, {})  # type: ignore[no-any-return]


class SharedUnitChanged(RuntimeError):
    """A unit shared by the read-only copies of a position (GameState.share_units) was about
    to change: the walk that changes it needs a copy of its own (engine/check.py does it
    again on one). Nothing was changed."""


class _SharedUnit(Unit):
    """A unit of a position kept to be read only (GameState.share_units), shared by every
    copy made of it with sharing_copy() instead of copied for each. It refuses any change,
    so no copy can change what the others see; a copy of it (copy, deepcopy, pickle) is a
    plain Unit again, and it compares and prints as one."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise SharedUnitChanged(f"{self.__dict__.get('id')}.{name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Unit):
            return NotImplemented
        return self.__dict__ == other.__dict__ if type(other) is _SharedUnit else _fields(self) == _fields(other)

    __hash__ = None  # type: ignore[assignment]  # as Unit's (a dataclass with eq)

    def __repr__(self) -> str:
        return Unit.__repr__(_unit_copy(self))

    def __copy__(self) -> Unit:
        return _unit_copy(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Unit:
        return _unit_copy(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Unit, _fields(self))


_COUNT_KEY = attrgetter("nation", "location", "kind")  # a unit's key in counts_by_place


def _fields(unit: Unit) -> tuple[str, str, str, str, int]:
    return (unit.id, unit.nation, unit.kind, unit.location, unit.damage)


# Each unit's change of place takes a fresh number from _TICKS into _MOVED; an index built
# when _MOVED was v is valid while _MOVED is still v (each number is written once, so a
# later change never writes v back, whatever the threads do).
_TICKS = itertools.count(1)
_MOVED = 0
# The moves, in order: (unit, the place it left), numbered from the base; one pair rebound at
# once (a reader takes both or neither). Kept to LOG_LIMIT, then started again from there.
LOG_LIMIT = 100_000
_LOG: tuple[int, list[tuple[Unit, str | None]]] = (0, [])


def _log_end() -> int:
    base, log = _LOG
    return base + len(log)


class _Index:
    """A GameState's units by place, each place's in the order of the state's list, with
    what it was built from: the list (the same object, of the same length) and the mark
    and log position of the moves at the time (see GameState.units_at). It also knows
    each unit's rank (its place in the list's order, by identity), the ranks in the list's
    order (`order`, rising: a unit's position in the list is found by bisection) and, once
    asked, the units by id: what remove_units and units_with_ids read instead of passing
    over every unit of the map (issue 14, the engine's cost)."""

    __slots__ = ("units", "length", "stamp", "logged", "places", "rank", "next_rank", "order", "ids")

    def __init__(self, units: list[Unit]) -> None:
        self.stamp, self.logged = _MOVED, _log_end()  # read first: a change during the build makes it stale
        self.units, self.length = units, len(units)
        self.places: dict[str, list[Unit]] = {}
        self.rank: dict[int, int] = dict(zip(map(id, units), range(len(units)), strict=True))  # id() of a unit -> its rank
        self.order: list[int] = list(range(len(units)))  # the ranks of the list's units, in its order
        self.ids: dict[str, Unit] | None = None  # unit id -> unit, made when first asked (by_id)
        places = self.places
        for u in units:
            here = places.get(u.location)
            if here is None:
                places[u.location] = [u]
            else:
                here.append(u)
        self.next_rank = len(units)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Index:
        # The ranks are by identity: a copy's units are other objects, so it is built anew.
        return _Index(copy.deepcopy(self.units, memo))

    def copy_for(self, units: list[Unit]) -> _Index:
        """This index of read-only units (GameState.share_units) for `units`, a list of the
        same objects in the same order (GameState._shared_index): the places' lists and the
        ranks copied, not built again over every unit of the map. Those units cannot have
        moved, so the copy holds now; from now on it follows the moves as any index does."""
        twin = _Index.__new__(_Index)
        twin.stamp, twin.logged = _MOVED, _log_end()  # read first, as in __init__
        twin.units, twin.length, twin.next_rank = units, len(units), self.next_rank
        twin.places = dict(zip(self.places, map(list, self.places.values()), strict=True))  # the copy's own lists
        twin.rank = self.rank.copy()  # by identity: the same objects
        twin.order = self.order.copy()
        twin.ids = None if self.ids is None else self.ids.copy()
        return twin

    def holds_for(self, units: list[Unit]) -> bool:
        return self.units is units and self.length == len(units)

    def by_id(self) -> dict[str, Unit] | None:
        """The list's units by id, made once and kept up by add() and cut(); None if two of
        its units share an id (a state no engine step makes: then whoever asks passes over
        the list, as before the index knew ids)."""
        if self.ids is None:
            self.ids = dict(zip(map(_unit_id, self.units), self.units, strict=True))
        return self.ids if len(self.ids) == self.length else None

    def add(self, unit: Unit) -> None:
        """A unit appended to the list (GameState.new_unit): the last of its place."""
        self.places.setdefault(unit.location, []).append(unit)
        self.rank[id(unit)] = self.next_rank
        self.order.append(self.next_rank)
        self.next_rank += 1
        if self.ids is not None:
            self.ids.setdefault(unit.id, unit)  # (an id met twice leaves ids one short: by_id says None)
        self.length += 1

    def cut(self, ids: set[str]) -> list[Unit] | None:
        """The list less the units whose id is in `ids`, as a new list the index now holds
        for: each unit found by id, its position by bisection of the ranks, the list joined
        from the slices between (at C speed), and only the places of the units gone filtered.
        None if it cannot tell (ids shared, a rank out of step): nothing changed then."""
        by_id = self.by_id()
        if by_id is None:
            return None
        units, order, rank, places = self.units, self.order, self.rank, self.places
        gone = [u for i in ids if (u := by_id.get(i)) is not None]
        at = []
        for u in gone:
            p = bisect_left(order, rank.get(id(u), -1))
            here = places.get(u.location)
            if p >= len(units) or units[p] is not u or not here or not any(map(is_, here, itertools.repeat(u))):
                return None
            at.append(p)
        at.sort()
        kept: list[Unit] = []
        ranks: list[int] = []
        start = 0
        for p in at:
            kept += units[start:p]
            ranks += order[start:p]
            start = p + 1
        kept += units[start:]
        ranks += order[start:]
        for u in gone:  # a new list for each place: a by_place() reader keeps the one it has
            places[u.location] = [x for x in places[u.location] if x is not u]
            del by_id[u.id], rank[id(u)]
        self.units, self.length, self.order = kept, len(kept), ranks
        return kept

    def follow(self) -> bool:
        """Bring the index up to date when only moves of units made it stale (every mark
        since it was built is a move in the log); False if something else happened (a unit
        created, the log started again): then it must be built again. A unit moved is
        taken from the place it left and put into the one it stands in at its rank; the
        moves of other states' units are not in this index and are passed by: the ranks are
        those of the list's units only (add() and cut() keep them so), and two units alive
        are never of the same id()."""
        base, log = _LOG
        marks, moves = _MOVED - self.stamp, base + len(log) - self.logged
        if self.logged < base or marks != moves:
            return False
        places, rank = self.places, self.rank

        def rank_of(u: Unit) -> int:
            return rank[id(u)]

        for unit, left in log[self.logged - base:]:
            if left is None or id(unit) not in rank:
                continue
            here = places.get(left)
            if not here:
                continue  # (not where the log says it was: nothing to follow)
            # The place's list is in rank order: the unit found by bisection and the list
            # joined around it (new, as a filter of it made it), not a Python step per unit
            # of the place (some forty moves a turn, into and out of crowded places; issue 14).
            at = bisect_left(here, rank[id(unit)], key=rank_of)
            if at < len(here) and here[at] is unit:
                places[left] = here[:at] + here[at + 1:]
            else:  # (never met: a list out of rank order is looked through)
                kept = [u for u in here if u is not unit]
                if len(kept) == len(here):
                    continue
                places[left] = kept
            there = places.setdefault(unit.location, [])
            there.insert(bisect_right(there, rank[id(unit)], key=rank_of), unit)  # keeps the list's order
        self.stamp, self.logged = _MOVED, base + len(log)
        return _MOVED == self.stamp and _log_end() == self.logged


def _same_objects(a: list[Unit], b: list[Unit]) -> bool:
    """Whether two lists hold the same objects in the same order (by identity, at C speed)."""
    return len(a) == len(b) and all(map(is_, a, b))


_unit_id = attrgetter("id")
_nation = attrgetter("nation")
_side = attrgetter("side")


def ids_of(units: Iterable[Unit]) -> set[str]:
    """The ids of these units, gathered at C speed (a step's "who is still alive" over the map)."""
    return set(map(_unit_id, units))


def by_id(units: Iterable[Unit]) -> dict[str, Unit]:
    """Unit by id (the last of an id, as a dict display would keep), at C speed."""
    units = list(units)
    return dict(zip(map(_unit_id, units), units, strict=True))


def with_ids(units: Iterable[Unit], ids: Container[str]) -> list[Unit]:
    """Those of `units` whose id is in `ids`, in their order, found at C speed (map,
    compress): asked of the whole map by steps that want a few units (issue 14)."""
    units = list(units)
    return list(itertools.compress(units, map(ids.__contains__, map(_unit_id, units))))


def _without(units: list[Unit], ids: set[str]) -> list[Unit]:
    """A new list of `units` less those whose id is in `ids`, in the same order. Each land
    battle takes a few units off a board of some 700: the test of every id runs at C speed
    (map, compress), not a Python step per unit of the map (issue 14, the engine's cost)."""
    return list(itertools.compress(units, map(not_, map(ids.__contains__, map(_unit_id, units)))))


_CONTROL_MARKS = itertools.count(1)


class Control(dict[str, str]):
    """GameState.control: who holds each land territory, a dict that takes a fresh mark
    at every change. An answer derived from who holds what (the separated treasuries'
    groups, asked a hundred times a turn) keeps the map it was made on with its mark, and
    sees at once that the map is the same object with the same mark, where comparing
    every entry cost more than the answer (issue 14, the engine's cost). Marks are never
    reused; a copy (copy.copy, pickling) starts at mark 0 and is another object."""

    mark = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mark = next(_CONTROL_MARKS)

    def _changed(self) -> None:
        self.mark = next(_CONTROL_MARKS)

    def __setitem__(self, key: str, value: str) -> None:
        super().__setitem__(key, value)
        self._changed()

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._changed()

    def __ior__(self, other: Any) -> Control:  # type: ignore[override,misc]
        super().__ior__(other)
        self._changed()
        return self

    def pop(self, *args: Any) -> Any:
        self._changed()
        return super().pop(*args)

    def popitem(self) -> tuple[str, str]:
        self._changed()
        return super().popitem()

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._changed()
        return super().setdefault(key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self._changed()

    def clear(self) -> None:
        super().clear()
        self._changed()


_PLACE_OF, _HOLDER_OF = itemgetter(0), itemgetter(1)  # of a (territory, holder) item of a control map


def holdings(control: Mapping[str, str]) -> Mapping[str, frozenset[str]]:
    """Each holder's territories in `control`, the holders in sorted order: read only.

    Phase 8 asks twice of the same map (the nations' incomes, phase8_income.full_incomes,
    and the separated treasuries' search, treasuries._search), each a sort and a set per
    holder of every territory of the map; a Control keeps the answer with its mark, so the
    second is found at once and a change of the map (a fresh mark) has it made again."""
    kept = control.__dict__.get("_holdings") if isinstance(control, Control) else None
    if kept is not None and kept[0] == control.mark:  # type: ignore[attr-defined]
        return kept[1]  # type: ignore[no-any-return]
    found = MappingProxyType({h: frozenset(map(_PLACE_OF, held))
                              for h, held in itertools.groupby(sorted(control.items(), key=_HOLDER_OF), _HOLDER_OF)})
    if isinstance(control, Control):
        control.__dict__["_holdings"] = (control.mark, found)  # (not a field: a copy of the state makes its own)
    return found


def same_control(control: dict[str, str], seen: dict[str, str], mark: int) -> bool:
    """Whether `control` is the map an answer was made on. The answer kept either that
    map itself with its mark then (a Control, `mark` >= 0), or a copy (`mark` -1). The
    same Control with the same mark is the same map, known at once; a Control changed
    since no longer tells what the map was, so the answer is not known to hold."""
    if mark < 0:
        return seen == control
    if not isinstance(seen, Control) or seen.mark != mark:
        return False
    return seen is control or seen == control


@dataclass
class NationState:
    id: str
    saved: int = 0  # saved resources (the treasury)
    manpower_limit: int = 0
    infantry_built: int = 0  # counts against the manpower limit (Manpower limits)
    tech: dict[str, int] = field(default_factory=dict)  # technology -> level reached
    at_war_with: list[str] = field(default_factory=list)  # sorted nation ids
    side: str = "neutral"  # "central", "allied", or "neutral"
    standing: int = 0  # neutrals' diplomatic standing: -10 (CP camp) .. +10 (AP camp)
    income_rule: str = "full"  # scenario income rule while neutral (see scenario)
    flags: dict[str, Any] = field(default_factory=dict)  # special-rule bookkeeping


@dataclass
class GameState:
    game: str
    scenario: str
    turn: int  # the turn about to be played, 1-based
    nations: dict[str, NationState] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=Control)  # land territory -> controlling nation (a Control)
    incorporated: dict[str, int] = field(default_factory=dict)  # territory -> turn incorporated
    units: list[Unit] = field(default_factory=list)
    next_unit: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.control, Control):
            self.control = Control(self.control)

    # ---- queries -------------------------------------------------------------
    def controller(self, territory: str) -> str | None:
        return self.control.get(territory)

    def units_at(self, location: str, nation: str | None = None) -> list[Unit]:
        """The units at `location` (of `nation`), in the order of `units`. Asked hundreds of
        times a turn, so the units are indexed by place (_Index). The index follows the
        units' moves (the log Unit.__setattr__ writes), the units new_unit adds and those
        remove_units takes away; it is built again when the list is another or longer or
        shorter by other means, or a Unit was made elsewhere (it may have gone into this
        list). It was built some eighteen times a turn, over every unit of the map; two now."""
        # _fresh_index()'s first test written out: a thousand asks a turn, most of them
        # with nothing moved since the last (three calls were most of the cost of an ask)
        index: _Index | None = self.__dict__.get("_index")
        if index is not None and index.stamp == _MOVED and index.units is self.units \
                and index.length == len(self.units):
            here = index.places.get(location, ())
        else:
            here = self._by_place().get(location, ())
        if nation is None:
            return list(here)
        # the nation's, picked at C speed (a comprehension cost a Python step per unit there)
        return list(itertools.compress(here, map(eq, itertools.repeat(nation), map(_nation, here))))

    def _fresh_index(self) -> _Index | None:
        """The index of units by place if it still holds (see units_at), following the
        moves since it was built; None if it must be built again."""
        index: _Index | None = self.__dict__.get("_index")
        if index is None or not index.holds_for(self.units):
            return None
        if index.stamp == _MOVED or index.follow():
            return index
        return None

    def _by_place(self) -> dict[str, list[Unit]]:
        index = self._fresh_index()
        if index is None:
            index = self.__dict__["_index"] = self._shared_index() or _Index(self.units)  # not a field: never serialised
        return index.places

    def _shared_index(self) -> _Index | None:
        """For a sharing_copy() whose units are still exactly those it shares, a copy of an
        index of the original's units built once; else None. Those units are read only
        (share_units): they cannot move, so that index holds whatever units elsewhere did
        since (every new Unit() anywhere would have had an index of its own followed or built
        again). The checker asks for the index in most order mails' checks (a MOVE's enemies
        at its target), and building it is a pass over some 700 units (issue 11, CPU per mail)."""
        source: GameState | None = self.__dict__.get("_shares_with")
        if source is None or not _same_objects(source.units, self.units):
            return None
        kept: tuple[list[Unit], _Index] | None = source.__dict__.get("_index_of_shared")
        if kept is None or not _same_objects(kept[0], source.units):
            if not source.units_shared:
                return None
            kept = source.__dict__["_index_of_shared"] = (list(source.units), _Index(source.units))
        return kept[1].copy_for(self.units)

    def by_place(self) -> Mapping[str, Sequence[Unit]]:
        """Every unit by place, each place's in the order of `units` (a place may be there
        with no units): the index units_at reads, for a step that reads the whole map at
        once without moving anything (phase3_passive_recon). Read only, and only until the
        next unit moves, is made or goes: the index follows those in place."""
        return self._by_place()

    def nation_units(self, nation: str) -> list[Unit]:
        return [u for u in self.units if u.nation == nation]

    def at_war(self, a: str, b: str) -> bool:
        na = self.nations.get(a)
        return bool(na and b in na.at_war_with)

    def allies(self, a: str, b: str) -> bool:
        """Same non-neutral side (Cooperation: allies share territory and attacks)."""
        if a == b:
            return True
        na, nb = self.nations.get(a), self.nations.get(b)
        return bool(na and nb and na.side != "neutral" and na.side == nb.side)

    def allies_of(self, a: str) -> set[str]:
        """Every b with allies(a, b), `a` among them: the same rule, asked once for all."""
        na = self.nations.get(a)
        if na is None or na.side == "neutral":
            return {a}
        nations = self.nations  # the nations of its side, found at C speed: asked per search (issue 14)
        return {a, *itertools.compress(nations, map(eq, itertools.repeat(na.side), map(_side, nations.values())))}

    # ---- changes (used by the engine on its own copy) -------------------------
    def new_unit(self, nation: str, kind: str, location: str) -> Unit:
        index = self._fresh_index()
        u = Unit(f"{nation}-{kind}-{self.next_unit:05d}", nation, kind, location)
        self.next_unit += 1
        self.units.append(u)
        if index is not None and _log_end() == index.logged:  # kept up: the new unit is the last of its place
            index.add(u)
            index.stamp = _MOVED
        return u

    def remove_units(self, gone: Iterable[Unit]) -> None:
        """Take these units (by id) off the board: a new list, as the engine always made it
        (who holds the old list, as a battle's, keeps it whole). The index of units by place
        is kept up rather than built again over every unit of the map (some ten removals a
        turn each cost a rebuild), and it finds the units by id and joins the new list from
        the slices between them (_Index.cut), where testing the id of every unit of the map
        was a tenth of the engine's own bookkeeping (issue 14, the engine's cost). If it
        cannot tell (an index out of step, ids shared), the list is filtered by id and the
        index dropped, to be built again when next asked."""
        ids = {u.id for u in gone}
        if not ids:
            return  # nothing goes: the list and its index stay
        index = self._fresh_index()
        if index is not None:
            kept = index.cut(ids)
            if kept is not None:
                self.units = kept
                return
        self.units = _without(self.units, ids)
        self.__dict__.pop("_index", None)

    def units_by_id(self) -> dict[str, Unit]:
        """by_id(self.units), a new dict, copied from the index's units by id at C speed
        (the alive units a step looks its units up in: issue 14, the engine's cost)."""
        self._by_place()  # the index, fresh
        found = self.__dict__["_index"].by_id()
        return by_id(self.units) if found is None else dict(found)

    def units_with_ids(self, ids: Iterable[str]) -> list[Unit]:
        """The units whose id is in `ids`, in the order of `units`: with_ids(self.units, ids)
        found from the index's units by id, where a task force's dozen ships were looked
        for among every unit of the map (issue 14, the engine's cost)."""
        self._by_place()  # the index, fresh
        index: _Index = self.__dict__["_index"]
        by_id = index.by_id()
        if by_id is None:
            return with_ids(self.units, set(ids))
        found = [u for i in set(ids) if (u := by_id.get(i)) is not None]
        rank = index.rank
        found.sort(key=lambda u: rank[id(u)])
        return found

    def copy(self) -> GameState:
        """A deep copy, written out: the checker copies the position for every mail, and
        copy.deepcopy of 700 units is ten times slower (make bench). Each unit as
        _unit_copy() makes it, written out in the loop: a call less per unit is a fifth of
        the copy, which every turn's resolve() makes (issue 14)."""
        units: list[Unit] = []
        add, new, fields = units.append, object.__new__, object.__setattr__
        for u in self.units:
            twin = new(Unit)
            fields(twin, "__dict__", u.__dict__.copy())
            add(twin)
        return GameState(self.game, self.scenario, self.turn, self._nations_copy(), Control(self.control),
                         dict(self.incorporated), units, self.next_unit)

    def _nations_copy(self) -> dict[str, NationState]:
        return {k: NationState(n.id, n.saved, n.manpower_limit, n.infantry_built, dict(n.tech),
                               list(n.at_war_with), n.side, n.standing, n.income_rule,
                               _flags_copy(n.flags) if n.flags else {})
                for k, n in self.nations.items()}

    def share_units(self) -> None:
        """Make this state's units read only, to be shared by its sharing_copy()s: for a
        position that is only read and copied, as the one a burst of order mails is checked
        on (Service.checking_position). A change to one of them raises SharedUnitChanged
        before anything is changed."""
        for u in self.units:
            if type(u) is Unit:
                object.__setattr__(u, "__class__", _SharedUnit)

    @property
    def units_shared(self) -> bool:
        """Whether every unit is read only (share_units), so sharing_copy() can share them."""
        return {*map(type, self.units)} == {_SharedUnit}  # (every unit's class at C speed: asked every mail)

    def sharing_copy(self) -> GameState:
        """copy(), but the units (read only: share_units) are the same objects in a list of
        the copy's own: a walk that adds and removes units but changes none, as the checking
        of most orders, needs no copy of each (some 700, a third of an order mail's check).
        A walk that changes a unit gets SharedUnitChanged and must start again on copy()."""
        twin = GameState(self.game, self.scenario, self.turn, self._nations_copy(), Control(self.control),
                         dict(self.incorporated), list(self.units), self.next_unit)
        twin.__dict__["_shares_with"] = self  # (not a field: never serialised) counts_by_place, _shared_index
        return twin

    def counts_by_place(self) -> Mapping[tuple[str, str, str], int]:
        """How many units each nation has of each kind at each place, by (nation, place, kind):
        what Position.start holds, read only. A sharing_copy() whose units are still the ones
        it shares reads its original's count, taken once (those units cannot change; the
        checker asks for every mail, a pass over some 700 units)."""
        source: GameState | None = self.__dict__.get("_shares_with")
        if source is None or source.units != self.units:  # (the same objects: compared at C speed)
            return Counter(map(_COUNT_KEY, self.units))
        kept = source.__dict__.get("_counts_by_place")
        if kept is None or kept[0] != source.units:
            kept = source.__dict__["_counts_by_place"] = (list(source.units), Counter(map(_COUNT_KEY, source.units)))
        return kept[1]  # type: ignore[no-any-return]

    # ---- canonical serialisation ---------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["units"] = sorted(data["units"], key=lambda u: u["id"])
        for n in data["nations"].values():
            n["at_war_with"] = sorted(n["at_war_with"])
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True, indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        return cls(
            game=data["game"],
            scenario=data["scenario"],
            turn=data["turn"],
            nations={k: NationState(**v) for k, v in data["nations"].items()},
            control=dict(data["control"]),
            incorporated=dict(data.get("incorporated", {})),
            units=[Unit(**u) for u in data["units"]],
            next_unit=data.get("next_unit", 1),
        )

    @classmethod
    def loads(cls, text: str) -> GameState:
        return cls.from_json(json.loads(text))
