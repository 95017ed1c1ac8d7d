"""4.3 step 1 with 4.5: the air combat before aircraft from land strike ships at sea.

4.3 step 1: "Any fighter stationed aboard undamaged aircraft carriers may attempt to
intercept any aircraft in the attacking force and engage in air combat (see air combat).
Also, all protecting fighters from land can fight attacking aircrafts in air combat."
Aircraft Carriers: "with fighters onboard an aircraft carrier supplements those other
naval units when attacked by land-based aircraft"; "A damaged carrier cannot launch
fighters though fighters may still land on it".

The interceptors (guards) of an air strike on a sea zone (engine/phase4_air_sea.py) are
the fighters of the nations at war with the strikers standing in the zone with their own
undamaged carriers there, at most the carriers' capacity (lowest ids first), and the
fighters those nations sent to the zone as cover from land this turn (4.2: "Aircraft may
be sent into a sea zone during naval movement and assigned to a task force as cover": a
MOVE of aircraft to the sea zone, engine/phase4_air_sea.py). A nation that ordered LET THROUGH AT the sea zone lets the strikers
go by (4.5: "the enemy fighters have the option of intercepting or letting them go").

The air combat is 4.5's, as in a bombing raid (engine/phase4_air.py raid): rounds in
which both sides roll one D10 a plane, fighters at their value in the fighter technology
table (combat_air), bombers at 1; each hit downs a plane, the cheapest first; "Each plane
removes 1 fuel point". 4.5: "If the player has aircraft which are intercepted and
successfully defeat or merely outlast ... the intercepting aircraft, then the mission
... may continue, assuming those planes still have enough fuel points": a striker fights
while its fuel pays for another air round and a round against the ships after it
(phase4_sea.air_rounds counts the rounds it may spend at sea); when it does not and
guards with fuel remain, it turns back without striking (as a raider does); a
guard aboard a carrier "may expend all of their fuel points in this battle, since once
they disengage they need only land" (4.5 step 3): its tank; a guard from land keeps the
fuel to fly home. After each round with guards left, a striking nation whose BREAK OFF
AIR COMBAT AT the zone condition is met takes its aircraft home (4.5 step 3).
The strikers left attack the ships (steps 2-7); their air rounds count against their fuel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from moderator.engine.combat_air import dogfight_value, enemy_level
from moderator.engine.combat_orders import withdrawal
from moderator.engine.context import TurnContext
from moderator.engine.orders import interception
from moderator.engine.phase4_air import down, tank_of
from moderator.engine.state import Unit, kinds

PHASE = "4.3"


@dataclass
class AirCombat:
    """What the air combat at sea left: the strikers still flying at the ships, those gone
    home by BREAK OFF, the guards left, and the rounds fought."""

    strikers: list[Unit]
    guards: list[Unit]
    rounds: int = 0
    broke_off: dict[str, list[Unit]] = field(default_factory=dict)  # nation -> aircraft gone home
    fought: dict[str, int] = field(default_factory=dict)  # striker id -> air rounds it fought (its fuel)
    guard_fought: dict[str, int] = field(default_factory=dict)  # guard id -> air rounds it fought
    lost: list[Unit] = field(default_factory=list)  # strikers downed
    turned_back: list[Unit] = field(default_factory=list)  # strikers whose fuel ran short of the guards
    guards_lost: list[Unit] = field(default_factory=list)


def carrier_fighters(ctx: TurnContext, zone: str, nation: str) -> list[Unit]:
    """The nation's fighters aboard its undamaged carriers in the zone (Aircraft Carriers:
    the carriers' capacity, lowest ids first; "A damaged carrier cannot launch fighters"),
    not those flown off this turn to strike another zone (each unit does one thing a turn)."""
    carriers = [u for u in ctx.state.units_at(zone, nation) if u.kind == "carrier" and not u.damage]
    room = sum((stats.capacity if (stats := ctx.stats(nation, "carrier", u)) else 0) for u in carriers)
    planes = sorted((u for u in ctx.state.units_at(zone, nation) if u.kind == "fighter" and u.id not in ctx.moved),
                    key=lambda u: u.id)
    return planes[:room]


def guards(ctx: TurnContext, zone: str, strikers: Sequence[str], cover: Sequence[Unit]) -> list[Unit]:
    """Every fighter that intercepts strikers of `strikers`' nations over the zone: aboard
    carriers, or flown in as cover; not those of a nation that lets them through."""
    passing = interception.passing(ctx, zone)
    foes = sorted({u.nation for u in ctx.state.units_at(zone)} | {u.nation for u in cover})
    foes = [n for n in foes if any(ctx.at_war(s, n) for s in strikers)]
    out = [u for n in foes for u in carrier_fighters(ctx, zone, n)]
    out += [u for u in cover if u.kind == "fighter" and u.nation in foes and u not in out]
    for n in sorted({u.nation for u in out} & passing):
        ctx.tell(n, "let-through", PHASE, territory=zone, units=kinds([u for u in out if u.nation == n]))
    return sorted((u for u in out if u.nation not in passing), key=lambda u: u.id)


def fight(ctx: TurnContext, zone: str, strikers: Sequence[Unit], spare: Mapping[str, int],
          guarding: Sequence[Unit], guard_rounds: Mapping[str, int]) -> AirCombat:
    """4.5 over the sea zone. spare: the rounds each striker's fuel pays for at sea (it keeps
    one for the ships); guard_rounds: each guard's rounds of air combat."""
    air = AirCombat(list(strikers), list(guarding))
    nations = sorted({u.nation for u in strikers})
    while air.strikers:
        fit = [g for g in air.guards if guard_rounds.get(g.id, 0) > air.rounds]
        if not fit:
            break  # the strikers left defeated or outlasted the guards: their mission goes on
        able = [u for u in air.strikers if spare.get(u.id, 0) - 1 > air.rounds]  # one round kept for the ships
        air.turned_back += [u for u in air.strikers if u not in able]
        air.strikers = able
        if not able:
            break
        air.rounds += 1
        for u in able:
            air.fought[u.id] = air.rounds
        for g in fit:
            air.guard_fought[g.id] = air.rounds
        purpose = f"air combat over {zone} round {air.rounds}"
        # each plane's own row against the best fighter it meets (4.5, as over land)
        them, us = enemy_level(ctx, fit), enemy_level(ctx, able)
        s_hits = sum(ctx.dice.d10(f"{purpose}: {u.nation} {u.kind}") <= dogfight_value(ctx, u, them) for u in able)
        g_hits = sum(ctx.dice.d10(f"{purpose}: {g.nation} fighter") <= dogfight_value(ctx, g, us) for g in fit)
        air.guards_lost += down(ctx, air.guards, s_hits)
        air.lost += down(ctx, air.strikers, g_hits)
        if any(guard_rounds.get(g.id, 0) > air.rounds for g in air.guards):
            break_off(ctx, zone, air, nations)
    return air


def break_off(ctx: TurnContext, zone: str, air: AirCombat, nations: Sequence[str]) -> None:
    """4.5 step 3 with BREAK OFF AIR COMBAT AT the sea zone (engine/orders/interception.py)."""
    kills = len(air.guards_lost)
    for nation in nations:
        own = interception.retreat_conditions(ctx, nation, zone)
        mine = [u for u in air.strikers if u.nation == nation]
        lost = sum(1 for u in air.lost if u.nation == nation)
        why = withdrawal(own, air.rounds, lost, kills) if own and mine else None
        if why is None:
            continue
        air.broke_off[nation] = mine
        air.strikers = [u for u in air.strikers if u.nation != nation]
        seen = sorted({nation, *(g.nation for g in (*air.guards, *air.guards_lost))})
        ctx.emit("air-retreat", PHASE, seen, nation=nation, territory=zone, condition=why, rounds=air.rounds,
                 units=kinds(mine))


def event(ctx: TurnContext, zone: str, air: AirCombat, strikers: Sequence[Unit]) -> None:
    """air-combat-at-sea: seen by every nation with aircraft in it."""
    if not air.rounds and not air.turned_back:
        return
    seen = sorted({u.nation for u in (*strikers, *air.guards, *air.guards_lost)})
    ctx.emit("air-combat-at-sea", PHASE, seen, zone=zone, attackers=sorted({u.nation for u in strikers}),
             defenders=sorted({u.nation for u in (*air.guards, *air.guards_lost)}), rounds=air.rounds,
             lost=kinds(air.lost), interceptors_lost=kinds(air.guards_lost), turned_back=kinds(air.turned_back))


def carrier_rounds(ctx: TurnContext, plane: Unit) -> int:
    """A guard aboard a carrier lands where it fights: its whole tank (4.5 step 3)."""
    return tank_of(ctx, plane)
