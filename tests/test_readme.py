"""The README's examples run: its orders example is clean on the real 1914 opening position,
and every command it shows exists."""

import re
import shlex
from pathlib import Path

from moderator.cli import build_parser
from moderator.orders import check_text
from moderator.world.loader import load_world
from moderator.world.scenario import initial_state, load_scenario

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _blocks() -> list[str]:
    return re.findall(r"```(?:sh)?\n(.*?)```", README, flags=re.S)


def test_the_orders_example_has_no_errors_on_the_opening_position() -> None:
    example = next(b for b in _blocks() if b.startswith("GAME "))
    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "demo")
    result = check_text(example, "germany", state, world, scenario)
    assert [d for d in result.diagnostics if d.severity == "error"] == []
    assert len(result.orders) == example.count("\n") - 5  # every order line after the header was kept


def test_every_moderator_command_in_the_readme_parses() -> None:
    parser = build_parser()
    commands = [line.split("#")[0].strip() for block in _blocks() for line in block.splitlines()]
    commands += re.findall(r"`(moderator [^`]*)`", README)
    seen = 0
    for cmd in commands:
        words = shlex.split(cmd.replace("|", " ").replace("...", "X")) if "moderator" in cmd else []
        if not words or not words[0].endswith("moderator"):
            continue
        args = [w for w in words[1:] if not w.startswith("[")]
        verb = args[:2] if len(args) > 1 and not args[1].startswith("-") else args[:1]
        assert verb[0] in parser._subparsers._group_actions[0].choices, cmd  # type: ignore[union-attr]
        seen += 1
    assert seen >= 10
