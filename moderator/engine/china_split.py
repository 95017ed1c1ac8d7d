"""China's split into two political blocks, and its civil war (China).

"China can influence herself to join the main war, but only if the economy is raised to
60% of full income. ... 15 resource points for 0-2 points toward the desired side in main
war. However, if China were to roll 0 twice in a row, and if still neutral, then the
tidings in China will cause political elements to try to join both sides and with same
price both sides will get 0-2 points per turn at once. Both political blocks would start
from previously achieved points and will be influenced by tidings of the world situation
separately. Whenever 10 points is reached, then China can join the main war at will in
the following turn. If China doesn't declare war then, points will be accumulated for
both sides.
If 10 is reached for both Allied Powers and Central Powers side simultaneously, then
civil war occured. Army will split between units loyal to Chinese republic and units
loyal to Emperor. For each unit there would be a die roll and on 1-6 units remain as
republican units (for current player), and on 7-10 units become imperial units (new
player). If there are units from both fraction in the same province, then they would
fight acting both as attackers. After this turn is resolved both sides collect full
amount of resources until the end of hostilities and after that the winner takes the
charge over China and can join the side for which his fraction was leaning toward. If
she doesn't join the main war, then China collects 60% of full income until they enter
the main war, or are attacked from another major neutral."

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"):
* **The split**: the second resolved self-influence in a row that draws 0 points, China
  still neutral. The republic (China's player, NationState.standing) leans to the side
  that order named; the other bloc (flags OPPOSITION, the same -10..+10 scale) to the
  other side. Both start at the standing China had ("start from previously achieved
  points").
* **Two tracks**: every later move of China's points by the world's events (the response
  tables, other nations' influence, the options) moves both tracks, each stopping at the
  camps on its own ("influenced by tidings of the world situation separately"); China's
  self-influence, at the same price, draws 0-2 toward its side for each bloc, whatever
  side the order names ("both sides will get 0-2 points ... at once").
* **Joining**: either track at a camp as the turn began lets China JOIN that camp
  (engine/points.py ready_to_join); joining ends the split.
* **Civil war** ("simultaneously"): in Phase 9 of a turn that ends with each bloc at its
  own camp (the republic at its side's, the opposition at the other's). Every Chinese
  unit but trenches rolls 1D10: 7-10 it becomes the Chinese Empire's (nations.toml
  [china_empire], a neutral major on no one's table, its infantry counted against China's
  manpower, its seat the moderator's to fill from the replacement pool: flag
  `china-civil-war`). Where units of both stand in one land territory they clash, both
  attacking (combat_land.clash, the note after 4.6.1). Land of China where imperial units
  alone stand passes to the Empire, keeping its incorporation. The two are at war; the
  war does not end at a capture (wars.ends_on_capture) and neither may JOIN while it lasts
  (a war with a neutral, diplomacy.toml no_join_in_local_war).
* **Income**: both collect in full while the civil war lasts (engine/neutral_income.py).
* **The end of hostilities**: Phase 9 of the turn one faction holds no land of China's
  homeland. "The winner takes the charge over China": a PEACE WITH between the two is
  refused (engine/orders/peace.py); a peace the moderator rules (PEACE China AND
  china_empire) ends it too, the holder of Beijing, the capital, winning. The winner "takes the charge over China": every imperial unit and land
  becomes China's again (land the Empire had not incorporated is reincorporated), China's
  points stand at the winner's camp (it may JOIN that side from the next turn), its
  income is its geared 60% again, and if the Empire won the moderator hands China's seat
  to the Empire's player (flag `china-civil-war-ended`).
"""

from __future__ import annotations

from moderator.engine import chances, combat_land, conquest, points, technology
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.state import GameState

CHINA, EMPIRE = "china", "china_empire"
SPLIT = "split"  # NationState.flags of China: the turn its blocks split
LEANS = "republic_leans"  # NationState.flags of China: the side the republic (its player) leans to
OPPOSITION = "opposition_points"  # NationState.flags of China: the other bloc's standing, -10..+10
CIVIL_WAR = "civil_war"  # NationState.flags of China: the turn its civil war began
PHASE = "9"


def other(side: str) -> str:
    return "central" if side == "allied" else "allied"


def split(pos: Position, nation: str) -> bool:
    return pos.nation(nation).flags.get(SPLIT) is not None


def in_civil_war(pos: Position, a: str, b: str) -> bool:
    """Is the war between a and b China's civil war (it does not end at a capture)?"""
    return {a, b} == {CHINA, EMPIRE} and pos.nation(CHINA).flags.get(CIVIL_WAR) is not None


def collects_in_full_state(state: GameState, nation: str) -> bool:
    """"both sides collect full amount of resources until the end of hostilities"."""
    china = state.nations.get(CHINA)
    return nation in (CHINA, EMPIRE) and china is not None and china.flags.get(CIVIL_WAR) is not None


# ---- the split --------------------------------------------------------------------------------
def begin_split(ctx: TurnContext, nation: str, leans: str, phase: str) -> None:
    """The second 0 in a row: two blocks, both from the points China had."""
    flags = ctx.state.nations[nation].flags
    flags[SPLIT] = ctx.turn
    flags[LEANS] = leans
    flags[OPPOSITION] = ctx.state.nations[nation].standing
    if not ctx.checking:
        ctx.emit("china-split", phase, (nation, MODERATOR), nation=nation, side=leans,
                 standing=ctx.state.nations[nation].standing)


def move_opposition(ctx: TurnContext, nation: str, toward: str, amount: int, why: str, phase: str) -> None:
    """The other bloc's track takes the same move as China's own (points.move calls this)."""
    flags = ctx.state.nations[nation].flags
    before = int(flags[OPPOSITION])
    after = max(-points.CAMP, min(points.CAMP, before + points.sign(toward) * amount))
    flags[OPPOSITION] = after
    if ctx.checking or after == before:
        return
    ctx.emit("opposition-points", phase, (nation, MODERATOR), nation=nation, change=after - before, standing=after,
             side=other(str(flags[LEANS])), why=why)
    camp = points.camp_of(after)
    if camp and points.camp_of(before) != camp:
        ctx.state.nations[nation].flags.setdefault(points.REACHED, ctx.turn)
        ctx.tell(nation, "camp-reached", phase, side=camp)


def self_influence(ctx: TurnContext, nation: str, most: int, phase: str) -> None:
    """After the split, one self-influence draws 0-`most` for each bloc toward its side."""
    flags = ctx.state.nations[nation].flags
    leans = str(flags[LEANS])
    mine = ctx.dice.between(0, most, "self-influence points, the republic's bloc (China)")
    theirs = ctx.dice.between(0, most, "self-influence points, the other bloc (China)")
    points.move(ctx, nation, leans, mine, "self-influence", phase, both=False)  # the republic's draw is its own
    move_opposition(ctx, nation, other(leans), theirs, "self-influence", phase)


# ---- the civil war ----------------------------------------------------------------------------
def end_of_turn(ctx: TurnContext) -> None:
    """Phase 9: the split ends with a joining; both blocs at their camps begin the civil
    war; a civil war with one faction left without land ends."""
    if CHINA not in ctx.state.nations or ctx.checking:
        return
    ns = ctx.state.nations[CHINA]
    if ns.flags.get(CIVIL_WAR) is not None:
        decided(ctx)
        return
    if not split(ctx, CHINA):
        return
    if ns.side != "neutral":
        for key in (SPLIT, LEANS, OPPOSITION):
            ns.flags.pop(key, None)
        return
    leans = str(ns.flags[LEANS])
    if points.camp_of(ns.standing) == leans and points.camp_of(int(ns.flags[OPPOSITION])) == other(leans) \
            and EMPIRE in ctx.state.nations:
        civil_war(ctx, leans)


def civil_war(ctx: TurnContext, leans: str) -> None:
    china, empire = ctx.state.nations[CHINA], ctx.state.nations[EMPIRE]
    china.flags[CIVIL_WAR] = ctx.turn
    empire.flags.pop("active", None)  # on the board from now on (scenario: active = false)
    empire.flags[LEANS] = other(leans)
    empire.standing = points.CAMP * points.sign(other(leans))
    levels = empire.flags.setdefault(technology.BUILT_AT, {})
    went: dict[str, int] = {}
    for unit in sorted((u for u in ctx.state.units if u.nation == CHINA), key=lambda u: u.id):
        if unit.kind in conquest.TRENCHES:  # works, not troops
            continue
        if not chances.chinese_unit_turns_imperial(ctx.dice):
            continue
        levels[unit.id] = technology.unit_levels(ctx, unit)  # they fight as they did
        china.flags.get(technology.BUILT_AT, {}).pop(unit.id, None)
        unit.nation = EMPIRE
        went[unit.kind] = went.get(unit.kind, 0) + 1
    china.at_war_with = sorted({*china.at_war_with, EMPIRE})
    empire.at_war_with = sorted({*empire.at_war_with, CHINA})
    battles = []
    for place in sorted({u.location for u in ctx.state.units if u.nation == EMPIRE}):
        if place not in ctx.world.territories or ctx.is_sea(place):
            continue
        imperial = [u for u in ctx.units_at(place, EMPIRE) if u.kind not in conquest.TRENCHES]
        republican = [u for u in ctx.units_at(place, CHINA) if u.kind not in conquest.TRENCHES]
        if imperial and republican:  # "they would fight acting both as attackers"
            battle = combat_land.clash(ctx, place, republican, imperial, combat_land.Front())
            battle.attackers = (CHINA, EMPIRE)
            combat_land.battle_event(ctx, battle, False)
            battles.append(place)
    held = []
    for place in sorted({u.location for u in ctx.state.units if u.nation == EMPIRE}):
        if place not in ctx.world.territories or ctx.is_sea(place) or ctx.controller(place) != CHINA:
            continue
        if any(u.kind not in conquest.TRENCHES for u in ctx.units_at(place, CHINA)):
            continue
        ctx.state.control[place] = EMPIRE  # its own country: the incorporation stands
        held.append(place)
    ctx.emit("china-civil-war", PHASE, (), went=dict(sorted(went.items())), battles=battles, held=held,
             republic=leans, empire=other(leans))  # public news
    ctx.flag(PHASE, "china-civil-war", EMPIRE, held=held,
             default="the Chinese Empire's units are the moderator's until a player from the replacement pool "
             "takes its seat (moderator seat add --nation china_empire)")


def homeland_held(ctx: TurnContext, nation: str) -> bool:
    return any(ctx.controller(t) == nation for t in ctx.world.home_of(CHINA))


def decided(ctx: TurnContext) -> None:
    """The end of hostilities: the faction that still holds land of China wins it all."""
    china, empire = ctx.state.nations[CHINA], ctx.state.nations[EMPIRE]
    republic, imperial = homeland_held(ctx, CHINA), homeland_held(ctx, EMPIRE)
    if republic and imperial:
        if ctx.at_war(CHINA, EMPIRE):
            return
        # the moderator ruled a peace (the factions' own PEACE is refused): the capital's holder takes China
        winner = EMPIRE if ctx.controller(ctx.scenario.nations[CHINA].capital or "") == EMPIRE else CHINA
    else:
        winner = EMPIRE if imperial else CHINA
    side = str((empire if winner == EMPIRE else china).flags.get(LEANS, ""))
    levels = china.flags.setdefault(technology.BUILT_AT, {})
    for unit in [u for u in ctx.state.units if u.nation == EMPIRE]:
        levels[unit.id] = technology.unit_levels(ctx, unit)
        unit.nation = CHINA
    for place, holder in sorted(ctx.state.control.items()):
        if holder == EMPIRE:
            ctx.state.control[place] = CHINA
            ctx.state.incorporated.setdefault(place, ctx.turn)  # China's own land: reincorporated free
    china.at_war_with = sorted(set(china.at_war_with) - {EMPIRE})
    empire.at_war_with = []
    empire.flags = {"active": False}
    empire.standing = 0
    for key in (CIVIL_WAR, SPLIT, LEANS, OPPOSITION):
        china.flags.pop(key, None)
    if side in ("allied", "central"):
        china.standing = points.CAMP * points.sign(side)  # "can join the side for which his fraction was leaning"
        china.flags.setdefault(points.REACHED, ctx.turn)
    ctx.emit("china-civil-war-ended", PHASE, (), winner=winner, side=side)  # public news
    if winner == EMPIRE:
        ctx.flag(PHASE, "china-civil-war-ended", CHINA, side=side,
                 default="the Emperor's faction won: China's seat goes to the Chinese Empire's player")
