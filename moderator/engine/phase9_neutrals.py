"""Phase 9: the end-of-turn rolls about neutrals.

* US entry 11, the economic roll: "At the end of every turn roll 1D10. The US will
  naturally favor the side which is producing the greatest number of resources. On a
  roll of 8, 9 or 10 the US Entry will move 0-2 points towards the side with the greater
  resource production. On a roll of 1 the US entry will move 0-2 points toward the side
  with the lesser production. Japan automatically counts towards Allied productions
  unless it has opted for war with the western allies." US Entry is the USA's standing
  (plus: Allied). Production is this turn's Phase 8 income of the nations of each side.
* Spanish Garrison: "If at the end of any turn France has less than 2 infantry in each of
  the two territories of Toulouse and Bordeaux, there is a 50/50 chance that Spain will
  have 20 points toward Central Powers side. The 50/50 chance applies to the first time
  this happens ... for each time this happens there will be a 2 in 10 chance". The rule
  holds while Spain is neutral and until France's option #1 overrides it (Spain).
* Spanish / American Relations: "When the US enters the war on one side or another,
  there will be a 2 in 10 chance that Spain will have 20 points toward oposite side".
* Afghanistan (Nation.rebels_when_conquered): "if Afghanistan is conquered, then there is a chance of rebellion. On roll
  of 1 in 1D10 there would be rebellion with 1D10 roll for 2 rebel infantry with minimum
  of zero rebels and they would act as attackers."

Readings (docs/rules-coverage.md): the US Entry and Spain's points move through
engine/points.move like every neutral's, so within -10..+10 (Spain's 20 points put it in
the Central Powers' camp at -10, not at -20); "less than 2 infantry in each of the
two territories" is broken when either has fewer than 2; Afghanistan's rebels are the
D10 less 2 (the "minimum of zero" only means something for a subtraction). A rebellion
against a conquered land without occupying land units frees it (the rebels hold it, "any war state with former
owners cease"); against the occupiers' units the rebels attack at once (`rebels_attack`, a land battle in step 9
with step 9's dice, as the Ottoman civil war and the Russian revolutionaries fight theirs): won, the land is free.
"""

from __future__ import annotations

from moderator.engine import chances, combat_land, points
from moderator.engine.context import TurnContext
from moderator.engine.orders.records import option_succeeded
from moderator.engine.state import AIR_UNITS, LAND_UNITS

PHASE = "9"
USA, SPAIN, FRANCE, JAPAN = "usa", "spain", "france", "japan"
NO_INFLUENCE = "no_influence_since"  # NationState.flags: a rebellion freed it; no influence from then on
WESTERN_ALLIES = ("britain", "france", "usa")
GARRISON = ("Toulouse", "Bordeaux")
GARRISON_CHECKS = "garrison_checks"  # NationState.flags of Spain: times the garrison was found short
US_ENTRY_SEEN = "us_entry_seen"  # NationState.flags of Spain: the US entry was rolled for
SPAIN_POINTS = 20
FRENCH_OVERRIDE = 1  # "To override Spanish garrison rule France must do French option #1" (when its 7-10 succeeds)


def production(ctx: TurnContext) -> dict[str, int]:
    """This turn's Phase 8 income by side; Japan with the Allies unless at war with them."""
    out = {"allied": 0, "central": 0}
    for e in ctx.events:
        if e.code != "income":
            continue
        nation = e.args["nation"]
        side = ctx.nation(nation).side
        if nation == JAPAN and not any(ctx.at_war(JAPAN, w) for w in WESTERN_ALLIES):
            side = "allied"
        if side in out:
            out[side] += e.args["amount"]
    return out


def us_economic_roll(ctx: TurnContext) -> None:
    usa = ctx.state.nations.get(USA)
    if usa is None or usa.side != "neutral":
        return
    outcome = chances.us_economic_roll(ctx.dice)
    if outcome == chances.NOTHING:
        return
    made = production(ctx)
    if made["allied"] == made["central"]:
        return  # no side produces more: the US favours neither
    bigger = 1 if made["allied"] > made["central"] else -1
    toward = bigger if outcome == chances.SUCCESS else -bigger
    amount = ctx.dice.between(0, 2, f"US Entry: economic roll (US entry 11) {points.PURPOSE}")
    points.move(ctx, USA, "allied" if toward > 0 else "central", amount, "economic-roll", PHASE)


def garrison_short(ctx: TurnContext) -> bool:
    return any(sum(1 for u in ctx.units_at(t, FRANCE) if u.kind == "infantry") < 2 for t in GARRISON)


def spanish_garrison(ctx: TurnContext) -> None:
    spain = ctx.state.nations.get(SPAIN)
    if spain is None or spain.side != "neutral" or FRANCE not in ctx.state.nations:
        return
    if option_succeeded(ctx, FRANCE, FRENCH_OVERRIDE) is not None or not garrison_short(ctx):
        return
    checks = int(spain.flags.get(GARRISON_CHECKS, 0))
    spain.flags[GARRISON_CHECKS] = checks + 1
    if chances.spanish_garrison(ctx.dice, first_time=checks == 0):
        points.move(ctx, SPAIN, "central", SPAIN_POINTS, "spanish-garrison", PHASE)


def spanish_american_relations(ctx: TurnContext) -> None:
    spain, usa = ctx.state.nations.get(SPAIN), ctx.state.nations.get(USA)
    if spain is None or usa is None or usa.side == "neutral" or spain.flags.get(US_ENTRY_SEEN):
        return
    spain.flags[US_ENTRY_SEEN] = ctx.turn
    if spain.side != "neutral":
        return
    if chances.spain_resents_us(ctx.dice):
        toward = "central" if usa.side == "allied" else "allied"
        points.move(ctx, SPAIN, toward, SPAIN_POINTS, "spanish-american-relations", PHASE)


def rebellions(ctx: TurnContext) -> None:
    """Every conquered nation of the scenario that rebels while conquered
    (Nation.rebels_when_conquered)."""
    for nation in sorted(n.id for n in ctx.scenario.nations.values() if n.rebels_when_conquered):
        rebellion(ctx, nation)


def rebellion(ctx: TurnContext, nation: str) -> None:
    if nation not in ctx.state.nations:
        return
    home = ctx.world.home_of(nation)
    holders = sorted({h for t in home if (h := ctx.controller(t)) is not None and h != nation})
    if not home or not holders or any(ctx.controller(t) == nation for t in home):
        return  # not conquered
    if not ctx.dice.chance(1, f"rebellion in conquered {nation} (Phase 9)"):
        return
    rebels = max(0, ctx.dice.d10(f"rebels of {nation}, the D10 less 2 (Phase 9)") - 2)
    if rebels == 0:
        ctx.emit("rebellion", PHASE, (), nation=nation, rebels=0, freed=False)
        return
    occupied = [t for t in home if any(u.nation != nation and u.kind in LAND_UNITS for u in ctx.units_at(t))]
    if not occupied:
        for _ in range(rebels):
            ctx.state.new_unit(nation, "infantry", home[0])
        free(ctx, nation, home, holders, rebels)
        return
    standing = rebels_attack(ctx, nation, occupied[0], rebels)
    if standing:
        free(ctx, nation, home, holders, standing)


def rebels_attack(ctx: TurnContext, nation: str, target: str, rebels: int) -> int:
    """The rebels rise in the occupied territory and "act as attackers" against the
    occupiers' land and air units there, the battle fought at once with step 9's dice.
    The rebels left standing when they won (the nation's units); 0 when beaten: the
    survivors, if any, lay down their arms and the land stays conquered."""
    army = [ctx.state.new_unit(nation, "infantry", target) for _ in range(rebels)]
    defenders = [u for u in ctx.units_at(target) if u.nation != nation and u.kind in LAND_UNITS + AIR_UNITS]
    ns = ctx.state.nations[nation]
    for other in sorted({u.nation for u in defenders} - set(ns.at_war_with)):  # the rising is a war on them
        ns.at_war_with = sorted([*ns.at_war_with, other])
        them = ctx.state.nations[other]
        them.at_war_with = sorted({*them.at_war_with, nation})
    battle = combat_land.fight(ctx, target, [], nation, army, defenders)
    won = bool(combat_land.survivors(battle)) and not combat_land.defenders_left(battle)
    combat_land.battle_event(ctx, battle, won)
    if not won:
        ctx.state.remove_units(army)
        ctx.emit("rebellion", PHASE, (), nation=nation, rebels=rebels, freed=False)
        return 0
    return len(combat_land.survivors(battle))


def free(ctx: TurnContext, nation: str, home: list[str], holders: list[str], rebels: int) -> None:
    """The rebellion succeeded: the land is the nation's again, `rebels` infantry on it."""
    ns = ctx.state.nations[nation]
    for t in home:
        ctx.state.control[t] = nation
    for h in holders:  # "any war state with former owners cease"
        ns.at_war_with = [n for n in ns.at_war_with if n != h]
        other = ctx.state.nations.get(h)
        if other is not None:
            other.at_war_with = [n for n in other.at_war_with if n != nation]
    ns.flags[NO_INFLUENCE] = ctx.turn  # "could no longer be influenced by any nation"
    ctx.emit("rebellion", PHASE, (), nation=nation, rebels=rebels, freed=True)
