"""Allied France and Spain keep apart while the Spanish Garrison rule stands (French option #1).

French option #1 (Spanish Relations): "If France and Spain are allied by other means and
Spanish Garrison rule still exists, then they cannot share the same provinces or waters.
Any such attempt will end in combat, although they won't change affiliation."

The rule stands until France's option #1 succeeds, from the next turn (the same pairs and
option as the ban on influence: scenarios/1914/diplomacy.toml [[influence.garrison]]).

Reading (docs/rules-coverage.md, "Readings of ambiguous rules"): the engine has no battle
between allies (Cooperation: allies share territories and never fight), and a battle
between them would need a war neither declared ("they won't change affiliation"). So
"any such attempt" is refused where it is written: a move of one of them into a land the
other holds, or into a land or sea zone where the other's units stood as the turn began
(MOVE and ATTACK, STRATEGIC MOVE, INVADE, a task force's step into a zone), with the
reason `garrison-apart`. The two never stand together, which is what the rule protects;
a moderator who wants the combat fought rules it by hand (SET WAR, then the battle).
Two moves of the same turn into one empty place are not foreseen (each is judged on the
position as the turn began), nor units that stood together when the two became allies:
at the end of each turn (Phase 9, `together`) every place where allied France and Spain
stand together while the rule binds is flagged for the moderator (`garrison-together`),
the default being that they stay as they are.
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.records import option_succeeded
from moderator.engine.problems import Problem, problem


def rule_stands(pos: Position, holder: str, option: int) -> bool:
    """The Spanish Garrison rule still binds this turn: `holder`'s option (France's #1) has
    not succeeded on an earlier turn (a success voids it from the next turn). Also the ban
    on France's influence on Spain (engine/orders/influence.py, `influence-garrison`)."""
    won = option_succeeded(pos, holder, option)
    return won is None or won >= pos.turn


def standing(pos: Position, nation: str) -> list[tuple[str, int]]:
    """The nations `nation` must keep apart from now, with the option that would end it."""
    out = []
    for a, b, option in pos.scenario.diplomacy.influence.garrison:
        if nation not in (a, b):
            continue
        other = b if nation == a else a
        if rule_stands(pos, a, option) and other in pos.state.nations and pos.allies(nation, other):
            out.append((other, option))
    return out


def apart_problem(pos: Position, nation: str, place: str) -> Problem | None:
    """Why `nation` may not enter `place` (see above), or None."""
    for other, option in standing(pos, nation):
        held = not pos.is_sea(place) and pos.controller(place) == other
        if held or pos.units_at(place, other):
            return problem("garrison-apart", place, place=place, other=other, option=option)
    return None


def together(ctx: TurnContext, phase: str) -> None:
    """Phase 9: the places where two nations the rule keeps apart stand together at the end
    of the turn ("cannot share the same provinces or waters. Any such attempt will end in
    combat"): flagged each turn while they do (`garrison-together`), for the moderator to
    rule the combat by hand (REMOVE the losses, MOVE one side out); by default they stay."""
    if ctx.checking:
        return
    for a, b, option in ctx.scenario.diplomacy.influence.garrison:
        if a not in ctx.state.nations or b not in ctx.state.nations:
            continue
        if not (rule_stands(ctx, a, option) and ctx.allies(a, b)):
            continue
        places = {u.location for u in ctx.state.units if u.nation == a} & {
            u.location for u in ctx.state.units if u.nation == b}
        for place in sorted(places):
            ctx.flag(phase, "garrison-together", nation=a, other=b, place=place, option=option)
