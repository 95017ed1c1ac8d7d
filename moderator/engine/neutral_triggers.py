"""The events of the Ottoman and Italian sections that move their points (Neutrals).

The Ottoman Empire ("Ottomans must collect 10 points ... which can be awarded by certain
actions and events"):
* "if the Russian fleet leaves the Black Sea for any reason, then 0-10 points toward CP
  side" (russian_fleet_left, Phase 9);
* "if Arabia or Persia enter the main war on the Allied Powers side, then 0-5 points
  toward CP side for each country", "if Arabia or Persia enter the main war on the
  Central Powers side, then 0-5 points toward AP side for each country, this event is
  taken only if Arabia or Persia are not attacked by Allied Powers nations", "if Bulgaria
  enters the main war on Central Powers side, then 0-10 points toward Central Powers
  side" (on_join, called by engine/wars.py join);
* "if British Option #2 is done when British Empire is alligned with the Allied Powers,
  then 0-10 points toward Allied Powers side" (british_option_2, engine/option_effects.py).

Italy:
* "If the Central Power capture the territory of Paris, the 0-20 points toward Central
  Powers side and then Italy can have 0-3 points toward Central Powers side each
  following turn, i.e. Italy is leaning toward Central Powers side" (paris_fallen,
  Phase 9);
* "If France loses Alsace-Lorraine or Britian loses the territory of Suez to the CP, then
  Italy can have 1 point more per turn toward Central Powers side (and 1 point less per
  turn toward Allied Powers side). This is negated when France and British Empire
  recover the territory(ies) This is cumulative per province." and the same toward the
  Allies for Ruhr, Trieste and Bosnia lost by the Central Powers (italy_lean_bonus, read
  by engine/phase1_diplomacy.py for Italy's points of the turn).

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"): "1 point more per turn"
widens the range of Italy's points of the turn by one (as French option #3's "0-4 points
each turn instead 0-3"), "1 point less" narrows it, never below 0-0; a province counts
while a nation of the other side holds it. "The Russian fleet leaves the Black Sea": the
first Phase 9 in which no Russian warship (transports are no fleet) is in the Black Sea's
zones, sunk or sailed away, once a game. Paris counts once, the first Phase 9 a Central
Power holds it. Every draw goes through engine/points.py (the Ottomans or Italy and the
moderator learn it) with the purpose ending in points.PURPOSE; nothing moves a nation no
longer neutral.
"""

from __future__ import annotations

from moderator.engine import points
from moderator.engine.context import TurnContext

OTTOMAN, ITALY, RUSSIA = "ottoman", "italy", "russia"
BLACK_SEA = ("Western Black Sea", "Eastern Black Sea")
FLEET_GONE = "russian_fleet_left"  # NationState.flags of the Ottomans: the turn it counted
PARIS = "Paris"
PARIS_FALLEN = "paris_fallen"  # NationState.flags of Italy: the turn it counted
# (nation joining, the side it joins) -> (toward, the most points) for the Ottomans.
OTTOMAN_JOINS = {("arabia", "allied"): ("central", 5), ("persia", "allied"): ("central", 5),
                 ("arabia", "central"): ("allied", 5), ("persia", "central"): ("allied", 5),
                 ("bulgaria", "central"): ("central", 10)}
NOT_IF_ATTACKED_BY_AP = frozenset({"arabia", "persia"})  # "only if ... not attacked by Allied Powers nations"
# Italy's provinces: the territory -> the side whose loss of it leans Italy the other way.
ITALY_PROVINCES = {"Alsace-Lorraine": "allied", "Suez Canal": "allied",
                   "Ruhr": "central", "Trieste": "central", "Bosnia": "central"}
WARSHIP_KINDS = frozenset({"battleship", "cruiser", "destroyer", "submarine", "carrier"})


def neutral(ctx: TurnContext, nation: str) -> bool:
    return nation in ctx.state.nations and ctx.state.nations[nation].side == "neutral"


def draw(ctx: TurnContext, nation: str, toward: str, most: int, why: str, phase: str) -> None:
    if ctx.checking or not neutral(ctx, nation):
        return
    amount = ctx.dice.between(0, most, f"{ctx.nation_name(nation)}'s points: {why} {points.PURPOSE}")
    points.move(ctx, nation, toward, amount, why, phase)


# ---- the Ottoman Empire ------------------------------------------------------------------------
def on_join(ctx: TurnContext, nation: str, side: str, phase: str, why: str, by: str) -> None:
    """engine/wars.py join: Arabia, Persia or Bulgaria joined a side."""
    rule = OTTOMAN_JOINS.get((nation, side))
    if rule is None:
        return
    attacked_by_ap = why == "attacked" and ctx.nation(by).side == "allied"
    if side == "central" and nation in NOT_IF_ATTACKED_BY_AP and attacked_by_ap:
        return
    draw(ctx, OTTOMAN, rule[0], rule[1], "a-neighbour-joined", phase)


def british_option_2(ctx: TurnContext, nation: str, phase: str) -> None:
    """British option #2 played while Britain is an Allied Power: 0-10 toward the Allies."""
    if nation == "britain" and ctx.nation(nation).side == "allied":
        draw(ctx, OTTOMAN, "allied", 10, "option", phase)


def russian_fleet_left(ctx: TurnContext, phase: str) -> None:
    """Phase 9: the first turn no Russian warship is left in the Black Sea."""
    ott = ctx.state.nations.get(OTTOMAN)
    if ott is None or not neutral(ctx, OTTOMAN) or ott.flags.get(FLEET_GONE) is not None:
        return
    if RUSSIA not in ctx.state.nations:
        return
    if any(u.kind in WARSHIP_KINDS for zone in BLACK_SEA for u in ctx.units_at(zone, RUSSIA)):
        return
    ott.flags[FLEET_GONE] = ctx.turn
    draw(ctx, OTTOMAN, "central", 10, "russian-fleet-left", phase)


# ---- Italy -------------------------------------------------------------------------------------
def leaning(ctx: TurnContext, nation: str) -> str:
    """The side the nation leans to: flags["leaning"] when set (a coaxing, Paris, Trieste or
    Marseille given, Italy's table after Britain's unprovoked entry, a SET FLAG ruling),
    else the scenario's (nations.toml); "neutral" (Austro-Hungarian #2: Italy "considered
    neutral") is no side."""
    flagged = ctx.nation(nation).flags.get("leaning")
    if flagged in ("allied", "central"):
        return str(flagged)
    if flagged == "neutral":
        return ""
    info = ctx.scenario.nations.get(nation)
    return info.leaning if info is not None and info.leaning else ""


def paris_fallen(ctx: TurnContext, phase: str) -> None:
    """Phase 9: the first turn a Central Power holds Paris."""
    italy = ctx.state.nations.get(ITALY)
    holder = ctx.controller(PARIS)
    if italy is None or not neutral(ctx, ITALY) or italy.flags.get(PARIS_FALLEN) is not None:
        return
    if holder is None or ctx.nation(holder).side != "central":
        return
    italy.flags[PARIS_FALLEN] = ctx.turn
    italy.flags["leaning"] = "central"  # "i.e. Italy is leaning toward Central Powers side"
    draw(ctx, ITALY, "central", 20, "paris-fallen", phase)


def italy_lean_bonus(ctx: TurnContext) -> int:
    """Points a turn toward the Allies (minus: toward the Central Powers) that the lost
    provinces add to Italy's range: +1 for each of Ruhr, Trieste, Bosnia an Allied Power
    holds, -1 for each of Alsace-Lorraine, Suez a Central Power holds."""
    bonus = 0
    for place, loser in ITALY_PROVINCES.items():
        holder = ctx.controller(place)
        taker = ctx.nation(holder).side if holder is not None else ""
        if loser == "central" and taker == "allied":
            bonus += 1
        elif loser == "allied" and taker == "central":
            bonus -= 1
    return bonus
