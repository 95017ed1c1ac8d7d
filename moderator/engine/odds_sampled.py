"""`moderator odds` for a battle too large to walk exactly: the engine's own battle, rolled.

Issue 10: "exact where the state space allows, seeded simulation of the same engine code
otherwise, with a progress bar on long runs". odds.battle_odds walks the battle's Markov
chain; each state it visits costs a little, and the states grow with every kind of unit
on both sides (60 infantry, 20 artillery, 10 tanks and 10 fighters against 60 infantry,
15 artillery, 5 fighters and 3 AA guns would take minutes). When the walk passes
odds.STEP_BUDGET states it stops (odds.TooLarge), and the same battle is set up by
combat_land.setup and fought by combat_land.play, the engine's own code, `samples` times
with seeded dice (Dice(seed, i) for battle i: the same figures every time). Each battle's
end is read as odds._finish reads a state, so both ways answer in the same terms; the
answer says how many battles it rolled (Odds.samples), and the spread of a share p over
n battles is sqrt(p(1-p)/n) (about 1 point in 100 at n = 2000).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from moderator.engine import combat_land, combat_orders
from moderator.engine import odds as exact
from moderator.engine.combat_land import Battle, Front
from moderator.engine.dice import Dice
from moderator.engine.odds import Odds, Steady
from moderator.engine.state import Unit
from moderator.orders.model import CombatCondition
from moderator.world.model import World
from moderator.world.scenario_model import Scenario, UnitStats

SAMPLES = 2000
SEED = "moderator-odds"  # the battles' dice: the same answer for the same battle, every time
PROGRESS_EVERY = 100


def sampled_odds(
    scenario: Scenario, territory: str, attacker: str, attackers: Sequence[Unit], defenders: Sequence[Unit],
    *, holder: str | None, city: bool, front: Front, orders: combat_orders.BattleOrders | None,
    max_rounds: int | None, world: World | None, tech: Mapping[str, Mapping[str, int]] | None,
    samples: int = SAMPLES, seed: str = SEED, progress: Callable[[int, int], None] | None = None,
) -> Odds:
    """The odds of odds.battle_odds's battle from `samples` battles fought by the engine."""
    if max_rounds:  # "withdraw after N rounds": the attacker's own condition, as the engine reads it
        base = orders or combat_orders.BattleOrders()
        orders = dataclasses.replace(base, conditions=(*base.conditions,
                                                       CombatCondition(territory, "rounds", max_rounds)))
    attacking = frozenset(u.id for u in attackers)
    odds: Odds | None = None
    known: dict[tuple[str, str, str | None], UnitStats | None] = {}  # the units' values, looked up once (Steady)
    for i in range(samples):
        ctx = Steady(exact._levels(scenario, tech or {}), {}, world or World({}, {}), scenario,
                     dice_root=Dice(seed, i))
        ctx.known = known
        ctx.state.units = [*attackers, *defenders]
        battle = combat_land.setup(None, territory, [], attacker, attackers, defenders, holder, city, front, orders)
        if odds is None:
            odds = Odds(len(battle.attack.targets()), len(battle.defend.targets()), samples=samples)
        combat_land.play(ctx, battle)
        tally(odds, battle, attacking, 1.0 / samples)
        if progress and (i + 1) % PROGRESS_EVERY == 0:
            progress(i + 1, samples)
    assert odds is not None
    return odds


def tally(odds: Odds, battle: Battle, attacking: frozenset[str], weight: float) -> None:
    """One battle's end, in odds._finish's terms (captured, cleared, both destroyed,
    repulsed, stopped; real units lost, not those that left alive; aircraft flown home;
    defenders that disengaged). `attacking`: the attackers' unit ids (battle.departed also
    holds the defenders' supporting artillery called home)."""
    home = [f for f in battle.departed if f.unit is not None and f.unit.id in attacking]
    odds.outcomes[exact.ending(battle.defend, battle.attack.real(), home)] += weight
    odds.rounds[battle.rounds] = odds.rounds.get(battle.rounds, 0.0) + weight
    odds.attacker_losses += weight * (odds.attackers - len(battle.attack.targets()) - len(home))
    odds.defender_losses += weight * (odds.defenders - len(battle.defend.targets()) - len(battle.disengaged))
    odds.attackers_left += weight * len(battle.attack.targets())
    odds.flown_home += weight * sum(1 for f in home if f.kind in combat_land.AIR)
    odds.defenders_escaped += weight * len(battle.disengaged)
