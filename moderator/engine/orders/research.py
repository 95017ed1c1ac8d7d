"""RESEARCH technology (Phase 2.1: Research of technology).

"The player may try for any of the improved technologies below. It costs 10 resources
per attempt, and only one attempt may be made for each technology per turn. On a roll
of a 9 or 10 on a ten-sided die, the player will have successfully have researched the
technology." The attempt is paid and rolled when step 2.1 runs (engine/chances.research,
in the step's dice stream): 8-10 when the nation's industrial espionage has seen the
level in another nation (Phase 3.2.1.3: "Increased chance stands until the required
level is discovered"; espionage comes in 3.2, so it helps from the next turn).

Knowledge shared (British Empire: "any technology advancement, known by one member of
Commonwealth, is automatically known to other members. However, only one try per
technology in single turn is allowed for research"): the attempt is one per turn for the
whole group (technology.knowledge_group), and a success is the whole group's. The new
level is the nation's from Phase 7 (technology.py); an UPGRADE of the same turn buys it.

The price (Phase 2.1): "Nations that are in same camp as the nation(s) that obtained a
technology advancement, can spend only 7 resources to research that technology" -- the
level being researched, held by a nation of the same side. "Nations that meet advanced
weaponry on the battlefield at the hands of the enemy ... can spend only 9": the level
being researched, met in an enemy unit's hands in a battle of this game (engine/
battlefield.py). The levels "always at 10" are the scenario's (technologies.toml
`full_price`).

The checker takes a success for granted (assume()): an UPGRADE to the level in the same
turn is kept with an "if-researched" note; if the roll fails the engine tells the nation
there was nothing to upgrade to and charges nothing. New units of the same turn are
priced and built with the levels of the turn's start either way.
"""

from __future__ import annotations

from moderator.engine import battlefield, chances, technology
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford, once_per_turn
from moderator.engine.problems import Problem, problem
from moderator.orders.model import Research
from moderator.orders.vocab import TECHNOLOGIES

PHASE = "2.1"
PRICE = 10  # "It costs 10 resources per attempt"
CAMP_PRICE = 7  # "same camp as the nation(s) that obtained a technology advancement"
BATTLEFIELD_PRICE = 9  # "meet advanced weaponry on the battlefield at the hands of the enemy"
SPIED = "spied"  # NationState.flags: technology -> level its industrial espionage saw (3.2.1.3)


def advances(pos: Position, tech: str) -> int:
    """How many advances a technology has (the scenario's technologies.toml; the rules'
    counts in the orders vocabulary for a scenario without one)."""
    known = pos.scenario.technologies.get(tech)
    if known is not None:
        return known.advances
    return TECHNOLOGIES[tech][1] if tech in TECHNOLOGIES else 0


def next_level(pos: Position, nation: str, tech: str) -> int:
    return pos.tech(nation, tech) + 1


def always_full_price(pos: Position, tech: str, level: int) -> bool:
    known = pos.scenario.technologies.get(tech)
    return known is not None and level in known.full_price


def camp_holders(pos: Position, nation: str, tech: str) -> list[str]:
    """Nations of the same side that hold the level being researched."""
    level = next_level(pos, nation, tech)
    if pos.nation(nation).side == "neutral":
        return []
    # allies(), asked once for every nation; only its camp is looked through (issue 14)
    # (each ally's level read from its state here: pos.tech() and pos.nation() are two calls an ally)
    friends, nations = pos.state.allies_of(nation), pos.state.nations
    return sorted(o for o in friends if o != nation and (ns := nations.get(o)) is not None
                  and ns.tech.get(tech, 0) >= level)


def price(pos: Position, nation: str, tech: str) -> int:
    """10; 7 when a nation of the same camp holds the level; 9 when the nation has met it
    on the battlefield (Phase 2.1)."""
    level = next_level(pos, nation, tech)
    if always_full_price(pos, tech, level):
        return PRICE
    if camp_holders(pos, nation, tech):
        return CAMP_PRICE
    return BATTLEFIELD_PRICE if battlefield.met(pos, nation, tech) >= level else PRICE


def key_for(pos: Position, nation: str, tech: str) -> tuple[str, ...]:
    """One attempt per technology per turn, for the nations that share knowledge."""
    return ("research", technology.knowledge_group(pos, nation)[0], tech)


def key(pos: Position, nation: str, order: Research) -> tuple[str, ...]:
    return key_for(pos, nation, order.tech)


def spied(pos: Position, nation: str, tech: str) -> bool:
    """Industrial espionage saw the level being researched (8-10 instead of 9-10)."""
    seen = pos.nation(nation).flags.get(SPIED, {}).get(tech, 0)
    return int(seen) >= next_level(pos, nation, tech)


def obtain(ctx: TurnContext, nation: str, tech: str, level: int) -> list[str]:
    """Record the level for the nation and those who share its knowledge (theirs from Phase 7)."""
    group = technology.knowledge_group(ctx, nation)
    for member in group:
        if member in ctx.state.nations and technology.level(ctx, member, tech) < level:
            flags = ctx.state.nations[member].flags
            flags[technology.RESEARCHED] = {**flags.get(technology.RESEARCHED, {}), tech: level}
    return group


class ResearchRule(OrderRule[Research]):
    order = Research
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Research) -> Problem | None:
        if next_level(pos, nation, order.tech) > advances(pos, order.tech):
            return problem("tech-complete", tech=order.tech, advances=advances(pos, order.tech))
        twice = once_per_turn(pos, key(pos, nation, order), "research-twice", tech=order.tech)
        if twice is not None:
            return twice
        return afford(pos, nation, price(pos, nation, order.tech), "this research attempt")

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Research) -> None:
        ctx.pay(nation, price(ctx, nation, order.tech))
        ctx.use(key(ctx, nation, order))

    def assume(self, ctx: TurnContext, nation: str, index: int, order: Research) -> None:
        level = next_level(ctx, nation, order.tech)
        obtain(ctx, nation, order.tech, level)
        ctx.assumed[f"tech:{nation}:{order.tech}"] = f"your research of {order.tech}"

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Research) -> None:
        cost = price(ctx, nation, order.tech)
        level = next_level(ctx, nation, order.tech)
        bonus = spied(ctx, nation, order.tech)
        self.commit(ctx, nation, index, order)
        if chances.research(ctx.dice, bonus, who=f"{nation}, {order.tech} {level}"):
            group = obtain(ctx, nation, order.tech, level)
            ctx.emit("researched", PHASE, (*group, MODERATOR), nation=nation, order=index, tech=order.tech,
                     level=level, cost=cost, spied=bonus, shared=[g for g in group if g != nation])
        else:
            ctx.tell(nation, "research-failed", PHASE, order=index, tech=order.tech, level=level, cost=cost,
                     spied=bonus)


RULE = ResearchRule()
