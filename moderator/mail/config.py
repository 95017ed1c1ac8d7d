"""Mail account settings: where to poll (IMAP) and where to send (SMTP).

The settings live in one TOML file, but passwords never do: the file names an
environment variable (``password_env``) and the loader reads the secret from
there. A file that carries a literal ``password`` is refused, so a config file
can be committed or shared without leaking an account. Example::

    [mail]
    from_address = "moderator@example.org"      # From: of every outgoing mail
    moderator_address = "umpire@example.org"    # where quarantine notices go

    [mail.imap]
    host = "imap.example.org"
    port = 993
    user = "moderator@example.org"
    password_env = "MODERATOR_IMAP_PASSWORD"
    ssl = true                    # implicit TLS (port 993); or starttls = true on 143
    folder = "INBOX"
    processed_folder = "Processed"
    quarantine_folder = "Quarantine"

    [mail.smtp]
    host = "smtp.example.org"
    port = 587
    user = "moderator@example.org"
    password_env = "MODERATOR_SMTP_PASSWORD"
    starttls = true
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class MailConfigError(ValueError):
    """The mail configuration is incomplete or unsafe; the message says how to fix it."""


class Secret:
    """A password that never shows itself in repr(), str() or logs."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        """The secret itself: call only where it is handed to a server."""
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)


@dataclass(frozen=True)
class ServerConfig:
    """One endpoint (IMAP or SMTP). `ssl` is implicit TLS; `starttls` upgrades a plain connection."""

    host: str
    port: int
    user: str | None = None
    password: Secret | None = None
    ssl: bool = False
    starttls: bool = False
    timeout: float = 30.0


@dataclass(frozen=True)
class MailConfig:
    """Everything the mail package needs to poll and to send."""

    imap: ServerConfig
    smtp: ServerConfig
    from_address: str
    moderator_address: str
    folder: str = "INBOX"
    processed_folder: str | None = "Processed"
    quarantine_folder: str | None = "Quarantine"
    # Mail bigger than this is not fetched whole: its first bytes are kept and the sender is
    # told (a 50 MB attachment must not take the daemon's memory). [mail.imap] max_message_mb.
    max_message_bytes: int = 10 * 1024 * 1024
    # Worker processes reading a fetched batch's mails ahead of the daemon's thread (extract,
    # parse, check, receipt: service/read_ahead.py); None: one less than the machine's cores, 0: none.
    # [mail.imap] intake_workers.
    intake_workers: int | None = None

    @property
    def message_id_domain(self) -> str:
        """Domain used in our Message-IDs (RFC 5322 3.6.4): the right-hand side of From."""
        return self.from_address.rpartition("@")[2] or "localhost"


def load_mail_config(
    path: Path, section: str = "mail", environ: Mapping[str, str] | None = None
) -> MailConfig:
    """Read `[section]` of the TOML file at `path`; secrets come from `environ` (default os.environ)."""
    try:
        with path.open("rb") as handle:
            document = tomllib.load(handle)
    except FileNotFoundError as exc:
        raise MailConfigError(f"mail configuration file {str(path)!r} does not exist") from exc
    except tomllib.TOMLDecodeError as exc:
        raise MailConfigError(f"{path}: not valid TOML: {exc}") from exc
    table = document.get(section)
    if not isinstance(table, dict):
        raise MailConfigError(f"{path}: no [{section}] table; add one (see moderator/mail/config.py)")
    return mail_config_from_mapping(table, environ if environ is not None else os.environ, where=f"{path} [{section}]")


def mail_config_from_mapping(
    table: Mapping[str, Any], environ: Mapping[str, str], where: str = "[mail]"
) -> MailConfig:
    """Build a MailConfig from an already-parsed TOML table."""
    imap_table = _subtable(table, "imap", where)
    smtp_table = _subtable(table, "smtp", where)
    return MailConfig(
        imap=_server(imap_table, environ, f"{where}.imap", default_port=(993, 143)),
        smtp=_server(smtp_table, environ, f"{where}.smtp", default_port=(465, 587)),
        from_address=_required_str(table, "from_address", where),
        moderator_address=_required_str(table, "moderator_address", where),
        folder=_optional_str(imap_table, "folder", where) or "INBOX",
        processed_folder=_folder(imap_table, "processed_folder", "Processed", where),
        quarantine_folder=_folder(imap_table, "quarantine_folder", "Quarantine", where),
        max_message_bytes=_megabytes(imap_table, "max_message_mb", 10, where),
        intake_workers=_workers(imap_table, "intake_workers", where),
    )


def _workers(table: Mapping[str, Any], key: str, where: str) -> int | None:
    value = table.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise MailConfigError(f"{where}: {key} must be a number of worker processes (0 for none), got {value!r}")
    return value


def _megabytes(table: Mapping[str, Any], key: str, default: int | float, where: str) -> int:
    value = table.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise MailConfigError(f"{where}: {key} must be a positive number of megabytes, got {value!r}")
    return int(value * 1024 * 1024)


def _subtable(table: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value = table.get(key)
    if not isinstance(value, dict):
        raise MailConfigError(f"{where}: missing table [{key}] (host, port, user, password_env, ssl/starttls)")
    return value


def _server(
    table: Mapping[str, Any], environ: Mapping[str, str], where: str, default_port: tuple[int, int]
) -> ServerConfig:
    if "password" in table:
        raise MailConfigError(
            f"{where}: a literal 'password' is not allowed in the file; "
            "put it in an environment variable and name it with password_env = \"VAR\""
        )
    use_ssl = _bool(table, "ssl", where)
    starttls = _bool(table, "starttls", where)
    if use_ssl and starttls:
        raise MailConfigError(f"{where}: choose one of ssl = true (implicit TLS) or starttls = true, not both")
    port = table.get("port", default_port[0] if use_ssl else default_port[1])
    if not isinstance(port, int) or not 0 < port < 65536:
        raise MailConfigError(f"{where}: port must be a number from 1 to 65535, got {port!r}")
    timeout = table.get("timeout", 30.0)
    if not isinstance(timeout, int | float) or timeout <= 0:
        raise MailConfigError(f"{where}: timeout must be a positive number of seconds, got {timeout!r}")
    return ServerConfig(
        host=_required_str(table, "host", where),
        port=port,
        user=_optional_str(table, "user", where),
        password=_password(table, environ, where),
        ssl=use_ssl,
        starttls=starttls,
        timeout=float(timeout),
    )


def _password(table: Mapping[str, Any], environ: Mapping[str, str], where: str) -> Secret | None:
    variable = _optional_str(table, "password_env", where)
    if variable is None:
        return None
    value = environ.get(variable)
    if value is None:
        raise MailConfigError(
            f"{where}: password_env names the environment variable {variable!r}, which is not set; "
            f"export {variable}=... before starting the service"
        )
    return Secret(value)


def _required_str(table: Mapping[str, Any], key: str, where: str) -> str:
    value = _optional_str(table, key, where)
    if not value:
        raise MailConfigError(f"{where}: {key} is required (a non-empty string)")
    return value


def _optional_str(table: Mapping[str, Any], key: str, where: str) -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise MailConfigError(f"{where}: {key} must be a string, got {value!r}")
    return value


def _bool(table: Mapping[str, Any], key: str, where: str) -> bool:
    value = table.get(key, False)
    if not isinstance(value, bool):
        raise MailConfigError(f"{where}: {key} must be true or false, got {value!r}")
    return value


def _folder(table: Mapping[str, Any], key: str, default: str, where: str) -> str | None:
    """A folder name, or None when set to "" (the server has no folders: mark \\Seen only)."""
    if key not in table:
        return default
    return _optional_str(table, key, where) or None
