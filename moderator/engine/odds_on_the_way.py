"""`moderator odds --on-the-way` (and `--intercepted N`): the attacking aircraft fly over
guarded places on their way (4.5 and Anti Air Guns over the land between,
engine/air_passage.py) before the battle that odds.py walks.

4.5: "When aircraft move into a territory (or sea zone) containing enemy fighters, the
enemy fighters have the option of intercepting ... the mission the aircraft had originally
been sent on ... may continue, assuming those planes still have enough fuel points
remaining to do so." Anti Air Guns: "Each AA unit gets only one die roll against enemy
planes entering the given territory". The way is air_passage.fly itself, flown on a
stand-in position (each guarded place in the order flown over, with the defender's
fighters and AA guns there, at the defender's levels) with seeded dice, `samples` times:
over each place the guns fire first, then the fighters intercept, as in a real turn. Each
run leaves some attacking planes, having fought some rounds (their fuel: fewer rounds in
the battle); planes lost are losses, planes that turned back (short of fuel for one round
of the battle) or broke off are flown home. The battle's odds for every such outcome are
odds.py's exact ones; they are weighed by how often the outcome came. So the result is
exact but for the sampling of the way.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from moderator.engine import air_passage, odds
from moderator.engine.combat_land import AIR, Front
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.odds import Odds
from moderator.engine.state import GameState, NationState, Unit
from moderator.orders.model import CombatCondition
from moderator.world.model import LAND, Territory, World
from moderator.world.scenario_model import Scenario

PLACE = "on the way"  # the stand-in name of the guarded places: "on the way 1", "on the way 2", ...
SAMPLES = 4000

Outcome = tuple[tuple[str, ...], int, int, int]  # planes arriving, rounds fought, lost, flown home


@dataclass(frozen=True)
class Guarded:
    """One place the aircraft fly over: the defender's fighters and AA guns there."""

    fighters: int = 0
    aa: int = 0


def places(way: int | Sequence[Guarded]) -> list[Guarded]:
    """`--intercepted N` is one place with N fighters; a list is the places in order."""
    return [Guarded(fighters=way)] if isinstance(way, int) else list(way)


def stand_in(guarded: Sequence[Guarded]) -> tuple[list[str], World]:
    """The stand-in places' names, in order, and a world of land territories holding them
    (air_passage.fly asks whether a place is at sea: the guns and fighters on land fire)."""
    names = [f"{PLACE} {i + 1}" for i in range(len(guarded))]
    world = World({n: Territory(n, LAND, "") for n in (*names, "home", "target")}, {})
    return names, world


def outcomes(scenario: Scenario, state: GameState, attacker: str, attackers: Sequence[Unit], defender: str,
             way: int | Sequence[Guarded], front: Front, samples: int = SAMPLES, seed: str = "odds-on-the-way",
             progress: Callable[[int, int], None] | None = None,
             retreat: tuple[CombatCondition, ...] = ()) -> dict[Outcome, float]:
    """How often each outcome of the way comes, over `samples` seeded runs (`retreat`: the
    attacker's BREAK OFF AIR COMBAT for the target, read on the way too)."""
    planes = [u for u in attackers if u.kind in AIR]
    guarded = places(way)
    names, world = stand_in(guarded)
    seen: Counter[Outcome] = Counter()
    for i in range(samples):
        pos = state.copy()
        for nation, enemy in ((attacker, defender), (defender, attacker)):
            pos.nations.setdefault(nation, NationState(nation)).at_war_with = [enemy]
        pos.units = [Unit(u.id, u.nation, u.kind, "home") for u in planes]
        for p, (name, g) in enumerate(zip(names, guarded, strict=True)):
            pos.units += [Unit(f"guard-{p:02d}-{n:03d}", defender, "fighter", name) for n in range(g.fighters)]
            pos.units += [Unit(f"gun-{p:02d}-{n:03d}", defender, "aa", name) for n in range(g.aa)]
        ctx = TurnContext(pos, {}, world, scenario, dice_root=Dice(f"{seed}-{i}", 1))
        flyers = [u for u in pos.units if u.nation == attacker]
        spare = {u.id: front.rounds.get(u.id, 0) - 1 for u in flyers}  # keep one round for the battle
        f = air_passage.Flight(attacker, (attacker,), flyers, ["home", *names, "target"], spare, retreat,
                               stops=[(t + 1, name) for t, name in enumerate(names)])
        air_passage.fly(ctx, [f])
        seen[(tuple(sorted(u.id for u in f.planes)), f.rounds, len(f.lost), len(f.turned_back) + len(f.broke_off))] += 1
        if progress is not None:
            progress(i + 1, samples)
    return {k: n / samples for k, n in sorted(seen.items())}


def arriving(attackers: Sequence[Unit], front: Front, outcome: Outcome) -> tuple[list[Unit], Front]:
    """The attackers that reach the battle in `outcome`, their fuel less the rounds fought."""
    through, spent, _, _ = outcome
    kept = [u for u in attackers if u.kind not in AIR or u.id in through]
    rounds = {uid: (n - spent if uid in through else n) for uid, n in front.rounds.items()}
    return kept, dataclasses.replace(front, rounds=rounds)


def intercepted_odds(scenario: Scenario, attacker: str, attack: Mapping[str, int], defender: str,
                     defend: Mapping[str, int], way: int | Sequence[Guarded], *, samples: int = SAMPLES,
                     progress: Callable[[int, int], None] | None = None, city: bool = False,
                     max_rounds: int | None = None, world: World | None = None, **setup: Any) -> Odds:
    """odds.odds_for's battle (its `setup` arguments: matchup's) with the attacking aircraft
    first flying over the guarded places of `way` (an int N: one place with N fighters)."""
    mu = odds.matchup(scenario, attacker, attack, defender, defend, **setup)
    state = odds._levels(scenario, mu.tech)  # the battle's own stand-in position
    total = Odds(len(mu.attackers), sum(1 for u in mu.defenders if u.id not in mu.front.support))
    retreat = mu.orders.air_retreat.get(attacker, ()) if mu.orders is not None else ()
    for outcome, p in outcomes(scenario, state, attacker, mu.attackers, defender, way, mu.front, samples,
                               progress=progress, retreat=retreat).items():
        _, _, lost, home = outcome
        kept, front = arriving(mu.attackers, mu.front, outcome)
        total.attacker_losses += p * lost
        total.flown_home += p * home
        if not kept:  # nobody reached the battle: none is fought
            total.outcomes["stopped" if home else "repulsed"] += p
            total.rounds[0] = total.rounds.get(0, 0.0) + p
            continue
        o = odds.battle_odds(scenario, setup.get("territory", ""), attacker, kept, mu.defenders, holder=defender,
                             city=city, max_rounds=max_rounds, world=world, front=front, tech=mu.tech,
                             orders=mu.orders)
        total.defenders = o.defenders
        odds.add_weighed(total, o, p, ("attacker_losses", "defender_losses", "pruned", "attackers_left",
                                       "flown_home", "defenders_escaped"))
    return total
