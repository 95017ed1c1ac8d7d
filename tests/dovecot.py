"""A real Dovecot 2.3 on a loopback port for the integration tests (tests/test_dovecot.py).

Dovecot comes from Debian's package (`make integration-servers` installs it where apt-get
runs as root); without it the tests are skipped and say why. Each test module gets its own
Dovecot: its own configuration, maildirs and port under a temporary directory, started in
the foreground as a child process and stopped by its process id. Under root the mail
belongs to `nobody` (Dovecot refuses uid 0 for mail); otherwise to the user running the tests.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from moderator.mail.config import Secret, ServerConfig

LMTP = "/usr/lib/dovecot/lmtp"

CONFIG = """\
protocols = imap lmtp
listen = 127.0.0.1
postmaster_address = postmaster@t.local
base_dir = {root}/run
state_dir = {root}/state
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
log_path = {root}/dovecot.log
mail_location = maildir:{root}/mail/%u
mail_uid = {uid}
mail_gid = {gid}
first_valid_uid = {uid}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/users
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    port = 0
  }}
}}
service anvil {{
  chroot =
}}
service lmtp {{
  inet_listener lmtp {{
    address = 127.0.0.1
    port = {lmtp_port}
  }}
}}
namespace inbox {{
  inbox = yes
  separator = /
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def missing() -> str:
    """Why Dovecot cannot run here, or ""."""
    if shutil.which("dovecot") is None or shutil.which("doveadm") is None or not Path(LMTP).exists():
        return ("Dovecot is not installed: `make integration-servers` installs Debian's dovecot-imapd and "
                "dovecot-lmtpd (apt-get, as root)")
    return ""


@dataclass
class Dovecot:
    root: Path
    port: int
    lmtp_port: int
    process: subprocess.Popen[bytes]
    users: dict[str, str]

    def imap(self, address: str) -> ServerConfig:
        return ServerConfig("127.0.0.1", self.port, user=address, password=Secret(self.users[address]), timeout=10.0)

    def doveadm(self, *args: str) -> str:
        return subprocess.run(["doveadm", "-c", str(self.root / "dovecot.conf"), *args], check=True,
                              capture_output=True, text=True, timeout=60).stdout

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def start(users: dict[str, str]) -> Dovecot:
    root = Path(tempfile.mkdtemp(prefix="moderator-dovecot-"))
    root.chmod(0o755)  # the mail user (nobody under root) must reach its maildir
    for sub in ("run", "state", "mail"):
        (root / sub).mkdir()
    if os.getuid() == 0:
        nobody = pwd.getpwnam("nobody")
        uid, gid = nobody.pw_uid, nobody.pw_gid
        os.chown(root / "mail", uid, gid)
    else:
        uid, gid = os.getuid(), os.getgid()
    port, lmtp_port = free_port(), free_port()
    (root / "users").write_text("".join(f"{a}:{{PLAIN}}{p}\n" for a, p in users.items()), encoding="utf-8")
    (root / "dovecot.conf").write_text(CONFIG.format(root=root, uid=uid, gid=gid, port=port, lmtp_port=lmtp_port), encoding="utf-8")
    process = subprocess.Popen(["dovecot", "-F", "-c", str(root / "dovecot.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Dovecot(root, port, lmtp_port, process, users)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            if process.poll() is not None:
                break
            time.sleep(0.05)
    log = (root / "dovecot.log").read_text(errors="replace") if (root / "dovecot.log").exists() else ""
    server.stop()
    raise RuntimeError(f"Dovecot did not start: {log[-2000:]}")
