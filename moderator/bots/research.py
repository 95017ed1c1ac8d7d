"""The bot's research programme: the technologies its own plays put to use, tried turn by turn.

Phase 2.1: "The player may try for any of the improved technologies below. It costs 10
resources per attempt, and only one attempt may be made for each technology per turn. On
a roll of a 9 or 10 on a ten-sided die, the player will have successfully have researched
the technology." An attempt at one technology a turn, drawn at random (bot.money), reaches
a four-advance technology about once a war: no bot reached the 4th tank advance, Radar or
Aircraft Carriers with fighters of fuel 5 in the soaks of docs/soak.md. A player works
toward what he means to use, so a nation at war follows two lines besides that draw: an
attempt a turn at each technology of a line below the level the line wants, in the
line's order while the money lasts:

* armour - a nation with tanks (level 1, its start or a success), or with enemy troops
  next to its own land (a land front), goes on to the 4th advance, the breakthrough ("the tank can go on to move into or attack a second
  territory after successfully capturing the first"; bot.breakthrough);
* fleet  - a nation with a battleship: Radar (a radar aboard warns of strikes,
  naval.radar_watch), then Improved Fighters to the 2nd advance (fuel 5, "a fighter
  needs 5 fuel points before it can be used on an Aircraft carrier"), then Aircraft
  Carriers (naval.carriers).

Only with money to spare (three times the attempt's price in hand after what the draft
has spent), and only at war: a neutral's money pushes its standing (bot.push_self). The
British Empire's dominions share its knowledge and its one attempt a technology a turn
(technology.knowledge_group): the empire follows the programme for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from moderator.engine.orders import research
from moderator.orders import model as m

if TYPE_CHECKING:  # bot.py holds the table of plays, this among them
    from moderator.bots.bot import Draft

ARMOUR = (("tanks", 4),)
FLEET = (("radar", 1), ("improved_fighters", 2), ("aircraft_carriers", 1))


def lines(d: Draft) -> list[tuple[tuple[str, int], ...]]:
    """The programme's lines this nation follows (see the module docstring)."""
    s = d.seat
    tech = s.state.nations[s.nation].tech
    kinds = {k for stack in s.stacks.values() for k in stack}
    out: list[tuple[tuple[str, int], ...]] = []
    if tech.get("tanks", 0) >= 1 or any(s.threat(p) for p in s.own if s.land(p)):
        out.append(ARMOUR)
    if "battleship" in kinds or "carrier" in kinds:
        out.append(FLEET)
    return out


def programme(d: Draft) -> None:
    """An attempt at each technology of the nation's lines below the level wanted."""
    s = d.seat
    spec = s.scenario.nations.get(s.nation)
    if s.side == "neutral" or (spec is not None and spec.parent):
        return  # a dominion's knowledge is its empire's, whose programme it is (technology.knowledge_group)
    tech = s.state.nations[s.nation].tech
    tried = {o.tech for o in d.orders if isinstance(o, m.Research)}
    for line in lines(d):
        for wanted in (t for t, level in line if tech.get(t, 0) < level and t not in tried):
            order = m.Research(wanted)
            price = research.price(s.position, s.nation, wanted)
            if d.budget >= 3 * price and s.allowed(order):
                d.take(order, cost=price)
                tried.add(wanted)
