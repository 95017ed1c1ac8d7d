"""INFLUENCE nation [TOWARD side], INFLUENCE SELF TOWARD side (Phase 1.2: Diplomatic Influence).

"Most minor nations and some major neutral nations can be influenced by the major nations
already active in the main war ... A nation may spend 10 resources for a chance at making
a neutral nation more favorable to them. The chance of this happening is 2 in 10 per
attempt (hit 9 or 10 on 10 sided die). Only one attempt can be made on a particular
nation by the player each turn." "Nations with a * before them can be diplomatically
influenced, but such attempts shall only succeed on a roll of 10."

Who may be influenced, by whom and for how much is scenario data
(scenarios/1914/diplomacy.toml [influence], Scenario.diplomacy.influence):
* the major neutrals open to influence: Spain ("can only be influenced similar to minor
  neutral"), China only by a nation that gave it a territory by its special option, from
  the next turn on ("At the start of play no nations may attempt to influence China";
  British option #2, French #4, German #1), Italy only once Austro-Hungarian option #2
  made it "considered neutral" ("in that case, if isuccessful, then Italy is considered
  neutral and can be influenced as any other minor neutral": the option's home records
  the turn in NationState.flags["considered_neutral"]; refused before, `influence-italy`);
  dominions follow the British Empire;
* "United States cannot influence Spain"; France not while the Spanish Garrison rule
  holds (French option #1 voids it on a 7-10, engine/option_effects.py: "France may
  attempt to influence Spain on future turns");
* the neutral US influences minor neutrals toward a side for 15 (US option #5).

Self-influence (the neutrals' own sections): the Ottoman Empire toward the Allied Powers
for 10; Spain for 10 and China for 15, only once their economy is raised (the gear-up,
on an earlier turn). Italy has none (refused, `self-influence`): its section lists no
self-influence among its points, and the "Italian influence" of Austro-Hungarian option #2
is the coaxing of Italy by other nations (COAX, engine/orders/neutrals.py): "if Allied
Powers succeed once to do the former", "block a successful attempt made by the opposing
side (ie. Italy is leaning twice toward that side)" (diplomacy.toml [self_influence]).

The cost is charged when Phase 1.2 runs, then the engine rolls (Phase 1.2: 9-10, 10 for
* nations; the self-influences by their sections: the Ottomans 0-10 without a roll, Spain
0-3 on a 9-10, China 0-2) and moves the target's points (engine/points.py): 0-8 (Phase
1.2), Spain 0-3 and 0-5 once boosted, China 0-3 (diplomacy.toml [influence] points,
target_points, geared_points). The influencer learns whether it succeeded, never the
points; the target learns the points, never who (influence is anonymous). Italy, once
considered neutral, is influenced as a minor (10, 9-10, 0-8). China rolling 0 twice in a
row on its self-influence splits it into two blocks (engine/china_split.py).
"""

from __future__ import annotations

from moderator.engine import chances, china_split, garrison_apart, points
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.option_effects import CONSIDERED_NEUTRAL  # Italy: set by A-H #2 (its case)
from moderator.engine.orders.base import afford, once_per_turn
from moderator.engine.orders.records import Referred, geared, geared_before, option_used
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import Influence

PHASE = "1.2"


def key(nation: str, target: str) -> tuple[str, ...]:
    """The per-turn limit: one attempt per nation and target (self-influence included)."""
    return (nation, "influence", target)


# ---- influencing another nation ---------------------------------------------------------
def opened_by(pos: Position, nation: str, target: str) -> list[int]:
    """The nation's options that open `target` (a no_influence nation) to its influence."""
    return sorted(o.number for o in pos.scenario.diplomacy.options
                  if o.nation == nation and o.opens_influence == target)


def opened(pos: Position, nation: str, target: str) -> bool:
    """It gave `target` a territory by its option on an earlier turn ("the following turns")."""
    return any((t := option_used(pos, nation, n)) is not None and t < pos.turn for n in opened_by(pos, nation, target))


def influence_cost(pos: Position, nation: str) -> int:
    rules = pos.scenario.diplomacy.influence
    if pos.nation(nation).side == "neutral":
        return rules.neutral_influencers.get(nation, rules.cost)
    return rules.cost


def influence_problem(pos: Position, nation: str, target: str, toward: str | None, at: str = "") -> Problem | None:
    """Why the rules refuse `nation`'s influence attempt on another nation `target`."""
    rules = pos.scenario.diplomacy.influence
    me = pos.nation(nation)
    if me.side == "neutral" and nation not in rules.neutral_influencers:
        return problem("influence-neutral")
    if pos.nation(target).side != "neutral":
        return problem("influence-not-neutral", at, target=target)
    if pos.at_war(nation, target):
        return problem("influence-enemy", at, target=target)
    if (nation, target) in rules.never:
        return problem("influence-never", at, target=target)
    info = pos.scenario.nations.get(target)
    kind = info.kind if info else "minor"
    if me.side == "neutral" and kind != "minor":  # US option #5: "Influence Minor Nation"
        return problem("influence-minor-only", at, target=target)
    if pos.nation(target).flags.get("active") is False:  # not on the board yet (the Bolsheviks)
        kind = "inactive"
    if kind in ("dominion", "inactive") or (kind == "major" and target not in rules.majors | rules.case_majors):
        return problem("influence-barred", at, target=target, kind=kind,
                       parent=info.parent if info and info.parent else "")
    if target in rules.case_majors and pos.nation(target).flags.get(CONSIDERED_NEUTRAL) is None:
        return problem("influence-italy", at, target=target)
    if info is not None and info.no_influence and not opened(pos, nation, target):
        return problem("influence-not-opened", at, target=target, options=opened_by(pos, nation, target))
    for who, whom, option in rules.garrison:
        if (who, whom) == (nation, target) and garrison_apart.rule_stands(pos, nation, option):
            return problem("influence-garrison", at, target=target, option=option)
    if me.side == "neutral" and toward is None:
        return problem("influence-side", at, only="", target=target)
    if me.side != "neutral" and toward not in (None, me.side):
        return problem("influence-side", at, only=me.side, target=target)
    twice = once_per_turn(pos, key(nation, target), "influence-twice", at, target=target)
    if twice is not None:
        return twice
    return afford(pos, nation, influence_cost(pos, nation), f"an influence attempt on {pos.nation_name(target)}")


def influence_remarks(pos: Position, nation: str, target: str, at: str = "") -> list[Problem]:
    info = pos.scenario.nations.get(target)
    out: list[Problem] = []
    if info is not None and info.influence_on_ten_only:
        out.append(warning("influence-ten", at, target=target))
    return out


# ---- influencing itself -------------------------------------------------------------------
def self_influence_problem(pos: Position, nation: str, toward: str | None, at: str = "") -> Problem | None:
    rules = pos.scenario.diplomacy.self_influence
    rule = rules.get(nation)
    if rule is None:  # Italy among them: its "Italian influence" is other nations' COAX (see above)
        return problem("self-influence", at, nations=sorted(rules),
                       coaxed=nation == pos.scenario.diplomacy.coax_nation)
    if pos.nation(nation).side != "neutral":
        return problem("self-influence-joined", at)
    if rule.toward and toward not in (None, rule.toward):
        return problem("influence-side", at, only=rule.toward, target=nation)
    if not rule.toward and toward is None:
        return problem("influence-side", at, only="", target=nation)
    if rule.geared and not geared_before(pos, nation):
        return problem("self-influence-gear-up", at)
    twice = once_per_turn(pos, key(nation, nation), "influence-twice", at, target=nation)
    if twice is not None:
        return twice
    return afford(pos, nation, rule.cost, "influencing your own nation")


def self_influence_remarks(pos: Position, nation: str) -> list[Problem]:
    """None: every self-influence the rules define is resolved by its section (an undefined
    one is refused). The hook the options' home calls for an option of kind self-influence."""
    return []


def self_influence_cost(pos: Position, nation: str) -> int:
    rule = pos.scenario.diplomacy.self_influence.get(nation)
    return rule.cost if rule is not None else 0


# ---- resolving them ---------------------------------------------------------------------------
def worth(pos: Position, target: str) -> int:
    """The most points a successful attempt on `target` gives (Phase 1.2, Spain, China)."""
    rules = pos.scenario.diplomacy.influence
    if target in rules.geared_points and geared(pos, target) is not None:
        return rules.geared_points[target]
    return rules.target_points.get(target, rules.points)


def referred(pos: Position, nation: str, target: str) -> bool:
    """An attempt the engine would leave to the moderator: a self-influence without a rule
    (Italy's), which the checker refuses anyway. Every other attempt it resolves."""
    return target == nation and pos.scenario.diplomacy.self_influence.get(nation) is None


def resolve_influence(ctx: TurnContext, nation: str, index: int, target: str, toward: str | None) -> None:
    """Roll an attempt of `nation` on another nation and move the points (paid already)."""
    side = toward or ctx.nation(nation).side
    info = ctx.scenario.nations.get(target)
    success = chances.diplomatic_influence(ctx.dice, bool(info and info.influence_on_ten_only))
    phase = ctx.step.section if ctx.step else PHASE  # 1.2, or 1.5 for the US option #5
    ctx.emit("influence-attempt", phase, (nation, MODERATOR), nation=nation, order=index, target=target,
             success=success)
    if success:
        amount = ctx.dice.between(0, worth(ctx, target), "influence points (Phase 1.2)")
        points.move(ctx, target, side, amount, "influence", phase)
    if ctx.nation(nation).side == "neutral" and chances.us_influence_discovered(ctx.dice):
        # US option #5: "a 1 in 10 chance (1 on D10 die) that the US Public Opinion will find
        # out about these dealings and shift 1 point towards the side the US player had not
        # tried to influence the nation towards. ... This roll is independent".
        points.move(ctx, nation, "central" if side == "allied" else "allied", 1, "influence-found-out", phase)


def resolve_self_influence(ctx: TurnContext, nation: str, index: int, toward: str | None) -> None:
    """A neutral's influence on itself, by its own section (paid already)."""
    rule = ctx.scenario.diplomacy.self_influence[nation]
    side = toward or rule.toward
    success = True
    if rule.succeeds_on:
        success = ctx.dice.d10("self-influence (the neutral's section)") >= rule.succeeds_on
    ctx.emit("influence-attempt", PHASE, (nation, MODERATOR), nation=nation, order=index, target=nation,
             success=success)
    if not success:
        return
    if china_split.split(ctx, nation):  # two blocks: each draws for its own side
        china_split.self_influence(ctx, nation, rule.points, PHASE)
        return
    amount = ctx.dice.between(0, rule.points, "self-influence points (the neutral's section)")
    points.move(ctx, nation, side, amount, "self-influence", PHASE)
    flags = ctx.state.nations[nation].flags
    if rule.split_on_two_zeros and amount == 0 and flags.get("self_influence_zero") and side:
        # China: "if China were to roll 0 twice in a row, and if still neutral, then the
        # tidings in China will cause political elements to try to join both sides"
        flags.pop("self_influence_zero", None)
        china_split.begin_split(ctx, nation, side, PHASE)
        return
    if amount == 0:
        flags["self_influence_zero"] = True
    else:
        flags.pop("self_influence_zero", None)


# ---- the home -------------------------------------------------------------------------------
class InfluenceRule(Referred[Influence]):
    order = Influence
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Influence) -> Problem | None:
        if order.target == nation:
            return self_influence_problem(pos, nation, order.toward)
        return influence_problem(pos, nation, order.target, order.toward, order.target)

    def remarks(self, pos: Position, nation: str, order: Influence) -> list[Problem]:
        if order.target == nation:
            return self_influence_remarks(pos, nation)
        return influence_remarks(pos, nation, order.target, order.target)

    def cost(self, pos: Position, nation: str, order: Influence) -> int:
        if order.target == nation:
            return self_influence_cost(pos, nation)
        return influence_cost(pos, nation)

    def reason(self, pos: Position, nation: str, order: Influence) -> str:
        return "self-influence-roll" if order.target == nation else "influence-roll"

    def record(self, ctx: TurnContext, nation: str, order: Influence) -> None:
        ctx.use(key(nation, order.target))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Influence) -> None:
        if referred(ctx, nation, order.target):
            super().execute(ctx, nation, index, order)
            return
        self.commit(ctx, nation, index, order)  # paid, and the attempt of the turn used
        if order.target == nation:
            resolve_self_influence(ctx, nation, index, order.toward)
        else:
            resolve_influence(ctx, nation, index, order.target, order.toward)


RULE = InfluenceRule()
