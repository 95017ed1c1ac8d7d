"""Every order a bot writes passes the checker (issue 14): a draft's order the checker
refuses is either one of the drops the bots' code names with its reason
(bot.EXPECTED_DROPS) or a bug, which the run names, with whose bug it is, and fails on."""

from __future__ import annotations

import random

import pytest

from moderator.bots import bot
from moderator.bots.bot import EXPECTED_DROPS, Draft, expected, play, whose_drop
from moderator.bots.options import Seat
from moderator.bots.simulate import simulate
from moderator.orders import model as m
from tests.drift import opening

BERLIN_TO_MOSCOW = m.Move((m.UnitCount("infantry", 1),), "Berlin", "Moscow")  # not next to each other


def _illegal(d: Draft) -> None:
    """A play writing an order its home refuses on any position (a move of two links)."""
    if d.seat.nation == "germany":
        d.orders.append(BERLIN_TO_MOSCOW)


def test_a_deliberately_illegal_draft_is_named_in_the_summary_and_fails_the_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot, "PLAYS", (*bot.PLAYS, ("illegal", _illegal)))
    summary = simulate(1, "drops", ["germany", "france"])
    assert summary.turns == 1 and summary.refused == [], summary.text()  # dropped: never written
    assert len(summary.drop_bugs) == 1, summary.drop_bugs
    bug = summary.drop_bugs[0]
    assert bug.startswith("turn 1 germany: MOVE 1 inf FROM Berlin TO Moscow: ") and "(bot: " in bug, bug
    assert not summary.ok
    text = summary.text()
    assert "NOT AN EXPECTED DROP (bot or checker bug): 1" in text and bug in text
    assert text.rstrip().endswith("Result: PROBLEMS FOUND (above)")


def test_without_it_the_same_run_is_ok() -> None:
    summary = simulate(1, "drops", ["germany", "france"])
    assert summary.drop_bugs == [] and summary.ok, summary.text()


def test_whose_drop_tells_the_bot_from_the_checker(monkeypatch: pytest.MonkeyPatch) -> None:
    game = opening()
    seat = Seat(game.state, game.world, game.scenario, "germany")
    # an order its home refuses: the bot wrote it
    assert whose_drop(seat, BERLIN_TO_MOSCOW).startswith("bot: its home refuses it")
    # legal alone, refused beside the draft's own other orders: the bot did not plan for them
    everyone = m.Move((m.UnitCount("infantry", seat.stacks["Berlin"]["infantry"]),), "Berlin", "Posen")
    turn = Draft(seat, random.Random(1), budget=seat.saved)
    turn.orders += [everyone, everyone]
    kept, refused = bot._check_draft(turn.orders, "germany", game.state, game.world, game.scenario)
    assert [code for _, code in refused] == ["not-enough-units"]
    assert whose_drop(seat, refused[0][0]).startswith("bot: refused beside its own other orders")
    # the home allows it, the checker refuses it alone: the checker is wrong
    real = bot.check_orders

    def wrong_checker(orders, *args, **kwargs):  # type: ignore[no-untyped-def]
        verdicts = real(orders, *args, **kwargs)
        for v in verdicts:
            if v.order == everyone:
                v.kept = False
        return verdicts

    monkeypatch.setattr(bot, "check_orders", wrong_checker)
    assert whose_drop(seat, everyone).startswith("checker: its home allows it")


def test_a_bot_turn_reports_only_unexpected_drops_as_bugs(monkeypatch: pytest.MonkeyPatch) -> None:
    game = opening()
    monkeypatch.setattr(bot, "PLAYS", (*bot.PLAYS, ("illegal", _illegal)))
    turn = play(game.state, game.world, game.scenario, "germany", "t")
    assert len(turn.bugs) == 1 and turn.bugs[0].startswith("MOVE 1 inf FROM Berlin TO Moscow: "), turn.dropped
    # a build the checker trims is expected, with its reason; a paid order over the budget is not
    assert all(reason for reason in EXPECTED_DROPS.values())
    assert expected(m.Build("infantry", 2, "Algeria"), "build-cut")
    assert not expected(m.Research("tanks"), "over-budget") and not expected(m.Build("infantry", 1, "Paris"), "no-city")


def test_whole_drafts_at_the_opening_and_two_turns_in_drop_only_what_is_expected() -> None:
    """Each seat's whole turn, on a few seeds, at the opening and at turn 3: every order the
    checker drops is an expected one (the soak checks every turn of its war the same way)."""
    from tests.drift import played

    for game in (opening(), played()):
        for nation in sorted(n for n, ns in game.state.nations.items() if n in game.scenario.nations
                             and game.scenario.nations[n].kind != "minor"):
            for seed in ("a", "b", "c"):
                turn = play(game.state, game.world, game.scenario, nation, seed)
                assert turn.bugs == [], (game.state.turn, nation, seed, turn.bugs)


def test_a_bot_incorporates_only_what_a_capture_leaves_unincorporated() -> None:
    """INCORPORATE beside an attack or an invasion: enemy land, at its home's price (Phase
    6: twice its value); not an ally's land (liberated for the ally, 4.4: the checker
    refused Britain's INCORPORATE of French Brest), nor Russian land taken between Russia and the
    Bolsheviks (it stays incorporated, Phase 9: refused, already-incorporated)."""
    from moderator.bots.bot import incorporate_taken

    game = opening()
    state = game.state.copy()

    def written(nation: str, place: str) -> list[m.Order]:
        seat = Seat(state, game.world, game.scenario, nation)
        d = Draft(seat, random.Random(1), budget=100)
        incorporate_taken(d, place)
        return d.orders

    assert written("germany", "Warsaw") == [m.Incorporate("Warsaw")]
    assert written("russia", "Brest") == []  # its ally France's
    state.incorporated["Chita"] = 1
    assert state.controller("Chita") == "russia" and written("bolsheviks", "Chita") == []
