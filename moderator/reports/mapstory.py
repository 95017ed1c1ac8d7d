"""The turn's story on a map: moves as arrows, battles and captures as markers.

Drawn only from the events an audience's view holds (reports/visibility.py filters them by
seen_by), so a map never shows a move, battle or capture its reader may not know of: a
nation's map has its own moves and the battles it fought, an alliance's its members', the
public map the captures (public news).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from matplotlib import patheffects

from moderator.engine.events import Event

MOVE, RAIL, ATTACK, BATTLE, CAPTURE = "move", "rail", "attack", "battle", "capture"
SAIL = "sail"  # a task force's course at sea (4.2), one mark a leg
PATROL, BLOCKADE = "patrol", "blockade"  # a task force's last task (4.2.5, 4.2.6), at the zone it ended in
ARROW_EDGE = "#222222"
BATTLE_COLOUR = "#d7191c"
BATTLE_GLYPH, CAPTURE_GLYPH = "\u2694", "\u2691"  # crossed swords, a flag (DejaVu Sans has both)
# A bullseye for a patrol (it seeks the enemy), a barred circle for a blockade (it bars the
# zone): written after the zone's name in the task force's colour.
MISSION_GLYPHS = {PATROL: "\u25ce", BLOCKADE: "\u2298"}
AT_SEA = ("naval-battle", "air-combat-at-sea")  # the fights marked at their sea zone


@dataclass(frozen=True, order=True)
class Mark:
    kind: str  # MOVE, RAIL, ATTACK, SAIL (arrows origin -> dest), BATTLE, CAPTURE, PATROL, BLOCKADE (at dest)
    nation: str  # whose move, attack or task force; the new holder of a capture; "" for a battle
    origin: str  # "" for a marker
    dest: str


def marks(events: Iterable[Event]) -> list[Mark]:
    """The marks of a turn's events, sorted (the drawing is the same whatever their order).
    An event short of a field a mark needs gives no mark: the map never fails a report."""
    out: set[Mark] = set()
    for e in events:
        a = e.args
        if e.code == "moved" and _has(a, "nation", "origin", "dest"):
            out.add(Mark(MOVE, a["nation"], a["origin"], a["dest"]))
        elif e.code in ("strategic-arrived", "strategic-cut-short") and _has(a, "nation", "origin", "end"):
            if a["end"] != a["origin"]:
                out.add(Mark(RAIL, a["nation"], a["origin"], a["end"]))
        elif e.code == "battle" and _has(a, "territory"):
            out.add(Mark(BATTLE, "", "", a["territory"]))
            for origin in a.get("origins") or ():
                if isinstance(origin, str) and origin != a["territory"] and isinstance(a.get("attacker"), str):
                    out.add(Mark(ATTACK, a["attacker"], origin, a["territory"]))
        elif e.code in AT_SEA and _has(a, "zone"):  # a fight at sea is a battle too (4.3)
            out.add(Mark(BATTLE, "", "", a["zone"]))
        elif e.code == "air-raid" and _has(a, "target"):  # a bombing raid, fought over its target (4.1.1)
            out.add(Mark(BATTLE, "", "", a["target"]))
        elif e.code == "task-force" and _has(a, "nation") and isinstance(a.get("path"), list):
            path = [p for p in a["path"] if isinstance(p, str)]
            for here, there in zip(path, path[1:], strict=False):
                if here != there:
                    out.add(Mark(SAIL, a["nation"], here, there))
            # Its mission where it ended: a patrol or blockade that never left its zone
            # draws no arrow, and is still the news of the sea (4.2.5, 4.2.6).
            if path and a.get("mission") in MISSION_GLYPHS and a.get("ships"):
                out.add(Mark(str(a["mission"]), a["nation"], "", path[-1]))
        elif e.code == "captured" and _has(a, "territory", "holder"):
            out.add(Mark(CAPTURE, a["holder"], "", a["territory"]))
    return sorted(out)


def _has(args: Mapping[str, object], *keys: str) -> bool:
    return all(isinstance(args.get(k), str) for k in keys)


def key(found: Sequence[Mark]) -> list[str]:
    """Lines for the map's notes box, for the kinds of marks this map has."""
    kinds = {m.kind for m in found}
    words = []
    if kinds & {MOVE, ATTACK}:
        words.append("\u2192 move or attack")
    if RAIL in kinds:
        words.append("\u21e2 by rail")
    if SAIL in kinds:
        words.append("\u00b7\u00b7\u2192 task force at sea")
    if BATTLE in kinds:
        words.append(f"{BATTLE_GLYPH} battle")
    if CAPTURE in kinds:
        words.append(f"{CAPTURE_GLYPH} captured")
    if PATROL in kinds:
        words.append(f"{MISSION_GLYPHS[PATROL]} task force on patrol")
    if BLOCKADE in kinds:
        words.append(f"{MISSION_GLYPHS[BLOCKADE]} blockade")
    rows = [", ".join(words[i:i + 3]) for i in range(0, len(words), 3)]  # short lines: a narrow box
    return ["This turn: " + rows[0], *("   " + r for r in rows[1:])] if rows else []


def draw(ax: object, found: Sequence[Mark], at: Mapping[str, tuple[float, float]],
         colors: Mapping[str, str]) -> None:
    """Arrows between label points (`at`: place -> data coordinates), in the mover's colour
    edged dark, dashed by rail, dotted and straight for a task force's legs at sea (one
    arrow a leg, so its course shows zone by zone); one whose place is not on this map is
    left out (the report's text tells it). Battles and captures are marked on the place's
    name (glyphs)."""
    for m in found:
        if m.kind not in (MOVE, RAIL, ATTACK, SAIL) or m.origin not in at or m.dest not in at:
            continue
        colour = colors.get(m.nation, "#555555")
        ax.annotate(  # type: ignore[attr-defined]
            "", xy=at[m.dest], xytext=at[m.origin], zorder=5.4,
            arrowprops={"arrowstyle": "-|>,head_length=0.8,head_width=0.45", "color": colour,
                        "linewidth": 4.5 if m.kind == ATTACK else 3.0 if m.kind == SAIL else 3.5,
                        "shrinkA": 6, "shrinkB": 9,
                        "linestyle": (0, (4, 2)) if m.kind == RAIL else (0, (1, 1.5)) if m.kind == SAIL else "solid",
                        "connectionstyle": "arc3,rad=0.12",
                        "path_effects": [patheffects.withStroke(linewidth=6.5 if m.kind == ATTACK else 5.5,
                                                                foreground=ARROW_EDGE)]},
        )


def glyphs(found: Sequence[Mark]) -> dict[str, str]:
    """Place -> the marks written before its name: a battle's crossed swords, a capture's flag."""
    out: dict[str, str] = {}
    for m in found:
        if m.kind in (BATTLE, CAPTURE):
            glyph = BATTLE_GLYPH if m.kind == BATTLE else CAPTURE_GLYPH
            if glyph not in out.get(m.dest, ""):
                out[m.dest] = (out.get(m.dest, "") + glyph) if m.kind == CAPTURE else glyph + out.get(m.dest, "")
    return out


def missions(found: Sequence[Mark]) -> dict[str, list[tuple[str, str]]]:
    """Zone -> (glyph, nation) of each patrol and blockade ending there, written after the
    zone's name in the nation's colour (one nation's patrol beside another's blockade)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for m in found:
        if m.kind in MISSION_GLYPHS:
            out.setdefault(m.dest, []).append((MISSION_GLYPHS[m.kind], m.nation))
    return out
