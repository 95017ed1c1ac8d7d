"""DECLARE WAR ON x (Phase 1.1: Declarations of War).

"For any nation the player intends to attack this turn, if the player is not yet at war
with that nation, then they must declare war on them at this point." War is mutual and
public news. Allies cannot declare war on each other (Cooperation). A neutral nation's
declaration starts a local or limited war, with rules of its own (Local War, Limited
War, the neutrals' sections), which the engine resolves (engine/wars.py, the points
tables: engine/reactions.py). The checker refuses what the rules forbid
(scenarios/1914/diplomacy.toml [wars]):
* "British, when neutral, are not able to declare war on any major neutral or minor
  neutral" (British Empire (while neutral));
* "Any neutral nation which reaches 10 or more cannot declare new local war even if she
  lose points" (Neutrals; the Ottoman Empire, Italy, Spain: engine/points.py locked);
* Spain's and the neutral USA's wars are their options (Spain 1 and 3 once its economy is
  boosted, "Spain is not willing to start new war again"; US #2, the Congress vote):
  `war-by-option` names them;
* "Canada and Australia cannot declare war to any minor neutral alone" (Major nations and
  colonies): only on a minor the British Empire is at war with;
* China's limited wars with Germany, Britain, France and Russia: "Before declaring any
  limited war China must pay 15 resources to gear up" (on an earlier turn: GEAR UP is
  Phase 1.5); a bordering minor "freely". Those are China's only wars while neutral
  (`only_listed_wars`): "China can enter into limited wars with Germany, Britain, France,
  and/or Russia or with adjacent minor neutrals ... China may also freely declare war on
  any minor neutral nation which it shares a border with" (China). Reading: a minor
  neutral China borders is one with land next to China's land as both hold it now; a
  distant minor or any other nation is refused (`war-not-listed`).
* "All neutrals, except Japan and British Empire, must collect 10 points for one side or
  another to be able to declare themselves as a member of Central Powers or Allied Powers
  and to declare war against oposite camp" (Neutrals); the Ottomans and Italy "may opt to
  declare war on neutral minor and neutral major nations" (their sections): a neutral's
  war on a nation of the main war needs its 10 points for the other camp as the turn
  began (what JOIN is judged on; it joins by JOIN, reading 31), else `war-camp-before-ten`.
  With those points the war is its entry: no section's list or gear-up binds it. Not
  barred: Japan and the British Empire (their own rules), China's limited wars on the four
  majors (after its gear-up), and the factions a special rule brings in (the Bolsheviks,
  the Mutineers, the Irish Rebels, the Chinese Empire: `active = false` in nations.toml).
The one judgement left to the moderator is flagged: a neutral attacking a minor neutral
(`war-by-neutral`): "If minor nation is attacked by major neutral then moderator should
fill the position from replacement list" (Replacement Pool), and until then a non-player
minor fights by the moderator's default. A neutral's war on a major nation needs no
ruling: both sides have players and the tables answer it.
What a war does to the attacked neutral (it joins the other camp) and how a war between
neutrals ends: engine/wars.py. The other neutrals' points after a main-war side's
declaration on a neutral (the Neutrals' first table, the US Entry among them):
engine/reactions.py, which also keeps a neutral's own declarations for the second
table (answered when it joins the main war).
"""

from __future__ import annotations

from moderator.engine import british_entry, points, surrender, wars
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.orders.records import geared_before
from moderator.engine.problems import Problem, flag, problem, warning
from moderator.orders.model import DeclareWar

PHASE = "1.1"


def minor(pos: Position, nation: str) -> bool:
    info = pos.scenario.nations.get(nation)
    return info is not None and info.kind == "minor"


def neutral_war_problem(pos: Position, nation: str, target: str, at: str) -> Problem | None:
    """Why a neutral's own sections forbid its declaration on `target` (see above)."""
    wars = pos.scenario.diplomacy
    if nation in wars.war_by_option:
        return problem("war-by-option", at, target=target, options=list(wars.war_by_option[nation]),
                       neutral=pos.nation(target).side == "neutral")
    partner = wars.not_alone.get(nation)
    if (partner and pos.nation(target).side == "neutral" and minor(pos, target)
            and not pos.at_war(partner, target)):
        return problem("war-not-alone", at, target=target, partner=partner)
    limited = wars.limited_war_gear_up.get(nation, frozenset())
    camp = pos.nation(target).side
    info = pos.scenario.nations.get(nation)
    if camp in ("allied", "central") and nation not in wars.join_without_points and (info is None or info.active):
        side = "central" if camp == "allied" else "allied"  # its 10 points open a war on the other camp only
        if points.ready_to_join(pos, nation, side) == side:
            return None  # its entry into the main war: its section's limited wars no longer bind it
        if target not in limited:
            return problem("war-camp-before-ten", at, target=target, camp=camp,
                           standing=pos.standing_at_start.get(nation, pos.nation(nation).standing))
    if nation in wars.only_listed_wars and target not in limited:
        near = bordering_minor_neutrals(pos, nation)
        if target not in near:
            return problem("war-not-listed", at, target=target, limited=sorted(limited), bordering=near,
                           minor=minor(pos, target) and pos.nation(target).side == "neutral")
    if target in limited and not geared_before(pos, nation):
        return problem("war-limited-gear-up", at, target=target)
    return None


def war_problem(pos: Position, nation: str, target: str, at: str) -> Problem | None:
    """Why `nation` may not begin a war on `target` (neither itself, nor its ally, nor
    already at war with it), with the reason at `at`; None if it may. The one home of
    these bars: DECLARE WAR asks it, and so does an attack without a declaration
    (attack_barred), in the checker and in the engine alike.
    * Surrender: "The victorious nation(s) cannot declare war on the surrendering nation",
      and the loser waits three turns (engine/surrender.py war_barred);
    * British Empire (while neutral): "not able to declare war on any major neutral or
      minor neutral";
    * Neutrals: "Any neutral nation which reaches 10 or more cannot declare new local war
      even if she lose points" (engine/points.py locked);
    * a neutral's own sections (neutral_war_problem)."""
    barred = surrender.war_barred(pos, nation, target)
    if barred:
        return problem(barred, at, target=target)  # Surrender's terms
    if pos.nation(nation).side != "neutral":
        return None
    on_neutral = pos.nation(target).side == "neutral"
    if on_neutral and nation in pos.scenario.diplomacy.no_war_on_neutrals:
        return problem("war-neutral-on-neutral", at, target=target)
    turn = points.locked(pos, nation)
    if on_neutral and turn is not None:
        return problem("war-after-ten", at, target=target, turn=turn)
    return neutral_war_problem(pos, nation, target, at)


def attacked(pos: Position, nation: str, place: str) -> list[str]:
    """The nations an attack on `place` would begin a war with: those that hold the place or
    stand in it, neither at war with `nation` nor its allies (by name)."""
    holder = pos.controller(place)
    others = {u.nation for u in pos.units_at(place) if u.nation != nation and u.id not in pos.in_transit}
    return [t for t in sorted(others | ({holder} if holder else set()))
            if t != nation and not pos.at_war(nation, t) and not pos.allies(nation, t)]


def attack_barred(pos: Position, nation: str, place: str) -> Problem | None:
    """An attack on `place` that would begin a war `nation` may not declare, refused with
    the declaration's own reason (war_problem): "For any nation the player intends to
    attack this turn, if the player is not yet at war with that nation, then they must
    declare war on them at this point" (Phase 1.1), so an attack without a declaration is
    one, and meets the same bars. Asked by the MOVE and INVADE homes before anything a
    battle or the checker's blindness could change (move.undefended), so that the checker
    and the engine give the same reason."""
    for target in attacked(pos, nation, place):
        why = war_problem(pos, nation, target, place)
        if why:
            return why
    return None
def bordering_minor_neutrals(pos: Position, nation: str) -> list[str]:
    """The minor neutrals holding land next to land `nation` holds ("shares a border
    with", China), sorted: the land as it stands, so a gift or a conquest changes them."""
    near: set[str] = set()
    for place in pos.world.territories:
        if pos.controller(place) != nation or pos.is_sea(place):
            continue
        for n in pos.world.neighbours(place):
            holder = pos.controller(n)
            if holder and holder != nation and not pos.is_sea(n) and minor(pos, holder):
                near.add(holder)
    return sorted(n for n in near if pos.nation(n).side == "neutral")


class DeclareWarRule(OrderRule[DeclareWar]):
    order = DeclareWar
    section = PHASE

    def problem(self, pos: Position, nation: str, order: DeclareWar) -> Problem | None:
        target = order.target
        if target not in pos.state.nations:
            return problem("unknown-nation", order.target, typed=order.target, guesses=[])
        if target == nation:
            return problem("war-self", order.target)
        if pos.allies(nation, target):
            return problem("war-ally", order.target, target=target)
        if pos.at_war(nation, target):
            return None  # nothing to declare (remarks says so)
        return war_problem(pos, nation, target, order.target)
        return None

    def remarks(self, pos: Position, nation: str, order: DeclareWar) -> list[Problem]:
        if pos.at_war(nation, order.target):
            return [warning("already-at-war", order.target, target=order.target)]
        if pos.nation(nation).side == "neutral":
            camp = wars.opposite(pos.nation(order.target).side)
            if nation == british_entry.BRITAIN and camp:  # its declaration is its entry (engine/wars.py)
                return [] if british_entry.provoked(pos, camp) else [warning("join-unprovoked", order.target, side=camp)]
            if pos.nation(order.target).side == "neutral" and minor(pos, order.target):
                return [flag("war-by-neutral", order.target, target=order.target)]  # its seat: see above
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: DeclareWar) -> None:
        if ctx.at_war(nation, order.target):
            return  # already at war (the receipt said so): nothing to declare
        wars.begin(ctx, nation, order.target, PHASE, surprise=False)  # public news; the attacked neutral joins


RULE = DeclareWarRule()
