"""ATTACK ON x ONLY IF AT MOST n DEFENDERS, decided by the nation's reconnaissance record of
the turn (Conditional orders; 3.3): an exact count, a colour band's top, or nothing."""

from __future__ import annotations

import pytest

from moderator.engine import phase3_passive_recon as passive
from moderator.engine.dice import ScriptedDice
from moderator.engine.resolve import resolve
from moderator.orders.model import CombatCondition, Move, Order, UnitCount
from tests import engine_fixture as fx


@pytest.mark.parametrize("record,goes", [
    ({"seen": "exact", "units": {"russia": {"infantry": 3}}}, True),  # 3 seen: at most 3
    ({"seen": "exact", "units": {"russia": {"infantry": 2, "artillery": 2}}}, False),  # 4 seen
    ({"seen": "band", "band": "black"}, False),  # black is 0-5: it may be more than 3
    (None, False),  # nothing seen: the recon does not show at most 3
])
def test_the_attack_goes_ahead_only_if_the_record_shows_at_most_n(record: dict[str, object] | None,
                                                                  goes: bool) -> None:
    s = fx.state([("germany", "infantry", "Warsaw", 2), ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    if record is not None:
        s.nations["germany"].flags[passive.KNOWN] = {"Minsk": record}  # as this turn's 3.3 left it
    orders: list[Order] = [Move((UnitCount("infantry", 2),), "Warsaw", "Minsk"),
                           CombatCondition("Minsk", "max-defenders", 3)]
    new, events = resolve(s, {"germany": orders}, fx.world(), fx.scenario(),
                          ScriptedDice({"4.4": [1, 1, 9]} if goes else {}, 1))
    battles = [e for e in events if e.code == "battle"]
    called = [e.args for e in events if e.code == "attack-called-off"]
    assert bool(battles) is goes and bool(called) is not goes
    assert not [e for e in events if e.code == "order-referred"]
    if not goes:
        assert called[0]["limit"] == 3 and fx.count(new, "germany", "infantry", "Warsaw") == 2


def test_a_band_whose_top_is_within_the_limit_lets_the_attack_go() -> None:
    s = fx.state([("germany", "infantry", "Warsaw", 2), ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    s.nations["germany"].flags[passive.KNOWN] = {"Minsk": {"seen": "band", "band": "black"}}
    orders: list[Order] = [Move((UnitCount("infantry", 2),), "Warsaw", "Minsk"),
                           CombatCondition("Minsk", "max-defenders", 5)]
    _, events = resolve(s, {"germany": orders}, fx.world(), fx.scenario(), ScriptedDice({"4.4": [1, 1, 9]}, 1))
    assert [e.args["territory"] for e in events if e.code == "battle"] == ["Minsk"]
