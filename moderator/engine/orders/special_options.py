"""OPTION n [ON nation] [amount] [TOWARD side] [FULL WAR] (Phase 1.5: Special Rule Options).

"Various special diplomatic options have been listed for some major nations. Those rules
without specific definitions of when they should be played within a given game turn
should be played at this stage within a player's turn." The options of each nation are
the rules' lists (British Empire: "cannot use below options while neutral", and another
list "as Central Power"; French, Russian, German, Austro-Hungarian Empire; Japan 1-6;
US Playing Options, "while neutral"; Spain 1-3; and the moderator's numbers for the
Chinese, Ottoman and Italian ones), kept as data: scenarios/1914/diplomacy.toml
[[option]] (Scenario.diplomacy.options), each with its cost, its arguments, its limits
("once per turn", "only once") and the conditions of its rule that the position settles:
the side of the nation and of others ("only prior to Italy's entry into the war", "if
British is Allied Power"), the places it gives away or needs (Hong Kong, the Suez Canal),
the units it needs (a submarine in the Irish Sea), the gear-up on an earlier turn
(Japan: "The turn following this action"), the Russian Revolution rolls (German #6: "once
the moderator has begin to roll", scenario.toml revolution_start_turn), and those that
need code (CHECKS in engine/option_effects.py: no foreign Allied unit in Serbian land for
Austro-Hungarian #1, a port railed to Trieste for German #7). An option whose [[option]]
keeps a `review` is kept with a flag for the moderator (none in the 1914 scenario).

Options that are the same thing as another order share its rule, cost and per-turn limit:
US #1 and Chinese #1 are GEAR UP, US #5 is INFLUENCE (15 while neutral), the Spanish,
Chinese, Ottoman and Italian self-influence is INFLUENCE SELF.

The cost (and the amount given, for the gifts at full value) is charged when Phase 1.5
runs; money the rules hand to another nation at once ("The Chinese player gets to keep
the 15 money", the 5 to Serbia, the gifts at full value) arrives at once. An option
whose [[option]] names an `effect` is then resolved (engine/option_effects.py: its dice,
its points, the territory it gives, and what it moves on the map the moment it is paid:
British #1's battleship, German #7's submarine); the others are referred to the moderator
(every 1914 option has an effect or is the same as another order). The option's first use is
recorded (records.py): "only once" options, and China's influence "the following turns".
"""

from __future__ import annotations

from typing import Any

from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.option_effects import CHECKS, EFFECTS, PRICES, declare_wars, give, handed_over
from moderator.engine.orders import influence as inf
from moderator.engine.orders import neutrals
from moderator.engine.orders.base import afford, once_per_turn
from moderator.engine.orders.records import (
    Referred,
    geared,
    option_key,
    option_succeeded,
    option_used,
    record_option,
)
from moderator.engine.problems import Problem, flag, problem
from moderator.orders.model import SpecialOption
from moderator.world.scenario_model import Condition, OptionRule

PHASE = "1.5"


def spec_for(pos: Position, nation: str, order: SpecialOption) -> OptionRule | Problem:
    """The option the order names in the nation's table for the side it is on now."""
    d = pos.scenario.diplomacy
    side = pos.nation(nation).side
    table = d.options_for(nation, side)
    if not table:
        return problem("no-options", side=side if d.has_options(nation) else "")
    spec = table.get(order.number)
    if spec is None:
        return problem("unknown-option", str(order.number), number=order.number,
                       options=[f"#{n} {s.title}" for n, s in sorted(table.items())])
    return spec


def condition_problem(pos: Position, nation: str, spec: OptionRule, c: Condition) -> Problem | None:
    """Why the position does not meet one condition of the option's rule, or None."""
    about: dict[str, Any] = {"number": spec.number, "title": spec.title}
    if c.side:
        who = c.of or nation
        side = pos.nation(who).side
        if not (side != "neutral" if c.side == "war" else side == c.side):
            return problem("option-side", **about, nation=who, side=c.side, own=who == nation)
    if c.holds and pos.controller(c.holds) != nation:
        return problem("option-holds", **about, place=c.holds)
    if c.unit:
        places = [c.at] if c.at else sorted({u.location for u in pos.state.nation_units(nation)})
        if not any(pos.count(nation, p, c.unit) for p in places):
            return problem("option-unit", **about, kind=c.unit, place=c.at)
    if c.held_by:
        holder = pos.controller(c.at)
        side = pos.nation(holder).side if holder else ""
        if not holder or not (side != "neutral" if c.held_by == "war" else side == c.held_by):
            return problem("option-held", **about, place=c.at, side=c.held_by)
    if c.war and not pos.at_war(nation, c.war):
        return problem("option-war", **about, target=c.war)
    if c.peace and pos.at_war(nation, c.peace):
        return problem("option-peace", **about, target=c.peace)
    if c.geared:
        turn = geared(pos, nation)
        if turn is None or (c.geared == "earlier" and turn >= pos.turn):
            return problem("option-gear-up", **about, this_turn=turn == pos.turn, earlier=c.geared == "earlier")
    if c.revolution and pos.turn < pos.scenario.revolution_start_turn:
        return problem("option-too-early", **about, turn=pos.scenario.revolution_start_turn)
    if c.unsettled and (turn := option_succeeded(pos, nation, spec.number)) is not None:
        return problem("option-settled", **about, turn=turn)
    if c.used:
        turn = option_used(pos, nation, c.used)
        if turn is None or turn >= pos.turn:
            return problem("option-needs-option", **about, option=c.used)
    return None


def target_problem(pos: Position, nation: str, spec: OptionRule, order: SpecialOption) -> Problem | None:
    if order.target is None or not (spec.target_side or spec.target_kind):
        return None
    side = pos.nation(order.target).side
    info = pos.scenario.nations.get(order.target)
    wrong_side = (spec.target_side == "neutral" and side != "neutral") or (spec.target_side == "war" and side == "neutral")
    wrong_kind = bool(spec.target_kind) and (info is None or info.kind != spec.target_kind)
    if order.target == nation or wrong_side or wrong_kind:
        return problem("option-target", order.target, number=spec.number, title=spec.title, target=order.target,
                       side=spec.target_side, kind=spec.target_kind)
    return None


def cost(pos: Position, nation: str, spec: OptionRule, order: SpecialOption) -> int:
    if spec.kind == "gear-up":
        return neutrals.gear_up_cost(pos, nation)
    if spec.kind == "self-influence":
        return inf.self_influence_cost(pos, nation)
    if spec.kind == "influence":
        return inf.influence_cost(pos, nation)
    price = PRICES[spec.effect](pos, nation, order, spec) if spec.effect in PRICES else 0  # German #7: the sub's
    return spec.cost + price + ((order.amount or 0) if spec.amount_spent else 0) + (spec.full_cost if order.full else 0)


class SpecialOptionRule(Referred[SpecialOption]):
    order = SpecialOption
    section = PHASE

    def problem(self, pos: Position, nation: str, order: SpecialOption) -> Problem | None:
        spec = spec_for(pos, nation, order)
        if isinstance(spec, Problem):
            return spec
        about: dict[str, Any] = {"number": spec.number, "title": spec.title}
        if order.full and not spec.full_cost:
            return problem("option-full", **about)
        for need in spec.needs:
            if getattr(order, need) is None:
                return problem("option-args", **about, need=need)
        for c in spec.full_requires if order.full else spec.requires:
            why = condition_problem(pos, nation, spec, c)
            if why is not None:
                return why
        why = target_problem(pos, nation, spec, order)
        if why is not None:
            return why
        if order.place is not None and order.place not in spec.places:
            return problem("option-place", order.place, **about, place=order.place, places=list(spec.places))
        if spec.amount_min and (order.amount or 0) < spec.amount_min:
            return problem("option-amount", **about, minimum=spec.amount_min)
        if spec.effect in CHECKS and (why := CHECKS[spec.effect](pos, nation, order, spec)) is not None:
            return why
        if spec.once == "game" and (used := option_used(pos, nation, spec.number)) is not None:
            return problem("option-once", **about, turn=used)
        if spec.once == "turn":
            twice = once_per_turn(pos, option_key(nation, spec.number), "option-twice", **about)
            if twice is not None:
                return twice
        if spec.kind == "gear-up":
            return neutrals.gear_up_problem(pos, nation)
        if spec.kind == "self-influence":
            return inf.self_influence_problem(pos, nation, order.toward)
        if spec.kind == "influence":
            assert order.target is not None
            return inf.influence_problem(pos, nation, order.target, order.toward, order.target)
        return afford(pos, nation, cost(pos, nation, spec, order), f"option #{spec.number} ({spec.title})")

    def remarks(self, pos: Position, nation: str, order: SpecialOption) -> list[Problem]:
        spec = spec_for(pos, nation, order)
        assert isinstance(spec, OptionRule)
        out = [flag("review", why=spec.review)] if spec.review else []
        if spec.kind == "self-influence":
            out += inf.self_influence_remarks(pos, nation)
        if spec.kind == "influence" and order.target is not None:
            out += inf.influence_remarks(pos, nation, order.target, order.target)
        return out

    def cost(self, pos: Position, nation: str, order: SpecialOption) -> int:
        spec = spec_for(pos, nation, order)
        assert isinstance(spec, OptionRule)
        return cost(pos, nation, spec, order)

    def reason(self, pos: Position, nation: str, order: SpecialOption) -> str:
        spec = spec_for(pos, nation, order)
        assert isinstance(spec, OptionRule)
        return {"gear-up": "gear-up-income", "self-influence": "self-influence-roll",
                "influence": "influence-roll"}.get(spec.kind, "option-effect")

    def paid_on(self, pos: Position, nation: str, order: SpecialOption) -> tuple[str, int] | None:
        spec = spec_for(pos, nation, order)
        assert isinstance(spec, OptionRule)
        to = order.target if spec.receiver == "target" else spec.receiver
        if not to:
            return None
        return to, spec.received + ((order.amount or 0) if spec.amount_spent else 0)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: SpecialOption) -> None:
        """Options that are the same thing as GEAR UP or INFLUENCE (SELF) are resolved as
        those are (paid, then the new income, or the roll and the points); those with an
        effect by engine/option_effects.py; the rest are referred."""
        spec = spec_for(ctx, nation, order)
        assert isinstance(spec, OptionRule)
        if spec.kind == "gear-up":
            self.commit(ctx, nation, index, order)  # paid and recorded: the new income rule
            neutrals.tell_geared(ctx, nation, index, self.cost(ctx, nation, order))
            return
        if spec.kind == "self-influence" and not inf.referred(ctx, nation, nation):
            self.commit(ctx, nation, index, order)
            inf.resolve_self_influence(ctx, nation, index, order.toward)
            return
        if spec.kind == "influence" and order.target is not None and not inf.referred(ctx, nation, order.target):
            self.commit(ctx, nation, index, order)
            inf.resolve_influence(ctx, nation, index, order.target, order.toward)
            return
        if spec.effect in EFFECTS:
            self.settle(ctx, nation, index, order)
            outcome = EFFECTS[spec.effect](ctx, nation, order, spec)
            ctx.emit("option-outcome", PHASE, (nation, MODERATOR), nation=nation, order=index, number=spec.number,
                     title=spec.title, outcome=outcome, cost=self.cost(ctx, nation, order))
            return
        super().execute(ctx, nation, index, order)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: SpecialOption) -> None:
        super().commit(ctx, nation, index, order)
        spec = spec_for(ctx, nation, order)
        assert isinstance(spec, OptionRule)
        give(ctx, nation, spec.gives, spec.receiver)  # "give the territory of Hong Kong back to China"
        handed_over(ctx, nation, order, spec)  # British #1's battleship, German #7's submarine
        declare_wars(ctx, nation, order, spec)  # Japan's and Spain's wars without a roll

    def record(self, ctx: TurnContext, nation: str, order: SpecialOption) -> None:
        spec = spec_for(ctx, nation, order)
        assert isinstance(spec, OptionRule)
        record_option(ctx, nation, spec.number)
        ctx.use(option_key(nation, spec.number))  # played this turn (once_per_turn reads it; German #5)
        if spec.kind == "gear-up":
            neutrals.record_gear_up(ctx, nation)
        elif spec.kind == "self-influence":
            ctx.use(inf.key(nation, nation))
        elif spec.kind == "influence" and order.target is not None:
            ctx.use(inf.key(nation, order.target))


RULE = SpecialOptionRule()
