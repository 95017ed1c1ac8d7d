"""The embedded local mail server: IMAP (pymap, maildir backend) plus SMTP (aiosmtpd) on loopback.

Used by `make run`, the demo and the tests, so the service talks to a real
IMAP/SMTP server without any outside account. Each user is an e-mail address
with a password; mail accepted by SMTP for a known address is appended to that
user's INBOX, where IMAP serves it.

Why in-process, one thread, one event loop: pymap is an asyncio library and
aiosmtpd's SMTP class is an asyncio protocol, so both servers can share one
loop in one background thread. Delivery then goes through pymap's own session
API (the same path as IMAP APPEND), so pymap's UID lists and flags stay
consistent - writing files into the maildir behind pymap's back would not be
safe. Binding port 0 ourselves lets the OS pick free ports and we read them
back, which a `pymap` subprocess could not report reliably. Startup takes a
few tens of milliseconds instead of a subprocess's interpreter start.
"""

from __future__ import annotations

import asyncio
import re
import ssl
import threading
from argparse import Namespace
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from proxyprotocol.reader import ProxyProtocolReader
from pymap.backend.maildir import Config as MaildirConfig
from pymap.backend.maildir import Identity, Login
from pymap.concurrent import Subsystem
from pymap.frozen import frozendict
from pymap.imap import IMAPServer
from pymap.parsing.message import AppendMessage
from pymap.parsing.specials import ExtensionOptions
from pymap.user import Passwords, UserMetadata
from pysasl.hashing import BuiltinHash

from moderator.mail.config import MailConfig, Secret, ServerConfig

_STARTUP_TIMEOUT = 30.0
# pymap's default is 500,000 PBKDF2 rounds: about 0.2 s of CPU for every login and every user
# created. This server holds demo and test mailboxes on loopback, so a lighter hash (still
# salted, never plain text on disk) keeps startup and each poll fast on a small machine.
_LOCAL_HASH_ROUNDS = 10_000


class MailServerError(RuntimeError):
    """The embedded mail server could not start or was used wrongly."""


@dataclass(frozen=True)
class Ports:
    imap: int
    smtp: int


class _LocalConfig(MaildirConfig):
    """pymap's maildir config with a fixed greeting: the default looks up the host's FQDN on
    every connection, which can stall for seconds on machines without working DNS."""

    @property
    def greeting(self) -> bytes:
        return b"Server ready (moderator embedded IMAP)"


class EmbeddedMailServer:
    """Local IMAP+SMTP server. Use as a context manager or call start()/stop()."""

    def __init__(
        self,
        root: Path,
        host: str = "127.0.0.1",
        imap_port: int = 0,
        smtp_port: int = 0,
        users: Mapping[str, str] | None = None,
    ) -> None:
        self.root = Path(root)
        self.host = host
        self._wanted = Ports(imap_port, smtp_port)
        self._users = {address.lower(): password for address, password in (users or {}).items()}
        self._ports: Ports | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stack: AsyncExitStack | None = None
        self._config: _LocalConfig | None = None
        self._executors: list[ThreadPoolExecutor] = []

    # -- public API -------------------------------------------------------------------------

    @property
    def imap_port(self) -> int:
        return self._running_ports().imap

    @property
    def smtp_port(self) -> int:
        return self._running_ports().smtp

    @property
    def users(self) -> list[str]:
        """The known addresses (which are also the IMAP login names), sorted."""
        return sorted(self._users)

    def start(self) -> EmbeddedMailServer:
        """Start both servers in a background thread; returns when they accept connections."""
        if self._thread is not None:
            raise MailServerError("the embedded mail server is already running")
        self.root.mkdir(parents=True, exist_ok=True)
        started = threading.Event()
        outcome: dict[str, Any] = {}

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            asyncio.set_event_loop(loop)
            try:
                outcome["ports"] = loop.run_until_complete(self._open())
            except BaseException as exc:  # report any startup failure to the starting thread
                outcome["error"] = exc
                loop.run_until_complete(self._close())  # release a port already bound
                loop.close()
                self._loop = None
                started.set()
                return
            started.set()
            loop.run_forever()
            loop.run_until_complete(self._close())
            loop.close()

        self._thread = threading.Thread(target=run, name="embedded-mail-server", daemon=True)
        self._thread.start()
        if not started.wait(_STARTUP_TIMEOUT) or "error" in outcome:
            self._thread.join(timeout=5)
            self._thread = None
            error = outcome.get("error")
            raise MailServerError(f"embedded mail server failed to start: {error!r}") from error
        self._ports = outcome["ports"]
        return self

    def stop(self) -> None:
        """Close both servers and wait for the thread; safe to call twice."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        for executor in self._executors:
            executor.shutdown(wait=False, cancel_futures=True)
        self._executors.clear()
        self._thread = None
        self._loop = None
        self._ports = None

    def add_user(self, address: str, password: str) -> None:
        """Create (or reset the password of) a mailbox while the server runs."""
        loop = self._loop
        if loop is None:
            self._users[address.lower()] = password
            return
        future = asyncio.run_coroutine_threadsafe(self._create_user(address.lower(), password), loop)
        future.result(timeout=_STARTUP_TIMEOUT)
        self._users[address.lower()] = password

    def client_config(self, address: str, password: str, moderator_address: str | None = None) -> MailConfig:
        """A MailConfig that polls `address`'s INBOX here and sends through this server."""
        host = self.host
        imap = ServerConfig(host, self.imap_port, user=address, password=Secret(password), timeout=10.0)
        smtp = ServerConfig(host, self.smtp_port, timeout=10.0)
        return MailConfig(imap=imap, smtp=smtp, from_address=address, moderator_address=moderator_address or address)

    def __enter__(self) -> EmbeddedMailServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:  # passwords stay out of logs
        state = f"imap={self._ports.imap} smtp={self._ports.smtp}" if self._ports else "stopped"
        return f"EmbeddedMailServer(root={str(self.root)!r}, host={self.host!r}, {state}, users={self.users})"

    # -- inside the server thread -----------------------------------------------------------

    def _running_ports(self) -> Ports:
        if self._ports is None:
            raise MailServerError("the embedded mail server is not running; call start() first")
        return self._ports

    async def _open(self) -> Ports:
        self._config = self._make_config()
        # pymap reads its executor from a context variable; setting it here, before the
        # servers exist, makes every connection task inherit it.
        self._config.apply_context()
        for address, password in sorted(self._users.items()):
            await self._create_user(address, password)
        stack = AsyncExitStack()
        self._stack = stack
        login = Login(self._config)
        imap_callback = ProxyProtocolReader(self._config.proxy_protocol).get_callback(
            IMAPServer(login, self._config)
        )
        imap = await asyncio.start_server(imap_callback, host=self.host, port=self._wanted.imap)
        await stack.enter_async_context(imap)
        loop = asyncio.get_running_loop()
        handler = _DeliveryHandler(self)
        smtp = await loop.create_server(
            lambda: SMTP(
                handler,
                hostname="localhost",
                ident="moderator embedded SMTP",
                authenticator=handler.authenticate,
                auth_require_tls=False,  # loopback only; lets a config with smtp user/password work
                loop=loop,
            ),
            host=self.host,
            port=self._wanted.smtp,
        )
        await stack.enter_async_context(smtp)
        return Ports(imap.sockets[0].getsockname()[1], smtp.sockets[0].getsockname()[1])

    async def _close(self) -> None:
        if self._stack is not None:
            await self._stack.aclose()
            self._stack = None
        # Closing a listening server leaves open client connections running; end them so the
        # loop closes cleanly instead of warning about destroyed pending tasks.
        current = asyncio.current_task()
        pending = [task for task in asyncio.all_tasks() if task is not current]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def _make_config(self) -> _LocalConfig:
        io_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pymap-io")
        cpu_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pymap-cpu")
        self._executors += [io_pool, cpu_pool]
        # pymap's config reads a few optional command-line attributes; give it neutral ones.
        args = Namespace(passlib_cfg=None, proxy_protocol=None, inherited_sockets=None, debug=False)
        return _LocalConfig(
            args,
            host=self.host,
            port=0,
            base_dir=str(self.root),
            layout="++",
            colon=None,
            subsystem=Subsystem.for_executor(io_pool),
            cpu_subsystem=Subsystem.for_executor(cpu_pool),
            ssl_context=ssl.create_default_context(ssl.Purpose.CLIENT_AUTH),
            tls_enabled=False,  # plain LOGIN on loopback; no certificate to manage
            hash_context=BuiltinHash(rounds=_LOCAL_HASH_ROUNDS),
            reject_dnsbl=False,
            invalid_user_sleep=0.05,
        )

    def _identity(self, address: str) -> Identity:
        assert self._config is not None
        login = Login(self._config)
        # The "admin" role is what pymap's own admin tool uses to create users and deliver mail.
        return Identity(self._config, login.tokens, address, None, {"admin"})

    async def _create_user(self, address: str, password: str) -> None:
        assert self._config is not None
        hashed = await Passwords(self._config).hash_password(password)
        metadata = UserMetadata(
            self._config, address, password=hashed, params=frozendict({"mailbox_path": _mailbox_dir(address)})
        )
        await self._identity(address).set(metadata)

    async def deliver(self, address: str, raw: bytes) -> None:
        """Append one message to the INBOX of `address` (called on the server loop)."""
        message = AppendMessage(raw, datetime.now(UTC), frozenset(), ExtensionOptions.empty())
        async with self._identity(address).new_session() as session:
            await session.append_messages("INBOX", [message])

    def knows(self, address: str) -> bool:
        return address.lower() in self._users

    def password_matches(self, address: str, password: str) -> bool:
        return self._users.get(address.lower()) == password


class _DeliveryHandler:
    """aiosmtpd hooks: accept only local recipients, deliver each accepted message into INBOX."""

    def __init__(self, server: EmbeddedMailServer) -> None:
        self._server = server

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's hook name)
        self, server: SMTP, session: Session, envelope: Envelope, address: str, rcpt_options: list[str]
    ) -> str:
        if not self._server.knows(address):
            return f"550 5.1.1 <{address}>: no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(  # noqa: N802 (aiosmtpd's hook name)
        self, server: SMTP, session: Session, envelope: Envelope
    ) -> str:
        content = envelope.original_content or b""
        # The final delivery agent records the envelope sender (RFC 5321 4.4); an empty one,
        # "<>", marks a bounce, which extract.py uses to avoid replying to robots.
        # aiosmtpd reports the null sender as the literal "<>".
        reverse_path = (envelope.mail_from or "").strip().removeprefix("<").removesuffix(">")
        raw = b"Return-Path: <" + reverse_path.encode("utf-8", "replace") + b">\r\n" + content
        for address in sorted({a.lower() for a in envelope.rcpt_tos}):
            await self._server.deliver(address, raw)
        return "250 2.0.0 delivered"

    def authenticate(
        self, server: SMTP, session: Session, envelope: Envelope, mechanism: str, auth_data: Any
    ) -> AuthResult:
        if isinstance(auth_data, LoginPassword):
            login = auth_data.login.decode("utf-8", "replace")
            if self._server.password_matches(login, auth_data.password.decode("utf-8", "replace")):
                return AuthResult(success=True, auth_data=login)
        return AuthResult(success=False, handled=False)


def _mailbox_dir(address: str) -> str:
    """A file-system-safe directory name for a user's maildir, relative to the server root."""
    return re.sub(r"[^a-z0-9@._+-]", "_", address.lower())

