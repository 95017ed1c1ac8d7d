"""The service's one configuration file (TOML). Passwords are never in it: the [mail]
section names environment variables (see moderator/mail/config.py and the README)."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from moderator.mail.config import MailConfig, mail_config_from_mapping

DEFAULT_PATH = Path("moderator.toml")
DEFAULT_DATABASE = "sqlite:///var/moderator.db"


@dataclass(frozen=True)
class ServiceConfig:
    database: str = DEFAULT_DATABASE
    poll_seconds: float = 60
    deadline_check_seconds: float = 30
    idle: bool = True  # wait for new mail with IMAP IDLE beside the periodic poll
    archive: Path | None = None
    # Draw a map into each report (seconds of CPU per audience); `maps = false` sends the
    # reports without them (a slow host, or the fault tests, which check no map).
    maps: bool = True
    # Where `resolve` writes the reports of a game when there is no [mail] section to send
    # them: [service] reports, else a "reports" folder beside a SQLite database, else var/reports.
    reports: Path = Path("var/reports")
    mail: MailConfig | None = None
    # Environment variables the [mail] section names that are not set. The offline verbs
    # (state, report, review, game, resolve...) work without them - they only queue mail;
    # the daemon, which sends it, refuses to start (see commands._service).
    missing_secrets: tuple[str, ...] = ()
    # [site] dir: where every resolution publishes each game's public page (service/site.py).
    site: Path | None = None


class _Lenient(dict[str, str]):
    """The environment, with "" for a password variable that is not set (and a note of it)."""

    def __init__(self, env: Mapping[str, str]) -> None:
        super().__init__(env)
        self.missing: list[str] = []

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        if key not in self:
            self.missing.append(key)
            return ""
        return super().get(key, default)


def load_config(path: Path | None = None, environ: Mapping[str, str] | None = None) -> ServiceConfig:
    """Read the file at `path` (default: $MODERATOR_CONFIG or ./moderator.toml).

    A missing default file gives the defaults (a local SQLite database, no mail): enough
    for `game new`, `seat add`, `check`, `resolve` and the other offline verbs.
    """
    env = environ if environ is not None else os.environ
    explicit = path is not None or "MODERATOR_CONFIG" in env
    path = path or Path(env.get("MODERATOR_CONFIG", DEFAULT_PATH))
    if not path.exists():
        if explicit:
            raise FileNotFoundError(f"configuration file {str(path)!r} does not exist")
        return ServiceConfig(reports=reports_beside(DEFAULT_DATABASE))
    with path.open("rb") as fh:
        doc = tomllib.load(fh)
    service = doc.get("service", {})
    mail = doc.get("mail")
    site = doc.get("site")
    archive = service.get("archive")
    lenient = _Lenient(env)
    database = str(service.get("database", DEFAULT_DATABASE))
    return ServiceConfig(
        database=database,
        reports=Path(service["reports"]) if service.get("reports") else reports_beside(database),
        poll_seconds=float(service.get("poll_seconds", 60)),
        deadline_check_seconds=float(service.get("deadline_check_seconds", 30)),
        idle=bool(service.get("idle", True)),
        archive=Path(archive) if archive else None,
        maps=bool(service.get("maps", True)),
        mail=mail_config_from_mapping(mail, lenient, where=f"{path} [mail]") if isinstance(mail, dict) else None,
        missing_secrets=tuple(lenient.missing),
        site=Path(site["dir"]) if isinstance(site, dict) and site.get("dir") else None,
    )


def reports_beside(database: str) -> Path:
    """The default folder for report files: "reports" beside a SQLite database file."""
    if database.startswith("sqlite:///"):
        return Path(database.removeprefix("sqlite:///")).parent / "reports"
    return Path("var/reports")
