"""The major neutrals' own orders: GEAR UP, COAX Italy, JOIN side (Neutrals and the
neutrals' sections).

GEAR UP (Phase 1.5; also US option #1 and the Chinese option #1): Japan "may spend 25
resources to gear up its war industries"; the US "may spend 40 resources at any time to
gear up its war spending"; China "must pay 15 resources to gear up its war time economy"
before a limited war; Spain "spends 40 resources, she can boost economy". Costs and the
income that follows: scenarios/1914/diplomacy.toml [gear_up]. Once: a geared-up economy
stays so. The turn is recorded (records.py): Japan's war options come "the turn following
this action", Spain's and China's self-influence after it. Charged when 1.5 runs; the
nation's income rule becomes the gear-up's at once (NationState.income_rule, read by
Phase 8 through neutral_income.income_rule: the new income is this turn's). Reading:
China's "60% ... while engaged in any limited war" is its raised economy for good ("only
if the economy is raised to 60% of full income", "China collects 60% of full income until
they enter the main war").

COAX Italy (Phase 1.2, Italy): "Any nation may spend 20 resources for a 10% chance (1 on
D10 die) to coax Italy to switch its affiliation prior to it actually entering the war
... Italy gets to keep the 20 resources." Reading: one attempt per nation per turn, as
every other influence attempt (Phase 1.2). The 20 reach Italy at once; the 1 on a D10 is
rolled, and the successes are weighed after all the attempts (phase1_diplomacy.coaxing):
"Nations which belong to the side Italy is leaning towards may also spend the money for
an attempt (at 10%) to block a successful attempt made by the opposing side".

JOIN side (Phase 1.5, Neutrals): "All neutrals, except Japan and British Empire, must
collect 10 points for one side or another to be able to declare themselves as a member
of Central Powers or Allied Powers"; "If she is below 10 points, neutral nation cannot
join main war by will until 10 points are reached again". Judged on the points as the
turn began (engine/points.py ready_to_join; China: "can join the main war at will in the
following turn"); Japan and the British Empire join without points (diplomacy.toml
[wars] join_without_points); the British Empire's entry without a cause from the list of
the side it joins is unprovoked (engine/british_entry.py: the receipt warns, the
neutrals answer it). Refused: a nation already in the main
war; the Ottomans and China "engaged in a minor war" ("can not enter the primary war"); a
dominion, which follows the British Empire ("nor they can join the main war without
British Empire"). The joining itself (and the dominions following): engine/wars.py join.
"""

from __future__ import annotations

from moderator.engine import british_entry, chances, wars
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford, once_per_turn
from moderator.engine.orders.records import Referred, geared, record
from moderator.engine.points import ready_to_join
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import CoaxItaly, GearUp, JoinSide

PHASE = "1.5"
COAXED = "coaxed-by"  # ctx.done key: (COAXED, side) for every successful coaxing of the turn
COAX_PHASE = "1.2"


# ---- gear-up (shared with the options that are the same thing) --------------------------
def gear_up_problem(pos: Position, nation: str) -> Problem | None:
    table = pos.scenario.diplomacy.gear_up
    rule = table.get(nation)
    if rule is None:
        return problem("no-gear-up", nations=sorted(table))
    done = geared(pos, nation)
    if done is not None:
        return problem("already-geared", turn=done)
    return afford(pos, nation, rule.cost, "gearing up")


def gear_up_cost(pos: Position, nation: str) -> int:
    rule = pos.scenario.diplomacy.gear_up.get(nation)
    return rule.cost if rule is not None else 0


def record_gear_up(ctx: TurnContext, nation: str) -> None:
    record(ctx, nation, "geared_up", ctx.turn)
    rule = ctx.scenario.diplomacy.gear_up.get(nation)
    if rule is not None and rule.income_rule:
        ctx.state.nations[nation].income_rule = rule.income_rule


def gear_up(ctx: TurnContext, nation: str, index: int) -> None:
    """The gear-up's whole effect: paid, recorded, the new income rule, told to the nation
    alone (Neutrals: what affects a major neutral is known only to it)."""
    cost = gear_up_cost(ctx, nation)
    ctx.pay(nation, cost)
    record_gear_up(ctx, nation)
    tell_geared(ctx, nation, index, cost)


def tell_geared(ctx: TurnContext, nation: str, index: int, cost: int) -> None:
    if not ctx.checking:
        ctx.tell(nation, "geared-up", PHASE, order=index, cost=cost, rule=ctx.state.nations[nation].income_rule)


class GearUpRule(OrderRule[GearUp]):
    order = GearUp
    section = PHASE

    def problem(self, pos: Position, nation: str, order: GearUp) -> Problem | None:
        return gear_up_problem(pos, nation)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: GearUp) -> None:
        gear_up(ctx, nation, index)


# ---- coax Italy --------------------------------------------------------------------------------
class CoaxItalyRule(Referred[CoaxItaly]):
    order = CoaxItaly
    section = COAX_PHASE

    def problem(self, pos: Position, nation: str, order: CoaxItaly) -> Problem | None:
        d = pos.scenario.diplomacy
        italy = d.coax_nation
        if not italy or italy not in pos.state.nations or italy == nation:
            return problem("coax-not-italy")
        if pos.nation(italy).side != "neutral":
            return problem("coax-not-neutral", target=italy)
        twice = once_per_turn(pos, (nation, "coax"), "coax-twice", target=italy)
        if twice is not None:
            return twice
        return afford(pos, nation, d.coax_cost, f"coaxing {pos.nation_name(italy)}")

    def cost(self, pos: Position, nation: str, order: CoaxItaly) -> int:
        return pos.scenario.diplomacy.coax_cost

    def paid_on(self, pos: Position, nation: str, order: CoaxItaly) -> tuple[str, int] | None:
        d = pos.scenario.diplomacy
        return (d.coax_paid_to, d.coax_cost) if d.coax_paid_to else None

    def record(self, ctx: TurnContext, nation: str, order: CoaxItaly) -> None:
        ctx.use((nation, "coax"))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: CoaxItaly) -> None:
        """Paid (Italy keeps the 20), then the 1 in 10; what the successes do together is
        the step's work after every attempt (phase1_diplomacy.coaxing): a success blocks
        or is blocked by the other side's."""
        self.settle(ctx, nation, index, order)
        italy = ctx.scenario.diplomacy.coax_nation
        success = chances.coax_italy(ctx.dice)
        ctx.emit("influence-attempt", COAX_PHASE, (nation, MODERATOR), nation=nation, order=index, target=italy,
                 success=success)
        if success and ctx.nation(nation).side in ("allied", "central"):
            ctx.use((COAXED, ctx.nation(nation).side))


# ---- join a side ---------------------------------------------------------------------------------
class JoinSideRule(OrderRule[JoinSide]):
    order = JoinSide
    section = PHASE

    def problem(self, pos: Position, nation: str, order: JoinSide) -> Problem | None:
        me = pos.nation(nation)
        if me.side != "neutral":
            return problem("already-joined", side=me.side)
        info = pos.scenario.nations.get(nation)
        parent = info.parent if info is not None else None
        if parent and pos.nation(parent).side != order.side:
            return problem("join-with-parent", parent=parent, side=order.side)
        if nation in pos.scenario.diplomacy.no_join_in_local_war:
            local = sorted(e for e in me.at_war_with if pos.nation(e).side == "neutral")
            if local:
                return problem("join-in-local-war", enemy=local[0])
        if nation not in pos.scenario.diplomacy.join_without_points and ready_to_join(pos, nation, order.side) != order.side:
            return problem("join-points", side=order.side, standing=pos.standing_at_start.get(nation, me.standing))
        return None  # a second JOIN meets "already-joined": the first has made the nation a member

    def remarks(self, pos: Position, nation: str, order: JoinSide) -> list[Problem]:
        if nation == british_entry.BRITAIN and not british_entry.provoked(pos, order.side):
            return [warning("join-unprovoked", side=order.side)]  # allowed: the neutrals answer it
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: JoinSide) -> None:
        by_will = nation in ctx.scenario.diplomacy.join_without_points
        wars.join(ctx, nation, order.side, PHASE, why="by-its-rules" if by_will else "points")


GEAR_UP = GearUpRule()
COAX = CoaxItalyRule()
JOIN = JoinSideRule()
RULES = (COAX, GEAR_UP, JOIN)
