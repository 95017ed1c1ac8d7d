"""Phase 4.3: the forces of a naval battle as each nation that fought in it saw them.

The sea's sibling of engine/battle_forces.py (the land battles' "battle-forces"). Each
participant is told ("naval-forces"):

* its own side's forces exactly, by nation (allies beside it included): every ship and
  aircraft that fought, sunk, damaged or still afloat, and the troops aboard its
  transports (4.2.1: they sink with them);
* the enemy as the colour band of the units it fought (3.2.2.4: "the size of the troops is
  valued by the color of units (0-5 is black, 6-20 is yellow, and over 21 is red)").
Reading (docs/rules-coverage.md): on land the attackers' reconnaissance record of the place
shows the enemy (3.3: "all data collected would be given to appropriate units in combat
phase"), since the defenders stood there when it was made. At sea the record is of the zone
in Phase 3, before the task forces move (4.2): the fleet met there is mostly not the one
seen, so the record would tell a player less than the battle itself ("black" for an empty
zone the enemy sailed into). Every participant sees the band of what it fought; the exact
size of an enemy fleet is never given, as no espionage reaches the sea (3.2.1.4 is of a
"target province").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.engine.context import TurnContext
from moderator.engine.phase3_passive_recon import band
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
            ctx.tell(nation, "naval-forces", PHASE, zone=battle.zone,
                     role="sought" if side.sought else "met", own=mine, band=band(troops))
