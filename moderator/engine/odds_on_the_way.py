"""`moderator odds --intercepted N`: the attacking aircraft meet N enemy fighters on their way
(4.5 over the land between, engine/air_passage.py) before the battle that odds.py walks.

4.5: "When aircraft move into a territory (or sea zone) containing enemy fighters, the
enemy fighters have the option of intercepting ... the mission the aircraft had originally
been sent on ... may continue, assuming those planes still have enough fuel points
remaining to do so." The air combat on the way is air_passage.air_combat itself, flown on
a stand-in position (the defender's N fighters over one place, at the defender's levels)
with seeded dice, `samples` times: each run leaves some attacking planes, having fought
some rounds (their fuel: fewer rounds in the battle); planes lost are losses, planes that
turned back (short of fuel for one round of the battle) or broke off are flown home. The
battle's odds for every such outcome are odds.py's exact ones; they are weighed by how
often the outcome came. So the result is exact but for the sampling of the way.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from moderator.engine import air_passage, odds
from moderator.engine.combat_land import AIR, Front
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.odds import Odds
from moderator.engine.state import GameState, NationState, Unit
from moderator.orders.model import CombatCondition
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

PLACE = "on the way"  # the stand-in place of the interception
SAMPLES = 4000

Outcome = tuple[tuple[str, ...], int, int, int]  # planes arriving, rounds fought, lost, flown home


def outcomes(scenario: Scenario, state: GameState, attacker: str, attackers: Sequence[Unit], defender: str,
             guards: int, front: Front, samples: int = SAMPLES, seed: str = "odds-on-the-way",
             progress: Callable[[int, int], None] | None = None,
             retreat: tuple[CombatCondition, ...] = ()) -> dict[Outcome, float]:
    """How often each outcome of the air combat on the way comes, over `samples` seeded runs
    (`retreat`: the attacker's BREAK OFF AIR COMBAT for the target, read on the way too)."""
    planes = [u for u in attackers if u.kind in AIR]
    seen: Counter[Outcome] = Counter()
    for i in range(samples):
        pos = state.copy()
        for nation, enemy in ((attacker, defender), (defender, attacker)):
            pos.nations.setdefault(nation, NationState(nation)).at_war_with = [enemy]
        pos.units = [Unit(u.id, u.nation, u.kind, "home") for u in planes]
        for g in range(guards):
            pos.units.append(Unit(f"guard-{g:03d}", defender, "fighter", PLACE))
        ctx = TurnContext(pos, {}, World({}, {}), scenario, dice_root=Dice(f"{seed}-{i}", 1))
        flyers = [u for u in pos.units if u.nation == attacker]
        spare = {u.id: front.rounds.get(u.id, 0) - 1 for u in flyers}  # keep one round for the battle
        f = air_passage.Flight(attacker, (attacker,), flyers, ["home", PLACE, "target"], spare, retreat)
        air_passage.air_combat(ctx, PLACE, [f], {}, ())
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
                     defend: Mapping[str, int], guards: int, *, samples: int = SAMPLES,
                     progress: Callable[[int, int], None] | None = None, city: bool = False,
                     max_rounds: int | None = None, world: World | None = None, **setup: Any) -> Odds:
    """odds.odds_for's battle (its `setup` arguments: matchup's) with the attacking aircraft
    first meeting `guards` fighters of the defender on their way."""
    mu = odds.matchup(scenario, attacker, attack, defender, defend, **setup)
    state = odds._levels(scenario, mu.tech)  # the battle's own stand-in position
    total = Odds(len(mu.attackers), sum(1 for u in mu.defenders if u.id not in mu.front.support))
    retreat = mu.orders.air_retreat.get(attacker, ()) if mu.orders is not None else ()
    for outcome, p in outcomes(scenario, state, attacker, mu.attackers, defender, guards, mu.front, samples,
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
        for k, v in o.outcomes.items():
            total.outcomes[k] += p * v
        for r, v in o.rounds.items():
            total.rounds[r] = total.rounds.get(r, 0.0) + p * v
        total.attacker_losses += p * o.attacker_losses
        total.defender_losses += p * o.defender_losses
        total.pruned += p * o.pruned
        total.attackers_left += p * o.attackers_left
        total.flown_home += p * o.flown_home
        total.defenders_escaped += p * o.defenders_escaped
    return total
