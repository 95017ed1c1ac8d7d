"""What the special options do once paid (Phase 1.5; "Allied Powers / Central Powers
special options", US Playing Options): the dice and the points of each, by its rule.

The option's home (engine/orders/special_options.py) charges it, hands on the money the
rules name and records its use; an option whose [[option]] names an `effect` is then
resolved here, the rest are referred to the moderator. Here too: the conditions of an
option's rule that need code (CHECKS), prices that are not a fixed cost (PRICES), and
what an option moves on the map the moment it is paid (handed_over). Every effect rolls the step's
dice through engine/chances.py (the rules' stated chances, tested statistically) and
moves points through engine/points.py (the neutral and the moderator learn them). Each
returns its outcome (chances.SUCCESS, BACKFIRE, NOTHING): the nation that played the
option learns it (event option-outcome), never the points.

Readings (docs/rules-coverage.md):
* French #4 says China gets "0-20 points toward Central Powers side"; the other three
  Chinese options move China toward the side of the nation playing them, and France
  seeks China's favour for itself: toward the Allies.
* The territory an option gives ("give the territory of Hong Kong back to China", "gift
  Marseille to Italy ... Marseille automatically becomes incorporated into Italian
  lands") changes hands at once, incorporated; the giver's units there march at once to
  its nearest land through its own and its allies' land (garrison_leaves); a garrison
  with no such march home (Hong Kong, Indochina, Jiaozhou: Chinese land all round) is
  shipped to the giver's nearest port (shipped_to), flagged for the moderator, who may
  send it elsewhere or intern it by a ruling.
* Japan's answer to a Chinese option ("a 1 in 10 chance that Japan will declare war on
  Britain") is a declaration by Japan (engine/wars.py), the German one with Japan's full
  production ("instantly go up to full production and declare war on the rest of the
  Central Powers").
"""

from __future__ import annotations

from collections.abc import Callable

from moderator.engine import (
    adriatic_submarine,
    british_entry,
    chances,
    combat_land,
    conquest,
    japan,
    neutral_triggers,
    ottoman_battleship,
    points,
    wars,
)
from moderator.engine import us_entry as us_entry_events
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.records import record_success
from moderator.engine.problems import Problem, problem
from moderator.engine.state import AIR_UNITS, LAND_UNITS
from moderator.orders.model import SpecialOption
from moderator.world.scenario_model import OptionRule

PHASE = "1.5"
USA, CHINA, ITALY, JAPAN, OTTOMAN, MEXICO, SPAIN = "usa", "china", "italy", "japan", "ottoman", "mexico", "spain"
COURTED = "courted"  # NationState.flags of Italy: French #3 succeeded (0-4 a turn instead of 0-3)
# NationState.flags of Italy: the turn Austro-Hungarian #2 made it "considered neutral and can be
# influenced as any other minor neutral" (seek_italys_favour); read by the influence on Italy
CONSIDERED_NEUTRAL = "considered_neutral"
REFUSED, NEUTRAL = "refused", "neutral"  # outcomes: Serbia refused the peace; Italy considered neutral

Effect = Callable[[TurnContext, str, SpecialOption, OptionRule], str]  # -> its outcome
Check = Callable[[Position, str, SpecialOption, OptionRule], "Problem | None"]
Price = Callable[[Position, str, SpecialOption, OptionRule], int]


def side_of(ctx: TurnContext, nation: str) -> str:
    side = ctx.nation(nation).side
    return side if side in ("allied", "central") else ""


def other(side: str) -> str:
    return {"allied": "central", "central": "allied"}.get(side, "")


def neutral(ctx: TurnContext, nation: str) -> bool:
    return nation in ctx.state.nations and ctx.state.nations[nation].side == "neutral"


def us_entry(ctx: TurnContext, toward: str, amount: int, why: str) -> None:
    """The US Entry (the USA's points) moves while the USA is neutral."""
    if neutral(ctx, USA) and toward:
        points.move(ctx, USA, toward, amount, why, PHASE)


def give(ctx: TurnContext, nation: str, place: str, to: str) -> None:
    """An option's gift of territory: at once, incorporated into the receiver's lands. No
    dice: the option's home does it in commit(), so the checker's projection has it too."""
    if not place or not to or ctx.state.control.get(place) != nation:
        return
    ctx.state.control[place] = to
    ctx.state.incorporated[place] = ctx.turn
    if not ctx.checking:
        ctx.emit("territory-given", PHASE, (), nation=nation, place=place, to=to)
    garrison_leaves(ctx, nation, place, to)


def garrison_leaves(ctx: TurnContext, nation: str, place: str, to: str) -> None:
    """The giver's units in the land given march at once to the nearest land it controls
    through its own or its allies' land (ties by name): the rules give the land, not the
    garrison. This turn's orders name them where they went.

    With no such march home (Hong Kong, Jiaozhou, Indochina: Chinese land all round) the
    rules leave the garrison to the moderator; the default is the one a moderator would
    pick for a land handed over in peace: the garrison sails home, to the giver's nearest
    port (shipped_to), not interned by the receiver (the giver chose to hand the land over,
    it did not lose it) nor disbanded (the rules take the land and 10 resources, never the
    units). Flagged `option-gift-units-shipped`: a ruling sends them elsewhere (MOVE) or
    interns them (REMOVE). With no port either, they stay, flagged `option-gift-units-left`."""
    units = ctx.state.units_at(place, nation)
    if not units:
        return
    dest = nearest_home(ctx, nation, place)
    port = shipped_to(ctx, nation, place) if dest is None else None
    if dest is None and port is None:
        if not ctx.checking:
            ctx.flag(PHASE, "option-gift-units-left", nation=nation, place=place, to=to)
        return
    arrive = dest or port
    assert arrive is not None
    for u in units:
        if ctx.start[(nation, place, u.kind)] > 0:  # what this turn's orders may name, and where
            ctx.start[(nation, place, u.kind)] -= 1
            ctx.start[(nation, arrive, u.kind)] += 1
        u.location = arrive
    if not ctx.checking:
        ctx.emit("units-withdrawn", PHASE, (nation,), nation=nation, place=place, to=arrive, units=len(units))
        if port is not None:
            ctx.flag(PHASE, "option-gift-units-shipped", nation=nation, place=place, to=to, port=port,
                     units=len(units))


def shipped_to(pos: Position, nation: str, start: str) -> str | None:
    """The giver's nearest port from a coastal land it gave away: the coastal land it
    controls reached over the fewest sea zones from the zones beside `start`; among those
    the most valuable (a real base: Malaya before British Borneo for Hong Kong's garrison),
    then by name. The sailing is a peaceful evacuation, done at once like the march home:
    no transport, no sea move, no enemy fleet in the way (the rules say nothing of it; the
    moderator's flag is where it is judged). None when `start` has no coast or no sea zone
    leads to a land of the giver's."""
    frontier = sorted(z for z in pos.world.neighbours(start) if pos.is_sea(z))
    seen = set(frontier)
    while frontier:
        ports = {t for z in frontier for t in pos.world.neighbours(z)
                 if t != start and not pos.is_sea(t) and pos.controller(t) == nation}
        if ports:
            return min(ports, key=lambda t: (-pos.world.territories[t].value, t))
        nxt = sorted({n for z in frontier for n in pos.world.neighbours(z) if pos.is_sea(n)} - seen)
        seen.update(nxt)
        frontier = nxt
    return None


def nearest_home(ctx: TurnContext, nation: str, start: str) -> str | None:
    """The nearest land `nation` controls, in steps over land it or its allies control."""
    seen, frontier = {start}, [start]
    while frontier:
        nxt: list[str] = []
        for t in frontier:
            for n in sorted(ctx.world.neighbours(t)):
                holder = ctx.controller(n)
                if n in seen or ctx.is_sea(n) or holder is None:
                    continue
                seen.add(n)
                if holder == nation or ctx.allies(nation, holder):
                    nxt.append(n)
        found = sorted(t for t in nxt if ctx.controller(t) == nation)
        if found:
            return found[0]
        frontier = nxt
    return None


# ---- the British Empire ---------------------------------------------------------------------
def ottoman_trade_fiasco(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """British #1: "the Ottoman Empire will get 0-6 points toward Allied Powers" (the
    battleship was handed over as the option was paid: engine/ottoman_battleship.py)."""
    if neutral(ctx, OTTOMAN):
        amount = ctx.dice.between(0, 6, f"Ottoman Trade Fiasco (British #1) {points.PURPOSE}")
        points.move(ctx, OTTOMAN, "allied", amount, "option", PHASE)
    return chances.SUCCESS


def us_propaganda(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """British #3 (and #2 as a Central Power): 2D10, "On a 18, 19, or 20 the US Public
    Opinion will raise 1 point. On a result of 2 ... drop 3 points" (toward the British
    side, away from it). German #2: "On a 19 or 20 the US Public Opinion will lower by 0-2
    points. On a 2 the US Public Opinion will raise by 0-4 points"."""
    mine = side_of(ctx, nation)
    british = nation == "britain"
    outcome = chances.propaganda(ctx.dice, 18 if british else 19, f"{spec.title} ({ctx.nation_name(nation)} #{spec.number})")
    if outcome == chances.SUCCESS:
        amount = 1 if british else ctx.dice.between(0, 2, f"US opinion, propaganda {points.PURPOSE}")
        us_entry(ctx, mine, amount, "option")
    elif outcome == chances.BACKFIRE:
        amount = 3 if british else ctx.dice.between(0, 4, f"US opinion, propaganda found out {points.PURPOSE}")
        us_entry(ctx, other(mine), amount, "option")
    return outcome


# ---- China -----------------------------------------------------------------------------------
CHINA_ODDS = {"britain": 1, "france": 2, "germany": 2}  # "a 1 in 10 chance", "a 2 in 10 chance"


def seek_chinese_favour(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """British #2 (#1 as a Central Power), French #4, German #1: the territory and 10 to
    China; then "there is a N in 10 chance that China will have 0-20 points toward" the
    side, and "a 1 in 10 chance that Japan will declare war"."""
    mine = side_of(ctx, nation)
    success = chances.china_favour(ctx.dice, CHINA_ODDS.get(nation, 1))
    if success and neutral(ctx, CHINA):
        amount = ctx.dice.between(0, 20, f"Chinese favour ({ctx.nation_name(nation)} #{spec.number}) {points.PURPOSE}")
        points.move(ctx, CHINA, mine, amount, "option", PHASE)
    if chances.japan_objects(ctx.dice) and JAPAN in ctx.state.nations:
        japan_objects(ctx, nation, mine)
    neutral_triggers.british_option_2(ctx, nation, PHASE)  # the Ottomans: 0-10 toward the Allies
    return chances.SUCCESS if success else chances.NOTHING


def japan_objects(ctx: TurnContext, nation: str, side: str) -> None:
    """Japan declares war: on Britain or France (their options), on "the rest of the
    Central Powers" (Germany's, with full production; Britain's as a Central Power)."""
    if side == "central":
        targets = sorted(n for n, ns in ctx.state.nations.items() if ns.side == "central")
        if nation == "germany":
            ctx.state.nations[JAPAN].income_rule = "full"  # "instantly go up to full production"
    else:
        targets = [nation]
    for target in targets:
        if target != JAPAN and not ctx.at_war(JAPAN, target):
            wars.begin(ctx, JAPAN, target, PHASE, surprise=False)


def declare_wars(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> None:
    """The wars an option declares without a roll (Japan 1, 2, 4, 5, 6; Spain 1), begun
    when the option is committed: in the checker's projection as in the engine, like a
    DECLARE WAR (the orders after it are judged at war). Japan 4 with FULL WAR marks the
    full war with Russia (begun again after a won limited war; US Entry 4 then), without
    it the war begun is the limited one (engine/japan.py). Spain: not once it reached 10
    points ("cannot declare new war against neutrals")."""
    if spec.effect == "japan-war":
        flags = ctx.state.nations[JAPAN].flags
        if spec.number == 4 and order.full:
            flags.setdefault(japan.FULL_WAR_RUSSIA, ctx.turn)
            if ctx.at_war(JAPAN, japan.RUSSIA):  # the limited war turned full: US Entry 4 now
                us_entry_events.move(ctx, "allied", 2, "japan-war-on-russia", PHASE)
        elif spec.number == 4 and not ctx.at_war(JAPAN, japan.RUSSIA):
            flags[japan.LIMITED_RUSSIA] = ctx.turn  # the war begun below is the limited one
        for enemy in japan.targets(ctx, spec.number):
            if enemy in ctx.state.nations and enemy != JAPAN and not ctx.at_war(JAPAN, enemy):
                wars.begin(ctx, JAPAN, enemy, PHASE, surprise=False)
    elif spec.effect == "spain-war" and spec.number == 1:
        minor = order.target
        if (minor is not None and minor in ctx.state.nations and not ctx.at_war(nation, minor)
                and points.locked(ctx, nation) is None):
            wars.begin(ctx, nation, minor, PHASE, surprise=False)


def japan_war(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """Japan 1, 2, 4, 5, 6: the wars were begun as the option was committed
    (declare_wars); the income they bring: engine/japan.py income_rule, read in Phase 8."""
    return chances.SUCCESS


def japan_suez(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """Japan 3: its conditions are the option's requirements (at war with the Ottomans and
    Austria-Hungary, a Central Power holding the Suez Canal); once played, its 10 a turn
    last while both wars do (engine/japan.py income_rule)."""
    return chances.SUCCESS


def spain_war(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """Spain 1 ("declare war on any minor neutral": begun as the option was committed,
    declare_wars) and 3 ("declare war on any major neutral nation, for free and only if hit
    1 or 2 on D10 die"): the war begun as a DECLARE WAR would (engine/wars.py: public; the
    neutrals' second table). Reading: the lock of a neutral that reached 10 points
    ("cannot declare new war against neutrals") holds for the options too: nothing
    happens (the option is free or its cost is spent)."""
    target = order.target
    if spec.number == 1:
        return chances.SUCCESS if target is not None and ctx.at_war(nation, target) else chances.NOTHING
    if target is None or target not in ctx.state.nations or ctx.at_war(nation, target):
        return chances.NOTHING
    if points.locked(ctx, nation) is not None or not chances.spain_goes_to_war(ctx.dice):
        return chances.NOTHING
    wars.begin(ctx, nation, target, PHASE, surprise=False)
    return chances.SUCCESS


# ---- Italy -----------------------------------------------------------------------------------
def seek_italys_favour(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """French #5, Austro-Hungarian #2: the territory and 15 to Italy; "a 4 in 10 chance
    (7, 8, 9 and 10 on D10 die) of Italy taking 0-20 points toward" the side, and Italy
    then leans to it (Italy: "the following turn Italy can have 0-3 points toward ...
    each following turn"); "a 1 in 10 chance (1 on same D10 die) ... Italy will get 0-20
    points toward" the other side. Austro-Hungarian #2 while Italy leans twice toward the
    Allies: a success only makes Italy "considered neutral" (twice_toward_allies)."""
    mine = side_of(ctx, nation)
    outcome = chances.seek_italy_favour(ctx.dice)
    if outcome == chances.SUCCESS and nation == AUSTRIA and neutral(ctx, ITALY) and twice_toward_allies(ctx):
        considered_neutral(ctx)
        return NEUTRAL
    if outcome != chances.NOTHING and neutral(ctx, ITALY):
        toward = mine if outcome == chances.SUCCESS else other(mine)
        amount = ctx.dice.between(0, 20, f"Italy's favour ({ctx.nation_name(nation)} #{spec.number}) {points.PURPOSE}")
        points.move(ctx, ITALY, toward, amount, "option", PHASE)
        if outcome == chances.SUCCESS:
            ctx.state.nations[ITALY].flags["leaning"] = mine
    return outcome


AUSTRIA = "austria-hungary"


def twice_toward_allies(ctx: TurnContext) -> bool:
    """Austro-Hungarian #2: "Above is done only if Italy has not twice leaned toward Allied
    Powers ... As Italians are leaning toward Allied Powers at the beginning, then if Allied
    Powers succeed once to do the former, then Central Powers must counteract and do the
    same before they use this option to have full success." Reading: "leaning twice" is
    the engine's "twice attracted" (flags["attracted_twice"]: Italy's table after Britain's
    unprovoked entry, engine/british_entry.py; the coaxing's "leaning twice toward that
    side"), toward the Allies while Italy leans to them."""
    flags = ctx.state.nations[ITALY].flags
    return flags.get(british_entry.TWICE) == "allied" and neutral_triggers.leaning(ctx, ITALY) == "allied"


def considered_neutral(ctx: TurnContext) -> None:
    """"in that case, if isuccessful, then Italy is considered neutral and can be influenced
    as any other minor neutral": no points, Italy leans to neither side (no points of the
    turn: engine/phase1_diplomacy.py), no longer twice attracted, and open to plain
    influence from now on (flags[CONSIDERED_NEUTRAL], read by the influence on Italy)."""
    flags = ctx.state.nations[ITALY].flags
    flags.pop(british_entry.TWICE, None)
    flags["leaning"] = NEUTRAL  # neutral_triggers.leaning: none
    flags[CONSIDERED_NEUTRAL] = ctx.turn
    ctx.tell(ITALY, "leaning-changed", PHASE, side=NEUTRAL)  # Italy learns it; the moderator by the outcome


def influence_italy(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """French #3: "For 15 resources there is a 2 in 10 chance that ... Italy gets 0-4
    points for succesful attampt and 0-4 points each turn instead 0-3" (only while Italy
    leans toward the Allies: otherwise nothing happens)."""
    success = chances.court_italy(ctx.dice)
    leans = ctx.state.nations[ITALY].flags.get("leaning", ctx.scenario.nations[ITALY].leaning)
    if success and neutral(ctx, ITALY) and leans == "allied":
        amount = ctx.dice.between(0, 4, f"France courts Italy (French #3) {points.PURPOSE}")
        points.move(ctx, ITALY, "allied", amount, "option", PHASE)
        ctx.state.nations[ITALY].flags[COURTED] = ctx.turn
    return chances.SUCCESS if success else chances.NOTHING


# ---- Spain, Serbia, Mexico ----------------------------------------------------------------------
def spanish_relations(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """French #1: "If France gives Spain 10 resources there is a 7-10 chance Spain will
    normalize relations with France, and the Spanish Garrison rule will be void"."""
    success = chances.spanish_relations(ctx.dice)
    if success:
        record_success(ctx, nation, spec.number)  # influence.py lifts the garrison rule on later turns
    return chances.SUCCESS if success else chances.NOTHING


SERBIA = "serbia"
SERBIAN_PEACE = 25  # "offer Serbia 25 resources for a 50/50 chance of Serbia accepting"


def peace_with_serbia(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """Austro-Hungarian #1: "offer Serbia 25 resources for a 50/50 chance of Serbia
    accepting a peace treaty". Reading: the 25 buy the chance, spent either way (like
    French #3's "For 15 resources there is a 2 in 10 chance"); Serbia takes them with the
    treaty, and nobody has them when it refuses (the checker's projection pays them too:
    the treasuries agree whatever the roll)."""
    success = chances.serbian_peace(ctx.dice)
    if not success:
        return REFUSED
    if SERBIA in ctx.state.nations:
        ctx.state.nations[SERBIA].saved += SERBIAN_PEACE
        ctx.emit("gift", PHASE, (nation, SERBIA), giver=nation, receiver=SERBIA, sent=SERBIAN_PEACE,
                 arrived=SERBIAN_PEACE)
    if ctx.at_war(nation, SERBIA):
        wars.make_peace(ctx, nation, SERBIA, PHASE)
    return chances.SUCCESS


def serbia_alone(pos: Position, nation: str, order: SpecialOption, spec: OptionRule) -> Problem | None:
    """Austro-Hungarian #1: "only if Serbian territories contain no non-Serbian Allied units
    in them". Reading: Serbia's land on the map (its territories, whoever holds them now),
    the units of every other nation on the Allied side, as the option is judged (1.5,
    before any move of the turn)."""
    lands = {t for t, terr in pos.world.territories.items() if terr.is_land and terr.owner == SERBIA}
    for u in sorted(pos.state.units, key=lambda u: u.id):
        if u.location in lands and u.nation != SERBIA and pos.nation(u.nation).side == "allied":
            return problem("option-allied-units", u.location, number=spec.number, title=spec.title,
                           place=u.location, nation=u.nation)
    return None


def zimmerman_note(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """German #4: "On a 9 or a 10, Mexico will get 10-20 points toward Central Powers side.
    On a 1-3, the US Public Opinion will raise 0-4 points."""
    outcome = chances.zimmerman_note(ctx.dice)
    if outcome == chances.SUCCESS and neutral(ctx, MEXICO):
        amount = ctx.dice.between(10, 20, f"Zimmerman note, Mexico (German #4) {points.PURPOSE}")
        points.move(ctx, MEXICO, "central", amount, "option", PHASE)
    elif outcome == chances.BACKFIRE:
        us_entry(ctx, "allied", ctx.dice.between(0, 4, f"Zimmerman note found out {points.PURPOSE}"), "option")
    return outcome


# ---- the USA --------------------------------------------------------------------------------
def congress_vote(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """US #2: "If seeking war on a minor nation, then there is a 4 in 10 chance the
    declaration of war will be approved. When seeking war on a neutral major nation, there
    is only a 2 in 10 chance ... Should the declaration of war attempt fail, then the US
    entry status ... will shift 0-2 points closer to zero"."""
    target = order.target or ""
    info = ctx.scenario.nations.get(target)
    approved = chances.us_declaration_approved(ctx.dice, major=info is not None and info.kind != "minor")
    if approved and not ctx.at_war(nation, target):
        wars.begin(ctx, nation, target, PHASE, surprise=False)
    elif not approved:
        amount = ctx.dice.between(0, 2, f"Congress refused the war (US #2) {points.PURPOSE}")
        points.toward_zero(ctx, nation, amount, "option", PHASE)
    return chances.SUCCESS if approved else chances.NOTHING


def lend_resources(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """US #3: "If the US lends resources to a nation on the side the US Pubic Opinion is
    currently leaning towards, there is a 1 in 10 chance that the US Public Opinion will
    move 0-2 points towards the opposing side ... to a nation belonging to the side which
    US Public Opinion is not leaning towards, there is a 2 in 10 chance the US Entry will
    move 0-2 points towards the side the Public Opinion currently favors. If US public
    opinion is at zero, then no effect can happen"."""
    entry = ctx.state.nations[nation].standing
    to_side = side_of(ctx, order.target or "")
    if entry == 0 or not to_side:
        return chances.NOTHING
    favoured = "allied" if entry > 0 else "central"
    backlash = chances.us_lend_backlash(ctx.dice, to_side == favoured)
    if backlash:
        toward = other(favoured) if to_side == favoured else favoured
        amount = ctx.dice.between(0, 2, f"US opinion after the loan (US #3) {points.PURPOSE}")
        points.move(ctx, nation, toward, amount, "option", PHASE)
    return chances.BACKFIRE if backlash else chances.NOTHING


def public_opinion(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """US #4: "On a 7, 8, 9, or 10 the US Public Opinion will move 0-2 points in the
    direction the player wanted it to. On a roll of a 1 the US Public will move 0-6 points
    in the opposite direction"."""
    wanted = order.toward or ""
    outcome = chances.us_opinion_campaign(ctx.dice)
    if outcome == chances.SUCCESS:
        points.move(ctx, nation, wanted, ctx.dice.between(0, 2, f"US media campaign {points.PURPOSE}"), "option", PHASE)
    elif outcome == chances.BACKFIRE:
        amount = ctx.dice.between(0, 6, f"US media campaign backfires {points.PURPOSE}")
        points.move(ctx, nation, other(wanted), amount, "option", PHASE)
    return outcome


BRITAIN, IRISH_LANDS, IRISH_REBELS = "britain", ("Ireland", "Northern Ireland"), "irish-rebels"
IRISH_SUPPORT = 20  # "Britain will get +20 to its manpower limit for the British Isles"


def irish_rebellion(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """German #3: "there is a 2 in 10 chance that Ireland will rebel against Britain ...
    there is also a 1 in 10 chance that the Irish people will learn of Germany's meddling
    and further support the British war effort (on a 1 the Irish support the Brits, on a 9
    or 10 they rebel). If this happens, Britain will get +20 to its manpower limit for the
    British Isles. Once one or the other result happens, no further attempts may be made"
    (the option's `unsettled` condition). The rebellion: "1D10 infantry units and 1
    artillery unit ... The German player gets to place these forces in Ireland's two
    territories however they chose", then they attack the British there: the dice are
    rolled here and the placement is the German player's, written with the option
    (irish_placement); the rising (irish_rising) puts them on the map, attacking at once."""
    outcome = chances.irish_rebellion(ctx.dice)
    if outcome == chances.NOTHING:
        return outcome
    record_success(ctx, nation, spec.number)  # settled either way
    if outcome == chances.BACKFIRE:
        if BRITAIN in ctx.state.nations:
            ctx.state.nations[BRITAIN].manpower_limit += IRISH_SUPPORT
            ctx.tell(BRITAIN, "manpower-raised", PHASE, before=ctx.state.nations[BRITAIN].manpower_limit - IRISH_SUPPORT,
                     after=ctx.state.nations[BRITAIN].manpower_limit, why="irish-support", colonies=None)
        return outcome
    rebels = ctx.dice.between(1, 10, "Irish rebels' infantry (German option #3)")
    placed = irish_placement(ctx, order, rebels)
    by_order = order.place is not None
    if IRISH_REBELS not in ctx.state.nations:  # a scenario without them: the moderator puts them on the map
        ctx.flag(PHASE, "irish-rebellion", nation, infantry=rebels, artillery=1, placed=placed, by_order=by_order,
                 default="this scenario has no Irish rebels: ADD them as placed to a rebel minor at war with Britain "
                 "and let them attack the British there (the Irish rebels are the attackers)")
        return outcome
    irish_rising(ctx, placed, rebels)
    ctx.flag(PHASE, "irish-rebellion", nation, infantry=rebels, artillery=1, placed=placed, by_order=by_order,
             default=("placed as the German player wrote (OPTION 3 [n] AT place)" if by_order else
                      "the German player named no place: all in the Irish territory with the fewest British land "
                      "units") + "; they attacked at once; from now on the moderator commands the Irish rebels "
             "(irish-rebels) as a minor at war with Britain")
    return outcome


def irish_rising(ctx: TurnContext, placed: dict[str, dict[str, int]], infantry: int) -> None:
    """The rebels on the map: the Irish Rebels' (nations.toml [irish-rebels], a minor the
    moderator commands: the rules give the German player their placement only), at war
    with Britain, "which immediately attack any British forces in the two Irish
    territories ... treating the Irish rebels as attackers and the British forces there as
    defenders", with step 1.5's dice; a territory they are left alone in is theirs."""
    reds = ctx.state.nations[IRISH_REBELS]
    reds.flags.pop("active", None)  # on the board from now on (scenario: active = false)
    for a, b in ((IRISH_REBELS, BRITAIN), (BRITAIN, IRISH_REBELS)):
        ctx.state.nations[a].at_war_with = sorted({*ctx.state.nations[a].at_war_with, b})
    ctx.emit("irish-rising", PHASE, (), infantry=infantry, artillery=1, places=sorted(placed))  # public news
    for place, kinds in sorted(placed.items()):
        army = [ctx.state.new_unit(IRISH_REBELS, kind, place) for kind, n in sorted(kinds.items()) for _ in range(n)]
        defenders = [u for u in ctx.units_at(place, BRITAIN) if u.kind in LAND_UNITS + AIR_UNITS]
        won = True
        if defenders:
            battle = combat_land.fight(ctx, place, [], IRISH_REBELS, army, defenders)
            won = bool(combat_land.survivors(battle)) and not combat_land.defenders_left(battle)
            combat_land.battle_event(ctx, battle, won)
        if won and ctx.controller(place) == BRITAIN:
            conquest.take_territory(ctx, place, IRISH_REBELS, PHASE)


def irish_placement(ctx: TurnContext, order: SpecialOption, infantry: int) -> dict[str, dict[str, int]]:
    """Where the rebels stand: {territory: {kind: n}}. "The German player gets to place
    these forces in Ireland's two territories however they chose": OPTION 3 [n] AT place
    puts the artillery and n of the infantry (all of them without n; the roll is not known
    when the orders are written) there and the rest in the other territory. Without a
    place, the default: all together where the British have the fewest land units (then
    by name), where they stand the best chance."""
    if order.place is not None:
        there = order.place
    else:
        there = min(IRISH_LANDS, key=lambda t: (sum(1 for u in ctx.units_at(t, BRITAIN) if u.kind in LAND_UNITS), t))
    with_guns = infantry if order.amount is None else min(order.amount, infantry)
    placed = {there: {"artillery": 1, "infantry": with_guns}}
    rest = infantry - with_guns
    if rest:
        placed[next(t for t in IRISH_LANDS if t != there)] = {"infantry": rest}
    return {t: {k: n for k, n in kinds.items() if n} for t, kinds in sorted(placed.items())}


DELIVERED, ADOPTED = "delivered", "adopted"  # outcomes of the options without dice


def gift(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """French #2, Russian #1 (a gift at full value), Russian #2 (5 to Serbia), German #6
    (12 kept by the Bolsheviks): the home handed the money on as it charged the option;
    nothing is left to roll (German #6's +1 to the revolution roll: engine/phase9_revolution.py)."""
    return DELIVERED


def east_africa_supplies(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """German #5: nothing to roll; the builds of this turn read that it was played
    (engine/colony_supplies.py: two more units in German East Africa, its artillery for 8
    more, the mainland's money)."""
    return DELIVERED


def adriatic_sub(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """German #7: nothing to roll; the submarine was built and railed to the Adriatic as the
    option was paid (engine/adriatic_submarine.py)."""
    return DELIVERED


def properly_supply(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> str:
    """Russian #3: "its infantry will cost 6 resources for the remainder of the war"
    (engine/technology.py base_price reads the option's use) and the revolution's roll is 1 in
    10 less likely (engine/phase9_revolution.py)."""
    return ADOPTED


def handed_over(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> None:
    """What an option does the moment it is paid, without dice, in the checker's
    projection as in the engine (the option's home calls it in commit()): the things it
    moves on the map that later orders of the turn meet."""
    if spec.effect == "ottoman-trade-fiasco":
        ottoman_battleship.hand_over(ctx, nation)
    elif spec.effect == "adriatic-submarine":
        adriatic_submarine.carry(ctx, nation, order, spec)


# The rules' conditions that need more than the data's `requires` (the option's home asks
# them), and the prices that are not a fixed cost.
CHECKS: dict[str, Check] = {
    "peace-with-serbia": serbia_alone,
    "adriatic-submarine": adriatic_submarine.why_not,
}
PRICES: dict[str, Price] = {
    "adriatic-submarine": adriatic_submarine.price,
}

EFFECTS: dict[str, Effect] = {
    "adriatic-submarine": adriatic_sub,
    "irish-rebellion": irish_rebellion,
    "gift": gift,
    "properly-supply": properly_supply,
    "east-africa-supplies": east_africa_supplies,
    "japan-war": japan_war,
    "japan-suez": japan_suez,
    "spain-war": spain_war,
    "ottoman-trade-fiasco": ottoman_trade_fiasco,
    "us-propaganda": us_propaganda,
    "seek-chinese-favour": seek_chinese_favour,
    "seek-italys-favour": seek_italys_favour,
    "influence-italy": influence_italy,
    "spanish-relations": spanish_relations,
    "peace-with-serbia": peace_with_serbia,
    "zimmerman-note": zimmerman_note,
    "congress-vote": congress_vote,
    "lend-resources": lend_resources,
    "public-opinion": public_opinion,
}
