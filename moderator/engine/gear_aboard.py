"""Radar and sonar aboard ships: mounted in Phase 7, used at sea in Phase 4, sunk with the ship.

The BUILD RADAR/SONAR ON <ship> order (engine/orders/ship_gear.py) pays in Phase 3.1; the
gear is mounted in Phase 7 ("Sonar units can only be placed onto ships in a sea zone
adjacent to a territory with a Port controlled by that nation. Radar unit can be placed
... onto ships in a sea zone adjacent to territory with a Port controlled by that
nation", Phase 7 item 7) on a ship of the ordered kind still in that sea zone. The gear
is recorded by ship (NationState.flags[GEAR]: unit id -> sorted kinds), so it follows its
ship wherever the naval phases take it, and "A radar unit is destroyed if the ship it is
on is sunk": a record whose ship is gone counts for nothing and is dropped in Phase 7.

What the gear does at sea (Phase 4.2, Radar, Sonar):
- Radar: "Reconaissance factor of ships can be increased by two if radar unit is
  mounted": every aggressive factor of a task force with a radar ship is two higher
  (engine/phase4_naval.py aggressive_factors; reading, docs/rules-coverage.md).
- Sonar: "or 50% if sonar is mounted in missions against submarines": a ship carrying
  sonar detects submarines (4.2.9) with half again its capability, rounded down as the
  rules round the bombardment's 25% (destroyers 5 -> 7, battleships 3 -> 4, subs 1 -> 1).
- Sonar: "all subs attacking a task force with a sonar unit in it receive -1 to their
  attack" (engine/naval_combat.py fire_value).
- Radar: "Enemy planes receive -1 to their attack when radar is present": aircraft
  attacking ships at sea against a side with a radar ship (fire_value). "If on a ship,
  that ship has a 50% chance of detecting them, and the ships have the option of
  retreating to an adjacent sea zone": engine/phase4_air_sea.py radar_warning.
- AA guns (Improved Anti-Aircraft Guns: "may also be put on ships. Battleships and
  carriers may hold 2 improved AA guns, while cruisers and transports may carry 1"):
  4.3 step 3, "Any AA guns on the ships get to fire at the planes that are going to
  attack" (engine/phase4_air_sea.py ships_aa).

Readings: one radar and one sonar per ship (a second of the same kind adds nothing, so it
goes to another ship of the kind, lowest id first); the gear goes on the ships of the
ordered kind in the zone at Phase 7 that have none of its kind yet; with none left there
(sunk, sailed away) or no own port beside the zone any more, the build is lost like any
other (Phase 7 note: "money for building is lost").
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.engine.context import PendingBuild, Position, TurnContext
from moderator.engine.placement import still_placeable
from moderator.engine.state import Unit, ids_of

PHASE = "7"
GEAR = "ship_gear"  # NationState.flags: ship unit id -> sorted gear kinds aboard
GEAR_KINDS = ("radar", "sonar", "aa")
SONAR_SHARE = (3, 2)  # 4.2: "or 50% if sonar is mounted": capability x 3/2, rounded down
SONAR_PENALTY = 1  # Sonar: "all subs attacking a task force with a sonar unit in it receive -1"
RADAR_PENALTY = 1  # Radar: "Enemy planes receive -1 to their attack when radar is present"


def aboard(pos: Position, ship: Unit) -> tuple[str, ...]:
    """The gear on a ship (nothing once it is sunk: it is no longer among the units)."""
    record = pos.state.nations[ship.nation].flags.get(GEAR, {}) if ship.nation in pos.state.nations else {}
    return tuple(record.get(ship.id, ()))


def carries(pos: Position, ships: Iterable[Unit], kind: str) -> bool:
    """Does any of these ships carry that gear?"""
    return any(kind in aboard(pos, u) for u in ships)


def mount(ctx: TurnContext, build: PendingBuild) -> None:
    """Phase 7: the paid gear goes aboard a ship of the ordered kind in the sea zone."""
    flags = ctx.state.nations[build.nation].flags
    record: dict[str, list[str]] = {k: list(v) for k, v in flags.get(GEAR, {}).items()}
    ships = sorted((u for u in ctx.state.units_at(build.place, build.nation)
                    if u.kind == build.on and room(record.get(u.id, ()), build)), key=lambda u: u.id)
    if not ships or not still_placeable(ctx, build.nation, build.kind, build.place):
        ctx.tell(build.nation, "build-lost", PHASE, kind=build.kind, count=build.count,
                 place=build.place, paid=build.paid)
        return
    ship = ships[0]
    record[ship.id] = sorted([*record.get(ship.id, ()), build.kind])
    flags[GEAR] = dict(sorted(record.items()))
    ctx.tell(build.nation, "placed", PHASE, kind=build.kind, count=build.count, place=build.place)


def room(aboard_now: Iterable[str], build: PendingBuild) -> bool:
    """Is there room on the ship for the gear? One radar and one sonar; AA guns up to the
    ship's AA_ROOM (2 on battleships and carriers, 1 on cruisers and transports)."""
    from moderator.engine.orders.ship_gear import AA_ROOM

    now = list(aboard_now)
    if build.kind == "aa":
        return now.count("aa") < AA_ROOM.get(build.on, 0)
    return build.kind not in now


def drop_sunk(ctx: TurnContext) -> None:
    """Phase 7: the records of ships that are gone (the gear went down with them)."""
    alive: set[str] | None = None  # every unit's id: only on a turn some gear is recorded (issue 14)
    for ns in ctx.state.nations.values():
        record = ns.flags.get(GEAR)
        if record is None:
            continue
        if alive is None:
            alive = ids_of(ctx.state.units)  # (at C speed: every unit of the map)
        kept = {k: v for k, v in record.items() if k in alive}
        if kept:
            ns.flags[GEAR] = kept
        else:
            del ns.flags[GEAR]


def guns(pos: Position, ship: Unit) -> int:
    """The AA guns aboard a ship."""
    return aboard(pos, ship).count("aa")


def detection(pos: Position, ship: Unit, capability: int) -> int:
    """4.2.9 with 4.2: a sonar ship's capability is half again higher (rounded down)."""
    if "sonar" in aboard(pos, ship):
        return capability * SONAR_SHARE[0] // SONAR_SHARE[1]
    return capability
