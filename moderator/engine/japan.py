"""Japan's war options and the income they bring (Japan; Phase 1.5 options 1-6).

"At any time Japan may spend 25 resources to gear up its war industries and begin
collecting 40% (30 resources) of its full income per turn. The turn following this
action, Japan has a wide variety of options available to them":
1) war on the Ottoman Empire, "an additional 10 resources per turn";
2) war on the Austro-Hungarian Empire, "an additional 10 resources per turn";
3) "If Japan is at war with the Ottomans and Austrians, if any Central Power nation
   captures the Suez Canal, then Japan may begin collecting an additional 10 resources
   per turn";
4) "a limited war on Russia. While the war continues, Japan will collect an additional 10
   resources per turn. The war ends when Russia captures Korea or Japan captures any two
   Russian territories. Any time while Japan is in a limited war with Russia or after
   they have won a limited war with Russia, Japan may pay 15 resources to go to full war
   with Russia. If in a full war with Russia, Japan will collect its full amount per turn
   for the duration of the war";
5) war on China, "a full war and Japan will collect its full amount of resources for the
   duration of the war. If China had entered the war prior to Japan declaring war on it,
   then a declaration of war on China will mean a declaration of war on all nations
   belonging to the side China belongs to";
6) war on "the Western Allies. This would be all Allied nations except for Russia. Japan
   will collect its full number of resources per turn until the end of the game."
"If at any time, other than Russia capturing Korea in a limited war with Japan, Japan
loses one of its original territories, then Japan will go to full war production. All of
the above are merely increases on the maximum number of resources Japan is allowed to
collect per turn. In no circumstance will this allow Japan to collect more resources per
turn than the total resource value of all the territories under Japan's control."

The option's home (engine/orders/special_options.py) checks the gear-up and the peace the
position settles and charges it; its effect (engine/option_effects.py japan_war) begins
the wars of targets() at once (engine/wars.py: public news, the US Entry's events, the
neutrals' answers), and for option 4's FULL WAR sets the flag FULL_WAR_RUSSIA. income_rule() is read by Phase 8
(engine/neutral_income.py) while Japan is neutral; Phase 9 (end_of_turn) ends a limited
war with Russia and marks an original territory lost.

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"): a bonus lasts while
the war that earns it lasts (option 3 while Japan is at war with both, once it was
played); the bonuses add to the geared-up 30 (or the 15), never past the full income
(the "fixed" rule is capped by the full income already); the full income of options 5
and 6, of the full war with Russia and of a lost original territory is "full". A lost
territory counts at the end of a turn (Phase 9) and raises Japan's production for good
from the next Phase 8. The limited war with Russia ends at the end of the turn Russia
holds Korea or Japan holds two Russian original territories (a public local-war-ended,
the winner named); FULL WAR is allowed while it lasts or after Japan won it.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext
from moderator.engine.state import GameState

JAPAN, RUSSIA, CHINA, OTTOMAN, AUSTRIA = "japan", "russia", "china", "ottoman", "austria-hungary"
KOREA = "Korea"
BONUS = 10
FULL_WAR_RUSSIA = "full_war_russia"  # NationState.flags of Japan: the turn it went to full war with Russia
LIMITED_RUSSIA = "limited_war_russia"  # NationState.flags of Japan: the turn option #4 began the limited war
WON_RUSSIA = "won_limited_war"  # NationState.flags of Japan: the turn it won the limited war with Russia
LOST_HOME = "lost_original_territory"  # NationState.flags of Japan: the turn it first lost one (full production)
PHASE9 = "9"


def used(state: GameState, number: int) -> bool:
    flags = state.nations[JAPAN].flags.get("options_used", {})
    return isinstance(flags, dict) and str(number) in flags


def at_war(state: GameState, other: str) -> bool:
    return other in state.nations[JAPAN].at_war_with


def full_war_on_russia(state: GameState) -> bool:
    return JAPAN in state.nations and bool(state.nations[JAPAN].flags.get(FULL_WAR_RUSSIA)) and at_war(state, RUSSIA)


def limited_war_on_russia(state: GameState) -> bool:
    """Option #4's limited war: begun by the option, not (yet) a full war."""
    flags = state.nations[JAPAN].flags if JAPAN in state.nations else {}
    return bool(flags.get(LIMITED_RUSSIA)) and not flags.get(FULL_WAR_RUSSIA)


def income_rule(state: GameState, rule: str) -> str:
    """Japan's rule while neutral, from its own rule (15, the gear-up's 30, or full)."""
    flags = state.nations[JAPAN].flags
    if rule == "full" or flags.get(LOST_HOME) is not None or used(state, 6):
        return "full"
    if (used(state, 5) and at_war(state, CHINA)) or full_war_on_russia(state):
        return "full"
    kind, _, amount = rule.partition(":")
    if kind != "fixed" or not amount.isdigit():
        return rule
    bonuses = [used(state, 1) and at_war(state, OTTOMAN), used(state, 2) and at_war(state, AUSTRIA),
               used(state, 3) and at_war(state, OTTOMAN) and at_war(state, AUSTRIA),
               used(state, 4) and at_war(state, RUSSIA)]
    extra = BONUS * sum(1 for b in bonuses if b)
    return f"fixed:{int(amount) + extra}" if extra else rule


def targets(ctx: TurnContext, number: int) -> list[str]:
    """The nations option `number` declares war on."""
    if number == 1:
        return [OTTOMAN]
    if number == 2:
        return [AUSTRIA]
    if number == 4:
        return [RUSSIA]
    if number == 5:
        side = ctx.nation(CHINA).side
        if side in ("allied", "central"):  # "a declaration of war on all nations belonging to the side"
            return sorted(n for n, ns in ctx.state.nations.items() if ns.side == side)
        return [CHINA]
    if number == 6:  # "all Allied nations except for Russia"
        return sorted(n for n, ns in ctx.state.nations.items() if ns.side == "allied" and n != RUSSIA)
    return []


def end_of_turn(ctx: TurnContext) -> None:
    """Phase 9: the limited war with Russia decided; an original territory lost."""
    if JAPAN not in ctx.state.nations:
        return
    ns = ctx.state.nations[JAPAN]
    limited = at_war(ctx.state, RUSSIA) and limited_war_on_russia(ctx.state)
    korea_to_russia = limited and ctx.controller(KOREA) == RUSSIA
    if ns.flags.get(LOST_HOME) is None:
        lost = [t for t in ctx.world.home_of(JAPAN) if ctx.controller(t) != JAPAN
                and not (t == KOREA and korea_to_russia)]
        if lost:
            ns.flags[LOST_HOME] = ctx.turn
            ctx.tell(JAPAN, "japan-full-production", PHASE9, lost=sorted(lost))
    if not limited or RUSSIA not in ctx.state.nations:
        return
    taken = sum(1 for t in ctx.world.home_of(RUSSIA) if ctx.controller(t) == JAPAN)
    if korea_to_russia or taken >= 2:
        winner = RUSSIA if korea_to_russia else JAPAN
        for x, y in ((JAPAN, RUSSIA), (RUSSIA, JAPAN)):
            ctx.state.nations[x].at_war_with = sorted(set(ctx.state.nations[x].at_war_with) - {y})
        ns.flags.pop(LIMITED_RUSSIA, None)
        if winner == JAPAN:
            ns.flags.setdefault(WON_RUSSIA, ctx.turn)
        ctx.emit("local-war-ended", PHASE9, (), nations=[JAPAN, RUSSIA], winners=[winner])
