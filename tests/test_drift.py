"""Checker and engine cannot drift (issue 7, point 2): the harness in tests/drift.py, run on
the 1914 opening and mid-game positions, and every drift found or listed as a regression
test on the real 1914 map."""

from __future__ import annotations

import dataclasses

from moderator.orders import model as m
from moderator.orders.echo import normalize_order
from tests import drift
from tests.drift import Comparison, Game, compare


def orders(*written: m.Order) -> list[m.Order]:
    return [dataclasses.replace(o, span=m.Span(i + 1, 1, normalize_order(o))) for i, o in enumerate(written)]


def inf(n: int) -> tuple[m.UnitCount, ...]:
    return (m.UnitCount("infantry", n),)


def one(kind: str, n: int = 1) -> tuple[m.UnitCount, ...]:
    return (m.UnitCount(kind, n),)


def judged(game: Game, nation: str, *written: m.Order, seed: str = "drift") -> Comparison:
    """Both judges on the orders; no drift allowed."""
    cmp = compare(game, nation, orders(*written), seed)
    assert cmp.drifts == [], cmp.drifts
    return cmp


def codes(cmp: Comparison, index: int) -> list[str]:
    return [p.code for p in cmp.verdicts[index].problems]


def refused(cmp: Comparison, index: int) -> list[str]:
    return [e.args["reason"] for e in cmp.refusals(index)]


def with_saved(game: Game, **saved: int) -> Game:
    state = game.state.copy()
    for nid, amount in saved.items():
        state.nations[nid].saved = amount
    return dataclasses.replace(game, state=state)


def test_the_harness_sees_every_position() -> None:
    for name, make in drift.POSITIONS.items():
        game = make()
        assert game.name == name and game.nations
