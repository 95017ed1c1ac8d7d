"""UPGRADE unit kind (Phase 2.2: Purchase of technology; the price is Phase 2.1's).

Phase 2.1: "If the new technology is to be applied to existing units then nation must
spend difference between new cost and old cost of units and 10% of new value (rounded
up) of units for each unit already deployed ... the nation will have to purchase all
the improvements at once." Phase 2.2: "any player that successfully researched new
technologies can spend resources to upgrade units. That can occur in the same turn when
technology is obtained. However, units will not be upgraded until phase 7."

The order upgrades every deployed unit of the kind to the technology levels the nation
holds now, a level researched earlier this turn included (Phase 2.2 allows the same
turn). The costs are the scenario's: the unit's cost (units.toml) plus what each level
adds (the Advancements table's cost column, technologies.toml), each unit paying from
the levels it has (engine/technology.py: its kind's last upgrade, the start, or the
levels it was built at). The upgrade is paid when step 2.2 runs and kept aside; the
units have the new values from Phase 7 (step 7.0, technology.finish_upgrades).

An UPGRADE written after a research of the same turn is kept by the checker with an
"if-researched" note (it takes the research for a success); if the roll fails, the
engine tells the nation there was nothing to buy and charges nothing. Referred to the
moderator, with nothing charged: an UPGRADE whose cost the scenario cannot give (no
technologies.toml).
"""

from __future__ import annotations

from moderator.engine import technology
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders import research
from moderator.engine.orders.base import OrderRule, afford, once_per_turn, refer
from moderator.engine.problems import Problem, flag, problem, warning
from moderator.engine.state import Unit
from moderator.engine.technology import UPGRADING
from moderator.orders.model import Upgrade
from moderator.orders.vocab import UPGRADE_TECH
from moderator.world.scenario_model import Technology

PHASE = "2.2"
UPGRADED = technology.UPGRADED  # NationState.flags: unit kind -> {technology: level its deployed units have}


# ---- the rules' arithmetic (Phase 2.1) --------------------------------------------------


def tenth_rounded_up(value: int) -> int:
    """10% of a unit's new value, rounded up (Phase 2.1); integer arithmetic, no floats."""
    return -(-value // 10)


def upgrade_cost_per_unit(old_cost: int, new_cost: int) -> int:
    """Price to upgrade one deployed unit: cost difference plus 10% of the new cost (Phase 2.1)."""
    return (new_cost - old_cost) + tenth_rounded_up(new_cost)


def upgrade_cost(old_cost: int, new_cost: int, count: int) -> int:
    """Price to upgrade `count` deployed units at once (Phase 2.1: "all the improvements at once")."""
    if count < 0:
        raise ValueError(f"unit count {count} is negative")
    return count * upgrade_cost_per_unit(old_cost, new_cost)


# ---- the order ---------------------------------------------------------------------------


def technologies(pos: Position, kind: str) -> list[Technology]:
    """The scenario's technologies that change `kind` units."""
    return technology.technologies(pos.scenario, kind)


def levels_now(pos: Position, nation: str, kind: str) -> dict[str, int]:
    """The levels the upgrade buys: the nation's, with a level researched earlier this turn."""
    return {t.id: technology.level(pos, nation, t.id) for t in technologies(pos, kind)}


def units(pos: Position, nation: str, kind: str) -> list[Unit]:
    return [u for u in pos.state.units if u.nation == nation and u.kind == kind]


def behind(pos: Position, nation: str, kind: str) -> list[tuple[Unit, dict[str, int]]]:
    """The deployed units whose levels are below the nation's, with their levels."""
    target = levels_now(pos, nation, kind)
    out = []
    for u in units(pos, nation, kind):
        have = technology.of_kind(pos, kind, technology.unit_levels(pos, u))
        if any(have.get(t, 0) < level for t, level in target.items()):
            out.append((u, have))
    return out


def new_levels(pos: Position, nation: str, kind: str) -> dict[str, int]:
    """The levels the nation holds that its kind's deployed units (or its last upgrade,
    or its start) do not."""
    fielded = technology.fielded(pos, nation, kind)
    return {t: level for t, level in levels_now(pos, nation, kind).items() if level > fielded.get(t, 0)}


def deployed(pos: Position, nation: str, kind: str) -> int:
    return len(behind(pos, nation, kind))


def price(pos: Position, nation: str, kind: str) -> int | None:
    """What the upgrade costs now, or None when there is nothing to upgrade to. Each unit
    pays from its own levels (a unit built at the new levels pays nothing)."""
    if not technologies(pos, kind) or not (new_levels(pos, nation, kind) or behind(pos, nation, kind)):
        return None
    new = technology.values(pos.scenario, nation, kind, levels_now(pos, nation, kind))
    if new is None:
        return None
    total = 0
    for _, have in behind(pos, nation, kind):
        old = technology.values(pos.scenario, nation, kind, have)
        total += upgrade_cost(old.cost if old else new.cost, new.cost, 1)
    return total


def researched_now(pos: Position, nation: str, kind: str) -> bool:
    """A RESEARCH of a technology of this kind was attempted earlier this turn (2.1): an
    upgrade written after it is not refused when the roll failed (execute() says so)."""
    return any(pos.used(research.key_for(pos, nation, t.id)) for t in technologies(pos, kind))


def referral(pos: Position, nation: str, kind: str) -> str | None:
    """Why the upgrade goes to the moderator uncharged, or None when the engine does it."""
    if price(pos, nation, kind) is not None:
        return None
    if not technologies(pos, kind) and any(pos.tech(nation, t) for t in UPGRADE_TECH.get(kind, ())):
        return "upgrade-cost-unknown"
    return None


def key(nation: str, order: Upgrade) -> tuple[str, ...]:
    return ("upgrade", nation, order.kind)


class UpgradeRule(OrderRule[Upgrade]):
    order = Upgrade
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Upgrade) -> Problem | None:
        twice = once_per_turn(pos, key(nation, order), "upgrade-twice", kind=order.kind)
        if twice is not None:
            return twice
        cost = price(pos, nation, order.kind)
        if cost is None:
            if referral(pos, nation, order.kind) is None and not researched_now(pos, nation, order.kind):
                return problem("nothing-to-upgrade", kind=order.kind)
            return None
        return afford(pos, nation, cost, "this upgrade")

    def remarks(self, pos: Position, nation: str, order: Upgrade) -> list[Problem]:
        why = referral(pos, nation, order.kind)
        if why is not None:
            return [flag(why, kind=order.kind)]
        out = []
        assumed = [t for t in new_levels(pos, nation, order.kind) if f"tech:{nation}:{t}" in pos.assumed]
        if assumed:  # the checker took this turn's research for a success (research.assume)
            out.append(warning("if-researched", kind=order.kind, tech=assumed[0]))
        if deployed(pos, nation, order.kind) == 0:
            out.append(warning("upgrade-no-units", kind=order.kind))
        return out

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Upgrade) -> None:
        ctx.use(key(nation, order))
        cost = price(ctx, nation, order.kind)
        if cost is None:
            return  # referred: the moderator charges it; or nothing to upgrade to after all
        ctx.pay(nation, cost)
        flags = ctx.state.nations[nation].flags
        flags[UPGRADING] = {**flags.get(UPGRADING, {}), order.kind: levels_now(ctx, nation, order.kind)}

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Upgrade) -> None:
        if referral(ctx, nation, order.kind) == "upgrade-cost-unknown":
            ctx.use(key(nation, order))
            refer(ctx, nation, index, order, 0, "upgrade-cost-unknown")
            return
        cost = price(ctx, nation, order.kind)
        count = deployed(ctx, nation, order.kind)
        if cost is None:  # written after a research of this turn that failed: nothing to buy
            ctx.use(key(nation, order))
            ctx.tell(nation, "upgrade-nothing-new", PHASE, order=index, kind=order.kind)
            return
        self.commit(ctx, nation, index, order)
        ctx.tell(nation, "upgraded", PHASE, order=index, kind=order.kind, count=count, cost=cost)


RULE = UpgradeRule()
