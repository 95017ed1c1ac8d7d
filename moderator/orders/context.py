"""The checker's working state for one nation's order set: names, budget, unit ledger.

validate() walks the orders in the order written; this object remembers what earlier
orders already spent or committed, so "you have 3 infantry in Metz, 2 already ordered
elsewhere" and "not enough resources" are reported on the order that crosses the line.
"""

from __future__ import annotations

import difflib
import heapq
from collections import Counter
from dataclasses import dataclass, field

from moderator.engine.state import GameState, NationState
from moderator.orders import model as m
from moderator.orders.diagnostics import ERROR, Diagnostic
from moderator.orders.vocab import UNIT_ECHO
from moderator.world.model import World, fold
from moderator.world.scenario_model import Scenario, UnitStats

SELF_WORDS = ("self", "myself", "ourselves", "me", "us", "itself", "herself", "themselves")


@dataclass
class TaskForceInfo:
    location: str
    units: m.Units
    position: str
    steps: int = 0
    loaded: Counter[str] = field(default_factory=Counter)
    loaded_points: int = 0


@dataclass
class Ctx:
    nation: str
    state: GameState
    world: World
    scenario: Scenario
    orders: list[m.Order]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    spent: int = 0
    ledger: Counter[tuple[str, str]] = field(default_factory=Counter)
    seen: set[tuple[str, ...]] = field(default_factory=set)
    new_infantry: int = 0
    colony_builds: Counter[str] = field(default_factory=Counter)
    infantry_outside_cities: Counter[str] = field(default_factory=Counter)
    smove_through: Counter[str] = field(default_factory=Counter)
    task_forces: dict[str, TaskForceInfo] = field(default_factory=dict)
    moved_rockets: Counter[str] = field(default_factory=Counter)
    declared: set[str] = field(default_factory=set)
    deployed: Counter[str] = field(default_factory=Counter)  # Initial Deployment: kind -> units
    failed: bool = False

    def __post_init__(self) -> None:
        for u in self.state.nation_units(self.nation):
            self.ledger[(u.location, u.kind)] += 1
        index: dict[str, str] = {}
        for nid in sorted(self.scenario.nations):
            n = self.scenario.nations[nid]
            for alias in (nid, n.name, *n.aliases):
                index.setdefault(fold(alias), nid)
        self._nations = index

    # ---- reporting ------------------------------------------------------------------
    def report(self, order: m.Order, severity: str, message: str, code: str, text: str | None = "") -> None:
        span = order.span
        column = span.column
        text = text or ""
        if text:
            at = span.text.lower().find(text.lower())
            column = span.column + at if at >= 0 else span.column
        self.diagnostics.append(Diagnostic(severity, span.line, column, text or span.text, message, code))
        if severity == ERROR:
            self.failed = True

    def error(self, order: m.Order, message: str, code: str, text: str | None = "") -> None:
        self.report(order, ERROR, message, code, text)

    # ---- names ------------------------------------------------------------------------
    @property
    def me(self) -> NationState:
        return self.state.nations.get(self.nation) or NationState(self.nation)

    def nation_state(self, nid: str) -> NationState:
        return self.state.nations.get(nid) or NationState(nid)

    def nation_name(self, nid: str) -> str:
        n = self.scenario.nations.get(nid)
        return n.name if n else nid

    def resolve_nation(self, typed: str) -> str | None:
        return self._nations.get(fold(typed))

    def nation_id(self, order: m.Order, typed: str) -> str | None:
        if fold(typed) in SELF_WORDS:
            return self.nation
        nid = self.resolve_nation(typed)
        if nid is None:
            keys = difflib.get_close_matches(fold(typed), list(self._nations), n=3, cutoff=0.6)
            names = sorted({self.nation_name(self._nations[k]) for k in keys})
            hint = f" Did you mean {' or '.join(names)}?" if names else ""
            self.error(order, f'"{typed}" is not a nation in this game.{hint}', "unknown-nation", typed)
        return nid

    def territory(self, order: m.Order, typed: str) -> str | None:
        name = self.world.resolve(typed)
        if name is None:
            guesses = self.world.suggest(typed)
            hint = f" Did you mean {' or '.join(guesses)}?" if guesses else ""
            self.error(order, f'"{typed}" is not a territory or sea zone on the map.{hint}',
                       "unknown-territory", typed)
        return name

    def is_sea(self, name: str) -> bool:
        return self.world.territories[name].is_sea

    # ---- resources --------------------------------------------------------------------
    def spend(self, order: m.Order, amount: int, what: str) -> bool:
        """Charge `amount` to the saved resources (Phase 3.1: never more than saved)."""
        saved = self.me.saved
        if self.spent + amount > saved:
            left = max(saved - self.spent, 0)
            self.error(order, f"not enough resources: {what} costs {amount}, but only {left} of your "
                              f"{saved} saved resources are left after your earlier orders",
                       "over-budget")
            return False
        self.spent += amount
        return True

    def stats(self, kind: str) -> UnitStats | None:
        try:
            return self.scenario.stats(self.nation, kind)
        except KeyError:
            return None

    def tech_level(self, tech: str) -> int:
        for key, level in self.me.tech.items():
            if fold(key) == fold(tech):
                return level
        return 0

    # ---- units ------------------------------------------------------------------------
    def take(self, order: m.Order, where: str, units: m.Units) -> bool:
        """Commit own units at `where` to this order (each unit does one thing a turn)."""
        for u in units:
            have = self.ledger[(where, u.kind)]
            if have < u.count:
                total = sum(1 for x in self.state.units_at(where, self.nation) if x.kind == u.kind)
                busy = f" ({total - have} already have other orders)" if total > have else ""
                self.error(order, f"you have only {have} {UNIT_ECHO[u.kind]} free in {where}{busy}, "
                                  f"not {u.count}", "not-enough-units", where)
                return False
        for u in units:
            self.ledger[(where, u.kind)] -= u.count
        return True

    def own_count(self, where: str, kind: str) -> int:
        return sum(1 for u in self.state.units_at(where, self.nation) if u.kind == kind)

    def friendly(self, territory: str) -> bool:
        owner = self.state.controller(territory)
        return owner is not None and self.state.allies(self.nation, owner)

    def enemy(self, territory: str) -> bool:
        owner = self.state.controller(territory)
        return owner is not None and self.state.at_war(self.nation, owner)

    # ---- distances ----------------------------------------------------------------------
    def steps(self, start: str, goal: str, limit: int, land_only: bool = True,
              friendly_only: bool = False, min_value: int = 0) -> int | None:
        """Fewest moves from start to goal (<= limit), through land (and friendly land;
        with min_value, only through territories worth at least that much)."""
        frontier, seen, depth = [start], {start}, 0
        while frontier and depth < limit:
            depth += 1
            nxt: list[str] = []
            for here in frontier:
                for n in sorted(self.world.neighbours(here)):
                    if n in seen or (land_only and self.is_sea(n)):
                        continue
                    if n == goal:
                        return depth
                    if friendly_only and not self.friendly(n):
                        continue
                    if self.world.territories[n].value < min_value:
                        continue
                    seen.add(n)
                    nxt.append(n)
            frontier = nxt
        return None

    def fuel_cost(self, start: str, goal: str) -> int | None:
        """Aircraft fuel from start to goal: 1 to enter land, 2 to enter a sea zone."""
        best = {start: 0}
        heap = [(0, start)]
        while heap:
            cost, here = heapq.heappop(heap)
            if here == goal:
                return cost
            if cost > best.get(here, 1 << 30):
                continue
            for n in sorted(self.world.neighbours(here)):
                c = cost + (2 if self.is_sea(n) else 1)
                if c < best.get(n, 1 << 30) and c <= 40:
                    best[n] = c
                    heapq.heappush(heap, (c, n))
        return None
