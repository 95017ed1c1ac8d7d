"""The US Entry track's events (United States of America: "These events are detailed below").

US Entry is the USA's NationState.standing (plus: toward the Allies), and every event
moves it through engine/points.move, the one function with the track's -10..+10 bounds
("If at any time the US Entry reaches 10, then the US may join the Allies on the following
turn. If the US entry reaches -10, then the US may join the Central Powers"). Nothing
moves it once the USA has left neutrality. Each event is told to the USA and the
moderator only (points.move: "All things and events affecting major neutrals would be
known only by themselves").

1) "US Trade to Russia is cut off: + 0-2"                                 trade_cut_events
2) "Naval blockade of US trade to Germany or Britain (as CP): 2 in 10 chance of - 0-2"
3) "Naval blockade of US trade to Britain (as AP) or France: 2 in 10 chance of + 0-2"
4) "Japan declares full war on Russia: + 0-2"     on_war (not option #4's limited war;
   its FULL WAR: engine/option_effects.py japan_war)
5) "Japan declares war on China (while China is neutral): - 0-4. Also, chance that USA
   will declare war on Japan (1-5 on D10 die)."                           on_war, us_allies_china
6) "Zimmerman Note is discovered: + 0-4"            engine/option_effects.py zimmerman_note
7) "British Propaganda is discovered: - 0-6"        engine/option_effects.py us_propaganda
8) "Nation from side the US currently favors surrenders: 0-2 Points towards that side."
                                                                          surrendered
9) "Nation from side the US currently favors is conquered: 0-4 Points towards that side."
                                                                          conquests
10) "Refusal to accept an offer to Surrender. 0-2 point against the side which refuses
   the surrender."                                                        refused_surrender
11) the end-of-turn economic roll                   engine/phase9_neutrals.py us_economic_roll

Phase 1.1: "If the war is not declared, then nation (and the block she is in) suffer
double penalty for US entry": an attack without a declaration (surprise) doubles the draw
of events 4 and 5, as it doubles the USA's draw of the neutrals' first table
(engine/reactions.py).

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"):
* Events 1-3 are "the trade ... is cut off" and "Naval blockade of US trade": rolled in
  Phase 9 of every turn the trade due to that nation was cut in Phase 8 (its us-trade-cut
  event): event 1 whatever cut Russia's trade, events 2-3 only when a declared blockade
  (a naval blockade or BLOCKADE US TRADE) cut it; unrestricted submarine warfare has its
  own row in the straits table. "Britain (as CP)"/"(as AP)": the side Britain is on.
* Event 5's "chance that USA will declare war on Japan (1-5 on D10 die)" and the note of
  the second points table ("50% chance that USA (as neutral) will ally China in the war
  against Japan, 20% is chance for each following turn") are one rule: 1-5 on the D10
  when Japan declares, then 2 in 10 in Phase 9 of each later turn while Japan and a
  neutral China are at war and the USA is neutral and not yet at war with Japan. The
  USA's war is a declaration (engine/wars.py begin), so it is public.
* Event 9: a nation is conquered in the turn it first holds none of its original
  territories (Conquest); it is noted then (flags["conquered"]) and counted once.
* "the side the US currently favors": the side its US Entry leans to (none at 0).
"""

from __future__ import annotations

from moderator.engine import chances, japan, neutral_income, points
from moderator.engine.context import Position, TurnContext

USA, RUSSIA, JAPAN, CHINA = "usa", "russia", "japan", "china"
CONQUERED = "conquered"  # NationState.flags: the turn the nation was first found conquered
CHINA_WAR = "japan_china_war"  # NationState.flags of the USA: the turn Japan declared war on a neutral China
BLOCKADES = ("naval-blockade", "us-trade-blockade")  # us_trade.cut reasons that are a declared blockade
# Events 2 and 3: the receiver, the side it is on -> the way the US Entry moves.
BLOCKADE_TOWARD = {("germany", "central"): "central", ("britain", "central"): "central",
                   ("britain", "allied"): "allied", ("france", "allied"): "allied"}


def neutral_usa(pos: Position) -> bool:
    return USA in pos.state.nations and pos.state.nations[USA].side == "neutral"


def favoured(pos: Position) -> str:
    """The side the US Entry leans to now ("allied", "central"), or "" at 0."""
    entry = pos.nation(USA).standing
    return "allied" if entry > 0 else "central" if entry < 0 else ""


def move(ctx: TurnContext, toward: str, most: int, why: str, phase: str, double: bool = False) -> None:
    """Draw 0-`most` (twice that for an undeclared attack) and move the US Entry."""
    if ctx.checking or not neutral_usa(ctx) or toward not in ("allied", "central"):
        return
    amount = ctx.dice.between(0, most, f"US Entry: {why} {points.PURPOSE}")
    points.move(ctx, USA, toward, amount * 2 if double else amount, why, phase)


# ---- declarations of war (events 4, 5) ------------------------------------------------------
def on_war(ctx: TurnContext, nation: str, target: str, phase: str, surprise: bool) -> None:
    """engine/wars.py begin calls this for every war begun."""
    if nation != JAPAN or ctx.checking:
        return
    if target == RUSSIA and not japan.limited_war_on_russia(ctx.state):  # option #4's limited war: not yet
        move(ctx, "allied", 2, "japan-war-on-russia", phase, double=surprise)
    elif target == CHINA and ctx.state.nations[CHINA].side == "neutral":
        move(ctx, "central", 4, "japan-war-on-china", phase, double=surprise)
        if neutral_usa(ctx) and not ctx.at_war(USA, JAPAN):
            ctx.state.nations[USA].flags[CHINA_WAR] = ctx.turn
            if chances.us_declares_on_japan(ctx.dice):
                us_declares(ctx, phase)


def war_production(ctx: TurnContext, nation: str, target: str, phase: str) -> None:
    """US option #2: "If at war with a minor nation, the US will not collect any additional
    resources per turn. If at war with a major nation, then the US will begin to gear
    towards full war time production." Reading: the rules give no pace, and Variable US
    Trade says the trade "stop[s] going to a nation if the US becomes at war with that
    nation" (every trading nation is a major) apart from stopping "once the US has geared
    up to its maximum": so a war on a major does not bring full income at once. The pace is
    the moderator's: the default keeps the income the US has (option #1's 35, which the
    Congress vote needs), and the moderator is flagged (`us-war-production`) as the war
    begins to raise it with SET INCOME OF USA TO fixed:N, turn by turn, up to `full` (which
    stops the trade, engine/us_trade.py), and again each later turn (war_production_pace).
    engine/wars.py begin calls this for every war begun, after the attacked neutral joined
    (a USA that joined the main war collects in full anyway)."""
    if ctx.checking or not neutral_usa(ctx) or USA not in (nation, target):
        return
    enemy = target if nation == USA else nation
    if major(ctx, enemy):  # at war with a minor: "will not collect any additional resources"
        flag_pace(ctx, enemy, phase)


def war_production_pace(ctx: TurnContext, phase: str) -> None:
    """Phase 9 of each turn: "the US will begin to gear towards full war time production"
    is a gear-up over turns, whose pace the moderator sets (war_production). Reading
    (docs/rules-coverage.md, reading 33): the flag is raised again each turn while a
    neutral USA is at war with a major and its income is not yet `full`, so the gear-up is
    never forgotten; `full` (or the war's end, or the USA joining the main war) ends it."""
    if ctx.checking or not neutral_usa(ctx):
        return
    if neutral_income.income_rule(ctx.state, ctx.scenario, USA) == "full":
        return
    for enemy in sorted(ctx.state.nations[USA].at_war_with):
        if major(ctx, enemy):
            flag_pace(ctx, enemy, phase)


def major(pos: Position, nation: str) -> bool:
    info = pos.scenario.nations.get(nation)
    return info is not None and info.kind != "minor"


WAR_PRODUCTION = ("us-war-production",)  # memo: the majors whose war the moderator was told of this turn


def flag_pace(ctx: TurnContext, enemy: str, phase: str) -> None:
    """One `us-war-production` flag a turn for each major the neutral USA is at war with."""
    told = ctx.memo.setdefault(WAR_PRODUCTION, set())
    if enemy in told:
        return
    told.add(enemy)
    ctx.flag(phase, "us-war-production", nation=USA, enemy=enemy,
             rule=neutral_income.income_rule(ctx.state, ctx.scenario, USA))


def us_declares(ctx: TurnContext, phase: str) -> None:
    from moderator.engine import wars  # wars calls on_war: imported when needed

    ctx.state.nations[USA].flags.pop(CHINA_WAR, None)
    wars.begin(ctx, USA, JAPAN, phase, surprise=False)


def us_allies_china(ctx: TurnContext, phase: str) -> None:
    """Phase 9 of each later turn: 2 in 10 that the USA joins China's war on Japan."""
    if not neutral_usa(ctx):
        return
    since = ctx.state.nations[USA].flags.get(CHINA_WAR)
    if since is None or int(since) >= ctx.turn:
        return
    if not ctx.at_war(JAPAN, CHINA) or ctx.nation(CHINA).side != "neutral" or ctx.at_war(USA, JAPAN):
        ctx.state.nations[USA].flags.pop(CHINA_WAR, None)  # that war is over: no more chances
        return
    if chances.us_joins_china(ctx.dice, first_turn=False):
        us_declares(ctx, phase)


# ---- the trade (events 1-3) -----------------------------------------------------------------
def trade_cut_events(ctx: TurnContext, phase: str) -> None:
    """Phase 9: the trade cut in this turn's Phase 8 (its us-trade-cut events)."""
    if not neutral_usa(ctx):
        return
    for e in [e for e in ctx.events if e.code == "us-trade-cut"]:
        receiver, reason = e.args["nation"], e.args["reason"]
        if receiver == RUSSIA:
            move(ctx, "allied", 2, "trade-to-russia-cut", phase)
            continue
        toward = BLOCKADE_TOWARD.get((receiver, ctx.nation(receiver).side))
        if toward and reason in BLOCKADES and chances.us_blockade_outcry(ctx.dice, receiver):
            move(ctx, toward, 2, "blockade", phase)


# ---- surrender and conquest (events 8-10) -----------------------------------------------------
def surrendered(ctx: TurnContext, nation: str, phase: str, leaning: str) -> None:
    """A nation's surrender was accepted (engine/surrender.py); `leaning` is the side the
    US Entry favoured as the offer was decided (before the refusals of event 10 moved it)."""
    side = ctx.nation(nation).side
    if side and side == leaning:
        move(ctx, side, 2, "surrender", phase)


def refused_surrender(ctx: TurnContext, refusers: list[str], phase: str) -> None:
    """Event 10, for each nation that refused: "0-2 point against the side which refuses"."""
    for nation in refusers:
        side = ctx.nation(nation).side
        if side in ("allied", "central"):
            move(ctx, "central" if side == "allied" else "allied", 2, "surrender-refused", phase)


def conquests(ctx: TurnContext, phase: str) -> None:
    """Phase 9: nations conquered this turn (noted once); event 9 for the favoured side's."""
    from moderator.engine.phase8_income import conquered

    for nation in sorted(ctx.state.nations):
        ns = ctx.state.nations[nation]
        if not conquered(ctx.world, ctx.state, nation):
            ns.flags.pop(CONQUERED, None)  # liberated: a later conquest counts again
            continue
        if ns.flags.get(CONQUERED) is not None:
            continue
        ns.flags[CONQUERED] = ctx.turn
        if ns.side and ns.side == favoured(ctx):
            move(ctx, ns.side, 4, "conquest", phase)
