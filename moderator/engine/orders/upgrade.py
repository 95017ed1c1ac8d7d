"""UPGRADE unit kind (Phase 2.2: Purchase of technology; the price is Phase 2.1's).

Phase 2.1: "If the new technology is to be applied to existing units then nation must
spend difference between new cost and old cost of units and 10% of new value (rounded
up) of units for each unit already deployed ... the nation will have to purchase all
the improvements at once." Phase 2.2: "any player that successfully researched new
technologies can spend resources to upgrade units. That can occur in the same turn when
technology is obtained. However, units will not be upgraded until phase 7."

The order upgrades every deployed unit of the kind to the technology levels the nation
holds now. The costs are the scenario's: the unit's cost (units.toml) plus what each
level adds (the Advancements table's cost column, technologies.toml). The levels the
units have are the ones the nation's last UPGRADE of that kind paid for, kept in
NationState.flags["upgraded"], or the nation's starting levels (Initial Deployment:
the starting units come with the starting technology). The upgrade is paid when step
2.2 runs and recorded at once; the engine's unit statistics do not depend on
technology yet, so nothing else changes in Phase 7.

Referred to the moderator, with nothing charged: an UPGRADE whose cost the scenario
cannot give (no technologies.toml), and an UPGRADE to a technology researched this turn
(the research roll is the moderator's, after the turn: Phase 2.2 allows the same turn).
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford, once_per_turn, refer
from moderator.engine.problems import Problem, flag, problem, warning
from moderator.orders.model import Upgrade
from moderator.orders.vocab import UPGRADE_TECH
from moderator.world.scenario_model import Technology

PHASE = "2.2"
UPGRADED = "upgraded"  # NationState.flags: unit kind -> {technology: level its deployed units have}


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
    """The scenario's technologies that change `kind` units (a cost entry for the kind)."""
    return [t for _, t in sorted(pos.scenario.technologies.items()) if kind in t.cost]


def levels_now(pos: Position, nation: str, kind: str) -> dict[str, int]:
    return {t.id: pos.tech(nation, t.id) for t in technologies(pos, kind)}


def levels_deployed(pos: Position, nation: str, kind: str) -> dict[str, int]:
    """The levels the nation's deployed `kind` units have: its last upgrade, or the start."""
    paid = pos.nation(nation).flags.get(UPGRADED, {}).get(kind)
    if paid is not None:
        return {str(t): int(level) for t, level in paid.items()}
    start = pos.scenario.nations.get(nation)
    return dict(start.tech) if start is not None else {}


def unit_cost(pos: Position, nation: str, kind: str, levels: dict[str, int]) -> int | None:
    stats = pos.stats(nation, kind)
    if stats is None:
        return None
    return stats.cost + sum(t.cost_change(kind, levels.get(t.id, 0)) for t in technologies(pos, kind))


def new_levels(pos: Position, nation: str, kind: str) -> dict[str, tuple[int, int]]:
    """technology -> (the units' level, the nation's level), where the nation is ahead."""
    have = levels_deployed(pos, nation, kind)
    return {t: (have.get(t, 0), level) for t, level in levels_now(pos, nation, kind).items()
            if level > have.get(t, 0)}


def deployed(pos: Position, nation: str, kind: str) -> int:
    return sum(1 for u in pos.state.units if u.nation == nation and u.kind == kind)


def price(pos: Position, nation: str, kind: str) -> int | None:
    """What the upgrade costs now, or None if the scenario cannot say (no technology data)."""
    if not technologies(pos, kind) or not new_levels(pos, nation, kind):
        return None
    old = unit_cost(pos, nation, kind, levels_deployed(pos, nation, kind))
    new = unit_cost(pos, nation, kind, levels_now(pos, nation, kind))
    if old is None or new is None:
        return None
    return upgrade_cost(old, new, deployed(pos, nation, kind))


def researched_now(pos: Position, nation: str, kind: str) -> bool:
    """A RESEARCH of a technology of this kind was attempted earlier this turn (2.1)."""
    techs = {t.id for t in technologies(pos, kind)} | set(UPGRADE_TECH.get(kind, ()))
    return any(pos.used(("research", nation, t)) for t in techs)


def referral(pos: Position, nation: str, kind: str) -> str | None:
    """Why the upgrade goes to the moderator uncharged, or None when the engine does it."""
    if price(pos, nation, kind) is not None:
        return None
    if not technologies(pos, kind) and any(pos.tech(nation, t) for t in UPGRADE_TECH.get(kind, ())):
        return "upgrade-cost-unknown"
    if researched_now(pos, nation, kind):
        return "upgrade-after-research"
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
            if referral(pos, nation, order.kind) is None:
                return problem("nothing-to-upgrade", kind=order.kind)
            return None
        return afford(pos, nation, cost, "this upgrade")

    def remarks(self, pos: Position, nation: str, order: Upgrade) -> list[Problem]:
        why = referral(pos, nation, order.kind)
        if why is not None:
            return [flag(why, kind=order.kind)]
        if deployed(pos, nation, order.kind) == 0:
            return [warning("upgrade-no-units", kind=order.kind)]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Upgrade) -> None:
        ctx.use(key(nation, order))
        cost = price(ctx, nation, order.kind)
        if cost is None:
            return  # referred: the moderator charges it
        ctx.pay(nation, cost)
        flags = ctx.state.nations[nation].flags
        flags[UPGRADED] = {**flags.get(UPGRADED, {}), order.kind: levels_now(ctx, nation, order.kind)}

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Upgrade) -> None:
        why = referral(ctx, nation, order.kind)
        if why == "upgrade-cost-unknown":
            ctx.use(key(nation, order))
            refer(ctx, nation, index, order, 0, "upgrade-cost-unknown")
            return
        if why == "upgrade-after-research":
            ctx.use(key(nation, order))
            refer(ctx, nation, index, order, 0, "upgrade-after-research")
            return
        cost = price(ctx, nation, order.kind) or 0
        self.commit(ctx, nation, index, order)
        ctx.tell(nation, "upgraded", PHASE, order=index, kind=order.kind, count=deployed(ctx, nation, order.kind),
                 cost=cost)


RULE = UpgradeRule()
