"""docs/orders.md: every example block parses without errors, and every order type of
the language has at least one example (issue 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from moderator.orders import model as m
from moderator.orders.parser import parse_orders

DOC = Path(__file__).resolve().parents[1] / "docs" / "orders.md"
BLOCKS = re.findall(r"```orders\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_reference_has_examples() -> None:
    assert len(BLOCKS) >= 30


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0][:40] for b in BLOCKS])
def test_every_example_parses_without_errors(block: str) -> None:
    result = parse_orders(block)
    assert not result.diagnostics, [d.render() for d in result.diagnostics]
    assert result.orders or result.header.game or result.header.nation


def test_every_order_type_has_an_example() -> None:
    seen: set[type] = set()
    for block in BLOCKS:
        seen |= {type(o) for o in parse_orders(block).orders}
    every = {c for c in vars(m).values() if isinstance(c, type) and issubclass(c, m.Order) and c is not m.Order}
    assert every - seen == set()


def test_example_names_exist_on_the_1914_map() -> None:
    from moderator.world.loader import load_world

    world = load_world("1914", strict=False)
    missing = set()
    for block in BLOCKS:
        for o in parse_orders(block).orders:
            for attr in ("origin", "dest", "place", "protect", "facing", "location", "zone", "territory"):
                value = getattr(o, attr, None)
                if isinstance(value, str) and world.resolve(value) is None:
                    missing.add(value)
    assert not missing
