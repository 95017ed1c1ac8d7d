"""Phase 4.6 land combat with scripted dice: exact casualty rules (Cities, Straits,
Artillery, the multinational note after 4.6.1, default casualty order)."""

from __future__ import annotations

import pytest

from moderator.engine.dice import DiceScriptError, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.model import CasualtyOrder, CombatCondition, Move, Order, UnitCount
from tests import engine_fixture as fx


def battle(s: GameState, origin: str, dest: str, rolls: list[int], features: dict[str, tuple[str, ...]] | None = None,
           **kinds: int) -> tuple[GameState, Event, ScriptedDice]:
    dice = ScriptedDice(rolls)
    order = Move(tuple(UnitCount(k, n) for k, n in kinds.items()), origin, dest)
    new, events = resolve(s, {"germany": [order]}, fx.world(features), fx.scenario(), dice)
    assert not dice.unused(), "not every scripted roll was used"
    return new, next(e for e in events if e.code == "battle"), dice


def test_city_rolls_defense_1_and_is_never_a_casualty() -> None:
    # Cities. Rolls: attacker inf (3) hits on 1; defender inf (5) misses on 9; city hits on 1.
    s = fx.state([("germany", "infantry", "Posen", 1), ("russia", "infantry", "Warsaw", 1)])
    new, ev, dice = battle(s, "Posen", "Warsaw", [1, 9, 1], infantry=1)
    assert ev.args["rounds"] == 1 and ev.args["captured"] is False
    assert ev.args["losses"] == {"germany": {"infantry": 1}, "russia": {"infantry": 1}}
    assert ev.args["defender"] == "russia"
    assert new.control["Warsaw"] == "russia"
    assert [r.purpose for r in dice.log][-1] == "land combat at Warsaw round 1: defender russia city"


def test_strait_penalty_and_coastal_defender_taken_first() -> None:
    # Straits: infantry attacks at 3-2 = 1, so a 2 misses; the coastal defender goes first.
    s = fx.state([("germany", "infantry", "Konigsberg", 1), ("russia", "infantry", "Riga", 1)])
    rolls = [2, 10, 10,  # round 1: attacker, defender infantry, coastal
             1, 10, 10,  # round 2: the hit takes the coastal defender
             1, 10]      # round 3: coastal gone, the infantry falls
    new, ev, _ = battle(s, "Konigsberg", "Riga", rolls, infantry=1)
    assert ev.args["rounds"] == 3 and ev.args["captured"] is True
    assert ev.args["losses"]["russia"] == {"coastal": 1, "infantry": 1}
    assert new.control["Riga"] == "germany"
    assert fx.count(new, "germany", "infantry", "Riga") == 1


def test_multinational_defence_fictive_unit_and_shared_casualties() -> None:
    # Note after 4.6.1. Minsk has no city. Defenders roll in unit-id order (russia first).
    s = fx.state([("germany", "infantry", "Warsaw", 3), ("russia", "infantry", "Minsk", 1),
                  ("france", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    rolls = [10, 10, 10, 1, 10,  # round 1: one defensive hit takes the fictive unit
             1, 1, 10, 10, 10]   # round 2: two hits shared by defence strength: one each
    new, ev, _ = battle(s, "Warsaw", "Minsk", rolls, infantry=3)
    assert ev.args["losses"] == {"france": {"infantry": 1}, "germany": {"fictive": 1}, "russia": {"infantry": 1}}
    assert fx.count(new, "germany", "infantry", "Minsk") == 3 and new.control["Minsk"] == "germany"


def test_cheapest_unit_is_the_default_casualty() -> None:
    s = fx.state([("germany", "infantry", "Warsaw", 1), ("germany", "tank", "Warsaw", 1),
                  ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    rolls = [10, 10, 1,   # round 1: infantry, tank miss; defender hits -> infantry (4) before tank (10)
             1, 10]       # round 2 (simultaneous): tank (5) hits, defender misses
    new, ev, _ = battle(s, "Warsaw", "Minsk", rolls, infantry=1, tank=1)
    assert ev.args["losses"]["germany"] == {"infantry": 1}
    assert ev.args["captured"] is True
    assert fx.count(new, "germany", "tank", "Minsk") == 1


def test_attack_ceases_when_only_artillery_is_left() -> None:
    # Artillery: "If all units attacking with artillery are gone, then the attack ceases after that round."
    s = fx.state([("germany", "infantry", "Posen", 1), ("germany", "artillery", "Posen", 1),
                  ("russia", "infantry", "Warsaw", 1)])
    rolls = [10, 10, 1, 10]  # attackers miss; defender hits (infantry, the cheaper, dies); city misses
    new, ev, _ = battle(s, "Posen", "Warsaw", rolls, infantry=1, artillery=1)
    assert ev.args["rounds"] == 1 and ev.args["captured"] is False
    assert fx.count(new, "germany", "artillery", "Posen") == 1


def test_unsupported_artillery_defends_at_1() -> None:
    # Artillery: with no infantry beside it, artillery defends at 1 (its defence is 2 here).
    s = fx.state([("germany", "infantry", "Warsaw", 1), ("russia", "artillery", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    rolls = [10, 2,  # round 1: attacker misses; artillery rolls 2: a miss at 1 (would hit at 2)
             1, 10]  # round 2
    new, ev, _ = battle(s, "Warsaw", "Minsk", rolls, infantry=1)
    assert ev.args["losses"]["germany"] == {}
    assert new.control["Minsk"] == "germany"


@pytest.mark.parametrize("value", [1, 3, 5, 9])
def test_unscripted_rolls_run_out_loudly(value: int) -> None:
    d = ScriptedDice([value])
    assert d.d10("x") == value
    with pytest.raises(DiceScriptError):
        d.d10("y")


def test_fortress_infantry_roll_three_dice() -> None:
    # Gibraltar: each defending infantry rolls 3 dice (still one hit per unit). Minsk stands
    # in, with the map feature "fortress" (terrain.toml).
    s = fx.state([("germany", "infantry", "Warsaw", 2), ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    rolls = [10, 10, 1, 1, 10,  # round 1: attackers miss; the fortress infantry hits twice in 3 dice
             ]
    new, ev, dice = battle(s, "Warsaw", "Minsk", rolls, {"Minsk": ("fortress",)}, infantry=2)
    assert ev.args["losses"]["germany"] == {"infantry": 2}
    assert sum(1 for r in dice.log if "defender russia infantry" in r.purpose) == 3


def test_mountains_bar_all_but_infantry_and_raise_its_defence() -> None:
    # Afghanistan / Tibet ("high-mountains"): only infantry may enter; infantry defend at 7.
    s = fx.state([("germany", "infantry", "Warsaw", 1), ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    rolls = [10, 7]  # the defender hits with a 7 (defence 7, not 5)
    new, ev, _ = battle(s, "Warsaw", "Minsk", rolls, {"Minsk": ("high-mountains",)}, infantry=1)
    assert ev.args["losses"]["germany"] == {"infantry": 1}
    tank = fx.state([("germany", "tank", "Warsaw", 1)])
    tank.control["Warsaw"] = "germany"
    _, events = resolve(tank, {"germany": [Move((UnitCount("tank", 1),), "Warsaw", "Minsk")]},
                        fx.world({"Minsk": ("high-mountains",)}), fx.scenario(), ScriptedDice([]))
    assert [e.args["reason"] for e in events if e.code == "order-refused"] == ["terrain-barred"]


def test_switzerland_bars_artillery_and_short_range_aircraft() -> None:
    from moderator.engine import terrain

    w, sc = fx.world({"Minsk": ("alps",)}), fx.scenario()  # fixture fighters have fuel 4
    assert not terrain.may_enter(w, sc, "germany", "artillery", "Minsk")
    assert not terrain.may_enter(w, sc, "germany", "fighter", "Minsk")
    assert terrain.may_enter(w, sc, "germany", "infantry", "Minsk")
    assert terrain.defense(w, sc, "Minsk", "infantry", 5) == 8
    assert terrain.no_landing(w, sc, "Minsk") and not terrain.no_landing(w, sc, "Warsaw")


def steered(s: GameState, orders: list[Order], rolls: list[int]) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice(rolls)
    new, events = resolve(s, {"germany": orders}, fx.world(), fx.scenario(), dice)
    assert not dice.unused(), "not every scripted roll was used"
    return new, events


def test_withdraw_after_n_rounds() -> None:
    # Conditional orders / 4.6: the attacker may disengage after a round.
    s = fx.state([("germany", "infantry", "Warsaw", 1), ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    orders: list[Order] = [Move((UnitCount("infantry", 1),), "Warsaw", "Minsk"), CombatCondition("Minsk", "rounds", 2)]
    new, events = steered(s, orders, [10, 10, 10, 10])
    ev = next(e for e in events if e.code == "battle")
    assert ev.args["rounds"] == 2 and ev.args["withdrawn"] == "rounds:2" and ev.args["captured"] is False
    assert fx.count(new, "germany", "infantry", "Warsaw") == 1


def test_withdraw_when_losses_exceed_the_limit() -> None:
    s = fx.state([("germany", "infantry", "Warsaw", 4), ("russia", "infantry", "Minsk", 3)])
    s.control["Warsaw"] = "germany"
    orders: list[Order] = [Move((UnitCount("infantry", 4),), "Warsaw", "Minsk"),
                           CombatCondition("Minsk", "losses", 1)]
    rolls = [10, 10, 10, 10, 1, 10, 10,  # round 1: one German loss (not more than 1: fight on)
             10, 10, 10, 1, 10, 10]      # round 2: a second loss: withdraw
    new, events = steered(s, orders, rolls)
    ev = next(e for e in events if e.code == "battle")
    assert ev.args["withdrawn"] == "losses:1" and ev.args["rounds"] == 2
    assert fx.count(new, "germany", "infantry", "Warsaw") == 2


def test_casualty_order_overrides_cheapest_first() -> None:
    s = fx.state([("germany", "infantry", "Warsaw", 1), ("germany", "tank", "Warsaw", 1),
                  ("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    orders: list[Order] = [Move((UnitCount("infantry", 1), UnitCount("tank", 1)), "Warsaw", "Minsk"),
                           CasualtyOrder(("tank", "infantry"))]
    new, events = steered(s, orders, [10, 10, 1, 1, 10])
    ev = next(e for e in events if e.code == "battle")
    assert ev.args["losses"]["germany"] == {"tank": 1}
    assert ev.args["captured"] is True and fx.count(new, "germany", "infantry", "Minsk") == 1


def test_reconnaissance_conditions_need_an_attack_and_are_the_engines() -> None:
    s = fx.state()
    _, events = steered(s, [CombatCondition("Minsk", "max-defenders", 3)], [])
    assert [e.args["reason"] for e in events if e.code == "order-refused"] == ["condition-no-attack"]
    s = fx.state([("germany", "infantry", "Warsaw", 1)])
    s.control["Warsaw"] = "germany"
    orders: list[Order] = [Move((UnitCount("infantry", 1),), "Warsaw", "Minsk"),
                           CombatCondition("Minsk", "max-defenders", 3)]
    _, events = steered(s, orders, [])
    assert not [e for e in events if e.code == "order-referred"]  # tests/test_recon_conditions.py
    assert [e.args["seen"] for e in events if e.code == "attack-called-off"] == ["nothing"]


def test_a_condition_finds_its_attack_among_every_class_of_move() -> None:
    """conditions.moves_into reads the nation's orders by class (MOVING_IN): every class
    of order that moves units into a place is one of them, subclasses included."""
    from moderator.engine.orders.conditions import MOVING_IN
    from moderator.orders import model

    moving = {c for c in vars(model).values() if isinstance(c, type) and issubclass(c, (Move, model.NavalInvasion))}
    assert moving == set(MOVING_IN)


def test_attacks_from_several_sides_are_one_battle_and_only_strait_crossers_are_penalised() -> None:
    # Straits penalty applies to the units crossing (Konigsberg-Riga), not to those from Vilna.
    s = fx.state([("germany", "infantry", "Konigsberg", 1), ("germany", "infantry", "Vilna", 1),
                  ("russia", "infantry", "Riga", 1)])
    s.control["Vilna"] = "germany"
    orders: list[Order] = [Move((UnitCount("infantry", 1),), "Konigsberg", "Riga"),
                           Move((UnitCount("infantry", 1),), "Vilna", "Riga")]
    rolls = [2, 3, 10, 10,  # round 1: strait infantry misses a 2 (value 1), the other hits: coastal lost
             10, 3, 10]     # round 2: the Russian infantry falls
    new, events = steered(s, orders, rolls)
    battles = [e for e in events if e.code == "battle"]
    assert len(battles) == 1
    assert battles[0].args["origins"] == ["Konigsberg", "Vilna"] and battles[0].args["strait"] is True
    assert battles[0].args["losses"]["russia"] == {"coastal": 1, "infantry": 1}
    assert fx.count(new, "germany", "infantry", "Riga") == 2
