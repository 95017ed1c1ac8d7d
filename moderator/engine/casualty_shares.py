"""Hits shared among the nations of one side by strength (Phase 4 guideline 2: "casualties
are taken by their share in attack or defense total (not number of units)"), for land, naval
and air battles alike."""

from __future__ import annotations

from collections.abc import Mapping

from moderator.engine.dice import Dice


def share(hits: int, strength: Mapping[str, int], count: Mapping[str, int],
          dice: Dice | None = None, purpose: str = "odd hit") -> dict[str, int]:
    """Hits split by each nation's share of the side's total (largest remainder), never more
    than a nation has.

    Guideline 2 does not say who takes a hit left over when nations' remainders are equal
    (two allies of equal strength and an odd number of hits): it is drawn by lot, one logged
    pick per such hit ("<purpose>: a or b"), so no nation id is favoured (issue 10). The
    die is rolled only when there is such a tie; `dice` None (a caller without a battle)
    keeps the nation-id order.

    Nor does it say who takes the hits a nation cannot take (it has fewer units left than
    its share). Reading (issue 10): the guideline's own measure again, among the allies
    that still have units: the rest is shared by their strength, largest remainder, ties by
    lot, and so on until every hit is taken (among allies without strength, equally). So
    with three or more allies no nation id decides who takes the rest; with two the rest
    simply goes to the other, as before."""
    nations = sorted(strength)
    hits = min(hits, sum(count[n] for n in nations))
    taken = dict.fromkeys(nations, 0)
    sharing = nations  # the first share: the whole side's total, as the guideline says
    while hits > 0 and sharing:
        weight = {n: strength[n] for n in sharing}
        if sum(weight.values()) == 0:
            weight = dict.fromkeys(sharing, 1)  # no strength among them: equal shares
        quota = _by_weight(hits, weight, dice, purpose)
        for n, q in quota.items():
            q = min(q, count[n] - taken[n])
            taken[n] += q
            hits -= q
        sharing = [n for n in nations if taken[n] < count[n]]  # the rest: among those with units left
    return taken


def _by_weight(hits: int, weight: Mapping[str, int], dice: Dice | None, purpose: str) -> dict[str, int]:
    """Largest remainder: each its whole part of hits * weight / total, the odd hits to the
    largest remainders (_odd_hits)."""
    total = sum(weight.values())
    quota = {n: hits * w // total for n, w in weight.items()}
    for n in _odd_hits(hits - sum(quota.values()), {n: hits * w % total for n, w in weight.items()}, dice, purpose):
        quota[n] += 1
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
