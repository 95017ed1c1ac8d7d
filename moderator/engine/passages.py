"""Straits and canals that ships may be refused (The Map's notes; Phase 1.4; Straits).

The sea gates of the map (maps/1914/passages.csv, kinds "sea-gate" and "canal") join two
sea zones; a task force moving between them passes if one gate between them is open to
its nation:

* Denmark: "Whichever nation controls Denmark may allow or disallow naval movement between
  the Baltic Sea and Skagerrak sea zone areas. If Denmark remains neutral, then no nations
  may send naval vessels between these two sea zones."
* Hamburg: "Whichever nation controls this territory at the start of any turn may use the
  canal to allow travel between the two sea zones." (The control a task force meets in
  step 4.2 is the start of the turn's: captures come in step 4.4.) Reading: its allies pass
  with it (Cooperation).
* Gibraltar: the holder "may allow or disallow any surface naval movement"; the General
  note concerning some straits: Suez, the Bosporus-Dardanelles and Panama "all naval
  movement", Sumatra-Java and the Philippines "all surface movement". Where the rules say
  surface movement, submarines pass a closed gate.
* Phase 1.4: "any nation holding (or controling) some of above mentioned straits or canals
  may issue declaration of their closing for designated nation(s) passage": CLOSE (and
  OPEN) record the closing in the declarer's flags (CLOSED), and it stands while the
  declarer holds one of the passage's controlling territories. Reading: a closing "to every
  nation" never bars the declarer or its allies.
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.engine.context import Position
from moderator.world.model import Passage

CLOSED = "closed_passages"  # NationState.flags: passage name -> nations barred ([] = every nation)
GATES = frozenset({"sea-gate", "canal"})
DANISH, KIEL = "Danish straits", "Kiel Canal"


def gates_between(pos: Position, a: str, b: str) -> list[Passage]:
    return [p for p in pos.world.passages if p.kind in GATES and set(p.ends) == {a, b}]


def closed_by(pos: Position, nation: str, passage: Passage) -> str | None:
    """The holder whose standing closing bars `nation` from the passage, or None."""
    for holder in sorted({h for t in passage.controllers if (h := pos.controller(t))}):
        barred = pos.nation(holder).flags.get(CLOSED, {}).get(passage.name)
        if barred is None or holder == nation or pos.allies(holder, nation):
            continue
        if not barred or nation in barred:
            return holder
    return None


def surface_only(passage: Passage) -> bool:
    """Does the gate close to surface ships only? The map's note says so (passages.csv:
    "surface naval movement", "surface movement only")."""
    return "surface" in passage.note.lower()


def is_open(pos: Position, nation: str, passage: Passage, surface: bool) -> bool:
    """May `nation`'s ships (surface ships among them or not) go through the passage?"""
    if not surface and surface_only(passage):
        return True
    holders = {h for t in passage.controllers if (h := pos.controller(t))}
    if passage.name == DANISH and not any(h == nation or pos.nation(h).side != "neutral" for h in holders):
        return False  # "If Denmark remains neutral, then no nations may send naval vessels"
    if passage.kind == "canal" and passage.name == KIEL and not any(h == nation or pos.allies(h, nation)
                                                                   for h in holders):
        return False  # only "Whichever nation controls this territory" uses the canal
    return closed_by(pos, nation, passage) is None


def barred(pos: Position, nation: str, a: str, b: str, kinds: Iterable[str]) -> Passage | None:
    """The passage that stops `nation`'s ships of `kinds` moving from a to b, or None (no
    gate between them, or one of the gates is open to them)."""
    gates = gates_between(pos, a, b)
    surface = any(k != "submarine" for k in kinds)
    if not gates or any(is_open(pos, nation, p, surface) for p in gates):
        return None
    return gates[0]
