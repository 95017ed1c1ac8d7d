"""The Bolshevik seat after the rising (Phase 9, The Russian Revolution).

Once the revolution has begun "either the moderator or a player specifically designated
to play the Bolshevik forces will move those forces as if they were their own nation".
The Bolsheviks are a nation of the scenario (nations.toml [bolsheviks]: their own
treasury, costs and units) whose seat the moderator gives a player; what is theirs alone:

* their land is Russia's: "Both Russian and Bolshevik players may draw resources from any
  Russian territories they control, and if one side captures a territory from the other
  they do not need to incorporate it; it remains incorporated towards Russia in general"
  -- so Russia's start land counts as their original land for placement (Phase 7 rule 1),
  and a capture between the two keeps the territory's incorporation (`keeps_incorporation`,
  called by conquest.seize);
* "in addition to building new infantry out of cities, the Bolsheviks may place new
  infantry units into any Russian territories not currently occupied by any Russian
  troops. These can be territories already under Bolshevik control or any territory still
  under Russia's control that contains no Russian units. The Bolsheviks may place a number
  of infantry units into a territory with no city, equal to the resource value of that
  territory" (`free_land`, read by placement.placement; the territory is theirs when the
  infantry is placed in Phase 7: `rise_in`);
* "Bolshevik forces can only attack Russian forces, or any troops on Russian soil, but
  cannot attack outside lands that were Russian at the start of game play" and, after
  winning, "selectively target and attack any nations which had conquered any Russian
  territories ... If and only if, all that has been achieved will the Bolshevik player
  then seek to continue any wars": no Bolshevik unit goes into land outside Russia's
  start land until they hold all of it (`outside_russia`, read by the Move home).

Readings (docs/rules-coverage.md, "Phase 9").
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.problems import Problem, problem

RUSSIA, BOLSHEVIKS = "russia", "bolsheviks"


def original_owner(nation: str) -> str:
    """Whose start land counts as the nation's own (Phase 7 rule 1)."""
    return RUSSIA if nation == BOLSHEVIKS else nation


def pending(pos: Position, nation: str, place: str) -> int:
    return sum(b.count for b in pos.builds if b.nation == nation and b.place == place and b.kind == "infantry")


def free_land(pos: Position, nation: str, place: str) -> tuple[int | None] | Problem | None:
    """Bolshevik infantry in Russian land without Russian troops: (room,) -- None: no limit
    (a city) -- or why not; None where the rule does not apply (the general rules do)."""
    if nation != BOLSHEVIKS or not pos.place(place).is_land:
        return None
    terr = pos.place(place)
    if terr.owner != RUSSIA or pos.controller(place) not in (RUSSIA, BOLSHEVIKS) or pos.units_at(place, RUSSIA):
        return None
    if terr.city:
        return (None,)
    left = max(0, terr.value - pending(pos, nation, place))
    if left == 0:
        return problem("place-outside-city-full", place, place=place, value=terr.value)
    return (left,)


def may_rise(pos: Position, nation: str, kind: str, place: str) -> bool:
    """Phase 7: Bolshevik infantry bought for Russia-held land still free of Russian troops."""
    return (nation == BOLSHEVIKS and kind == "infantry" and pos.place(place).is_land
            and pos.place(place).owner == RUSSIA and pos.controller(place) == RUSSIA
            and not pos.units_at(place, RUSSIA))


def rise_in(ctx: TurnContext, nation: str, kind: str, place: str) -> None:
    """The infantry placed there takes the territory for the Bolsheviks (incorporation kept)."""
    if may_rise(ctx, nation, kind, place):
        ctx.state.control[place] = BOLSHEVIKS


def keeps_incorporation(territory_owner: str | None, before: str | None, holder: str) -> bool:
    """A capture between Russia and the Bolsheviks of Russian start land: "it remains
    incorporated towards Russia in general"."""
    return territory_owner == RUSSIA and {before, holder} == {RUSSIA, BOLSHEVIKS}


def outside_russia(pos: Position, nation: str, dest: str) -> Problem | None:
    if nation != BOLSHEVIKS or pos.is_sea(dest) or pos.place(dest).owner == RUSSIA:
        return None
    if all(pos.controller(t) == BOLSHEVIKS for t in pos.world.home_of(RUSSIA)):
        return None  # Russia reunified: the wars of old may go on
    return problem("bolsheviks-outside-russia", dest, place=dest)
