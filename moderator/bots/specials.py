"""The special options a player uses on purpose, when the position calls for them (1.5).

The money play (bot.money) draws a special option now and then among those its nation's
table allows. Four of the rules' options are not something a player draws at random:
each gives something away (a battleship, a city, 25 resources) or spends the rails for
one end, and each is open only for a few turns, so a random draw never wrote them in a
soak. A player weighs them against the position, and so does this play (each only when
the option's home allows it, engine/orders/special_options.py):

* British #1, Ottoman Trade Fiasco ("give the Ottomans one of its two beginning
  Battleships ... the Ottoman Empire will get 0-6 points toward Allied Powers"): while
  the Ottomans, still neutral, lean to the Central Powers, a Britain with a battleship
  to spare (two or more afloat) hands one over to hold them back;
* German #7, Build subs in Adriatic Sea ("This sub can engage any surface ship or
  submarine in that sea in the same turn"): when the enemy has ships in the Adriatic,
  else now and then, Germany builds the submarine there and sends it, with any already
  there, to lie in wait at once (INTERCEPT, 4.2.10);
* Austro-Hungarian #1, Peace with Serbia ("offer Serbia 25 resources for a 50/50
  chance"): at war with Serbia and with another enemy on its borders, Austria-Hungary
  now and then buys the chance to end its southern front, and strikes no Serbian-held
  land that turn (the peace, if Serbia accepts, is made in Phase 1.5, before any attack);
* Austro-Hungarian #2, Seek Italy's Favor ("gift Trieste to Italy, along with paying
  Italy 15 resources"): a city is a high price, paid only when Italy, still neutral, is
  near joining the Allies (standing +5 or more of the +10 that brings it in).

Each is weighed once a turn, one option a turn at most, and always from the draft's
random stream (deterministic from the seed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.bots.options import Seat, units
from moderator.engine.adriatic_submarine import SEA as ADRIATIC
from moderator.engine.adriatic_submarine import TRIESTE
from moderator.engine.state import SEA_UNITS
from moderator.orders import model as m

if TYPE_CHECKING:  # bot.py holds the table of plays, this among them
    from moderator.bots.bot import Draft

# The options this play decides on, by nation: bot.money's random draw leaves them alone.
DELIBERATE = {("britain", 1), ("germany", 7), ("austria-hungary", 1), ("austria-hungary", 2)}

SPARE_BATTLESHIPS = 2  # British #1: "one of its two beginning Battleships" (one stays)
ITALY_NEAR = 5  # A-H #2: Italy's standing toward the Allies from which Trieste is worth it
SERBIAN_PEACE = 25  # A-H #1's price
ITALY_FAVOUR = 15  # A-H #2's price
PEACE_CHANCE = 0.35  # A-H #1: a turn's chance (once a game: it comes in the first turns)
FAVOUR_CHANCE = 0.5  # A-H #2, once Italy is near the Allies
TRADE_CHANCE = 0.5  # British #1, while the Ottomans lean to the Central Powers
ADRIATIC_CHANCE = 0.2  # German #7 with no enemy ship in the Adriatic


def specials(d: Draft) -> None:
    """At most one of the deliberate options a turn, the first whose moment has come."""
    for weigh in (ottoman_trade_fiasco, adriatic_submarine, peace_with_serbia, seek_italys_favour):
        if weigh(d):
            return


def deliberate(s: Seat, o: m.Order) -> bool:
    """An option this play decides on (not drawn at random by bot.money)."""
    return isinstance(o, m.SpecialOption) and (s.nation, o.number) in DELIBERATE


def _allowed(d: Draft, order: m.SpecialOption) -> bool:
    return (d.seat.nation, order.number) in DELIBERATE and d.seat.allowed(order)


def ottoman_trade_fiasco(d: Draft) -> bool:
    """British #1: the battleship to the Ottomans while they lean to the Central Powers."""
    s = d.seat
    if s.nation != "britain" or "ottoman" not in s.state.nations:
        return False
    ottoman = s.state.nations["ottoman"]
    afloat = sum(stack["battleship"] for stack in s.sea_stacks().values())
    order = m.SpecialOption(1)
    if ottoman.side != "neutral" or ottoman.standing >= 0 or afloat < SPARE_BATTLESHIPS:
        return False
    if d.rng.random() >= TRADE_CHANCE or not _allowed(d, order):
        return False
    d.take(order)
    ship = _handed_over(d)
    if ship is not None:  # "instantly ... moved off the map": no other order of the turn may name it
        d.used[(ship, "battleship")] += 1
    return True


def _handed_over(d: Draft) -> str | None:
    """Where the battleship the option hands over is (engine/ottoman_battleship.given: the
    nation's oldest afloat)."""
    s = d.seat
    ships = [u for u in s.state.units if u.nation == s.nation and u.kind == "battleship"
             and not s.land(u.location)]
    oldest = min(ships, key=lambda u: int(u.id.rsplit("-", 1)[-1]), default=None)
    return oldest.location if oldest is not None else None


def adriatic_submarine(d: Draft) -> bool:
    """German #7: a submarine railed to the Adriatic, lying in wait there at once."""
    s = d.seat
    if s.nation != "germany":
        return False
    stats = s.position.stats(s.nation, "submarine")
    if stats is None or d.budget < 3 * stats.cost:
        return False
    foes = any(k in SEA_UNITS for k in s.foes_at(ADRIATIC))
    order = m.SpecialOption(7)
    if not foes and d.rng.random() >= ADRIATIC_CHANCE:
        return False
    if not _allowed(d, order):
        return False
    d.take(order, cost=stats.cost)
    there = d.free(ADRIATIC)["submarine"]
    # The new sub is on the map from Phase 1.5 (engine/adriatic_submarine.carry), so the
    # interception names it with those already there (hunt then finds none of them free).
    d.take(m.SubInterception(there + 1, ADRIATIC), ADRIATIC, units({"submarine": there}))
    return True


def peace_with_serbia(d: Draft) -> bool:
    """Austro-Hungarian #1: the 25 for a 50/50 peace, when Serbia is one front of two."""
    s = d.seat
    if s.nation != "austria-hungary" or not s.state.at_war(s.nation, "serbia"):
        return False
    others = [e for e in s.enemies() if e != "serbia"
              and any(s.state.controller(nb) == e for p in s.own for nb in s.neighbours(p))]
    order = m.SpecialOption(1)
    if not others or d.budget < SERBIAN_PEACE or d.rng.random() >= PEACE_CHANCE or not _allowed(d, order):
        return False
    d.take(order, cost=SERBIAN_PEACE)
    s.truce.add("serbia")  # no attack this turn on the land of the peace it offers
    return True


def seek_italys_favour(d: Draft) -> bool:
    """Austro-Hungarian #2: Trieste and 15 to Italy, once Italy is near joining the Allies."""
    s = d.seat
    if s.nation != "austria-hungary" or "italy" not in s.state.nations:
        return False
    italy = s.state.nations["italy"]
    order = m.SpecialOption(2)
    if italy.side != "neutral" or italy.standing < ITALY_NEAR or d.budget < ITALY_FAVOUR:
        return False
    if d.rng.random() >= FAVOUR_CHANCE or not _allowed(d, order):
        return False
    d.take(order, cost=ITALY_FAVOUR)
    for kind, n in s.stacks.get(TRIESTE, {}).items():  # the garrison marches home at once (option_effects.give)
        d.used[(TRIESTE, kind)] += n
    return True
