"""What is worked out once per map or scenario.

A loaded map (World) or scenario never changes, and many questions the engine asks every
turn (a place's value, its land neighbours, the objectives by nation) depend on nothing
else: their answers are kept per map or scenario, keyed by its id. The entry holds the map
or scenario itself, so its id cannot be reused while the entry lives, and a hit is checked
to be the very same object. A cache holds a few maps at most (tests load many): past
`limit` entries it starts again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

Owner = TypeVar("Owner")
Answer = TypeVar("Answer")


def once_per(cache: dict[int, tuple[Any, Answer]], owner: Owner, build: Callable[[Owner], Answer],
             limit: int = 64) -> Answer:
    """`build(owner)`, worked out once per `owner` (a map or a scenario) and kept in `cache`."""
    hit = cache.get(id(owner))
    if hit is None or hit[0] is not owner:
        if len(cache) > limit:
            cache.clear()
        hit = cache[id(owner)] = (owner, build(owner))
    return hit[1]
