"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture()
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A configuration file with a fresh SQLite database, made the default for the CLI."""
    cfg = tmp_path / "moderator.toml"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "m.db"}"\n', encoding="utf-8")
    monkeypatch.setenv("MODERATOR_CONFIG", str(cfg))
    return cfg
