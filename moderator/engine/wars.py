"""Wars begun, camps joined, local wars ended (Phase 1.1, Neutrals, Local War, Limited War).

A declaration (DECLARE WAR, engine/orders/declare_war.py) or an attack without one
(the Move home, Phase 1.1: "the nation ... suffer double penalty for US entry") begins a
war both ways, as public news. Then:

* **The attacked neutral joins the other camp.** The Ottoman Empire: "If attacked by
  Allied Powers, Ottomans enter on the Central Powers side"; the example of the points
  tables: "Allied Powers declare war against Netherland: Netherland automatically joins
  CP"; the local-war table: "Main war nations (C) declare war against neutral major
  nation (A): joins opposite camp". Reading: any neutral a main-war nation goes to war
  with joins the opposite camp, in the checker's projection as in the engine (so a French
  army may enter Brussels as an ally the turn Germany declares war on Belgium), unless it
  is already at war with a member of that camp (Japan, at war with Germany from the
  start, is not pushed into the Central Powers by an Allied declaration: the moderator is
  told). A dominion that joins brings no one; an empire that joins brings its dominions
  (Major nations and colonies: they "follow the British Empire when British Empire join
  the main war"). A joining is public (Neutrals: "declarations and joinings are public").
  A neutral British Empire's declaration of war on a nation of the main war is its entry
  into the opposite camp (Italy: "If British Empire declares war on Austro-Hungary and
  Germany unprovoked"); provoked or not: engine/british_entry.py.
* **A non-player minor attacked into the main war** needs a player too: Replacement Pool:
  "If minor neutral joins the main war ... then the side with vacant position can pick
  the player from the list"; Phase 8 note: "Moderator will spend that money for defense
  purpose whenever he founds apropriate. When they join the main war ... [they] would be
  replaced with human player." The moderator is flagged
  (`minor-attacked-replacement-pool`, the sibling of the points path's
  `minor-ready-replacement-pool`), declared or not; the default meanwhile: its units
  stand and defend where they are, and its new allies may enter its land.
* **The other neutrals respond** (the Neutrals' first points table, engine/reactions.py):
  a side's declaration of war on a neutral, then the attacked neutral's joining (and any
  joining, by JOIN too), move every other neutral's points.
* **A minor neutral attacked by a neutral** needs a player: "If minor nation is attacked by
  major neutral then moderator should fill the position from replacement list"
  (Replacement Pool). The moderator is flagged (`war-by-neutral`, declared or not).
* **A war between two neutrals** is a local war (or a limited war where a neutral's
  section says so); Phase 1.1 note: it "lasts until either side capture one province from
  oposite side ... After that no war activities are allowed and either nation must
  declare war again". Local War: "(or more in the same turn)". So the captures are noted
  when they happen (conquest.seize, checker and engine alike) and the wars they decide
  end after the turn's movement and combat (end_decided_wars, run by the 4.6.1 step).
  China's limited wars with main-war nations end the same way (China: "Any minor war with
  China ends when China captures one territory belonging to the opposing nation or that
  nation captures one Chinese territory"; diplomacy.toml [wars] ends_on_capture).
"""

from __future__ import annotations

from moderator.engine import (
    british_entry,
    china_split,
    local_war_table,
    neutral_triggers,
    ottoman_civil_war,
    points,
    reactions,
    standing_events,
    us_entry,
)
from moderator.engine.context import Position, TurnContext

CAPTURED = "captured-from"  # ctx.done key: (CAPTURED, taker, loser) for every capture of the turn


def opposite(side: str) -> str:
    return {"allied": "central", "central": "allied"}.get(side, "")


def begin(ctx: TurnContext, nation: str, target: str, phase: str, surprise: bool) -> None:
    """`nation` and `target` are at war from now on; the attacked neutral joins the other camp."""
    for a, b in ((nation, target), (target, nation)):
        ns = ctx.state.nations[a]
        ns.at_war_with = sorted({*ns.at_war_with, b})
    if not ctx.checking:
        ctx.emit("war-declared", phase, (), nation=nation, target=target, surprise=surprise)  # public news
    us_entry.on_war(ctx, nation, target, phase, surprise)  # Japan's wars on Russia and China move the US Entry
    british_entry.on_war(ctx, nation, target, phase)  # a cause for the British Empire's entry
    ottoman_civil_war.on_war(ctx, nation, target, phase)  # the Ottomans turning on the Central Powers
    attacker = ctx.state.nations[nation].side
    if attacker == "neutral" and nation == british_entry.BRITAIN and ctx.state.nations[target].side != "neutral":
        join(ctx, nation, opposite(ctx.state.nations[target].side), phase, why="declared", by=target)
    elif ctx.state.nations[target].side == "neutral" and attacker != "neutral":
        camp = opposite(attacker)
        if not local_war_table.declared(ctx, nation, target, phase, surprise):  # a neutral in a local war: its table
            reactions.react(ctx, "declares-war", attacker, target, phase, surprise=surprise)
        enemies = sorted(e for e in ctx.state.nations[target].at_war_with if ctx.state.nations[e].side == camp)
        if enemies:
            if not ctx.checking:
                ctx.flag(phase, "attacked-neutral-at-war-with-the-camp", nation=target, attacker=nation, camp=camp,
                         enemies=enemies)
        else:
            join(ctx, target, camp, phase, why="attacked", by=nation)
            if not ctx.checking and points.seatless(ctx, target):
                ctx.flag(phase, "minor-attacked-replacement-pool", nation=target, attacker=nation, side=camp)
    elif attacker == "neutral":
        reactions.aggress(ctx, nation, target, phase)  # the neutrals' answer waits for its joining
        info = ctx.scenario.nations.get(target)
        if not ctx.checking and info is not None and info.kind == "minor" and ctx.state.nations[target].side == "neutral":
            # Replacement Pool: "If minor nation is attacked by major neutral then moderator should
            # fill the position from replacement list": the minor fights by the default meanwhile.
            ctx.flag(phase, "war-by-neutral", nation=target, attacker=nation, target=target)
    us_entry.war_production(ctx, nation, target, phase)  # a neutral USA at war with a major: its income


def join(ctx: TurnContext, nation: str, side: str, phase: str, why: str, by: str = "") -> None:
    """The nation joins a camp of the main war (and its dominions with it)."""
    followers = [nid for nid, info in sorted(ctx.scenario.nations.items())
                 if info.parent == nation and nid in ctx.state.nations and ctx.state.nations[nid].side == "neutral"]
    for nid in (nation, *followers):
        ctx.state.nations[nid].side = side
        if not ctx.checking:
            ctx.emit("joined", phase, (), nation=nid, side=side, why=why if nid == nation else "follows",
                     by=by if nid == nation else nation)
    reactions.react(ctx, "joins", side, nation, phase)  # the neutrals' table: its row of joining
    if why == "points":
        local_war_table.influenced_joined(ctx, nation, side, phase)  # a minor in a local war, influenced in
    if nation == british_entry.BRITAIN:
        british_entry.entered(ctx, side, why, phase)  # unprovoked: rows 15-16, Italy's table
    british_entry.on_join(ctx, nation, side, why, phase)  # a major joining the Central Powers: a cause
    neutral_triggers.on_join(ctx, nation, side, phase, why, by)  # the Ottomans: Arabia, Persia, Bulgaria
    if not ctx.checking:
        reactions.answer_aggressions(ctx, nation, side, phase)  # its own earlier wars, answered now
        local_war_table.answer_turns(ctx, nation, side, phase)  # a local war it kept on, answered now
        standing_events.answer_closings(ctx, nation, side, phase)  # its closings while neutral, too


def make_peace(ctx: TurnContext, a: str, b: str, phase: str) -> None:
    """a and b are at peace from now on (a peace both agreed, Austro-Hungarian option #1)."""
    for x, y in ((a, b), (b, a)):
        ns = ctx.state.nations[x]
        ns.at_war_with = sorted(set(ns.at_war_with) - {y})
    if not ctx.checking:
        ctx.emit("peace-made", phase, (), nations=sorted((a, b)))  # public news


# ---- local and limited wars ---------------------------------------------------------------
def note_capture(ctx: TurnContext, taker: str, loser: str | None) -> None:
    """conquest.seize calls this for every capture (the checker's assumed ones too)."""
    if loser is not None and loser != taker:
        ctx.use((CAPTURED, taker, loser))


def ends_on_capture(pos: Position, a: str, b: str) -> bool:
    """Is the war between a and b one that a single capture ends (local or limited war)?"""
    sa, sb = pos.nation(a).side, pos.nation(b).side
    if china_split.in_civil_war(pos, a, b):
        return False  # China's civil war lasts "until the end of hostilities"
    if sa == "neutral" and sb == "neutral":
        return True  # Local War
    limited = pos.scenario.diplomacy.ends_on_capture
    return (sa == "neutral" and a in limited) or (sb == "neutral" and b in limited)


def end_decided_wars(ctx: TurnContext, phase: str) -> None:
    """After the turn's combat: the local and limited wars a capture decided are over."""
    decided = sorted({tuple(sorted(key[1:3])) for key in ctx.done if key and key[0] == CAPTURED})
    for a, b in decided:
        if not ctx.at_war(a, b) or not ends_on_capture(ctx, a, b):
            continue
        for x, y in ((a, b), (b, a)):
            ns = ctx.state.nations[x]
            ns.at_war_with = sorted(set(ns.at_war_with) - {y})
        if not ctx.checking:
            winners = sorted({key[1] for key in ctx.done if key and key[0] == CAPTURED and {key[1], key[2]} == {a, b}})
            ctx.emit("local-war-ended", phase, (), nations=[a, b], winners=winners)
