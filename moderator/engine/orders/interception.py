"""LET THROUGH AT place and BREAK OFF AIR COMBAT AT place <condition> (4.5 Air Combat).

4.5: "When aircraft move into a territory (or sea zone) containing enemy fighters, the
enemy fighters have the option of intercepting or letting them go. When an interception
is chosen (default), air combat occurs." LET THROUGH AT a place (also NO INTERCEPTION AT,
DO NOT INTERCEPT AT) is the other option: the nation's fighters there let attacking
aircraft and bombing raids go by; they still defend the land in the ground rounds at
their defense value (4.6 step 1), as any fighter that is attacked.

4.5 step 3: "The attacking player may now decide to retreat and end the battle. If he
chooses to remain and the intercepting player still has fighters remaining, then repeat
steps 1-3." BREAK OFF AIR COMBAT AT a place AFTER n ROUNDS / IF LOSSES EXCEED n / AFTER
n KILLS (also DISENGAGE FROM AIR COMBAT) is that decision, taken after each round of air
combat while interceptors remain: the nation's aircraft attacking or bombing the place
leave with the fuel they have and fly home ("disengaging with fuel to land"); in a land
battle they then fight no ground round, in a raid they do not bomb. Losses count the
nation's aircraft downed in the air combat, kills the interceptors downed.

Neither order claims units or costs anything: the battles read them (combat_orders.
for_battle; phase4_air.raid; at sea, the air combat before a strike on ships, 4.3 step 1,
engine/air_combat_sea.py) through passing() and retreat_conditions(). At sea the fighters
that may let the strikers through are those aboard carriers in the zone (and those sent
there as cover).
"""

from __future__ import annotations

from moderator.engine.context import Position
from moderator.engine.orders.base import OrderRule, said_twice
from moderator.engine.problems import Problem, warning
from moderator.engine.state import AIR_UNITS
from moderator.orders.model import AirRetreat, Bombing, CombatCondition, LetPass, Move

PHASE = "4.4"  # read by the battles of 4.1.1 (raids) and 4.4 (land battles); nothing to do in a step


def lets_pass(pos: Position, nation: str, place: str) -> bool:
    """Whether the nation's fighters at `place` let attacking aircraft go (LET THROUGH)."""
    return any(n == nation and pos.name(o.place) == place for n, _, o in pos.orders_of(LetPass))


def passing(pos: Position, place: str) -> frozenset[str]:
    """Every nation whose fighters let attacking aircraft through at `place`."""
    return frozenset(n for n, _, o in pos.orders_of(LetPass) if pos.name(o.place) == place)


def retreat_conditions(pos: Position, nation: str, place: str) -> tuple[CombatCondition, ...]:
    """The nation's conditions for leaving the air combat at `place` (BREAK OFF AIR COMBAT),
    as the withdrawal conditions of combat_orders reads them; one of a kind (the first)."""
    out: dict[str, CombatCondition] = {}
    for n, _, o in pos.orders_of(AirRetreat):
        if n == nation and pos.name(o.place) == place:
            out.setdefault(o.kind, CombatCondition(place, o.kind, o.value))
    return tuple(out.values())


def flies_in(pos: Position, nation: str, place: str) -> bool:
    """The nation sends aircraft to `place` this turn: an attack or move with aircraft, or a raid."""
    for o in pos.orders.get(nation, ()):
        if isinstance(o, Move) and o.dest == place and any(u.kind in AIR_UNITS for u in o.units):
            return True
        if isinstance(o, Bombing) and o.target == place:
            return True
    return False


class LetPassRule(OrderRule[LetPass]):
    order = LetPass
    section = PHASE

    def remarks(self, pos: Position, nation: str, order: LetPass) -> list[Problem]:
        here = pos.start[(nation, order.place, "fighter")]
        coming = any(isinstance(o, Move) and o.dest == order.place and any(u.kind == "fighter" for u in o.units)
                     for o in pos.orders.get(nation, ()))
        if not here and not coming:
            return [warning("let-pass-no-fighters", order.place, place=order.place)]
        return []


class AirRetreatRule(OrderRule[AirRetreat]):
    order = AirRetreat
    section = PHASE

    def problem(self, pos: Position, nation: str, order: AirRetreat) -> Problem | None:
        return said_twice(pos, nation, order, order.place)

    def remarks(self, pos: Position, nation: str, order: AirRetreat) -> list[Problem]:
        if not flies_in(pos, nation, order.place):
            return [warning("air-retreat-nothing", order.place, place=order.place)]
        return []


LET_PASS = LetPassRule()
AIR_RETREAT = AirRetreatRule()
RULES = (LET_PASS, AIR_RETREAT)
