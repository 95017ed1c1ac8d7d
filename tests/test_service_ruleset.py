"""Every game and every resolved turn records the ruleset it is played with (issue 7,
point 6): replay uses the turn's own rules, and says plainly when this moderator does not
have them instead of reporting a mismatch."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.cli import main
from moderator.rulesets import registry
from moderator.service.context import Service, playable_ruleset
from moderator.service.games import new_game
from moderator.service.turns import ReplayUnavailable, replay, resolve_game
from moderator.store.db import Store
from moderator.store.tables import TurnRecord


def _svc(tmp_path: Path) -> Service:
    return Service(store=Store.at(tmp_path / "m.db"), say=lambda s: None)


def _played_by_an_older_moderator(store: Store, game: str, turn: int) -> None:
    """Make a turn's record say it was resolved with wtea-1914 v1 (not installed)."""
    record = store.turn_record(game, turn)
    assert record is not None
    with store.session() as s:
        row = s.get(TurnRecord, record.id)
        assert row is not None
        row.ruleset_version = 1
        s.add(row)


def test_a_new_game_and_each_resolved_turn_record_the_ruleset(tmp_path: Path) -> None:
    svc = _svc(tmp_path)
    newest = registry().default()
    game = new_game(svc, "g", seed="s")
    assert (game.ruleset, game.ruleset_version) == (newest.name, newest.version) == ("wtea-1914", newest.version)
    resolve_game(svc, "g")
    record = svc.store.turn_record("g", 1)
    assert record is not None and (record.ruleset, record.ruleset_version) == (newest.name, newest.version)
    assert replay(svc, "g", 1)[0]


def test_replay_of_a_turn_played_with_rules_not_installed_says_which(tmp_path: Path) -> None:
    svc = _svc(tmp_path)
    new_game(svc, "g", seed="s")
    resolve_game(svc, "g")
    _played_by_an_older_moderator(svc.store, "g", 1)
    with pytest.raises(ReplayUnavailable, match=r"resolved with wtea-1914 v1, which this moderator does not "
                                                r"have \(it has v\d+\)"):
        replay(svc, "g", 1)


def test_an_old_game_goes_on_with_the_newest_version_of_its_rules(tmp_path: Path) -> None:
    svc = _svc(tmp_path)
    new_game(svc, "g", seed="s")
    svc.store.update_game("g", ruleset_version=1)  # created before rulesets were recorded
    said: list[str] = []
    svc.say = said.append
    resolve_game(svc, "g")
    newest = registry().default().version
    game = svc.game("g")
    assert game.ruleset_version == newest and svc.store.turn_record("g", 1).ruleset_version == newest  # type: ignore[union-attr]
    assert any("played with wtea-1914 v1, which this moderator no longer has" in s for s in said)


def test_rules_newer_than_this_moderator_or_unknown_are_refused_with_the_fix() -> None:
    with pytest.raises(LookupError, match="install a newer moderator"):
        playable_ruleset("wtea-1914", 99)
    with pytest.raises(LookupError, match="does not know the ruleset 'chess'"):
        playable_ruleset("chess", 1)


def test_the_cli_shows_the_ruleset_and_refuses_to_replay_without_the_rules(
        config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1"]) == 0
    assert main(["game", "show", "g1"]) == 0
    assert f"ruleset wtea-1914 v{registry().default().version}" in capsys.readouterr().out
    assert main(["resolve", "--game", "g1"]) == 0
    _played_by_an_older_moderator(Store.at(tmp_path / "m.db"), "g1", 1)  # the config fixture's database
    capsys.readouterr()
    assert main(["replay", "--game", "g1", "--turn", "1"]) == 2
    out = capsys.readouterr().out
    assert out.startswith("CANNOT REPLAY: turn 1 of g1 was resolved with wtea-1914 v1") and "MISMATCH" not in out


def test_the_scenario_names_its_ruleset() -> None:
    from moderator.world.scenario import load_scenario

    assert load_scenario("1914").ruleset == "wtea-1914"
