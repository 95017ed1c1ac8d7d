"""The third points table, row 5 (engine/standing_events.py): unrestricted submarine
warfare costs the declarer's side points with every neutral, more the first turn."""

from __future__ import annotations

from collections import Counter

from moderator.engine import standing_events
from moderator.engine.dice import Dice
from tests.test_neutral_triggers import context


def test_the_first_turn_draws_the_first_column_then_the_brackets() -> None:
    ctx = context()
    ctx.dice_root = Dice("row-5", 1)
    ctx.state.nations["germany"].flags["unrestricted_subs"] = "allied"
    standing_events.submarine_warfare(ctx, "9")
    first = {r.purpose: r.dice for r in ctx.dice_root.log if "unrestricted" in r.purpose}
    assert first["Kingdom of Italy's points: unrestricted submarine warfare by German Empire (neutrals' points)"] == "0-2"
    assert ctx.state.nations["germany"].flags[standing_events.SUBS_SEEN] == ctx.turn
    ctx.dice_root.log.clear()
    standing_events.submarine_warfare(ctx, "9")
    later = {r.purpose: r.dice for r in ctx.dice_root.log if "unrestricted" in r.purpose}
    assert set(later.values()) == {"0-1"} and len(later) == len(first)
    # every move is toward the Allies (away from the declarer's side), never away from them
    assert all(e.args["change"] > 0 for e in ctx.events if e.code == "points")


def test_a_retraction_forgets_the_first_turn() -> None:
    ctx = context()
    ctx.state.nations["germany"].flags[standing_events.SUBS_SEEN] = 1
    standing_events.submarine_warfare(ctx, "9")  # no declaration: nothing drawn
    assert standing_events.SUBS_SEEN not in ctx.state.nations["germany"].flags


def test_the_draws_are_uniform_over_their_range() -> None:
    """Neutrals: "0-2" is "a random number ... drawn between 0 and 2": fixed seeds."""
    seen: Counter[int] = Counter()
    for seed in range(300):
        ctx = context()
        ctx.dice_root = Dice(f"row-5/{seed}", 1)
        ctx.state.nations["germany"].flags["unrestricted_subs"] = "allied"
        standing_events.submarine_warfare(ctx, "9")
        seen[ctx.state.nations["usa"].standing] += 1
    assert all(70 <= seen[k] <= 130 for k in (0, 1, 2)), seen  # 100 each, within 4 sigma (8.2)
