"""The moderator's offline workflow from the command line, on a real SQLite file:
create a game, seat players, check orders, resolve, replay, read state and reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.cli import main
from tests.report_text import flat


def test_a_game_from_creation_to_replay(config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1", "--title", "Test game"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "Germany", "--email", "K@x.org"]) == 0
    out = capsys.readouterr().out
    assert "germany in g1 -> k@x.org" in out and "seat password" in out
    with pytest.raises(SystemExit, match="no nation 'Atlantis'"):
        main(["seat", "add", "--game", "g1", "--nation", "Atlantis", "--email", "a@x.org"])

    orders = tmp_path / "orders.txt"
    orders.write_text("GAME g1\nNATION Germany\nTURN 1\nMOVE 2 inf FROM Ruhr TO Cologne\n", encoding="utf-8")
    assert main(["check", str(orders), "--nation", "Germany", "--game", "g1"]) == 0
    orders.write_text("MOVE 2 inf FROM Ruhr TO Warsaw\n", encoding="utf-8")
    assert main(["check", str(orders), "--nation", "Germany", "--game", "g1"]) == 1

    assert main(["game", "show", "g1"]) == 0
    assert "turn 1 (August 1914)" in capsys.readouterr().out
    assert main(["resolve", "--game", "g1"]) == 0
    assert main(["replay", "--game", "g1", "--turn", "1"]) == 0
    assert "identical" in capsys.readouterr().out

    assert main(["state", "--game", "g1", "--nation", "germany", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["nation"] == "germany" and status["saved"] > 0 and "Berlin" in status["territories"]
    assert main(["state", "--game", "g1", "--nation", "germany"]) == 0  # for a reader: as the report shows it
    text = capsys.readouterr().out
    assert text.startswith("Test game: position before turn 2 (") and f"Treasury: {status['saved']} resources" in text
    assert main(["state", "--game", "g1"]) == 0  # every nation on the map, one line each
    table = capsys.readouterr().out.splitlines()
    assert table[1].split()[:2] == ["Nation", "Camp"] and any(line.startswith("German Empire ") for line in table)

    out_dir = tmp_path / "report"
    assert main(["report", "--game", "g1", "--nation", "Germany", "--out", str(out_dir)]) == 0
    assert (out_dir / "map.png").read_bytes()[:4] == b"\x89PNG"
    assert "turn 1 (August 1914) has been resolved" in flat((out_dir / "report.txt").read_text())  # wrapped at 78
    assert "You sent no orders this turn" in (out_dir / "report.txt").read_text()  # only checked, never sent
    capsys.readouterr()
    assert main(["report", "--game", "g1", "--nation", "Germany", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == json.loads((out_dir / "report.json").read_text())  # the same content as the mail's
    assert data["kind"] == "nation" and data["orders_arrived"] is False and data["turn"] == 2
    assert data["order_block"].startswith("GAME g1\nNATION Germany\nTURN 2\n")

    assert main(["review", "list", "--game", "g1"]) == 0
    assert main(["game", "list"]) == 0
    assert "turn 2" in capsys.readouterr().out


def test_a_finished_game_has_no_more_turns(config: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Victory Conditions: the engine flags `game-over`; the moderator finishes the game.
    assert main(["game", "new", "g1"]) == 0
    assert main(["game", "finish", "g1"]) == 0
    assert "game g1 is finished before any turn was resolved" in capsys.readouterr().out
    assert main(["game", "list"]) == 0
    assert "finished" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="g1 is finished"):
        main(["resolve", "--game", "g1"])
    with pytest.raises(SystemExit, match="finished already"):
        main(["game", "finish", "g1"])
    with pytest.raises(SystemExit, match="no game called"):
        main(["game", "finish", "nope"])


def test_offline_verbs_work_without_the_mail_passwords_and_the_daemon_says_what_is_missing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "moderator.toml"
    cfg.write_text(
        f'[service]\ndatabase = "sqlite:///{tmp_path / "m.db"}"\n'
        '[mail]\nfrom_address = "m@x.org"\nmoderator_address = "u@x.org"\n'
        '[mail.imap]\nhost = "127.0.0.1"\nport = 1\nuser = "m"\npassword_env = "T_NOT_SET_IMAP"\n'
        '[mail.smtp]\nhost = "127.0.0.1"\nport = 1\nuser = "m"\npassword_env = "T_NOT_SET_SMTP"\n', encoding="utf-8")
    monkeypatch.setenv("MODERATOR_CONFIG", str(cfg))
    monkeypatch.delenv("T_NOT_SET_IMAP", raising=False)
    monkeypatch.delenv("T_NOT_SET_SMTP", raising=False)
    assert main(["game", "new", "g1"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "Germany", "--email", "k@x.org"]) == 0
    assert main(["state", "--game", "g1", "--nation", "germany", "--json"]) == 0
    assert main(["review", "list", "--game", "g1"]) == 0
    assert main(["game", "show", "g1"]) == 0
    assert main(["mail", "list"]) == 0
    assert "Traceback" not in capsys.readouterr().err
    with pytest.raises(SystemExit, match="T_NOT_SET_IMAP"):
        main(["run"])


def test_the_daemons_log_lines_carry_their_utc_time(capsys: pytest.CaptureFixture[str]) -> None:
    import re

    from moderator.service.commands import _timestamped

    _timestamped("mail 7: receipt for German Empire")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ mail 7: receipt for German Empire\n", capsys.readouterr().out)
