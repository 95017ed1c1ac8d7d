"""A small hand-built world for the engine tests (not the real 1914 map).

Thirteen land territories (owner, value, city/industry/port in LANDS), one sea zone, the
links in ADJ. Nations: germany and austria (central) at war with russia and france
(allied); belgium is a neutral minor. Konigsberg-Riga is a strait. Strategic capacities
worth knowing: Moscow (8) reaches Warsaw's side through Minsk (3), Kiev (4), Vilna (1).
"""

from __future__ import annotations

from collections.abc import Iterable

from moderator.engine.state import GameState, NationState, Unit
from moderator.world.model import LAND, SEA, Passage, Territory, World
from moderator.world.scenario_model import Nation, Scenario, UnitStats

LANDS = {
    # name: (owner, value, city, industry, port)
    "Berlin": ("germany", 10, True, True, True),
    "Posen": ("germany", 3, False, False, False),
    "Silesia": ("germany", 4, True, False, False),
    "Konigsberg": ("germany", 2, False, False, False),
    "Warsaw": ("russia", 2, True, False, False),
    "Minsk": ("russia", 3, False, False, False),
    "Kiev": ("russia", 4, True, False, False),
    "Vilna": ("russia", 1, False, False, False),
    "Riga": ("russia", 2, False, False, False),
    "Moscow": ("russia", 8, True, True, False),
    "Vienna": ("austria", 6, True, True, False),
    "Brussels": ("belgium", 3, True, False, False),
    "Paris": ("france", 10, True, True, False),
}

ADJ = [
    ("Paris", "Brussels"), ("Brussels", "Berlin"), ("Berlin", "Posen"), ("Berlin", "Silesia"),
    ("Posen", "Warsaw"), ("Posen", "Konigsberg"), ("Silesia", "Warsaw"), ("Silesia", "Vienna"),
    ("Warsaw", "Minsk"), ("Warsaw", "Kiev"), ("Warsaw", "Vilna"), ("Minsk", "Moscow"),
    ("Kiev", "Moscow"), ("Vilna", "Moscow"), ("Riga", "Vilna"), ("Konigsberg", "Riga"),
    ("Vienna", "Kiev"),
    ("Baltic Sea", "Berlin"), ("Baltic Sea", "Konigsberg"), ("Baltic Sea", "Riga"),
]

NATIONS = {
    "germany": ("central", "Berlin"),
    "austria": ("central", "Vienna"),
    "russia": ("allied", None),  # no designated capital: no non-city infantry surcharge
    "france": ("allied", "Paris"),
    "belgium": ("neutral", "Brussels"),
}

STATS = {
    "infantry": UnitStats("infantry", cost=4, attack=3, defense=5, move=1),
    "artillery": UnitStats("artillery", cost=6, attack=5, defense=2, move=1),
    "tank": UnitStats("tank", cost=10, attack=5, defense=3, move=1),
    "aa": UnitStats("aa", cost=3, attack=0, defense=1, move=1),
    "fighter": UnitStats("fighter", cost=12, attack=4, defense=4, move=4, fuel=4),
    "cruiser": UnitStats("cruiser", cost=20, attack=4, defense=4, move=3),
}


def world(features: dict[str, tuple[str, ...]] | None = None) -> World:
    """The fixture map; `features` gives territories map features ("fortress", "alps", ...),
    whose effects are the 1914 scenario's terrain table (see scenario())."""
    terrs: dict[str, Territory] = {}
    for name, (owner, value, city, industry, port) in LANDS.items():
        terrs[name] = Territory(name, LAND, "E", value=value, owner=owner, city=city, industry=industry,
                                port=port, capital=NATIONS[owner][1] == name,
                                features=(features or {}).get(name, ()))
    terrs["Baltic Sea"] = Territory("Baltic Sea", SEA, "E")
    adj: dict[str, set[str]] = {n: set() for n in terrs}
    for a, b in ADJ:
        adj[a].add(b)
        adj[b].add(a)
    passages = (Passage("Konigsberg-Riga", "strait", ("Konigsberg", "Riga")),)
    return World(terrs, {k: frozenset(v) for k, v in adj.items()}, passages)


def scenario(stats: dict[str, UnitStats] | None = None) -> Scenario:
    nations = {
        n: Nation(n, n.title(), "minor" if n == "belgium" else "major", side, capital=capital)
        for n, (side, capital) in NATIONS.items()
    }
    from moderator.world.scenario import load_scenario

    return Scenario("fixture", "Fixture", 1914, 8, 2, 30, nations, {"default": dict(stats or STATS)},
                    terrain=load_scenario("1914").terrain)


def state(units: Iterable[tuple[str, str, str, int]] = (), saved: int = 100, manpower: int = 50) -> GameState:
    """Start-of-game state: everyone holds its own land (incorporated since turn 0);
    germany+austria at war with russia+france. units: (nation, kind, place, count)."""
    gs = GameState("test", "fixture", 1)
    for n, (side, _) in NATIONS.items():
        gs.nations[n] = NationState(n, saved=saved, manpower_limit=manpower, side=side)
    for a in ("germany", "austria"):
        for b in ("russia", "france"):
            gs.nations[a].at_war_with.append(b)
            gs.nations[b].at_war_with.append(a)
    for name, (owner, *_rest) in LANDS.items():
        gs.control[name] = owner
        gs.incorporated[name] = 0
    for nation, kind, place, count in units:
        add_units(gs, nation, kind, place, count)
    return gs


def add_units(gs: GameState, nation: str, kind: str, place: str, count: int) -> list[Unit]:
    return [gs.new_unit(nation, kind, place) for _ in range(count)]


def count(gs: GameState, nation: str, kind: str, place: str) -> int:
    return sum(1 for u in gs.units_at(place, nation) if u.kind == kind)
