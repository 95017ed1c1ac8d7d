"""Phase 4.1.3 strategic movement on the fixture map: node-capacitated max flow."""

from __future__ import annotations

from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.phase4_strategic import strategic_capacity, strategic_paths
from moderator.engine.resolve import resolve
from moderator.orders.model import Move, Order, StrategicMove, UnitCount
from tests import engine_fixture as fx


def test_origin_value_limits_units_leaving() -> None:
    w, s = fx.world(), fx.state()
    # Warsaw (2) can send at most 2, whatever the destination's room.
    assert strategic_capacity(w, s, "russia", "Warsaw", ["Moscow"]) == 2


def test_passed_territories_limit_the_flow() -> None:
    w, s = fx.world(), fx.state()
    # Moscow (8) -> Warsaw's side: Minsk 3 + Kiev 4 + Vilna 1 = 8 to those three ...
    assert strategic_capacity(w, s, "russia", "Moscow", ["Minsk", "Kiev", "Vilna"]) == 8
    # ... but only Warsaw's own value (2) into Warsaw.
    assert strategic_capacity(w, s, "russia", "Moscow", ["Warsaw"]) == 2
    # Riga lies beyond Vilna (1): one unit.
    assert strategic_capacity(w, s, "russia", "Moscow", ["Riga"]) == 1


def test_destination_value_limits_units_entering() -> None:
    w, s = fx.world(), fx.state()
    assert strategic_capacity(w, s, "russia", "Moscow", ["Vilna"]) == 1
    assert strategic_capacity(w, s, "russia", "Moscow", ["Vilna", "Riga"]) == 1  # Riga only via Vilna


def test_enemy_or_unincorporated_land_blocks_the_path() -> None:
    w, s = fx.world(), fx.state()
    s.control["Kiev"] = "germany"  # captured: no longer Russian
    s.incorporated.pop("Kiev")
    assert strategic_capacity(w, s, "russia", "Moscow", ["Minsk", "Kiev", "Vilna"]) == 4
    s2 = fx.state()
    s2.incorporated.pop("Minsk")  # Russian but not incorporated
    assert strategic_capacity(w, s2, "russia", "Moscow", ["Warsaw"]) == 2
    assert strategic_capacity(w, s2, "russia", "Moscow", ["Minsk"]) == 0


def test_allied_land_can_be_crossed() -> None:
    w, s = fx.world(), fx.state()
    # Germany to Vienna goes through Silesia; Austria is an ally of Germany.
    assert strategic_capacity(w, s, "germany", "Berlin", ["Vienna"]) == 4


def test_paths_add_up_and_respect_every_capacity() -> None:
    w, s = fx.world(), fx.state()
    paths = strategic_paths(w, s, "russia", "Moscow", ["Minsk", "Kiev", "Vilna", "Warsaw"])
    through: dict[str, int] = {}
    for path, amount in paths:
        assert path[0] == "Moscow"
        for a, b in zip(path, path[1:], strict=False):
            assert w.adjacent(a, b)
        for t in path:
            through[t] = through.get(t, 0) + amount
    assert sum(a for _, a in paths) == 8
    for t, n in through.items():
        assert n <= w.territories[t].value, (t, n)


def test_used_capacity_is_subtracted() -> None:
    w, s = fx.world(), fx.state()
    assert strategic_capacity(w, s, "russia", "Moscow", ["Kiev"], used={"Kiev": 3}) == 1


def _strategic(origin: str, dest: str, n: int) -> StrategicMove:
    return StrategicMove((UnitCount("infantry", n),), origin, dest)


def test_resolution_cuts_back_and_units_arrive_in_phase_7() -> None:
    w, sc = fx.world(), fx.scenario()
    s = fx.state([("russia", "infantry", "Moscow", 6)])
    orders = {"russia": [_strategic("Moscow", "Vilna", 3), _strategic("Moscow", "Kiev", 3)]}
    new, events = resolve(s, orders, w, sc, Dice("seed", 1))
    assert fx.count(new, "russia", "infantry", "Vilna") == 1
    assert fx.count(new, "russia", "infantry", "Kiev") == 3
    assert fx.count(new, "russia", "infantry", "Moscow") == 2
    cut = [e for e in events if e.code == "strategic-cut"]
    assert len(cut) == 1 and cut[0].args["ordered"] == 3 and cut[0].args["moving"] == 1
    assert all(e.seen_by == ("russia",) for e in events if e.code.startswith("strategic"))
    assert fx.count(s, "russia", "infantry", "Moscow") == 6  # input untouched


def test_capacity_is_shared_by_all_strategic_moves_of_the_turn() -> None:
    w, sc = fx.world(), fx.scenario()
    s = fx.state([("russia", "infantry", "Moscow", 4), ("russia", "infantry", "Minsk", 2)])
    # Minsk (3): two go out of Minsk, so only one of Moscow's may enter it.
    orders = {"russia": [_strategic("Minsk", "Warsaw", 2), _strategic("Moscow", "Minsk", 2)]}
    new, _ = resolve(s, orders, w, sc, Dice("seed", 1))
    assert fx.count(new, "russia", "infantry", "Warsaw") == 2
    assert fx.count(new, "russia", "infantry", "Minsk") == 1


def test_strategic_units_do_not_defend_and_stop_where_the_path_is_cut() -> None:
    w, sc = fx.world(), fx.scenario()
    s = fx.state([("russia", "infantry", "Warsaw", 1), ("germany", "infantry", "Posen", 1)])
    orders: dict[str, list[Order]] = {
        "russia": [_strategic("Warsaw", "Minsk", 1)],
        "germany": [fx_move("Posen", "Warsaw", infantry=1)],
    }
    new, events = resolve(s, orders, w, sc, Dice("seed", 1))
    assert new.control["Warsaw"] == "germany"  # captured without a battle: the Russian was on the rails
    assert not [e for e in events if e.code == "battle"]
    assert fx.count(new, "russia", "infantry", "Minsk") == 1  # the rest of its path stayed Russian


def test_units_stop_before_a_destination_lost_during_the_turn() -> None:
    # Phase 4.1.3 / Phase 7: "if the target province is taken by enemy, strategically moved
    # units end movement in province closest to target province".
    w, sc = fx.world(), fx.scenario()
    s = fx.state([("russia", "infantry", "Moscow", 1), ("germany", "infantry", "Posen", 1)])
    orders: dict[str, list[Order]] = {
        "russia": [_strategic("Moscow", "Warsaw", 1)],
        "germany": [fx_move("Posen", "Warsaw", infantry=1)],
    }
    new, events = resolve(s, orders, w, sc, Dice("seed", 1))
    short = [e for e in events if e.code == "strategic-cut-short"]
    assert len(short) == 1 and short[0].args["end"] in ("Minsk", "Kiev", "Vilna")
    assert fx.count(new, "russia", "infantry", short[0].args["end"]) == 1
    assert new.control["Warsaw"] == "germany"


def fx_move(origin: str, dest: str, **kinds: int) -> Order:
    return Move(tuple(UnitCount(k, n) for k, n in kinds.items()), origin, dest)


def test_units_the_rails_cannot_carry_stay_free_to_march_in_phase_4_4() -> None:
    from moderator.engine.check import check_orders

    w, sc = fx.world(), fx.scenario()
    s = fx.state([("russia", "infantry", "Moscow", 6)])
    # Vilna (1) takes one of the three: the other two may still march, with the three left.
    orders: list[Order] = [_strategic("Moscow", "Vilna", 3),
                           Move((UnitCount("infantry", 5),), "Moscow", "Minsk")]
    verdicts = check_orders(orders, "russia", s, w, sc)
    assert [v.kept for v in verdicts] == [True, True]
    assert [p.code for p in verdicts[0].problems] == ["smove-cut"]
    new, events = resolve(s, {"russia": orders}, w, sc, Dice("seed", 1))
    assert fx.count(new, "russia", "infantry", "Vilna") == 1
    assert fx.count(new, "russia", "infantry", "Minsk") - fx.count(s, "russia", "infantry", "Minsk") == 5
    assert fx.count(new, "russia", "infantry", "Moscow") == 0
    assert not [e for e in events if e.code in ("order-refused", "units-missing")]


def test_nations_competing_for_rails_are_served_by_lot_not_by_nation_id() -> None:
    # Phase 4.1.3: one capacity per territory for every move of the turn; issue 10: "The
    # result never depends on the order of nation ids". Posen (3) takes Germany's three from
    # Berlin or Austria's three from Vienna (by Silesia and Berlin), not both.
    w, sc = fx.world(), fx.scenario()
    s = fx.state([("germany", "infantry", "Berlin", 3), ("austria", "infantry", "Vienna", 3)])
    orders: dict[str, list[Order]] = {"germany": [_strategic("Berlin", "Posen", 3)],
                                      "austria": [_strategic("Vienna", "Posen", 3)]}
    swapped = dict(reversed(list(orders.items())))
    purpose = "strategic moves sharing rails, first: austria or germany"
    for pick, first in ((0, "austria"), (1, "germany")):  # the lot, not the id, decides
        for given in (orders, swapped):
            dice = ScriptedDice({"4.1.3": [pick]})
            new, events = resolve(s, given, w, sc, dice)
            assert [r.purpose for r in dice.log] == [purpose]
            assert fx.count(new, first, "infantry", "Posen") == 3
            refused = [e for e in events if e.code == "order-refused" and e.args.get("reason") == "smove-capacity"]
            assert [e.args["nation"] for e in refused] == [{"austria": "germany", "germany": "austria"}[first]]
    winners = set()
    for seed in range(12):  # with real dice each nation wins some turns
        new, _ = resolve(s, orders, w, sc, Dice(f"seed-{seed}", 1))
        winners |= {n for n in ("austria", "germany") if fx.count(new, n, "infantry", "Posen") == 3}
    assert winners == {"austria", "germany"}


def test_no_lot_where_nations_cannot_share_a_territory() -> None:
    # Russia's rails (Moscow -> Minsk) never meet Germany's (Berlin -> Posen): no lot drawn.
    w, sc = fx.world(), fx.scenario()
    s = fx.state([("germany", "infantry", "Berlin", 3), ("russia", "infantry", "Moscow", 3)])
    orders: dict[str, list[Order]] = {"germany": [_strategic("Berlin", "Posen", 3)],
                                      "russia": [_strategic("Moscow", "Minsk", 3)]}
    dice = ScriptedDice({})
    new, _ = resolve(s, orders, w, sc, dice)
    assert not dice.log
    assert fx.count(new, "germany", "infantry", "Posen") == 3 and fx.count(new, "russia", "infantry", "Minsk") == 3


def test_no_lot_where_the_rails_carry_every_move() -> None:
    # Germany's two into Posen (3) and Austria's one into Berlin: room for all, no lot.
    w, sc = fx.world(), fx.scenario()
    s = fx.state([("germany", "infantry", "Berlin", 2), ("austria", "infantry", "Vienna", 1)])
    orders: dict[str, list[Order]] = {"germany": [_strategic("Berlin", "Posen", 2)],
                                      "austria": [_strategic("Vienna", "Berlin", 1)]}
    dice = ScriptedDice({})
    new, _ = resolve(s, orders, w, sc, dice)
    assert not dice.log
    assert fx.count(new, "germany", "infantry", "Posen") == 2 and fx.count(new, "austria", "infantry", "Berlin") == 1


def test_the_rail_search_by_territory_finds_the_networks_own_paths() -> None:
    """phase4_strategic.first_path searches the territories, not the network's in and out
    nodes, and max_flow stops at the cut the move knows (origin, destinations): the same
    first path and the same flow as the network's own searches, on the 1914 map's rail
    regions with random destinations, units wanted and rails used (seeded)."""
    import random

    from moderator.engine import phase4_strategic as ps
    from moderator.world.loader import load_world
    from moderator.world.scenario import initial_state, load_scenario

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "rails")
    rng, cases, found = random.Random(14), 0, 0
    for nation in ("austria-hungary", "france", "germany", "russia", "united-kingdom"):
        for origin in sorted(world.territories):
            region = ps.rail_region(world, state, nation, origin)
            if len(region) < 2 or rng.random() < 0.5:
                continue
            dests = rng.sample(region, min(rng.choice([1, 1, 2, 3]), len(region)))
            demands = {d: rng.choice([0, 1, 2, 5, 9]) for d in dests}
            used = {t: rng.choice([0, 1, 2, 3, 5]) for t in rng.sample(region, min(len(region), rng.choice([0, 3, 10])))}
            net, cut, first = ps._network(world, region, origin, demands, used)
            alone = ps._network(world, region, origin, demands, used)[0]
            assert first == alone._augmenting_path(alone.node(ps.SOURCE), alone.node(ps.SINK)), (nation, origin)
            assert net.max_flow(ps.SOURCE, ps.SINK, cut, first) == alone.max_flow(ps.SOURCE, ps.SINK)
            walked = alone.flow_paths(ps.SOURCE, ps.SINK)
            assert net.flow_paths(ps.SOURCE, ps.SINK) == walked
            # a flow of one path is read off that path, not walked: the same paths
            assert ps._paths(world, region, origin, demands, used) == [
                (ps._territories(nodes[1:-1]), n) for nodes, n in walked]
            cases, found = cases + 1, found + (first is not None)
    assert cases > 100 and 0 < found < cases  # both kinds met: paths found and none


def test_remembered_routes_do_not_outlive_a_change_of_who_holds_the_rails() -> None:
    """kept_paths remembers a move's routes for the position; who holds the land they run
    through is part of what they were found on, so a change (here within the position,
    as no step of 4.1.3 makes one) is never answered from memory. (Incorporation and
    alliances change only in other steps than 4.1.3, the only one that asks: kept_paths.)"""
    from moderator.engine.context import TurnContext
    from moderator.engine.phase4_strategic import kept_paths

    w, s = fx.world(), fx.state()
    ctx = TurnContext(s.copy(), {}, w, fx.scenario())
    assert sum(n for _, n in kept_paths(ctx, "russia", "Moscow", "Kiev", 2, {})) == 2
    ctx.state.control["Kiev"] = "germany"
    assert kept_paths(ctx, "russia", "Moscow", "Kiev", 2, {}) == []
    ctx.state.control["Kiev"] = "russia"
    assert sum(n for _, n in kept_paths(ctx, "russia", "Moscow", "Kiev", 2, {})) == 2
