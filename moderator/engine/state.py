"""The game state between turns: who owns what, where every unit stands, treasuries.

A GameState is plain data with a canonical JSON form (sorted keys, sorted lists), so
the same state always serialises to the same bytes; the store keeps one snapshot per
turn and replays compare those bytes.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
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
        if name == "location":
            global _MOVED
            _MOVED = next(_TICKS)
        object.__setattr__(self, name, value)


def _unit_copy(unit: Unit) -> Unit:
    """A copy of `unit` for a new state's list, its fields copied at once (a third of what
    Unit() costs; the checker copies some 700 for every mail). No mark that units changed:
    the copy goes into a new list, which no index of units by place was built from."""
    twin = object.__new__(Unit)
    object.__setattr__(twin, "__dict__", unit.__dict__.copy())  # the fields are plain values: a shallow copy
    return twin


# Each unit's change of place takes a fresh number from _TICKS into _MOVED; an index built
# when _MOVED was v is valid while _MOVED is still v (each number is written once, so a
# later change never writes v back, whatever the threads do).
_TICKS = itertools.count(1)
_MOVED = 0


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
    control: dict[str, str] = field(default_factory=dict)  # land territory -> controlling nation
    incorporated: dict[str, int] = field(default_factory=dict)  # territory -> turn incorporated
    units: list[Unit] = field(default_factory=list)
    next_unit: int = 1

    # ---- queries -------------------------------------------------------------
    def controller(self, territory: str) -> str | None:
        return self.control.get(territory)

    def units_at(self, location: str, nation: str | None = None) -> list[Unit]:
        """The units at `location` (of `nation`), in the order of `units`. Asked hundreds of
        times a turn, so the units are indexed by place, the index rebuilt when a unit has
        changed place (Unit.__setattr__) or the list is another or longer or shorter."""
        here = self._by_place().get(location, ())
        return [u for u in here if nation is None or u.nation == nation]

    def _by_place(self) -> dict[str, list[Unit]]:
        index: tuple[list[Unit], int, int, dict[str, list[Unit]]] | None = self.__dict__.get("_index")
        if index is not None and index[0] is self.units and index[1] == len(self.units) and index[2] == _MOVED:
            return index[3]
        stamp = _MOVED  # read before building: a change during the build makes the index stale
        places: dict[str, list[Unit]] = {}
        for u in self.units:
            here = places.get(u.location)
            if here is None:
                places[u.location] = [u]
            else:
                here.append(u)
        self.__dict__["_index"] = (self.units, len(self.units), stamp, places)  # not a field: never serialised
        return places

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
        return {a} | {b for b, nb in self.nations.items() if nb.side == na.side}

    # ---- changes (used by the engine on its own copy) -------------------------
    def new_unit(self, nation: str, kind: str, location: str) -> Unit:
        u = Unit(f"{nation}-{kind}-{self.next_unit:05d}", nation, kind, location)
        self.next_unit += 1
        self.units.append(u)
        return u

    def copy(self) -> GameState:
        """A deep copy, written out: the checker copies the position for every mail, and
        copy.deepcopy of 700 units is ten times slower (make bench)."""
        nations = {k: NationState(n.id, n.saved, n.manpower_limit, n.infantry_built, dict(n.tech),
                                  list(n.at_war_with), n.side, n.standing, n.income_rule,
                                  copy.deepcopy(n.flags) if n.flags else {})
                   for k, n in self.nations.items()}
        units = [_unit_copy(u) for u in self.units]
        return GameState(self.game, self.scenario, self.turn, nations, dict(self.control),
                         dict(self.incorporated), units, self.next_unit)

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
