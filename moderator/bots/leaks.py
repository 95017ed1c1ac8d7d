"""What a report may hold, checked from the outside: the soak's leak check (issue 14).

The reports are built from visibility views (reports/visibility.py), so nothing outside a
view should reach a mail. This module does not trust that: it reads the report.json a
seat received and holds every part of it to the turn's stored events and the position,
with the rules' own audiences ("Miscellaneous": a player receives the positions of its
units and its resources; an alliance the common status and positions of all members'
units; everyone the common news; Phase 3.3: units see into the places next to them):

* every event told (actions, battles, rulings, news, an alliance's events) is one of the
  turn's events whose audience (seen_by) is everyone or includes a reader;
* a bulletin tells public events only;
* a sheet is a reader's own (a nation's report: its own; an alliance's: its members');
* a stack is the reader's own units where they stand, and its unit list (`units`: ids,
  kinds, places, damage, trench facings) is exactly the reader's own units;
* a bulletin's camps and wars are the position's, of the nations on the map (public news:
  declarations, joins, peace), and nothing else;
* the map (`control`, who holds each land) is the position's public one;
* a sighting looks into a place a unit of the readers' side stands in or next to, or one
  an event of their side named (espionage's combat intelligence, a RECON mission) (3.3:
  "Reconaissance value is calculated for all allied units": a nation's report shows what
  its allies' units see too), and shows exact units only where an event the readers saw
  (reconnaissance, espionage) named the place.

A finding names the seat, the turn and what leaked; the simulation lists them with the
mail problems (Summary.delivery), so a leak fails the soak.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from moderator.engine.context import MODERATOR
from moderator.engine.state import SEA_UNITS, GameState
from moderator.reports.content import MODERATOR_ONLY_ARGS, SIDE_NAMES
from moderator.world.model import World

Event = Mapping[str, Any]  # a stored event: code, phase, seen_by, args


def _key(code: str, phase: str, args: Mapping[str, Any]) -> str:
    told = {k: v for k, v in args.items() if k not in MODERATOR_ONLY_ARGS}
    return json.dumps([code, phase, told], sort_keys=True, default=str)


def visible(events: Iterable[Event], readers: Sequence[str]) -> Counter[str]:
    """The events (as report keys) anyone of `readers` may see, with how many there are."""
    out: Counter[str] = Counter()
    for e in events:
        seen_by = e.get("seen_by") or []
        if not seen_by or set(seen_by) & set(readers):
            out[_key(e["code"], e["phase"], e.get("args", {}))] += 1
    return out


def _told(data: Mapping[str, Any], parts: Sequence[str]) -> list[Mapping[str, Any]]:
    return [t for part in parts for t in data.get(part) or []]


def looked_into(state: GameState, world: World, readers: Sequence[str]) -> set[str]:
    """Places the readers' units stand in or next to (what units may look into, 3.3): as
    the engine's passive reconnaissance has it, units on land and ships at sea look next
    door (ships at the coast), aircraft at sea only into their own zone."""
    out: set[str] = set()
    for u in state.units:
        if u.nation in readers:
            out.add(u.location)
            terr = world.territories.get(u.location)
            if terr is not None and (terr.is_land or u.kind in SEA_UNITS):
                out.update(world.neighbours(u.location))
    return out


def report_leaks(data: Mapping[str, Any], readers: Sequence[str], names: Mapping[str, str],
                 events: Sequence[Event], state: GameState, world: World,
                 watchers: Sequence[str] | None = None) -> list[str]:
    """What report.json `data`, read by `readers` (a nation, or an alliance's members),
    shows that they may not see. `names`: nation id -> the name reports use; `state`:
    the position the report describes (after the turn); `watchers`: the nations whose
    units' sightings the readers share (their side; default the readers)."""
    kind = data.get("kind")
    out: list[str] = []
    allowed = visible(events, () if kind == "bulletin" else readers)
    parts = {"nation": ("actions", "battles", "rulings", "news"), "alliance": ("battles", "events", "rulings"),
             "bulletin": ("news",)}.get(str(kind), ())
    for t in _told(data, parts):
        key = _key(t["code"], t["phase"], t.get("args") or {})
        if allowed[key] <= 0:
            out.append(f"an event its readers did not see: {t['code']} ({t.get('text', '')!r})")
        allowed[key] -= 1
    own_names = {names.get(n, n) for n in readers}
    sheets = [data["sheet"]] if kind == "nation" and data.get("sheet") else list(data.get("sheets") or [])
    for sh in sheets:
        if sh.get("nation") not in readers:
            out.append(f"the sheet of {sh.get('nation')}")
    if kind == "nation":
        mine: dict[str, Counter[str]] = {}
        for u in state.units:
            if u.nation in readers:
                mine.setdefault(u.location, Counter())[u.kind] += 1
        for stack in data.get("stacks") or []:
            if Counter(stack.get("units") or {}) != mine.get(stack.get("place"), Counter()):
                out.append(f"a stack that is not its own units: {stack.get('place')} {stack.get('units')}")
        if "units" in data:
            out += _unit_list_leaks(data["units"], readers, state)
    if kind == "bulletin":
        out += _public_news_leaks(data, names, state)
    public = {t: names.get(n, n) for t, n in state.control.items()}
    for t, holder in sorted((data.get("control") or {}).items()):
        if public.get(t) != holder:  # the public map is the position's: anything else is not public
            out.append(f"a map that is not the public one: {t} held by {holder}, the position has {public.get(t)}")
    places = looked_into(state, world, watchers or readers)
    shared = set(watchers or readers)  # 3.3: the side's reconnaissance and espionage are shared
    named = {str(e.get("args", {}).get(k)) for e in events
             if not e.get("seen_by") or set(e.get("seen_by") or ()) & shared
             for k in ("place", "territory", "dest", "target") if k in e.get("args", {})}
    for s in data.get("sightings") or []:
        if s.get("place") not in places and s.get("place") not in named:  # espionage, RECON: anywhere named
            out.append(f"a sighting of {s.get('place')}, where no unit of {', '.join(sorted(own_names))} "
                       "or its allies looks")
        elif s.get("units") and s.get("place") not in named:
            out.append(f"the exact units at {s.get('place')}, which no reconnaissance of its readers saw")
    return out


def _unit_list_leaks(listed: Sequence[Mapping[str, Any]], readers: Sequence[str], state: GameState) -> list[str]:
    """A nation report's unit list against the readers' own units, one by one (id, kind,
    place, damage, the land a trench faces): anything else is not its own."""
    def facing(nation: str) -> Mapping[str, Any]:
        f = state.nations[nation].flags.get("trench_facing") if nation in state.nations else None
        return f if isinstance(f, dict) else {}

    truth = Counter((u.id, u.kind, u.location, u.damage, str(facing(u.nation).get(u.id) or ""))
                    for u in state.units if u.nation in readers)
    told = Counter((str(u.get("id")), str(u.get("kind")), str(u.get("place")), int(u.get("damage") or 0),
                    str(u.get("facing") or "")) for u in listed)
    return [f"a unit that is not its own as it stands: {unit}" for unit in sorted(told - truth)] + \
        [f"its own unit left out or told otherwise: {unit}" for unit in sorted(truth - told)]


def _public_news_leaks(data: Mapping[str, Any], names: Mapping[str, str], state: GameState) -> list[str]:
    """A bulletin's camps and wars against the position's, of the nations on the map (held
    land or units: reports/visibility.py _sides): public news, and nothing more."""
    present = set(state.control.values()) | {u.nation for u in state.units}
    camps: dict[str, list[str]] = {}
    wars: dict[str, list[str]] = {}
    for n in sorted(present & set(state.nations) - {MODERATOR}):
        ns = state.nations[n]
        camps.setdefault(SIDE_NAMES.get(ns.side, ns.side), []).append(names.get(n, n))
        if ns.at_war_with:
            wars[names.get(n, n)] = sorted(names.get(f, f) for f in ns.at_war_with)
    out = []
    if "camps" in data and {k: sorted(v) for k, v in (data.get("camps") or {}).items()} != \
            {k: sorted(v) for k, v in camps.items()}:
        out.append(f"camps that are not the public ones: {data.get('camps')}")
    if "wars" in data and dict(data.get("wars") or {}) != wars:
        out.append(f"wars that are not the public ones: {data.get('wars')}")
    return out
