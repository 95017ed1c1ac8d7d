"""docs/moderating.md runs as written: every ruling example is read, checked and carried
out on the 1914 opening position, every ruling kind has an example, and the commands of
the page run in order as one session on a fresh database, with the exit status the page
states ("# exit N"; else 0)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.engine.dice import Dice
from moderator.engine.resolve import apply_rulings
from moderator.orders import rulings as r
from moderator.orders.checker import check_rulings
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario

DOC = (Path(__file__).resolve().parents[1] / "docs" / "moderating.md").read_text(encoding="utf-8")
RULINGS = re.findall(r"```rulings\n(.*?)```", DOC, flags=re.S)
FILES = re.findall(r"<!-- file: (\S+) -->\n```\w*\n(.*?)```", DOC, flags=re.S)
COMMANDS = [line.strip() for block in re.findall(r"```sh\n(.*?)```", DOC, flags=re.S)
            for line in block.splitlines() if line.strip().startswith("moderator ")]


def test_the_page_has_its_examples() -> None:
    assert len(RULINGS) >= 8 and len(COMMANDS) >= 15 and {name for name, _ in FILES} == {
        "germany-by-phone.txt", "turn-1-rulings.txt"}


@pytest.mark.parametrize("block", RULINGS, ids=[b.splitlines()[0][:40] for b in RULINGS])
def test_every_ruling_example_is_carried_out_on_the_opening(block: str) -> None:
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "docs")
    checked = check_rulings(block, state, world, scenario)
    assert [d.render() for d in checked.diagnostics] == []
    _, events = apply_rulings(state, checked.orders, world, scenario, Dice("docs", 1))
    assert [e.code for e in events] == ["ruling"] * len(checked.orders)


def test_every_ruling_kind_has_an_example() -> None:
    seen = {type(o) for block in RULINGS for o in r.parse_rulings(block).orders}
    assert set(r.RULINGS) - seen == set()


def test_the_commands_run_in_order_as_the_page_says(config: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    for name, text in FILES:
        (tmp_path / name).write_text(text, encoding="utf-8")
    for line in COMMANDS:
        command, _, comment = line.partition("#")
        wanted = re.match(r"\s*exit (\d+)", comment)
        status = main(shlex.split(command)[1:])
        out = capsys.readouterr().out
        assert status == (int(wanted.group(1)) if wanted else 0), f"{line}\n{out}"
        assert "MISMATCH" not in out and "Traceback" not in out
