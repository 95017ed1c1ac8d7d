"""The moderator's desk (issue 12), the small fixes: `check --config`, reports written to
files (and where) when the configuration has no [mail] section, deciding an item of a
resolved turn says that nothing changes, and the demo's restart keeps its ports and the
players' edited orders files."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.service.demo import _free, fresh_start
from tests.report_text import flat


def _orders(tmp_path: Path, text: str, name: str = "orders.txt") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_check_takes_config_like_every_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "elsewhere.toml"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "e.db"}"\n', encoding="utf-8")
    monkeypatch.delenv("MODERATOR_CONFIG", raising=False)
    monkeypatch.chdir(tmp_path)  # no ./moderator.toml here: only --config finds the game
    assert main(["game", "new", "g9", "--config", str(cfg)]) == 0
    orders = _orders(tmp_path, "MOVE 2 inf FROM Ruhr TO Cologne\n")
    assert main(["check", orders, "--nation", "Germany", "--game", "g9", "--config", str(cfg)]) == 0
    assert "game g9, turn 1" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no game 'g9'"):
        main(["check", orders, "--nation", "Germany", "--game", "g9"])  # the default database has none


def test_resolve_without_mail_writes_the_reports_and_says_where(config: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "Germany", "--email", "k@x.org"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "France", "--email", "f@x.org"]) == 0
    capsys.readouterr()
    assert main(["resolve", "--game", "g1"]) == 0
    out = capsys.readouterr().out
    folder = tmp_path / "reports" / "g1" / "turn-1"  # beside the database, m.db
    assert "no [mail] settings" in out and f"written to {folder}" in out
    assert sorted(p.name for p in folder.iterdir()) == ["alliance-allied", "alliance-central", "france", "germany",
                                                        "public"]
    germany = folder / "germany"
    assert "turn 1 (August 1914) has been resolved" in flat((germany / "report.txt").read_text())  # wrapped at 78
    assert json.loads((germany / "report.json").read_text())["kind"] == "nation"
    assert (germany / "map.png").read_bytes()[:4] == b"\x89PNG"
    assert 'src="map.png"' in (germany / "report.html").read_text()


def test_reports_go_where_the_configuration_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "m.toml"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "m.db"}"\nreports = "{tmp_path / "out"}"\n',
                   encoding="utf-8")
    monkeypatch.setenv("MODERATOR_CONFIG", str(cfg))
    assert main(["game", "new", "g1"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "Italy", "--email", "i@x.org"]) == 0
    assert main(["resolve", "--game", "g1"]) == 0
    assert (tmp_path / "out" / "g1" / "turn-1" / "italy" / "report.txt").exists()


def test_deciding_an_item_of_a_resolved_turn_says_nothing_changes(config: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "g1"]) == 0
    assert main(["enter", "--game", "g1", "--nation", "Germany", _orders(tmp_path, "NOTE a\nNOTE b\n")]) == 0
    assert main(["resolve", "--game", "g1"]) == 0
    capsys.readouterr()
    assert main(["review", "list", "--game", "g1"]) == 0
    ids = [line.split()[0].lstrip("#") for line in capsys.readouterr().out.splitlines() if line.startswith("#")]
    assert len(ids) == 2
    assert main(["review", "reject", ids[0], "--note", "no"]) == 0
    out = capsys.readouterr().out
    assert "came from turn 1, which is resolved already" in out and "nothing in the game changes" in out
    assert "moderator rollback --game g1 --turn 1" in out and f"#{ids[0]} rejected" in out
    assert main(["review", "approve", ids[1]]) == 0
    out = capsys.readouterr().out
    assert "resolved already" in out and "the engine's handling stands" in out


def test_the_demo_restart_keeps_edited_orders_files(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    (root / "orders").mkdir(parents=True)
    (root / "orders" / "germany.txt").write_text("MOVE 2 inf FROM Ruhr TO Cologne  # my edit\n")
    (root / "moderator.db").write_text("old")
    (root / "sent").mkdir()
    fresh_start(root)
    assert sorted(p.name for p in root.iterdir()) == ["orders"]
    assert (root / "orders" / "germany.txt").read_text().endswith("# my edit\n")


def test_the_demo_keeps_a_port_its_last_run_left_in_time_wait() -> None:
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the demo's servers bind
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    served, _ = listener.accept()
    served.close()  # the server closes first: its side of the connection waits in TIME_WAIT
    client.recv(1)
    client.close()
    listener.close()
    with socket.socket() as plain, pytest.raises(OSError):
        plain.bind(("127.0.0.1", port))  # without SO_REUSEADDR the port looks taken
    assert _free(port) == port
