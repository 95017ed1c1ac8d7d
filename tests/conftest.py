"""Fixtures shared by several test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.reports.render import strict_events


@pytest.fixture(autouse=True)
def _event_templates_strict():  # type: ignore[no-untyped-def]
    """Every test renders events strictly: a template that raises for an event the engine
    emits fails the test loudly instead of falling back to plain words (render.event_text);
    tests of the fallback open strict_events(False) themselves."""
    with strict_events():
        yield


@pytest.fixture()
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A configuration file with a fresh SQLite database, made the default for the CLI."""
    cfg = tmp_path / "moderator.toml"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "m.db"}"\n', encoding="utf-8")
    monkeypatch.setenv("MODERATOR_CONFIG", str(cfg))
    return cfg


@pytest.fixture(scope="session")
def postgres_server():  # type: ignore[no-untyped-def]
    """One real PostgreSQL server for the test run (tests/postgres.py); skipped, saying why,
    where PostgreSQL is not installed."""
    from tests import postgres

    why = postgres.missing()
    if why:
        pytest.skip(why)
    server = postgres.start()
    yield server
    server.stop()


@pytest.fixture()
def postgres_url(postgres_server) -> str:  # type: ignore[no-untyped-def]
    """A fresh, empty database on the test run's PostgreSQL server."""
    return str(postgres_server.new_database())
