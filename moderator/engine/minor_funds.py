"""The money of a non-player minor (Phase 8 note): the moderator spends it.

Phase 8 note: "All non player minor nations would collect 25% (rounded up) of full
resource value per turn. Moderator will spend that money for defense purpose whenever he
founds apropriate." The rules give the spending to the moderator's judgement, so the engine
never spends it on its own; it keeps it in the minor's treasury (a player seated on the
minor later finds it there). Reading (docs/rules-coverage.md, Phase 8): so that the money
is not forgotten, the moderator is told once, when the treasury of a seatless minor at
peace (at war the note replaces it "with human player", who spends it) first reaches the
price of one of its infantry (`minor-funds`, one flag a turn naming every
such minor); it is told again only after the treasury fell below that price (the
moderator spent it) and reached it once more. The moderator spends it with the minor's own
orders (`moderator enter --nation <minor>`: BUILD ... for its defence).
"""

from __future__ import annotations

from collections.abc import Mapping

from moderator.engine import points
from moderator.engine.context import TurnContext


def remind(ctx: TurnContext, before: Mapping[str, int], phase: str) -> None:
    """After Phase 8's collection: the seatless minors whose treasury reached the price of
    an infantry this turn (`before`: each nation's treasury before the collection)."""
    ready = []
    for nation in sorted(ctx.state.nations):
        ns = ctx.state.nations[nation]
        if ns.side != "neutral" or ns.at_war_with or not points.seatless(ctx, nation):
            continue  # at war "they would get full income, and would be replaced with human player"
        stats = ctx.stats(nation, "infantry")
        if stats is None or stats.cost <= 0:
            continue
        if before.get(nation, 0) < stats.cost <= ns.saved:
            ready.append({"nation": nation, "saved": ns.saved, "cost": stats.cost})
    if ready:
        ctx.flag(phase, "minor-funds", minors=ready)
