"""Phase 7 rule 6: newly built ships that meet enemy ships attack them.

"All ships can only be placed into a sea zone adjacent to a land territory containing a
Port owned by that nation ... If this places ships into the same sea zone as enemy ships,
then a naval battle happens with the newly built ships considered to be the attackers.
Combat does not apply to newly built submarines."

Readings (docs/rules-coverage.md, "Readings of ambiguous rules"): after every build is
placed, in each sea zone (by name) each nation's new surface ships (not its submarines;
allies' new ships in the zone fight beside them) attack the surface ships there of the
nations at war with them; enemy submarines are not met (they share a zone with enemy
ships unless detected, 4.2.9). The battle is fought as in 4.3 (engine/naval_combat.py,
the new ships with their attack values, the defenders with their defence), in step 7's
dice stream, and told as a naval battle to those who fought it.
"""

from __future__ import annotations

from moderator.engine import naval_combat
from moderator.engine.combat_orders import BattleOrders
from moderator.engine.context import TurnContext
from moderator.engine.state import SEA_UNITS, Unit

PHASE = "7"


def placed_ships(ctx: TurnContext) -> list[Unit]:
    """The surface ships placed in this Phase 7 (the newest of each placement), by id."""
    out: dict[str, Unit] = {}
    for e in ctx.events:
        if e.code != "placed" or e.phase != PHASE or e.args["kind"] not in SEA_UNITS or e.args["kind"] == "submarine":
            continue
        here = sorted((u for u in ctx.units_at(e.args["place"], e.args["nation"]) if u.kind == e.args["kind"]),
                      key=lambda u: u.id)
        out.update((u.id, u) for u in here[-e.args["count"]:])
    return sorted(out.values(), key=lambda u: u.id)


def new_ships_attack(ctx: TurnContext) -> None:
    new = placed_ships(ctx)
    for zone in sorted({u.location for u in new}):
        fought: set[str] = set()  # nations whose new ships fought here (with their allies)
        for nation in sorted({u.nation for u in new if u.location == zone}):
            if nation in fought:
                continue
            alive = {u.id for u in ctx.state.units}
            attackers = [u for u in new if u.location == zone and u.id in alive
                         and (u.nation == nation or ctx.allies(u.nation, nation))]
            fought |= {u.nation for u in attackers}
            foes = sorted((u for u in ctx.units_at(zone) if u.kind in SEA_UNITS and u.kind != "submarine"
                           and ctx.at_war(nation, u.nation)), key=lambda u: u.id)
            if not attackers or not foes:
                continue
            first = naval_combat.NavalSide([naval_combat.Ship(u, f"{u.nation}/new", "new") for u in attackers], True)
            second = naval_combat.NavalSide([naval_combat.Ship(u, f"{u.nation}/at-sea", "at-sea") for u in foes],
                                            False)
            battle = naval_combat.fight(ctx, zone, first, second, (BattleOrders(), BattleOrders()))
            fleets = sorted({s.fleet for s in (*first.ships, *second.ships)})
            naval_combat.battle_event(ctx, battle, fleets)
