"""What an order a bot writes costs: its home's price, so the bot's budget is the money it
has left. The checker pays a draft's orders in the order of the turn's steps (research in
Phase 2.1, builds in 3.1, incorporations in 6), not in the order the plays wrote them: an
order priced lower than its home's price leaves the budget too high, and the checker then
refuses whichever later-paid order the money no longer covers (an incorporation for a
research priced at a guess)."""

from __future__ import annotations

from moderator.bots.options import Seat
from moderator.engine.orders import espionage, incorporate, neutrals, repair, ship_gear, trenches, upgrade
from moderator.engine.orders import research as research_home
from moderator.engine.orders.special_options import spec_for
from moderator.orders import model as m
from moderator.world.scenario_model import OptionRule


def price(s: Seat, o: m.Order, rough: int) -> int:
    """What the order costs, from its home where the home says (its cost(), or the price
    function its problem() and commit() use), else `rough`, the play's own guess."""
    rule = s.ruleset.rule_for_type(type(o))
    home_cost = getattr(rule, "cost", None)
    if isinstance(o, m.SpecialOption) and not isinstance(spec_for(s.position, s.nation, o), OptionRule):
        home_cost = None
    if home_cost is not None:
        return int(home_cost(s.position, s.nation, o))
    if isinstance(o, m.Research):
        return research_home.price(s.position, s.nation, o.tech)
    if isinstance(o, m.Espionage):
        return espionage.FEES[o.kind]
    if isinstance(o, m.CounterEspionage):
        return espionage.COUNTER_FEE
    if isinstance(o, m.Upgrade):
        return upgrade.price(s.position, s.nation, o.kind) or rough
    if isinstance(o, m.Gift):
        return o.amount
    if isinstance(o, m.Incorporate):
        return incorporate.cost(s.position, s.nation, o.territory)
    if isinstance(o, m.Repair):
        return repair.cost(o)
    if isinstance(o, m.GearUp):
        return neutrals.gear_up_cost(s.position, s.nation)
    if isinstance(o, m.BuildShipGear):
        return ship_gear.price(s.position, s.nation, o.kind)
    if isinstance(o, m.BuildHomeTrenches):
        return trenches.home_rule(s.position)[1]
    if isinstance(o, m.BuildTrench):
        return trenches.unit_price(s.position, s.nation, trenches.SUPER_TRENCH if o.super else trenches.TRENCH)
    return rough
