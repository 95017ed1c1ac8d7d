"""Integrity checks of a scenario's map and data (`moderator scenario check`).

Each check is a small function returning the problems it found, as sentences a
moderator can act on. The rules-stated facts live in rules_facts.py.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from moderator.world import rules_facts as facts
from moderator.world.loader import LoadReport, load_report
from moderator.world.model import World


@dataclass
class CheckResult:
    name: str
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def _need(world: World, name: str, problems: list[str], why: str) -> str | None:
    canon = world.resolve(name)
    if canon is None:
        hint = world.suggest(name)
        problems.append(f"{why}: no place called {name!r}" + (f" (did you mean {hint[0]!r}?)" if hint else ""))
    return canon


def check_symmetry(world: World) -> list[str]:
    return [f"{a} lists {b} as a neighbour but not the reverse"
            for a in sorted(world.adjacency) for b in sorted(world.adjacency[a])
            if a not in world.adjacency.get(b, frozenset())]


def check_connected(world: World) -> list[str]:
    """Every place can be reached from every other (over land and sea)."""
    if not world.territories:
        return ["the map has no territories"]
    start = min(world.territories)
    seen = {start}
    queue = deque([start])
    while queue:
        for n in world.neighbours(queue.popleft()):
            if n not in seen:
                seen.add(n)
                queue.append(n)
    missing = sorted(set(world.territories) - seen)
    return [f"{m} cannot be reached from {start}" for m in missing[:50]] + (
        [f"... and {len(missing) - 50} more unreachable places"] if len(missing) > 50 else [])


def check_isolated_land(world: World) -> list[str]:
    return [f"{t.name} has no neighbours at all" for t in world.lands() if not world.neighbours(t.name)]


def check_ports(world: World) -> list[str]:
    out = []
    for t in world.lands():
        if t.port and not any(world.territories[n].is_sea for n in world.neighbours(t.name)):
            out.append(f"{t.name} has a port but touches no sea zone")
    return out


def check_land_fields(world: World) -> list[str]:
    out = []
    for t in world.lands():
        if not t.owner:
            out.append(f"{t.name} has no original owner")
        if t.value < 0:
            out.append(f"{t.name} has a negative value")
    for t in world.seas():
        if t.owner or t.value or t.city or t.industry or t.port or t.capital:
            out.append(f"sea zone {t.name} has land attributes (owner/value/city/industry/port/capital)")
    return out


def check_stated_values(world: World) -> list[str]:
    out: list[str] = []
    for name, value in facts.STATED_VALUES.items():
        canon = _need(world, name, out, "Phase 1.4/4.1.3 value")
        if canon and world.territories[canon].value != value:
            out.append(f"{canon} must have value {value} (rules), has {world.territories[canon].value}")
    for names, total in facts.STATED_SUMS.items():
        canons = [_need(world, n, out, "Phase 1.4 value") for n in names]
        if all(canons):
            got = sum(world.territories[c].value for c in canons if c)
            if got != total:
                out.append(f"{' + '.join(names)} must total {total} (Phase 1.4), totals {got}")
    return out


def _check_pairs(world: World, pairs: tuple[tuple[str, str], ...], why: str) -> list[str]:
    out: list[str] = []
    for a, b in pairs:
        ca, cb = _need(world, a, out, why), _need(world, b, out, why)
        if ca and cb and not world.adjacent(ca, cb):
            out.append(f"{why}: {ca} and {cb} must be adjacent")
    return out


def check_submarine_targets(world: World) -> list[str]:
    return _check_pairs(world, facts.SUBMARINE_TARGETS, "Phase 1.4 submarine table")


def check_straits(world: World) -> list[str]:
    out = _check_pairs(world, facts.STRAITS, "Straits")
    for a, b in facts.STRAITS:
        ca, cb = world.resolve(a), world.resolve(b)
        if ca and cb and not world.is_strait(ca, cb):
            out.append(f"Straits: {ca}-{cb} is not marked as a strait in passages.csv")
    return out


def check_cross_map(world: World) -> list[str]:
    return _check_pairs(world, facts.CROSS_MAP, "cross-map connection")


def check_controlled_passages(world: World) -> list[str]:
    out: list[str] = []
    for a, b, controllers in facts.CONTROLLED_SEA_PASSAGES:
        ca, cb = _need(world, a, out, "controlled passage"), _need(world, b, out, "controlled passage")
        ctrl = [_need(world, c, out, "passage controller") for c in controllers]
        if not (ca and cb and all(ctrl)):
            continue
        if not world.adjacent(ca, cb):
            out.append(f"{ca} and {cb} must be joined (passage held by {', '.join(controllers)})")
        found = [p for p in world.passages_between(ca, cb) if set(ctrl) <= set(p.controllers)]
        if not found:
            out.append(f"passages.csv lacks the {ca}-{cb} passage controlled by {', '.join(c for c in ctrl if c)}")
        for c in ctrl:
            if c and not ({ca, cb} & set(world.neighbours(c))):
                out.append(f"{c} controls the {ca}-{cb} passage but touches neither sea")
    return out


def check_features(world: World) -> list[str]:
    out: list[str] = []
    for name, feature in facts.FEATURES:
        canon = _need(world, name, out, "Other Key Map Features")
        if canon and feature not in world.territories[canon].features:
            out.append(f"{canon} must have the feature {feature!r}")
    return out


def check_named_places(world: World) -> list[str]:
    out: list[str] = []
    for name in facts.NAMED_PLACES:
        if world.resolve(name) is None and name not in world.groups:
            _need(world, name, out, "named in the rules")
    for g in facts.GROUPS_EXPECTED:
        if g not in world.groups and world.resolve(g) is None:
            out.append(f"the rules' group {g!r} is neither a place nor a '# group:' line")
    return out


def check_strategic_examples(world: World) -> list[str]:
    """Phase 4.1.3 worked examples, computed on the graph with the 1914 ownership."""
    from moderator.engine.phase4_strategic import strategic_capacity
    from moderator.world.scenario import initial_state, load_scenario

    out: list[str] = []
    state = initial_state(load_scenario(), world, "check")
    for nation, origin, dests, expected in facts.STRATEGIC_EXAMPLES:
        canon = [_need(world, d, out, "Phase 4.1.3 example") for d in (origin, *dests)]
        if not all(canon):
            continue
        got = strategic_capacity(world, state, nation, canon[0] or origin, [c for c in canon[1:] if c])
        if got != expected:
            out.append(f"Phase 4.1.3 example: {origin} -> {', '.join(dests)} should carry {expected} units, carries {got}")
    return out


def check_scenario(world: World) -> list[str]:
    from moderator.world.scenario import load_scenario, validate_scenario

    return validate_scenario(load_scenario(), world)


CHECKS: tuple[tuple[str, Callable[[World], list[str]]], ...] = (
    ("adjacency is symmetric", check_symmetry),
    ("no land territory without neighbours", check_isolated_land),
    ("every place reachable", check_connected),
    ("land and sea fields", check_land_fields),
    ("ports touch the sea", check_ports),
    ("values stated in the rules", check_stated_values),
    ("submarine warfare table (Phase 1.4)", check_submarine_targets),
    ("the eleven straits", check_straits),
    ("cross-map connections", check_cross_map),
    ("controlled passages (Denmark, Kiel, Gibraltar, Suez, Bosporus, Panama, ...)", check_controlled_passages),
    ("special features", check_features),
    ("every place the rules name", check_named_places),
    ("strategic movement examples (Phase 4.1.3)", check_strategic_examples),
    ("scenario data", check_scenario),
)


def run_checks(name: str = "1914", report: LoadReport | None = None) -> list[CheckResult]:
    report = report or load_report(name)
    results = [CheckResult("map files load cleanly", list(report.problems))]
    for title, fn in CHECKS:
        try:
            problems = fn(report.world)
        except Exception as exc:  # a broken check must be reported, not crash the report
            problems = [f"check could not run: {type(exc).__name__}: {exc}"]
        results.append(CheckResult(title, problems))
    return results
