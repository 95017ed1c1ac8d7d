"""A real PostgreSQL server on a free loopback port for the tests that need one.

PostgreSQL comes from the system (Debian's package: `make postgres-server` installs it where
apt-get runs as root; its programs live in /usr/lib/postgresql/<version>/bin); without it
those tests are skipped and say why. The server is a child process of the test run, with
its own cluster in a temporary directory, stopped by its process id at the end. Under root
the cluster belongs to `nobody` (initdb refuses to run as root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PROGRAMS = ("initdb", "postgres")


def bin_dir() -> Path | None:
    """Where initdb and postgres are: on PATH, or Debian's versioned folder (newest first)."""
    found = shutil.which("initdb")
    if found and shutil.which("postgres"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if all((Path(folder) / p).exists() for p in PROGRAMS):
            return Path(folder)
    return None


def missing() -> str:
    """Why the PostgreSQL tests cannot run here, or ""."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'psycopg[binary]', part of the dev extras)"
    if bin_dir() is None:
        return ("PostgreSQL is not installed (`make postgres-server` installs Debian's package where apt-get "
                "runs as root; or apt-get install postgresql)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("nobody")
        except KeyError:
            return "running as root without a `nobody` user to own the PostgreSQL cluster (initdb refuses root)"
    return ""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class PostgresServer:
    root: Path
    port: int
    process: subprocess.Popen[bytes]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database on this server; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown: connections still open are closed
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def start() -> PostgresServer:
    """initdb a cluster in a temporary directory and start its postgres in the background."""
    folder = bin_dir()
    assert folder is not None, missing()
    root = Path(tempfile.mkdtemp(prefix="moderator-pg-"))
    user: str | None = None
    if os.geteuid() == 0:
        user = "nobody"
        entry = pwd.getpwnam(user)
        os.chmod(root, 0o755)
        os.chown(root, entry.pw_uid, entry.pw_gid)
    data, log = root / "data", root / "postgres.log"
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    done = subprocess.run([str(folder / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                           "--encoding=UTF8", "--no-sync"], user=user, cwd=root, env=env,
                          capture_output=True, check=False)
    if done.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise RuntimeError(f"initdb failed: {done.stderr.decode(errors='replace')}")
    port = free_port()
    with open(log, "wb") as out:
        # Durability off: a test cluster lives for one run (fsync would only cost time).
        process = subprocess.Popen(
            [str(folder / "postgres"), "-D", str(data), "-p", str(port), "-k", str(root),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
             "-c", "full_page_writes=off", "-c", "max_connections=60"],
            user=user, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = PostgresServer(root, port, process)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = log.read_text(errors="replace")
            shutil.rmtree(root, ignore_errors=True)
            raise RuntimeError(f"postgres exited at start: {text[-2000:]}")
        try:
            import psycopg

            with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", connect_timeout=2):
                return server
        except Exception:  # noqa: BLE001 - still starting
            time.sleep(0.2)
    server.stop()
    raise RuntimeError("postgres did not accept connections within 60 s")


@contextmanager
def killed_after(script: str) -> Iterator[list[str]]:
    """Run `script` in another Python process (a daemon that takes a lock and prints what it
    got), yield the words of its first line, then kill it with -9: a crash, so the
    tests see what its dead connection leaves behind."""
    import sys

    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        yield child.stdout.readline().split()
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
