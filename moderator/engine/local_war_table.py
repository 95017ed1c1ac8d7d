"""The neutrals' table for a main-war nation's war on a neutral in a local war (Neutrals:
"In next table are events that comes in effect if main war nations declare war or by any
other means affect nations that are involved in local war").

Its columns: the attacked neutral (A), the involved neutral (B) against C (the main-war
nation), Italy and the Ottomans against C, the USA, China and Spain against C, other
neighbouring minor neutrals against C, other distant minor neutrals against C, then two
columns for the turns after (B against C, and the other neutrals against B, while B is
still at war with A). The rows this module draws (the table lost its layout in the text;
read against its example):
* "Main war nations (C) declare war against neutral minor nation (A) involved in local
  war": A joins the opposite camp; B 0-7, Italy/Ottomans 0-3, USA/China/Spain 0-2,
  neighbouring minors 0-6, distant minors 0-3.
* "Main war nations (C) attack major neutral nation (A) involved in local war with minor
  neutral nation": A joins the opposite camp; the war with B ends; Italy/Ottomans 0-5,
  USA/China/Spain 0-2, neighbouring and distant minors 0-3.
* "Main war nations (C) attack major neutral nation (A) involved in local war with
  another major neutral nation": A joins the opposite camp; B 0-7, Italy/Ottomans 0-3,
  USA/China/Spain 0-2, neighbouring and distant minors 0-3. The example: "Ottoman Empire
  and Italy are in war with each other, Allied Powers declare war against Ottoman Empire:
  Ottoman Empire joins Central Powers side, Italy gets 0-7 point against Allied Powers,
  USA, Spain and China gets 0-2 points against AP, other minor neutrals gets 0-3 points
  against AP."

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"): these rows take the
place of the first table's row 1 or 2 (a side's declaration on a neutral) when the
attacked neutral is in a local war, as the example lists one draw for each neutral; the
attacked neutral's row of joining still follows ("events in rows below also apply").
"Neighbouring" is read against A, as in the first table. Japan, a neutral Britain and its
dominions have no column. A in local wars with several neutrals: B is each of them (a
major B's row for a major A when any B is a major). The first row (a war on a major A,
B "n/a") is the first table's. The last column of the major-against-major row (every
other neutral 0-1 against B for each later turn B keeps its war on A, drawn when B joins
the main war): turns_after (Phase 9) and answer_turns (engine/wars.py join).

The influence rows (influenced_joined), read against their example ("Italy is in war with
Switzerland, Central Powers succesfully influenced Switzerland and Switzerland joins the
Central Powers: Italy gets 0-6 points against Central Powers, if favorable to CP, all
neutrals get 0-1 points toward Central Powers, if not favorable, all neutrals get 0-2
points against Central Powers. If Italy continues war against Switzerland, then Italy can
have 0-3 points against Central Powers each turn the local war lasts, but all other
neutrals will have 0-1 point against Italy in the same time"):
* "Main war nations (C) succesfully influence minor nation (A) involved in local war (if
  favorable to C)": A n/a, B 0-6 against C, Italy/Ottomans, USA/China/Spain, neighbouring
  and distant minors 0-1 toward C; B 0-3 against C each later turn it is still at war
  with A; the other neutrals 0-1 against B each such turn.
* "(if not favorable to C)": the same, but the others 0-2 against C.
Readings: the row is drawn when A, a minor in a local war, joins C's camp by its points
(the example's "influenced ... and joins"); "favorable to C" is A's starting stand
(nations.toml `standing`: favourable to the side, -5 or +5); B's 0-3 is its own points,
drawn in Phase 9 of each later turn while B is neutral and at war with A; the others'
0-1 against B is owed and drawn when B joins (as the major-against-major row's).
"""

from __future__ import annotations

from moderator.engine import points, reactions
from moderator.engine.context import TurnContext

INVOLVED, ITALY_OTTOMANS, USA_CHINA_SPAIN = "involved", "italy-ottomans", "usa-china-spain"
GROUPS = {"italy": ITALY_OTTOMANS, "ottoman": ITALY_OTTOMANS, "usa": USA_CHINA_SPAIN, "china": USA_CHINA_SPAIN,
          "spain": USA_CHINA_SPAIN}
MINOR_A = {INVOLVED: 7, ITALY_OTTOMANS: 3, USA_CHINA_SPAIN: 2, reactions.NEIGHBOURING: 6, reactions.DISTANT: 3}
MAJOR_A_MINOR_B = {ITALY_OTTOMANS: 5, USA_CHINA_SPAIN: 2, reactions.NEIGHBOURING: 3, reactions.DISTANT: 3}
MAJOR_A_MAJOR_B = {INVOLVED: 7, ITALY_OTTOMANS: 3, USA_CHINA_SPAIN: 2, reactions.NEIGHBOURING: 3,
                   reactions.DISTANT: 3}


INFLUENCED = {INVOLVED: 6, ITALY_OTTOMANS: 1, USA_CHINA_SPAIN: 1, reactions.NEIGHBOURING: 1, reactions.DISTANT: 1}
INFLUENCED_NOT_FAVOURABLE = {INVOLVED: 6, ITALY_OTTOMANS: 2, USA_CHINA_SPAIN: 2, reactions.NEIGHBOURING: 2,
                             reactions.DISTANT: 2}
B_EACH_TURN = 3  # "B against C each consecutive turn if B is still in war with A": 0-3

GOES_ON = "local_war_goes_on"  # NationState.flags of B: the A it is still at war with (the last column)
TURNS_OWED = "local_war_turns_owed"  # NationState.flags of B: later turns of that war, answered at its joining
AGAINST = "local_war_against"  # NationState.flags of B: {A: C's side}, B's 0-3 a turn against it (influence rows)
EACH_TURN = 1  # "Other neutrals each consecutive turn against B if still in war with A": 0-1


def involved(ctx: TurnContext, target: str) -> list[str]:
    """The neutrals `target` is in a local war with."""
    return sorted(e for e in ctx.state.nations[target].at_war_with if ctx.state.nations[e].side == "neutral")


def kind(ctx: TurnContext, nation: str) -> str:
    info = ctx.scenario.nations.get(nation)
    return info.kind if info is not None else ""


def column(ctx: TurnContext, neutral: str, attacked: str, others: list[str]) -> str:
    if neutral in others:
        return INVOLVED
    if neutral in GROUPS:
        return GROUPS[neutral]
    if kind(ctx, neutral) != "minor" or ctx.nation(neutral).flags.get("active") is False:
        return ""
    return reactions.NEIGHBOURING if neutral in reactions.neighbours(ctx, attacked) else reactions.DISTANT


def declared(ctx: TurnContext, nation: str, target: str, phase: str, surprise: bool) -> bool:
    """engine/wars.py begin: a main-war nation went to war on the neutral `target`. When
    `target` is in a local war, this table's row is drawn (instead of the first table's
    declaration row) and True returned; otherwise False."""
    others = involved(ctx, target)
    if not others:
        return False
    if kind(ctx, target) == "minor":
        row, why = MINOR_A, "main war nations declare war against a minor in a local war"
    elif any(kind(ctx, b) == "major" for b in others):
        row, why = MAJOR_A_MAJOR_B, "main war nations attack a major in a local war with a major"
    else:
        row, why = MAJOR_A_MINOR_B, "main war nations attack a major in a local war with a minor"
    if row is MAJOR_A_MINOR_B:  # "ends war": the war with the minor is over
        for b in others:
            for x, y in ((target, b), (b, target)):
                ctx.state.nations[x].at_war_with = sorted(set(ctx.state.nations[x].at_war_with) - {y})
            if not ctx.checking:
                ctx.emit("local-war-ended", phase, (), nations=sorted((target, b)), winners=[])
    if row is MAJOR_A_MAJOR_B and not ctx.checking:  # the turns after: kept on B while its war on A lasts
        for b in others:
            flags = ctx.state.nations[b].flags
            flags[GOES_ON] = dict(sorted({**flags.get(GOES_ON, {}), target: ctx.turn}.items()))
    if ctx.checking:
        return True  # the checker's projection draws no dice
    away = "central" if ctx.nation(nation).side == "allied" else "allied"
    for neutral in sorted(ctx.state.nations):
        if neutral in (target, nation) or ctx.state.nations[neutral].side != "neutral":
            continue
        most = row.get(column(ctx, neutral, target, others), 0)
        if not most:
            continue
        amount = ctx.dice.between(0, most, f"{ctx.nation_name(neutral)}'s points: {why} {points.PURPOSE}")
        if surprise and neutral == "usa":
            amount *= 2  # Phase 1.1: "suffer double penalty for US entry"
        points.move(ctx, neutral, away, amount, "war-on-a-neutral-in-a-local-war", phase)
    return True


def influenced_joined(ctx: TurnContext, nation: str, side: str, phase: str) -> None:
    """engine/wars.py join: the minor `nation` (A) joined `side` (C's) by its points while
    in a local war: the influence rows (see the module docstring)."""
    others = involved(ctx, nation)
    if not others or kind(ctx, nation) != "minor" or ctx.checking:
        return
    start = ctx.scenario.nations[nation].standing if nation in ctx.scenario.nations else 0
    favourable = start * points.sign(side) > 0
    row = INFLUENCED if favourable else INFLUENCED_NOT_FAVOURABLE
    away = "central" if side == "allied" else "allied"
    why = f"{ctx.nation_name(nation)}, in a local war, influenced into the main war"
    for neutral in sorted(ctx.state.nations):
        if neutral == nation or ctx.state.nations[neutral].side != "neutral":
            continue
        col = column(ctx, neutral, nation, others)
        most = row.get(col, 0)
        if not most:
            continue
        amount = ctx.dice.between(0, most, f"{ctx.nation_name(neutral)}'s points: {why} {points.PURPOSE}")
        toward = side if favourable and col != INVOLVED else away  # "toward Central Powers" / "against"
        points.move(ctx, neutral, toward, amount, "local-war-minor-influenced", phase)
    for b in others:  # the turns after, while B keeps its war on A
        flags = ctx.state.nations[b].flags
        flags[GOES_ON] = dict(sorted({**flags.get(GOES_ON, {}), nation: ctx.turn}.items()))
        flags[AGAINST] = dict(sorted({**flags.get(AGAINST, {}), nation: side}.items()))


def b_against_c(ctx: TurnContext, phase: str) -> None:
    """Phase 9 of each later turn: B, still neutral and at war with the influenced A, draws
    0-3 against A's side ("Italy can have 0-3 points against Central Powers each turn the
    local war lasts")."""
    for b in sorted(ctx.state.nations):
        flags = ctx.state.nations[b].flags
        against = {a: side for a, side in flags.get(AGAINST, {}).items() if ctx.at_war(b, a)}
        if not against or ctx.state.nations[b].side != "neutral":
            flags.pop(AGAINST, None)
            continue
        flags[AGAINST] = against
        for a, side in sorted(against.items()):
            if int(flags.get(GOES_ON, {}).get(a, ctx.turn)) >= ctx.turn:
                continue  # "each consecutive turn": from the turn after the joining
            amount = ctx.dice.between(0, B_EACH_TURN, f"{ctx.nation_name(b)}'s points: its local war on "
                                      f"{ctx.nation_name(a)} goes on {points.PURPOSE}")
            points.move(ctx, b, "central" if side == "allied" else "allied", amount, "local-war-goes-on", phase)


def turns_after(ctx: TurnContext) -> None:
    """Phase 9 of each later turn: B still neutral and still at war with A owes one more
    turn ("the next and following turns Italy still in war with Ottomans. all neutrals can
    have 0-1 point against Italy which will come in effect when Italy joins main war")."""
    b_against_c(ctx, "9")
    for b in sorted(ctx.state.nations):
        flags = ctx.state.nations[b].flags
        wars_on = {a: int(turn) for a, turn in flags.get(GOES_ON, {}).items() if ctx.at_war(b, a)}
        if not wars_on or ctx.state.nations[b].side != "neutral":
            flags.pop(GOES_ON, None)
            continue
        flags[GOES_ON] = wars_on
        later = sum(1 for turn in wars_on.values() if turn < ctx.turn)  # "the next and following turns"
        if later:
            flags[TURNS_OWED] = int(flags.get(TURNS_OWED, 0)) + later


def answer_turns(ctx: TurnContext, nation: str, side: str, phase: str) -> None:
    """engine/wars.py join: B joined `side`; every still-neutral nation draws 0-1 against
    it for each turn owed."""
    flags = ctx.state.nations[nation].flags
    owed = int(flags.pop(TURNS_OWED, 0))
    flags.pop(GOES_ON, None)
    if ctx.checking or not owed:
        return
    away = "central" if side == "allied" else "allied"
    for _ in range(owed):
        for neutral in sorted(ctx.state.nations):
            if neutral == nation or ctx.state.nations[neutral].side != "neutral":
                continue
            if neutral not in GROUPS and (kind(ctx, neutral) != "minor"
                                          or ctx.nation(neutral).flags.get("active") is False):
                continue  # Japan, a neutral Britain, the dominions: no column
            amount = ctx.dice.between(0, EACH_TURN, f"{ctx.nation_name(neutral)}'s points: a local war kept on "
                                      f"by {ctx.nation_name(nation)} {points.PURPOSE}")
            points.move(ctx, neutral, away, amount, "local-war-kept-on", phase)
