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
B "n/a") is the first table's. Not drawn yet: the influence rows and the two columns of
the turns after (the moderator's ADJUST POINTS rulings).
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
