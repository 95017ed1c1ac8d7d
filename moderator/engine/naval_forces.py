"""Phase 4.3: the forces of a naval battle as each nation that fought in it saw them.

The sea's sibling of engine/battle_forces.py (the land battles' "battle-forces"), on the
same rules: 3.3, "all data collected would be given to appropriate units in combat
phase" (reconnaissance "on the sea" counts the enemy's ships in the zone), and the colour
of the enemy otherwise (3.2.2.4: "0-5 is black, 6-20 is yellow, and over 21 is red").
Each participant is told ("naval-forces"):

* its own side's forces exactly, by nation (allies beside it included): every ship and
  aircraft that fought, sunk, damaged or still afloat, and the troops aboard its
  transports (4.2.1: they sink with them);
* the enemy as its side's reconnaissance record of the sea zone showed it
  (NationState.flags[KNOWN]: the exact units seen in Phase 3.3, or the colour seen);
* else the colour band of the enemy units engaged.
Reading (docs/rules-coverage.md): both sides of a naval battle stand in the zone the
record speaks of, so at sea the record serves every participant that has one (on land it
serves the attackers only: the defenders' own place is not what they looked into).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.engine.battle_forces import as_seen
from moderator.engine.context import TurnContext
from moderator.engine.state import UNIT_KINDS

if TYPE_CHECKING:
    from moderator.engine.naval_combat import NavalBattle, NavalSide

PHASE = "4.3"


def engaged(side: NavalSide) -> dict[str, dict[str, int]]:
    """nation -> kind -> units of one side that took part: those still with it (ships,
    aircraft and the troops aboard) and those it lost (the fictive ship is no unit)."""
    out: dict[str, dict[str, int]] = {}

    def add(nation: str, kind: str, n: int = 1) -> None:
        per = out.setdefault(nation, {})
        per[kind] = per.get(kind, 0) + n

    for s in side.ships:
        for u in (s.unit, *s.cargo):
            add(u.nation, u.kind)
    for nation, lost in side.losses.items():
        for kind, n in lost.items():
            add(nation, kind, n)
    return {n: dict(sorted(k.items())) for n, k in sorted(out.items())}


def tell_forces(ctx: TurnContext, battle: NavalBattle) -> None:
    """One "naval-forces" event to each nation of either side (see the module's docstring)."""
    forces = [engaged(side) for side in battle.sides]
    for index, side in enumerate(battle.sides):
        mine, theirs = forces[index], forces[1 - index]
        troops = sum(n for kinds in theirs.values() for kind, n in kinds.items() if kind in UNIT_KINDS)
        for nation in sorted({*battle.nations[index], *side.losses}):  # as naval-battle tells it
            seen, enemy, colour = as_seen(ctx, nation, battle.zone, troops)
            ctx.tell(nation, "naval-forces", PHASE, zone=battle.zone,
                     role="sought" if side.sought else "met", own=mine, seen=seen, enemy=enemy, band=colour)
