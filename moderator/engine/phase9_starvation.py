"""Phase 9, Starvation Rule: the island nations' sea cordons.

"If enemies of British Empire can keep one or more submarines in every sea zone directly
surrounding Britain (except Irish Sea) for two consecutive turns, then on the second turn
the British populace will begin suffering from starvation effects. All other warships can
be also counted instead of submarines. On the first turn of starvation effect ... Britain's
manpower limit will be reduced by 3. For each and every turn thereafter in which the Isles
remain surrounded, the number of manpower reduced ... will double ... If on any turn at
least one sea zone around Britain does not contain an enemy sub or surface warship, then
the starvation effect ends and any future attempts at starving Britain must start the
process all over again." Japan likewise, with the Yellow Sea, the Sea of Japan and the
Sea of Okhotsk, 1 doubling.

The cordon and the first loss are scenario data (Nation.starvation_cordon, starvation_loss).
Checked at the end of every turn (Phase 9, after the mutiny rolls: "starvation effect won't
raise rebellion in the same turn"): a zone is held when a unit of a nation at war with the
starving one, other than a transport, is in it. NationState.flags[CORDON] counts the
consecutive turns held; on the n-th (n >= 2) the limit falls by loss * 2**(n-2), not below
0 (British Isles only: the colonies' limit is apart, Nation.colonial_manpower).

Not yet: "Other nation's territories" surrounded by land and sea so that they cannot reach
any neutral (a search over the map); the moderator applies it by ruling (SET MANPOWER).
"""

from __future__ import annotations

from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.state import SEA_UNITS

PHASE = "9"
CORDON = "cordon_turns"  # NationState.flags: consecutive turns the enemy cordon held
WARSHIPS = tuple(k for k in SEA_UNITS if k != "transport")


def zone_held(ctx: TurnContext, nation: str, zone: str) -> bool:
    return any(u.kind in WARSHIPS and ctx.at_war(u.nation, nation) for u in ctx.units_at(zone))


def loss(first: int, turns: int) -> int:
    """Manpower lost on the `turns`-th consecutive turn of the cordon: none on the first,
    `first` on the second, doubling after (3, 6, 12, 24 for Britain)."""
    return first * 2 ** (turns - 2) if turns >= 2 else 0


def starvation(ctx: TurnContext) -> None:
    for nation in sorted(ctx.state.nations):
        spec = ctx.scenario.nations.get(nation)
        if spec is None or not spec.starvation_cordon:
            continue
        ns = ctx.state.nations[nation]
        before = int(ns.flags.get(CORDON, 0))
        if not all(zone_held(ctx, nation, z) for z in spec.starvation_cordon):
            if before:
                ns.flags.pop(CORDON)
                if before >= 2:
                    ctx.emit("starvation-ended", PHASE, (nation, MODERATOR), nation=nation, turns=before)
            continue
        turns = before + 1
        ns.flags[CORDON] = turns
        lost = min(loss(spec.starvation_loss, turns), ns.manpower_limit)
        if turns >= 2:
            ns.manpower_limit -= lost
            ctx.emit("starvation", PHASE, (nation, MODERATOR), nation=nation, turns=turns, lost=lost,
                     manpower=ns.manpower_limit)
