"""The turn's story on a map (reports/mapstory.py): moves and attacks as arrows, rail moves
dashed, battles and captures marked on the place's name; only from the view's events."""

from __future__ import annotations

from moderator.engine.events import Event
from moderator.reports import mapstory
from moderator.reports.mapstory import ATTACK, BATTLE, CAPTURE, MOVE, RAIL, Mark

MOVED = Event("moved", "4.4", ("germany",), {"nation": "germany", "order": 1, "origin": "Berlin", "dest": "Posen",
                                             "units": {"infantry": 2}})
BATTLE_EV = Event("battle", "4.6", ("germany", "russia"), {
    "territory": "Warsaw", "origins": ["Posen", "Silesia"], "attacker": "germany", "defender": "russia",
    "defenders": ["russia"], "rounds": 2, "strait": False, "losses": {}, "captured": True, "withdrawn": None,
    "rolls": [0, 0]})
TAKEN = Event("captured", "4.4", (), {"territory": "Warsaw", "nation": "germany", "holder": "germany",
                                      "previous": "russia"})
RAILED = Event("strategic-arrived", "7", ("russia",), {"nation": "russia", "order": 2, "origin": "Moscow",
                                                       "dest": "Kiev", "end": "Minsk", "units": {"infantry": 4}})


def test_each_event_gives_its_marks() -> None:
    assert mapstory.marks([TAKEN, RAILED, BATTLE_EV, MOVED]) == sorted([
        Mark(MOVE, "germany", "Berlin", "Posen"), Mark(RAIL, "russia", "Moscow", "Minsk"),
        Mark(BATTLE, "", "", "Warsaw"), Mark(ATTACK, "germany", "Posen", "Warsaw"),
        Mark(ATTACK, "germany", "Silesia", "Warsaw"), Mark(CAPTURE, "germany", "", "Warsaw")])
    assert mapstory.marks([]) == []
    assert mapstory.marks([MOVED, MOVED]) == mapstory.marks([MOVED])  # the same move once


def test_fights_at_sea_and_raids_are_marked_where_they_were_fought() -> None:
    naval = Event("naval-battle", "4.3", ("germany", "russia"), {"zone": "Baltic Sea", "fleets": []})
    air = Event("air-combat-at-sea", "4.3", ("germany", "britain"), {"zone": "North Sea"})
    raid = Event("air-raid", "4.1.1", ("germany", "britain"), {"nation": "germany", "target": "London"})
    assert mapstory.marks([naval, air, raid]) == sorted([
        Mark(BATTLE, "", "", "Baltic Sea"), Mark(BATTLE, "", "", "North Sea"), Mark(BATTLE, "", "", "London")])


def test_battle_and_capture_are_written_on_the_name() -> None:
    glyphs = mapstory.glyphs(mapstory.marks([BATTLE_EV, TAKEN]))
    assert glyphs == {"Warsaw": mapstory.BATTLE_GLYPH + mapstory.CAPTURE_GLYPH}


def test_the_key_names_only_what_the_map_has() -> None:
    assert mapstory.key([]) == []
    [line] = mapstory.key(mapstory.marks([RAILED]))
    assert "rail" in line and "battle" not in line


def test_a_nation_map_tells_only_its_own_story() -> None:
    """The marks come from the view's events, which visibility filters by seen_by."""
    from moderator.reports.visibility import nation_view, public_view
    from tests import engine_fixture as fx

    gs = fx.state()
    events = [MOVED, BATTLE_EV, TAKEN, RAILED]
    french = mapstory.marks(nation_view(gs, fx.scenario(), events, "france").events)
    assert french == [Mark(CAPTURE, "germany", "", "Warsaw")]  # public news only
    russian = mapstory.marks(nation_view(gs, fx.scenario(), events, "russia").events)
    assert Mark(BATTLE, "", "", "Warsaw") in russian and Mark(MOVE, "germany", "Berlin", "Posen") not in russian
    assert mapstory.marks(public_view(gs, events).events) == [Mark(CAPTURE, "germany", "", "Warsaw")]


def test_every_event_code_gives_marks_without_failing() -> None:
    """Every sample of every event code (engine/event_codes.py), and the same with its
    fields missing: marks() never raises, so a map never fails a report."""
    from moderator.engine.event_codes import SCHEMA

    for code in sorted(SCHEMA.specs):
        for args in SCHEMA.samples(code):
            mapstory.marks([Event(code, "4.4", (), dict(args))])
            mapstory.marks([Event(code, "4.4", (), {})])


def test_a_task_forces_course_is_one_arrow_a_leg_for_its_nation_only() -> None:
    """4.2: the task-force event's path, zone by zone; a task force that stayed draws no arrow."""
    from moderator.reports.mapstory import SAIL
    from moderator.reports.visibility import nation_view
    from tests import engine_fixture as fx

    sailed = Event("task-force", "4.2", ("britain",), {"nation": "britain", "order": 0, "tf": "Home Fleet",
                                                       "path": ["North Sea", "North Sea", "English Channel",
                                                                "Bay of Biscay"],
                                                       "ships": {"battleship": 2}, "troops": {}})
    stayed = Event("task-force", "4.2", ("britain",), {"nation": "britain", "order": 1, "tf": "Patrol",
                                                       "path": ["Baltic Sea"], "ships": {"cruiser": 1}, "troops": {}})
    assert mapstory.marks([sailed, stayed]) == [Mark(SAIL, "britain", "English Channel", "Bay of Biscay"),
                                                Mark(SAIL, "britain", "North Sea", "English Channel")]
    assert "task force" in mapstory.key(mapstory.marks([sailed]))[0]
    assert mapstory.marks(nation_view(fx.state(), fx.scenario(), [sailed], "germany").events) == []


def _task_force(mission: str, path: list[str], ships: dict[str, int]) -> Event:
    return Event("task-force", "4.2", ("britain",), {"nation": "britain", "order": 0, "tf": "A", "path": path,
                                                     "ships": ships, "troops": {}, "mission": mission})


def test_a_patrol_or_blockade_is_marked_where_it_ended_even_without_moving() -> None:
    """4.2.5, 4.2.6: a task force's last task, patrol or blockade, marked in the zone it ended
    in; a patrol that sailed has its arrows too; other missions and sunk task forces no mark."""
    from moderator.reports.mapstory import BLOCKADE, MISSION_GLYPHS, PATROL, SAIL

    stayed = _task_force("patrol", ["North Sea"], {"cruiser": 2})
    blockading = _task_force("blockade", ["Baltic Sea", "Baltic Sea"], {"battleship": 1})
    sailed = _task_force("patrol", ["North Sea", "Norwegian Sea"], {"cruiser": 1})
    assert mapstory.marks([stayed, blockading]) == [Mark(BLOCKADE, "britain", "", "Baltic Sea"),
                                                    Mark(PATROL, "britain", "", "North Sea")]
    assert mapstory.marks([sailed]) == [Mark(PATROL, "britain", "", "Norwegian Sea"),
                                        Mark(SAIL, "britain", "North Sea", "Norwegian Sea")]
    assert mapstory.marks([_task_force("move", ["North Sea"], {"cruiser": 1}),
                           _task_force("patrol", ["North Sea"], {})]) == []
    assert mapstory.missions(mapstory.marks([stayed, blockading])) == {
        "North Sea": [(MISSION_GLYPHS[PATROL], "britain")], "Baltic Sea": [(MISSION_GLYPHS[BLOCKADE], "britain")]}
    key = "\n".join(mapstory.key(mapstory.marks([stayed, blockading])))
    assert "patrol" in key and "blockade" in key


def test_a_patrol_that_stayed_shows_on_its_nations_map_in_its_colour() -> None:
    """The glyph is written after the zone's name in the nation's colour; the zone is named
    even with no unit box there (the map of a task force's owner always has its box too)."""
    from matplotlib import colors as mcolors

    from moderator.reports.geometry import load_geometry
    from moderator.reports.mapdraw import build_figure, load_colors
    from moderator.reports.mapstory import MISSION_GLYPHS, PATROL
    from moderator.world.loader import load_world

    geometry, world = load_geometry("1914"), load_world("1914", strict=False)
    story = mapstory.marks([_task_force("patrol", ["North Sea"], {"cruiser": 2})])
    fig = build_figure(geometry, world, region="british-isles", story=story)
    texts = {t.get_text(): t for t in fig.axes[0].texts}
    assert "North Sea" in texts
    glyph = texts[MISSION_GLYPHS[PATROL]]
    assert mcolors.to_hex(glyph.get_color()) == mcolors.to_hex(load_colors("1914")["britain"])
    assert any("patrol" in t for t in texts)  # the notes box says what the glyph means
