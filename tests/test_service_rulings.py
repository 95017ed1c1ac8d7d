"""The moderator's rulings in the service (issue 7, point 7), on a real SQLite file and
through the `moderator` command: `adjust` now or next, `review approve|edit` turning
decisions into rulings, `enter` for orders received another way, review items made by
the resolution (not at intake), and replay of turns with rulings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.mail.config import MailConfig, ServerConfig
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.entry import enter_orders
from moderator.service.review import item_for
from moderator.service.turns import replay, resolve_game
from moderator.store.db import Store


@pytest.fixture()
def game(config: Path, tmp_path: Path) -> Service:
    """Game g1 at turn 1 in the config fixture's database; the service on the same file."""
    assert main(["game", "new", "g1"]) == 0
    return Service(store=Store.at(tmp_path / "m.db"), say=lambda s: None)


def _count(state: GameState, nation: str, kind: str, place: str) -> int:
    return sum(1 for u in state.units_at(place, nation) if u.kind == kind)


def _orders(tmp_path: Path, text: str, name: str = "orders.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ---- adjust ---------------------------------------------------------------------------------
def test_a_ruling_for_the_next_resolution_waits_for_it(game: Service, capsys: pytest.CaptureFixture[str]) -> None:
    svc = game
    before = _count(svc.position(svc.game("g1")), "germany", "infantry", "Posen")
    assert main(["adjust", "--game", "g1", "ADD 2 inf OF Germany AT Posen"]) == 0
    assert "stored 1 ruling for the resolution of turn 1 of g1" in capsys.readouterr().out
    assert _count(svc.position(svc.game("g1")), "germany", "infantry", "Posen") == before  # not yet
    resolve_game(svc, "g1")
    assert _count(svc.state(svc.game("g1")), "germany", "infantry", "Posen") == before + 2
    record = svc.store.turn_record("g1", 1)
    assert record is not None and json.loads(record.rulings) == {"now": [], "next": ["ADD 2 inf OF germany AT Posen"]}


def test_a_ruling_now_changes_the_position_orders_meet(game: Service, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    svc = game
    assert main(["adjust", "--game", "g1", "--now", "SET SAVED OF Germany TO 0"]) == 0
    out = capsys.readouterr().out
    assert "applied 1 ruling to turn 1 of g1 now" in out and "The moderator ruled: SET SAVED OF germany TO 0" in out
    g = svc.game("g1")
    assert svc.position(g).nations["germany"].saved == 0
    assert svc.state(g).nations["germany"].saved > 0  # the snapshot itself is never rewritten
    # The seat's orders are checked against the position with the ruling: nothing to build with.
    build = _orders(tmp_path, "BUILD 1 inf AT Berlin\n")
    assert main(["check", build, "--nation", "Germany", "--game", "g1"]) == 1  # the players' checker too
    assert main(["enter", "--game", "g1", "--nation", "Germany", build]) == 1
    assert "1 ERROR" in capsys.readouterr().out
    assert main(["state", "--game", "g1", "--nation", "Germany", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["saved"] == 0


def test_wrong_rulings_store_nothing_and_say_why(game: Service, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    rulings = _orders(tmp_path, "SET SAVED OF France TO 40\nREMOVE 99 inf OF Russia AT Warsaw\n", "rulings.txt")
    assert main(["adjust", "--game", "g1", "--file", rulings]) == 1
    out = capsys.readouterr().out
    assert "line 2, column" in out and "to remove, not 99" in out and "nothing was stored" in out
    assert game.store.rulings("g1", 1) == []


def test_a_ruling_typed_without_quotes_is_read_as_one(game: Service) -> None:
    assert main(["adjust", "--game", "g1", "SET", "SAVED", "OF", "France", "TO", "40"]) == 0
    assert [r.text for r in game.store.rulings("g1", 1)] == ["SET SAVED OF france TO 40"]


def test_next_rulings_are_checked_after_the_ones_stored_before(game: Service,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    have = _count(game.position(game.game("g1")), "russia", "infantry", "Warsaw")
    assert main(["adjust", "--game", "g1", f"REMOVE {have} inf OF Russia AT Warsaw"]) == 0
    assert main(["adjust", "--game", "g1", "REMOVE 1 inf OF Russia AT Warsaw"]) == 1
    assert "only 0 inf in Warsaw" in capsys.readouterr().out


def test_a_ruling_now_that_breaks_a_stored_one_is_told_and_the_resolution_refers_it(
        game: Service, capsys: pytest.CaptureFixture[str]) -> None:
    svc = game
    have = _count(svc.position(svc.game("g1")), "russia", "infantry", "Warsaw")
    assert main(["adjust", "--game", "g1", f"REMOVE {have} inf OF Russia AT Warsaw"]) == 0
    assert main(["adjust", "--game", "g1", "--now", "REMOVE 1 inf OF Russia AT Warsaw"]) == 0
    assert "warning: a ruling stored for the next resolution no longer fits" in capsys.readouterr().out
    resolve_game(svc, "g1")
    [item] = svc.store.reviews("g1")
    assert item.kind == "ruling-refused" and "REMOVE" in item.summary and "to remove" in item.summary


# ---- replay ---------------------------------------------------------------------------------
def test_replay_reproduces_a_turn_with_rulings_now_and_next(game: Service, capsys: pytest.CaptureFixture[str]) -> None:
    svc = game
    assert main(["adjust", "--game", "g1", "--now", "SET SAVED OF France TO 40", 'ROLL "Italy joins" 3']) == 0
    assert main(["adjust", "--game", "g1", "ADD 1 art OF France AT Paris", "WAR Germany AND Belgium"]) == 0
    assert main(["resolve", "--game", "g1"]) == 0
    record = svc.store.turn_record("g1", 1)
    assert record is not None
    assert json.loads(record.rulings) == {"now": ["SET SAVED OF france TO 40", 'ROLL "Italy joins" 3'],
                                          "next": ["ADD 1 art OF france AT Paris", "WAR germany AND belgium"]}
    rolls = json.loads(record.dice)
    assert {"purpose": "moderator: Italy joins", "result": 3, "step": "R"}.items() <= rolls[0].items()
    rulings = [e for e in json.loads(record.events) if e["code"] == "ruling"]
    assert [e["args"]["text"] for e in rulings][:2] == ["SET SAVED OF france TO 40", 'ROLL "Italy joins" 3']
    assert len(rulings) == 4
    capsys.readouterr()
    assert main(["replay", "--game", "g1", "--turn", "1"]) == 0
    assert capsys.readouterr().out.startswith("identical:")
    # A ruling given after the turn was resolved is not part of that turn.
    assert main(["adjust", "--game", "g1", "--now", "SET SAVED OF France TO 1"]) == 0
    assert replay(svc, "g1", 1)[0]


def test_rulings_are_stored_per_turn(game: Service) -> None:
    assert main(["adjust", "--game", "g1", "--now", "SET SAVED OF France TO 40"]) == 0
    resolve_game(game, "g1")
    assert [r.turn for r in game.store.rulings("g1", 1)] == [1] and game.store.rulings("g1", 2) == []
    g = game.game("g1")
    assert game.position(g) == game.state(g)  # turn 2 starts from the snapshot alone


# ---- review ---------------------------------------------------------------------------------
def test_referred_orders_become_review_items_at_resolution_not_at_intake(game: Service, tmp_path: Path) -> None:
    svc = game
    assert main(["enter", "--game", "g1", "--nation", "Germany", _orders(tmp_path, "NOTE first thoughts\n")]) == 0
    assert main(["enter", "--game", "g1", "--nation", "Germany",
                 _orders(tmp_path, "MOVE 2 inf FROM Ruhr TO Cologne\nNOTE Kiel Canal open?\n")]) == 0
    assert svc.store.reviews("g1") == []  # the receipt showed the flag; nothing waits yet
    resolve_game(svc, "g1")
    [item] = svc.store.reviews("g1")  # only the NOTE of the orders that counted
    assert item.kind == "note" and item.nation == "germany" and item.turn == 1
    assert item.summary == "German Empire, order 2: NOTE Kiel Canal open?"
    assert json.loads(item.detail)["why"] == "note"


def test_review_approve_and_edit_produce_rulings(game: Service, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    svc = game
    assert main(["enter", "--game", "g1", "--nation", "Germany", _orders(tmp_path, "NOTE may I?\nNOTE and this?\n")]) == 0
    resolve_game(svc, "g1")
    first, second = svc.store.reviews("g1")
    capsys.readouterr()
    assert main(["review", "approve", str(first.id), "--ruling", "ADJUST SAVED OF Germany BY -5",
                 "--note", "granted, for a fee"]) == 0
    out = capsys.readouterr().out
    assert "came from turn 1, which is resolved already: the ruling applies to the current turn, 2" in out
    [ruling] = svc.store.rulings("g1", 2)
    assert (ruling.text, ruling.applies, ruling.source) == ("ADJUST SAVED OF germany BY -5", "next", f"review:{first.id}")
    decided = svc.store.review(first.id)
    assert decided is not None and decided.status == "approved" and decided.rulings == "ADJUST SAVED OF germany BY -5"
    assert "granted, for a fee" in decided.resolution

    saved = svc.position(svc.game("g1")).nations["germany"].saved
    assert main(["review", "edit", str(second.id), "--ruling", "ADJUST SAVED OF Germany BY +7", "--now"]) == 0
    assert svc.position(svc.game("g1")).nations["germany"].saved == saved + 7
    edited = svc.store.review(second.id)
    assert edited is not None and edited.status == "edited" and "applied at once" in edited.resolution
    assert svc.store.reviews("g1") == []


def test_a_wrong_ruling_leaves_the_item_undecided(game: Service, tmp_path: Path) -> None:
    svc = game
    assert main(["enter", "--game", "g1", "--nation", "Germany", _orders(tmp_path, "NOTE hello\n")]) == 0
    resolve_game(svc, "g1")
    [item] = svc.store.reviews("g1")
    assert main(["review", "edit", str(item.id), "--ruling", "SET SAVED OF Atlantis TO 3"]) == 1
    assert svc.store.reviews("g1")[0].status == "pending" and svc.store.rulings("g1", 2) == []
    assert main(["review", "reject", str(item.id), "--note", "no"]) == 0
    assert svc.store.review(item.id).status == "rejected"  # type: ignore[union-attr]


def test_review_items_name_what_the_moderator_decides() -> None:
    names = {"germany": "German Empire"}.get
    flag = item_for(Event("moderator-flag", "3.1", ("moderator",), {
        "reason": "build-cut-default", "nation": "germany", "details": {"order": 0, "bought": 1, "ordered": 3}}),
        lambda n: names(n) or n)
    assert flag is not None and flag.kind == "flag"
    assert flag.summary.startswith("German Empire: order 1 bought only 1 of 3 units")
    referred = item_for(Event("order-referred", "2.1", ("germany", "moderator"), {
        "nation": "germany", "order": 2, "text": "RESEARCH Tanks", "type": "Research", "cost": 10,
        "why": "not-automated"}), lambda n: names(n) or n)
    assert referred is not None and referred.kind == "referred"
    assert referred.summary == ("German Empire, order 3 (RESEARCH Tanks): this order is not resolved "
                                "automatically yet: the moderator resolves it; 10 already charged")
    assert item_for(Event("income", "8", ("germany",), {}), str) is None


def test_the_moderators_copy_counts_the_items_and_lists_the_rulings() -> None:
    ruling = Event("ruling", "R", ("moderator", "france"), {"text": "SET SAVED OF france TO 40",
                                                            "nations": ["france"], "details": {}})
    text, html = render("moderator", title="t", game="g", resolved_turn=1, resolved_date="x", ordered=[], missing=[],
                        flags=["#4 German Empire, order 2 (NOTE hi): a note"], dice_count=0, sha256="0",
                        events=[ruling], names=str)
    assert "1 item for your review came from this resolution" in text and "#4 German Empire" in text
    assert "1 of your rulings was applied this turn:\n  * SET SAVED OF france TO 40" in text
    assert "SET SAVED OF france TO 40" in html


# ---- enter ----------------------------------------------------------------------------------
def test_enter_stores_orders_like_a_mail_and_replaces_earlier_ones(game: Service, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    svc = game
    first = _orders(tmp_path, "GAME g1\nNATION Germany\nTURN 1\nMOVE 2 inf FROM Ruhr TO Cologne\n")
    assert main(["enter", "--game", "g1", "--nation", "germany", first]) == 0
    out = capsys.readouterr().out
    assert "The moderator entered these orders for you" in out and "MOVE 2 inf FROM Ruhr TO Cologne" in out
    assert "Your orders as the moderator will read them" in out
    assert "MOVE 2 inf FROM Ruhr TO Cologne" in svc.store.current_submissions("g1", 1)["germany"].normalized

    second = _orders(tmp_path, "MOVE 1 inf FROM Ruhr TO Cologne\nMOVE 1 inf FROM Ruhr TO Warsw\n", "second.txt")
    assert main(["enter", "--game", "g1", "--nation", "Germany", second]) == 1  # one order dropped
    out = capsys.readouterr().out
    assert "REPLACE the orders you sent earlier" in out and "line 2" in out and "Warsaw" in out
    assert svc.store.current_submissions("g1", 1)["germany"].normalized.startswith("MOVE 1 inf FROM Ruhr TO Cologne")

    assert main(["enter", "--game", "g1", "--nation", "Germany", "--check", first]) == 0
    assert "This was a CHECK" in capsys.readouterr().out
    assert svc.store.current_submissions("g1", 1)["germany"].normalized.startswith("MOVE 1 inf")


def test_enter_refuses_a_file_for_another_seat_or_turn(game: Service, tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="NATION line says France, but --nation says German Empire"):
        main(["enter", "--game", "g1", "--nation", "Germany", _orders(tmp_path, "NATION France\nNOTE x\n")])
    with pytest.raises(SystemExit, match="TURN line says 4, but g1 is at turn 1"):
        main(["enter", "--game", "g1", "--nation", "Germany", _orders(tmp_path, "TURN 4\nNOTE x\n")])
    with pytest.raises(SystemExit, match="no nation 'Atlantis'"):
        main(["enter", "--game", "g1", "--nation", "Atlantis", _orders(tmp_path, "NOTE x\n")])
    assert game.store.current_submissions("g1", 1) == {}


def test_enter_mails_the_receipt_to_the_seat(game: Service) -> None:
    svc = game
    svc.mail = MailConfig(imap=ServerConfig("127.0.0.1", 1), smtp=ServerConfig("127.0.0.1", 1),
                          from_address="moderator@t.local", moderator_address="umpire@t.local")
    svc.store.add_seat("g1", "germany", "Kaiser@t.local", "pw")
    entered = enter_orders(svc, "g1", "Germany", "MOVE 2 inf FROM Ruhr TO Cologne\n")
    assert entered.mailed_to == "kaiser@t.local"
    [queued] = svc.store.messages(direction="out")
    assert queued.recipients == "kaiser@t.local" and queued.subject.startswith("Receipt: German Empire, turn 1")
    assert b"The moderator entered these orders for you" in queued.raw
