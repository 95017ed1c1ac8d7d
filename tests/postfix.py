"""A real Postfix 3.7 on a loopback port for the integration tests, delivering over LMTP
into the Dovecot of tests/dovecot.py: mail reaches the moderator's mailbox the way it does
on a production host, queue and all (and a burst in whatever order Postfix's queue
manager delivers it).

Postfix runs only as root (its master drops to the `postfix` user); elsewhere, or without
Debian's package (`make integration-servers`), the tests that need it are skipped and say
why. Each instance has its own configuration and queue directory under a temporary
directory and is stopped with `postfix -c DIR stop`, which signals only that instance's master.
"""

from __future__ import annotations

import os
import shutil
import smtplib
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.dovecot import free_port

MASTER = """\
127.0.0.1:{port} inet n - n - - smtpd
pickup    unix  n - n 60 1 pickup
cleanup   unix  n - n - 0 cleanup
qmgr      unix  n - n 300 1 qmgr
rewrite   unix  - - n - - trivial-rewrite
bounce    unix  - - n - 0 bounce
defer     unix  - - n - 0 bounce
trace     unix  - - n - 0 bounce
verify    unix  - - n - 1 verify
flush     unix  n - n 1000? 0 flush
proxymap  unix  - - n - - proxymap
smtp      unix  - - n - - smtp
relay     unix  - - n - - smtp
showq     unix  n - n - - showq
error     unix  - - n - - error
retry     unix  - - n - - error
discard   unix  - - n - - discard
lmtp      unix  - - n - - lmtp
anvil     unix  - - n - 1 anvil
scache    unix  - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
"""

MAIN = """\
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.t.local
mydomain = t.local
myorigin = t.local
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
relay_domains =
virtual_mailbox_domains = t.local
virtual_transport = lmtp:inet:127.0.0.1:{lmtp_port}
maillog_file_prefixes = {root}
maillog_file = {root}/maillog
smtputf8_enable = no
biff = no
append_dot_mydomain = no
smtpd_relay_restrictions = permit_mynetworks, reject
alias_maps =
alias_database =
local_recipient_maps =
"""


def missing() -> str:
    if shutil.which("postfix") is None:
        return "Postfix is not installed: `make integration-servers` installs Debian's postfix (apt-get, as root)"
    if os.getuid() != 0:
        return "Postfix runs only as root; these tests run as another user"
    return ""


@dataclass
class Postfix:
    root: Path
    port: int

    def _postfix(self, verb: str) -> None:
        # `script` gives postfix a terminal: its messages then go to stderr, not to a syslog
        # that may not exist.
        subprocess.run(["script", "-qec", f"postfix -c {self.root / 'etc'} {verb}", "/dev/null"], check=True,
                       capture_output=True, timeout=60)

    def send(self, sender: str, to: str, raw: bytes) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=30) as smtp:
            smtp.sendmail(sender, [to], raw)

    def stop(self) -> None:
        try:
            self._postfix("stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start(lmtp_port: int) -> Postfix:
    root = Path(tempfile.mkdtemp(prefix="moderator-postfix-"))
    root.chmod(0o755)
    for sub in ("etc", "queue", "data"):
        (root / sub).mkdir()
    shutil.chown(root / "data", user="postfix")
    port = free_port()
    (root / "etc" / "master.cf").write_text(MASTER.format(port=port), encoding="utf-8")
    (root / "etc" / "main.cf").write_text(MAIN.format(root=root, lmtp_port=lmtp_port), encoding="utf-8")
    server = Postfix(root, port)
    server._postfix("start")
    for _ in range(200):
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=2):
                return server
        except OSError:
            time.sleep(0.05)
    log = (root / "maillog").read_text(errors="replace") if (root / "maillog").exists() else ""
    server.stop()
    raise RuntimeError(f"Postfix did not start: {log[-2000:]}")
