"""The 1914 map as data, held to what the rules state (issue 3), and the checker itself
shown to catch broken data."""

import shutil
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.world.check import run_checks
from moderator.world.loader import MAPS_DIR, load_report, load_world


def test_every_integrity_check_passes_on_the_real_1914_data() -> None:
    failed = {r.name: r.problems[:5] for r in run_checks("1914") if not r.ok}
    assert failed == {}


def test_world_has_the_detail_the_issue_expects() -> None:
    world = load_world("1914")
    lands, seas = world.lands(), world.seas()
    assert 300 <= len(lands) <= 450
    assert 70 <= len(seas) <= 150
    europe = [t for t in lands if t.section == "E"]
    assert len(europe) == max(len([t for t in lands if t.section == s]) for s in "E M A P CA N".split())


@pytest.mark.parametrize("typed, canonical", [
    ("Sinoope", "Sinope"), ("Okhost", "Sea of Okhotsk"), ("Jiazhou", "Jiaozhou"), ("Lybia", "Libya"),
    ("Madagaskar", "Madagascar"), ("terhan", "Tehran"), ("NIZHIY", "Nizhniy"), ("Bismark Sea", "Bismarck Sea"),
])
def test_the_rules_spellings_resolve_as_aliases(typed: str, canonical: str) -> None:
    assert load_world("1914").resolve(typed) == canonical


def test_unknown_names_get_suggestions() -> None:
    world = load_world("1914")
    assert world.resolve("Warsw") is None
    assert "Warsaw" in world.suggest("Warsw")


def test_gibraltar_controls_the_strait_and_defends_as_a_fortress() -> None:
    world = load_world("1914")
    gib = world.get("Gibraltar")
    assert "fortress" in gib.features and gib.owner == "britain"
    assert {"Western Mediterranean", "Southern Atlantic"} <= set(world.neighbours("Gibraltar"))


def _broken_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "maps"
    shutil.copytree(MAPS_DIR / "1914", dest / "broken")
    return dest


def test_checker_reports_a_wrong_value_and_an_unknown_place(tmp_path: Path) -> None:
    maps = _broken_copy(tmp_path)
    csv = maps / "broken" / "territories" / "europe.csv"
    csv.write_text(csv.read_text().replace("\nLondon,land,31,", "\nLondon,land,30,"), encoding="utf-8")
    adj = maps / "broken" / "adjacency" / "europe.txt"
    adj.write_text(adj.read_text() + "\nLondon -- Atlantis\n", encoding="utf-8")
    report = load_report("broken", maps_dir=maps)
    assert any("unknown place 'Atlantis'" in p for p in report.problems)
    results = {r.name: r for r in run_checks("broken", report=report)}
    assert any("London must have value 31" in p for p in results["values stated in the rules"].problems)


def test_scenario_check_command_exits_zero_on_real_data(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenario", "check"]) == 0
    assert "15 of 15 checks passed" in capsys.readouterr().out


def test_scenario_show_json_lists_every_place(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["scenario", "show", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["territories"]) == len(load_world("1914").territories)
    assert data["calendar"] == {"start": "1914-08", "months_per_turn": 2, "turns": 26}
