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

"Other nation's territories ... if they are completely surrounded by enemy forces (land
and naval) so they cannot reach, directly of via allies, any of neutral nation in the world
(Russia can do that even by using northern pass via Norwegian Sea). In such case starvation
is counted as in Japan case" (1, doubling). Reading: a nation at war without a cordon of its
own starves when no territory it holds reaches a neutral nation's land through land held by
it or its allies without enemy units and sea zones without enemy warships
(NationState.flags[ENCIRCLED] counts the turns).

Nations without a manpower limit of their own (Manpower limits; `manpower.pool`): the
manpower starvation takes is the limit the nation's infantry count against, so a starving
Bolshevik Russia lowers Russia's limit ("any infantry built by either faction will count
against Russia's total manpower limit"), and the starving nation and the pool's owner are
both told. A nation whose pool has no manpower at all (the Mutineers: a limit of 0, all
their infantry at double cost) has nothing starvation could take: its cordon is not
counted and nothing is told (a limit cannot fall below 0).
"""

from __future__ import annotations

from moderator.engine import manpower
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.state import SEA_UNITS

PHASE = "9"
CORDON = "cordon_turns"  # NationState.flags: consecutive turns the enemy cordon held
ENCIRCLED = "encircled_turns"  # NationState.flags: consecutive turns it reached no neutral
ENCIRCLED_LOSS = 1  # "starvation is counted as in Japan case"
WARSHIPS = tuple(k for k in SEA_UNITS if k != "transport")


def zone_held(ctx: TurnContext, nation: str, zone: str) -> bool:
    return any(u.kind in WARSHIPS and ctx.at_war(u.nation, nation) for u in ctx.units_at(zone))


def loss(first: int, turns: int) -> int:
    """Manpower lost on the `turns`-th consecutive turn of the cordon: none on the first,
    `first` on the second, doubling after (3, 6, 12, 24 for Britain)."""
    return first * 2 ** (turns - 2) if turns >= 2 else 0


def reaches_a_neutral(ctx: TurnContext, nation: str) -> bool:
    """Whether any land the nation holds reaches a neutral nation's land (see the docstring)."""
    friends = {nation} | {n for n in ctx.state.nations if ctx.state.allies(nation, n)}
    held = sorted(t for t, h in ctx.state.control.items() if h == nation)

    def hostile(place: str) -> bool:
        return any(ctx.at_war(u.nation, nation) and (u.kind in WARSHIPS or not ctx.is_sea(place))
                   and u.kind != "transport" for u in ctx.units_at(place))

    def neutral(place: str) -> bool:
        h = ctx.controller(place)
        return (h is not None and h not in friends and not ctx.at_war(h, nation)
                and ctx.state.nations[h].side == "neutral") if h in ctx.state.nations else False

    seen, queue = set(held), list(held)
    while queue:
        here = queue.pop()
        for nb in sorted(ctx.world.neighbours(here)):
            if nb in seen:
                continue
            if not ctx.is_sea(nb) and neutral(nb):
                return True
            passable = (not hostile(nb)) and (ctx.is_sea(nb) or ctx.controller(nb) in friends)
            if passable:
                seen.add(nb)
                queue.append(nb)
    return False


def encirclement(ctx: TurnContext) -> None:
    """Every other nation at war: encircled land starves as Japan does (1, doubling)."""
    for nation in sorted(ctx.state.nations):
        spec = ctx.scenario.nations.get(nation)
        ns = ctx.state.nations[nation]
        if spec is None or spec.starvation_cordon or not ns.at_war_with:
            continue
        if not any(h == nation for h in ctx.state.control.values()) or not has_manpower(ctx, nation):
            continue
        count(ctx, nation, ENCIRCLED, ENCIRCLED_LOSS, held=not reaches_a_neutral(ctx, nation))


def has_manpower(ctx: TurnContext, nation: str) -> bool:
    """Whether the limit the nation's infantry count against has any manpower to lose."""
    owner = manpower.pool(ctx, nation)
    return owner in ctx.state.nations and ctx.state.nations[owner].manpower_limit > 0


def count(ctx: TurnContext, nation: str, key: str, first: int, held: bool) -> None:
    """One more turn of a cordon (held) or its end, and the manpower it costs (from the
    limit the nation's infantry count against)."""
    ns = ctx.state.nations[nation]
    owner = manpower.pool(ctx, nation)
    told = tuple(dict.fromkeys((nation, owner, MODERATOR)))
    before = int(ns.flags.get(key, 0))
    if not held:
        if before:
            ns.flags.pop(key)
            if before >= 2:
                ctx.emit("starvation-ended", PHASE, told, nation=nation, turns=before)
        return
    turns = before + 1
    ns.flags[key] = turns
    if turns >= 2:
        pool = ctx.state.nations[owner]
        lost = min(loss(first, turns), pool.manpower_limit)
        pool.manpower_limit -= lost
        ctx.emit("starvation", PHASE, told, nation=nation, turns=turns, lost=lost, manpower=pool.manpower_limit,
                 pool=owner if owner != nation else None)


def starvation(ctx: TurnContext) -> None:
    encirclement(ctx)
    for nation in sorted(ctx.state.nations):
        spec = ctx.scenario.nations.get(nation)
        if spec is None or not spec.starvation_cordon:
            continue
        count(ctx, nation, CORDON, spec.starvation_loss,
              held=all(zone_held(ctx, nation, z) for z in spec.starvation_cordon))
