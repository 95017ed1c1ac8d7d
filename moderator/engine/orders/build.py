"""BUILD n kind AT place (Phase 3.1: Building new Units; placed in Phase 7).

"During this phase players may spend saved resources on new units ... All purchased
units are not placed at this time (see Phase 7: Place New Units) but the money intended
to be spent may be lost if the territory where they are intended to be built is lost
during the turn." The order is paid now and checked against the placement rules now
(moderator.engine.placement), so nobody pays for a unit that could never be placed.

Prices: the unit's cost for the nation (units.toml), the placement surcharges (infantry
outside a city, artillery in a city without a complex), and infantry past the manpower
limit at twice the cost (moderator.engine.manpower: in a colony, the colonies' limit).
Default where the rules are silent: when the treasury (or the place's room for this
turn) covers fewer units than ordered, buy as many as it covers, in order, and say so
in the receipt and the report; the moderator sees a flag.
"""

from __future__ import annotations

from moderator.engine import manpower, treasuries
from moderator.engine.context import PendingBuild, Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.placement import Placement, placement
from moderator.engine.problems import Problem, problem, warning
from moderator.orders.model import Build

PHASE = "3.1"


def prices(pos: Position, nation: str, order: Build, where: Placement) -> list[int]:
    """The price of each unit ordered, in order, surcharges included."""
    stats = pos.stats(nation, order.kind)
    assert stats is not None
    if order.kind == "infantry":
        return [p + where.extra for p in manpower.infantry_prices(pos, nation, stats.cost, order.count, order.place)]
    return [stats.cost + where.extra] * order.count


def purchase(pos: Position, nation: str, order: Build, where: Placement) -> tuple[int, int]:
    """(units bought, total paid): in order, within the place's room and the treasury
    (the place's own, if it is separated from the mainland: engine/treasuries.py)."""
    room = order.count if where.room is None else min(order.count, where.room)
    paid = bought = 0
    money = treasuries.available(pos, nation, order.place)
    for price in prices(pos, nation, order, where)[:room]:
        if paid + price > money:
            break
        paid, bought = paid + price, bought + 1
    return bought, paid


JUDGED = "build-judged"  # pos.memo: (order, nation, mark, (where, bought, paid)) of the order last judged


def judge(pos: Position, nation: str, order: Build) -> tuple[Placement | Problem, int, int]:
    """Where the order's units would be placed (or why nowhere) and what it buys: (where,
    bought, paid). The checker and the engine ask it of the same order at the same position
    two or three times running (problem(), then remarks() and commit(), or execute()): the
    answer is kept for the order last judged, with a mark of what else it reads that a
    turn changes (the builds so far, the treasuries, the units, who holds what), and found
    again if the order or the mark differs (issue 14, the engine's cost)."""
    state = pos.state
    mark = (len(pos.builds), pos.saved(nation), tuple(sorted(treasuries.held(pos, nation).items())),
            id(state.units), len(state.units), id(state.control), getattr(state.control, "mark", None))
    kept = pos.memo.get((JUDGED,))
    if kept is not None and kept[0] is order and kept[1] == nation and kept[2] == mark:
        return kept[3]  # type: ignore[no-any-return]
    where = _where(pos, nation, order)
    bought, paid = purchase(pos, nation, order, where) if isinstance(where, Placement) else (0, 0)
    pos.memo[(JUDGED,)] = (order, nation, mark, (where, bought, paid))
    return where, bought, paid


def _where(pos: Position, nation: str, order: Build) -> Placement | Problem:
    stats = pos.stats(nation, order.kind)
    if stats is None:
        return problem("cannot-build", kind=order.kind)
    if stats.requires_tech and pos.tech(nation, stats.requires_tech) < 1:
        return problem("needs-tech", kind=order.kind, tech=stats.requires_tech)
    return placement(pos, nation, order.kind, order.place)


class BuildRule(OrderRule[Build]):
    order = Build
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Build) -> Problem | None:
        where, bought, _ = judge(pos, nation, order)
        if isinstance(where, Problem):
            return where
        if bought == 0:
            first = prices(pos, nation, order, where)[0]
            return problem("over-budget", what=f"{order.count} {order.kind}", cost=first * order.count,
                           left=max(treasuries.available(pos, nation, order.place), 0))
        return None

    def remarks(self, pos: Position, nation: str, order: Build) -> list[Problem]:
        where, bought, _ = judge(pos, nation, order)
        assert isinstance(where, Placement)
        out: list[Problem] = []
        if order.kind == "infantry":
            over = max(0, bought - manpower.normal_left(pos, nation, order.place))
            if over:
                colonies = manpower.colonial(pos, nation, order.place)
                limit = manpower.limit(pos.nation(manpower.pool(pos, nation)), colonies)
                out.append(warning("manpower", over=over, limit=limit, colonies=colonies))
            if where.extra:
                out.append(warning("infantry-no-city", order.place, place=order.place, extra=where.extra))
        elif where.extra:
            out.append(warning("artillery-city", order.place, extra=where.extra))
        if bought < order.count:
            room = order.count if where.room is None else where.room
            reason = "room" if room < order.count and bought == room else "treasury"
            out.append(warning("build-cut", order.place, bought=bought, ordered=order.count, reason=reason,
                               place=order.place))
        return out

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Build) -> None:
        where, bought, paid = judge(ctx, nation, order)
        assert isinstance(where, Placement)
        treasuries.spend(ctx, nation, order.place, paid)
        ctx.builds.append(PendingBuild(nation, order.kind, bought, order.place, paid, index))

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Build) -> None:
        self.commit(ctx, nation, index, order)
        build = ctx.builds[-1]
        if build.count < order.count:
            ctx.tell(nation, "build-cut", PHASE, order=index, kind=order.kind, place=order.place,
                     ordered=order.count, bought=build.count)
            ctx.flag(PHASE, "build-cut-default", nation=nation, order=index, bought=build.count, ordered=order.count)
        ctx.tell(nation, "built", PHASE, order=index, kind=order.kind, count=build.count, place=order.place,
                 cost=build.paid)


RULE = BuildRule()
