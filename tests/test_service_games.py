"""The real-time calendar (Miscellaneous: ten-day cycle) and service configuration."""

from datetime import UTC, datetime
from pathlib import Path

import pytest

from moderator.service.config import load_config
from moderator.service.games import corrections_until, orders_due


def test_orders_are_due_by_the_end_of_day_ten() -> None:
    update = datetime(2026, 11, 22, 14, 5, tzinfo=UTC)  # day one is the update day
    assert orders_due(update) == datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC)


def test_error_corrections_take_the_first_two_days() -> None:
    update = datetime(2026, 11, 22, 14, 5, tzinfo=UTC)
    assert corrections_until(update) == datetime(2026, 11, 24, 23, 59, 59, tzinfo=UTC)


def test_config_reads_passwords_from_the_environment_only(tmp_path: Path) -> None:
    cfg = tmp_path / "moderator.toml"
    cfg.write_text(
        '[service]\ndatabase = "sqlite:///x.db"\npoll_seconds = 30\n'
        '[mail]\nfrom_address = "m@x.org"\nmoderator_address = "u@x.org"\n'
        '[mail.imap]\nhost = "imap.x.org"\nuser = "m"\npassword_env = "T_IMAP"\n'
        '[mail.smtp]\nhost = "smtp.x.org"\n', encoding="utf-8")
    loaded = load_config(cfg, environ={"T_IMAP": "hunter2"})
    assert loaded.poll_seconds == 30 and loaded.database == "sqlite:///x.db"
    assert loaded.mail is not None and loaded.mail.imap.password is not None
    assert loaded.mail.imap.password.reveal() == "hunter2"
    assert "hunter2" not in repr(loaded)
    # Without the variable, the offline verbs still work; the daemon (commands._service) refuses.
    offline = load_config(cfg, environ={})
    assert offline.missing_secrets == ("T_IMAP",) and offline.mail is not None


def test_missing_default_config_gives_offline_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MODERATOR_CONFIG", raising=False)
    assert load_config().mail is None
    with pytest.raises(FileNotFoundError):
        load_config(tmp_path / "nope.toml")


def test_reports_can_be_sent_without_maps(tmp_path: Path) -> None:
    """`[service] maps = false`: the daemon's Service draws no map into the reports."""
    import argparse

    from moderator.service.commands import _service

    cfg = tmp_path / "moderator.toml"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "x.db"}"\nmaps = false\n', encoding="utf-8")
    svc, loaded = _service(argparse.Namespace(config=cfg))
    assert loaded.maps is False and svc.maps is False
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "x.db"}"\n', encoding="utf-8")
    assert load_config(cfg).maps is True


def test_the_daemon_publishes_to_the_configured_site_folder(tmp_path: Path) -> None:
    """`[site] dir`: the Service `moderator run` (and every verb) works with is given the
    folder, so each resolution publishes the game's public page there (service/site.py)."""
    import argparse

    from moderator.service.commands import _service

    cfg = tmp_path / "moderator.toml"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "x.db"}"\n[site]\ndir = "{tmp_path / "public"}"\n',
                   encoding="utf-8")
    svc, loaded = _service(argparse.Namespace(config=cfg))
    assert loaded.site == tmp_path / "public" and svc.site_dir == tmp_path / "public"
    cfg.write_text(f'[service]\ndatabase = "sqlite:///{tmp_path / "x.db"}"\n', encoding="utf-8")
    assert _service(argparse.Namespace(config=cfg))[0].site_dir is None
