"""What the diplomatic orders leave behind for later turns, and how they are charged.

The rules limit some Phase 1 orders over the whole game ("A nation may surrender only
once per game", an option "only once", "never being able to use unrestricted sub
warfare" after a retraction) and open others only on the turns that follow ("The turn
following this action [the gear-up], Japan has a wide variety of options"; China "can
be diplomatically influenced by British Empire the following turns"). The homes of
those orders record the fact in NationState.flags in commit(), so the checker's
projection and the engine see the same thing, and read it back here:

    geared_up                    turn of the gear-up (GEAR UP, US option #1, Chinese #1)
    options_used                 {"<number>": turn the option was first used}
    options_succeeded            {"<number>": turn its roll first succeeded (engine/option_effects.py)}
    unrestricted_subs            side or nation id it is declared against (Phase 1.4)
    unrestricted_subs_retracted  turn of the retraction (never again)
    surrendered                  turn a surrender was accepted (the moderator's ruling)

Every one of these orders is still resolved by the moderator (the dice, the points, the
votes), but its cost is charged when its step runs: Referred.commit() pays it (the
checker's projection), Referred.execute() pays it through base.refer(), which reports
the referral with its cost. Money the rules give to another nation at once ("Italy gets
to keep the 20 resources") arrives at once, in both, with a "gift" event in the engine.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, refer
from moderator.orders.model import Order

OrderT = TypeVar("OrderT", bound=Order)

SIDES = ("allied", "central")
SUCCEEDED = "options_succeeded"  # NationState.flags: {"<number>": turn its roll first succeeded}


# ---- reading the records ----------------------------------------------------------------
def geared(pos: Position, nation: str) -> int | None:
    """The turn the nation geared up its economy, or None."""
    turn = pos.nation(nation).flags.get("geared_up")
    return int(turn) if turn is not None else None


def geared_before(pos: Position, nation: str) -> bool:
    """Geared up on an earlier turn ("The turn following this action")."""
    turn = geared(pos, nation)
    return turn is not None and turn < pos.turn


def option_used(pos: Position, nation: str, number: int) -> int | None:
    """The turn the nation first used its special option `number`, or None."""
    used = pos.nation(nation).flags.get("options_used", {})
    turn = used.get(str(number)) if isinstance(used, dict) else None
    return int(turn) if turn is not None else None


def option_key(nation: str, number: int) -> tuple[str, ...]:
    """The per-turn key of a nation's special option (TurnContext.use): played this turn."""
    return (nation, "option", str(number))


def option_played(pos: Position, nation: str, number: int) -> bool:
    """Has the nation played its special option `number` this turn (Phase 1.5 is done
    before the builds of 3.1 read it)?"""
    return pos.used(option_key(nation, number))


def option_succeeded(pos: Position, nation: str, number: int) -> int | None:
    """The turn the nation's option `number` first succeeded (its roll), or None."""
    done = pos.nation(nation).flags.get(SUCCEEDED, {})
    turn = done.get(str(number)) if isinstance(done, dict) else None
    return int(turn) if turn is not None else None


def side_word(side: str) -> str:
    """A side as orders write it ("allied"/"central"), or "" for anything else."""
    return side if side in SIDES else ""


def opposite(side: str) -> str:
    return {"allied": "central", "central": "allied"}.get(side, "")


# ---- writing them -------------------------------------------------------------------
def record(ctx: TurnContext, nation: str, key: str, value: Any) -> None:
    ctx.state.nations[nation].flags[key] = value


def record_option(ctx: TurnContext, nation: str, number: int) -> None:
    flags = ctx.state.nations[nation].flags
    used = dict(flags.get("options_used", {}))
    used.setdefault(str(number), ctx.turn)
    flags["options_used"] = used


def record_success(ctx: TurnContext, nation: str, number: int) -> None:
    flags = ctx.state.nations[nation].flags
    done = dict(flags.get(SUCCEEDED, {}))
    done.setdefault(str(number), ctx.turn)
    flags[SUCCEEDED] = done


# ---- charging -------------------------------------------------------------------------
class Referred(OrderRule[OrderT]):
    """A home whose order the moderator resolves: its cost is charged when its step runs
    (the same cost in the checker's projection and in the engine), then it is referred.

    Subclasses give cost(), the referral's reason code (`why`, or reason()), what the
    order records for later turns (record()) and money paid on to another nation."""

    why: ClassVar[str] = "not-automated"

    def cost(self, pos: Position, nation: str, order: OrderT) -> int:
        return 0

    def reason(self, pos: Position, nation: str, order: OrderT) -> str:
        return self.why

    def paid_on(self, pos: Position, nation: str, order: OrderT) -> tuple[str, int] | None:
        """(nation, amount) the rules hand on at once out of what the order costs."""
        return None

    def record(self, ctx: TurnContext, nation: str, order: OrderT) -> None:
        """Per-turn limits used (ctx.use) and facts kept for later turns (flags)."""

    def commit(self, ctx: TurnContext, nation: str, index: int, order: OrderT) -> None:
        price = self.cost(ctx, nation, order)
        on = self.paid_on(ctx, nation, order)
        self.record(ctx, nation, order)
        ctx.pay(nation, price)
        hand_on(ctx, on)

    def settle(self, ctx: TurnContext, nation: str, index: int, order: OrderT) -> None:
        """The engine's commit() for an order it resolves itself: paid, recorded, and the
        money it hands on arrives, told as a gift."""
        on = self.paid_on(ctx, nation, order)
        self.commit(ctx, nation, index, order)
        if on is not None and on[1] > 0 and on[0] in ctx.state.nations:
            phase = ctx.step.section if ctx.step else ""
            ctx.emit("gift", phase, tuple(sorted({nation, on[0]})), giver=nation, receiver=on[0], sent=on[1],
                     arrived=on[1])

    def execute(self, ctx: TurnContext, nation: str, index: int, order: OrderT) -> None:
        price = self.cost(ctx, nation, order)
        why = self.reason(ctx, nation, order)
        on = self.paid_on(ctx, nation, order)
        self.record(ctx, nation, order)
        refer(ctx, nation, index, order, price, why)
        if hand_on(ctx, on):
            assert on is not None
            to, amount = on
            phase = ctx.step.section if ctx.step else ""
            ctx.emit("gift", phase, tuple(sorted({nation, to})), giver=nation, receiver=to, sent=amount,
                     arrived=amount)


def hand_on(ctx: TurnContext, on: tuple[str, int] | None) -> bool:
    """Money the order hands on arrives at once, in the checker's projection as in the
    engine (the receiver's treasury in every report is right). Whether any arrived."""
    if on is None or on[1] <= 0 or on[0] not in ctx.state.nations:
        return False
    ctx.state.nations[on[0]].saved += on[1]
    return True
