"""GameState's index of units by place (engine/state.py): kept up through moves, new units
and removals, it always answers as a scan of the list would, in the list's order."""

from __future__ import annotations

import operator
import random

from moderator.engine import state as S
from moderator.engine.state import GameState, Unit

PLACES = ["A", "B", "C", "D", "E"]


def _scan(state: GameState, place: str) -> list[Unit]:
    return [u for u in state.units if u.location == place]


def _agrees(state: GameState) -> None:
    for place in PLACES:
        assert state.units_at(place) == _scan(state, place)
        assert all(a is b for a, b in zip(state.units_at(place), _scan(state, place), strict=True))
        # the whole map at once (GameState.by_place, read by passive reconnaissance): the same lists
        assert all(a is b for a, b in zip(state.by_place().get(place, ()), _scan(state, place), strict=True))


def test_the_index_follows_moves_new_units_and_removals_as_a_scan_would() -> None:
    rng = random.Random(14)
    state, other = GameState("g", "s", 1), GameState("h", "s", 1)
    for i in range(40):
        state.new_unit("n", "infantry", PLACES[i % 5])
        other.new_unit("n", "infantry", PLACES[i % 3])
    built = made = 0
    real = S._Index.__init__

    def counted(self: S._Index, units: list[Unit]) -> None:
        nonlocal built
        built += 1
        real(self, units)

    S._Index.__init__ = counted  # type: ignore[method-assign]
    try:
        for _ in range(400):
            step = rng.random()
            if step < 0.5:  # a move, now and then one of another state's units (passed by)
                mover = rng.choice(other.units if rng.random() < 0.2 else state.units)
                mover.location = rng.choice(PLACES)
            elif step < 0.7 and len(state.units) > 10:
                gone = rng.sample(state.units, rng.randint(0, 3))
                expected = [u for u in state.units if u not in gone]
                state.remove_units(gone)
                assert len(state.units) == len(expected) and all(map(operator.is_, state.units, expected))
            elif step < 0.85:
                state.new_unit("n", "tank", rng.choice(PLACES))
                made += 1
            _agrees(state)
            _agrees(other)
            asked = {u.id for u in rng.sample(state.units, 4)} | {"nobody-tank-99999"}
            found = state.units_with_ids(asked)  # by the index's units by id, in the list's order
            assert len(found) == 4 and all(map(operator.is_, found, S.with_ids(state.units, asked)))
            alive = state.units_by_id()  # a dict of its own, as by_id makes
            assert list(alive.items()) == list(S.by_id(state.units).items()) and alive is not state.units_by_id()
    finally:
        S._Index.__init__ = real  # type: ignore[method-assign]
    # Followed, not built again: once per state, and the other state's after each unit made
    # (a Unit() anywhere may have gone into any list: the index cannot tell).
    assert built <= 2 + made < 100, (built, made)


def test_the_index_is_built_again_when_the_list_is_replaced_or_shrunk_in_place() -> None:
    state = GameState("g", "s", 1)
    for place in PLACES:
        state.new_unit("n", "infantry", place)
    _agrees(state)
    state.units = list(reversed(state.units))  # another list: another order
    _agrees(state)
    state.units.remove(state.units[0])  # the same list, shorter
    _agrees(state)
    Unit("x-1", "x", "infantry", "A")  # a unit made elsewhere: the index cannot tell where it went
    state.units.append(Unit("x-2", "x", "infantry", "B"))
    _agrees(state)
    gone = state.units[0]
    twin = Unit(gone.id, gone.nation, gone.kind, "E")  # the same id, standing elsewhere
    state.remove_units([twin])  # by id, as the engine removes: the index is dropped, not wrong
    assert gone not in state.units
    _agrees(state)


def test_a_deep_copy_of_a_state_has_an_index_of_its_own_units() -> None:
    import copy

    state = GameState("g", "s", 1)
    for place in PLACES * 2:
        state.new_unit("n", "infantry", place)
    _agrees(state)
    twin = copy.deepcopy(state)
    twin.units[0].location = "E"
    twin.units[3].location = "A"
    _agrees(twin)
    _agrees(state)
    assert not any(a is b for a, b in zip(state.units, twin.units, strict=True))


def test_units_sharing_an_id_are_all_removed_and_all_found_as_a_scan_would() -> None:
    state = GameState("g", "s", 1)
    for place in PLACES:
        state.new_unit("n", "infantry", place)
    _agrees(state)
    state.units.append(S._unit_copy(state.units[1]))  # (the same id twice: no engine step does it)
    twin = state.units[-1]
    twin.location = "E"
    _agrees(state)
    assert [u.location for u in state.units_with_ids({twin.id})] == ["B", "E"]
    state.remove_units([twin])  # every unit of that id goes, as the filter by id did
    assert twin.id not in {u.id for u in state.units} and len(state.units) == 4
    _agrees(state)


def test_a_unit_given_another_id_is_found_by_its_new_one() -> None:
    state = GameState("g", "s", 1)
    for place in PLACES:
        state.new_unit("n", "infantry", place)
    assert state.units_with_ids({state.units[2].id}) == [state.units[2]]  # the index knows the ids now
    state.units[2].id = "n-renamed"
    assert state.units_with_ids({"n-renamed"}) == [state.units[2]]
    state.remove_units([state.units[2]])
    assert [u.location for u in state.units] == ["A", "B", "D", "E"]
    _agrees(state)
def test_a_sharing_copy_takes_its_index_from_the_shared_state_built_once() -> None:
    """The checker's scratch copies of the position a burst is checked on (sharing_copy of a
    state whose units are read only) copy that state's index instead of building one over
    every unit each (issue 11, CPU per mail); each copy then follows its own new units and
    removals, and the shared state's index is not changed by them."""
    rng = random.Random(11)
    shared = GameState("g", "s", 1)
    for i in range(60):
        shared.new_unit("n", "infantry", PLACES[i % 5])
    shared.share_units()
    built = 0
    real = S._Index.__init__

    def counted(self: S._Index, units: list[Unit]) -> None:
        nonlocal built
        built += units is not shared.units  # a copy's (the shared state's own are not counted)
        real(self, units)

    S._Index.__init__ = counted  # type: ignore[method-assign]
    try:
        for _ in range(20):
            twin = shared.sharing_copy()
            _agrees(twin)
            for _ in range(10):
                if rng.random() < 0.5:
                    twin.new_unit("n", "tank", rng.choice(PLACES))
                elif len(twin.units) > 10:
                    twin.remove_units(rng.sample(twin.units, rng.randint(0, 3)))
                made = [u for u in twin.units if type(u) is Unit]
                if made and rng.random() < 0.3:
                    rng.choice(made).location = rng.choice(PLACES)  # a unit of the copy's own moves
                _agrees(twin)
            _agrees(shared)
        assert built == 0, built  # never a copy's
        changed = shared.sharing_copy()
        changed.units = list(reversed(changed.units))  # no longer the shared list's order: built anew
        _agrees(changed)
        assert built == 1, built
    finally:
        S._Index.__init__ = real  # type: ignore[method-assign]
