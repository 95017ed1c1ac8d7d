"""PostgreSQL by URL (issue 12): the moderator's tools on a configuration whose database is
a PostgreSQL URL work as on SQLite - a game made, seated and ordered from the command line,
resolved, then replayed and its dice verified - against a real server (tests/postgres.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.cli import main
from moderator.service.context import Service
from moderator.service.turns import resolve_game
from moderator.store.db import Store


def test_the_tools_work_on_a_postgresql_database(postgres_url: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "moderator.toml"
    cfg.write_text(f'[service]\ndatabase = "{postgres_url}"\nreports = "{tmp_path / "reports"}"\n', encoding="utf-8")
    monkeypatch.setenv("MODERATOR_CONFIG", str(cfg))
    orders = tmp_path / "orders.txt"
    orders.write_text("MOVE 2 inf FROM Ruhr TO Cologne\n", encoding="utf-8")
    assert main(["game", "new", "g1"]) == 0
    assert main(["seat", "add", "--game", "g1", "--nation", "Germany", "--email", "k@x.org"]) == 0
    assert main(["enter", "--game", "g1", "--nation", "Germany", str(orders)]) == 0
    assert main(["game", "show", "g1"]) == 0
    shown = capsys.readouterr().out
    assert "germany          k@x.org                          orders in" in shown
    store = Store(postgres_url)
    assert store.engine.dialect.name == "postgresql"
    svc = Service(store=store, say=lambda s: None, maps=False)
    resolve_game(svc, "g1")  # (the command's own resolve draws every map; the service's is the same code)
    assert main(["replay", "--game", "g1", "--turn", "1"]) == 0
    assert "identical" in capsys.readouterr().out
    assert main(["verify", "--game", "g1", "--turn", "1"]) == 0
    assert "all match" in capsys.readouterr().out
    assert main(["state", "--game", "g1", "--nation", "Germany"]) == 0
    assert store.game("g1").turn == 2  # type: ignore[union-attr]
    store.engine.dispose()
