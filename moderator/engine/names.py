"""Names in orders, made canonical: places on the map, nations of the scenario, straits.

Order fields declared with moderator.orders.model.ref() hold what the player typed;
canonical() replaces each with the map's or the scenario's own name before any rule
reads the order, or says which name it does not know (with "did you mean"). The order
checker and the engine both call it, so an order means the same to both.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields, replace
from typing import Any

from moderator.engine.per_map import once_per
from moderator.engine.problems import Problem, problem
from moderator.orders.model import Order
from moderator.world.model import Passage, World, fold
from moderator.world.scenario_model import Scenario

# Words a player may use for its own nation ("INFLUENCE SELF TOWARD Allies").
SELF_WORDS = frozenset({"self", "myself", "ourselves", "me", "us", "itself", "herself", "themselves"})


_INDEXES: dict[int, tuple[Scenario, dict[str, str]]] = {}


def _nation_index(scenario: Scenario) -> dict[str, str]:
    """fold(name or alias) -> nation id; cached per scenario object (scenarios are immutable)."""
    cached = _INDEXES.get(id(scenario))
    if cached is not None and cached[0] is scenario:
        return cached[1]
    index: dict[str, str] = {}
    for nid in sorted(scenario.nations):
        n = scenario.nations[nid]
        for alias in (nid, n.name, *n.aliases):
            index.setdefault(fold(alias), nid)
    if len(_INDEXES) > 32:
        _INDEXES.clear()
    _INDEXES[id(scenario)] = (scenario, index)
    return index


def nation_id(scenario: Scenario, typed: str) -> str | None:
    """The nation id for a typed name or alias, or None."""
    return _nation_index(scenario).get(fold(typed))


def nation_guesses(scenario: Scenario, typed: str) -> list[str]:
    index = _nation_index(scenario)
    keys = difflib.get_close_matches(fold(typed), list(index), n=3, cutoff=0.6)
    return sorted({scenario.nations[index[k]].name for k in keys})


def find_passage(world: World, typed: str) -> Passage | None:
    """A strait or canal that can be closed, by its name, one of its ends or controllers."""
    key = fold(typed)
    closable = [p for p in world.passages if p.controllers]
    for p in closable:
        if fold(p.name) == key:
            return p
    place = world.resolve(typed)
    for p in closable:
        if place is not None and (place in p.controllers or place in p.ends):
            return p
    for p in closable:
        if key and key in fold(p.name):
            return p
    return None


@dataclass(frozen=True)
class Unreadable(Order):
    """Stands in the order list for an order naming what the game does not know, so no
    other order's rule reads names that are not the map's (its Problem is reported)."""

    original: Order | None = None


def canonical(world: World, scenario: Scenario, nation: str, order: Order) -> Order | Problem:
    """The order with every name made canonical, or the Problem of the first unknown name.
    An order whose names are all the map's and the scenario's already (a bot's, most of a
    player's) is returned as it is: an equal copy of a frozen order says nothing more, and
    made one a turn's 150 times was most of this function's cost (issue 14)."""
    changes: dict[str, Any] = {}
    own = _own_names(world)
    for name, kind in _ref_fields(type(order)):
        value = getattr(order, name)
        if value is None or (kind == "place" and value in own and type(value) is str):
            continue  # (nothing, or the map's own name: what _one() would give back)
        if kind == "nations":
            resolved = []
            for typed in value:
                one = _one(world, scenario, nation, "nation", typed)
                if isinstance(one, Problem):
                    return one
                resolved.append(one)
            if type(value) is not tuple or tuple(resolved) != value:
                changes[name] = tuple(resolved)
        else:
            one = _one(world, scenario, nation, kind, value)
            if isinstance(one, Problem):
                return one
            if one != value or type(value) is not str:
                changes[name] = one
    return replace(order, **changes) if changes else order


_OWN_NAMES: dict[int, tuple[World, frozenset[str]]] = {}  # id of a map -> (the map, its own names)


def _own_names(world: World) -> frozenset[str]:
    """The map's names that world.resolve() gives back as they are: a place an order names
    by one of them is canonical already, known without folding the name and looking it up
    (a turn's 150 orders, most of them a bot's or a player's in the map's own words; issue
    14). Once per map, which never changes (the entry holds the map, so its id cannot be
    reused while the entry lives)."""
    return once_per(_OWN_NAMES, world, lambda world: frozenset(n for n in world.territories if world.resolve(n) == n), 32)


_REF_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def _ref_fields(cls: type[Order]) -> tuple[tuple[str, str], ...]:
    """(field name, ref kind) of the order class's fields that name places, nations or
    passages (ref() metadata), in declaration order: read once per class, not per order
    (the classes are the program's own: the table is the same for every game)."""
    found = _REF_FIELDS.get(cls)
    if found is None:
        found = _REF_FIELDS[cls] = tuple((f.name, f.metadata["ref"]) for f in fields(cls)
                                         if f.metadata.get("ref") is not None)
    return found


def _one(world: World, scenario: Scenario, nation: str, kind: str, typed: str) -> str | Problem:
    if kind == "place":
        name = world.resolve(typed)
        if name is not None:
            return name
        nid = nation_id(scenario, typed)
        if nid is not None:  # "MOVE ... TO Spain": a nation where a place belongs; name its lands
            lands = sorted(world.home_of(nid), key=lambda t: (-world.territories[t].value, t))
            return problem("nation-not-place", typed, typed=typed, nation=nid, lands=lands[:6],
                           more=max(len(lands) - 6, 0))
        return problem("unknown-territory", typed, typed=typed, guesses=world.suggest(typed))
    if kind == "nation":
        if fold(typed) in SELF_WORDS:
            return nation
        nid = nation_id(scenario, typed)
        return nid if nid is not None else problem("unknown-nation", typed, typed=typed,
                                                   guesses=nation_guesses(scenario, typed))
    passage = find_passage(world, typed)
    if passage is None:
        return problem("unknown-passage", typed, typed=typed,
                       closable=[p.name for p in world.passages if p.controllers])
    return passage.name
