"""Manpower limits (section "Manpower limits" under Infantry).

"Once a nation has built as many total infantry units as its manpower limit represents
... all infantry units purchased after that point cost twice as much as normal", and a
turn in which such infantry are bought risks mutinies (Phase 9). The limit counts every
infantry unit built since the start. A limit of 0 means no infantry at normal cost.
A nation may share another's pool (the Bolsheviks' infantry "count against Russia's
total manpower limit"): scenario field Nation.manpower_pool.
"""

from __future__ import annotations

from moderator.engine.context import Position


def pool(pos: Position, nation: str) -> str:
    n = pos.scenario.nations.get(nation)
    return n.manpower_pool if n is not None and n.manpower_pool else nation


def normal_left(pos: Position, nation: str) -> int:
    """Infantry the nation can still buy at normal cost, after this turn's earlier builds."""
    owner = pool(pos, nation)
    ns = pos.nation(owner)
    bought = sum(b.count for b in pos.builds if b.kind == "infantry" and pool(pos, b.nation) == owner)
    return max(0, ns.manpower_limit - ns.infantry_built - bought)


def infantry_prices(pos: Position, nation: str, base: int, count: int) -> list[int]:
    """The price of each infantry unit in turn: past the limit, twice the normal cost."""
    left = normal_left(pos, nation)
    return [base if i < left else 2 * base for i in range(count)]


def count_built(pos: Position, nation: str) -> int:
    """What placing infantry adds to: the pool's infantry_built."""
    return pos.nation(pool(pos, nation)).infantry_built
