"""Load a scenario from scenarios/<name>/, check it against the map, build turn 1's state.

The scenario is data a moderator edits by hand (scenarios/1914/README.md explains each
file); this module only reads it, checks it, and turns it into a GameState. Every
number that comes from the rules is cited where the data lives; numbers we chose are
explained in docs/scenario-notes.md.
"""

from __future__ import annotations

import csv
import functools
import math
import tomllib
from dataclasses import fields
from pathlib import Path
from typing import Any

from moderator.engine.phase8_income import apply_income_rule
from moderator.engine.state import (
    AIR_UNITS,
    SEA_UNITS,
    STRUCTURES,
    UNIT_KINDS,
    GameState,
    NationState,
)
from moderator.world.model import Territory, World, fold
from moderator.world.scenario_model import (
    NATION_KINDS,
    SIDES,
    TECH_VALUES,
    Aggression,
    Closing,
    Condition,
    Diplomacy,
    Force,
    GearUpRule,
    GiftRules,
    HomeTrenchRule,
    InfluenceRules,
    Nation,
    Objective,
    ObjectiveGroup,
    OptionRule,
    PointsDrift,
    Reaction,
    ReconChances,
    Scenario,
    SelfInfluence,
    Technology,
    TerrainRule,
    TradeRoute,
    UnitStats,
    UnrestrictedTarget,
)

SCENARIOS_DIR = Path(__file__).resolve().parents[2] / "scenarios"

# Phase 3.1: "A few units have the same cost and combat abilities for every nation."

# Phase 1.2: the five starting diplomatic stands on the diplomatic chart.
STANDS = (-10, -5, 0, 5, 10)


OBJECTIVE_KINDS = ("knock-out", "naval", "army", "colonial", "take", "control", "acceptable-losses")


class ScenarioError(ValueError):
    """A scenario file cannot be read; the message names the file and the entry."""


# ---------------------------------------------------------------------------- loading
@functools.cache
def load_scenario(name: str = "1914") -> Scenario:
    """Read scenarios/<name>/ (scenario.toml, nations.toml, units.toml, forces.csv,
    objectives.toml, diplomacy.toml, and if present terrain.toml, technologies.toml, recon.toml,
    unrestricted_submarine_warfare.toml). Cached: the scenario is immutable data shared by everyone."""
    folder = SCENARIOS_DIR / name
    if not folder.is_dir():
        raise ScenarioError(f"no scenario folder {folder}")
    meta = _read_toml(folder / "scenario.toml")
    nations_raw = _read_toml(folder / "nations.toml")
    wars = _war_pairs(meta.get("wars", []), folder / "scenario.toml")
    nations = _nations(nations_raw, wars, folder / "nations.toml")
    unknown = sorted(set(meta) - _META_FIELDS)
    if unknown:
        raise ScenarioError(f"{folder / 'scenario.toml'}: unknown keys {unknown}; allowed: {sorted(_META_FIELDS)}")
    objectives_raw = _read_toml(folder / "objectives.toml")
    return Scenario(
        id=str(meta.get("id", name)),
        name=str(meta["name"]),
        start_year=int(meta["start_year"]),
        start_month=int(meta["start_month"]),
        months_per_turn=int(meta["months_per_turn"]),
        turns=int(meta["turns"]),
        nations=nations,
        units=_units(_read_toml(folder / "units.toml"), folder / "units.toml"),
        forces=tuple(_forces(folder / "forces.csv")),
        objectives=tuple(_objectives(objectives_raw, folder / "objectives.toml")),
        revolution_chance={int(y): int(c) for y, c in meta.get("revolution_chance", {}).items()},
        terrain=_terrain(folder / "terrain.toml"),
        unrestricted=_unrestricted(folder / "unrestricted_submarine_warfare.toml"),
        gifts=_gifts(meta.get("gifts", {})),
        diplomacy=load_diplomacy(folder / "diplomacy.toml"),
        revolution_start_turn=int(meta.get("revolution_start_turn", 0)),
        technologies=_technologies_table(folder / "technologies.toml"),
        recon=_recon(folder / "recon.toml"),
        ruleset=str(meta["ruleset"]) if "ruleset" in meta else None,
        fixed_costs={str(k): int(v) for k, v in meta.get("fixed_costs", {}).items()},
        rocket_base_range=int(meta.get("rocket", {}).get("base_range", 1)),
        home_trenches=HomeTrenchRule(**meta.get("trench_city_rule", {})),
        colony_classes={str(k): tuple(str(t) for t in v) for k, v in meta.get("colony_classes", {}).items()},
        groups=_groups(objectives_raw.get("groups", {}), folder / "objectives.toml"),
    )


def _groups(raw: dict[str, Any], path: Path) -> dict[str, ObjectiveGroup]:
    allowed = {f.name for f in fields(ObjectiveGroup)}
    out: dict[str, ObjectiveGroup] = {}
    for name, spec in raw.items():
        unknown = sorted(set(spec) - allowed)
        if unknown:
            raise ScenarioError(f"{path}: [groups.{name!r}] has unknown keys {unknown}; allowed: {sorted(allowed)}")
        values: dict[str, Any] = {k: tuple(str(m) for m in v) if isinstance(v, list) else v for k, v in spec.items()}
        out[str(name)] = ObjectiveGroup(**values)
    return out


def _technologies_table(path: Path) -> dict[str, Technology]:
    """technologies.toml: Phase 2.1 technologies and the Advancements table's columns
    (optional file: without it nothing can be researched at a discount or upgraded)."""
    if not path.exists():
        return {}
    out: dict[str, Technology] = {}
    allowed = {"advances", "full_price", "cost", "discount", "discount_exempt", *TECH_VALUES}
    for tid, entry in _read_toml(path).items():
        where = f"{path}: [{tid}]"
        unknown = sorted(set(entry) - allowed)
        if unknown:
            raise ScenarioError(f"{where} has unknown keys {unknown}; allowed: {', '.join(sorted(allowed))}")
        try:
            advances = int(entry["advances"])
            full_price = tuple(int(level) for level in entry.get("full_price", ()))
            columns = {value: {str(kind): tuple(int(c) for c in per_level) for kind, per_level in entry[value].items()}
                       for value in ("cost", *TECH_VALUES) if value in entry}
            discount = tuple(int(p) for p in entry.get("discount", ()))
            exempt = tuple(str(k) for k in entry.get("discount_exempt", ()))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ScenarioError(f"{where}: {exc!r}") from exc
        for value, per_kind in columns.items():
            for kind, per_level in per_kind.items():
                if kind not in UNIT_KINDS or len(per_level) != advances:
                    raise ScenarioError(f"{where}: {value}.{kind} must be a unit kind with one number per advance "
                                        f"({advances})")
        if discount and len(discount) != advances:
            raise ScenarioError(f"{where}: discount must have one percentage per advance ({advances})")
        if any(not 1 <= level <= advances for level in full_price):
            raise ScenarioError(f"{where}: full_price levels must lie between 1 and {advances}")
        cost = columns.pop("cost", {})
        out[tid] = Technology(tid, advances, full_price, cost, columns, discount, exempt)
    return out


_RECON_COLUMNS = ("passive_land", "active_land", "passive_sea", "active_sea")


def _recon(path: Path) -> dict[str, ReconChances]:
    """recon.toml: the Phase 3.3 table, percent per unit kind; a missing column is "n/a"."""
    if not path.exists():
        return {}
    out: dict[str, ReconChances] = {}
    for kind, entry in _read_toml(path).items():
        unknown = sorted(set(entry) - set(_RECON_COLUMNS))
        if unknown:
            raise ScenarioError(f"{path}: [{kind}] has unknown keys {unknown}; allowed: {list(_RECON_COLUMNS)}")
        if kind not in (*UNIT_KINDS, "trench"):
            raise ScenarioError(f"{path}: [{kind}] is not a unit kind")
        for column, value in entry.items():
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 100:
                raise ScenarioError(f"{path}: [{kind}] {column} must be a percentage, got {value!r}")
        out[kind] = ReconChances(kind, **entry)
    return out


def _terrain(path: Path) -> dict[str, TerrainRule]:
    """terrain.toml: map feature -> its effect on units (optional file)."""
    if not path.exists():
        return {}
    allowed = {f.name for f in fields(TerrainRule)} - {"feature"}
    out: dict[str, TerrainRule] = {}
    for feature, entry in _read_toml(path).items():
        unknown = sorted(set(entry) - allowed)
        if unknown:
            raise ScenarioError(f"{path}: [{feature}] has unknown keys {unknown}; allowed: {sorted(allowed)}")
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in entry.items()}
        out[feature] = TerrainRule(feature=feature, **values)
    return out


def _unrestricted(path: Path) -> dict[str, UnrestrictedTarget]:
    """unrestricted_submarine_warfare.toml: the Phase 1.4 table, one row per targeted nation
    (optional file)."""
    if not path.exists():
        return {}
    allowed = {"zones", "territories", "value"}
    out: dict[str, UnrestrictedTarget] = {}
    for nation, entry in _read_toml(path).items():
        if set(entry) != allowed:
            raise ScenarioError(f"{path}: [{nation}] needs exactly the keys {sorted(allowed)}, has {sorted(entry)}")
        out[nation] = UnrestrictedTarget(nation, tuple(str(z) for z in entry["zones"]),
                                         tuple(str(t) for t in entry["territories"]), int(entry["value"]))
    return out


def _gifts(raw: dict[str, Any]) -> GiftRules:
    return GiftRules(
        full_value_groups=tuple(frozenset(str(n) for n in g) for g in raw.get("full_value_groups", ())),
        neutral_lenders=frozenset(str(n) for n in raw.get("neutral_lenders", ())),
        lender_minimum=int(raw.get("lender_minimum", 5)),
    )


_META_FIELDS = {"gifts", "id", "name", "ruleset", "start_year", "start_month", "months_per_turn", "turns",
                "revolution_chance", "revolution_start_turn", "wars", "fixed_costs", "rocket", "trench_city_rule",
                "colony_classes"}


# ---------------------------------------------------------------------------- diplomacy.toml
_DIPLOMACY_KEYS = {"influence", "self_influence", "coax", "blockade", "us_trade", "submarine_warfare", "wars",
                   "gear_up", "option", "drift", "reaction", "aggression", "closing"}
_OPTION_KEYS = {f.name for f in fields(OptionRule)}
_CONDITION_KEYS = {f.name for f in fields(Condition)}
_SIDE_WORDS = ("central", "allied", "neutral", "war")


def load_diplomacy(path: Path) -> Diplomacy:
    """diplomacy.toml: Phase 1 as typed data (the file's header explains each table).
    A scenario without the file has no special options and the bare Phase 1.2 cost."""
    if not path.exists():
        return Diplomacy()
    raw = _read_toml(path)
    _no_unknown(raw, _DIPLOMACY_KEYS, f"{path}")
    inf = raw.get("influence", {})
    _no_unknown(inf, {"cost", "majors", "case_majors", "never", "neutral_influencers", "garrison", "points",
                      "target_points", "geared_points"}, f"{path}: [influence]")
    influence = InfluenceRules(
        cost=int(inf.get("cost", 10)),
        majors=frozenset(str(n) for n in inf.get("majors", ())),
        case_majors=frozenset(str(n) for n in inf.get("case_majors", ())),
        never=frozenset((str(a), str(b)) for a, b in inf.get("never", ())),
        neutral_influencers={str(k): int(v) for k, v in inf.get("neutral_influencers", {}).items()},
        garrison=tuple((str(g["nation"]), str(g["target"]), int(g["option"])) for g in inf.get("garrison", ())),
        points=int(inf.get("points", 8)),
        target_points={str(k): int(v) for k, v in inf.get("target_points", {}).items()},
        geared_points={str(k): int(v) for k, v in inf.get("geared_points", {}).items()},
    )
    drift: dict[str, PointsDrift] = {}
    for nid, entry in raw.get("drift", {}).items():
        _no_unknown(entry, {f.name for f in fields(PointsDrift)}, f"{path}: [drift.{nid}]")
        drift[nid] = PointsDrift(**entry)
    reactions: list[Reaction] = []
    for i, entry in enumerate(raw.get("reaction", ()), start=1):
        where = f"{path}: reaction #{i}"
        _no_unknown(entry, {f.name for f in fields(Reaction)}, where)
        reaction = Reaction(**entry)
        if reaction.event not in ("declares-war", "joins", "enters-unprovoked") or reaction.side not in ("allied", "central"):
            raise ScenarioError(f"{where}: event is declares-war, joins or enters-unprovoked, side allied or central")
        reactions.append(reaction)
    aggressions: list[Aggression] = []
    for i, entry in enumerate(raw.get("aggression", ()), start=1):
        where = f"{path}: aggression #{i}"
        _no_unknown(entry, {f.name for f in fields(Aggression)}, where)
        aggression = Aggression(**entry)
        if aggression.target not in ("major", "minor") or any(v < 0 for v in aggression.points.values()):
            raise ScenarioError(f"{where}: target is major or minor, points are 0 or more (always against the aggressor)")
        aggressions.append(aggression)
    closings: list[Closing] = []
    for i, entry in enumerate(raw.get("closing", ()), start=1):
        where = f"{path}: closing #{i}"
        _no_unknown(entry, {f.name for f in fields(Closing)}, where)
        closing = Closing(**entry)
        if any(v < 0 for v in closing.points.values()):
            raise ScenarioError(f"{where}: points are 0 or more (always against the closer)")
        closings.append(closing)
    selfi: dict[str, SelfInfluence] = {}
    for nid, entry in raw.get("self_influence", {}).items():
        _no_unknown(entry, {f.name for f in fields(SelfInfluence)}, f"{path}: [self_influence.{nid}]")
        selfi[nid] = SelfInfluence(**entry)
    coax = raw.get("coax", {})
    _no_unknown(coax, {"nation", "cost", "paid_to"}, f"{path}: [coax]")
    blockade = raw.get("blockade", {})
    _no_unknown(blockade, {"ships"}, f"{path}: [blockade]")
    trade = raw.get("us_trade", {})
    _no_unknown(trade, {"trader", "ships", "zones", "route", "not_while_neutral", "not_while_entry_negative"},
                f"{path}: [us_trade]")
    for route in trade.get("route", ()):
        _no_unknown(route, {f.name for f in fields(TradeRoute)}, f"{path}: [[us_trade.route]]")
    wars = raw.get("wars", {})
    _no_unknown(wars, {"no_war_on_neutrals", "no_join_in_local_war", "ends_on_capture", "join_without_points",
                       "war_by_option", "not_alone", "limited_war_gear_up", "only_listed_wars"},
                f"{path}: [wars]")
    gear: dict[str, GearUpRule] = {}
    for nid, entry in raw.get("gear_up", {}).items():
        _no_unknown(entry, {f.name for f in fields(GearUpRule)}, f"{path}: [gear_up.{nid}]")
        gear[nid] = GearUpRule(**entry)
    return Diplomacy(
        influence=influence,
        self_influence=selfi,
        drift=drift,
        reactions=tuple(reactions),
        aggressions=tuple(aggressions),
        closings=tuple(closings),
        coax_nation=str(coax.get("nation", "")),
        coax_cost=int(coax.get("cost", 0)),
        coax_paid_to=str(coax.get("paid_to", "")),
        blockade_ships=tuple(blockade.get("ships", ())),
        us_trader=str(trade.get("trader", "")),
        us_trade_ships=tuple(trade.get("ships", ())),
        us_trade={str(n): tuple(z) for n, z in trade.get("zones", {}).items()},
        us_trade_not_while_neutral=frozenset(trade.get("not_while_neutral", ())),
        us_trade_not_while_entry_negative=frozenset(trade.get("not_while_entry_negative", ())),
        us_trade_routes=tuple(TradeRoute(str(r["to"]), tuple(r.get("zones", ())), tuple(r.get("held", ())),
                                         bool(r.get("incorporated", False)), str(r.get("subs_cut", "")))
                              for r in trade.get("route", ())),
        retract_subs_cost=int(raw.get("submarine_warfare", {}).get("retract_cost", 0)),
        no_war_on_neutrals=frozenset(wars.get("no_war_on_neutrals", ())),
        no_join_in_local_war=frozenset(wars.get("no_join_in_local_war", ())),
        ends_on_capture=frozenset(wars.get("ends_on_capture", ())),
        join_without_points=frozenset(wars.get("join_without_points", ())),
        war_by_option={str(n): tuple(int(o) for o in opts) for n, opts in wars.get("war_by_option", {}).items()},
        not_alone={str(n): str(w) for n, w in wars.get("not_alone", {}).items()},
        limited_war_gear_up={str(n): frozenset(t) for n, t in wars.get("limited_war_gear_up", {}).items()},
        only_listed_wars=frozenset(wars.get("only_listed_wars", ())),
        gear_up=gear,
        options=tuple(_option(entry, i, path) for i, entry in enumerate(raw.get("option", ()), start=1)),
    )


def _option(entry: dict[str, Any], i: int, path: Path) -> OptionRule:
    where = f"{path}: option #{i} ({entry.get('nation')} {entry.get('number')})"
    _no_unknown(entry, _OPTION_KEYS, where)
    values = dict(entry)
    for key in ("requires", "full_requires"):
        values[key] = tuple(_condition(c, f"{where} {key}") for c in entry.get(key, ()))
    values["needs"] = tuple(entry.get("needs", ()))
    values["places"] = tuple(entry.get("places", ()))
    try:
        option = OptionRule(**values)
    except TypeError as exc:
        raise ScenarioError(f"{where}: {exc}") from exc
    bad = [n for n in option.needs if n not in ("target", "amount", "toward")]
    if bad or option.once not in ("", "turn", "game") or option.kind not in ("", "gear-up", "self-influence", "influence"):
        raise ScenarioError(f"{where}: needs must be target/amount/toward, once turn/game, kind "
                            "gear-up/self-influence/influence")
    return option


def _condition(raw: dict[str, Any], where: str) -> Condition:
    _no_unknown(raw, _CONDITION_KEYS, where)
    c = Condition(**raw)
    if c.side and c.side not in _SIDE_WORDS or c.held_by and c.held_by not in _SIDE_WORDS:
        raise ScenarioError(f"{where}: a side is one of {', '.join(_SIDE_WORDS)}")
    if c.geared not in ("", "earlier", "done"):
        raise ScenarioError(f"{where}: geared is \"earlier\" or \"done\"")
    return c


def _no_unknown(entry: dict[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(entry) - allowed)
    if unknown:
        raise ScenarioError(f"{where} has unknown keys {unknown}; allowed: {sorted(allowed)}")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError as exc:
        raise ScenarioError(f"missing scenario file {path}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: {exc}") from exc


def _war_pairs(raw: list[Any], path: Path) -> dict[str, set[str]]:
    """scenario.toml `wars`: pairs at war in August 1914, made symmetric (The Alliances)."""
    at_war: dict[str, set[str]] = {}
    for pair in raw:
        if not (isinstance(pair, list) and len(pair) == 2):
            raise ScenarioError(f"{path}: each entry of `wars` must be a pair of nation ids, got {pair!r}")
        a, b = str(pair[0]), str(pair[1])
        at_war.setdefault(a, set()).add(b)
        at_war.setdefault(b, set()).add(a)
    return at_war


_NATION_FIELDS = {f.name for f in fields(Nation)}


def _nations(raw: dict[str, Any], wars: dict[str, set[str]], path: Path) -> dict[str, Nation]:
    nations: dict[str, Nation] = {}
    for nid in sorted(raw):
        entry = dict(raw[nid])
        unknown = sorted(set(entry) - _NATION_FIELDS)
        if unknown:
            raise ScenarioError(f"{path}: [{nid}] has unknown keys {unknown}; allowed: {sorted(_NATION_FIELDS)}")
        entry["id"] = nid
        entry["at_war_with"] = tuple(sorted(set(entry.get("at_war_with", ())) | wars.get(nid, set())))
        entry["tech"] = tuple(sorted((str(k), int(v)) for k, v in entry.get("tech", {}).items()))
        entry["aliases"] = tuple(entry.get("aliases", ()))
        entry["starvation_cordon"] = tuple(entry.get("starvation_cordon", ()))
        try:
            nations[nid] = Nation(**entry)
        except TypeError as exc:
            raise ScenarioError(f"{path}: [{nid}]: {exc}") from exc
    return nations


_STAT_FIELDS = {f.name for f in fields(UnitStats)} - {"kind"}


def _units(raw: dict[str, Any], path: Path) -> dict[str, dict[str, UnitStats]]:
    """units.toml: a complete [default.<kind>] table; [<nation>.<kind>] tables list only
    the numbers that differ from the default (merged onto it here)."""
    if "default" not in raw:
        raise ScenarioError(f"{path}: a [default.<kind>] table for every unit kind is required")
    defaults: dict[str, dict[str, Any]] = {}
    for kind, values in raw["default"].items():
        defaults[kind] = _check_stat_keys(values, f"{path}: [default.{kind}]")
    table: dict[str, dict[str, UnitStats]] = {
        "default": {k: UnitStats(kind=k, **v) for k, v in sorted(defaults.items())}
    }
    for nation in sorted(set(raw) - {"default"}):
        per: dict[str, UnitStats] = {}
        for kind, values in sorted(raw[nation].items()):
            if kind not in defaults:
                raise ScenarioError(f"{path}: [{nation}.{kind}] overrides a kind missing from [default]")
            merged = {**defaults[kind], **_check_stat_keys(values, f"{path}: [{nation}.{kind}]")}
            per[kind] = UnitStats(kind=kind, **merged)
        table[nation] = per
    return table


def _check_stat_keys(values: dict[str, Any], where: str) -> dict[str, Any]:
    unknown = sorted(set(values) - _STAT_FIELDS)
    if unknown:
        raise ScenarioError(f"{where}: unknown keys {unknown}; allowed: {sorted(_STAT_FIELDS)}")
    for key, value in values.items():
        wanted = str if key == "requires_tech" else int
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise ScenarioError(f"{where}: {key} must be {'a technology id' if wanted is str else 'a whole number'}, got {value!r}")
    return dict(values)


def _forces(path: Path) -> list[Force]:
    """forces.csv: nation,kind,count,location,fixed (y = predetermined, n = free half).
    Lines starting with # are comments, so the file can be organised by front."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ScenarioError(f"missing scenario file {path}") from exc
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    out: list[Force] = []
    for lineno, row in enumerate(csv.DictReader(lines), start=2):
        try:
            fixed = row["fixed"].strip().lower()
            if fixed not in ("y", "n"):
                raise ValueError(f"fixed must be y or n, got {row['fixed']!r}")
            out.append(Force(row["nation"].strip(), row["kind"].strip(), int(row["count"]),
                             row["location"].strip(), fixed == "y"))
        except (KeyError, ValueError, AttributeError) as exc:
            raise ScenarioError(f"{path}: data row {lineno - 1} {row}: {exc}") from exc
    return out


def _objectives(raw: dict[str, Any], path: Path) -> list[Objective]:
    out: list[Objective] = []
    for i, entry in enumerate(raw.get("objective", []), start=1):
        try:
            out.append(Objective(nation=str(entry["nation"]), kind=str(entry["kind"]),
                                 weight=int(entry.get("weight", 0)),
                                 targets=tuple(str(t) for t in entry.get("targets", ())),
                                 condition=str(entry.get("condition", ""))))
        except KeyError as exc:
            raise ScenarioError(f"{path}: objective #{i} lacks {exc}") from exc
    return out


# ---------------------------------------------------------------------------- helpers
def is_active(scenario: Scenario, nation: str) -> bool:
    """False for nations not on the board at start (the Bolsheviks, Phase 9)."""
    n = scenario.nations.get(nation)
    return n is None or n.active


def fixed_share(total: int) -> int:
    """Initial Deployment: 50% of the units (rounded up) stand in predetermined places."""
    return math.ceil(total / 2)


def group_members(scenario: Scenario, world: World, group: str, nation: str = "") -> list[str] | None:
    """Names (territories or passages) a named objective group stands for, or None if
    `group` is no group. Groups the map files define (World.groups) come first; then
    objectives.toml [groups] (see its header for the keys)."""
    if group in world.groups:
        return list(world.groups[group])
    spec = scenario.groups.get(group)
    if spec is None:
        return None
    members = list(spec.members)
    centre = world.resolve(spec.adjacent_to) if spec.adjacent_to else None
    if centre is not None:  # Victory Conditions: "Poland consists of all territories adjacent to Warsaw"
        members += sorted(n for n in world.neighbours(centre) if world.territories[n].is_land)
        if spec.include_centre:
            members.append(centre)
    if spec.owner or spec.section or spec.outside_section or spec.feature:
        members += [t.name for t in world.lands() if _group_matches(spec, t, nation)]
    return members


def _group_matches(spec: ObjectiveGroup, t: Territory, nation: str) -> bool:
    owner = spec.owner.replace("$self", nation)
    return ((not owner or t.owner == owner)
            and (not spec.section or t.section == spec.section)
            and (not spec.outside_section or t.section != spec.outside_section)
            and (not spec.feature or spec.feature in t.features)
            and (not spec.not_owner or t.owner != spec.not_owner))


# ---------------------------------------------------------------------------- validation
def validate_scenario(scenario: Scenario, world: World, *, strict: bool | None = None) -> list[str]:
    """Every problem found, as plain sentences for `moderator scenario check`.

    Places the map does not know are reported only when `strict`; by default that is
    once every map section has territories (the map files are written in parallel)."""
    complete = _world_complete(world) if strict is None else strict
    problems: list[str] = []
    problems += _check_nations(scenario, world, complete)
    problems += _check_units(scenario)
    problems += _check_forces(scenario, world, complete)
    problems += _check_objectives(scenario, world, complete)
    problems += _check_diplomacy(scenario, world, complete)
    problems += _check_unrestricted(scenario, world, complete)
    return problems


def _check_nations(scenario: Scenario, world: World, complete: bool) -> list[str]:
    out: list[str] = []
    nations = scenario.nations
    owners = sorted({t.owner for t in world.territories.values() if t.owner})
    for owner in owners:
        if owner not in nations:
            places = sorted(t.name for t in world.lands() if t.owner == owner)
            out.append(f"The map names owner '{owner}' (e.g. {', '.join(places[:3])}) but nations.toml does not define it.")
    for n in (nations[k] for k in sorted(nations)):
        out += _check_one_nation(n, scenario, world, complete)
    for t in world.lands():
        holder = nations.get(t.owner or "")
        if t.capital and holder is not None and world.resolve(holder.capital or "") != t.name:
            out.append(f"The map marks {t.name} as a capital of '{holder.id}' but nations.toml names {holder.capital!r}.")
    out += _check_aliases(scenario)
    if complete:
        owned = set(owners)
        for nid in sorted(nations):
            if nid not in owned and is_active(scenario, nid):
                out.append(f"Nation '{nid}' owns no territory on the map.")
    return out


def _check_aliases(scenario: Scenario) -> list[str]:
    """Players may type a nation by id, name or alias: no two nations may share one."""
    seen: dict[str, str] = {}
    out: list[str] = []
    for n in sorted(scenario.nations.values(), key=lambda n: n.id):
        for typed in dict.fromkeys((n.id, n.name, *n.aliases)):
            key = fold(typed)
            if seen.setdefault(key, n.id) != n.id:
                out.append(f"Nation name {typed!r} of '{n.id}' is also a name of '{seen[key]}'.")
    return out


def _check_one_nation(n: Nation, scenario: Scenario, world: World, complete: bool) -> list[str]:
    out: list[str] = []
    if n.kind not in NATION_KINDS:
        out.append(f"Nation '{n.id}' has kind '{n.kind}'; use one of {', '.join(NATION_KINDS)}.")
    if n.side not in SIDES:
        out.append(f"Nation '{n.id}' has side '{n.side}'; use one of {', '.join(SIDES)}.")
    if n.standing not in STANDS:
        out.append(f"Nation '{n.id}' starts at stand {n.standing}; Phase 1.2 knows only {STANDS}.")
    if n.parent is not None and n.parent not in scenario.nations:
        out.append(f"Nation '{n.id}' names unknown parent '{n.parent}'.")
    for enemy in n.at_war_with:
        if enemy not in scenario.nations:
            out.append(f"Nation '{n.id}' is at war with unknown nation '{enemy}'.")
    try:
        apply_income_rule(n.income_rule, 100)  # the engine's reading of the rule (Phase 8)
    except ValueError as exc:
        out.append(f"Nation '{n.id}': {exc}.")
    known = _technologies(scenario)
    for tech, level in n.tech:
        if tech not in known:
            out.append(f"Nation '{n.id}' starts with unknown technology '{tech}' (technologies.toml).")
        elif not 0 <= level <= known[tech]:
            out.append(f"Nation '{n.id}' starts with {tech} at level {level}; it has {known[tech]} advances.")
    if n.capital is not None:
        out += _check_capital(n, world, complete)
    elif n.kind == "major" and n.active:  # a faction entering by a special rule holds no land at start
        out.append(f"Major nation '{n.id}' has no capital.")
    return out


def _check_capital(n: Nation, world: World, complete: bool) -> list[str]:
    name = world.resolve(n.capital or "")
    if name is None:
        if not complete:
            return []  # that nation's map section may not be written yet
        return [f"Capital '{n.capital}' of '{n.id}' is not on the map."]
    t = world.territories[name]
    if t.owner != n.id:
        return [f"Capital {name} of '{n.id}' is owned by '{t.owner}' on the map."]
    return []


def _technologies(scenario: Scenario) -> dict[str, int]:
    return {t.id: t.advances for t in scenario.technologies.values()}


def _check_units(scenario: Scenario) -> list[str]:
    out: list[str] = []
    default = scenario.units.get("default", {})
    for kind in (*UNIT_KINDS, *STRUCTURES):
        if kind not in default:
            out.append(f"units.toml has no [default.{kind}] table.")
    for owner, table in sorted(scenario.units.items()):
        if owner != "default" and owner not in scenario.nations:
            out.append(f"units.toml overrides units for unknown nation '{owner}'.")
        for kind, stats in sorted(table.items()):
            if stats.requires_tech is not None and stats.requires_tech not in _technologies(scenario):
                out.append(f"{kind} of '{owner}' requires unknown technology '{stats.requires_tech}'.")
            fixed = scenario.fixed_costs.get(kind)
            if fixed is not None and stats.cost != fixed:
                out.append(f"{kind} costs {stats.cost} for '{owner}' but Phase 3.1 fixes it at {fixed} for every nation.")
    return out


def _check_forces(scenario: Scenario, world: World, complete: bool) -> list[str]:
    out: list[str] = []
    totals: dict[tuple[str, str], list[int]] = {}
    for f in scenario.forces:
        where = f"forces.csv: {f.count} {f.nation} {f.kind} at {f.location}"
        if f.nation not in scenario.nations:
            out.append(f"{where}: unknown nation.")
            continue
        if f.kind not in UNIT_KINDS:
            out.append(f"{where}: '{f.kind}' is not a unit kind ({', '.join(UNIT_KINDS)}).")
            continue
        if f.count <= 0:
            out.append(f"{where}: the count must be positive.")
        share = totals.setdefault((f.nation, f.kind), [0, 0])
        share[0 if f.fixed else 1] += f.count
        out += _check_force_location(scenario, f, world, where, complete)
    for (nation, kind), (fixed, free) in sorted(totals.items()):
        if fixed != fixed_share(fixed + free):
            out.append(f"{nation} {kind}: {fixed} predetermined and {free} free; Initial Deployment wants "
                       f"{fixed_share(fixed + free)} predetermined (50% rounded up) of {fixed + free}.")
    return out


def _check_force_location(scenario: Scenario, f: Force, world: World, where: str, complete: bool) -> list[str]:
    name = world.resolve(f.location)
    if name is None:
        if not complete:
            return []  # the map section holding this place may still be being written
        hint = world.suggest(f.location)
        return [f"{where}: no such place" + (f" (did you mean {', '.join(hint)}?)" if hint else "") + "."]
    t = world.territories[name]
    if f.kind in SEA_UNITS:
        if not t.is_sea:
            return [f"{where}: ships must start in a sea zone."]
        if not any(world.territories[n].owner == f.nation for n in world.neighbours(name)):
            return [f"{where}: Initial Deployment puts ships only in sea zones next to the nation's own land."]
        return []
    if not t.is_land:
        return [f"{where}: land and air units must start on land."]
    if t.owner != f.nation:
        return [f"{where}: {name} belongs to '{t.owner}', not to {f.nation}."]
    if not f.fixed and t.colony and f.nation in _NO_COLONY_DEPLOYMENT:
        return [f"{where}: Initial Deployment forbids deploying the free half in colonies for {f.nation}."]
    if f.kind in AIR_UNITS and any(r.no_landing for feat, r in scenario.terrain.items() if feat in t.features):
        return [f"{where}: no aircraft can land in {name} (mountains)."]
    return []


# Initial Deployment: "No one can deploy units prior to first turn ... to colonies (for
# British Commonwealt, German Empire and French Empire only)".
_NO_COLONY_DEPLOYMENT = frozenset({"britain", "germany", "france"})


def _check_objectives(scenario: Scenario, world: World, complete: bool) -> list[str]:
    out: list[str] = []
    passages = {p.name for p in world.passages}
    for o in scenario.objectives:
        where = f"objectives.toml: {o.nation} {o.kind}"
        if o.nation not in scenario.nations:
            out.append(f"{where}: unknown nation.")
        if o.kind not in OBJECTIVE_KINDS:
            out.append(f"{where}: unknown kind; use one of {', '.join(OBJECTIVE_KINDS)}.")
            continue
        for target in o.targets:
            if o.kind == "knock-out" and target not in scenario.nations:
                out.append(f"{where}: '{target}' is not a nation id.")
            elif o.kind in ("take", "control", "acceptable-losses"):
                out += _check_place_target(scenario, world, passages, where, target, o.nation, complete)
    return out


def _check_diplomacy(scenario: Scenario, world: World, complete: bool) -> list[str]:
    """diplomacy.toml names known nations and places, and income rules Phase 8 reads."""
    d = scenario.diplomacy
    out: list[str] = []
    nations: list[tuple[str, str]] = [("coax", d.coax_nation), ("coax", d.coax_paid_to), ("us_trade", d.us_trader)]
    nations += [("influence", n) for n in (*d.influence.majors, *d.influence.case_majors, *d.influence.neutral_influencers)]
    nations += [("influence", n) for pair in d.influence.never for n in pair]
    nations += [("self_influence", n) for n in d.self_influence] + [("gear_up", n) for n in d.gear_up]
    nations += [("drift", n) for n in d.drift] + [("influence", n) for n in (*d.influence.target_points,
                                                                             *d.influence.geared_points)]
    columns = ("neighbouring", "distant")
    nations += [("reaction", n) for r in d.reactions for n in (*r.points, *r.until_turn) if n not in columns]
    nations += [("reaction", r.nation) for r in d.reactions if r.nation != "minor"]
    nations += [("aggression", n) for a in d.aggressions for n in (a.nation, *a.points) if n not in columns]
    nations += [("closing", n) for c in d.closings for n in c.points if n not in columns]
    nations += [("us_trade", n) for n in d.us_trade]
    nations += [("us_trade", n) for r in d.us_trade_routes for n in (r.to, r.subs_cut)]
    nations += [("us_trade", n) for n in (*d.us_trade_not_while_neutral, *d.us_trade_not_while_entry_negative)]
    nations += [("wars", n) for n in (*d.no_war_on_neutrals, *d.no_join_in_local_war, *d.ends_on_capture,
                                           *d.join_without_points, *d.war_by_option, *d.not_alone,
                                           *d.not_alone.values(), *d.only_listed_wars)]
    nations += [("wars", n) for who, whom in d.limited_war_gear_up.items() for n in (who, *whom)]
    places: list[tuple[str, str]] = [("us_trade", z) for zones in d.us_trade.values() for z in zones]
    places += [("us_trade", p) for r in d.us_trade_routes for p in (*r.zones, *r.held)]
    for o in d.options:
        where = f"option {o.nation} #{o.number}"
        nations += [(where, n) for n in (o.nation, o.receiver if o.receiver != "target" else "", o.opens_influence)]
        for c in (*o.requires, *o.full_requires):
            nations += [(where, n) for n in (c.of, c.war, c.peace)]
            places += [(where, p) for p in (c.holds, c.at)]
        places.append((where, o.gives))
    for where, nid in nations:
        if nid and nid not in scenario.nations:
            out.append(f"diplomacy.toml [{where}] names unknown nation '{nid}'.")
    for where, place in places:
        if place and complete and world.resolve(place) is None:
            out.append(f"diplomacy.toml [{where}] names '{place}', which is not on the map.")
    passages = {p.name for p in world.passages}
    out += [f"diplomacy.toml [closing] names '{c.passage}', which is no passage of the map."
            for c in d.closings if complete and c.passage not in passages]
    for nid, gear in sorted(d.gear_up.items()):
        try:
            apply_income_rule(gear.income_rule or "full", 100)
        except ValueError as exc:
            out.append(f"diplomacy.toml [gear_up.{nid}]: {exc}.")
    seen: set[tuple[str, str, int]] = set()
    for o in d.options:
        if (o.nation, o.side, o.number) in seen:
            out.append(f"diplomacy.toml: option #{o.number} of '{o.nation}' ({o.side or 'any side'}) is written twice.")
        seen.add((o.nation, o.side, o.number))
    return out


def _check_unrestricted(scenario: Scenario, world: World, complete: bool) -> list[str]:
    """The Phase 1.4 table against the map: sea zones, the nation's own territories, and a
    value that is their total ("up to full income from targeted territories")."""
    out: list[str] = []
    for nid in sorted(scenario.unrestricted):
        row = scenario.unrestricted[nid]
        where = f"unrestricted_submarine_warfare.toml: [{nid}]"
        if nid not in scenario.nations:
            out.append(f"{where}: unknown nation.")
        for zone in row.zones:
            name = world.resolve(zone)
            if name is None:
                if complete:
                    out.append(f"{where}: '{zone}' is not on the map.")
            elif not world.territories[name].is_sea:
                out.append(f"{where}: '{zone}' is not a sea zone.")
        lands = [world.territories[n] for t in row.territories if (n := world.resolve(t)) is not None]
        if len(lands) < len(row.territories):
            if complete:
                out.append(f"{where}: a targeted territory is not on the map.")
            continue
        for t in lands:
            if t.owner != nid:
                out.append(f"{where}: {t.name} is not {nid}'s own territory.")
        total = sum(t.value for t in lands)
        if total != row.value:
            out.append(f"{where}: value {row.value}, but the targeted territories are worth {total}.")
    return out


def _check_place_target(scenario: Scenario, world: World, passages: set[str], where: str, target: str,
                        nation: str, complete: bool) -> list[str]:
    members = group_members(scenario, world, target, nation)
    names = members if members is not None else [target]
    out = []
    for name in names:
        if name in passages or world.resolve(name) is not None or name in scenario.nations:
            continue
        if complete:
            out.append(f"{where}: '{name}' is neither a place, a passage nor a group on the map.")
    return out


def _world_complete(world: World) -> bool:
    """True once every map section has territories (the map files are written in parallel)."""
    return {t.section for t in world.territories.values()} >= {"E", "M", "A", "P", "CA", "N"}


# ---------------------------------------------------------------------------- the start
def initial_state(scenario: Scenario, world: World, game: str, *, deploy_free: bool = True) -> GameState:
    """Turn 1 as the scenario sets it up (Initial Deployment, The Alliances, Neutrals).

    Fixed (predetermined) forces stand where forces.csv puts them; the free half stands
    at its default place when `deploy_free`, else it is listed in the nation's
    flags["to_deploy"] for the players' own deployment. Unit ids follow a stable order:
    nation id, then unit kind order, then place, fixed before free."""
    state = GameState(game=game, scenario=scenario.id, turn=1)
    for nid in sorted(scenario.nations):
        state.nations[nid] = _nation_state(scenario, nid)
    for t in world.lands():
        if t.owner:
            state.control[t.name] = t.owner
            state.incorporated[t.name] = 0
    to_deploy: dict[str, list[dict[str, object]]] = {}
    for f in sorted(scenario.forces, key=_force_order):
        location = world.resolve(f.location) or f.location
        if f.fixed or deploy_free:
            for _ in range(f.count):
                state.new_unit(f.nation, f.kind, location)
        else:
            to_deploy.setdefault(f.nation, []).append({"kind": f.kind, "count": f.count, "default": location})
    for nid, items in sorted(to_deploy.items()):
        state.nations[nid].flags["to_deploy"] = items
    return state


def _force_order(f: Force) -> tuple[str, int, str, bool]:
    rank = UNIT_KINDS.index(f.kind) if f.kind in UNIT_KINDS else len(UNIT_KINDS)
    return f.nation, rank, f.location, not f.fixed


def _nation_state(scenario: Scenario, nid: str) -> NationState:
    n = scenario.nations[nid]
    flags: dict[str, Any] = {}
    if not n.active:
        flags["active"] = False
    if n.colonial_manpower:
        flags["colonial_manpower"] = n.colonial_manpower
    return NationState(
        id=nid,
        saved=n.saved,
        manpower_limit=n.manpower,
        tech=dict(n.tech),
        at_war_with=sorted(n.at_war_with),
        side=n.side,
        standing=n.standing,
        income_rule=n.income_rule,
        flags=flags,
    )


def nations_of_side(scenario: Scenario, side: str) -> list[str]:
    """Nation ids starting on `side`, sorted."""
    return sorted(n.id for n in scenario.nations.values() if n.side == side)

