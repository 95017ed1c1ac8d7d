"""Cost of applying a new technology to units already deployed (Phase 2.1).

Rules, Phase 2.1: "nation must spend difference between new cost and old cost of units
and 10% of new value (rounded up) of units for each unit already deployed".
"""

from __future__ import annotations


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
