"""What a FIRE order's rockets do (Rockets; fired with the bombing of 4.1.1).

Rockets: "Each rocket gets one shot per turn. If you roll equal to or less than the
rocket's attack value on a D10, then the rocket has destroyed a unit. The choice of which
unit to lose is always the defender's ... No defense roll is possible against rocket
attacks." One D10 per rocket, at the rocket's attack value (the scenario's statistics).

- At units (FIRE UNITS): each hit destroys one unit in the target territory of a nation
  the firer fights there, the owner's casualty order for that territory first (CASUALTIES),
  else the cheapest, as in land combat (combat_land). "Units protected by a Super Trench
  are invulnerable to rockets": behind a super trench of the defenders that is on the
  front line ("Trenches protect only units on the first line": it faces land held by an
  enemy of its owner) nothing can be hit and no die is rolled; behind such a trench the
  rocket has -3 (Trenches, table of penalties; never below 1).
- At a city (FIRE CITY): each hit lowers the holder's infantry maximum (manpower limit,
  the pool it counts against: manpower.pool; a colony's city, the colonies' limit) by 1.
- At an industrial complex (FIRE INDUSTRY): each hit takes 2 of the holder's saved
  resources; from the fourth rocket advance, 1D10 ("At the highest technological stage a
  rocket may reduce the enemy's saved resources by 1D10"). Never below 0.

Reading (docs/rules-coverage.md): a strategic shot, like a shot at units, hits on a D10 at
or under the rocket's attack value ("may ... reduce"); trenches do not shelter a city or a
complex.
"""

from __future__ import annotations

from collections.abc import Sequence

from moderator.engine import combat_orders, manpower
from moderator.engine.combat_land import SUPER_TRENCH, TRENCH, TRENCH_PENALTY
from moderator.engine.context import TurnContext
from moderator.engine.orders.move import enemy_units
from moderator.engine.orders.trenches import facing_of
from moderator.engine.state import Unit
from moderator.orders.model import RocketFire

PHASE = "4.1.1"
INDUSTRY_LOSS = 2  # Rockets: "the rocket may reduce the enemy's saved resources by 2"
DICE_ADVANCE = 4  # Rockets: "At the highest technological stage ... 1D10"


def shelter(ctx: TurnContext, nation: str, place: str) -> str | None:
    """The best trench of the firer's enemies in `place` that is on the front line."""
    kinds = set()
    for u in ctx.units_at(place):
        if u.kind not in (TRENCH, SUPER_TRENCH) or u.nation == nation or ctx.allies(nation, u.nation):
            continue
        faced = facing_of(ctx, u)
        holder = ctx.controller(faced) if faced else None
        if holder is not None and ctx.at_war(u.nation, holder):
            kinds.add(u.kind)
    return SUPER_TRENCH if SUPER_TRENCH in kinds else TRENCH if kinds else None


def fire(ctx: TurnContext, nation: str, index: int, order: RocketFire, rockets: Sequence[Unit]) -> None:
    place = order.target
    holder = ctx.controller(place)
    cover = shelter(ctx, nation, place) if order.aim == "units" else None
    hits = 0
    for k, rocket in enumerate(rockets if cover != SUPER_TRENCH else ()):
        stats = ctx.stats(nation, "rocket", rocket)  # with the rocket's technology (engine/technology.py)
        value = stats.attack if stats else 0
        if cover == TRENCH and value > 0:
            value = max(1, value - TRENCH_PENALTY[TRENCH]["rocket"])
        if ctx.dice.d10(f"rocket fire at {place}: {nation} rocket {k + 1}") <= value:
            hits += 1
    losses: dict[str, dict[str, int]] = {}
    manpower_lost = resources_lost = 0
    if order.aim == "units":
        dead = victims(ctx, nation, place, hits)
        for u in dead:
            per = losses.setdefault(u.nation, {})
            per[u.kind] = per.get(u.kind, 0) + 1
        ctx.state.remove_units(dead)
    elif holder is not None and order.aim == "city":
        ns = ctx.state.nations[manpower.pool(ctx, holder)]
        manpower_lost = manpower.lower(ns, manpower.colonial(ctx, holder, place), hits)  # a colony's: the colonies'
    elif holder is not None:
        ns = ctx.state.nations[holder]
        for k in range(hits):
            loss = (ctx.dice.d10(f"rocket damage at {place}: {nation} hit {k + 1}")
                    if ctx.tech(nation, "rockets") >= DICE_ADVANCE else INDUSTRY_LOSS)
            taken = min(loss, max(ns.saved, 0))
            ns.saved -= taken
            resources_lost += taken
    targets = sorted({*losses, *([holder] if holder else [])} - {nation})
    ctx.emit("rocket-fire", PHASE, sorted({nation, *targets}), nation=nation, order=index, aim=order.aim,
             target=place, holder=holder, rockets=len(rockets), hits=hits, protected=cover == SUPER_TRENCH,
             losses={n: dict(sorted(k.items())) for n, k in sorted(losses.items())},
             manpower=manpower_lost, resources=resources_lost)


def victims(ctx: TurnContext, nation: str, place: str, hits: int) -> list[Unit]:
    """The units the hits destroy: "The choice of which unit to lose is always the
    defender's": each owner's casualty order, else the cheapest (then kind, id)."""
    units = enemy_units(ctx, nation, place)
    first = combat_orders.casualty_preferences(ctx, sorted({u.nation for u in units}), place)

    def rank(u: Unit) -> tuple[int, int, str, str]:
        mine = first.get(u.nation, ())
        stats = ctx.stats(u.nation, u.kind)
        return (mine.index(u.kind) if u.kind in mine else len(mine), stats.cost if stats else 0, u.kind, u.id)

    return sorted(units, key=rank)[:hits]
