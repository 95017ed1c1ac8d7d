"""The Ottoman civil war (the Ottoman Empire).

"If, for whatever reason, the Ottoman Empire ever declares war on the Central Powers,
there is a chance that the German officers that were so abundant in the leadership of the
Ottoman armies will rebel launching the Ottoman nation into a civil war. There is a 7 in
10 chance of this happening. If it does happen, then roll 1D10 for each and every Ottoman
unit, excepting those troops in Constantinople, which will remain loyal to the Ottoman
nation. For all other units, there is a 4 in 10 chance that it will follow the German
leadership and rebel. For those units that rebel, they will be replaced with German units
of the same type without adding to total German manpower. If rebel units share the same
territory as Ottoman units after these rolls have been concluded, then conduct a battle
between these forces with the German units considered to be the attackers. Disregard the
effects of any trenches protecting such territories for these battles. Once everything is
resolved, if there are any German units remaining, then the German player will control
those units henceforth and they will be treated as German units, with any territory they
hold being under German occupation, though not yet incorporated."

engine/wars.py begin calls on_war for every war begun. Readings (docs/rules-coverage.md):
"declares war on the Central Powers" is the Ottomans beginning a war (a declaration, or
an attack without one) on a nation of the Central Powers; the 7 in 10 is rolled the first
time only ("ever"). A declaration in Phase 1 is answered at once; a war begun by an
attack in Phase 4 is answered in Phase 9 (units are not replaced in the middle of the
turn's battles: DUE). The rebels keep their damage; the battles are land battles
(engine/combat_land.py fight, the Germans attacking, without trenches: no front); ships
that rebel meet the Ottoman ships in the turn's naval contact like any enemies. A land
territory where German rebels remain and no Ottoman unit does passes to Germany,
conquered and not incorporated (engine/conquest.py seize). The whole is public news
(`ottoman-civil-war`).
"""

from __future__ import annotations

from moderator.engine import chances, combat_land, conquest
from moderator.engine.context import TurnContext

OTTOMAN, GERMANY = "ottoman", "germany"
LOYAL = "Constantinople"  # "excepting those troops in Constantinople"
ROLLED = "civil_war_rolled"  # NationState.flags of the Ottomans: the turn the 7 in 10 was rolled
DUE = "civil_war_due"  # NationState.flags of the Ottomans: a war begun in Phase 4, answered in Phase 9


def on_war(ctx: TurnContext, nation: str, target: str, phase: str) -> None:
    """engine/wars.py begin: the Ottomans went to war on a Central Power."""
    if nation != OTTOMAN or ctx.checking or GERMANY not in ctx.state.nations:
        return
    if ctx.nation(target).side != "central" or ctx.nation(OTTOMAN).flags.get(ROLLED) is not None:
        return
    if phase.startswith("1"):
        civil_war(ctx, phase)
    else:
        ctx.state.nations[OTTOMAN].flags[DUE] = ctx.turn


def end_of_turn(ctx: TurnContext) -> None:
    """Phase 9: a war on a Central Power begun by an attack this turn."""
    if OTTOMAN in ctx.state.nations and ctx.state.nations[OTTOMAN].flags.pop(DUE, None) is not None:
        civil_war(ctx, "9")


def civil_war(ctx: TurnContext, phase: str) -> None:
    ctx.state.nations[OTTOMAN].flags[ROLLED] = ctx.turn
    if not chances.ottoman_civil_war(ctx.dice):
        ctx.emit("ottoman-civil-war", phase, (), rebelled={}, battles=[], occupied=[])
        return
    rebelled: dict[str, int] = {}
    for unit in sorted((u for u in ctx.state.units if u.nation == OTTOMAN), key=lambda u: u.id):
        if unit.location == LOYAL or unit.kind in conquest.TRENCHES:  # works, not troops: they do not rebel
            continue
        if not chances.ottoman_unit_rebels(ctx.dice):
            continue
        ctx.state.units.remove(unit)
        rebel = ctx.state.new_unit(GERMANY, unit.kind, unit.location)  # no German manpower counted
        rebel.damage = unit.damage
        rebelled[unit.kind] = rebelled.get(unit.kind, 0) + 1
    places = sorted({u.location for u in ctx.state.units if u.nation == GERMANY and u.kind not in conquest.TRENCHES
                     and u.location in ctx.world.territories and not ctx.is_sea(u.location)
                     and any(o.location == u.location for o in ctx.state.units if o.nation == OTTOMAN)})
    battles = []
    for place in places:
        rebels = [u for u in ctx.state.units if u.nation == GERMANY and u.location == place
                  and u.kind not in conquest.TRENCHES]
        loyal = [u for u in ctx.state.units if u.nation == OTTOMAN and u.location == place
                 and u.kind not in conquest.TRENCHES]  # "Disregard the effects of any trenches"
        if rebels and loyal:
            combat_land.fight(ctx, place, [], GERMANY, rebels, loyal)
            battles.append(place)
    occupied = []
    for place in sorted({u.location for u in ctx.state.units if u.nation == GERMANY}):
        if place not in ctx.world.territories or ctx.is_sea(place) or ctx.controller(place) != OTTOMAN:
            continue
        if any(u.nation == OTTOMAN and u.kind not in conquest.TRENCHES for u in ctx.units_at(place)):
            continue
        conquest.seize(ctx, place, GERMANY)  # "under German occupation, though not yet incorporated"
        occupied.append(place)
    ctx.emit("ottoman-civil-war", phase, (), rebelled=dict(sorted(rebelled.items())), battles=battles,
             occupied=occupied)
