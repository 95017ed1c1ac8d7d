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
the main war): turns_after (Phase 9) and answer_turns (engine/wars.py join). Not drawn
yet: the influence rows and the column "B against C each consecutive turn" (the
moderator's ADJUST POINTS rulings).
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


GOES_ON = "local_war_goes_on"  # NationState.flags of B: the A it is still at war with (the last column)
TURNS_OWED = "local_war_turns_owed"  # NationState.flags of B: later turns of that war, answered at its joining
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


def turns_after(ctx: TurnContext) -> None:
    """Phase 9 of each later turn: B still neutral and still at war with A owes one more
    turn ("the next and following turns Italy still in war with Ottomans. all neutrals can
    have 0-1 point against Italy which will come in effect when Italy joins main war")."""
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
