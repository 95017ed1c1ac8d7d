"""Special terrain: what the map's features do to units (rules, "Other Key Map Features").

The map says which territory has which feature (maps/<scenario>/territories/*.csv,
`features`); the scenario says what each feature does (scenarios/<name>/terrain.toml,
Scenario.terrain): Switzerland's alps, the high mountains of Afghanistan and Tibet,
Gibraltar's fortress. Nothing here names a territory, so a map without those features
simply has no special terrain, and a new map gets the same effects by naming a feature.
"""

from __future__ import annotations

from moderator.world.model import World
from moderator.world.scenario_model import Scenario, TerrainRule

AIRCRAFT = frozenset({"fighter", "bomber"})


def rules_at(world: World, scenario: Scenario, place: str) -> list[TerrainRule]:
    terr = world.territories.get(place)
    if terr is None:
        return []
    return [scenario.terrain[f] for f in terr.features if f in scenario.terrain]


def may_enter(world: World, scenario: Scenario, nation: str, kind: str, place: str) -> bool:
    for rule in rules_at(world, scenario, place):
        if rule.only and kind not in rule.only:
            return False
        if kind in rule.barred:
            return False
        if kind in AIRCRAFT and rule.aircraft_min_fuel and scenario.stats(nation, kind).fuel < rule.aircraft_min_fuel:
            return False
    return True


def no_landing(world: World, scenario: Scenario, place: str) -> bool:
    """No aircraft can land (be placed, or deployed) here."""
    return any(rule.no_landing for rule in rules_at(world, scenario, place))


def no_landing_features(scenario: Scenario) -> frozenset[str]:
    """The features where no_landing holds: a list of landing places tests each land's features
    against these few, not each land's rules one by one (issue 14, the engine's cost)."""
    return frozenset(feature for feature, rule in scenario.terrain.items() if rule.no_landing)


def with_features(world: World, features: frozenset[str]) -> frozenset[str]:
    """The map's places with any of `features` (no_landing_features: where no aircraft
    lands), kept per map and set of features (the map never changes once loaded): a list of
    landing places is then filtered at C speed, where each of some hundred friendly lands
    had its features tested for each list, a dozen lists a turn (issue 14, the engine's cost)."""
    kept: dict[frozenset[str], frozenset[str]] = world.__dict__.setdefault("_with_features", {})
    found = kept.get(features)
    if found is None:
        found = kept[features] = frozenset(name for name, t in world.territories.items()
                                           if not features.isdisjoint(t.features))
    return found


def defense(world: World, scenario: Scenario, place: str, kind: str, base: int) -> int:
    """A defending unit's value here: infantry in the mountains defend higher."""
    if kind == "infantry":
        for rule in rules_at(world, scenario, place):
            if rule.infantry_defense:
                return rule.infantry_defense
    return base


def defense_dice(world: World, scenario: Scenario, place: str, kind: str) -> int:
    """Dice a defending unit rolls here: Gibraltar's infantry roll 3 (still one hit each)."""
    if kind != "infantry":
        return 1
    return max((rule.defending_infantry_dice for rule in rules_at(world, scenario, place)), default=1)
