"""Hits shared among the nations of one side by strength (Phase 4 guideline 2: "casualties
are taken by their share in attack or defense total (not number of units)"), for land, naval
and air battles alike."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from moderator.engine.dice import Dice


def share(hits: int, strength: Mapping[str, int], count: Mapping[str, int],
          dice: Dice | None = None, purpose: str = "odd hit") -> dict[str, int]:
    """Hits split by each nation's share of the side's total (largest remainder), never more
    than a nation has; what one cannot take goes to the others.

    Guideline 2 does not say who takes a hit left over when nations' remainders are equal
    (two allies of equal strength and an odd number of hits): it is drawn by lot, one logged
    pick per such hit ("<purpose>: a or b"), so no nation id is favoured (issue 10). The
    die is rolled only when there is such a tie; `dice` None (a caller without a battle)
    keeps the nation-id order."""
    nations = sorted(strength)
    hits = min(hits, sum(count.values()))
    total = sum(strength.values())
    if len(nations) <= 1 or total == 0:
        return {n: min(hits, count[n]) for n in nations} if len(nations) <= 1 else _even(hits, nations, count,
                                                                                         dice, purpose)
    quota = {n: hits * strength[n] // total for n in nations}
    for n in _odd_hits(hits - sum(quota.values()), {n: hits * strength[n] % total for n in nations}, dice, purpose):
        quota[n] += 1
    overflow = sum(max(0, quota[n] - count[n]) for n in nations)
    quota = {n: min(quota[n], count[n]) for n in nations}
    for n in nations:
        extra = min(overflow, count[n] - quota[n])
        quota[n] += extra
        overflow -= extra
    return quota


def _odd_hits(extra: int, remainder: Mapping[str, int], dice: Dice | None, purpose: str) -> list[str]:
    """The `extra` nations with the largest remainders; among equal remainders at the cut, by lot."""
    ranked = sorted(remainder, key=lambda n: (-remainder[n], n))
    if extra <= 0 or extra >= len(ranked) or dice is None:
        return ranked[:max(extra, 0)]
    cut = remainder[ranked[extra - 1]]
    if remainder[ranked[extra]] != cut:
        return ranked[:extra]  # no tie at the cut: no die
    sure = [n for n in ranked if remainder[n] > cut]
    tied = [n for n in ranked if remainder[n] == cut]
    for _ in range(extra - len(sure)):
        sure.append(tied.pop(dice.pick(list(range(len(tied))), f"{purpose}: {' or '.join(tied)}")))
    return sure


def _even(hits: int, nations: Sequence[str], count: Mapping[str, int], dice: Dice | None,
          purpose: str) -> dict[str, int]:
    return share(hits, {n: 1 for n in nations}, count, dice, purpose)
