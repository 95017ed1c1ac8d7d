"""Phase 4.6: the forces of a land battle as each nation that fought in it saw them.

What a nation may know of the enemy in a battle comes from 3.3 and 3.2: "All units doing
reconaissance mission ... all data collected would be given to appropriate units in
combat phase" (3.3), the colour of the troops otherwise ("the size of the troops is
valued by the color of units (0-5 is black, 6-20 is yellow, and over 21 is red)",
3.2.2.4), and the exact size and type of the enemy engaged only by a combat intelligence
"after turn update" (3.2.1.4: the "spied-combat" event of Phase 9, which the report shows
beside this one). So each participant is told ("battle-forces"):

* its own side's forces exactly, by nation (allies fighting beside it included): every
  unit that took part, fallen, still standing, or gone (aircraft out of fuel, attackers
  withdrawn, defenders disengaged);
* the enemy as its side's reconnaissance record of the battle's place showed it
  (NationState.flags[KNOWN], passive looks and missions): the exact units it saw there, or
  the colour it saw (a miss, or the false colour of a countermeasure);
* else the colour band of the enemy troops engaged (units, not structures).
Reading (docs/rules-coverage.md): the record speaks of the place's enemy troops, so it
serves the attackers only; defenders, and both sides of a clash of two attackers not
allied, see the band of what fought them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from moderator.engine.context import TurnContext
from moderator.engine.phase3_passive_recon import KNOWN, band
from moderator.engine.state import UNIT_KINDS

if TYPE_CHECKING:
    from moderator.engine.combat_land import Battle

PHASE = "4.6"


def engaged(battle: Battle) -> dict[str, dict[str, int]]:
    """nation -> kind -> units that took part (real units only: not the city, the coastal
    defender, the fictive unit or the port's boats)."""
    out: dict[str, dict[str, int]] = {}
    for side in (battle.attack, battle.defend):
        for nation, lost in side.losses.items():
            for kind, n in lost.items():
                if kind in UNIT_KINDS or kind in ("industry", "port"):
                    out.setdefault(nation, {})[kind] = out.setdefault(nation, {}).get(kind, 0) + n
    for f in (*battle.attack.fighters, *battle.defend.fighters, *battle.departed, *battle.disengaged):
        if f.unit is not None:
            out.setdefault(f.nation, {})[f.kind] = out.setdefault(f.nation, {}).get(f.kind, 0) + 1
    return {n: dict(sorted(k.items())) for n, k in sorted(out.items())}


def sides(battle: Battle, attackers: Sequence[str], participants: Sequence[str]) -> tuple[set[str], set[str]]:
    """The two sides' nations: the attackers and the defenders, or in a clash the two
    attacking camps (battle.attack and battle.defend both attack)."""
    if battle.clash:
        first = {f.nation for f in (*battle.attack.fighters, *battle.departed)} | set(battle.attack.losses)
        return first & set(participants), set(participants) - first
    return set(attackers), set(participants) - set(attackers)


def tell_forces(ctx: TurnContext, battle: Battle, attackers: Sequence[str], participants: Sequence[str]) -> None:
    """One "battle-forces" event to each participant (see the module's docstring)."""
    forces = engaged(battle)
    first, second = sides(battle, attackers, participants)
    for nation in participants:
        own, foes = (first, second) if nation in first else (second, first)
        mine = {n: forces.get(n, {}) for n in sorted(own)}
        troops = sum(c for n in foes for k, c in forces.get(n, {}).items() if k in UNIT_KINDS)
        seen, enemy, colour = "band", {}, band(troops)
        ns = ctx.state.nations.get(nation)
        record = ns.flags.get(KNOWN, {}).get(battle.territory) if ns is not None else None
        if nation in attackers and not battle.clash and isinstance(record, dict):
            if record.get("seen") == "exact":
                seen, colour = "exact", ""
                enemy = {str(n): dict(k) for n, k in record.get("units", {}).items()}
            else:
                colour = str(record.get("band", colour))
        ctx.tell(nation, "battle-forces", PHASE, territory=battle.territory,
                 role="attacker" if nation in attackers else "defender", own=mine, seen=seen, enemy=enemy,
                 band=colour)
