"""GameState.copy(), which the checker makes of the position for every order mail: the same
state, written out, and independent of the original (units, nations, control), with each
state's index of units by place right after either one's units move."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from moderator.engine import state as S
from moderator.engine.state import GameState, NationState, Unit


def _state() -> GameState:
    nations = {"germany": NationState("germany", saved=30, tech={"tanks": 1}, at_war_with=["france"], side="central",
                                      flags={"offers": [{"to": "france"}]}),
               "france": NationState("france", saved=20, side="allied")}
    units = [Unit("germany-infantry-00001", "germany", "infantry", "Ruhr"),
             Unit("germany-battleship-00002", "germany", "battleship", "North Sea", damage=1),
             Unit("france-infantry-00003", "france", "infantry", "Paris")]
    return GameState("g", "1914", 3, nations, {"Ruhr": "germany", "Paris": "france"}, {}, units, 4)


def test_a_copy_is_the_same_state_and_changes_nothing_of_the_original() -> None:
    original = _state()
    before = original.dumps()
    twin = original.copy()
    assert twin.dumps() == before and twin == original
    assert all(a is not b and a == b for a, b in zip(original.units, twin.units, strict=True))
    assert [u.id for u in original.units_at("Ruhr")] == ["germany-infantry-00001"]
    assert [u.id for u in twin.units_at("Ruhr")] == ["germany-infantry-00001"]
    twin.units[0].location = "Belgium"
    twin.units[1].damage = 2
    twin.nations["germany"].tech["tanks"] = 2
    twin.nations["germany"].flags["offers"].append({"to": "russia"})
    twin.control["Ruhr"] = "france"
    twin.new_unit("france", "infantry", "Ruhr")
    assert original.dumps() == before
    assert [u.id for u in original.units_at("Ruhr")] == ["germany-infantry-00001"]
    assert [u.id for u in twin.units_at("Ruhr")] == ["france-infantry-00004"]
    assert [u.id for u in twin.units_at("Belgium")] == ["germany-infantry-00001"]
    original.units[2].location = "Ruhr"  # the original's own index follows its units too
    assert [u.id for u in original.units_at("Ruhr")] == ["germany-infantry-00001", "france-infantry-00003"]


@pytest.mark.parametrize("places", [0, S.BIG_FLAG])
@pytest.mark.parametrize("plain", [True, False])
def test_the_flags_are_copied_as_copy_deepcopy_copies_them(places: int, plain: bool) -> None:
    # GameState.copy() copies NationState.flags by a round trip through marshal (engine/state.py
    # _flags_copy, issue 14): nested dicts and lists new, a container met twice copied once
    # (as deepcopy's memo does). Flags marshal refuses (not plain: a Counter among them) go
    # through pickle when they hold a big record, else its own plain-data copy (_deep_copy):
    # the same copy each way.
    shared = {"seen": "exact", "units": {"russia": {"infantry": 3}}}
    record: dict[str, object] = {"Warsaw": shared, "Posen": shared}
    record.update({f"Place {i}": {"seen": "band", "band": "black", "at": [i]} for i in range(places)})
    flags = {"recon": record, "ledger": [1, [2, 3]], "pair": ("a", [4]), "odds": 0.5, "done": True, "none": None,
             3: "a number as key", "again": shared}
    if not plain:
        flags["tally"] = Counter({"infantry": 2})
    original = _state()
    original.nations["germany"].flags = flags
    twin = original.copy().nations["germany"].flags
    assert twin == flags and repr(twin) == repr(copy.deepcopy(flags))
    assert twin["recon"]["Warsaw"] is twin["recon"]["Posen"] and twin["recon"]["Warsaw"] is not shared
    assert twin["ledger"][1] is not flags["ledger"][1] and twin["pair"][1] is not flags["pair"][1]
    twin["recon"]["Warsaw"]["units"]["russia"]["infantry"] = 4
    assert shared["units"]["russia"]["infantry"] == 3 and twin["recon"]["Posen"]["units"]["russia"]["infantry"] == 4
    assert twin["again"] is twin["recon"]["Warsaw"]  # shared across the flags of the nation, as deepcopy's memo
    if not plain:
        assert type(twin["tally"]) is Counter and twin["tally"] is not flags["tally"]
def test_a_sharing_copy_holds_the_read_only_units_and_changes_nothing_of_the_original() -> None:
    """GameState.sharing_copy() (issue 11: the checker's copy of the position a burst is
    checked on): the same units, read only, in a list of its own; the rest copied as copy()
    copies it. Units added to or taken from the copy, its treasuries and control, leave the
    original as it was; a unit of either cannot move."""
    import pytest

    from moderator.engine.state import SharedUnitChanged

    original = _state()
    original.share_units()
    before = original.dumps()
    twin = original.sharing_copy()
    assert twin == original and twin.units is not original.units
    assert all(a is b for a, b in zip(original.units, twin.units, strict=True))
    assert [u.id for u in twin.units_at("Ruhr")] == ["germany-infantry-00001"]
    twin.new_unit("germany", "infantry", "Ruhr")
    twin.remove_units([twin.units[2]])
    twin.nations["germany"].saved -= 10
    twin.nations["germany"].flags["offers"].append({"to": "serbia"})
    twin.control["Paris"] = "germany"
    assert [u.id for u in twin.units_at("Ruhr")] == ["germany-infantry-00001", "germany-infantry-00004"]
    with pytest.raises(SharedUnitChanged):
        twin.units[0].location = "Belgium"
    assert original.dumps() == before and original.units_shared and not twin.units_shared
    assert [u.id for u in original.units_at("Ruhr")] == ["germany-infantry-00001"]


def test_a_sharing_copy_counts_its_units_by_place_as_a_plain_state_does() -> None:
    """counts_by_place() (Position.start): a sharing copy reads its original's count, taken
    once, while its units are the shared ones; once it adds or takes away units, its own."""
    from collections import Counter

    original = _state()
    original.share_units()
    plain = Counter((u.nation, u.location, u.kind) for u in original.units)
    first, second = original.sharing_copy(), original.sharing_copy()
    assert first.counts_by_place() == plain and second.counts_by_place() is first.counts_by_place()
    first.new_unit("germany", "infantry", "Ruhr")
    assert first.counts_by_place() == plain + Counter({("germany", "Ruhr", "infantry"): 1})
    second.remove_units([second.units[0]])
    assert second.counts_by_place() == plain - Counter({("germany", "Ruhr", "infantry"): 1})
    assert original.sharing_copy().counts_by_place() == plain == original.counts_by_place()
