"""Phase 9, Starvation Rule: the island nations' sea cordons, and every nation's shut-in land.

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

"Similar to Japan and British isles, all territories can suffer from starvation effect, if
they are completely surrounded by enemy forces (land and naval) so they cannot reach,
directly of via allies, any of neutral nation in the world (Russia can do that even by
using northern pass via Norwegian Sea). In such case starvation is counted as in Japan case
- on first turn of starvation effect (the second consecutive turn with completely closed
circle around territory(ies)) regarded manpower limit will be reduced by 1 ... If on any
turn at least one sea zone or territory around target territory don't prevent reaching to
any neutral in the world, then starvation effect ends".

Reading (chosen, docs/rules-coverage.md): per territory, not per nation. A territory a
nation at war holds is shut in when no path leads from it to a neutral nation's land
through land held by it or its allies without enemy units and sea zones without enemy
warships (`pockets`). Territories shut in together (on one such path network: the
"territory(ies)" of one closed circle) are one pocket: it starves as one, 1 the first
turn (its second shut in), doubling after, whatever else the nation still reaches; two
pockets of one nation starve apart. NationState.flags[POCKETS] keeps each shut-in
territory's consecutive turns; a pocket's count is one more than the longest of its
territories' (land taken into a starving pocket starves with it). A territory that is
reached again (or lost) leaves the count; a pocket that had starved is told it ended.
The island nations' own cordon covers their home islands (Nation.starvation_land, a map
group: the British Isles, the Japanese home islands), which the general rule leaves out.
"Regarded manpower limit", "territory's manpower limit": a pocket all of colonies starves
the colonies' limit of a nation that has one (engine/manpower.py), any other the home one.

Nations without a manpower limit of their own (Manpower limits; `manpower.pool`): the
manpower starvation takes is the limit the nation's infantry count against, so a starving
Bolshevik Russia lowers Russia's limit ("any infantry built by either faction will count
against Russia's total manpower limit"), and the starving nation and the pool's owner are
both told. A nation whose pool has no manpower at all (the Mutineers: a limit of 0, all
their infantry at double cost) has nothing starvation could take: its cordon is not
counted and nothing is told (a limit cannot fall below 0).
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from itertools import compress, repeat
from operator import attrgetter, contains, eq

from moderator.engine import manpower
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.state import SEA_UNITS
from moderator.world.model import SEA

PHASE = "9"
CORDON = "cordon_turns"  # NationState.flags: consecutive turns the enemy cordon held
POCKETS = "encircled_land"  # NationState.flags: {territory shut in: its consecutive turns}
OLD_COUNT = "encircled_turns"  # the per-nation count this replaced (VERSION 13): read once, then dropped
ENCIRCLED_LOSS = 1  # "starvation is counted as in Japan case"
WARSHIPS = tuple(k for k in SEA_UNITS if k != "transport")
_AT_WAR_WITH = attrgetter("at_war_with")
_NOBODY: frozenset[str] = frozenset()  # pockets(): the nations barring the way where no unit stands


def zone_held(ctx: TurnContext, nation: str, zone: str) -> bool:
    return any(u.kind in WARSHIPS and ctx.at_war(u.nation, nation) for u in ctx.units_at(zone))


def loss(first: int, turns: int) -> int:
    """Manpower lost on the `turns`-th consecutive turn of the cordon: none on the first,
    `first` on the second, doubling after (3, 6, 12, 24 for Britain)."""
    return first * 2 ** (turns - 2) if turns >= 2 else 0


OUT, THROUGH, WALL = 0, 1, 2  # pockets(): what a step into a place meets
LEADS_OUT = 3  # pockets(): a place to go on through, already known to lead to a way out


Ways = dict[str, int]  # pockets(): place -> what a step into it meets (OUT, THROUGH, WALL, LEADS_OUT)


def pockets(ctx: TurnContext, nation: str, armed: dict[str, AbstractSet[str]] | None = None,
            shared: dict[tuple[frozenset[str], frozenset[str]], Ways] | None = None) -> list[list[str]]:
    """The nation's land shut in from every neutral, in pockets (see the docstring): each
    pocket sorted, the pockets by their first territory. Its island home under a cordon
    of its own (Nation.starvation_land) is in no pocket, though paths lead through it.
    `armed`: place -> the nations with a unit there that bars the way (no transport; at
    sea, a warship), filled as places are asked; the nations of one step share it, as
    nothing moves while their pockets are sought. `shared`: (friends, enemies) -> what a
    step into each place asked meets, for a nation with those friends and enemies (all
    that way() reads of the nation), shared alike: the nations of a camp at war with the
    same nations (most of them, once the war has spread) ask the same places the same."""
    armed = {} if armed is None else armed
    nations = ctx.state.nations
    friends = ctx.state.allies_of(nation)  # the nation and its allies
    # read once (each place asks of every unit there): at_war(n, nation) of every n, without its calls
    enemies = set(compress(nations, map(contains, map(_AT_WAR_WITH, nations.values()), repeat(nation))))
    spec = ctx.scenario.nations.get(nation)
    isles = set(ctx.world.groups.get(spec.starvation_land, ())) if spec and spec.starvation_land else set()
    control = ctx.state.control
    held = sorted(compress(control, map(eq, repeat(nation), control.values())))  # its land, in C's loop (asked per nation)
    places = ctx.world.territories
    by_place = ctx.state.by_place()  # units_at of every place, without its calls: nothing moves here

    def way(place: str) -> int:
        """What a step into `place` meets: a neutral's land (the way out), a place to go on
        through (the sea or friends' land without the enemy), or a wall."""
        sea = places[place].kind == SEA
        if not sea:
            h = control.get(place)
            if h not in friends:
                if h in nations and h not in enemies and nations[h].side == "neutral":  # a holder at war with it is its enemy
                    return OUT
                return WALL  # no one's, a stranger's or the enemy's land (whoever stands in it)
        # the sea or friends' land: a wall where the enemy stands
        there = armed.get(place)
        if there is None:
            here = by_place.get(place)  # at sea a warship bars the way, on land any unit but a transport
            there = armed[place] = (_NOBODY if not here  # most seas asked: no unit to look over (issue 14)
                                    else {u.nation for u in here if u.kind in WARSHIPS} if sea
                                    else {u.nation for u in here if u.kind != "transport"})
        return THROUGH if there.isdisjoint(enemies) else WALL

    # nothing moves while the pockets are sought: each place is asked once
    ways: Ways = {} if shared is None else shared.setdefault((frozenset(friends), frozenset(enemies)), {})

    out: list[list[str]] = []
    done: set[str] = set()
    neighbours = ctx.world.sorted_neighbours
    for start in held:
        if start in done:
            continue
        seen, queue, free = {start}, [start], False
        while queue and not free:
            for nb in neighbours(queue.pop()):
                if nb in seen:
                    continue
                found = ways.get(nb)
                if found is None:
                    found = ways[nb] = way(nb)
                if found == THROUGH:
                    seen.add(nb)
                    queue.append(nb)
                elif found != WALL:  # OUT or LEADS_OUT
                    free = True
                    break
        # A search that got out from a start one may go on through joined every place it
        # passed to a way out: a later search (of this nation or of one sharing `ways`) that
        # steps into one of them gets out too, and stops there (issue 14: the searches of a
        # nation's land went over the same seas again). Only a search that is shut in needs
        # all it reaches, and it never steps into such a place. From a start one may not go
        # on through (an enemy in it), the places passed may lead out only through it: kept as they are.
        if free and len(seen) == 1:
            continue  # out at the first step: nothing passed to mark, and the start is asked once
        if free:
            if (here := ways.get(start)) is None:
                here = ways[start] = way(start)
            if here == THROUGH or here == LEADS_OUT:
                ways.update(dict.fromkeys(seen, LEADS_OUT))
        mine = list(compress(seen, map(eq, map(control.get, seen), repeat(nation))))  # its own land, in C's loop
        done.update(mine)
        if not free and (shut := set(mine) - isles):
            out.append(sorted(shut))
    return out


def reaches_a_neutral(ctx: TurnContext, nation: str) -> bool:
    """Whether none of the nation's land (outside its cordoned home islands) is shut in."""
    return not pockets(ctx, nation)


def encirclement(ctx: TurnContext) -> None:
    """Every nation at war: each pocket of shut-in land starves as Japan does (1, doubling)."""
    armed: dict[str, AbstractSet[str]] = {}  # pockets(): shared by the nations, as nothing moves here
    ways: dict[tuple[frozenset[str], frozenset[str]], Ways] = {}  # pockets(): shared alike
    for nation in sorted(ctx.state.nations):
        ns = ctx.state.nations[nation]
        old = ns.flags.pop(OLD_COUNT, 0)
        if nation not in ctx.scenario.nations or not ns.at_war_with or not has_manpower(ctx, nation):
            ns.flags.pop(POCKETS, None)
            continue
        before: dict[str, int] = dict(ns.flags.pop(POCKETS, {}))
        now: dict[str, int] = {}
        for pocket in pockets(ctx, nation, armed, ways):
            turns = 1 + max([before.get(t, int(old)) for t in pocket])
            now.update(dict.fromkeys(pocket, turns))
            if turns >= 2:
                starve(ctx, nation, loss(ENCIRCLED_LOSS, turns), turns, land=pocket)
        if now:
            ns.flags[POCKETS] = now
        freed = sorted(t for t, n in before.items() if n >= 2 and t not in now and ctx.controller(t) == nation)
        if freed:
            ctx.emit("starvation-ended", PHASE, told(ctx, nation), nation=nation,
                     turns=max(before[t] for t in freed), land=freed)


def told(ctx: TurnContext, nation: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys((nation, manpower.pool(ctx, nation), MODERATOR)))


def has_manpower(ctx: TurnContext, nation: str) -> bool:
    """Whether the limits the nation's infantry count against (home, colonies') have any
    manpower to lose."""
    owner = manpower.pool(ctx, nation)
    ns = ctx.state.nations.get(owner)
    return ns is not None and (manpower.limit(ns, False) > 0 or manpower.limit(ns, True) > 0)


def count(ctx: TurnContext, nation: str, key: str, first: int, held: bool) -> None:
    """One more turn of an island cordon (held) or its end, and the manpower it costs."""
    ns = ctx.state.nations[nation]
    before = int(ns.flags.get(key, 0))
    if not held:
        if before:
            ns.flags.pop(key)
            if before >= 2:
                ctx.emit("starvation-ended", PHASE, told(ctx, nation), nation=nation, turns=before, land=None)
        return
    turns = before + 1
    ns.flags[key] = turns
    if turns >= 2:
        starve(ctx, nation, loss(first, turns), turns)


def starve(ctx: TurnContext, nation: str, lost: int, turns: int, land: list[str] | None = None) -> None:
    """The manpower starvation takes, from the limit the nation's infantry count against
    (`land`: the shut-in pocket that starves; None: the island home under its cordon). A
    pocket of colonies only starves the colonies' limit of a nation that has one ("the
    regarded manpower limit", "territory's manpower limit"; engine/manpower.py)."""
    owner = manpower.pool(ctx, nation)
    pool = ctx.state.nations[owner]
    colonies = bool(land) and all(manpower.colonial(ctx, nation, t) for t in land or ())
    lost = manpower.lower(pool, colonies, lost)
    ctx.emit("starvation", PHASE, told(ctx, nation), nation=nation, turns=turns, lost=lost,
             manpower=manpower.limit(pool, colonies), pool=owner if owner != nation else None, land=land,
             colonies=colonies or None)


def starvation(ctx: TurnContext) -> None:
    encirclement(ctx)
    for nation in sorted(ctx.state.nations):
        spec = ctx.scenario.nations.get(nation)
        if spec is None or not spec.starvation_cordon:
            continue
        count(ctx, nation, CORDON, spec.starvation_loss,
              held=all(zone_held(ctx, nation, z) for z in spec.starvation_cordon))
