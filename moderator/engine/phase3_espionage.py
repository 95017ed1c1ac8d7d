"""Phase 3.2: Espionage & Counter-espionage, the rolls and what they reveal.

The ESPIONAGE and COUNTERESPIONAGE homes (engine/orders/espionage.py) charge each fee
as their orders come; this step, when all of them are in, rolls them: counter-espionage
first (it changes the spies' odds), then every espionage attempt, nations by id and
orders as written, each die in step 3.2's stream with its purpose.

3.2.2 Counter-espionage:
  .1 affiliation (major neutrals, against designated nations) and .2 army (against a
     designated enemy) have no roll of their own: "The espionage attempt of 50% ...
     chance of success is lowered to 20%";
  .3 industrial (per technology): "The chance for success is 50% (1-5 on D10 die) and if
     succeed the chance for succesfull espionage is lowered to 20%";
  .4 reconnaissance countermeasure (per province): 50%; a success masks the province's
     troops in this turn's reconnaissance (NationState.flags["masked"], for 3.3).
3.2.1 Espionage, 50% (1-5), 20% (1-2) against counter-espionage:
  .1 a minor neutral's status (its standing) / a major neutral's affiliation (the side it
     leans to, never its points); .2 army staff: "what units the target enemy country
     built during the current turn (but not where are they deployed)"; .3 industrial: the
     target's level of the named technology, and "the chance for thier own advancement in
     that area" is 8-10 (flags["spied"], read by the RESEARCH home) "until the required
     level is discovered"; .4 combat intelligence: the enemy units engaged in combat in
     the province, delivered after the battles (Phase 9 hands them over).

"In any event, no one will know which nation attempted the espionage mission": every
result goes to the spying nation (and the moderator) only; the target learns nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from moderator.engine import chances, technology
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.orders.espionage import counter_key, spy_key
from moderator.engine.orders.research import SPIED
from moderator.orders.model import CounterEspionage, Espionage, Order

PHASE = "3.2"
MASKED = "masked"  # NationState.flags: provinces whose troops this turn's reconnaissance misreads (3.2.2.4)
COMBAT_WATCH = "combat_watch"  # NationState.flags: [[order, place]] combat intelligence to hand over in Phase 9
LEANING = "leaning"  # NationState.flags: a major neutral's affiliation, when a rule has set it

OrderT = TypeVar("OrderT", bound=Order)


def carried_out(ctx: TurnContext, kind: type[OrderT],
                key: Callable[[str, OrderT], tuple[str, ...]]) -> Iterator[tuple[str, int, OrderT]]:
    """The orders of `kind` their home carried out this turn (charged: their per-turn key is
    used), once each, in resolution order."""
    seen: set[tuple[str, ...]] = set()
    for nation, index, order in ctx.orders_of(kind):
        k = key(nation, order)
        if k in ctx.done and k not in seen:
            seen.add(k)
            yield nation, index, order


def espionage(ctx: TurnContext) -> None:
    """Step 3.2: counter-espionage, then espionage."""
    counters = resolve_counters(ctx)
    for nation, index, order in carried_out(ctx, Espionage, spy_key):
        spy(ctx, nation, index, order, counters)


# ---- counter-espionage -------------------------------------------------------------------------


def resolve_counters(ctx: TurnContext) -> set[tuple[str, ...]]:
    """What stands against spies this turn: ("affiliation", protector, spy-or-""),
    ("army", protector, spy), ("industrial", protector, tech)."""
    standing: set[tuple[str, ...]] = set()
    for nid in sorted(ctx.state.nations):
        ctx.state.nations[nid].flags.pop(MASKED, None)  # last turn's masks are gone
    for nation, index, order in carried_out(ctx, CounterEspionage, counter_key):
        if order.kind in ("affiliation", "army"):
            standing.add((order.kind, nation, order.against or ""))
            ctx.emit("counter-espionage", PHASE, (nation, MODERATOR), nation=nation, order=index, kind=order.kind,
                     success=True)
            continue
        what = order.tech if order.kind == "industrial" else order.place
        success = chances.counter_espionage(ctx.dice, who=f"{nation}, {order.kind} {what}")
        if success and order.kind == "industrial" and order.tech:
            standing.add(("industrial", nation, order.tech))
        if success and order.kind == "recon" and order.place:
            flags = ctx.state.nations[nation].flags
            flags[MASKED] = sorted({*flags.get(MASKED, []), order.place})
        ctx.emit("counter-espionage", PHASE, (nation, MODERATOR), nation=nation, order=index, kind=order.kind,
                 success=success)
    return standing


def countered(o: Espionage, spy: str, counters: set[tuple[str, ...]]) -> bool:
    target = o.target or ""
    if o.kind == "affiliation":
        return ("affiliation", target, spy) in counters or ("affiliation", target, "") in counters
    if o.kind == "army":
        return ("army", target, spy) in counters
    if o.kind == "industrial":
        return ("industrial", target, o.tech or "") in counters
    return False  # a minor neutral's status and combat intelligence have no counter


# ---- espionage ----------------------------------------------------------------------------------


def affiliation(ctx: TurnContext, target: str) -> str:
    """The side a major neutral's government leans to: a leaning a rule set, else the side
    its standing points to (plus: allied, minus: central), else its starting leaning."""
    ns = ctx.nation(target)
    if ns.flags.get(LEANING):
        return str(ns.flags[LEANING])
    if ns.standing:
        return "allied" if ns.standing > 0 else "central"
    start = ctx.scenario.nations.get(target)
    return start.leaning if start is not None and start.leaning else "none"


def built_this_turn(ctx: TurnContext, target: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for b in ctx.builds:
        if b.nation == target and b.count:
            out[b.kind] = out.get(b.kind, 0) + b.count
    return dict(sorted(out.items()))


def spy(ctx: TurnContext, nation: str, index: int, o: Espionage, counters: set[tuple[str, ...]]) -> None:
    against = countered(o, nation, counters)
    aim = o.place if o.kind == "combat" else f"{o.target}{' ' + o.tech if o.tech else ''}"
    if not chances.espionage(ctx.dice, against, who=f"{nation}, {o.kind} {aim}"):
        ctx.emit("espionage-failed", PHASE, (nation, MODERATOR), nation=nation, order=index, kind=o.kind,
                 target=o.target or o.place or "")
        return
    seen = (nation, MODERATOR)
    target = o.target or ""
    if o.kind == "neutral":
        ctx.emit("spied-neutral", PHASE, seen, nation=nation, order=index, target=target,
                 standing=ctx.nation(target).standing)
    elif o.kind == "affiliation":
        ctx.emit("spied-affiliation", PHASE, seen, nation=nation, order=index, target=target,
                 leaning=affiliation(ctx, target))
    elif o.kind == "army":
        ctx.emit("spied-army", PHASE, seen, nation=nation, order=index, target=target,
                 units=built_this_turn(ctx, target))
    elif o.kind == "industrial" and o.tech:
        level = technology.level(ctx, target, o.tech)
        flags = ctx.state.nations[nation].flags
        raised = level > technology.level(ctx, nation, o.tech)
        if raised:
            spied = flags.get(SPIED, {})
            flags[SPIED] = {**spied, o.tech: max(level, int(spied.get(o.tech, 0)))}
        ctx.emit("spied-industrial", PHASE, seen, nation=nation, order=index, target=target, tech=o.tech,
                 level=level, raised=raised)
    elif o.kind == "combat" and o.place:
        flags = ctx.state.nations[nation].flags
        flags[COMBAT_WATCH] = [*flags.get(COMBAT_WATCH, []), [index, o.place]]


def hand_over_combat_intelligence(ctx: TurnContext, phase: str) -> None:
    """After the battles (called by Phase 9): each successful combat intelligence gets the
    enemy units engaged at its province: those of the battle's losses and those standing
    there now. Reading: "the exact size and type of enemy units engaged in combat on target
    province after turn update"."""
    for nid in sorted(ctx.state.nations):
        watch = ctx.state.nations[nid].flags.pop(COMBAT_WATCH, [])
        for index, place in watch:
            battles = [e for e in ctx.events if e.code == "battle" and e.args.get("territory") == place]
            engaged: dict[str, dict[str, int]] = {}
            for e in battles:
                for side, lost in e.args.get("losses", {}).items():
                    if ctx.at_war(nid, side):
                        mine = engaged.setdefault(side, {})
                        for kind, n in lost.items():
                            mine[kind] = mine.get(kind, 0) + n
            if battles:
                for u in ctx.units_at(place):
                    if ctx.at_war(nid, u.nation):
                        mine = engaged.setdefault(u.nation, {})
                        mine[u.kind] = mine.get(u.kind, 0) + 1
            units = {n: dict(sorted(k.items())) for n, k in sorted(engaged.items())}
            ctx.emit("spied-combat", phase, (nid, MODERATOR), nation=nid, order=int(index), place=place,
                     fought=bool(battles), units=units)
