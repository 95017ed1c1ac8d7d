"""Who fights side by side in one step of Phase 4 ("Cooperation": allied nations attack
together; Phase 4 guideline 2: one battle, casualties shared by strength).

Both the land battles (phase4_land.groups) and the flights through one place
(air_passage.camps) split their participants into camps the same way: by alliance, in
the order of nation id and then the participant's own key, so the result never depends
on the order of lines in a mail. Where camps not allied to each other must come one after
the other (the fighters over a place meet one camp at a time; three attackers not allied
clash two by two), the order is drawn by lot (by_lot), so that no nation's id decides.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from moderator.engine.dice import Dice
from moderator.engine.state import GameState

T = TypeVar("T")


def by_alliance(state: GameState, items: Iterable[T], nation: Callable[[T], str],
                key: Callable[[T], Any]) -> list[list[T]]:
    """`items` grouped by alliance: each camp led by its lowest nation id, then by `key`."""
    camps: list[list[T]] = []
    for item in sorted(items, key=lambda i: (nation(i), key(i))):
        for camp in camps:
            if state.allies(nation(camp[0]), nation(item)):
                camp.append(item)
                break
        else:
            camps.append([item])
    return camps


def by_lot(dice: Dice, camps: list[list[T]], name: Callable[[list[T]], str], purpose: str) -> list[list[T]]:
    """`camps` in an order drawn by lot: one logged pick among the camps left ("<purpose>:
    a or b or c"), then the next, until one is left. The rules give no camp precedence, and
    a fixed order (nation ids) would favour some nations over others every time."""
    left, drawn = list(camps), []
    while len(left) > 1:
        pick = dice.pick(list(range(len(left))), f"{purpose}: {' or '.join(name(c) for c in left)}")
        drawn.append(left.pop(pick))
    return drawn + left
