"""Phase 9, The Russian Revolution: the rolls, the change of government, the rising.

"Starting in 1915, on Turn 7, the moderator will begin rolling to see if the Russian
Revolution will begin. There is a 1 in 10 chance ... for each of the three turns in
1915, 2 in 10 ... 1916, a 3 in 10 ... 1917, and a 4 in 10 ... 1918, etc. These numbers
can be shifted up or down 1 point per dice roll based on the German and Russian special
options" (Germany #6, 12 resources on a turn: +1 that turn; Russia #3, properly
supplying the army: -1 for the rest of the war; engine/chances.revolution_in_ten).

"First hit only changes government but half of resource income is lost (that half goes
to Bosheviks when the revolution begins), so Russian Empire becomes Russian Republic,
but second hit is when revolution is to begin." From the turn after the first hit,
Russia collects half its income (rounded down: the Bolsheviks' half is rounded up, Phase
8 calls russian_income) and the other half is kept for the Bolsheviks (flags FUND).
Germany's option #6 money ("kept by Bolshevik player until revolution arises") is already
in the Bolsheviks' treasury: the option's home pays it to them when it is used.

The rising: "the moderator will roll a D10 for every Russian unit built that turn. On a
1-7 the unit will become a revolutionary. The moderator will then strategically place
those units into one or more Russian territories which do not have any Russian troops on
them." On later turns "any units the Russian player tries to build have a chance to
defect ... on an 8-10 it defects". Defaults (each flagged for the moderator to change by
ruling): the units go to the Russia-held territory of Russia's start with no Russian
units of the highest resource value (then by name), which the Bolsheviks then hold; when
there is none, the revolutionaries stay where they were built and the moderator picks
the territory they attack. The Bolsheviks inherit Russia's technology, are at war with
Russia, come on the board, receive the fund and from the next Phase 8 draw double from
the Russian lands they hold. What follows (the Bolshevik seat, the end of the civil war
and what the winner inherits) is the moderator's for now: the placements are flagged.
"""

from __future__ import annotations

from moderator.engine import chances
from moderator.engine.context import TurnContext
from moderator.engine.orders.records import option_used
from moderator.engine.phase6_incorporation import territory_yield
from moderator.engine.state import LAND_UNITS, GameState, Unit
from moderator.orders.model import SpecialOption

PHASE = "9"
RUSSIA, BOLSHEVIKS, GERMANY = "russia", "bolsheviks", "germany"
FIRST_TURN = 7  # "Starting in 1915, on Turn 7"
STAGE = "revolution"  # NationState.flags of Russia: 1 after the first hit (Republic), 2 once the rising began
FUND = "bolshevik_fund"  # NationState.flags of Russia: what is kept for the Bolsheviks until the rising
GERMAN_SUPPORT, RUSSIAN_SUPPLY = 6, 3  # Germany option #6, Russia option #3


def stage(ctx: TurnContext) -> int:
    return stage_of(ctx.state)


def stage_of(state: GameState) -> int:
    """0 before the first hit, 1 the Russian Republic, 2 once the revolution began."""
    russia = state.nations.get(RUSSIA)
    return int(russia.flags.get(STAGE, 0)) if russia is not None else 0


def russian_income(ctx: TurnContext, nation: str, collected: int) -> int:
    """Phase 8 after the first hit: Russia keeps half (rounded down); the rest is kept for
    the Bolsheviks until the rising. After the rising the Bolsheviks "draw double the
    resources from any Russian lands": what those lands yield them is added once more.
    Every other nation's income is unchanged."""
    if nation == BOLSHEVIKS and stage(ctx) >= 2:
        return collected + sum(territory_yield(ctx.world, ctx.state, t, ctx.turn)
                               for t in ctx.world.home_of(RUSSIA) if ctx.controller(t) == BOLSHEVIKS)
    if nation != RUSSIA or stage(ctx) != 1:
        return collected
    kept = collected // 2
    flags = ctx.state.nations[RUSSIA].flags
    flags[FUND] = int(flags.get(FUND, 0)) + collected - kept
    return kept


def german_support_this_turn(ctx: TurnContext) -> bool:
    """Germany's option #6 carried out this turn (an order kept, not refused)."""
    refused = {e.args["order"] for e in ctx.events if e.code == "order-refused" and e.args.get("nation") == GERMANY}
    return any(o.number == GERMAN_SUPPORT and i not in refused
               for n, i, o in ctx.orders_of(SpecialOption) if n == GERMANY)


def built_this_turn(ctx: TurnContext, nation: str) -> list[Unit]:
    """The units the nation placed in this turn's Phase 7 (its newest of each placement)."""
    out: list[Unit] = []
    for e in ctx.events:
        if e.code == "placed" and e.phase == "7" and e.args["nation"] == nation:
            here = sorted((u for u in ctx.units_at(e.args["place"], nation) if u.kind == e.args["kind"]),
                          key=lambda u: u.id)
            out.extend(here[-e.args["count"]:])
    return sorted({u.id: u for u in out}.values(), key=lambda u: u.id)


def empty_territory(ctx: TurnContext) -> str | None:
    """The default place of revolutionaries: a Russia-held territory of Russia's start with
    no Russian units, the highest resource value first, then by name."""
    free = [t for t in ctx.world.home_of(RUSSIA)
            if ctx.controller(t) == RUSSIA and not ctx.units_at(t, RUSSIA)]
    if not free:
        return None
    return sorted(free, key=lambda t: (-ctx.place(t).value, t))[0]


def go_over(ctx: TurnContext, units: list[Unit], why: str) -> None:
    """Units that become Bolshevik, placed by the documented default (flagged)."""
    if not units:
        return
    place = empty_territory(ctx)
    for u in units:
        u.nation = BOLSHEVIKS
        if place is not None and u.kind in LAND_UNITS + ("fighter", "bomber"):
            u.location = place
    if place is not None:
        ctx.state.control[place] = BOLSHEVIKS
    kinds: dict[str, int] = {}
    for u in units:
        kinds[u.kind] = kinds.get(u.kind, 0) + 1
    ctx.flag(PHASE, why, BOLSHEVIKS, went=dict(sorted(kinds.items())), place=place or "",
             default=("placed in the Russian territory without Russian troops of the highest value"
                      if place else "no Russian territory is free of Russian troops: they stay where they "
                      "were built; the moderator picks the territory they attack"))


def rising(ctx: TurnContext) -> None:
    """The second hit: the revolution begins."""
    russia, reds = ctx.state.nations[RUSSIA], ctx.state.nations.get(BOLSHEVIKS)
    russia.flags[STAGE] = 2
    fund = int(russia.flags.pop(FUND, 0))
    if reds is None:
        ctx.flag(PHASE, "revolution-no-bolsheviks", RUSSIA, fund=fund)
        return
    reds.saved += fund
    reds.flags.pop("active", None)  # on the board from now on (scenario: active = false)
    reds.tech = dict(russia.tech)  # "Bolshevik player inherites all technology advancement"
    for a, b in ((russia, reds), (reds, russia)):
        if b.id not in a.at_war_with:
            a.at_war_with = sorted([*a.at_war_with, b.id])
    turned = [u for u in built_this_turn(ctx, RUSSIA) if chances.unit_turns_revolutionary(ctx.dice)]
    ctx.emit("revolution", PHASE, (), stage=2, fund=fund, units=len(turned))
    go_over(ctx, turned, "revolutionaries-placed")


def defections(ctx: TurnContext) -> None:
    """After the rising, every Russian unit built this turn defects on 8-10."""
    gone = [u for u in built_this_turn(ctx, RUSSIA) if chances.unit_defects(ctx.dice)]
    if gone:
        ctx.emit("revolution-defections", PHASE, (), units=len(gone))
    go_over(ctx, gone, "defectors-placed")


def russian_revolution(ctx: TurnContext) -> None:
    if RUSSIA not in ctx.state.nations:
        return
    now = stage(ctx)
    if now >= 2:
        defections(ctx)
        return
    if ctx.turn < FIRST_TURN:
        return
    support = german_support_this_turn(ctx)
    year, _ = ctx.scenario.turn_date(ctx.turn)
    supply = option_used(ctx, RUSSIA, RUSSIAN_SUPPLY) is not None
    if not chances.russian_revolution(ctx.dice, year, support, supply):
        return
    if now == 0:
        ctx.state.nations[RUSSIA].flags[STAGE] = 1
        ctx.emit("revolution", PHASE, (), stage=1, fund=int(ctx.nation(RUSSIA).flags.get(FUND, 0)), units=0)
        return
    rising(ctx)
