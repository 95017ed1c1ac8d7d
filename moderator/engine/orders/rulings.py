"""The moderator's rulings (moderator/orders/rulings.py), carried out in step "R".

A ruling changes the game where the rules leave the decision to the moderator or where
the engine does not decide yet: it is checked (it must make sense on the position: the
units it removes exist, a neutral's points stay within -10..+10 of Phase 1.2's chart)
and applied before Phase 1 of the turn it is stored for, or at once on the current
position (`moderator adjust --now`). Every ruling is told to the moderator and to the
nations it concerns, in words ("ruling" event): a player sees why its treasury changed.
"""

from __future__ import annotations

from typing import Any

from moderator.engine import points, technology, treasuries
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.neutral_income import RULES as RULES_RULE
from moderator.engine.neutral_income import RULING
from moderator.engine.orders import trenches
from moderator.engine.orders.base import OrderRule
from moderator.engine.problems import Problem, problem, warning
from moderator.engine.state import SEA_UNITS
from moderator.orders import rulings as r
from moderator.orders import vocab

PHASE = "R"
STANDS = (-10, 10)  # Phase 1.2: "Central Power Camp (-10) ... Allied Power Camp (10)"


def _nations(pos: Position, *ids: str | None) -> Problem | None:
    for nid in ids:
        if nid is not None and nid not in pos.state.nations:
            return problem("ruling-nation", nid, nation=nid)
    return None


class RulingRule(OrderRule[Any]):
    """Common to every ruling: say it to the moderator and the nations concerned."""

    section = PHASE

    def problem(self, pos: Position, nation: str, order: Any) -> Problem | None:
        if nation != MODERATOR:  # the players' grammar cannot write rulings; nothing else may either
            return problem("ruling-not-moderator")
        return self.check(pos, order)

    def check(self, pos: Position, order: Any) -> Problem | None:
        """Whether the ruling makes sense on this position."""
        return None

    def concerns(self, order: Any) -> list[str]:
        return sorted({getattr(order, f) for f in ("nation", "a", "b") if getattr(order, f, None)})

    def apply(self, ctx: TurnContext, order: Any) -> dict[str, Any]:
        """Change the position; return the details the ruling event carries."""
        raise NotImplementedError

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Any) -> None:
        self.apply(ctx, order)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Any) -> None:
        details = self.apply(ctx, order)
        nations = self.concerns(order)
        ctx.emit("ruling", PHASE, (MODERATOR, *nations), text=r.normalize_ruling(order), nations=nations,
                 details=details)


class SetValueRule(RulingRule):
    order = r.SetValue

    def check(self, pos: Position, order: r.SetValue) -> Problem | None:
        why = _nations(pos, order.nation)
        if why is None and order.value_field == "standing":
            value = pos.nation(order.nation).standing + order.value if order.relative else order.value
            if not STANDS[0] <= value <= STANDS[1]:
                return problem("ruling-points", value=value)
        return why

    def apply(self, ctx: TurnContext, order: r.SetValue) -> dict[str, Any]:
        ns = ctx.state.nations[order.nation]
        before = getattr(ns, order.value_field)
        setattr(ns, order.value_field, before + order.value if order.relative else order.value)
        if order.value_field == "standing" and points.camp_of(ns.standing) and ns.side == "neutral":
            ns.flags.setdefault(points.REACHED, ctx.turn)  # Neutrals: no new local war after reaching 10
        return {"field": order.value_field, "before": before, "after": getattr(ns, order.value_field)}


class SetHeldRule(RulingRule):
    """The treasury of a separated territory (Phase 3.1: "Each province separated from the
    mainland can hold resources"; engine/treasuries.py): the moderator's correction of what
    a group keeps apart, as SET SAVED sets the mainland's."""

    order = r.SetHeld

    def check(self, pos: Position, order: r.SetHeld) -> Problem | None:
        why = _nations(pos, order.nation)
        if why is not None:
            return why
        if not pos.place(order.place).is_land or pos.controller(order.place) != order.nation:
            return problem("ruling-held-not-held", order.place, nation=order.nation, place=order.place)
        key = self._key(pos, order)
        if key is None:
            return problem("ruling-held-mainland", order.place, nation=order.nation, place=order.place)
        value = treasuries.held(pos, order.nation).get(key, 0) + order.value if order.relative else order.value
        if value < 0:
            return problem("ruling-held-negative", order.place, place=key, value=value)
        return None

    @staticmethod
    def _key(pos: Position, order: r.SetHeld) -> str | None:
        return next((k for k, g in treasuries.separated(pos, order.nation) if order.place in g), None)

    def apply(self, ctx: TurnContext, order: r.SetHeld) -> dict[str, Any]:
        key = self._key(ctx, order)
        assert key is not None  # check() refused it otherwise, on this same position
        money = treasuries.held(ctx, order.nation)
        before = money.get(key, 0)
        money[key] = before + order.value if order.relative else order.value
        treasuries.keep(ctx, order.nation, money)
        return {"field": "saved", "place": key, "before": before, "after": money[key]}


class SetTechRule(RulingRule):
    order = r.SetTech

    def check(self, pos: Position, order: r.SetTech) -> Problem | None:
        levels = vocab.TECHNOLOGIES[order.tech][1]
        if not 0 <= order.level <= levels:
            return problem("ruling-tech-level", tech=vocab.TECHNOLOGIES[order.tech][0], levels=levels)
        return _nations(pos, order.nation)

    def apply(self, ctx: TurnContext, order: r.SetTech) -> dict[str, Any]:
        tech = ctx.state.nations[order.nation].tech
        before = tech.get(order.tech, 0)
        if order.level:
            tech[order.tech] = order.level
        else:
            tech.pop(order.tech, None)
        return {"tech": order.tech, "before": before, "after": order.level}


class SetFlagRule(RulingRule):
    order = r.SetFlag

    def check(self, pos: Position, order: r.SetFlag) -> Problem | None:
        return _nations(pos, order.nation)

    def apply(self, ctx: TurnContext, order: r.SetFlag) -> dict[str, Any]:
        ctx.state.nations[order.nation].flags[order.key] = order.value
        return {"flag": order.key, "value": order.value}


class SetSideRule(RulingRule):
    order = r.SetSide

    def check(self, pos: Position, order: r.SetSide) -> Problem | None:
        return _nations(pos, order.nation)

    def apply(self, ctx: TurnContext, order: r.SetSide) -> dict[str, Any]:
        ns = ctx.state.nations[order.nation]
        before, ns.side = ns.side, order.side
        return {"before": before, "after": order.side}


class SetIncomeRule(RulingRule):
    """The moderator's income rule for a nation (Phase 8; engine/neutral_income.py): where
    the rules leave the amount to the moderator (Japan's options, the US at war, China's
    civil war) or the engine does not follow a change yet. `rules` lifts it."""

    order = r.SetIncome

    def check(self, pos: Position, order: r.SetIncome) -> Problem | None:
        return _nations(pos, order.nation)

    def apply(self, ctx: TurnContext, order: r.SetIncome) -> dict[str, Any]:
        flags = ctx.state.nations[order.nation].flags
        before = flags.get(RULING, RULES_RULE)
        if order.rule == RULES_RULE:
            flags.pop(RULING, None)
        else:
            flags[RULING] = order.rule
        return {"before": before, "after": order.rule}


def may_stand(pos: Position, kind: str, place: str) -> bool:
    """Ships at sea, other units on land; fighters at sea too: aboard carriers (Aircraft
    Carriers: "an aircraft carrier allows extended aerial operations for a limited number
    of fighters"; how many is the moderator's ruling to make)."""
    if pos.is_sea(place):
        return kind in SEA_UNITS or kind == "fighter"
    return kind not in SEA_UNITS


class ChangeUnitsRule(RulingRule):
    order = r.ChangeUnits

    def check(self, pos: Position, order: r.ChangeUnits) -> Problem | None:
        why = _nations(pos, order.nation)
        if why is not None:
            return why
        for uc in order.units:
            if not may_stand(pos, uc.kind, order.place):
                return problem("ruling-place", order.place, kind=uc.kind, place=order.place)
            if order.action == "add":
                if uc.kind not in trenches.KINDS and pos.stats(order.nation, uc.kind) is None:  # trenches: no stats
                    return problem("cannot-build", kind=uc.kind)
                if order.facing is not None:
                    why = self._trench(pos, order, uc)
                    if why is not None:
                        return why
                continue
            candidates = self._candidates(pos, order, uc.kind)
            if len(candidates) < uc.count:
                return problem("ruling-units", order.place, kind=uc.kind, place=order.place, have=len(candidates),
                               wanted=uc.count, action=order.action)
        return None

    @staticmethod
    def _trench(pos: Position, order: r.ChangeUnits, uc: Any) -> Problem | None:
        """ADD ... FACING: a trench on a land border of the place (Trenches: "a trench can
        not be placed along a coastline"), one of the nation's on each border (as BUILD
        TRENCH, engine/orders/trenches.py); whose land it is, and the infantry, are the
        moderator's to rule."""
        facing = order.facing or ""
        if (not pos.place(facing).is_land or facing == order.place
                or not pos.adjacent(order.place, facing)):
            return problem("trench-facing", facing, place=order.place, facing=facing)
        existing = trenches.trench_on(pos, order.nation, order.place, facing)
        if existing is not None or uc.count > 1:
            kind = existing.kind if existing is not None else uc.kind
            return problem("trench-exists", facing, kind=kind, place=order.place, facing=facing)
        return None

    @staticmethod
    def _candidates(pos: Position, order: r.ChangeUnits, kind: str) -> list[Any]:
        units = sorted((u for u in pos.units_at(order.place, order.nation) if u.kind == kind), key=lambda u: u.id)
        if order.action == "damage":
            stats = pos.stats(order.nation, kind)
            return [u for u in units if stats is not None and u.damage + 1 < stats.hits]
        if order.action == "repair":
            return [u for u in units if u.damage > 0]
        return units

    def apply(self, ctx: TurnContext, order: r.ChangeUnits) -> dict[str, Any]:
        ids: list[str] = []
        for uc in order.units:
            if order.action == "add":
                for _ in range(uc.count):  # a unit added now is one the nation builds now: its levels (Phase 2.1)
                    unit = ctx.state.new_unit(order.nation, uc.kind, order.place)
                    technology.stamp(ctx, unit)
                    if order.facing is not None:  # a trench, and the border it guards
                        trenches.face(ctx, unit, order.facing)
                    ids.append(unit.id)
                continue
            chosen = self._candidates(ctx, order, uc.kind)[-uc.count:]  # the newest first, by default
            ids += [u.id for u in chosen]
            if order.action == "remove":
                ctx.state.remove_units(chosen)
            else:
                for u in chosen:
                    u.damage = u.damage + 1 if order.action == "damage" else 0
        return {"units": sorted(ids)}


class RemoveAllRule(RulingRule):
    """REMOVE ALL [kind] OF nation AT place: clears a place of a nation's units without
    counting them first (a disbanded army, a position set up from scratch)."""

    order = r.RemoveAll

    def check(self, pos: Position, order: r.RemoveAll) -> Problem | None:
        return _nations(pos, order.nation)

    def remarks(self, pos: Position, nation: str, order: r.RemoveAll) -> list[Problem]:
        if not self._there(pos, order):
            return [warning("ruling-nothing-there", order.place, nation=order.nation, place=order.place,
                            kind=order.kind)]
        return []

    @staticmethod
    def _there(pos: Position, order: r.RemoveAll) -> list[Any]:
        return [u for u in pos.units_at(order.place, order.nation) if order.kind is None or u.kind == order.kind]

    def apply(self, ctx: TurnContext, order: r.RemoveAll) -> dict[str, Any]:
        there = self._there(ctx, order)
        ctx.state.remove_units(there)
        return {"units": sorted({u.id for u in there})}


class MoveUnitsRule(RulingRule):
    order = r.MoveUnits

    def check(self, pos: Position, order: r.MoveUnits) -> Problem | None:
        why = _nations(pos, order.nation)
        if why is not None:
            return why
        for uc in order.units:
            if not may_stand(pos, uc.kind, order.dest):
                return problem("ruling-place", order.dest, kind=uc.kind, place=order.dest)
            have = pos.count(order.nation, order.origin, uc.kind)
            if have < uc.count:
                return problem("ruling-units", order.origin, kind=uc.kind, place=order.origin, have=have,
                               wanted=uc.count, action="move")
        return None

    def apply(self, ctx: TurnContext, order: r.MoveUnits) -> dict[str, Any]:
        ids: list[str] = []
        for uc in order.units:
            units = sorted((u for u in ctx.units_at(order.origin, order.nation) if u.kind == uc.kind),
                           key=lambda u: u.id)[-uc.count:]
            for u in units:
                u.location = order.dest
            ids += [u.id for u in units]
        return {"units": sorted(ids)}


class SetControlRule(RulingRule):
    order = r.SetControl

    def check(self, pos: Position, order: r.SetControl) -> Problem | None:
        if not pos.place(order.place).is_land:
            return problem("ruling-place", order.place, kind="land", place=order.place)
        if order.since is not None and not 0 <= order.since <= pos.turn:
            return problem("ruling-turn", str(order.since), since=order.since, turn=pos.turn)
        return _nations(pos, order.nation)

    def apply(self, ctx: TurnContext, order: r.SetControl) -> dict[str, Any]:
        before = ctx.controller(order.place)
        if order.nation is None:
            ctx.state.incorporated.pop(order.place, None)
            return {"place": order.place, "incorporated": False}
        ctx.state.control[order.place] = order.nation
        if order.incorporated:
            ctx.state.incorporated[order.place] = ctx.turn if order.since is None else order.since
        elif before != order.nation:
            ctx.state.incorporated.pop(order.place, None)  # conquered land yields nothing until incorporated
        return {"place": order.place, "before": before, "incorporated": order.incorporated,
                "since": ctx.state.incorporated.get(order.place) if order.incorporated else None}


class SetWarRule(RulingRule):
    order = r.SetWar

    def check(self, pos: Position, order: r.SetWar) -> Problem | None:
        if order.a == order.b:
            return problem("war-self")
        return _nations(pos, order.a, order.b)

    def apply(self, ctx: TurnContext, order: r.SetWar) -> dict[str, Any]:
        for x, y in ((order.a, order.b), (order.b, order.a)):
            ns = ctx.state.nations[x]
            ns.at_war_with = sorted({*ns.at_war_with, y} if order.war else set(ns.at_war_with) - {y})
        return {"war": order.war}


class HandRollRule(RulingRule):
    order = r.HandRoll

    def concerns(self, order: Any) -> list[str]:
        return []

    def check(self, pos: Position, order: r.HandRoll) -> Problem | None:
        return None if order.result >= 0 else problem("ruling-roll")

    def apply(self, ctx: TurnContext, order: r.HandRoll) -> dict[str, Any]:
        if not ctx.checking:
            ctx.dice.by_hand(f"moderator: {order.purpose}", order.result)
        return {"purpose": order.purpose, "result": order.result}


RULES: tuple[RulingRule, ...] = (SetValueRule(), SetHeldRule(), SetTechRule(), SetFlagRule(), SetSideRule(), SetIncomeRule(),
                                 ChangeUnitsRule(), RemoveAllRule(), MoveUnitsRule(), SetControlRule(), SetWarRule(), HandRollRule())
