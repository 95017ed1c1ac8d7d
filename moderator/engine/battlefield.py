"""What each nation has met on the battlefield (Phase 2.1, Research of technology).

"Nations that meet advanced weaponry on the battlefield at the hands of the enemy can use
that experience to obtain such technology for themselves, thus they can spend only 9
resources to research that technology." Met: an enemy unit fought it in a battle, land
(air combat over it included) or naval, with that level of a technology that changes its
kind -- the levels the unit itself fights with (technology.unit_levels: researched but
not upgraded is not on the battlefield). Remembered for the rest of the game, the
highest level of each technology (NationState.flags[MET]); combat_land.setup and
naval_combat.fight call `fought` with both sides' units as the battle begins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from moderator.engine import technology
from moderator.engine.context import Position, TurnContext
from moderator.engine.state import Unit

MET = "met_in_battle"  # NationState.flags: technology -> the highest level met in enemy hands
_NONE: Mapping[str, object] = {}


def met(pos: Position, nation: str, tech: str) -> int:
    """The highest level of `tech` the nation has met on the battlefield (0: none)."""
    return int(pos.nation(nation).flags.get(MET, {}).get(tech, 0))


def meet(ctx: TurnContext, nation: str, enemies: Iterable[Unit]) -> None:
    ns = ctx.state.nations.get(nation)
    if ns is None:
        return
    known = {str(t): int(v) for t, v in ns.flags.get(MET, {}).items()}
    # A unit fights with its own recorded levels, else with its nation's fielded levels of
    # its kind (technology.unit_levels): the same for every such unit, so they are met once
    # per nation and kind, not once per unit of the battle (issue 14, the engine's cost)
    built: dict[str, Mapping[str, object]] = {}  # nation -> its units' own recorded levels
    done: set[tuple[str, str]] = set()  # nations and kinds whose fielded levels are met
    for u in enemies:
        own = built.get(u.nation)
        if own is None:
            own = built[u.nation] = ctx.nation(u.nation).flags.get(technology.BUILT_AT, _NONE)
        if u.id in own:
            levels = technology.of_kind(ctx, u.kind, technology.unit_levels(ctx, u))
        elif (u.nation, u.kind) in done:
            continue
        else:
            done.add((u.nation, u.kind))
            levels = technology.of_kind(ctx, u.kind, technology.fielded(ctx, u.nation, u.kind))
        for tech, level in levels.items():
            if level > known.get(tech, 0):
                known[tech] = level
    if known:
        ns.flags[MET] = dict(sorted(known.items()))


def fought(ctx: TurnContext, one: Iterable[Unit], other: Iterable[Unit]) -> None:
    """Both sides of a battle meet each other's weaponry (each nation its enemies')."""
    a, b = list(one), list(other)
    for mine, theirs in ((a, b), (b, a)):
        them = {u.nation for u in theirs}
        for nation in sorted({u.nation for u in mine}):
            war = {n for n in them if ctx.at_war(nation, n)}  # (asked once a nation, not once a unit)
            meet(ctx, nation, [u for u in theirs if u.nation in war])
