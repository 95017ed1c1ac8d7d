"""The moderator's offline workflow from the command line, on a real SQLite file:
create a game, seat players, check orders, resolve, replay, read state and reports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from moderator.cli import main


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

    out_dir = tmp_path / "report"
    assert main(["report", "--game", "g1", "--nation", "Germany", "--out", str(out_dir)]) == 0
    assert (out_dir / "map.png").read_bytes()[:4] == b"\x89PNG"
    assert "turn 1 (August 1914) has been resolved" in (out_dir / "report.txt").read_text()
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
