"""Phase 2: Technology.

2.1: the RESEARCH order's home (engine/orders/research.py) charges and rolls each
attempt; a success is recorded for the nation and those who share its knowledge, theirs
from Phase 7 (engine/technology.py, step 7.2). 2.2: the UPGRADE order's home
(engine/orders/upgrade.py) charges the upgrade; the units have it from Phase 7 (step
7.0). What each level changes in a unit is technologies.toml, read by technology.stats.
"""

from __future__ import annotations

from moderator.engine.context import TurnContext


def research(ctx: TurnContext) -> None:
    """Phase 2.1: the step has no work of its own; each attempt is rolled by its home."""
