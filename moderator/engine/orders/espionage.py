"""ESPIONAGE and COUNTERESPIONAGE (Phase 3.2: Espionage & Counter-espionage).

3.2.1 Espionage, each a 50% chance (1-5 on D10; 1-2 against successful counter-espionage):
  .1 "For a fee of 4 resources, one nation can try to reveal current status of a minor
     neutral nation"; "For a fee of 5 resources ... the affiliation of major neutral's
     government";
  .2 army staff: "For a fee of 5 resources ... what units the target enemy country built
     during the current turn";
  .3 industrial: "For a fee of 3 resources ... what new technology the targeted nation
     obtained ... Targeted nation can be friendly, too, and targeted technology must be
     mentioned";
  .4 combat intelligence: "For a fee of 1 resource ... The nation trying this must have at
     least one land unit in that province during the combat".
3.2.2 Counter-espionage, 1 resource each: .1 "Only major neutrals can do this action";
  .2 against a "designated enemy nation"; .3 "for each technology"; .4 reconnaissance
  countermeasure "for each province attempted" (the nation's own: it masks its troops).

The fee is paid when the order's turn in step 3.2 comes; the rolls, and what a success
reveals, are the step's own work once every order is in (engine/phase3_espionage.py):
"In any event, no one will know which nation attempted the espionage mission", so the
results go to the spying nation and the moderator only.

Reading: the rules set no per-turn limit on espionage; the same attempt (same kind,
target, place and technology) twice in one turn is refused as a repeat.
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule, afford, once_per_turn
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.state import LAND_UNITS
from moderator.orders.model import CounterEspionage, Espionage

PHASE = "3.2"
FEES = {"neutral": 4, "affiliation": 5, "army": 5, "industrial": 3, "combat": 1}  # 3.2.1.1-3.2.1.4
COUNTER_FEE = 1  # 3.2.2.1-3.2.2.4


def is_major(pos: Position, nation: str) -> bool:
    n = pos.scenario.nations.get(nation)
    return n is not None and n.kind == "major"


def spy_key(nation: str, o: Espionage) -> tuple[str, ...]:
    return ("espionage", nation, o.kind, o.target or "", o.place or "", o.tech or "")


def counter_key(nation: str, o: CounterEspionage) -> tuple[str, ...]:
    return ("counter-espionage", nation, o.kind, o.against or "", o.place or "", o.tech or "")


def target_problem(pos: Position, nation: str, o: Espionage) -> Problem | None:
    """Who or where each kind of espionage may aim at (3.2.1.1-3.2.1.4)."""
    if o.kind == "combat":
        if o.place is None or not pos.place(o.place).is_land:
            return problem("espionage-target", o.place or "", kind=o.kind, target=o.place or "")
        return None
    target = o.target or ""
    wrong = problem("espionage-target", target, kind=o.kind, target=target)
    if not target or target == nation:
        return wrong
    if o.kind in ("neutral", "affiliation"):  # a minor neutral's status, a major neutral's leaning
        if pos.nation(target).side != "neutral" or is_major(pos, target) != (o.kind == "affiliation"):
            return wrong
    if o.kind == "army" and not pos.at_war(nation, target):  # "the target enemy country"
        return wrong
    return None


class EspionageRule(OrderRule[Espionage]):
    order = Espionage
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Espionage) -> Problem | None:
        why = target_problem(pos, nation, order)
        if why is not None:
            return why
        twice = once_per_turn(pos, spy_key(nation, order), "espionage-twice")
        if twice is not None:
            return twice
        return afford(pos, nation, FEES[order.kind], f"{order.kind} espionage")

    def remarks(self, pos: Position, nation: str, order: Espionage) -> list[Problem]:
        if order.kind == "combat" and order.place is not None:
            if not any(pos.start[(nation, order.place, k)] for k in LAND_UNITS):
                return [warning("espionage-no-unit", order.place, place=order.place)]
        return []

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Espionage) -> None:
        ctx.use(spy_key(nation, order))
        ctx.pay(nation, FEES[order.kind])



class CounterEspionageRule(OrderRule[CounterEspionage]):
    order = CounterEspionage
    section = PHASE

    def problem(self, pos: Position, nation: str, order: CounterEspionage) -> Problem | None:
        if order.kind == "affiliation" and (pos.nation(nation).side != "neutral" or not is_major(pos, nation)):
            return problem("counter-kind")
        if order.kind == "army" and (order.against is None or not pos.at_war(nation, order.against)):
            return problem("counter-target", order.against or "", target=order.against or "")
        if order.kind == "recon" and (order.place is None or pos.controller(order.place) != nation):
            return problem("counter-place", order.place or "", place=order.place or "")
        twice = once_per_turn(pos, counter_key(nation, order), "espionage-twice")
        if twice is not None:
            return twice
        return afford(pos, nation, COUNTER_FEE, f"{order.kind} counter-espionage")

    def commit(self, ctx: TurnContext, nation: str, index: int, order: CounterEspionage) -> None:
        ctx.use(counter_key(nation, order))
        ctx.pay(nation, COUNTER_FEE)



ESPIONAGE = EspionageRule()
COUNTER = CounterEspionageRule()
