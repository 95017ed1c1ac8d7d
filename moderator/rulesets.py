"""The rulesets this moderator can play, registered here and nowhere else.

To plug in a second game, build its Ruleset (moderator/engine/ruleset.py; the War to
End All Wars' is moderator/engine/wtea.py) and add it to _installed() below; scenarios
name their ruleset in scenario.toml (`ruleset = "..."`). docs/architecture.md walks
through it step by step.
"""

from __future__ import annotations

import functools

from moderator.engine.ruleset import Registry, Ruleset

DEFAULT = "wtea-1914"


class Installed(Registry):
    def default(self) -> Ruleset:
        return self.get(DEFAULT)


def _installed() -> list[Ruleset]:
    from moderator.engine import wtea

    return [wtea.ruleset()]


@functools.lru_cache(maxsize=1)
def registry() -> Installed:
    return Installed(_installed())
