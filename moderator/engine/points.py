"""The points track of the neutrals (Neutrals, Phase 1.2): NationState.standing, -10..+10.

"There are five starting diplomatic stands on the diplomatic chart: Central Power Camp
(-10), Favorable to the Central Powers (-5), Completely Neutral (0), Favorable to the
Allies (5), and the Allied Power Camp (10)." Points toward the Allied Powers add, toward
the Central Powers subtract; the track stops at the camps (-10, +10).

Reaching a camp (Neutrals):
* "Any neutral nation which reaches 10 or more cannot declare new local war even if she
  lose points ... and even if she is below 10 in next turn(s)": the first turn it is
  reached is kept for good (flags["reached_ten"], read by the DECLARE WAR home).
* "If she is below 10 points, neutral nation cannot join main war by will until 10
  points are reached again": JOIN (engine/orders/neutrals.py) reads the points as they
  stood when the turn began (the kernel judges orders on what a nation knew then; China:
  "Whenever 10 points is reached, then China can join the main war at will in the
  following turn").
* "if minor (non-player) neutral reaches status when it can declare herself as a member
  of one camp or another, then notification about it would be sent to influenting side
  and then they can choose a player from the replacement pool ... Influenting side,
  however, wouldn't know which nation is going to join them": the side's nations are told
  that a minor is ready (not which), the moderator is told which (a flag: the
  replacement pool, Replacement Pool). A minor bouncing at the camp (-10, -9, -10: the
  two sides' unrestricted submarine warfare draw against each other every turn) is
  announced once; it is announced again only after its points came back to 0 or past.
  The moderator is asked once per minor and camp (flags READY_FLAGGED): the side's
  choice from the pool is the same question when the minor comes back to that camp (a
  player seated on it ends the questions: then it is the player's to JOIN).

Who sees what: "All things and events affecting major neutrals would be known only by
themselves"; influence is anonymous to the target. A change of points is told to the
neutral and the moderator only, never who caused it.
"""

from __future__ import annotations

from moderator.engine.context import MODERATOR, Position, TurnContext

CAMP = 10  # Phase 1.2: the Allied Power Camp (10), the Central Power Camp (-10)
REACHED = "reached_ten"  # NationState.flags: the turn a camp was first reached (the local-war lock)
READY_TOLD = "ready_told"  # NationState.flags of a non-player minor: the camp its side was told it reached
READY_FLAGGED = "ready_flagged"  # NationState.flags of a non-player minor: the camps the moderator was asked about
# Every draw of a neutral's points (the points of the turn, the response tables) ends its
# purpose so: the dice log reads plainly, and the resolution catalog can script them apart.
PURPOSE = "(neutrals' points)"


def sign(side: str) -> int:
    return {"allied": 1, "central": -1}.get(side, 0)


def seatless(pos: Position, nation: str) -> bool:
    """A nation no player commands (a minor not playable at the start, with no player seated
    on it since: flags["player"]): the moderator defends it, and a seat for it comes from the
    replacement pool (Replacement Pool)."""
    info = pos.scenario.nations.get(nation)
    return info is not None and not info.playable and not pos.nation(nation).flags.get("player")


def camp_of(standing: int) -> str:
    """The camp a standing has reached ("allied", "central"), or ""."""
    if standing >= CAMP:
        return "allied"
    if standing <= -CAMP:
        return "central"
    return ""


def move(ctx: TurnContext, nation: str, toward: str, amount: int, why: str, phase: str, both: bool = True) -> None:
    """Move the nation `amount` points toward `toward` ("allied"/"central"). A China split
    into two blocks moves both tracks (engine/china_split.py), unless `both` is False."""
    from moderator.engine import china_split

    ns = ctx.state.nations[nation]
    if both and china_split.split(ctx, nation):
        china_split.move_opposition(ctx, nation, toward, amount, why, phase)
    before = ns.standing
    ns.standing = max(-CAMP, min(CAMP, before + sign(toward) * amount))
    if ctx.checking or ns.standing == before:
        return  # nothing moved (a roll of 0, or already at the camp): the dice log has the roll
    told = ns.flags.get(READY_TOLD)
    if told and ns.standing * sign(str(told)) <= 0:
        ns.flags.pop(READY_TOLD)  # pulled back to the middle or beyond: reaching the camp again is news
    ctx.emit("points", phase, (nation, MODERATOR), nation=nation, change=ns.standing - before,
             standing=ns.standing, why=why)
    reached(ctx, nation, before, phase)


def toward_zero(ctx: TurnContext, nation: str, amount: int, why: str, phase: str) -> None:
    """Move the nation `amount` points toward 0, not past it (the aggression table's
    "0-6 points toward zero")."""
    standing = ctx.state.nations[nation].standing
    step = min(amount, abs(standing))
    if step:
        move(ctx, nation, "central" if standing > 0 else "allied", step, why, phase)


def reached(ctx: TurnContext, nation: str, before: int, phase: str) -> None:
    """What reaching a camp does (see the module docstring); nothing if it was there before."""
    ns = ctx.state.nations[nation]
    camp = camp_of(ns.standing)
    if not camp or camp_of(before) == camp or ns.side != "neutral":
        return
    ns.flags.setdefault(REACHED, ctx.turn)
    if seatless(ctx, nation):
        if ns.flags.get(READY_TOLD) == camp:
            return  # back at the camp it was announced at, never pulled back to the middle: told already
        ns.flags[READY_TOLD] = camp
        side = sorted(nid for nid, other in ctx.state.nations.items() if other.side == camp)
        ctx.emit("minor-ready", phase, tuple(side), side=camp)  # which minor: only the moderator knows
        asked = list(ns.flags.get(READY_FLAGGED, []))
        if camp not in asked:  # the moderator has this question once per minor and camp
            ns.flags[READY_FLAGGED] = sorted([*asked, camp])
            ctx.flag(phase, "minor-ready-replacement-pool", nation=nation, side=camp)
    else:
        ctx.tell(nation, "camp-reached", phase, side=camp)


def locked(pos: Position, nation: str) -> int | None:
    """The turn the nation first reached a camp (no new local war since), or None."""
    turn = pos.nation(nation).flags.get(REACHED)
    return int(turn) if turn is not None else None


def ready_to_join(pos: Position, nation: str, side: str = "") -> str:
    """The camp the nation's points had reached when the turn began, or "". A China split
    into two blocks may join the camp either track had reached (`side`, when it names one
    of them; engine/china_split.py)."""
    camp = camp_of(pos.standing_at_start.get(nation, pos.nation(nation).standing))
    other = pos.opposition_at_start.get(nation)
    if side and other is not None and camp != side and camp_of(other) == side:
        return side
    return camp
