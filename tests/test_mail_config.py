"""Mail configuration: secrets from the environment only, clear errors, no secrets in repr."""

from __future__ import annotations

from pathlib import Path

import pytest

from moderator.mail.config import MailConfigError, Secret, load_mail_config

GOOD = """
[mail]
from_address = "moderator@example.org"
moderator_address = "umpire@example.org"

[mail.imap]
host = "imap.example.org"
user = "moderator@example.org"
password_env = "TEST_IMAP_PW"
ssl = true
processed_folder = ""

[mail.smtp]
host = "smtp.example.org"
port = 2525
user = "moderator@example.org"
password_env = "TEST_SMTP_PW"
starttls = true
"""
ENV = {"TEST_IMAP_PW": "imap-s3cret", "TEST_SMTP_PW": "smtp-s3cret"}


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "moderator.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_loads_and_reads_secrets_from_environment(tmp_path: Path) -> None:
    config = load_mail_config(_write(tmp_path, GOOD), environ=ENV)
    assert config.imap.host == "imap.example.org" and config.imap.port == 993 and config.imap.ssl
    assert config.smtp.port == 2525 and config.smtp.starttls and not config.smtp.ssl
    assert config.imap.password == Secret("imap-s3cret")
    assert config.smtp.password is not None and config.smtp.password.reveal() == "smtp-s3cret"
    assert config.folder == "INBOX" and config.processed_folder is None and config.quarantine_folder == "Quarantine"
    assert config.message_id_domain == "example.org"


def test_repr_and_str_hide_secrets(tmp_path: Path) -> None:
    config = load_mail_config(_write(tmp_path, GOOD), environ=ENV)
    for shown in (repr(config), str(config), repr(config.imap), f"{config.smtp.password}"):
        assert "s3cret" not in shown
    assert "imap.example.org" in repr(config)


def test_missing_environment_variable_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MailConfigError, match="TEST_SMTP_PW.*not set"):
        load_mail_config(_write(tmp_path, GOOD), environ={"TEST_IMAP_PW": "x"})


def test_literal_password_in_file_is_refused(tmp_path: Path) -> None:
    text = GOOD.replace('password_env = "TEST_IMAP_PW"', 'password = "oops"')
    with pytest.raises(MailConfigError, match="password_env"):
        load_mail_config(_write(tmp_path, text), environ=ENV)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('port = 2525', 'port = 99999', "port"),
        ('starttls = true', 'starttls = true\nssl = true', "not both"),
        ('host = "smtp.example.org"', '', "host is required"),
        ('from_address = "moderator@example.org"', 'from_address = 7', "from_address must be a string"),
        ('[mail.smtp]', '[mail.other]', r"\[smtp\]"),
        ('processed_folder = ""', 'processed_folder = ""\nmax_message_mb = 0', "max_message_mb"),
        ('processed_folder = ""', 'processed_folder = ""\nintake_workers = -1', "intake_workers"),
        ('processed_folder = ""', 'processed_folder = ""\nintake_workers = 1.5', "intake_workers"),
    ],
)
def test_bad_values_name_the_problem(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(MailConfigError, match=message):
        load_mail_config(_write(tmp_path, GOOD.replace(old, new)), environ=ENV)


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(MailConfigError, match="does not exist"):
        load_mail_config(tmp_path / "absent.toml", environ=ENV)
    with pytest.raises(MailConfigError, match="not valid TOML"):
        load_mail_config(_write(tmp_path, "[mail\n"), environ=ENV)
    with pytest.raises(MailConfigError, match=r"no \[mail\] table"):
        load_mail_config(_write(tmp_path, "[other]\n"), environ=ENV)


def test_no_password_env_means_no_login(tmp_path: Path) -> None:
    text = GOOD.replace('password_env = "TEST_SMTP_PW"\n', "")
    assert load_mail_config(_write(tmp_path, text), environ=ENV).smtp.password is None


def test_the_size_cap_is_ten_megabytes_unless_set(tmp_path: Path) -> None:
    assert load_mail_config(_write(tmp_path, GOOD), environ=ENV).max_message_bytes == 10 * 1024 * 1024
    text = GOOD.replace('processed_folder = ""', 'processed_folder = ""\nmax_message_mb = 2.5')
    assert load_mail_config(_write(tmp_path, text), environ=ENV).max_message_bytes == int(2.5 * 1024 * 1024)


def test_the_read_ahead_workers_are_the_machines_unless_set(tmp_path: Path) -> None:
    """[mail.imap] intake_workers: the processes reading mail ahead (service/read_ahead.py);
    unset, one less than the cores (None here), 0 for none."""
    assert load_mail_config(_write(tmp_path, GOOD), environ=ENV).intake_workers is None
    text = GOOD.replace('processed_folder = ""', 'processed_folder = ""\nintake_workers = 0')
    assert load_mail_config(_write(tmp_path, text), environ=ENV).intake_workers == 0
