"""Taking a territory (Phase 4.4 capture, Phase 6 incorporation status).

Phase 4.4: "Moving a unit into an enemy-controlled territory containing no units
automatically puts that territory under the moving player's control or liberates it for
an ally if it was originally owned by an ally nation."
Phase 6: a conquered territory yields nothing until its conqueror pays to incorporate
it; a nation that recaptures its own original land reincorporates it free, but the
income comes back slowly (the delay table in phase6_incorporation).
Trenches: capturing a territory destroys the trenches that guarded it. Radar: "A radar
unit is destroyed if ... the territory it is in is captured in combat."
"""

from __future__ import annotations

from moderator.engine import bolsheviks, wars
from moderator.engine.context import TurnContext

TRENCHES = frozenset({"trench", "super_trench"})
DESTROYED_ON_CAPTURE = TRENCHES | {"radar"}


def new_holder(ctx: TurnContext, territory: str, taker: str) -> str:
    """Who controls the territory after `taker` takes it: its original owner if an ally."""
    owner = ctx.world.territories[territory].owner
    if owner and owner != taker and owner in ctx.state.nations and ctx.state.allies(taker, owner):
        return owner
    return taker


def seize(ctx: TurnContext, territory: str, taker: str) -> str:
    """What a capture does to the position, returning the new holder: control, the
    incorporation status (Phase 6: reincorporated free if it is the holder's own land,
    otherwise conquered and yielding nothing until incorporated) and the trenches lost.
    The order checker's assumed captures (the Move home's assume()) make the same change,
    so the income, the incorporations and the placements it projects are the engine's."""
    state = ctx.state
    before = state.controller(territory)
    wars.note_capture(ctx, taker, before)  # a capture decides a local war
    holder = new_holder(ctx, territory, taker)
    state.control[territory] = holder
    if bolsheviks.keeps_incorporation(ctx.world.territories[territory].owner, before, holder):
        pass  # Phase 9: in the civil war "it remains incorporated towards Russia in general"
    elif ctx.world.territories[territory].owner == holder:
        state.incorporated[territory] = ctx.turn  # Phase 6: reincorporation is free
    else:
        state.incorporated.pop(territory, None)  # Phase 6: conquered, not incorporated
    state.remove_units(u for u in state.units_at(territory)
                       if u.kind in DESTROYED_ON_CAPTURE and not state.allies(u.nation, holder))
    return holder


def take_territory(ctx: TurnContext, territory: str, taker: str, phase: str) -> None:
    before = ctx.state.controller(territory)
    holder = seize(ctx, territory, taker)
    ctx.emit("captured", phase, (), territory=territory, nation=taker, holder=holder, previous=before)
