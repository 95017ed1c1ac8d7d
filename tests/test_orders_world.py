"""A small hand-built world, scenario and state for the orders tests (a dozen places).

Built by hand so the orders checker can be tested before (and independently of) the
real 1914 data. Germany (Central Powers) is at war with France and Russia; Britain,
Belgium, Switzerland, Italy and the USA are neutral.
"""

from __future__ import annotations

from moderator.engine.state import GameState, NationState
from moderator.world.model import LAND, SEA, Passage, Territory, World
from moderator.world.scenario_model import Nation, Scenario, UnitStats


def _land(name: str, owner: str, value: int, **kw: object) -> Territory:
    return Territory(name=name, kind=LAND, section="E", owner=owner, value=value, **kw)  # type: ignore[arg-type]


def make_world() -> World:
    lands = [
        _land("Berlin", "germany", 10, city=True, industry=True, capital=True),
        _land("Ruhr", "germany", 8, city=True, industry=True),
        _land("Kiel", "germany", 4, city=True, port=True, aliases=("Hamburg-Kiel",)),
        _land("East Prussia", "germany", 2, city=True, aliases=("Ostpreussen",)),
        _land("Posen", "germany", 2),
        _land("Metz", "germany", 2, city=True, aliases=("Alsace-Lorraine",)),
        _land("Verdun", "france", 2),
        _land("Paris", "france", 10, city=True, industry=True, capital=True),
        _land("Picardy", "france", 2, city=True, port=True),
        _land("Belgium", "belgium", 3, city=True, capital=True),
        _land("Warsaw", "russia", 2, city=True),
        _land("Switzerland", "switzerland", 2, features=("alps",)),
        _land("London", "britain", 12, city=True, industry=True, port=True, capital=True),
        _land("Togo", "germany", 2, city=True, colony="minor"),
    ]
    seas = [Territory(n, SEA, "E") for n in ("North Sea", "English Channel", "Baltic Sea", "Gulf of Guinea")]
    edges = [
        ("Berlin", "Ruhr"), ("Berlin", "Kiel"), ("Berlin", "Posen"), ("Ruhr", "Metz"),
        ("Ruhr", "Belgium"), ("Ruhr", "Kiel"), ("Kiel", "North Sea"), ("Kiel", "Baltic Sea"),
        ("East Prussia", "Posen"), ("East Prussia", "Warsaw"), ("East Prussia", "Baltic Sea"),
        ("Posen", "Warsaw"), ("Metz", "Verdun"), ("Metz", "Belgium"), ("Metz", "Switzerland"),
        ("Verdun", "Paris"), ("Verdun", "Belgium"), ("Verdun", "Picardy"), ("Paris", "Picardy"),
        ("Picardy", "Belgium"), ("Picardy", "English Channel"), ("Belgium", "North Sea"),
        ("Belgium", "English Channel"), ("London", "North Sea"), ("London", "English Channel"),
        ("North Sea", "English Channel"), ("Togo", "Gulf of Guinea"),
    ]
    adj: dict[str, set[str]] = {t.name: set() for t in lands + seas}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    passages = (
        Passage("Kiel Canal", "canal", ("Baltic Sea", "North Sea"), ("Kiel",)),
        Passage("Dover Strait", "sea-gate", ("North Sea", "English Channel"), ("London",)),
        Passage("Rhine crossing", "strait", ("Ruhr", "Belgium")),
    )
    return World({t.name: t for t in lands + seas}, {k: frozenset(v) for k, v in adj.items()}, passages)


def make_scenario() -> Scenario:
    nations = {
        "germany": Nation("germany", "German Empire", "major", "central", capital="Berlin",
                          aliases=("Germany", "Deutschland"), manpower=50, saved=100),
        "austria": Nation("austria", "Austro-Hungarian Empire", "major", "central",
                          aliases=("Austria", "Austria-Hungary", "AH")),
        "france": Nation("france", "French Empire", "major", "allied", capital="Paris", aliases=("France",)),
        "russia": Nation("russia", "Russian Empire", "major", "allied", aliases=("Russia",)),
        "britain": Nation("britain", "British Empire", "major", "neutral", capital="London",
                          aliases=("Britain", "England", "UK")),
        "italy": Nation("italy", "Italy", "major", "neutral", aliases=("Italia",)),
        "usa": Nation("usa", "United States of America", "major", "neutral", aliases=("USA", "US", "America")),
        "belgium": Nation("belgium", "Belgium", "minor", "neutral", capital="Belgium"),
        "switzerland": Nation("switzerland", "Switzerland", "minor", "neutral", influence_on_ten_only=True),
        "ottoman": Nation("ottoman", "Ottoman Empire", "major", "neutral", aliases=("Turkey", "Ottomans")),
    }
    stats = {
        "infantry": UnitStats("infantry", 5, 3, 5, 1),
        "artillery": UnitStats("artillery", 8, 6, 2, 1),
        "tank": UnitStats("tank", 10, 5, 1, 1, requires_tech="tanks"),
        "aa": UnitStats("aa", 3, 0, 1, 1),
        "rocket": UnitStats("rocket", 10, 4, 1, 1, requires_tech="rockets"),
        "fighter": UnitStats("fighter", 12, 2, 2, 0, fuel=4),
        "bomber": UnitStats("bomber", 15, 3, 1, 0, fuel=6, requires_tech="improved_bombers"),
        "battleship": UnitStats("battleship", 30, 7, 7, 2, hits=2, bombard=4),
        "cruiser": UnitStats("cruiser", 15, 4, 3, 3),
        "transport": UnitStats("transport", 8, 0, 1, 2, capacity=2),
        "carrier": UnitStats("carrier", 95, 2, 2, 2, hits=2, requires_tech="aircraft_carriers"),
        "submarine": UnitStats("submarine", 12, 2, 2, 2),
        "industry": UnitStats("industry", 30),
        "port": UnitStats("port", 20),
    }
    from moderator.world.scenario import load_scenario

    # Phase 1 (options, gear-up, influence, the Phase 1.4 table) and the gifts at full value as in 1914.
    real = load_scenario("1914")
    return Scenario("test", "Test scenario", 1914, 8, 2, 26, nations, {"default": stats},
                    gifts=real.gifts, diplomacy=real.diplomacy, unrestricted=real.unrestricted)


def make_state() -> GameState:
    nations = {
        "germany": NationState("germany", saved=100, manpower_limit=50, infantry_built=10,
                               tech={"tanks": 1, "improved_bombers": 1}, at_war_with=["france", "russia"],
                               side="central"),
        "austria": NationState("austria", saved=40, side="central", at_war_with=["russia"]),
        "france": NationState("france", saved=80, manpower_limit=40, at_war_with=["germany"], side="allied"),
        "russia": NationState("russia", saved=60, at_war_with=["germany", "austria"], side="allied"),
        "britain": NationState("britain", saved=90, side="neutral"),
        "italy": NationState("italy", saved=30, side="neutral"),
        "usa": NationState("usa", saved=50, side="neutral"),
        "belgium": NationState("belgium", side="neutral"),
        "switzerland": NationState("switzerland", side="neutral"),
        "ottoman": NationState("ottoman", saved=20, side="neutral"),
    }
    world = make_world()
    control = {t.name: t.owner for t in world.lands() if t.owner}
    incorporated = dict.fromkeys(control, 0)  # held since the start of play (Phase 6)
    state = GameState("test-game", "test", 3, nations, control, incorporated)  # type: ignore[arg-type]
    placed = [
        ("germany", "infantry", "Berlin", 5), ("germany", "artillery", "Berlin", 2),
        ("germany", "infantry", "Ruhr", 3), ("germany", "fighter", "Ruhr", 2), ("germany", "bomber", "Ruhr", 1),
        ("germany", "infantry", "Metz", 12), ("germany", "artillery", "Metz", 2), ("germany", "tank", "Metz", 1),
        ("germany", "infantry", "East Prussia", 4), ("germany", "infantry", "Kiel", 1),
        ("germany", "battleship", "North Sea", 2), ("germany", "cruiser", "North Sea", 3),
        ("germany", "transport", "Baltic Sea", 2), ("germany", "submarine", "Baltic Sea", 1),
        ("germany", "submarine", "English Channel", 2),
        ("france", "infantry", "Verdun", 4), ("france", "infantry", "Paris", 3), ("france", "infantry", "Picardy", 1),
        ("russia", "infantry", "Warsaw", 2), ("britain", "battleship", "North Sea", 1),
    ]
    for nation, kind, where, count in placed:
        for _ in range(count):
            state.new_unit(nation, kind, where)
    state.units[-1].damage = 0
    return state


def test_fixture_is_consistent() -> None:
    world, scenario, state = make_world(), make_scenario(), make_state()
    assert world.adjacent("Berlin", "Ruhr") and world.adjacent("Ruhr", "Berlin")
    assert world.resolve("alsace-lorraine") == "Metz"
    assert scenario.stats("germany", "infantry").cost == 5
    assert len(state.units_at("Metz", "germany")) == 15
    assert state.controller("Paris") == "france"
