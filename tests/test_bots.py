"""Bots (issue 14): each order type's proposer offers only what its home allows, a bot's
turn is written as text the service keeps whole, and a short war in process replays."""

from __future__ import annotations

from moderator.bots.bot import PLAYS, play
from moderator.bots.options import OPTIONS, Seat, options
from moderator.bots.simulate import simulate
from moderator.engine.check import check_orders
from moderator.orders import parse_orders
from moderator.orders.checker import check_text
from tests.drift import opening, played


def test_every_option_is_allowed_by_its_home() -> None:
    for game in (opening(), played()):
        for nation in ("germany", "france", "russia", "britain", "serbia", "usa"):
            seat = Seat(game.state, game.world, game.scenario, nation)
            for kind in OPTIONS:
                for order in options(seat, kind):
                    verdict = check_orders([order], nation, game.state, game.world, game.scenario)[0]
                    assert verdict.kept, (nation, order, verdict.problems)


def test_the_options_cover_the_plays_order_types() -> None:
    seat = Seat(opening().state, opening().world, opening().scenario, "germany")
    offered = {kind for kind in OPTIONS if options(seat, kind)}
    # Germany at the opening: at war on two fronts, with ships and money
    from moderator.orders import model as m

    assert {m.Attack, m.Move, m.Build, m.Research, m.Influence, m.BuildTrench, m.TaskForce} <= offered
    assert [name for name, _ in PLAYS][:3] == ["declare", "defend", "attack"]


def test_a_bot_turn_is_text_the_checker_keeps_whole() -> None:
    game = opening()
    for nation in ("germany", "austria-hungary", "france", "russia", "serbia", "britain", "ottoman", "usa"):
        turn = play(game.state, game.world, game.scenario, nation, "t", header={"nation": nation, "turn": "1"})
        assert turn.orders, nation
        parsed = parse_orders(turn.text)
        assert not parsed.diagnostics, (nation, parsed.diagnostics)
        checked = check_text(turn.text, nation, game.state, game.world, game.scenario)
        assert [d for d in checked.diagnostics if d.severity == "error"] == [], nation
        assert len(checked.orders) == len(turn.orders)
    again = play(game.state, game.world, game.scenario, "germany", "t", header={"nation": "germany", "turn": "1"})
    assert again.text == play(game.state, game.world, game.scenario, "germany", "t",
                              header={"nation": "germany", "turn": "1"}).text  # deterministic


def test_germany_attacks_only_with_good_odds() -> None:
    from moderator.bots.bot import GOOD_ODDS, Draft, attack, odds_of

    game = opening()
    seat = Seat(game.state, game.world, game.scenario, "germany")
    import random

    from moderator.orders import model as m

    draft = Draft(seat, random.Random(1), budget=seat.saved)
    attack(draft)
    strikes = [o for o in draft.orders if isinstance(o, m.Attack)]
    assert strikes
    assert all(odds_of(seat, o) >= GOOD_ODDS for o in strikes)
    assert all(any(isinstance(c, m.CombatCondition) and c.dest == o.dest for c in draft.orders) for o in strikes)


def test_a_short_war_in_process() -> None:
    summary = simulate(2, "test", ["germany", "france", "russia", "austria-hungary", "serbia", "britain"])
    assert summary.turns == 2
    assert summary.errors == [] and summary.refused == []
    assert summary.written == summary.accepted > 0
    assert summary.replays == {1: True, 2: True}
    assert summary.ok and "Result: OK" in summary.text()


def test_soak_every_seat_through_mail() -> None:
    """The short soak (issue 14): two turns, a bot on every playable seat, orders mailed to
    the embedded server and handled by the real daemon, reports read back over IMAP (maps
    left out: they take seconds each and are tested in the end-to-end turn)."""
    summary = simulate(2, "ci", mail=True, maps=False)
    seats = len(summary.seats)
    assert seats >= 18 and summary.turns == 2, summary.text()
    assert summary.errors == [] and summary.refused == [], summary.text()
    assert summary.delivery == [] and summary.report_mismatch == [], summary.text()
    assert summary.written == summary.accepted > 0
    # every seat: one receipt and one report and one bulletin per turn; alliances for the sides
    assert summary.mails["receipt"] == summary.mails["report"] == summary.mails["bulletin"] == 2 * seats
    assert summary.mails["alliance"] >= 2 * 5  # the five nations at war in August 1914
    assert summary.replays == {1: True, 2: True}
    assert summary.strange_reviews == [] and summary.ok, summary.text()
