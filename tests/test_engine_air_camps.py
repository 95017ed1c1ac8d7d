"""Flights of camps not allied to each other over one place at one time (engine/air_passage.py
camp_order): the fighters there meet them one camp after the other, in an order drawn by
lot, never by nation id (issue 10: "The result never depends on the order of nation ids").

The place's one Russian fighter (level 0, fuel 3: three rounds) meets whichever camp comes
first until it is downed or its tank is dry; a camp met by a dry fighter passes. Flights
are played on stand-in land places with seeded dice, the same air_passage.fly the raids,
the attacks and the rebasing fly."""

from __future__ import annotations

from moderator.engine import air_passage
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.state import GameState, NationState, Unit
from moderator.world.model import LAND, Territory, World
from moderator.world.scenario import load_scenario

SCEN = load_scenario("1914")
WORLD = World({n: Territory(n, LAND, "") for n in ("home", "over", "goal")}, {})


def fly(flyers: dict[str, int], seed: int) -> tuple[dict[str, int], list[str]]:
    """`flyers`: nation -> its fighters, each nation a camp of its own (neutral: allied to
    nobody) at war with Russia, flying over "over" (one Russian fighter). Returns each
    nation's planes lost, and the purposes of the lots drawn."""
    state = GameState("camps", SCEN.id, 1)
    state.nations["russia"] = NationState("russia", side="allied", at_war_with=sorted(flyers))
    for nation in flyers:
        state.nations[nation] = NationState(nation, at_war_with=["russia"])
    state.units = [Unit(f"{n}-fighter-{i:05d}", n, "fighter", "home") for n, k in flyers.items() for i in range(k)]
    state.units.append(Unit("russia-fighter-00000", "russia", "fighter", "over"))
    ctx = TurnContext(state, {}, WORLD, SCEN, dice_root=Dice(f"camps-{seed}", 1))
    flights = [air_passage.Flight(n, (n,), [u for u in state.units if u.nation == n], ["home", "over", "goal"],
                                  {u.id: 9 for u in state.units if u.nation == n}, stops=[(1, "over")])
               for n in sorted(flyers)]
    air_passage.fly(ctx, flights)
    lots = [r.purpose for r in ctx.dice.log if "meet first" in r.purpose]
    return {f.nation: len(f.lost) for f in flights}, lots


def lost_rate(flyers: dict[str, int], nation: str, n: int) -> float:
    return sum(fly(flyers, seed)[0][nation] for seed in range(n)) / n


def test_two_camps_met_by_one_fighter_draw_lots_for_who_comes_first() -> None:
    # Germany and Japan, one fighter each: by nation id Germany would always meet the
    # Russian fighter first (and lose its plane about a third of the time), Japan never.
    # By lot each comes first half the time: their losses are the same.
    n = 1500
    german, japanese = lost_rate({"germany": 1, "japan": 1}, "germany", n), lost_rate({"germany": 1, "japan": 1},
                                                                                      "japan", n)
    assert 0.05 < german < 0.4 and abs(german - japanese) < 4 * (2 * 0.25 / n) ** 0.5
    _, lots = fly({"germany": 1, "japan": 1}, 0)
    assert lots == ["fighters over over meet first: germany or japan"]  # one logged pick


def test_permuting_nation_ids_does_not_change_what_a_camp_suffers() -> None:
    # A camp of two fighters and a camp of one: the big camp loses as many planes whether
    # its nation's id is the lower (austria-hungary) or the higher (usa) of the two.
    n = 1500
    low = lost_rate({"austria-hungary": 2, "usa": 1}, "austria-hungary", n)
    high = lost_rate({"austria-hungary": 1, "usa": 2}, "usa", n)
    assert low > 0.05 and abs(low - high) < 4 * (2 * 0.5 / n) ** 0.5


def test_a_lone_camp_draws_no_lot() -> None:
    assert fly({"germany": 2}, 0)[1] == []
