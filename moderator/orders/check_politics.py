"""What is left of the old checker of Phase 1, 2, 5, 6 and 8 orders: two helpers that the
old checks of Phase 3 and 4 orders (check_build.py, check_combat.py) still import.

The rules these checks held now live in the orders' homes (moderator/engine/orders/:
influence, surrender, declarations, special_options, neutrals, peace, exile and the
others). Delete this file with check_build.py and check_combat.py.
"""

from __future__ import annotations

from moderator.orders import model as m
from moderator.orders.context import Ctx
from moderator.orders.diagnostics import FLAG


def once(ctx: Ctx, o: m.Order, key: tuple[str, ...], message: str, code: str) -> bool:
    """Per-turn limits: the second identical attempt is an error."""
    if key in ctx.seen:
        ctx.error(o, message, code)
        return False
    ctx.seen.add(key)
    return True


def review(ctx: Ctx, o: m.Order, why: str) -> None:
    ctx.report(o, FLAG, f"sent to the moderator for review: {why}", "review")
