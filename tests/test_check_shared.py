"""The order check on a position whose units are read only and shared (GameState.share_units,
the position a burst of order mails is checked on: Service.checking_position): every
verdict is the one the check gives on a position of its own, the shared units never
change, and a walk that would change one starts again on a copy (issue 11, CPU per mail)."""

from __future__ import annotations

import copy
import pickle
from collections import Counter
from typing import Any

import pytest

from moderator.engine import check as engine_check
from moderator.engine.check import check_orders
from moderator.engine.state import GameState, SharedUnitChanged, Unit
from tests import drift


def _shared(state: GameState) -> GameState:
    kept = state.copy()
    kept.share_units()
    return kept


def test_a_shared_unit_refuses_any_change_and_its_copies_are_plain_units() -> None:
    state = _shared(drift.opening().state)
    unit = state.units[0]
    where = unit.location
    with pytest.raises(SharedUnitChanged):
        unit.location = "Atlantis"
    with pytest.raises(SharedUnitChanged):
        unit.damage = 1
    assert unit.location == where and unit.damage == 0 and state.units_shared
    plain = Unit(unit.id, unit.nation, unit.kind, unit.location, unit.damage)
    assert unit == plain and plain == unit and repr(unit) == repr(plain)
    for twin in (copy.copy(unit), copy.deepcopy(unit), pickle.loads(pickle.dumps(unit)), state.copy().units[0]):
        assert type(twin) is Unit and twin == plain
        twin.location = "Atlantis"  # a copy is the caller's own
    assert unit.location == where
    assert state.sharing_copy().units[0] is unit and state.copy().units[0] is not unit
    assert state.copy() == state and state == state.copy()  # the same position, shared or not


def test_a_state_with_one_unit_not_shared_is_copied_whole() -> None:
    state = _shared(drift.opening().state)
    state.new_unit("germany", "infantry", "Berlin")  # a plain unit among the shared ones
    assert not state.units_shared


@pytest.mark.parametrize("position", sorted(drift.POSITIONS))
def test_the_check_on_shared_units_gives_the_verdicts_of_a_copy(position: str,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Every nation's batch of the drift harness (every order type with a home, three of
    each), and each of its orders alone: the same verdicts on the shared position as on a
    plain one; the shared position unchanged after them all. The walks that had to start
    again on a copy (a unit moved) are counted: some did, most did not."""
    walked: Counter[str] = Counter()
    walk = engine_check._walk

    def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            out = walk(*args, **kwargs)
        except SharedUnitChanged:
            walked["started again"] += 1
            raise
        walked["shared" if args[3].units and args[3].units[0] is shared.units[0] else "copied"] += 1
        return out

    game = drift.POSITIONS[position]()
    shared = _shared(game.state)
    monkeypatch.setattr(engine_check, "_walk", counted)
    before = shared.dumps()
    for nation in game.nations:
        batch = drift.propose(game, nation, "shared", per_type=3)
        for orders in (batch, *([order] for order in batch[:12])):
            plain = check_orders(orders, nation, game.state, game.world, game.scenario)
            assert check_orders(orders, nation, shared, game.world, game.scenario) == plain, orders
    assert shared.dumps() == before and shared.units_shared
    assert walked["shared"] > walked["started again"]


def test_a_check_that_would_move_a_shared_unit_starts_again_on_a_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Germany's OPTION 1 in the opening moves units as the checker commits it: the walk on
    the shared units is stopped at that change, and the check done again on a copy gives
    the verdict of a plain position."""
    from moderator.orders import parse_orders

    game = drift.opening()
    shared = _shared(game.state)
    orders = parse_orders("OPTION 1\n").orders
    plain = check_orders(orders, "germany", game.state, game.world, game.scenario)
    stopped: list[str] = []
    walk = engine_check._walk

    def counted(*args: Any, **kwargs: Any) -> Any:
        try:
            return walk(*args, **kwargs)
        except SharedUnitChanged as changed:
            stopped.append(str(changed))
            raise

    monkeypatch.setattr(engine_check, "_walk", counted)
    before = shared.dumps()
    assert check_orders(orders, "germany", shared, game.world, game.scenario) == plain
    assert len(stopped) == 1 and stopped[0].endswith(".location")
    assert shared.dumps() == before
