"""Hits shared among the nations of one side by strength (Phase 4 guideline 2: "casualties
are divided by the strength of each nation's units"), for land and naval battles alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def share(hits: int, strength: Mapping[str, int], count: Mapping[str, int]) -> dict[str, int]:
    """Hits split by each nation's share of the side's total (largest remainder, ties by
    nation id), never more than a nation has; what one cannot take goes to the others."""
    nations = sorted(strength)
    hits = min(hits, sum(count.values()))
    total = sum(strength.values())
    if len(nations) <= 1 or total == 0:
        return {n: min(hits, count[n]) for n in nations} if len(nations) <= 1 else _even(hits, nations, count)
    quota = {n: hits * strength[n] // total for n in nations}
    for n in sorted(nations, key=lambda n: (-(hits * strength[n] % total), n))[: hits - sum(quota.values())]:
        quota[n] += 1
    overflow = sum(max(0, quota[n] - count[n]) for n in nations)
    quota = {n: min(quota[n], count[n]) for n in nations}
    for n in nations:
        extra = min(overflow, count[n] - quota[n])
        quota[n] += extra
        overflow -= extra
    return quota


def _even(hits: int, nations: Sequence[str], count: Mapping[str, int]) -> dict[str, int]:
    return share(hits, {n: 1 for n in nations}, count)
