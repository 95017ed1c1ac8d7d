"""Phase 3.3, active reconnaissance missions (RECON orders), flown after the passive looks.

"To override such limitations, one can use active reconassance mission with the player's
units, with better success, but such units cannot be used in combat, and are vulnerable
against enemy fire because they cannot attack during reconaissance mission. Also, units
in targeted province can fire at them - 1 on D10 die. Of land units only AA guns can
attack aircrafts doing reconaissance missions, also with 1 on D10 die." At sea: "naval
units doing active reconaissance missions can see the task forces of opposite navies IN
THE SAME SEA ZONE only. These task forces can fight back with 1 on D10"; aircraft there
"cannot be shot except by enemy planes". "All units doing reconaissance mission may fail
to do that, however, all data collected would be given to appropriate units in combat
phase and will be reflected on the main map after turn update".

The RECON home (engine/orders/recon.py) checks the order, claims its units in step 3.3
and hands the mission here (`send`); after the passive looks of 3.3 (phase3_passive_recon)
the table's step 3.3.1 (`fly_missions`) flies every mission in resolution order, in its
own dice stream (so a mission never shifts a passive roll, nor the reverse):

1. Fire: every unit of a nation at war with the mission's nation in the target that can
   shoot at one of the mission's units rolls one D10; a 1 hits the first of those units
   still flying (by id): land units on a mission are shot at by land units, aircraft by
   AA guns and aircraft (over land and sea), ships by warships (not transports). A hit
   sinks or downs a unit of one hit, damages one of more (battleships).
2. The look, by the units that came through: the table's active column for each
   (Scenario.recon: infantry 50%, tanks 25%, aircraft 80% over land; at sea cruisers 80%,
   battleships and bombers 50%, submarines 40%, fighters 20%), combined as independent
   tries (phase3_recon.any_hit), over land under the target's trench (x 1/2) or super
   trench (x 1/4) as the passive look is; one per-mille roll (phase3_recon.roll_recon).
3. What is learned, as a passive look: a hit, the exact enemy units by nation and kind;
   a miss, their colour band; a province masked by the countermeasure (3.2.2.4), the
   false colour whatever the roll. It goes into the mission nation's own record
   (NationState.flags[phase3_passive_recon.KNOWN]: an exact sighting replaces a band, never
   the reverse), which the conditional attacks read, and to that nation (and the
   moderator) only, as "recon-mission"; the nations whose units fired are told what they
   fired at ("recon-fired-on"): they saw the enemy come.

Readings (docs/rules-coverage.md, "Active reconnaissance").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from moderator.engine import phase3_passive_recon, phase3_recon
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, Unit, kinds

PHASE = "3.3"
MISSIONS = ("recon-missions",)  # ctx.memo: the missions the RECON home sent this turn
SHIPS_THAT_FIRE = tuple(k for k in SEA_UNITS if k != "transport")  # transports have no attack


@dataclass(frozen=True)
class Mission:
    nation: str
    order: int  # position of the RECON order in the nation's orders
    origin: str
    target: str
    unit_ids: tuple[str, ...]


def send(ctx: TurnContext, nation: str, index: int, origin: str, target: str, units: Sequence[Unit]) -> None:
    """The RECON home's hand-over: the mission flies when step 3.3's work runs."""
    ctx.memo.setdefault(MISSIONS, []).append(Mission(nation, index, origin, target, tuple(u.id for u in units)))


def fly_missions(ctx: TurnContext) -> None:
    """Step 3.3.1: the active missions, after the passive looks."""
    for mission in ctx.memo.get(MISSIONS, []):
        fly(ctx, mission)


def helping_at_sea(ctx: TurnContext, nation: str, zone: str) -> list[Unit]:
    """The units of this turn's missions to sea zone `zone` by the nation or its allies that
    came through the fire: "the side doing reconaissance may help own TF in the same sea
    zone to engage enemy or avoid detection (check reconaissance table)" (3.3); "Aircrafts
    in reconaissance mission on the sea can ... increase the chance for own task forces
    survival and to avoid combat or to engage enemy task force". Phase 4.2's contact adds
    their factors (engine/phase4_sea.py); they do not fight."""
    ids = {i for m in ctx.memo.get(MISSIONS, []) if m.target == zone
           and (m.nation == nation or ctx.allies(m.nation, nation)) for i in m.unit_ids}
    return sorted((u for u in ctx.state.units if u.id in ids), key=lambda u: u.id) if ids else []


def can_fire(shooter: str, target: str, at_sea: bool) -> bool:
    """Whether a defending unit of kind `shooter` may fire at a mission unit of kind `target`."""
    if target in AIR_UNITS:
        return shooter in AIR_UNITS or (shooter == "aa" and not at_sea)
    if target in SEA_UNITS:
        return shooter in SHIPS_THAT_FIRE
    return shooter in LAND_UNITS


def hit(ctx: TurnContext, unit: Unit) -> bool:
    """One hit on a mission unit; True if it is lost (a battleship takes it as damage first)."""
    stats = ctx.stats(unit.nation, unit.kind, unit)
    unit.damage += 1
    if unit.damage >= max(stats.hits if stats else 1, 1):
        ctx.state.units.remove(unit)
        return True
    return False


def defenders_fire(ctx: TurnContext, mission: Mission, flying: list[Unit], enemy: list[Unit]) -> list[Unit]:
    """Step 1: the defenders' D10s. Returns the mission units lost."""
    at_sea = ctx.is_sea(mission.target)
    lost: list[Unit] = []
    shooters = [u for u in enemy if any(can_fire(u.kind, f.kind, at_sea) for f in flying)]
    for shooter in shooters:
        aims = [f for f in flying if f not in lost and can_fire(shooter.kind, f.kind, at_sea)]
        if not aims:
            continue
        roll = ctx.dice.d10(f"{shooter.nation} {shooter.kind} fires at {mission.nation}'s reconnaissance of "
                            f"{mission.target} (1 hits, 3.3)")
        if roll == 1 and hit(ctx, aims[0]):
            lost.append(aims[0])
    if shooters:
        fired = sorted({u.nation for u in shooters})
        ctx.emit("recon-fired-on", PHASE, (*fired, MODERATOR), nations=fired, nation=mission.nation,
                 place=mission.target, units=kinds(flying), lost=kinds(lost))
    return lost


def chance(ctx: TurnContext, target: str, lookers: list[Unit], there: list[Unit]) -> Fraction:
    """Step 2: the mission's chance (the active column; over land, under the target's cover)."""
    where = phase3_recon.SEA if ctx.is_sea(target) else phase3_recon.LAND
    tries = phase3_recon.any_hit(phase3_recon.base_chance(ctx.scenario.recon, u.kind, where, active=True)
                                 for u in lookers)
    if where == phase3_recon.SEA:
        return tries
    return phase3_recon.COVER_FACTOR[phase3_passive_recon.cover(there)] * tries


def fly(ctx: TurnContext, mission: Mission) -> None:
    ids = set(mission.unit_ids)
    flying = sorted((u for u in ctx.state.units if u.id in ids), key=lambda u: u.id)
    enemies = set(ctx.nation(mission.nation).at_war_with)
    enemy = sorted((u for u in ctx.units_at(mission.target) if u.nation in enemies), key=lambda u: u.id)
    sent = kinds(flying)
    lost = defenders_fire(ctx, mission, flying, enemy)
    lookers = [u for u in flying if u not in lost]
    troops = [u for u in enemy if u.kind in phase3_passive_recon.TROOPS]
    c = chance(ctx, mission.target, lookers, enemy)
    seen_units: dict[str, dict[str, int]] = {}
    colour = phase3_passive_recon.band(len(troops))
    if not lookers:
        entry: dict[str, object] | None = None
    elif phase3_passive_recon.masked(ctx, mission.target, enemies, ctx.units_at(mission.target)):
        entry = {"seen": "band", "band": phase3_passive_recon.false_band(colour)}
    elif c >= 1 or (c > 0 and phase3_recon.roll_recon(c, ctx.dice, f"{mission.nation}'s reconnaissance mission to "
                                                                     f"{mission.target} (3.3)")):
        by_nation: dict[str, list[Unit]] = {}
        for u in troops:
            by_nation.setdefault(u.nation, []).append(u)
        seen_units = {n: kinds(us) for n, us in sorted(by_nation.items())}
        entry = {"seen": "exact", "units": seen_units}
    else:
        entry = {"seen": "band", "band": colour}
    if entry is not None:
        learn(ctx, mission.nation, mission.target, entry)
    ctx.emit("recon-mission", PHASE, (mission.nation, MODERATOR), nation=mission.nation, order=mission.order,
             origin=mission.origin, place=mission.target, units=sent, lost=kinds(lost),
             seen=str(entry["seen"]) if entry else "none", seen_units=seen_units,
             band=str(entry.get("band", "")) if entry else "", percent=phase3_recon.percent(c))


def learn(ctx: TurnContext, nation: str, place: str, entry: dict[str, object]) -> None:
    """Into the nation's own record of this turn: an exact sighting is never replaced by a band."""
    flags = ctx.state.nations[nation].flags
    record = dict(flags.get(phase3_passive_recon.KNOWN, {}))
    before = record.get(place)
    if entry["seen"] == "exact" or before is None or before.get("seen") != "exact":
        record[place] = dict(entry)
    flags[phase3_passive_recon.KNOWN] = record
