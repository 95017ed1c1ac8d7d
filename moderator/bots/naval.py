"""The bot's blockade play: warships sail to an enemy's blockade zones and blockade it.

Phase 1.4: "If main war nation has at least one surface ship in above mentioned sea zones
[the table: the targeted nation's sea zones], then she can declare Naval Blockade against
target nation ... This option must be selected on a turn by turn basis." The declaration
is made in Phase 1, before the ships move (4.2), so a bot first sails a task force there
on one turn (MOVE, one sea zone per movement point, 4.2.7) and declares on the next, as
long as a ship stays (the task force's BLOCKADE mission, 4.2.6: "TF stays in the same
sea zone"). The same ships cut the US trade to that enemy where the Variable US Trade
table names the zone (BLOCKADE US TRADE TO, while the US is neutral).

A nation at war sends at most one task force a turn, and only one within a few sea zones
of the target's zones (a fleet on the far side of the world stays where it is needed).

The options of battle at sea go with it (`withdraw`): a task force without a battleship
turns back after contact is lost (4.2), ships with a radar aboard off enemy coast retreat
when it warns of a strike (Radar). And the carriers' play (`carriers`, Aircraft Carriers):
a carrier built where the fleet is, fighters built onto it, its fighters in the attacks.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import TYPE_CHECKING

from moderator.bots.options import Seat, options, units
from moderator.engine import passages, placement
from moderator.engine.gear_aboard import aboard
from moderator.engine.orders import ship_gear
from moderator.engine.orders.declarations import blockade_zones
from moderator.engine.orders.task_forces import SURFACE
from moderator.orders import model as m

if TYPE_CHECKING:  # bot.py holds the table of plays, this among them
    from moderator.bots.bot import Draft

REACH = 6  # the farthest (in sea zones) a bot sends a task force to blockade
CARRIER_REACH = 30  # a carrier group crosses the world, turn by turn, to meet the enemy's coast


def zones_of(s: Seat, target: str) -> tuple[list[str], tuple[str, ...]]:
    """The target's blockade zones on the map (1.4's table) and the ships that count."""
    table = blockade_zones(s.position, m.Blockade(target))
    if table is None:
        return [], ()
    return [z for z in table[0] if z in s.world.territories], table[1]


def sea_path(s: Seat, start: str, goals: set[str], kinds: set[str], reach: int = REACH) -> list[str] | None:
    """The shortest way by sea from `start` to one of `goals` (the zones after `start`),
    through no passage closed to these ships; None if there is none within `reach`."""
    back: dict[str, str | None] = {start: None}
    queue = deque([(start, 0)])
    while queue:
        zone, steps = queue.popleft()
        if zone in goals:
            path = []
            at: str | None = zone
            while at is not None and at != start:
                path.append(at)
                at = back[at]
            return path[::-1]
        if steps >= reach:
            continue
        for nb in s.neighbours(zone):
            if nb in back or not s.world.territories[nb].is_sea:
                continue
            if passages.barred(s.position, s.nation, zone, nb, kinds) is not None:
                continue
            back[nb] = zone
            queue.append((nb, steps + 1))
    return None


def blockade(d: Draft) -> None:
    """Declare a blockade of each enemy where the nation has a ship in its zones (and keep
    those ships there); else, now and then, send the nearest free task force toward one."""
    s = d.seat
    if s.side == "neutral":
        return
    declared = {(o.target, o.us_trade) for o in d.orders if isinstance(o, m.Blockade)}
    wanting: list[tuple[str, list[str]]] = []
    for target in s.enemies():
        zones, ships = zones_of(s, target)
        if not zones:
            continue
        there = [z for z in zones if any(s.stacks.get(z, Counter())[k] for k in ships)]
        if not there:
            wanting.append((target, zones))
            continue
        for us_trade in (False, True):
            order = m.Blockade(target, us_trade=us_trade)
            if (target, us_trade) not in declared and s.allowed(order):
                d.take(order)
        _stay(d, there[0])
    if wanting and d.rng.random() < 0.5:
        _sail(d, wanting)


def _stay(d: Draft, zone: str) -> None:
    """The surface warships in the zone form a task force on a BLOCKADE mission (4.2.6):
    they stay, so the blockade can be declared again next turn."""
    warships = {k: n for k, n in d.free(zone).items() if k in SURFACE and k != "transport"}
    if not warships:
        return
    name, ships = d.task_force(), units(warships)
    d.take(m.TaskForce(name, zone, ships), zone, ships)
    d.orders.append(m.TaskForceMission(name, "blockade"))


def _sail(d: Draft, wanting: list[tuple[str, list[str]]]) -> None:
    """The free task force nearest to an enemy's blockade zones sails toward them, one
    sea zone per movement point of its slowest ship."""
    s = d.seat
    best: tuple[int, str, m.TaskForce, list[str]] | None = None
    for o in options(s, m.TaskForce):
        assert isinstance(o, m.TaskForce)
        if not d.fits(o.location, o.units):
            continue
        kinds = {u.kind for u in o.units}
        for target, zones in wanting:
            path = sea_path(s, o.location, set(zones), kinds)
            if path and (best is None or (len(path), target) < (len(best[3]), best[1])):
                best = (len(path), target, o, path)
    if best is None:
        return
    _, _, o, path = best
    speeds = [st.move for u in o.units if (st := s.position.stats(s.nation, u.kind)) is not None]
    steps = path[:min(speeds, default=0)]
    if not steps:
        return
    name = d.task_force()
    d.take(m.TaskForce(name, o.location, o.units), o.location, o.units)
    for zone in steps:
        d.orders.append(m.TaskForceMission(name, "move", dest=zone))
    if not any(u.kind == "battleship" for u in o.units):
        withdraw(d, steps[-1], "contact-lost")


def withdraw(d: Draft, zone: str, kind: str) -> None:
    """WITHDRAW FROM <zone> IF CONTACT LOST (4.2: "cancel mission and return to the sea
    zone from where they came") or IF RADAR WARNS (Radar: "the ships have the option of
    retreating to an adjacent sea zone"); one of a kind per zone, as the checker wants.

    A task force without a battleship sailing toward an enemy's zones is the weaker
    party when it meets a fleet: after contact is lost it goes back rather than sail on
    into the fleet it lost (a battle line goes on)."""
    if not any(isinstance(o, m.CombatCondition) and o.dest == zone and o.kind == kind for o in d.orders):
        d.orders.append(m.CombatCondition(zone, kind, 0))


RADAR_SHIPS = ("battleship", "carrier")  # "may be placed on battleships or carriers" (Radar)
STRIKE_REACH = 2  # links from enemy land within which its aircraft strike ships at sea


def radar_aboard(d: Draft) -> None:
    """Once Radar is researched, a battleship or carrier of the fleet that has none gets
    one (Radar: "Cost 18, may be placed on battleships or carriers"; a zone beside an own
    port, Phase 7 item 7, as the home checks): one a turn, with money to spare."""
    s = d.seat
    if s.state.nations[s.nation].tech.get("radar", 0) < 1:
        return
    for o in options(s, m.BuildShipGear):
        assert isinstance(o, m.BuildShipGear)
        price = ship_gear.price(s.position, s.nation, o.kind)
        if o.kind == "radar" and o.ship in RADAR_SHIPS and d.budget >= 2 * price and o not in d.orders:
            d.take(o, cost=price)
            return


def radar_watch(d: Draft) -> None:
    """Ships with a radar aboard (engine/gear_aboard.py) within the enemy's aircraft's
    reach (enemy land within two links: a fighter of fuel 4 flies one link over land and
    two into a sea zone) take the Radar option, on a mission or not: when the radar
    sights aircraft coming to strike them, they retreat ("the ships have the option of
    retreating to an adjacent sea zone")."""
    s = d.seat
    for zone in sorted(s.sea_stacks()):
        radar = any("radar" in aboard(s.position, u) for u in s.state.units_at(zone, s.nation))
        if radar and any(s.land(p) and s.enemy(p) for p in s.within(zone, STRIKE_REACH)):
            withdraw(d, zone, "radar")


CARRIER_TECH = "aircraft_carriers"


def carriers(d: Draft) -> None:
    """Aircraft Carriers, once researched: the fighters aboard the nation's carriers strike
    the coast of their sea zone (an ATTACK from the zone: they take off, fight and land
    back aboard), joining an attack of this turn there, else alone where the engine's odds
    say they clear the defenders (`strike`); a carrier's free room takes new fighters built
    directly onto it (beside an own industrial complex, fighters of fuel 5); and now and
    then a nation with money to spare, fighters of fuel 5 and no carrier yet builds one
    where its fleet meets the enemy's coast, in a zone beside an own port and an own
    complex (so fighters can be built onto it). A carrier group with fighters aboard and
    no enemy coast beside it sails toward the nearest (`carrier_move`)."""
    s = d.seat
    for zone in sorted(s.sea_stacks()):
        strike(d, zone)
    carrier_move(d)
    fighter = s.position.stats(s.nation, "fighter")
    for zone, stack in sorted(s.sea_stacks().items()):
        room = placement.carrier_room(s.position, s.nation, zone) if stack["carrier"] else 0
        build = m.Build("fighter", room, zone)
        if room and fighter is not None and d.budget >= fighter.cost * room and s.allowed(build):
            d.take(build, cost=fighter.cost * room)
    carrier = s.position.stats(s.nation, "carrier")
    if (s.state.nations[s.nation].tech.get(CARRIER_TECH, 0) < 1 or carrier is None or fighter is None
            or fighter.fuel < NAVAL_FUEL or d.rng.random() > 0.5 or d.budget < carrier.cost
            or any(u.kind == "carrier" for u in s.state.nation_units(s.nation))):
        return
    docks = {z for p in s.own for z in s.neighbours(p) if not s.land(z)} | set(s.sea_stacks())
    fleet = sorted((z for z in docks if placement.industry_beside(s.position, s.nation, z)),
                   key=lambda z: (not any(s.land(p) and s.enemy(p) for p in s.neighbours(z)),
                                  -sum(s.stacks.get(z, Counter()).values()), z))
    for zone in fleet:
        build = m.Build("carrier", 1, zone)
        if s.allowed(build):
            d.take(build, cost=carrier.cost)
            return


def carrier_move(d: Draft) -> None:
    """A free carrier group with fighters aboard in a zone off no enemy coast sails toward
    the nearest zone that is, however far (4.2.4, the carrier move mission: "that TF would act
    defensively"), one sea zone per movement point, and strikes from there on a later
    turn (`strike`)."""
    s = d.seat
    for o in options(s, m.TaskForce):
        assert isinstance(o, m.TaskForce)
        zone = o.location
        if not any(u.kind == "carrier" for u in o.units) or not d.fits(zone, o.units) or not d.free(zone)["fighter"]:
            continue
        if any(s.land(p) and s.enemy(p) for p in s.neighbours(zone)):
            continue
        goals = {z for z in s.world.territories if not s.land(z)
                 and any(s.land(p) and s.enemy(p) for p in s.neighbours(z))}
        path = sea_path(s, zone, goals, {u.kind for u in o.units}, CARRIER_REACH)
        speeds = [st.move for u in o.units if (st := s.position.stats(s.nation, u.kind)) is not None]
        steps = (path or [])[:min(speeds, default=0)]
        if not steps:
            continue
        name = d.task_force()
        d.take(m.TaskForce(name, zone, o.units), zone, o.units)
        for step in steps:
            d.orders.append(m.TaskForceMission(name, "carrier", dest=step))


NAVAL_FUEL = 5  # "a fighter needs 5 fuel points before it can be used on an Aircraft carrier"


def strike(d: Draft, zone: str) -> None:
    """The free fighters aboard in `zone` attack enemy coast of the zone: the land attacked
    this turn if there is one (they fight beside the troops), else a raid on the coast
    most weakly held, where the defenders are no more than the fighters and have neither
    fighters nor AA guns to shoot back at aircraft (they wear the garrison down; they
    cannot take the land, 4.4)."""
    s = d.seat
    fighters = d.free(zone)["fighter"]
    if not fighters:
        return
    flight = units({"fighter": fighters})
    joined = [p for p in s.neighbours(zone) if s.land(p) and p in d.targets]
    alone = sorted((sum(s.defenders_at(p).values()), p) for p in s.neighbours(zone)
                   if s.land(p) and s.enemy(p) and p not in d.targets and s.defenders_at(p)
                   and not {"fighter", "aa"} & set(s.defenders_at(p)))
    raid = [p for n, p in alone[:1] if n <= fighters]
    for place in joined or raid:
        d.take(m.Attack(flight, zone, place), zone, flight)
        d.targets.add(place)
        return
