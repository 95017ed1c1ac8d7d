"""Exact naval odds (engine/naval_odds.py, `moderator odds --sea`): a closed form by hand,
the engine's own battles (naval_combat.fight with seeded dice) agreeing with the chain,
and the command line."""

from __future__ import annotations

import json

import pytest

from moderator.engine import naval_combat
from moderator.engine.combat_orders import BattleOrders
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.naval_combat import NavalSide
from moderator.engine.naval_odds import OUTCOMES, naval_odds_for, task_force
from moderator.engine.odds import _levels
from moderator.orders.model import CombatCondition
from moderator.world.model import World
from moderator.world.scenario import load_scenario
from tests.test_engine_odds import run_cli

SCEN = load_scenario("1914")


def test_one_destroyer_against_one_transport_in_closed_form() -> None:
    # A destroyer on patrol (attack a/10) and a transport on the move (defense t/10, not
    # seeking). Each round: both sunk a*t, transport only a(1-t), destroyer only (1-a)t;
    # both afloat (1-a)(1-t), and then the destroyer keeps contact on its 5 (transports
    # lower nothing): the battle goes on with c = (1-a)(1-t)/2 each round.
    a = SCEN.stats("france", "cruiser").attack / 10
    t = SCEN.stats("austria", "transport").defense / 10
    o = naval_odds_for(SCEN, "france", {"cruiser": 1}, "austria", {"transport": 1})
    c = (1 - a) * (1 - t) / 2
    assert o.outcomes["defenders_sunk"] == pytest.approx(a * (1 - t) / (1 - c), abs=1e-12)
    assert o.outcomes["attackers_sunk"] == pytest.approx((1 - a) * t / (1 - c), abs=1e-12)
    assert o.outcomes["both_sunk"] == pytest.approx(a * t / (1 - c), abs=1e-12)
    assert o.outcomes["contact_lost"] == pytest.approx(c / (1 - c), abs=1e-12)
    assert o.expected_rounds == pytest.approx(1 / (1 - c), abs=1e-9)


def test_a_troop_transport_cannot_fire_in_the_first_round_and_rounds_end_it() -> None:
    # 4.2.1: silent in the first round; --rounds 1: the attackers withdraw after it.
    a = SCEN.stats("france", "cruiser").attack / 10
    o = naval_odds_for(SCEN, "france", {"cruiser": 1}, "austria", {"transport": 1}, defend_mission="transport",
                       max_rounds=1)
    assert o.outcomes["defenders_sunk"] == pytest.approx(a, abs=1e-12)
    assert o.outcomes["attackers_sunk"] == 0.0
    assert o.outcomes["withdrawn"] == pytest.approx(1 - a, abs=1e-12)


CASES = {
    # both seek: attack values on both sides, battleships damaged before they sink
    "patrols": (("france", {"battleship": 1, "cruiser": 2}, "patrol"), ("austria", {"battleship": 1, "cruiser": 1},
                                                                        "patrol"), None, None),
    # bombarding battleships at 25% in round 1, transports silent in it, a free round
    "bombard-free": (("france", {"battleship": 2}, "bombard"), ("austria", {"cruiser": 1, "transport": 2},
                                                                 "transport"), "attacker", None),
    "withdraw": (("france", {"cruiser": 2}, "patrol"), ("austria", {"battleship": 1}, "move"), None, 2),
    # Improved Battleships 3: the battleship (attack 8, 4 hits) rolls twice when it attacks;
    # the Austrian patrol attacks it back, Improved Cruisers 1 (attack 4)
    "second-attack": (("france", {"battleship": 1}, "patrol"), ("austria", {"cruiser": 3}, "patrol"), None, None),
}
TECH = {"second-attack": {"france": {"improved_battleships": 3}, "austria": {"improved_cruisers": 1}}}


def simulate(name: str, n: int) -> dict[str, float]:
    (att, attack, mission), (dfn, defend, defend_mission), free, rounds = CASES[name]
    counts = dict.fromkeys(OUTCOMES, 0)
    aggressive = defend_mission in ("patrol", "blockade", "bombard")
    for i in range(n):
        ctx = TurnContext(_levels(SCEN, TECH.get(name, {})), {}, World({}, {}), SCEN, dice_root=Dice(f"naval-{name}", i))
        a = NavalSide(task_force(att, attack, mission, "a"), sought=True)
        d = NavalSide(task_force(dfn, defend, defend_mission, "d"), sought=aggressive)
        conditions = (CombatCondition("Sea", "rounds", rounds),) if rounds else ()
        battle = naval_combat.fight(ctx, "Sea", a, d, (BattleOrders({}, conditions), BattleOrders()),
                                    free=(a, list(a.ships), "submarines") if free else None)
        if battle.ended == "destroyed":
            key = "both_sunk" if not (a.ships or d.ships) else "attackers_sunk" if not a.ships else "defenders_sunk"
        else:
            key = {"contact-lost": "contact_lost", "withdrawn": "withdrawn"}[battle.ended]
        counts[key] += 1
    return {k: c / n for k, c in counts.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine_battles_match_the_exact_naval_odds(name: str) -> None:
    (att, attack, mission), (dfn, defend, defend_mission), free, rounds = CASES[name]
    expected = naval_odds_for(SCEN, att, attack, dfn, defend, attack_mission=mission, defend_mission=defend_mission,
                              free=free, max_rounds=rounds, tech=TECH.get(name))
    assert sum(expected.outcomes.values()) + expected.pruned == pytest.approx(1.0, abs=1e-12)
    n = 2000
    seen = simulate(name, n)
    for outcome, p in expected.outcomes.items():
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(seen[outcome] - p) <= 4.5 * sigma + 1.5 / n, (outcome, seen[outcome], p)


def test_a_battleship_with_the_third_advance_rolls_twice_when_it_attacks() -> None:
    # Improved Battleships 3: "Second attack (2 attacks per combat round)" (the table's
    # attack "2x"). The French battleship (7 +1 of the 2nd advance = 8; 2 +1 +1 = 4 hits)
    # on patrol misses on 9, then sinks the Austrian cruiser with its second roll, 1; the
    # cruiser (defense 3) misses on 9. Defending, the same battleship rolls once.
    ctx = TurnContext(_levels(SCEN, {"france": {"improved_battleships": 3}}), {}, World({}, {}), SCEN,
                      dice_root=ScriptedDice([9, 1, 9]))
    a = NavalSide(task_force("france", {"battleship": 1}, "patrol", "a"), sought=True)
    d = NavalSide(task_force("austria", {"cruiser": 1}, "move", "d"), sought=False)
    assert naval_combat.hits_to_kill(ctx, a.ships[0].unit) == 4
    battle = naval_combat.fight(ctx, "Sea", a, d)
    assert battle.ended == "destroyed" and not d.ships and battle.rounds == 1
    assert [r.purpose.split(": ", 1)[1] for r in ctx.dice.log] == ["france battleship", "france battleship again",
                                                                    "austria cruiser"]
    assert naval_combat.attacks(ctx, a, a.ships[0]) == 2
    assert naval_combat.attacks(ctx, NavalSide(a.ships, sought=False), a.ships[0]) == 1


def test_the_second_attack_in_the_exact_odds() -> None:
    # One round (the attacker withdraws after it): the battleship sinks a lone cruiser on
    # the move with 1 - 0.2^2 = 96% with the third advance, 80% (attack 8, one roll) with
    # the second; the cruiser's defense (3) sinks nothing (the battleship takes 4 hits).
    for level, sunk in ((3, 0.96), (2, 0.8)):
        o = naval_odds_for(SCEN, "france", {"battleship": 1}, "austria", {"cruiser": 1}, max_rounds=1,
                           tech={"france": {"improved_battleships": level}})
        assert o.outcomes["defenders_sunk"] == pytest.approx(sunk, abs=1e-12)
        assert o.attacker_damaged == pytest.approx(0.3, abs=1e-12)  # the cruiser's fire, whatever the battleship does


def test_an_air_strike_on_ships_in_closed_form() -> None:
    # A fighter (attack 2) of fuel 5 (one round) strikes a cruiser (defense 3): step 2 the
    # cruiser's fire downs it 30%; else a round; both afloat, the cruiser fires again as
    # it leaves (step 6). Cruiser sunk 0.7 x 0.2 = 14%; fighter lost 0.3 + 0.7 x (0.3 +
    # 0.7 x 0.8 x 0.3) = 62.76% (as test_a_fighter_striking_a_cruiser_sinks_and_falls_as_often_as_the_steps_say
    # counts the engine's). Two AA guns on a battleship (defense 7) at 2 in 10 (Improved
    # AA): the fighter is downed before any round 1 - 0.3 x 0.8 x 0.8.
    o = naval_odds_for(SCEN, "britain", {"fighter": 1}, "germany", {"cruiser": 1})
    assert o.defender_losses == pytest.approx(0.14, abs=1e-12)
    assert o.attacker_losses == pytest.approx(0.6276, abs=1e-12)
    o = naval_odds_for(SCEN, "britain", {"fighter": 1}, "germany", {"battleship": 1}, aa=2)
    assert o.rounds[0] == pytest.approx(1 - 0.3 * 0.8 * 0.8, abs=1e-12)
    assert naval_odds_for(SCEN, "britain", {"fighter": 1}, "germany", {"battleship": 1}).rounds[0] == \
        pytest.approx(0.7, abs=1e-12)


def test_cli_naval_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(["odds", "--sea", "--attacker", "Britain", "--attack", "2 bb, 4 dd", "--defender", "germany",
                         "--defend", "1 bb, 2 dd, 3 tr", "--defend-mission", "transport", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["battle"]["defend"] == {"battleship": 1, "cruiser": 2, "transport": 3}
    assert sum(data["odds"]["outcomes"].values()) + data["odds"]["pruned"] == pytest.approx(1.0)
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 dd", "--defender", "germany",
                          "--defend", "1 ss", "--free"], capsys)
    assert code == 0 and "every defending ship sunk" in text and "free round" in text
    assert "britain: 1 destroyer/cruiser (dd) (patrol)" in text  # 4.2's "Destroyers/cruisers (DD)", as typed
    assert "germany: 1 submarine (ss) (move)" in text
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 bb", "--defender", "germany",
                          "--defend", "1 dd", "--rounds", "1", "--attacker-tech", "Improved Battleships 3"], capsys)
    assert code == 0 and "technology britain: Improved Battleships 3" in text and "96.00%" in text
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 ftr", "--defender", "germany",
                          "--defend", "1 dd"], capsys)
    assert code == 0 and "Air strike on ships" in text and "9.80%" in text  # 14% sunk, 4.2% of it with the fighter
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 ftr, 1 dd", "--defender", "germany",
                          "--defend", "1 dd"], capsys)
    assert code == 2 and "aircraft only" in text
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 dd", "--defender", "germany",
                          "--defend", "1 dd", "--aa", "1"], capsys)
    assert code == 2 and "--aa" in text
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "2 inf", "--defender", "germany",
                          "--defend", "1 dd"], capsys)
    assert code == 2 and "infantry are not ships" in text
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 cv, 1 dd", "--defender", "germany",
                          "--defend", "1 bb", "--attacker-deck", "1"], capsys)
    assert code == 0 and "1 attacking fighter on deck, fighting with the carriers" in text
    assert "of 2, defender" in text  # the ships sunk: the fighter is not a ship
    code, text = run_cli(["odds", "--sea", "--attacker", "britain", "--attack", "1 cv", "--defender", "germany",
                          "--defend", "1 bb", "--attacker-deck", "5"], capsys)
    assert code == 2 and "launch" in text


def test_fighters_on_deck_in_the_exact_odds_match_the_engines_battles() -> None:
    # 4.3 step 4 "All attacking ships and aircraft roll for hits": the carriers' fighters
    # on deck fight with their task force (phase4_sea.side_of, mission CARRIED) and leave
    # the battle when their carrier is sunk (phase4_sea.off_sunk_carriers, not lost);
    # `odds --sea --attacker-deck / --defender-deck` against naval_combat.fight, fixed seeds.
    from moderator.engine import phase4_sea
    from moderator.engine.naval_odds import on_deck

    attack, defend = {"carrier": 1, "cruiser": 1}, {"carrier": 1, "battleship": 1}
    exact = naval_odds_for(SCEN, "britain", attack, "germany", defend, defend_mission="patrol",
                           attack_deck=1, defend_deck=1)
    assert sum(exact.outcomes.values()) + exact.pruned == pytest.approx(1.0, abs=1e-12)
    assert exact.outcomes != naval_odds_for(SCEN, "britain", attack, "germany", defend,
                                            defend_mission="patrol").outcomes  # the fighters count
    n = 2000
    counts = dict.fromkeys(OUTCOMES, 0)
    downed = 0
    for i in range(n):
        ctx = TurnContext(_levels(SCEN, {}), {}, World({}, {}), SCEN, dice_root=Dice("naval-deck", i))
        a = NavalSide(task_force("britain", attack, "patrol", "a") + on_deck(SCEN, "britain", attack, 1, "a", None),
                      sought=True)
        d = NavalSide(task_force("germany", defend, "patrol", "d") + on_deck(SCEN, "germany", defend, 1, "d", None),
                      sought=True)
        battle = naval_combat.fight(ctx, "Sea", a, d, after_round=phase4_sea.off_sunk_carriers)
        if battle.ended == "destroyed":
            key = "both_sunk" if not (a.ships or d.ships) else "attackers_sunk" if not a.ships else "defenders_sunk"
        else:
            key = {"contact-lost": "contact_lost", "withdrawn": "withdrawn"}[battle.ended]
        counts[key] += 1
        downed += d.losses.get("germany", {}).get("fighter", 0)
    for outcome, p in exact.outcomes.items():
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(counts[outcome] / n - p) <= 4.5 * sigma + 1.5 / n, (outcome, counts[outcome] / n, p)
    p = exact.defender_planes_lost  # one fighter: the chance it is downed
    assert abs(downed / n - p) <= 4.5 * (p * (1 - p) / n) ** 0.5 + 1.5 / n
    with pytest.raises(ValueError, match="launch"):
        naval_odds_for(SCEN, "britain", attack, "germany", defend, defend_deck=9)
