"""Bots (issue 14) use the special options a player weighs (bots/specials.py) and, some of
them, buy infantry past the manpower limit at the risk of a mutiny (bot.levy); every
order they write is kept by the checker."""

from __future__ import annotations

import random

from moderator.bots.bot import Draft, _checked, bold, levy, money, play
from moderator.bots.options import Seat, options
from moderator.bots.specials import specials
from moderator.engine import manpower
from moderator.engine.adriatic_submarine import SEA as ADRIATIC
from moderator.engine.state import GameState
from moderator.orders import model as m
from tests.drift import opening

SEEDS = [str(n) for n in range(12)]
# What a bot's own check may drop from a whole turn (its budget is rough, the checker has
# the prices; it does not add up the rails' capacity its strategic moves share, 4.1.3);
# anything else is a bug of the bot or of the checker.
ROUGH = ("over-budget", "build-cut", "smove-capacity")


def _turns(state: GameState, nation: str) -> list[list[m.Order]]:
    """The orders of `nation`'s whole turn for each seed, each kept whole by the checker."""
    game = opening()
    out = []
    for seed in SEEDS:
        turn = play(state, game.world, game.scenario, nation, seed)
        assert [code for _, code in turn.dropped if code not in ROUGH] == [], (seed, turn.dropped)
        out.append(turn.orders)
    return out


def _options(orders: list[m.Order]) -> list[int]:
    return [o.number for o in orders if isinstance(o, m.SpecialOption)]


def test_germany_sends_a_submarine_to_the_adriatic_and_it_lies_in_wait_at_once() -> None:
    """German #7 ("This sub can engage any surface ship or submarine in that sea in the same
    turn"): with an enemy's ship in the Adriatic every turn, the new submarine intercepting
    there with those already there; with none, now and then only."""
    state = opening().state.copy()
    state.nations["germany"].saved = 120
    state.new_unit("france", "cruiser", ADRIATIC)
    state.new_unit("germany", "submarine", ADRIATIC)
    for orders in _turns(state, "germany"):
        assert _options(orders).count(7) == 1, orders  # (money may draw another option besides)
        lying = [o for o in orders if isinstance(o, m.SubInterception) and o.zone == ADRIATIC]
        assert [o.count for o in lying] == [2], lying  # the one there and the new one, in one order

    calm = opening().state.copy()
    calm.nations["germany"].saved = 120
    used = [7 in _options(orders) for orders in _turns(calm, "germany")]
    assert any(used) and not all(used), used


def test_britain_hands_a_battleship_to_the_ottomans_only_while_they_lean_to_the_central_powers() -> None:
    """British #1: Britain on the Allies' side, two battleships afloat, the Ottomans neutral
    and leaning to the Central Powers; the ship handed over is named by no other order."""
    state = opening().state.copy()
    state.nations["britain"].side = "allied"
    state.nations["ottoman"].standing = -3
    turns = _turns(state, "britain")
    assert any(1 in _options(orders) for orders in turns), turns
    for orders in turns:
        assert _options(orders).count(1) <= 1
    state.nations["ottoman"].standing = 1  # leaning to the Allies: nothing to hold back
    assert not any(1 in _options(orders) for orders in _turns(state, "britain"))


def test_austria_hungary_offers_serbia_peace_and_strikes_no_serbian_land_that_turn() -> None:
    """Austro-Hungarian #1: at war with Serbia and Russia, A-H now and then buys the 50/50
    peace; that turn no attack, strike or support goes into land Serbia holds."""
    state = opening().state.copy()
    state.nations["austria-hungary"].saved = 100
    turns = _turns(state, "austria-hungary")
    offered = [orders for orders in turns if 1 in _options(orders)]
    assert 0 < len(offered) < len(turns), [_options(o) for o in turns]
    serbian = {p for p, n in state.control.items() if n == "serbia"}
    for orders in offered:
        aimed = {getattr(o, "dest", None) or getattr(o, "target", None) for o in orders
                 if isinstance(o, (m.Attack, m.Bombing, m.RocketFire, m.ArtillerySupport, m.Recon))}
        assert not aimed & serbian, aimed & serbian
    game = opening()
    seat = Seat(state, game.world, game.scenario, "austria-hungary")
    assert {o.dest for o in options(seat, m.Attack) if isinstance(o, m.Attack)} & serbian  # its choice before
    draft = next(d for d in (Draft(seat, random.Random(n), budget=100) for n in range(20))
                 if specials(d) is None and _options(d.orders) == [1])
    assert not {o.dest for o in options(draft.seat, m.Attack) if isinstance(o, m.Attack)} & serbian

    alone = state.copy()  # Serbia its only enemy: no second front to free troops for
    for n in ("france", "russia"):
        alone.nations["austria-hungary"].at_war_with.remove(n)
        alone.nations[n].at_war_with.remove("austria-hungary")
    assert not any(1 in _options(orders) for orders in _turns(alone, "austria-hungary"))


def test_austria_hungary_gives_trieste_to_italy_only_when_italy_is_near_the_allies() -> None:
    """Austro-Hungarian #2: a city for 0-20 points is paid only when Italy, neutral, stands
    at +5 or more toward the Allies; the garrison leaving Trieste gets no other order."""
    state = opening().state.copy()
    state.nations["austria-hungary"].saved = 100
    state.nations["austria-hungary"].at_war_with.remove("serbia")  # no peace to weigh first
    state.nations["serbia"].at_war_with.remove("austria-hungary")
    state.nations["italy"].standing = 5
    turns = _turns(state, "austria-hungary")
    given = [orders for orders in turns if 2 in _options(orders)]
    assert given, [_options(o) for o in turns]
    for orders in given:
        assert not [o for o in orders if getattr(o, "origin", None) == "Trieste"]
    state.nations["italy"].standing = 4
    assert not any(2 in _options(orders) for orders in _turns(state, "austria-hungary"))


def test_the_random_draw_of_options_leaves_the_weighed_ones_alone() -> None:
    """bot.money's "a special option now and then" never draws one of those specials.py
    weighs: Germany, with #7 open every turn, writes it only from specials."""
    game = opening()
    state = game.state.copy()
    state.nations["germany"].saved = 500
    seat = Seat(state, game.world, game.scenario, "germany")
    drawn = []
    for seed in range(40):
        draft = Draft(seat, random.Random(seed), budget=500)
        money(draft)
        drawn += _options(draft.orders)
    assert drawn and 7 not in drawn, drawn


def _levied(nation: str, home_left: int, threat: int, is_bold: bool) -> list[list[m.Build]]:
    """The infantry builds of `levy` for ten seeds, France's colonies' limit spent too."""
    game = opening()

    class Pressed(Seat):
        def threat(self, place: str) -> int:
            return threat if place == "Paris" else 0

    state = game.state.copy()
    ns = state.nations[nation]
    ns.saved = 300
    ns.infantry_built = ns.manpower_limit - home_left
    ns.flags[manpower.COLONIAL_BUILT] = int(ns.flags.get(manpower.COLONIAL, 0))
    seat = Pressed(state, game.world, game.scenario, nation)
    out = []
    for seed in range(10):
        draft = Draft(seat, random.Random(seed), budget=300, bold=is_bold)
        levy(draft)
        builds = [o for o in draft.orders if isinstance(o, m.Build)]
        kept, dropped = _checked(draft.orders, nation, state, game.world, game.scenario)
        assert dropped == [] and kept == draft.orders, dropped
        out.append(builds)
    return out


def test_a_bot_buys_infantry_past_its_manpower_limit_when_pressed_or_bold() -> None:
    """Mutinies: "If a nation builds infantry units on a turn after its manpower limit has
    been expended, then there will be a 2 in 10 chance of a mutiny". With the limit spent,
    a careful player takes the risk one turn in two where more enemies threaten its land
    than stand on it; a bold one every turn, threatened or not; none while infantry can
    still be had at normal cost."""
    paris = sum(1 for u in opening().state.units_at("Paris", "france") if u.kind in ("infantry", "artillery", "tank"))
    pressed = _levied("france", 0, paris + 3, False)
    took = [b for b in pressed if b]
    assert 0 < len(took) < len(pressed), pressed
    assert all(b == [m.Build("infantry", 2, "Paris")] for b in took), took
    assert not any(_levied("france", 0, 0, False))  # careful, nothing threatened: within the limit
    assert all(_levied("france", 0, 0, True))  # bold: every turn
    assert not any(_levied("france", 5, paris + 3, True))  # infantry still at normal cost: build() buys them


def test_the_temper_of_a_seat_is_drawn_once_from_the_seed() -> None:
    nations = sorted(opening().state.nations)
    tempers = {seed: [bold(seed, n) for n in nations] for seed in SEEDS}
    assert tempers == {seed: [bold(seed, n) for n in nations] for seed in SEEDS}  # the same seed, the same war
    share = sum(map(sum, tempers.values())) / sum(map(len, tempers.values()))
    assert 0.2 < share < 0.5, share  # about a third of the seats (BOLD)
    assert specials  # the play the bots run (bot.PLAYS "specials")
