"""German option #5, Sneak Supplies to German East Africa: what it changes in the builds
of the turn it is played (Phase 1.5 comes before the builds of 3.1).

"It will cost 6 resources to do this. On any turn this option is used, Germany may build
an additional two units in German East Africa (at normal cost and reducing manpower in
mainland, not colonial). For a cost of 8 resources (plus normal cost) Germany may build
an artillery unit in German East Africa without having an Industrial Complex there."

Readings (docs/rules-coverage.md, German Empire 1-7):
* the two units are on top of Phase 7 rule 8's allowance of the minor colony's city
  (German East Africa is worth 4: 2 a turn, 4 on a supplied turn), ships built out of its
  port included, as rule 8 counts them;
* "the supplies from Germany": on a supplied turn what is built there may be paid from the
  mainland's treasury when German East Africa is cut off (its own money first), at the
  units' normal prices; infantry built there on a supplied turn count against Germany's
  own limit, not the colonies' (engine/manpower.py colonial), as "reducing manpower in
  mainland, not colonial" asks;
* the artillery sentence belongs to the option: on a supplied turn an artillery placed
  there without an industrial complex costs 8 more instead of rule 5's 10, each (rule 5
  already allows it in a city for 10 more; the option makes it cheaper).
The engine decides all of it; nothing is left to the moderator.
"""

from __future__ import annotations

from moderator.engine.context import Position
from moderator.engine.orders.records import option_played

NATION, NUMBER, COLONY = "germany", 5, "German East Africa"
EXTRA_UNITS = 2  # "may build an additional two units in German East Africa"
ARTILLERY_EXTRA = 8  # "For a cost of 8 resources (plus normal cost) ... an artillery unit"


def supplied(pos: Position, nation: str) -> bool:
    """Has the nation played the option this turn?"""
    return nation == NATION and nation in pos.state.nations and option_played(pos, nation, NUMBER)


def extra_room(pos: Position, nation: str, city: str) -> int:
    """Units the colony city may build this turn on top of rule 8's allowance."""
    return EXTRA_UNITS if city == COLONY and supplied(pos, nation) else 0


def artillery_extra(pos: Position, nation: str, place: str, usual: int) -> int:
    """What an artillery placed in a city without a complex costs on top of its price."""
    return ARTILLERY_EXTRA if place == COLONY and supplied(pos, nation) else usual


def mainland_pays(pos: Position, nation: str, group: tuple[str, ...]) -> bool:
    """May the mainland's treasury pay for what the separated group builds this turn?"""
    return COLONY in group and supplied(pos, nation)
