"""`moderator odds --sea` for a naval battle too large to walk exactly: the engine's own
battle, rolled.

Issue 10: "exact where the state space allows, seeded simulation of the same engine code
otherwise, with a progress bar on long runs". naval_odds.naval_battle_odds walks the
battle's Markov chain; its cost grows with the pairs of states it adds up each round
(ships afloat and hits taken on both sides), much faster than the fleets. Past
naval_odds.step_budget steps (some 50,000 a ship: about what rolling the battle costs)
the walk stops (odds.TooLarge), and the same battle is fought by naval_combat.fight, the
engine's own code, `samples` times with
seeded dice (Dice(seed, i) for battle i: the same figures every time), exactly as the
walk reads it: the attackers sought the battle, the defenders too when their mission is
aggressive; a free round by the ships of the side that has it; the attacker's "withdraw
after N rounds"; the fighters on deck leaving with their carriers
(phase4_sea.off_sunk_carriers, the engine's after_round of a battle of task forces);
radar and sonar aboard. Each battle's end is read in NavalOdds's terms; the answer says
how many battles it rolled (NavalOdds.samples), and the spread of a share p over n
battles is sqrt(p(1-p)/n) (about 1 point in 100 at n = 2000).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from moderator.engine import naval_combat, phase4_sea
from moderator.engine.combat_orders import BattleOrders
from moderator.engine.dice import Dice
from moderator.engine.gear_aboard import GEAR
from moderator.engine.naval_combat import NavalBattle, NavalSide, Ship
from moderator.engine.naval_odds import NavalOdds, Steady
from moderator.engine.odds import _levels
from moderator.engine.state import AIR_UNITS, NationState, Unit
from moderator.orders.model import CombatCondition
from moderator.world.model import World
from moderator.world.scenario_model import Scenario, UnitStats

SAMPLES = 2000
SEED = "moderator-naval-odds"  # the battles' dice: the same answer for the same battle, every time
PROGRESS_EVERY = 100
ZONE = "odds"  # the stand-in sea zone (no map: nothing is stranded or landed in it)


def sampled_naval_odds(
    scenario: Scenario, attackers: Sequence[Ship], defenders: Sequence[Ship], *, defenders_sought: bool = False,
    free: str | None = None, max_rounds: int | None = None, world: World | None = None,
    tech: Mapping[str, Mapping[str, int]] | None = None, gear: Mapping[str, Sequence[str]] | None = None,
    samples: int = SAMPLES, seed: str = SEED, progress: Callable[[int, int], None] | None = None,
) -> NavalOdds:
    """The odds of naval_odds.naval_battle_odds's battle of ships (no air strike: its
    battles stay small, their rounds bounded by the aircraft's fuel) from `samples`
    battles fought by naval_combat.fight."""
    conditions = (CombatCondition("", "rounds", max_rounds),) if max_rounds else ()
    orders = (BattleOrders({}, conditions), BattleOrders())
    known: dict[tuple[str, str, str | None], UnitStats | None] = {}
    odds = NavalOdds(sum(1 for s in attackers if s.unit.kind not in AIR_UNITS) or len(attackers),
                     sum(1 for s in defenders if s.unit.kind not in AIR_UNITS), samples=samples)
    for i in range(samples):
        state = _levels(scenario, tech or {})
        for ship in (*attackers, *defenders):  # radar and sonar aboard, as the walk records them
            if (gear or {}).get(ship.unit.id):
                record = state.nations.setdefault(ship.unit.nation, NationState(ship.unit.nation)).flags
                record.setdefault(GEAR, {})[ship.unit.id] = sorted((gear or {})[ship.unit.id])
        ctx = Steady(state, {}, world or World({}, {}), scenario, dice_root=Dice(seed, i))
        ctx.known = known
        a = NavalSide(fresh(attackers), sought=True)
        d = NavalSide(fresh(defenders), sought=defenders_sought)
        head = None
        if free is not None:  # the free round: the ships of the side that has it, as the walk fires it
            side = a if free == "attacker" else d
            head = (side, [s for s in side.ships if s.unit.kind not in AIR_UNITS], "free round")
        battle = naval_combat.fight(ctx, ZONE, a, d, orders, free=head, after_round=phase4_sea.off_sunk_carriers)
        tally(odds, battle, attackers, defenders, 1.0 / samples)
        if progress and (i + 1) % PROGRESS_EVERY == 0:
            progress(i + 1, samples)
    return odds


def fresh(ships: Sequence[Ship]) -> list[Ship]:
    """New units for one battle (the engine damages and sinks them), as the walk's models."""
    return [Ship(Unit(s.unit.id, s.unit.nation, s.unit.kind, "", s.unit.damage), s.fleet, s.mission) for s in ships]


ENDED = {"contact-lost": "contact_lost", "withdrawn": "withdrawn", "round-limit": "round_limit"}


def tally(odds: NavalOdds, battle: NavalBattle, attackers: Sequence[Ship], defenders: Sequence[Ship],
          weight: float) -> None:
    """One battle's end, as naval_odds.finish counts a state: ships sunk (fighters that flew
    off a sunk carrier are not lost), ships afloat damaged, the defender's fighters downed."""
    a, d = battle.sides
    how = ENDED.get(battle.ended, "")
    if not how:  # "destroyed", also when a side is left with no ship after its fighters flew off
        how = "both_sunk" if not (a.ships or d.ships) else "attackers_sunk" if not a.ships else "defenders_sunk"
    odds.outcomes[how] += weight
    odds.rounds[battle.rounds] = odds.rounds.get(battle.rounds, 0.0) + weight
    for pool, side, role in ((attackers, a, "attacker"), (defenders, d, "defender")):
        left = {s.unit.id for s in side.ships} | set(battle.flown)
        gone = [s for s in pool if s.unit.id not in left]
        sunk = sum(1 for s in gone if s.unit.kind not in AIR_UNITS)
        damaged = sum(1 for s in side.ships if s.unit.damage)
        if role == "attacker":
            odds.attacker_losses += weight * sunk
            odds.attacker_damaged += weight * damaged
        else:
            odds.defender_losses += weight * sunk
            odds.defender_damaged += weight * damaged
            odds.defender_planes_lost += weight * (len(gone) - sunk)
