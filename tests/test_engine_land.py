"""Phase 4.4 land movement and 4.6 land combat on the fixture map (rules sections cited)."""

from __future__ import annotations

from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders.model import DeclareWar, Move, Order, UnitCount
from tests import engine_fixture as fx


def move(origin: str, dest: str, **kinds: int) -> Move:
    return Move(tuple(UnitCount(k, n) for k, n in kinds.items()), origin, dest)


def run(s: GameState, orders: dict[str, list[Order]], seed: str = "seed") -> tuple[GameState, list[Event], Dice]:
    dice = Dice(seed, s.turn)
    new, events = resolve(s, orders, fx.world(), fx.scenario(), dice)
    return new, events, dice


def codes(events: list[Event]) -> list[str]:
    return [e.code for e in events]


def test_move_into_friendly_land_just_moves() -> None:
    s = fx.state([("germany", "infantry", "Berlin", 3)])
    new, events, _ = run(s, {"germany": [move("Berlin", "Posen", infantry=2)]})
    assert fx.count(new, "germany", "infantry", "Posen") == 2
    assert fx.count(new, "germany", "infantry", "Berlin") == 1
    assert "moved" in codes(events) and "battle" not in codes(events)


def test_a_unit_moves_only_once_per_turn() -> None:
    s = fx.state([("germany", "infantry", "Berlin", 1)])
    new, events, _ = run(s, {"germany": [move("Berlin", "Posen", infantry=1), move("Posen", "Warsaw", infantry=1)]})
    assert fx.count(new, "germany", "infantry", "Posen") == 1
    assert new.control["Warsaw"] == "russia"
    refused = [e.args for e in events if e.code == "order-refused"]
    assert [(r["order"], r["reason"], r["details"]["have"]) for r in refused] == [(1, "not-enough-units", 0)]


def test_not_adjacent_is_refused() -> None:
    s = fx.state([("germany", "infantry", "Berlin", 1)])
    _, events, _ = run(s, {"germany": [move("Berlin", "Warsaw", infantry=1)]})
    refused = [e for e in events if e.code == "order-refused"]
    assert refused[0].args["reason"] == "not-adjacent" and refused[0].seen_by == ("germany",)


def test_empty_enemy_land_is_captured_by_infantry_and_not_incorporated() -> None:
    # Phase 4.4 capture; Phase 6: conquered land is not incorporated.
    s = fx.state([("germany", "infantry", "Posen", 1)])
    new, events, _ = run(s, {"germany": [move("Posen", "Warsaw", infantry=1)]})
    assert new.control["Warsaw"] == "germany"
    assert "Warsaw" not in new.incorporated
    cap = [e for e in events if e.code == "captured"][0]
    assert cap.args == {"territory": "Warsaw", "nation": "germany", "holder": "germany", "previous": "russia"}
    assert cap.seen_by == ()


def test_only_infantry_or_tanks_capture() -> None:
    # Phase 4.4: "Only infantry or tanks can capture territories"; Artillery cannot advance.
    s = fx.state([("germany", "artillery", "Posen", 2), ("germany", "infantry", "Posen", 1)])
    new, events, _ = run(s, {"germany": [move("Posen", "Warsaw", artillery=2)]})
    assert new.control["Warsaw"] == "russia"
    assert fx.count(new, "germany", "artillery", "Posen") == 2
    new, events, _ = run(s, {"germany": [move("Posen", "Warsaw", artillery=2, infantry=1)]})
    assert new.control["Warsaw"] == "germany"
    assert fx.count(new, "germany", "artillery", "Posen") == 2  # held back
    assert "units-held-back" in codes(events)


def test_an_undeclared_attack_starts_the_war_and_goes_to_the_moderator() -> None:
    # Phase 1.1: "If the war is not declared, then nation (and the block she is in) suffer
    # double penalty for US entry": the attack happens, the war starts without a
    # declaration, and the moderator is told (the US-entry penalty is Phase 9's).
    s = fx.state([("germany", "infantry", "Berlin", 2)])
    new, events, _ = run(s, {"germany": [move("Berlin", "Brussels", infantry=1)]})
    assert new.control["Brussels"] == "germany"
    assert new.at_war("germany", "belgium") and new.at_war("belgium", "germany")
    assert [e.args for e in events if e.code == "war-declared"] == [
        {"nation": "germany", "target": "belgium", "surprise": True}]
    flags = [e.args for e in events if e.code == "moderator-flag"]
    assert [(f["reason"], f["nation"], f["details"]["target"]) for f in flags] == [
        ("undeclared-attack-penalty", "germany", "belgium")]
    # Phase 1.1 comes before 4.4 in the same turn: declared, it is no surprise.
    new, events, _ = run(s, {"germany": [move("Berlin", "Brussels", infantry=1), DeclareWar("belgium")]})
    assert new.control["Brussels"] == "germany"
    assert [e.args for e in events if e.code == "war-declared"] == [
        {"nation": "germany", "target": "belgium", "surprise": False}]
    assert not [e for e in events if e.code == "moderator-flag"]


def test_battle_is_fought_to_the_end_and_reported_to_participants_only() -> None:
    s = fx.state([("germany", "infantry", "Posen", 6), ("germany", "artillery", "Posen", 2),
                  ("russia", "infantry", "Warsaw", 2)])
    new, events, dice = run(s, {"germany": [move("Posen", "Warsaw", infantry=6, artillery=2)]})
    battle = [e for e in events if e.code == "battle"][0]
    assert battle.phase == "4.6" and battle.seen_by == ("germany", "russia")
    a = battle.args
    ger_lost = sum(a["losses"]["germany"].values())
    rus_lost = sum(a["losses"]["russia"].values())
    assert fx.count(new, "russia", "infantry", "Warsaw") == 2 - rus_lost
    assert len(new.nation_units("germany")) == 8 - ger_lost
    # Fought until one side is gone.
    assert rus_lost == 2 or ger_lost == 8
    assert a["captured"] == (new.control["Warsaw"] == "germany")
    purposes = [r.purpose for r in dice.log]
    assert "land combat at Warsaw round 1: attacker germany infantry" in purposes
    assert "land combat at Warsaw round 1: defender russia city" in purposes  # Cities roll 1
    assert len(dice.log) == a["rolls"][1] - a["rolls"][0]


def test_artillery_fires_from_home_and_stays_there() -> None:
    s = fx.state([("germany", "infantry", "Posen", 8), ("germany", "artillery", "Posen", 2),
                  ("russia", "infantry", "Warsaw", 1)])
    for seed in ("a", "b", "c"):
        new, _, _ = run(s, {"germany": [move("Posen", "Warsaw", infantry=8, artillery=2)]}, seed)
        assert not [u for u in new.units_at("Warsaw", "germany") if u.kind == "artillery"]


def test_recapture_is_reincorporated_free_with_the_phase_6_delay() -> None:
    s = fx.state([("russia", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    s.incorporated.pop("Warsaw")
    new, _, _ = run(s, {"russia": [move("Minsk", "Warsaw", infantry=1)]})
    assert new.control["Warsaw"] == "russia" and new.incorporated["Warsaw"] == s.turn


def test_liberated_land_returns_to_its_allied_owner() -> None:
    # Phase 4.4: moving in "liberates it for an ally if it was originally owned by an ally nation".
    s = fx.state([("france", "infantry", "Minsk", 1)])
    s.control["Warsaw"] = "germany"
    s.incorporated.pop("Warsaw")
    new, events, _ = run(s, {"france": [move("Minsk", "Warsaw", infantry=1)]})
    assert new.control["Warsaw"] == "russia"
    assert [e.args["holder"] for e in events if e.code == "captured"] == ["russia"]


def test_strait_attack_penalty_coastal_defender_and_only_infantry_or_artillery() -> None:
    # Straits: Konigsberg-Riga; tanks may not attack across; a virtual coastal defender at 1.
    s = fx.state([("germany", "infantry", "Konigsberg", 4), ("germany", "tank", "Konigsberg", 2),
                  ("russia", "infantry", "Riga", 1)])
    new, events, dice = run(s, {"germany": [move("Konigsberg", "Riga", infantry=4, tank=2)]})
    assert fx.count(new, "germany", "tank", "Konigsberg") == 2
    held = [e for e in events if e.code == "units-held-back"]
    assert held and held[0].args["reason"] == "straits"
    battle = [e for e in events if e.code == "battle"][0]
    assert battle.args["strait"] is True
    defender_losses = battle.args["losses"]["russia"]
    assert defender_losses.get("coastal", 0) <= 1
    assert any(r.purpose.endswith("defender russia coastal") for r in dice.log)


def test_empty_land_across_a_strait_still_has_its_coastal_defender() -> None:
    s = fx.state([("germany", "infantry", "Konigsberg", 3)])
    new, events, _ = run(s, {"germany": [move("Konigsberg", "Riga", infantry=3)]})
    battle = [e for e in events if e.code == "battle"][0]
    assert battle.args["defenders"] == ["russia"]
    assert (new.control["Riga"] == "germany") == battle.args["captured"]


def test_multinational_defence_gives_the_single_attacker_a_fictive_casualty() -> None:
    # Note after 4.6.1: the fictive zero unit of the single-nation side is lost first.
    s = fx.state([("germany", "infantry", "Posen", 10), ("russia", "infantry", "Warsaw", 2),
                  ("france", "infantry", "Warsaw", 2)])
    _, events, dice = run(s, {"germany": [move("Posen", "Warsaw", infantry=10)]})
    battle = [e for e in events if e.code == "battle"][0]
    assert battle.seen_by == ("france", "germany", "russia")
    first_round_defence_hits = sum(
        1 for r in dice.log
        if "round 1: defender" in r.purpose and r.result <= (1 if r.purpose.endswith("city") else 5)
    )
    if first_round_defence_hits:
        assert battle.args["losses"]["germany"].get("fictive") == 1


def test_orders_of_unknown_types_are_reported_not_dropped() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Plunder(Order):
        place: str

    s = fx.state()
    _, events, _ = run(s, {"germany": [Plunder("Warsaw")]})
    ev = [e for e in events if e.code == "order-refused"]
    assert len(ev) == 1 and ev[0].seen_by == ("germany",) and ev[0].args["reason"] == "no-home"


def test_resolve_does_not_touch_its_input_and_is_deterministic() -> None:
    s = fx.state([("germany", "infantry", "Posen", 5), ("germany", "artillery", "Posen", 2),
                  ("russia", "infantry", "Warsaw", 3), ("russia", "infantry", "Moscow", 3)])
    before = s.dumps()
    orders: dict[str, list[Order]] = {
        "germany": [move("Posen", "Warsaw", infantry=5, artillery=2)],
        "russia": [fx_strategic()],
    }
    a, ea, _ = run(s, orders, "same")
    b, eb, _ = run(s, orders, "same")
    assert s.dumps() == before
    assert a.dumps() == b.dumps() and ea == eb
    assert a.turn == s.turn + 1


def test_different_seeds_give_different_battles() -> None:
    s = fx.state([("germany", "infantry", "Posen", 8), ("russia", "infantry", "Warsaw", 6)])
    orders: dict[str, list[Order]] = {"germany": [move("Posen", "Warsaw", infantry=8)]}
    results = {run(s, orders, f"seed-{i}")[0].dumps() for i in range(8)}
    assert len(results) > 1


def fx_strategic() -> Order:
    from moderator.orders.model import StrategicMove

    return StrategicMove((UnitCount("infantry", 2),), "Moscow", "Kiev")


def test_units_of_a_refused_move_may_still_follow_a_later_order() -> None:
    s = fx.state([("germany", "infantry", "Berlin", 1)])
    new, events, _ = run(s, {"germany": [move("Berlin", "Warsaw", infantry=1), move("Berlin", "Posen", infantry=1)]})
    assert fx.count(new, "germany", "infantry", "Posen") == 1
    assert [e.args["reason"] for e in events if e.code == "order-refused"] == ["not-adjacent"]
