"""Who fights side by side in one step of Phase 4 ("Cooperation": allied nations attack
together; Phase 4 guideline 2: one battle, casualties shared by strength).

Both the land battles (phase4_land.groups) and the flights through one place
(air_passage.camps) split their participants into camps the same way: by alliance, in
the order of nation id and then the participant's own key, so the result never depends
on the order of nations or of lines in a mail.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

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
