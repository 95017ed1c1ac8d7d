"""The bot's plays beyond marching and building: statecraft, support and fortification.

Each play picks among the legal options of a few order types (options.options: what the
order's home allows as the turn begins) and adds them to the draft (bot.Draft), as the
plays of bot.py do; the draft is checked whole by the checker before it is written.

* statecraft - a neutral joins the side it leans to (bots/history.py) when its points
               allow (1.2), a neutral major gears up now and then (Neutral majors), a
               nation coaxes Italy now and then; a nation makes peace with a neutral it
               fights a local war with (1.1), accepts an enemy's surrender on the table
               and offers its own when it has lost most of its home land (1.3), goes
               into exile with an ally once conquered (Conquered nations); blockades an
               enemy, closes a passage it holds to its enemies, declares unrestricted
               submarine warfare (1.4) once its side courts no neutral major any more,
               all now and then; and, rarely, a NOTE to the moderator;
* support    - free artillery next to land attacked this turn supports the attack, and
               threatened complexes and ports defend (Artillery, Industrial complexes,
               Ports; 4.6); the complex or port of conquered land the enemy next door
               outnumbers is plundered (Phase 5); now and then, money of a separated
               treasury goes home (Phase 8);
* fortify    - now and then, trenches around a threatened home city, and gear once
               researched: on its ships first (an improved AA gun, radar, sonar), else
               radar in a city (Trenches, Technology, Improved Anti-Aircraft Guns);
* hunt       - submarines lie in wait in their zone for passing task forces (4.2.10), and
               now and then the warships of a zone off enemy coast hunt submarines there
               (4.2.9) instead of sailing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.bots import history
from moderator.bots.options import options
from moderator.bots.prices import price
from moderator.engine.orders import ship_gear
from moderator.orders import model as m

if TYPE_CHECKING:  # bot.py holds the table of plays, these among them
    from moderator.bots.bot import Draft


def statecraft(d: Draft) -> None:
    s = d.seat
    if s.side == "neutral":
        wanted = history.lean(s.state, s.nation)
        for o in options(s, m.JoinSide):
            # JOIN is the player's choice ("can join the main war by will", Neutrals): a
            # bot joins only the side its history wants (bots/history.py). Joining any
            # side its points allowed sent the USA (US Entry -10 after the Ottomans and
            # Bulgaria joined) and then China to the Central Powers by turn 5.
            if isinstance(o, m.JoinSide) and o.side == wanted:
                d.take(o)
                # its new allies (Phase 1, before any attack): an attack on them takes nothing
                s.truce |= {n for n, ns in s.state.nations.items() if ns.side == o.side}
                return  # a nation joining has done its diplomacy for the turn
        if d.rng.random() < 0.2:
            _first(d, m.GearUp, cost=25)
    elif d.rng.random() < 0.1:
        _first(d, m.CoaxItaly, cost=20)
    for o in options(s, m.SurrenderVote):
        assert isinstance(o, m.SurrenderVote)
        d.take(o)
        s.truce.add(o.nation)  # accepted (1.3) before any attack: the checker refuses war on it after
    minors = {n for n, info in s.scenario.nations.items() if info.kind == "minor"}
    for o in options(s, m.Peace):  # a local war with a neutral minor ends after a while
        assert isinstance(o, m.Peace)
        if o.nation in minors and d.rng.random() < 0.15:
            d.take(o)
    home = s.world.home_of(s.nation)
    held = [p for p in home if s.state.controller(p) == s.nation]
    if home and len(held) * 4 < len(home):
        _first(d, m.OfferSurrender)
    if home and not held:  # conquered (the Bolsheviks have no home land to lose)
        _first(d, m.Exile)
    for kind, chance in ((m.Blockade, 0.3), (m.ClosePassage, 0.1), (m.SubWarfare, 0.05), (m.Note, 0.02)):
        if d.rng.random() < chance and not (kind is m.SubWarfare and _courting(d)):
            _first(d, kind)


def support(d: Draft) -> None:
    s = d.seat
    for o in options(s, m.ArtillerySupport):
        assert isinstance(o, m.ArtillerySupport)
        free = d.free(o.origin)["artillery"]
        if o.dest in d.targets and free:
            counts = (m.UnitCount("artillery", free),)
            d.take(m.ArtillerySupport(free, o.origin, o.dest), o.origin, counts)
    if d.rng.random() < 0.5:
        for o in options(s, m.DefendWith)[:2]:
            d.take(o)
    for o in options(s, m.Plunder):  # conquered land it may not keep: its complex or port for money
        assert isinstance(o, m.Plunder)
        if s.threat(o.place) > sum(s.stacks.get(o.place, {}).values()):
            d.take(o)
    if d.rng.random() < 0.2:
        for o in options(s, m.Transfer)[:1]:  # its money is kept from the builds of its treasury (3.1)
            assert isinstance(o, m.Transfer)
            d.take(o)
            d.pay(o.origin, o.amount)


def fortify(d: Draft) -> None:
    s = d.seat
    if d.rng.random() < 0.15 and d.budget >= 30:
        threatened = [o for o in options(s, m.BuildHomeTrenches)
                      if isinstance(o, m.BuildHomeTrenches) and s.threat(o.city)]
        if threatened:
            d.take(threatened[0], cost=price(s, threatened[0], 15))
    if d.rng.random() < 0.2 and d.budget >= 30:
        gear = [o for o in options(s, m.BuildShipGear) if isinstance(o, m.BuildShipGear)]
        gear = [o for o in gear if o not in d.orders]  # radar_aboard may have fitted this ship's radar
        aboard = [o for o in gear if o.ship is not None]  # the fleet first: its guns, radar and sonar
        if aboard or gear:
            o = d.rng.choice(aboard or gear)
            d.take(o, cost=ship_gear.price(s.position, s.nation, o.kind))


def hunt(d: Draft) -> None:
    s = d.seat
    for o in options(s, m.SubInterception):
        assert isinstance(o, m.SubInterception)
        counts = (m.UnitCount("submarine", o.count),)
        if d.fits(o.zone, counts):
            d.take(o, o.zone, counts)
    for o in options(s, m.SubDetection):
        assert isinstance(o, m.SubDetection)
        off_enemy_coast = any(s.land(p) and s.enemy(p) for p in s.neighbours(o.zone))
        if off_enemy_coast and d.rng.random() < 0.2 and d.fits(o.zone, o.units):
            d.take(o, o.zone, o.units)


def _courting(d: Draft) -> bool:
    """Its side still wants a neutral major in (bots/history.py courted): no unrestricted
    submarine warfare, which costs it 0-1 point a turn with every neutral (1.4)."""
    s = d.seat
    return s.side != "neutral" and bool(history.courted(s.state, s.side))


def _first(d: Draft, kind: type[m.Order], cost: int = 0) -> None:
    """The first legal option of `kind`, if there is one (and its home's price, `cost` a
    guess where the home has none, is in the budget)."""
    choices = options(d.seat, kind)
    if choices and price(d.seat, choices[0], cost) <= d.budget:
        d.take(choices[0], cost=price(d.seat, choices[0], cost))
