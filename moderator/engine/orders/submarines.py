"""DETECT SUBS IN zone WITH units [FROM land] (4.2.9: Submarine Detection) and
INTERCEPT WITH n ss IN zone [AGAINST mission | AGAINST TF name OF nation] (4.2.10:
Submarine Interception).

4.2.9: "Ships sharing a sea zone with enemy submarines may attempt to locate and attack
those submarines ... Additionally, fighters and bombers (assuming they have the range:
fuel) may be flown into a sea zone with enemy subs and also attempt to locate and
destroy those submarines." Detection capability: submarines 1, fighters 2, battleships
3, bombers 3, destroyers 5; other units cannot detect. "Submarine detection can be done
only if such TF stays in the same sea zone": ships detect where they are; aircraft fly
in FROM a territory. The detecting units then fight the subs, so an aircraft needs the
fuel of any air combat over a sea zone (Fighters: 5 at least; there, a round, and back
to friendly land), counted by the one fuel rule (move.air_problem, engine/fuel.py).

Fighters aboard carriers hunt too (Aircraft Carriers: "an aircraft carrier allows extended
aerial operations for a limited number of fighters. This can become especially handy when
hunting down submarines"): without FROM in their carriers' zone, where they take off and
land back, or FROM their carriers' zone at another zone in range (2 fuel a sea zone, a
round, and back to that zone or friendly land), as a MOVE off carriers is flown
(move.carrier_flight). Only undamaged carriers launch, as many as they hold ("A damaged
carrier cannot launch fighters"; move.launch_problem); bombers never take off at sea
(move's bombers-aboard), so without FROM they are refused (detect-air: they fly in from land).

4.2.10: "a player with subs in the same sea zone may choose to have the subs attack any
number of task forces ... moving into or out of the sea zone the submarines are in or
attempting to offload a transport" (the grammar offers only those missions as targets).
The rules' example chooses task forces by name ("He sends 2 subs against the 1 destroyer
in task force B"): an order may name one enemy task force, never one of its own nation's.
The submarines must be in the sea zone and not in a task force of their own orders.

Both claim their units (4.4: "None of the aircraft can have participated in submarine
detection or naval movement earlier in the turn if they are to be moved during the land
movement phase"); the naval step (phase4_sea.py) carries them out: ships detect, and
submarines intercept, as the task forces move, and aircraft flown in hunt and fly home
(phase4_sea.detect_by_order, fly_home).

Only the orders the engine kept act in the naval step: each kept DETECT leaves its hunters
(the units it claimed) in the turn's memo (`hunts`), and each kept INTERCEPT its mark
(`kept`), so a refused order (too many units named, a land zone) never hunts or strikes
with what happens to be there.
"""

from __future__ import annotations

from collections.abc import Mapping

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, missing_units, take_units
from moderator.engine.orders.move import LAUNCHED, air_problem, launch_problem
from moderator.engine.problems import Problem, problem
from moderator.engine.state import AIR_UNITS, Unit
from moderator.orders.model import Move, SubDetection, SubInterception, UnitCount

PHASE = "4.2"

# 4.2.9 "Submarine Detection Capability" (a D10 at or under it); "cruiser" is the rules'
# destroyer (engine/state.py). Kinds not listed cannot detect.
DETECTION: Mapping[str, int] = {"submarine": 1, "fighter": 2, "battleship": 3, "bomber": 3, "cruiser": 5}


HUNTS = ("detect-hunters",)  # memo: the kept DETECT orders' (nation, index, order, hunters)
INTERCEPTS = ("intercept-kept",)  # memo: the kept INTERCEPT orders (nation, index)


def aircraft(order: SubDetection) -> tuple[UnitCount, ...]:
    return tuple(uc for uc in order.units if uc.kind in AIR_UNITS)


class SubDetectionRule(OrderRule[SubDetection]):
    order = SubDetection
    section = PHASE

    def problem(self, pos: Position, nation: str, order: SubDetection) -> Problem | None:
        if not pos.is_sea(order.zone):
            return problem("detect-land", order.zone, place=order.zone)
        kinds = {u.kind for u in order.units}
        blind = sorted(kinds - set(DETECTION))
        if blind:
            return problem("detect-units", kinds=blind)
        planes = aircraft(order)
        if order.origin is None:
            if kinds & (set(AIR_UNITS) - LAUNCHED):
                return problem("detect-air", order.zone, zone=order.zone)
            if planes:  # fighters off their carriers in the zone (Aircraft Carriers)
                why = flight_problem(pos, nation, Move(planes, order.zone, order.zone))
                if why is not None:
                    return why
            return missing_units(pos, nation, order.zone, order.units)
        ships = sorted(kinds - set(AIR_UNITS))
        if ships:
            return problem("detect-from", order.origin, kinds=ships, zone=order.zone)
        if pos.is_sea(order.origin) and kinds - LAUNCHED:
            # only carriers launch aircraft: bombers at sea are cargo (engine/orders/move.py)
            return problem("bombers-aboard", order.origin, zone=order.origin, kinds=sorted(kinds - LAUNCHED))
        why = flight_problem(pos, nation, Move(order.units, order.origin, order.zone))
        if why is not None:
            return why
        return missing_units(pos, nation, order.origin, order.units)

    def commit(self, ctx: TurnContext, nation: str, index: int, order: SubDetection) -> None:
        take_units(ctx, nation, order.origin or order.zone, order.units, index)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: SubDetection) -> None:
        """Ships, and aircraft flown in, hunt in the naval step (phase4_sea.detect_by_order)
        with the units this order claimed."""
        hunters = take_units(ctx, nation, order.origin or order.zone, order.units, index)
        ctx.memo.setdefault(HUNTS, []).append((nation, index, order, hunters))


def flight_problem(pos: Position, nation: str, flight: Move) -> Problem | None:
    """The aircraft's fuel to fight over the zone and come down (move.air_problem), and for
    fighters off carriers (a sea zone they take off from) their carriers' launch."""
    return air_problem(pos, nation, flight, combat=True) or (
        launch_problem(pos, nation, flight) if pos.is_sea(flight.origin) else None)


def hunts(ctx: TurnContext) -> list[tuple[str, int, SubDetection, list[Unit]]]:
    """The kept DETECT orders with their hunters, in resolution order."""
    return list(ctx.memo.get(HUNTS, []))


def submarines(order: SubInterception) -> tuple[UnitCount, ...]:
    return (UnitCount("submarine", order.count),)


class SubInterceptionRule(OrderRule[SubInterception]):
    order = SubInterception
    section = PHASE

    def problem(self, pos: Position, nation: str, order: SubInterception) -> Problem | None:
        if not pos.is_sea(order.zone):
            return problem("intercept-land", order.zone, place=order.zone)
        if order.tf is not None and order.tf_nation == nation:
            return problem("intercept-own", order.tf, tf=order.tf)  # 4.2.10: the enemy's task forces
        return missing_units(pos, nation, order.zone, submarines(order))

    def commit(self, ctx: TurnContext, nation: str, index: int, order: SubInterception) -> None:
        take_units(ctx, nation, order.zone, submarines(order), index)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: SubInterception) -> None:
        self.commit(ctx, nation, index, order)
        ctx.memo.setdefault(INTERCEPTS, set()).add((nation, index))


def kept(ctx: TurnContext, nation: str, index: int) -> bool:
    """Did the engine keep this INTERCEPT order (phase4_sea.intercept)?"""
    return (nation, index) in ctx.memo.get(INTERCEPTS, set())


DETECT = SubDetectionRule()
INTERCEPT = SubInterceptionRule()
RULES = (DETECT, INTERCEPT)
