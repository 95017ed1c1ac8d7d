"""The British Empire's entry into the main war, provoked or unprovoked (British Empire
(while neutral), the Neutrals' first table rows 15-16, Italy).

"British, when neutral, are not able to declare war on any major neutral or minor neutral
but have free option to join main war if some events occur or to join main war
unprovoked." The events, on the Allied side:
  1. German fleet crosses Skagerrak and enters open sea (including submarines, empty
     transports excluded),
  2. Central Powers attack or incorporate any province belong to British Empire at the
     start of the game or attack any unit belong to British Empire,
  3. Central Powers attack Belgium or Denmark,
  4. Russian Empire loses three provinces to Central Powers including Japan if Japan
     declares full war against Russian Empire,
  5. Central Powers (Germans or Austro-Hungary) lose two provinces to Allied Powers,
  6. Central Powers take Alsace-Lorraine,
  7. Any other neutral major nation enters the war on Central Powers side;
on the Central Powers' side:
  1. Allied Powers attack or incorporate any province belong to British Empire ... or
     attack any unit belong to British Empire - warning, for this purpose Japan is counted
     as Allied Power,
  2. France attacks Spain if Spain is still neutral.
"If at least one of above events is accomplished ... then British Empire can have Causus
Belli to join main war and is not considered to join main war unprovoked."

Where each event is seen: the wars (2, 3 and 7; the Central Powers' 1 and 2) when they
begin or a nation joins (engine/wars.py calls on_war and on_join, in the checker's
projection too, so a JOIN written the turn Germany declares war on Belgium is provoked on
the receipt as in the engine); the fleet and the provinces (1, 4, 5, 6) in Phase 9, from
the position at the end of the turn (fleet_and_provinces). Each cause is kept once, with
its turn, in Britain's flags (CAUSES), and told to Britain and the moderator.

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"): a cause counts for the
side whose list names it (the Allied list gives no cause to join the Central Powers); the
British Empire includes its dominions (Canada, India, South Africa, Australia, New
Zealand: their land and units are the Empire's); "open sea" is a sea zone beyond the
Skagerrak reached from it (OPEN_SEA: the North Sea and the Atlantic waters around
Britain), where a German warship, submarine or a transport with German troops aboard
stands at the end of a turn; a province is lost when a nation of the other side (Japan
at full war with Russia counting for the Central Powers) holds it at the end of a turn;
Alsace-Lorraine is French on our map. An entry by being attacked is provoked by
definition (event 2 of either list); a major attacked into the Central Powers is no
cause (event 7 is a nation entering the war, not pushed into it). A neutral Britain's declaration of war on a nation
of the main war is its entry into the opposite camp ("If British Empire declares war on
Austro-Hungary and Germany unprovoked").

The unprovoked entry (unprovoked): the first table's row 15 or 16 for every neutral
(engine/reactions.py, event "enters-unprovoked"); on the Allied side, Italy's column is
"see Italy": Italy's own table, italy_table.
"""

from __future__ import annotations

from moderator.engine import chances, japan, points, reactions
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.neutral_triggers import leaning

BRITAIN = "britain"
CAUSES = "casus_belli"  # NationState.flags of Britain: {side: [cause, turn]}, the first cause of each side
PHASE9 = "9"
ITALY = "italy"
BELGIUM_DENMARK = frozenset({"belgium", "denmark"})
FRANCE, SPAIN, RUSSIA, JAPAN, GERMANY = "france", "spain", "russia", "japan", "germany"
CP_MAJORS = ("germany", "austria-hungary")  # event 5: "Central Powers (Germans or Austro-Hungary)"
ALSACE = "Alsace-Lorraine"
# Event 1: the sea zones beyond the Skagerrak (the Baltic, its gulfs and the Skagerrak itself
# are the German home waters). The Mediterranean and the seas of the other map sections
# are not reached by crossing the Skagerrak.
OPEN_SEA = frozenset({"North Sea", "Norwegian Sea", "Barents Sea", "White Sea", "English Channel", "Irish Sea",
                      "Northern Atlantic", "Middle Atlantic", "Southern Atlantic", "Bay of Biscay"})
WARSHIPS = frozenset({"battleship", "cruiser", "destroyer", "submarine", "carrier"})
RUSSIA_LOST, CP_LOST = 3, 2


def empire(pos: Position) -> frozenset[str]:
    """The British Empire and its dominions."""
    return frozenset({BRITAIN, *(nid for nid, info in pos.scenario.nations.items() if info.parent == BRITAIN)})


def provoked(pos: Position, side: str) -> bool:
    """Has an event of `side`'s list given the British Empire a cause to join it?"""
    causes = pos.nation(BRITAIN).flags.get(CAUSES) if BRITAIN in pos.state.nations else None
    return isinstance(causes, dict) and side in causes


def note(ctx: TurnContext, side: str, cause: str, phase: str) -> None:
    """Keep the first cause of `side`'s list while Britain is neutral, and tell it."""
    if BRITAIN not in ctx.state.nations or ctx.state.nations[BRITAIN].side != "neutral":
        return
    flags = ctx.state.nations[BRITAIN].flags
    causes = dict(flags.get(CAUSES) or {})
    if side in causes:
        return
    causes[side] = [cause, ctx.turn]
    flags[CAUSES] = causes
    if not ctx.checking:
        ctx.emit("casus-belli", phase, (BRITAIN, MODERATOR), nation=BRITAIN, side=side, cause=cause)


def counts_as(pos: Position, nation: str) -> str:
    """The nation's side for the lists: Japan counts as an Allied Power (the Central
    Powers' event 1)."""
    side = pos.nation(nation).side
    return "allied" if side == "neutral" and nation == JAPAN else side


def on_war(ctx: TurnContext, nation: str, target: str, phase: str) -> None:
    """engine/wars.py begin: `nation` went to war on `target` (declared or by an attack)."""
    if BRITAIN not in ctx.state.nations:
        return
    side = ctx.nation(nation).side
    if target in empire(ctx):
        if side == "central":
            note(ctx, "allied", "attacked-the-empire", phase)  # Allied event 2
        elif counts_as(ctx, nation) == "allied":
            note(ctx, "central", "attacked-the-empire", phase)  # Central event 1 (Japan counted)
    elif side == "central" and target in BELGIUM_DENMARK:
        note(ctx, "allied", "attacked-belgium-or-denmark", phase)  # Allied event 3
    elif nation == FRANCE and target == SPAIN and ctx.nation(SPAIN).side == "neutral":
        note(ctx, "central", "france-attacked-spain", phase)  # Central event 2


def on_join(ctx: TurnContext, nation: str, side: str, why: str, phase: str) -> None:
    """engine/wars.py join: Allied event 7, a neutral major entering the war on the Central
    Powers' side (by its points or its rules; not one the Allies attacked into it: France
    attacking Spain is the Central Powers' cause 2)."""
    info = ctx.scenario.nations.get(nation)
    if why == "attacked":
        return
    if side == "central" and nation != BRITAIN and info is not None and info.kind == "major":
        note(ctx, "allied", "a-major-joined-the-central-powers", phase)


def fleet_and_provinces(ctx: TurnContext) -> None:
    """Phase 9: Allied events 1, 4, 5 and 6, read on the position at the end of the turn."""
    if BRITAIN not in ctx.state.nations or ctx.state.nations[BRITAIN].side != "neutral":
        return
    if GERMANY in ctx.state.nations and any(at_sea(ctx, zone) for zone in sorted(OPEN_SEA)):
        note(ctx, "allied", "german-fleet-at-sea", PHASE9)
    if RUSSIA in ctx.state.nations and lost(ctx, (RUSSIA,), "central") >= RUSSIA_LOST:
        note(ctx, "allied", "russia-lost-three", PHASE9)
    if lost(ctx, CP_MAJORS, "allied") >= CP_LOST:
        note(ctx, "allied", "central-powers-lost-two", PHASE9)
    holder = ctx.controller(ALSACE) if ALSACE in ctx.world.territories else None
    if holder is not None and ctx.nation(holder).side == "central":
        note(ctx, "allied", "alsace-lorraine-taken", PHASE9)


def at_sea(ctx: TurnContext, zone: str) -> bool:
    """A German warship or submarine, or a transport with German troops aboard, in `zone`."""
    if zone not in ctx.world.territories:
        return False
    units = ctx.units_at(zone, GERMANY)
    if any(u.kind in WARSHIPS for u in units):
        return True
    return any(u.kind == "transport" for u in units) and any(u.kind not in WARSHIPS | {"transport"} for u in units)


def lost(ctx: TurnContext, losers: tuple[str, ...], takers: str) -> int:
    """How many of the losers' original provinces a nation of the side `takers` holds."""
    count = 0
    for loser in losers:
        for place in ctx.world.home_of(loser):
            holder = ctx.controller(place)
            if holder is None or holder == loser:
                continue
            side = ctx.nation(holder).side
            if side == takers or (holder == JAPAN and takers == "central" and japan_at_full_war(ctx, loser)):
                count += 1
    return count


def japan_at_full_war(ctx: TurnContext, loser: str) -> bool:
    """Allied event 4: "including Japan if Japan declares full war against Russian Empire".
    Option #4's FULL WAR (engine/japan.py); its limited war does not count."""
    return loser == RUSSIA and japan.full_war_on_russia(ctx.state)


# ---- the entry ---------------------------------------------------------------------------------
def entered(ctx: TurnContext, side: str, why: str, phase: str) -> None:
    """engine/wars.py join: the British Empire joined `side`; without a cause of that side's
    list (and not because it was attacked) the entry is unprovoked."""
    if why in ("attacked", "follows") or provoked(ctx, side):
        return
    if not ctx.checking:
        ctx.emit("entry-unprovoked", phase, (BRITAIN, MODERATOR), nation=BRITAIN, side=side)
    reactions.react(ctx, "enters-unprovoked", side, BRITAIN, phase)  # rows 15-16
    if side == "allied":
        italy_table(ctx, phase)  # row 16's Italy column: "see Italy"


TWICE = "attracted_twice"  # NationState.flags of Italy: the side its points of the turn are drawn twice toward
ITALY_SIX = 6  # "If Italy is leaning on Allied Powers by 6 or more then 6 points"


def italy_table(ctx: TurnContext, phase: str) -> None:
    """Italy: "If British Empire declares war on Austro-Hungary and Germany unprovoked ...
    1 Italy gets 20 points for the Allied Powers side; 2-3 Italy is twice attracted toward
    Allied Powers side (if current affiliation is toward Allied Powers) or changes
    affiliation to Allied Powers side (if current affiliation is toward Central Powers); 4
    No changes; 5-8 Italy changes affiliation and goes toward Central Powers side (if
    current affiliation is toward Allied Powers) or Italy is twice attracted toward [the
    Central Powers] (if current affiliation is toward Central Powers); 9-10 Italy gets 20
    points for the Central Powers side. This can happen only if Italy is leaning on Allied
    Powers side less then 6 points (or if Italy is leaning on Central Powers side). If
    Italy is leaning on Allied Powers by 6 or more then 6 points then Italy will simply be
    attracted twice toward Allied Powers side. Whatever is done, there would be no
    notifications about this event to Central Powers or Allied Powers side."
    Readings: "twice attracted" draws Italy's points of the turn twice toward that side
    while it leans so (engine/phase1_diplomacy.py); the 5-8 row's second "Allied" is the
    Central Powers (the row is Italy turning to the Central Powers). Italy and the
    moderator learn the outcome; no one else."""
    if ctx.checking or ITALY not in ctx.state.nations or ctx.state.nations[ITALY].side != "neutral":
        return
    leans = leaning(ctx, ITALY) or "allied"
    flags = ctx.state.nations[ITALY].flags
    if leans == "allied" and ctx.state.nations[ITALY].standing >= ITALY_SIX:
        outcome, face = chances.TWICE, 0
    else:
        face, outcome = chances.italy_and_britain(ctx.dice)
    ctx.emit("italy-table", phase, (ITALY, MODERATOR), nation=ITALY, roll=face, outcome=outcome)
    if outcome in (chances.ALLIED_20, chances.CENTRAL_20):
        toward = "allied" if outcome == chances.ALLIED_20 else "central"
        points.move(ctx, ITALY, toward, 20, "britain-unprovoked", phase)
    elif outcome == chances.TOWARD_ALLIES:
        attract_or_turn(ctx, leans, "allied")
    elif outcome == chances.TOWARD_CENTRAL:
        attract_or_turn(ctx, leans, "central")
    elif outcome == chances.TWICE:
        flags[TWICE] = "allied"


def attract_or_turn(ctx: TurnContext, leans: str, toward: str) -> None:
    """Leaning `toward` already: twice attracted; else the leaning turns to it."""
    flags = ctx.state.nations[ITALY].flags
    if leans == toward:
        flags[TWICE] = toward
    else:
        flags["leaning"] = toward  # told by the italy-table event
