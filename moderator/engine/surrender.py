"""Surrender (Phase 1.3 and "Surrender:"): the offer, the vote, the terms, the tribute.

"At the end of any turn, any nation may offer to conditionally surrender to enemy
nations. The surrender does not have to be accepted, but if any nation declines, it may
influence the entry of a Neutral Major Power ... The nation that offered the surrender
remains at war with any nations that do not accept the surrender.
If the nation is in main war and offers surrender to the nations of the opposite side,
then if the majority of the opposite side accepts surrender (default) they cease fighting
and surrender is considered accepted to ALL nations of the opposite side. If the majority
of the opposite side declines then they ALL continue fighting. In both cases, all
declining nations are counted to see how it would influence the entry of a Major Neutral
Powers. For this game purpose, all resource income points are considered to be one vote".

The terms: "The surrendering nation and all nations that accept the surrender are no
longer at war. If the surrendering nation has control of territories originally held by
the nation(s) accepting the surrender, all of those territories revert back to their
original owner's control. Any units owned by the surrendering nation wihin those
territories are moved to the nearest territory still under the surrendering nation's
control. ... The victorious nation(s) cannot declare war on the surrendering nation on
any future turn. The surrendering nation must give 1/4 of the remaining resources it
collects every turn to the victorious nation(s) (rounded up). This giving of resources
(war tribute) continues until such a time that the surrendering nation is again at war
with the victorious nation(s) or two full years have passed (12 turns) since the
surrender. The surrendering nation may declare war upon the victors again any time after
three turns have passed since the surrender ... A nation may surrender only once per game."

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"):
* **When the vote is counted**: the offer is made in Phase 1.3 of one turn ("At the end of
  any turn") and told to everyone; the nations it is made to answer with ACCEPT/REFUSE
  SURRENDER OF <nation> in their orders of the next turn, counted in that turn's Phase 1.3.
  The rules' "(default)" names the majority as the default way of deciding; a nation that
  writes no answer does not accept (a surrender ends wars and gives land back: it takes
  the victors' word), nor is it counted as declining (only a REFUSE is, for the US Entry).
* **A main-war nation** surrenders to the whole opposite side, whatever nations it names:
  each voter weighs its income (the income its rule gives it at that moment: a conquered
  nation has no vote); accepted when those who ACCEPT weigh more than half of the side.
  Any other offer (a neutral's, in a local war) is answered by each nation it names (or,
  naming none, each nation at war with it) for itself: those who accept make peace.
* **The units in the land that reverts**, and in any other land of the victors (an ally of
  the loser holding it: 1.3 "troops on territories which belonged to the opposing side"),
  go to the nearest land the surrendering nation
  controls ("by the fastest routes possible", 1.3), at once: counted in steps over land,
  or over land and sea where no land route reaches any; ties by name; with none, they
  stay and the moderator is told (flag `surrender-units-stranded`).
* **Tribute**: a quarter (rounded up) of what the surrendering nation collects in Phase 8,
  from the turn of the surrender for 12 turns, shared equally by the victors not at war
  with it again (the remainder to the first by id); the returned land reverts incorporated
  since the turn of the surrender (its income comes back by the Phase 6 delay table).
* **The checker** (Step 1.3's `assume`) counts the offers with the votes it knows (the
  nation's own): the others have not accepted.
* **Three turns**: the surrendering nation may declare war on a victor again from the
  third turn after the surrender's (surrendered in turn 5: from turn 8).
"""

from __future__ import annotations

from moderator.engine import us_entry, wars
from moderator.engine.context import Position, TurnContext
from moderator.engine.neutral_income import income_rule

PHASE = "1.3"
OFFER = "surrender_offer"  # NationState.flags: the turn of an offer waiting for its answers
OFFER_TO = "surrender_offer_to"  # NationState.flags: the nations it named (none: all it is at war with)
SURRENDERED = "surrendered"  # NationState.flags: the turn its surrender was accepted (once per game)
VICTORS = "surrendered_to"  # NationState.flags: the nations that accepted it
TRIBUTE_TURNS = 12  # "two full years have passed (12 turns)"
QUIET_TURNS = 3  # "after three turns have passed since the surrender"
VOTE = "surrender-vote"  # ctx.done key: (VOTE, offerer, voter, "accept" | "refuse")


def side_of(pos: Position, nation: str) -> str:
    side = pos.nation(nation).side
    return side if side in ("allied", "central") else ""


def opposite(side: str) -> str:
    return {"allied": "central", "central": "allied"}.get(side, "")


# ---- the offer and the vote (the homes in engine/orders/surrender.py call these) ----------
def offer(ctx: TurnContext, nation: str, to: tuple[str, ...]) -> None:
    flags = ctx.state.nations[nation].flags
    flags[OFFER] = ctx.turn
    flags[OFFER_TO] = sorted(to)
    if not ctx.checking:
        ctx.emit("surrender-offered", PHASE, (), nation=nation, to=sorted(to))  # public news


def pending(pos: Position, nation: str) -> bool:
    """Has `nation` an offer from an earlier turn, answered this turn?"""
    made = pos.nation(nation).flags.get(OFFER)
    return made is not None and int(made) < pos.turn


def vote(ctx: TurnContext, voter: str, offerer: str, accept: bool) -> None:
    ctx.use((VOTE, offerer, voter, "accept" if accept else "refuse"))


def voters(pos: Position, nation: str, named: list[str]) -> list[str]:
    """Who answers the offer: the opposite side of the main war, or the nations named (all
    at war with it when none is named)."""
    side = side_of(pos, nation)
    if side:
        return sorted(n for n, ns in pos.state.nations.items() if ns.side == opposite(side))
    return sorted(n for n in (named or pos.nation(nation).at_war_with) if pos.at_war(nation, n))


def answered(pos: Position, offerer: str, voter: str, answer: str) -> bool:
    return (VOTE, offerer, voter, answer) in pos.done


def weight(pos: Position, nation: str) -> int:
    """"all resource income points are considered to be one vote": the income its rule
    gives it now (nothing once conquered)."""
    from moderator.engine.phase8_income import apply_income_rule, conquered, full_incomes

    if conquered(pos.world, pos.state, nation):
        return 0
    key = ("full-incomes", str(pos.turn))
    if key not in pos.memo:
        pos.memo[key] = full_incomes(pos.world, pos.state, pos.turn)
    return apply_income_rule(income_rule(pos.state, pos.scenario, nation), pos.memo[key].get(nation, 0))


# ---- Phase 1.3: the answers counted ------------------------------------------------------------
def decide_offers(ctx: TurnContext) -> None:
    """Every offer of an earlier turn, answered by this turn's votes."""
    for nation in sorted(ctx.state.nations):
        if not pending(ctx, nation):
            continue
        flags = ctx.state.nations[nation].flags
        flags.pop(OFFER)
        who = voters(ctx, nation, list(flags.pop(OFFER_TO, [])))
        refusers = [v for v in who if answered(ctx, nation, v, "refuse")]
        accepting = [v for v in who if answered(ctx, nation, v, "accept")]
        if side_of(ctx, nation):
            weights = {v: weight(ctx, v) for v in who}
            yes, total = sum(weights[v] for v in accepting), sum(weights.values())
            accepted = who if yes * 2 > total else []
            votes = (yes, sum(weights[v] for v in refusers))
        else:
            accepted = accepting
            votes = (len(accepting), len(refusers))
        if not ctx.checking:
            ctx.emit("surrender-decided", PHASE, (), nation=nation, accepted=bool(accepted), votes_for=votes[0],
                     votes_against=votes[1], refused_by=refusers)
        leaning = us_entry.favoured(ctx)  # "the side the US currently favors", before the refusals count
        us_entry.refused_surrender(ctx, refusers, PHASE)  # "all declining nations are counted"
        if accepted:
            terms(ctx, nation, accepted, leaning)


def terms(ctx: TurnContext, loser: str, victors: list[str], leaning: str = "") -> None:
    """The terms of surrender between `loser` and the nations that accepted it."""
    ns = ctx.state.nations[loser]
    for victor in victors:
        if ctx.at_war(loser, victor):
            wars.make_peace(ctx, loser, victor, PHASE)
    ns.flags[SURRENDERED] = ctx.turn
    ns.flags[VICTORS] = sorted(victors)
    back = sorted(t for t, holder in ctx.state.control.items()
                  if holder == loser and ctx.world.territories[t].owner in victors)
    for place in back:
        owner = ctx.world.territories[place].owner
        assert owner is not None
        ctx.state.control[place] = owner
        ctx.state.incorporated[place] = ctx.turn
        if not ctx.checking:
            ctx.emit("territory-reverted", PHASE, (), place=place, nation=owner, by=loser)
        withdraw(ctx, loser, place)
    # 1.3: "If the nation has any troops on territories which belonged to the opposing side,
    # then the player must begin removing all troops from those territories": those an ally
    # of the loser holds too.
    for place in sorted({u.location for u in ctx.state.units if u.nation == loser}):
        info = ctx.world.territories.get(place)
        if info is not None and not ctx.is_sea(place) and info.owner in victors and place not in back:
            withdraw(ctx, loser, place)
    us_entry.surrendered(ctx, loser, PHASE, leaning)


def withdraw(ctx: TurnContext, nation: str, place: str) -> None:
    """The nation's units in land that reverted go to the nearest land it still controls."""
    units = ctx.state.units_at(place, nation)
    if not units:
        return
    to = nearest_held(ctx, nation, place)
    if to is None:
        if not ctx.checking:
            ctx.flag(PHASE, "surrender-units-stranded", nation=nation, place=place, units=len(units))
        return
    for u in units:
        u.location = to
    if not ctx.checking:
            ctx.emit("units-withdrawn", PHASE, (nation,), nation=nation, place=place, to=to, units=len(units))


def nearest_held(pos: Position, nation: str, start: str) -> str | None:
    """The nearest land `nation` controls, "by the fastest routes" (1.3): in steps over
    land (troops march home: Germans in Brest go to Cologne, not over the sea to Bremen),
    else, when no land route reaches any, in steps over land and sea; ties by name."""
    return _nearest(pos, nation, start, by_sea=False) or _nearest(pos, nation, start, by_sea=True)


def _nearest(pos: Position, nation: str, start: str, by_sea: bool) -> str | None:
    seen, frontier = {start}, [start]
    while frontier:
        found = sorted(t for t in frontier if t != start and not pos.is_sea(t) and pos.controller(t) == nation)
        if found:
            return found[0]
        nxt: list[str] = []
        for t in frontier:
            for n in sorted(pos.world.neighbours(t)):
                if n not in seen and (by_sea or not pos.is_sea(n)):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return None


# ---- what the surrender leaves for later turns -------------------------------------------------
def tribute(ctx: TurnContext, nation: str, collected: int, phase: str) -> int:
    """Phase 8: the quarter (rounded up) of `nation`'s income that goes to its victors this
    turn; returns what it paid."""
    ns = ctx.state.nations[nation]
    since = ns.flags.get(SURRENDERED)
    if since is None or collected <= 0 or ctx.turn >= int(since) + TRIBUTE_TURNS:
        return 0
    owed_to = [v for v in ns.flags.get(VICTORS, []) if v in ctx.state.nations and not ctx.at_war(nation, v)]
    if not owed_to:
        return 0
    total = -(-collected // 4)
    share, extra = divmod(total, len(owed_to))
    for i, victor in enumerate(owed_to):
        amount = share + (1 if i < extra else 0)
        ctx.state.nations[victor].saved += amount
        if amount and not ctx.checking:
            ctx.emit("tribute", phase, (nation, victor), nation=nation, to=victor, amount=amount)
    return total


def war_barred(pos: Position, nation: str, target: str) -> str:
    """Why the surrender bars `nation` from declaring war on `target` this turn, or ""."""
    if nation in pos.nation(target).flags.get(VICTORS, []):
        return "war-on-surrendered"  # "The victorious nation(s) cannot declare war on the surrendering nation"
    me = pos.nation(nation).flags
    if target in me.get(VICTORS, []) and pos.turn < int(me.get(SURRENDERED, 0)) + QUIET_TURNS:
        return "war-after-surrender-too-soon"
    return ""
