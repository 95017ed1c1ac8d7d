"""The repository: every read and write of the database goes through Store.

SQLite file by default (var/moderator.db); any SQLAlchemy URL works (PostgreSQL with
postgresql+psycopg://...). Callers get plain values or table rows detached from the
session, so no session leaks out of this module.
"""

from __future__ import annotations

import fcntl
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, Insert, Update, bindparam, event, func, text
from sqlalchemy import insert as sa_insert
from sqlalchemy import select as sa_select
from sqlalchemy import update as sa_update
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, SQLModel, col, create_engine, select

from moderator.mail.extract import message_id_of
from moderator.store import direct
from moderator.store.migrate import migrate
from moderator.store.tables import (
    AuthFailure,
    Game,
    MailMessage,
    PoolEntry,
    ReviewItem,
    Ruling,
    Seat,
    Setting,
    Snapshot,
    Submission,
    TurnRecord,
)

_HASH_ITERATIONS = 120_000
T = TypeVar("T", bound=SQLModel)
M = TypeVar("M")
_MEMO = "moderator-memo"  # Session.info key of Store._memo's reads
# The tables whose rows Store._memo keeps for a transaction: a flush that writes any of them
# forgets the memo. (Submissions are written in Core by Store.submit, which keeps its own
# reads up to date; one written through the ORM forgets them all.)
_MEMO_TABLES = (Game, Seat, Setting, Snapshot, Ruling, Submission)
_GATHERED = "moderator-gathered"  # Session.info key of Store.gathering's (row id, changes)
_DRIVER = "moderator-driver"  # Session.info key of the transaction's sqlite3 connection (Store._driver)
_UNKNOWN = object()  # a memo entry not read yet


# The statements every order mail runs, built once: SQLAlchemy builds a Core statement in
# about 0.1 ms, four times what executing a built one through its compiled cache costs, and
# an order mail ran eight of them (docs/benchmarks.md, issue 11 round 3).
_MAILS = MailMessage.__table__  # type: ignore[attr-defined]
_SUBMISSIONS = Submission.__table__  # type: ignore[attr-defined]
_AUTH_FAILURES = AuthFailure.__table__  # type: ignore[attr-defined]
_TURNS = TurnRecord.__table__  # type: ignore[attr-defined]
_FIRST_WITH_MESSAGE_ID = (sa_select(_MAILS.c.id).where(_MAILS.c.direction == "in",
                                                       _MAILS.c.message_id == bindparam("message_id"),
                                                       _MAILS.c.id < bindparam("before"))
                          .order_by(_MAILS.c.id).limit(1))
_FIRST_IDS = (sa_select(_MAILS.c.message_id, func.min(_MAILS.c.id))
              .where(_MAILS.c.direction == "in", _MAILS.c.message_id.in_(bindparam("message_ids", expanding=True)))
              .group_by(_MAILS.c.message_id))
# Refused attempts at a seat from one sender (the throttle per sender). The desk's (the
# moderator's password, service/review_mail.py) are kept in the same table but throttled on
# their own: counted here, five wrong desk passwords from the moderator's address would hold
# the moderator's own orders for a seat she plays (issue 11).
SEAT_REASONS = ("secret", "address")
_REFUSED_AT = (sa_select(_AUTH_FAILURES.c.at).where(_AUTH_FAILURES.c.sender == bindparam("sender"),
                                                    _AUTH_FAILURES.c.reason.in_(SEAT_REASONS))
               .order_by(_AUTH_FAILURES.c.id.desc()).limit(bindparam("limit")))
# Refused password attempts at one seat, whoever sent them (the throttle per target seat).
_REFUSED_AT_SEAT = (sa_select(_AUTH_FAILURES.c.at).where(_AUTH_FAILURES.c.game_id == bindparam("game_id"),
                                                         _AUTH_FAILURES.c.nation == bindparam("nation"),
                                                         _AUTH_FAILURES.c.reason == bindparam("reason"))
                    .order_by(_AUTH_FAILURES.c.id.desc()).limit(bindparam("limit")))
_REPLIES_AT = (sa_select(_MAILS.c.received).where(_MAILS.c.answers == bindparam("answers"))
               .order_by(_MAILS.c.id.desc()).limit(bindparam("limit")))
_CURRENT_SUBMISSIONS = sa_select(_SUBMISSIONS).where(
    _SUBMISSIONS.c.game_id == bindparam("game_id"), _SUBMISSIONS.c.nation == bindparam("nation"),
    _SUBMISSIONS.c.turn == bindparam("turn"), _SUBMISSIONS.c.current.is_(True))
_QUEUED_GAMES = sa_select(_MAILS.c.game_id).where(_MAILS.c.direction == "out", _MAILS.c.status == "queued").distinct()
_SETTINGS = Setting.__table__  # type: ignore[attr-defined]
_TAKE_SETTING = (sa_update(_SETTINGS).where(_SETTINGS.c.key == bindparam("the_key"),
                                           _SETTINGS.c.value == bindparam("held"))
                 .values(value=""))


@lru_cache(maxsize=16)
def _row_insert(table: Any) -> Insert:
    """INSERT of one row of `table` (Store._insert_row off SQLite), built once."""
    return sa_insert(table)


@lru_cache(maxsize=64)
def _row_update(table: Any, fields: tuple[str, ...]) -> Update:
    """UPDATE of these fields of one row of `table` by its id (Store._update_row), built once."""
    return (sa_update(table).where(table.c.id == bindparam("row_id"))
            .values({f: bindparam(f"new_{f}", type_=table.c[f].type) for f in fields}))


def _forget_settled_rows(session: Session, _context: Any, _instances: Any) -> None:
    if _MEMO in session.info and any(isinstance(row, _MEMO_TABLES)
                                     for row in (*session.new, *session.dirty, *session.deleted)):
        del session.info[_MEMO]


def utcnow() -> datetime:
    return datetime.now(UTC)


def hash_secret(secret: str, salt: str | None = None) -> str:
    """Salted PBKDF2 of a seat password; the password itself is never stored."""
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt.encode(), _HASH_ITERATIONS).hex()
    return f"pbkdf2${salt}${digest}"


# Passwords this process has verified, as a keyed digest of (stored hash, password): a
# seat's second mail in a burst is not made to pay PBKDF2 again (125 ms of CPU, most of a
# message's cost), while every wrong guess still does. Memory only, forgotten at exit.
_VERIFIED_KEY = secrets.token_bytes(32)
_verified: set[bytes] = set()
_VERIFIED_MAX = 10_000


def verify_secret(secret: str, stored: str) -> bool:
    try:
        _, salt, _digest = stored.split("$", 2)
    except ValueError:
        return False
    key = hmac.digest(_VERIFIED_KEY, f"{stored}\0{secret}".encode(), "sha256")  # (one C call, not an HMAC object)
    if key in _verified:
        return True
    if not hmac.compare_digest(hash_secret(secret, salt), stored):
        return False
    if len(_verified) >= _VERIFIED_MAX:
        _verified.clear()
    _verified.add(key)
    return True


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """Every SQLite connection: write-ahead log (readers never block the writer, a crash
    never tears a commit), synchronous=FULL (a commit is on disk before it returns, so a
    power cut after "sent" or "stored" cannot undo it), and a wait instead of an error when
    another process (a CLI verb beside the daemon) holds the write lock for a moment.

    temp_store=MEMORY: the journal of a SAVEPOINT (one a mail, Store.savepoint) is kept in
    memory, not in a temporary file. Debian's SQLite is built to put it in a file, so every
    mail paid five to six writes to /var/tmp, and a new file per transaction (issue 11, round
    11). That journal only undoes a savepoint inside a live transaction; what survives a
    crash is the write-ahead log's, so nothing about durability changes."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA temp_store=MEMORY")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=OFF")
    cursor.close()


def _driver_statement(sql: str) -> Callable[[Any, str], None]:
    """A dialect's do_savepoint (and kin) for SQLite: `sql` with the savepoint's name, run on
    the driver's connection under SQLAlchemy's (Store.__init__)."""
    def run(connection: Any, name: str) -> None:
        direct.driver_of(connection).execute(sql.format(name))

    return run


def _aware(moment: datetime) -> datetime:
    """SQLite gives datetimes back without their zone; every one we store is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Incoming:
    """A fetched message as store_incoming_batch() takes it."""

    raw: bytes
    uid: int | None = None
    uidvalidity: int | None = None
    arrived: datetime | None = None
    size: int = 0


@dataclass(frozen=True)
class Held:
    """A held mail (service/inbox.py _hold) as Store.held() lists it: without its bytes, so a
    flood of held mail is listed in bounded memory."""

    id: int
    game_id: str | None
    note: str
    next_attempt: datetime | None
    arrived: datetime  # when the server received it (the row's storing time if not known)


def _storing_keys(digests: list[str], message_ids: list[str]) -> set[str]:
    """The advisory lock keys a storer takes on a shared database: each message's SHA-256
    (the same bytes fetched twice) and its Message-ID (a copy with other bytes)."""
    return set(digests) | {f"message-id|{m}" for m in message_ids if m}


class AlreadyRunning(RuntimeError):
    """Another daemon holds this database."""


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.path: Path | None = None
        if url.startswith("sqlite:///"):
            self.path = Path(url.removeprefix("sqlite:///"))
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False}
                                            if url.startswith("sqlite") else {})
        if url.startswith("sqlite"):
            # Python's sqlite3 opens transactions lazily at the first write; BEGIN IMMEDIATE at
            # the start of each unit of work takes the write lock first, so two processes never
            # both read, then both try to write (SQLite would fail one of them with "database
            # is locked" instead of waiting).
            event.listen(self.engine, "connect", _sqlite_pragmas)
            event.listen(self.engine, "connect", lambda conn, _r: setattr(conn, "isolation_level", None))
            event.listen(self.engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
            # A savepoint a mail (Store.savepoint): SQLAlchemy compiles its SAVEPOINT and RELEASE
            # anew each time (they have no cache key), 60 of the 95 us a savepoint cost; the same
            # statements, written straight to the driver. SQLAlchemy keeps the session's account
            # of the savepoint (the rows to forget if it rolls back) as before.
            for method, sql in (("do_savepoint", "SAVEPOINT {}"), ("do_release_savepoint", "RELEASE SAVEPOINT {}"),
                                ("do_rollback_to_savepoint", "ROLLBACK TO SAVEPOINT {}")):
                setattr(self.engine.dialect, method, _driver_statement(sql))
        self.upgraded = migrate(self.engine)  # the migrations an older database needed (store/migrate.py)
        # Whether other daemons may work on this database at the same time (see "several
        # daemons on one database" below). Asked several times a mail: kept, not computed.
        self.shared: bool = self.engine.dialect.name == "postgresql"
        # On SQLite the statements every mail runs go straight to the driver (store/direct.py),
        # each compiled once per table and set of fields.
        self._direct: dict[tuple[str, tuple[str, ...]], direct.Direct] | None = (
            {} if self.engine.dialect.name == "sqlite" else None)
        self._tx: ContextVar[Session | None] = ContextVar(f"store-tx-{id(self)}", default=None)
        self._lock_fd: int | None = None

    @classmethod
    def at(cls, path: Path) -> Store:
        return cls(f"sqlite:///{path}")

    @contextmanager
    def session(self) -> Iterator[Session]:
        """One session; inside transaction() the transaction's own (committed at its end)."""
        current = self._tx.get()
        if current is not None:
            yield current
            current.flush()
            return
        with Session(self.engine, expire_on_commit=False) as s:
            yield s
            s.commit()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """One unit of work: every Store call inside it joins one database transaction,
        committed when the block ends and rolled back entirely if it raises (one message
        handled with its receipt; one turn resolved with its snapshot, record and reports)."""
        if self._tx.get() is not None:  # nested: the outer unit of work commits
            yield self._tx.get()  # type: ignore[misc]
            return
        with Session(self.engine, expire_on_commit=False) as s:
            token = self._tx.set(s)
            event.listen(s, "before_flush", _forget_settled_rows)
            try:
                yield s
                s.commit()
            except BaseException:
                s.rollback()
                raise
            finally:
                self._tx.reset(token)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """Inside transaction(): a part of the unit of work that is undone alone if it raises
        (SQL SAVEPOINT), the rest of the transaction going on. One mail of a fetched batch is
        handled in one, so a batch commits once (group commit) and a failing mail rolls back
        only its own rows. Outside a transaction it is one."""
        current = self._tx.get()
        if current is None:
            with self.transaction():
                yield
            return
        nested = current.begin_nested()
        # SQLAlchemy emits the SAVEPOINT when the session next asks for its connection; the
        # writes that go straight to the driver (_driver) do not ask, so ask here: without it
        # their changes would not be undone with the rest.
        current.connection()
        try:
            yield
            current.flush()
        except BaseException:
            nested.rollback()
            current.info.pop(_MEMO, None)  # what was read inside it may have been undone
            for held in list(current.identity_map.values()):  # and messages' rows changed by update_message
                if isinstance(held, MailMessage):
                    current.expire(held)
            raise
        nested.commit()

    def lock_for_daemon(self) -> None:
        """Hold an exclusive lock for as long as this process runs: a second daemon on the same
        database refuses to start (two would resolve the same turn and send every mail twice).
        The lock is the kernel's (flock), so it is released when the process dies, kill -9
        included, and a restarted daemon is never locked out by a stale file."""
        if self.path is None or self._lock_fd is not None:
            return
        lock_path = self.path.with_name(self.path.name + ".daemon-lock")
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "another process"
            os.close(fd)
            raise AlreadyRunning(f"another moderator daemon (pid {holder}) is running on {self.path}; "
                                 "stop it first (two daemons would resolve turns and send mail twice)") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._lock_fd = fd

    @property
    def daemon_locked(self) -> bool:
        """Whether this Store holds the daemon lock (lock_for_daemon)."""
        return self._lock_fd is not None

    def unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def _memo(self, key: tuple[object, ...], load: Callable[[], M]) -> M:
        """`load()` once per transaction for the rows a burst of mail reads for every message
        (the game, its seats, a setting, the snapshot's key, the rulings) but hardly ever
        writes. Only on SQLite, whose transaction holds the database's write lock from its
        BEGIN IMMEDIATE, so no other process changes a row meanwhile; this process's own
        writes to those tables forget every memo (_forget_settled_rows), and so does a rolled
        back savepoint. Outside a transaction, or on a shared database, it is `load()`."""
        current = self._tx.get()
        if current is None or self.shared:
            return load()
        memo = current.info.setdefault(_MEMO, {})
        if key not in memo:
            memo[key] = load()
        return memo[key]  # type: ignore[no-any-return]

    def _kept(self) -> dict[tuple[object, ...], Any] | None:
        """The reads _memo keeps for this transaction (for a write to bring them up to date:
        what it adds to a table whose reads are kept), or None if there are none."""
        current = self._tx.get()
        if current is None or self.shared:
            return None
        return current.info.get(_MEMO)

    def _insert(self, row: MailMessage | Submission | ReviewItem | Ruling) -> int:
        """Add one row and return its new id."""
        with self.session() as s:
            s.add(row)
            s.flush()
            assert row.id is not None
            return row.id

    # The writes every mail makes, without row objects: on SQLite straight to the driver
    # (store/direct.py: some 20 us of SQLAlchemy's Python less each), elsewhere in Core. Whoever
    # reads such a row later reads it from the database; a row object this session already
    # holds is not told (the callers that can hold one do: update_message, submit).
    def _driver(self, s: Session) -> sqlite3.Connection:
        """The sqlite3 connection of `s`'s transaction (kept for a unit of work's session)."""
        if s is not self._tx.get():
            return direct.driver_of(s.connection())
        driver = s.info.get(_DRIVER)
        if driver is None:
            driver = s.info[_DRIVER] = direct.driver_of(s.connection())
        return driver  # type: ignore[no-any-return]

    def _insert_row(self, s: Session, table: Any, values: dict[str, Any]) -> int:
        """INSERT one row of `table` (columns not given take their defaults); its new id."""
        if self._direct is None:
            key = s.connection().execute(_row_insert(table), values).inserted_primary_key
            assert key is not None
            return int(key[0])
        statement = self._direct.get((table.name, ()))
        if statement is None:
            statement = self._direct[(table.name, ())] = direct.insert(table, self.engine.dialect)
        row_id = statement.run(self._driver(s), values).lastrowid
        assert row_id is not None
        return row_id

    def _update_row(self, s: Session, table: Any, row_id: int, changes: dict[str, Any]) -> int:
        """UPDATE these fields of one row of `table` by its id; the rows changed (0 or 1)."""
        fields = tuple(changes)
        values = {"row_id": row_id, **{f"new_{k}": v for k, v in changes.items()}}
        if self._direct is None:
            return int(s.connection().execute(_row_update(table, fields), values).rowcount)
        statement = self._direct.get((table.name, fields))
        if statement is None:
            statement = self._direct[(table.name, fields)] = direct.update_by_id(table, fields, self.engine.dialect)
        return statement.run(self._driver(s), values).rowcount

    # ---- games and seats -------------------------------------------------------
    def create_game(self, game_id: str, scenario: str, title: str = "", seed: str | None = None,
                    deadline: datetime | None = None, ruleset: tuple[str, int] | None = None) -> Game:
        game = Game(id=game_id, scenario=scenario, title=title or game_id,
                    seed=seed or secrets.token_hex(16), deadline=deadline, created=utcnow())
        if ruleset is not None:
            game.ruleset, game.ruleset_version = ruleset
        with self.session() as s:
            s.add(game)
        return game

    def game(self, game_id: str) -> Game | None:
        def load() -> Game | None:
            with self.session() as s:
                return s.get(Game, game_id)

        return self._memo(("game", game_id), load)

    def games(self) -> list[Game]:
        with self.session() as s:
            return list(s.exec(select(Game).order_by(Game.id)))

    def _update(self, table: type[T], key: object, changes: dict[str, Any]) -> T:
        """Set fields of one row; KeyError if there is no such row (a message's row inside a
        SQLite transaction: update_message)."""
        with self.session() as s:
            row = s.get(table, key)
            if row is None:
                raise KeyError(key)
            for k, v in changes.items():
                setattr(row, k, v)
            s.add(row)
            return row

    def update_game(self, game_id: str, **changes: Any) -> Game:
        return self._update(Game, game_id, changes)

    def add_seat(self, game_id: str, nation: str, email: str, secret: str, player: str = "",
                 also: list[str] | None = None) -> Seat:
        """Seat a player; `also`: further addresses the player may send orders from."""
        seat = Seat(game_id=game_id, nation=nation, email=email.lower(), player=player,
                    secret_hash=hash_secret(secret), addresses=",".join(a.strip().lower() for a in also or []))
        with self.session() as s:
            for old in s.exec(select(Seat).where(Seat.game_id == game_id, Seat.nation == nation,
                                                 col(Seat.active).is_(True))):
                old.active = False  # `seat replace`: the old player's seat stops working
                s.add(old)
            s.add(seat)
        return seat

    def seats(self, game_id: str, active_only: bool = True) -> list[Seat]:
        def load() -> list[Seat]:
            with self.session() as s:
                q = select(Seat).where(Seat.game_id == game_id)
                if active_only:
                    q = q.where(col(Seat.active).is_(True))
                return list(s.exec(q.order_by(Seat.nation)))

        return list(self._memo(("seats", game_id, active_only), load))

    def seat(self, game_id: str, nation: str) -> Seat | None:
        return next((x for x in self.seats(game_id) if x.nation == nation), None)

    # ---- mail ------------------------------------------------------------------
    def store_incoming(self, raw: bytes, *, uid: int | None = None, uidvalidity: int | None = None,
                       arrived: datetime | None = None, size: int = 0, message_id: str = "", sender: str = "",
                       subject: str = "") -> tuple[int, bool]:
        """Keep the raw message first; everything else about it comes later. Returns (row id,
        new?): a message already stored - the same (UIDVALIDITY, UID), or the same bytes
        (fetched again after the mailbox was rebuilt, or delivered twice) - is not stored again,
        and its row is returned. Its Message-ID is kept at once (read from the bytes if not
        given): the first stored of several mails with one Message-ID is the one that counts
        (earlier_with_message_id), whichever is handled first."""
        digest = hashlib.sha256(raw).hexdigest()
        message_id = message_id or message_id_of(raw)
        with self.session() as s:
            if self.shared:  # daemons fetching the same mail at once: one stores it, the others find it
                s.connection().execute(text(
                    "SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) "
                    "FROM (SELECT unnest(CAST(:keys AS text[])) AS k ORDER BY 1) AS sorted"),
                    {"keys": sorted(_storing_keys([digest], [message_id]))})
            q = select(MailMessage).where(MailMessage.direction == "in")
            if uid is not None and uidvalidity is not None:
                same = s.exec(q.where(MailMessage.mailbox_uid == uid, MailMessage.uidvalidity == uidvalidity)
                              .order_by(col(MailMessage.id))).first()
                if same is not None and same.sha256 in ("", digest):
                    assert same.id is not None
                    return same.id, False
            same = s.exec(q.where(MailMessage.sha256 == digest).order_by(col(MailMessage.id))).first()
            if same is not None:
                assert same.id is not None
                return same.id, False
            row = MailMessage(direction="in", raw=raw, sha256=digest, mailbox_uid=uid, uidvalidity=uidvalidity,
                              arrived=arrived, size=max(size, len(raw)), message_id=message_id, sender=sender,
                              subject=subject, received=utcnow())
            s.add(row)
            s.flush()
            self._forget_first_in([message_id])
            assert row.id is not None
            return row.id, True

    def store_incoming_batch(self, items: list[Incoming], now: datetime, lease: timedelta,
                             claim: bool = True) -> list[tuple[int, bool]]:
        """store_incoming() for a fetched batch, each new message claimed at once (its first
        attempt counted, as claim_incoming() would: nobody else has seen its row yet) unless
        `claim` is False (several daemons: each takes them when it is free to handle them,
        claim_incoming_chunk). In two queries for the whole batch and one INSERT, instead of
        three statements a message: nothing else can store the same message between the look
        and the insert (on SQLite the transaction holds the write lock; on a shared database
        the batch's messages are locked first, by their SHA-256, as store_incoming() locks one,
        in one statement and in one order for everyone, so two storers never wait on each other
        in a circle). They are locked by their Message-ID too: of two copies with one
        Message-ID and other bytes stored at once, the one stored second commits second, so
        the copy always has the higher id and finds the first (earlier_with_message_id)."""
        digests = [hashlib.sha256(i.raw).hexdigest() for i in items]
        message_ids = [message_id_of(i.raw) for i in items]
        with self.session() as s:
            if self.shared and digests:
                s.connection().execute(text(
                    "SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) "
                    "FROM (SELECT unnest(CAST(:keys AS text[])) AS k ORDER BY 1) AS sorted"),
                    {"keys": sorted(_storing_keys(digests, message_ids))})
            q = select(MailMessage.id, MailMessage.mailbox_uid, MailMessage.uidvalidity, MailMessage.sha256).where(
                MailMessage.direction == "in")
            by_uid: dict[tuple[int | None, int | None], tuple[int, str]] = {}
            for validity in {i.uidvalidity for i in items if i.uid is not None and i.uidvalidity is not None}:
                uids = [i.uid for i in items if i.uidvalidity == validity and i.uid is not None]
                for found, uid, _, digest in s.exec(q.where(MailMessage.uidvalidity == validity,
                                                             col(MailMessage.mailbox_uid).in_(uids))
                                                     .order_by(col(MailMessage.id).desc())):
                    by_uid[(uid, validity)] = (found or 0, digest)  # the first stored wins (descending order)
            by_digest: dict[str, int] = {}
            for found, _, _, digest in s.exec(q.where(col(MailMessage.sha256).in_(set(digests)))
                                               .order_by(col(MailMessage.id).desc())):
                by_digest[digest] = found or 0
            stored: list[tuple[int, bool]] = []
            added: dict[str, int] = {}  # new in this batch: a second copy in it finds the first
            for item, digest, message_id in zip(items, digests, message_ids, strict=True):
                same = by_uid.get((item.uid, item.uidvalidity)) if item.uid is not None else None
                if same is not None and same[1] in ("", digest):
                    stored.append((same[0], False))
                elif digest in by_digest or digest in added:
                    stored.append((by_digest.get(digest) or added[digest], False))
                else:  # one INSERT, no row object (_insert_row): whoever handles it reads it back
                    added[digest] = self._insert_row(s, _MAILS, dict(
                        direction="in", raw=item.raw, sha256=digest, mailbox_uid=item.uid,
                        uidvalidity=item.uidvalidity, arrived=item.arrived, size=max(item.size, len(item.raw)),
                        message_id=message_id, received=utcnow(), attempts=1 if claim else 0,
                        next_attempt=now + lease if claim and self.shared else None))
                    stored.append((added[digest], True))
            self._forget_first_in([m for m, new in zip(message_ids, stored, strict=True) if new[1]])
            return stored

    def earlier_with_message_id(self, message_id: str, before: int) -> int | None:
        """The id of an earlier received message with this Message-ID (a replayed copy's
        original): earlier as stored, not as handled, since each row has its Message-ID from
        the moment it is stored, so the first stored is the original whichever is handled
        first (its first attempt failed, or another daemon is handling it at the same time). One indexed column read (SQLAlchemy Core: no row object is built), for
        every mail; the rows before `before` are all written (the caller's own pending
        changes are to `before` itself)."""
        if not message_id:
            return None
        first = (self._kept() or {}).get(("first in", message_id), _UNKNOWN)
        if first is not _UNKNOWN:  # read for the whole group of mails (read_first_in)
            return first if first is not None and first < before else None  # type: ignore[operator,return-value]
        with self.session() as s:
            return s.connection().execute(  # type: ignore[no-any-return]
                _FIRST_WITH_MESSAGE_ID, {"message_id": message_id, "before": before}).scalar()

    def read_first_in(self, message_ids: list[str]) -> None:
        """Inside a SQLite transaction: the first received message of each of these
        Message-IDs, read in one query and kept for earlier_with_message_id(), which a group
        of mails handled together then asks no more (one read a group, not one a mail). The
        first of a Message-ID is the least id with it; kept up to date by storing a message
        and by a message's Message-ID changed (update_message), forgotten with the other
        kept reads (a savepoint rolled back)."""
        current = self._tx.get()
        wanted = sorted({m for m in message_ids if m})
        if current is None or self.shared or not wanted:
            return
        found = {m: first for m, first in current.connection().execute(_FIRST_IDS, {"message_ids": wanted})}
        memo = current.info.setdefault(_MEMO, {})
        memo.update({("first in", m): found.get(m) for m in wanted})

    def _forget_first_in(self, message_ids: list[str] | None) -> None:
        """Forget the kept first messages of these Message-IDs (None: of every one)."""
        memo = self._kept()
        if memo is None:
            return
        for key in [k for k in memo if k[0] == "first in" and (message_ids is None or k[1] in message_ids)]:
            del memo[key]

    def message(self, row_id: int) -> MailMessage | None:
        with self.session() as s:
            return s.get(MailMessage, row_id)

    def messages_by_id(self, row_ids: list[int]) -> dict[int, MailMessage]:
        """These messages, in one query."""
        with self.session() as s:
            return {row.id: row for row in s.exec(select(MailMessage).where(col(MailMessage.id).in_(row_ids)))
                    if row.id is not None}

    def message_statuses(self, row_ids: list[int]) -> dict[int, str]:
        """The status of each of these messages, in one query."""
        if not row_ids:
            return {}
        with self.session() as s:
            return {row_id: status for row_id, status in s.exec(
                select(MailMessage.id, MailMessage.status).where(col(MailMessage.id).in_(row_ids)))
                if row_id is not None}

    def update_message(self, row_id: int, **changes: Any) -> None:
        """Set fields of a message's row; KeyError if there is no such row. Inside a SQLite
        transaction (every mail handled) it is one UPDATE straight to the driver, built once for
        each set of fields (_update_row): the ORM's flush of the same change cost about 0.3 ms, and handling a mail
        changed its row two or three times (issue 11, CPU per mail). The row object this
        session holds, if any, is told of the change (and forgotten if a savepoint rolls
        back, Store.savepoint), so reads in the transaction see what the database has. On
        a shared database, or outside a transaction, as the other tables' rows."""
        current = self._tx.get()
        if current is None or self.shared:
            self._update(MailMessage, row_id, changes)
            return
        gathered = current.info.get(_GATHERED)
        if gathered is not None and gathered[0] == row_id:  # written once, when the gathering ends
            gathered[1].update(changes)
            return
        held = current.identity_map.get(current.identity_key(MailMessage, row_id))
        if "message_id" in changes and (held is None or held.message_id != changes["message_id"]):
            # which message is the first of a Message-ID may change: read it again
            self._forget_first_in(None if held is None else [held.message_id, changes["message_id"]])
        if self._update_row(current, _MAILS, row_id, changes) == 0:
            raise KeyError(row_id)
        if held is not None:
            for k, v in changes.items():
                set_committed_value(held, k, v)

    @contextmanager
    def gathering(self, row_id: int) -> Iterator[None]:
        """Inside a SQLite transaction: the changes update_message() makes to message `row_id`
        in the block are written as one UPDATE when it ends (handling a mail changes its row
        two to four times: its sender and subject, its status and note, its masked copy; one
        statement instead, issue 11, CPU per mail). Nothing in the block reads the row back
        from the database (the session's row object is told when the UPDATE is written). If
        the block raises nothing is written: the caller's savepoint undoes the rest. Elsewhere
        (a shared database, outside a transaction) each update_message() writes at once."""
        current = self._tx.get()
        if current is None or self.shared or _GATHERED in current.info:
            yield
            return
        changes: dict[str, Any] = {}
        current.info[_GATHERED] = (row_id, changes)
        try:
            yield
        finally:
            del current.info[_GATHERED]
        if changes:
            self.update_message(row_id, **changes)

    def messages(self, direction: str | None = None, status: str | None = None) -> list[MailMessage]:
        with self.session() as s:
            q = select(MailMessage)
            if direction:
                q = q.where(MailMessage.direction == direction)
            if status:
                q = q.where(MailMessage.status == status)
            return list(s.exec(q.order_by(col(MailMessage.id))))

    def games_with_queued_mail(self) -> set[str | None]:
        """The games some of whose outgoing mail still waits in the outbox (None: mail of no
        game), in one light query: not the rows (a burst's receipts, raw bytes and all)."""
        with self.session() as s:
            s.flush()  # rows added in this transaction count too
            return set(s.connection().execute(_QUEUED_GAMES).scalars())

    def due_outgoing(self, now: datetime) -> list[MailMessage]:
        """Queued mail whose (next) attempt is due, oldest first."""
        with self.session() as s:
            rows = s.exec(select(MailMessage).where(MailMessage.direction == "out", MailMessage.status == "queued")
                          .order_by(col(MailMessage.id)))
            return [r for r in rows if r.next_attempt is None or _aware(r.next_attempt) <= now]

    # ---- refused attempts at a seat --------------------------------------------------
    def add_auth_failure(self, sender: str, game_id: str, nation: str, reason: str, at: datetime) -> None:
        with self.session() as s:
            s.add(AuthFailure(sender=sender, game_id=game_id, nation=nation, reason=reason, at=at))
        memo = self._kept() or {}
        for key in [k for k in memo if k[:2] == ("refused", sender) and reason in SEAT_REASONS]:  # refused_attempts'
            memo[key] = [_aware(at), *memo[key]][:int(key[2])]  # type: ignore[call-overload]
        for key in [k for k in memo if k[:4] == ("refused-seat", game_id, nation, reason)]:  # refused_at_seat's
            memo[key] = [at, *memo[key]][:int(key[4])]  # type: ignore[call-overload]

    def auth_failures(self, *, since: datetime, sender: str | None = None, game_id: str | None = None,
                      nation: str | None = None) -> list[AuthFailure]:
        with self.session() as s:
            q = select(AuthFailure)
            if sender is not None:
                q = q.where(AuthFailure.sender == sender)
            if game_id is not None:
                q = q.where(AuthFailure.game_id == game_id, AuthFailure.nation == (nation or ""))
            return [r for r in s.exec(q.order_by(col(AuthFailure.id))) if _aware(r.at) >= since]

    def refused_attempts(self, sender: str, since: datetime, limit: int) -> int:
        """How many refused attempts at a seat (SEAT_REASONS: not the desk's) came from `sender`
        since `since`, counted up to `limit` (the throttle's): asked for every order mail, so one
        indexed read of at most `limit` rows in SQLAlchemy Core, newest first (ids grow with time)."""
        def load() -> list[datetime]:
            with self.session() as s:
                return [_aware(at) for at in s.connection().execute(_REFUSED_AT, {"sender": sender, "limit": limit})
                        .scalars()]

        # Kept for the transaction (a group of mails, several from one sender: one read a
        # sender), add_auth_failure() putting its new attempt first; with their zone, so the
        # count compares them as they are.
        return sum(1 for at in self._memo(("refused", sender, limit), load) if at >= since)

    def refused_at_seat(self, game_id: str, nation: str, reason: str, since: datetime, limit: int) -> int:
        """How many refused attempts of kind `reason` at one seat (game_id, nation) came since
        `since`, from any sender, counted up to `limit`: the throttle per target seat, read as
        refused_attempts is (newest first, at most `limit` rows, kept for the transaction)."""
        def load() -> list[datetime]:
            with self.session() as s:
                return list(s.connection().execute(_REFUSED_AT_SEAT, {"game_id": game_id, "nation": nation,
                                                                      "reason": reason, "limit": limit}).scalars())

        return sum(1 for at in self._memo(("refused-seat", game_id, nation, reason, limit), load)
                   if _aware(at) >= since)

    def replies_answering(self, address: str, since: datetime, limit: int) -> int:
        """How many replies answering `address`'s mail were queued since `since`, counted up to
        `limit` (the daily cap): through the `answers` index, reading at most `limit` rows
        however long the address has played (ids grow with time, so the newest `limit`
        replies hold every one since `since` if there are fewer than `limit` of them)."""
        address = address.strip().lower()

        def load() -> list[datetime]:
            with self.session() as s:
                return [_aware(received) for received in s.connection().execute(
                    _REPLIES_AT, {"answers": address, "limit": limit}).scalars()]

        # Kept for the transaction (one read an address a group of mails), queue_outgoing()
        # putting each new reply first; with their zone (up to `limit` of them compared a mail).
        return sum(1 for received in self._memo(("replies", address, limit), load) if received >= since)

    def queue_outgoing(self, raw: bytes, *, game_id: str | None, recipients: str, subject: str,
                       message_id: str, kind: str = "", answers: str = "") -> int:
        """`answers`: for a reply, the address whose mail it answers (the daily cap counts by it).
        One INSERT without a row object (_insert_row; a receipt for every order mail): nothing to
        build and flush; whoever reads the row later reads it from the database."""
        received, answers = utcnow(), answers.strip().lower()
        with self.session() as s:
            key = self._insert_row(s, _MAILS, dict(
                direction="out", game_id=game_id, raw=raw, recipients=recipients, subject=subject,
                message_id=message_id, status="queued", received=received, kind=kind, answers=answers))
        memo = self._kept() or {}
        for held in [k for k in memo if answers and k[:2] == ("replies", answers)]:  # replies_answering's kept read
            memo[held] = [received, *memo[held]][:int(held[2])]  # type: ignore[call-overload]
        return key

    # ---- orders ----------------------------------------------------------------
    def add_submission(self, game_id: str, nation: str, turn: int, *, text: str, normalized: str,
                       diagnostics: list[dict[str, Any]], message: int | None,
                       written: datetime | None = None) -> tuple[int, bool]:
        """Store a submission; returns (id, replaced_earlier). A later one replaces the earlier,
        unless the earlier was written after it (`written`: mail delivered out of order): then
        the new one is kept for the record, not current, and replaced_earlier is False."""
        sub_id, replaced, _ = self.submit(game_id, nation, turn, text=text, normalized=normalized,
                                          diagnostics=diagnostics, message=message, written=written)
        return sub_id, replaced

    def submit(self, game_id: str, nation: str, turn: int, *, text: str, normalized: str,
               diagnostics: list[dict[str, Any]], message: int | None,
               written: datetime | None = None) -> tuple[int, bool, Submission | None]:
        """add_submission(), also returning the seat's current submission that stays current
        because it was written after this one (None if this one is put in place)."""
        # No row objects: one read, at most one UPDATE and one INSERT (on SQLite straight to the
        # driver, _insert_row), nothing to build and flush (this runs for every order mail). Row objects of the
        # seat's submissions this session already holds are told of the change.
        with self.session() as s:
            conn = s.connection()
            if self.shared:
                # Two daemons taking two mails of one seat at once: the second waits here for the
                # first to commit, then reads its submission as the current one (without the lock
                # both would read the same earlier one and leave two current).
                seat_turn = f"submission|{game_id}|{nation}|{turn}"  # (`text` here is the orders)
                conn.execute(sa_select(func.pg_advisory_xact_lock(func.hashtextextended(seat_turn, 0))))
            earlier = self._current_rows(conn, game_id, nation, turn)
            later = next((Submission(**e) for e in earlier if written is not None and e["written"] is not None
                          and _aware(e["written"]) > written), None)
            current = later is None
            if current and earlier:
                for e in earlier:
                    self._update_row(s, _SUBMISSIONS, e["id"], {"current": False})
                    # (the row object, if this session holds one, told of it)
                    if (held := s.identity_map.get(s.identity_key(Submission, e["id"]))) is not None:
                        set_committed_value(held, "current", False)
            row = dict(game_id=game_id, nation=nation, turn=turn, text=text, normalized=normalized,
                       diagnostics=json.dumps(diagnostics), message=message, created=utcnow(), written=written,
                       current=current)
            key = self._insert_row(s, _SUBMISSIONS, row)
            memo = self._kept()
            if current and memo is not None and ("current", game_id, nation, turn) in memo:
                memo[("current", game_id, nation, turn)] = [{"id": key, **row}]  # the one current now
            return key, current and bool(earlier), later

    def _current_rows(self, conn: Any, game_id: str, nation: str, turn: int) -> list[dict[str, Any]]:
        """The seat's current submissions for `turn` (one, but for a database written before
        the store kept to that), as column dicts in the order stored. Kept for a transaction:
        an order mail asks twice (proxy.host_commands, then submit), and a group of mails
        from one seat once; submit() keeps it up to date."""
        def load() -> list[dict[str, Any]]:
            return sorted((dict(r) for r in conn.execute(
                _CURRENT_SUBMISSIONS, {"game_id": game_id, "nation": nation, "turn": turn}).mappings()),
                key=lambda r: r["id"])

        return list(self._memo(("current", game_id, nation, turn), load))

    def current_orders(self, game_id: str, nation: str, turn: int) -> str | None:
        """The normalized text of the seat's current submission for `turn`, or None: one column
        of one row, for every order mail (is the seat's current orders a proxy's?)."""
        rows = (self._kept() or {}).get(("current", game_id, nation, turn))  # no session for a kept read
        if rows is None:
            with self.session() as s:
                rows = self._current_rows(s.connection(), game_id, nation, turn)
        return rows[0]["normalized"] if rows else None  # type: ignore[no-any-return]

    def current_submissions(self, game_id: str, turn: int) -> dict[str, Submission]:
        with self.session() as s:
            rows = s.exec(select(Submission).where(Submission.game_id == game_id, Submission.turn == turn,
                                                   col(Submission.current).is_(True)))
            return {r.nation: r for r in sorted(rows, key=lambda r: r.nation)}

    # ---- snapshots and turns ---------------------------------------------------
    def save_snapshot(self, game_id: str, turn: int, state_json: str) -> None:
        with self.session() as s:
            s.add(Snapshot(game_id=game_id, turn=turn, state=state_json, created=utcnow()))

    def snapshot_key(self, game_id: str, turn: int) -> tuple[int | None, datetime] | None:
        """What tells the snapshot snapshot() returns from any other: its row id and when it
        was made (a turn resolved again after a rollback may get the id of the deleted one)."""
        def load() -> tuple[int | None, datetime] | None:
            with self.session() as s:
                row = s.exec(select(Snapshot.id, Snapshot.created).where(Snapshot.game_id == game_id,
                                                                          Snapshot.turn == turn)
                             .order_by(col(Snapshot.id).desc())).first()
                return None if row is None else (row[0], row[1])

        return self._memo(("snapshot key", game_id, turn), load)

    def snapshot(self, game_id: str, turn: int) -> str | None:
        with self.session() as s:
            row = s.exec(select(Snapshot).where(Snapshot.game_id == game_id, Snapshot.turn == turn)
                         .order_by(col(Snapshot.id).desc())).first()
            return row.state if row else None

    def save_turn(self, record: TurnRecord) -> None:
        with self.session() as s:
            s.add(record)

    def turn_resolved(self, game_id: str, turn: int) -> datetime | None:
        """When `turn` of the game was last resolved (its newest record: a correction's), with
        its zone, or None if it was not: the moment the next turn began. Read for order mail
        without a TURN line (service/inbox.py _for_an_earlier_turn), so kept for the
        transaction (one read a game a group of mails), and only the one column."""
        def load() -> datetime | None:
            with self.session() as s:
                found = s.connection().execute(
                    sa_select(_TURNS.c.resolved).where(_TURNS.c.game_id == game_id, _TURNS.c.turn == turn)
                    .order_by(_TURNS.c.id.desc()).limit(1)).scalar()
            return _aware(found) if found is not None else None

        return self._memo(("turn resolved", game_id, turn), load)

    def turn_record(self, game_id: str, turn: int) -> TurnRecord | None:
        with self.session() as s:
            return s.exec(select(TurnRecord).where(TurnRecord.game_id == game_id, TurnRecord.turn == turn)
                          .order_by(col(TurnRecord.id).desc())).first()

    def turn_records(self, game_id: str, turn: int) -> list[TurnRecord]:
        """Every resolution of a turn, first to last (more than one: corrected by `rollback`)."""
        with self.session() as s:
            return list(s.exec(select(TurnRecord).where(TurnRecord.game_id == game_id, TurnRecord.turn == turn)
                               .order_by(col(TurnRecord.id))))

    # ---- moderator review --------------------------------------------------------
    def add_review(self, *, game_id: str | None, turn: int | None, nation: str | None, kind: str,
                   summary: str, detail: str = "") -> int:
        return self._insert(ReviewItem(game_id=game_id, turn=turn, nation=nation, kind=kind, summary=summary,
                                       detail=detail, created=utcnow()))

    def reviews(self, game_id: str | None = None, status: str | None = "pending") -> list[ReviewItem]:
        with self.session() as s:
            q = select(ReviewItem)
            if game_id:
                q = q.where(ReviewItem.game_id == game_id)
            if status:
                q = q.where(ReviewItem.status == status)
            return list(s.exec(q.order_by(col(ReviewItem.id))))

    def review(self, item_id: int) -> ReviewItem | None:
        with self.session() as s:
            return s.get(ReviewItem, item_id)

    def decide_review(self, item_id: int, status: str, resolution: str = "", rulings: str = "") -> ReviewItem:
        return self._update(ReviewItem, item_id, {"status": status, "resolution": resolution, "rulings": rulings})

    # ---- the moderator's rulings ---------------------------------------------------
    def add_rulings(self, game_id: str, turn: int, texts: list[str], *, applies: str, source: str) -> list[int]:
        """Store rulings (normalized, one per text) in the order given; returns their ids."""
        if applies not in ("now", "next"):
            raise ValueError(f"a ruling applies 'now' or 'next', not {applies!r}")
        now = utcnow()
        rows = [Ruling(game_id=game_id, turn=turn, text=t, applies=applies, source=source, created=now)
                for t in texts]
        with self.session() as s:
            s.add_all(rows)
            s.flush()
            return [r.id for r in rows if r.id is not None]

    def rulings(self, game_id: str, turn: int, applies: str | None = None) -> list[Ruling]:
        """The rulings stored for `turn`, in the order they were given."""
        def load() -> list[Ruling]:
            with self.session() as s:
                q = select(Ruling).where(Ruling.game_id == game_id, Ruling.turn == turn)
                if applies:
                    q = q.where(Ruling.applies == applies)
                return list(s.exec(q.order_by(col(Ruling.id))))

        return list(self._memo(("rulings", game_id, turn, applies), load))

    # ---- settings of the installation ------------------------------------------------
    def setting(self, key: str) -> str | None:
        def load() -> str | None:
            with self.session() as s:
                row = s.get(Setting, key)
                return row.value if row else None

        return self._memo(("setting", key), load)

    def set_setting(self, key: str, value: str) -> None:
        with self.session() as s:
            row = s.get(Setting, key) or Setting(key=key)
            row.value = value
            s.add(row)

    def settings_starting(self, prefix: str) -> dict[str, str]:
        """Every setting whose key starts with `prefix` (key -> value), in one query: what a
        daemon reads at every deadline check, whatever the number of games."""
        with self.session() as s:
            return {row.key: row.value for row in s.exec(select(Setting).where(col(Setting.key).startswith(prefix)))}

    def take_setting(self, key: str, value: str) -> bool:
        """Empty the setting `key` if it holds `value`, in one UPDATE: True if this process did.
        Of several daemons on a shared database taking it at once, one gets True: the others'
        UPDATE waits for its transaction (the row is locked) and then finds the value gone. Inside
        transaction(), the lock is held to its end, so what is done under the take commits
        with it (or, rolled back, leaves the setting to be taken again)."""
        with self.session() as s:
            taken = s.connection().execute(_TAKE_SETTING, {"the_key": key, "held": value}).rowcount == 1
            s.info.pop(_MEMO, None)  # a setting read earlier in this transaction may have changed
            return taken

    # ---- the replacement pool ---------------------------------------------------------
    def add_to_pool(self, *, name: str, email: str, side: str, game_id: str = "") -> PoolEntry:
        """Put a player on the pool; a second sign-up from the same address updates the first."""
        with self.session() as s:
            row = s.exec(select(PoolEntry).where(PoolEntry.email == email.lower(), PoolEntry.status == "waiting",
                                                 PoolEntry.game_id == game_id)).first()
            row = row or PoolEntry(email=email.lower(), game_id=game_id, created=utcnow())
            row.name, row.side = name, side
            s.add(row)
            s.flush()
            return row

    def pool(self, status: str | None = "waiting") -> list[PoolEntry]:
        with self.session() as s:
            q = select(PoolEntry)
            if status:
                q = q.where(PoolEntry.status == status)
            return list(s.exec(q.order_by(col(PoolEntry.id))))

    def update_pool_entry(self, entry_id: int, **changes: Any) -> PoolEntry:
        return self._update(PoolEntry, entry_id, changes)

    # ---- several daemons on one database ------------------------------------------------
    # On PostgreSQL several daemons may share one database (a SQLite file has one daemon: its
    # flock). Each message, outgoing mail and turn is then taken by exactly one of them: a
    # row locked FOR UPDATE SKIP LOCKED (the others pass it by instead of waiting), marked
    # as taken in the same short transaction - a lease, `next_attempt`, for mail; the game's
    # status for a turn - and checked again under a row lock in the transaction that
    # commits the work. SQLite ignores FOR UPDATE; its BEGIN IMMEDIATE serializes writers.
    def claim_incoming(self, row_id: int, now: datetime, lease: timedelta) -> MailMessage | None:
        """Take a stored message for handling, counting the attempt (committed before the
        handling starts, so a message that kills the process is counted too). None if it
        is no longer "new", or another daemon holds it (locked, or leased until later).
        On a shared database it is leased for `lease`: a daemon that dies while handling it
        leaves it to the others after that."""
        with self.session() as s:
            row = s.exec(select(MailMessage).where(MailMessage.id == row_id, MailMessage.status == "new")
                         .with_for_update(skip_locked=True)).first()
            if row is None or (self.shared and row.next_attempt is not None and _aware(row.next_attempt) > now):
                return None
            row.attempts += 1
            row.next_attempt = now + lease if self.shared else None
            s.add(row)
            return row

    def claim_incoming_chunk(self, now: datetime, lease: timedelta, limit: int,
                             passed: frozenset[int] = frozenset()) -> list[MailMessage]:
        """Take up to `limit` stored messages waiting to be handled, oldest first, in a short
        transaction of its own: what several daemons on one database share a burst with (each
        takes a few at a time just before handling them, so the work goes to whoever is free).
        Rows another daemon has locked are passed by (SKIP LOCKED), and so are rows leased to
        it and the ids in `passed` (tried by the caller in this poll already). Each row's
        attempt is counted and it is leased for `lease`, as claim_incoming() does. A message
        tried before (a failure, or a daemon that died while handling it) is taken alone, so
        a mail that kills the process is counted, and set aside, without the others of its
        chunk."""
        table = MailMessage
        with self.session() as s:
            q = select(table).where(table.direction == "in", table.status == "new",
                                    (col(table.next_attempt).is_(None)) | (col(table.next_attempt) <= now))
            if passed:
                q = q.where(col(table.id).not_in(passed))
            rows = list(s.exec(q.order_by(col(table.id)).limit(limit).with_for_update(skip_locked=True)))
            if rows and rows[0].attempts:
                rows = rows[:1]
            else:
                rows = [r for r in rows if not r.attempts][:limit]  # the untried ones (a tried one waits its turn)
            for row in rows:
                row.attempts += 1
                row.next_attempt = now + lease if self.shared else None
                s.add(row)
            return rows

    @contextmanager
    def mailbox_turn(self) -> Iterator[bool]:
        """Whether this process may fetch from the mailbox now: on a shared database one daemon
        at a time does, so a burst is fetched and stored once rather than by every daemon, and
        the others handle what it stores (claim_incoming_chunk). Always True on SQLite (one
        daemon: its flock)."""
        with self._process_lock("mailbox") as mine:
            yield mine

    @contextmanager
    def resolving(self, game_id: str) -> Iterator[bool]:
        """Whether this process may resolve `game_id` now (held for the whole resolution, the
        commit included): on a shared database one daemon at a time. A game "resolving" whose
        lock is free was left so by a daemon that died (reopen_abandoned). Always True on SQLite."""
        with self._process_lock(f"resolving|{game_id}") as mine:
            yield mine

    @contextmanager
    def _process_lock(self, name: str) -> Iterator[bool]:
        """A PostgreSQL session advisory lock named `name`, tried without waiting and held on a
        connection of its own for the block: freed at its end, or when the process dies (the
        server drops the dead connection's locks), so a daemon killed with -9 never keeps it."""
        if not self.shared:
            yield True
            return
        key = {"key": f"moderator|{name}"}
        with self.engine.connect() as conn:
            mine = bool(conn.execute(text("SELECT pg_try_advisory_lock(hashtextextended(:key, 1))"), key).scalar())
            conn.commit()  # the lock is the session's: it outlives this transaction
            try:
                yield mine
            finally:
                if mine:
                    try:
                        conn.execute(text("SELECT pg_advisory_unlock(hashtextextended(:key, 1))"), key)
                        conn.commit()
                    except Exception:
                        conn.invalidate()  # never back to the pool holding the lock
                        raise

    def held(self) -> list[Held]:
        """The held mail, oldest first, without its bytes (one light query a poll)."""
        m = _MAILS.c
        with self.session() as s:
            rows = s.connection().execute(sa_select(m.id, m.game_id, m.note, m.next_attempt, m.arrived, m.received)
                                          .where(m.direction == "in", m.status == "held").order_by(m.id))
            return [Held(r.id, r.game_id, r.note, _aware(r.next_attempt) if r.next_attempt else None,
                         _aware(r.arrived or r.received)) for r in rows]

    def take_held(self, row_id: int) -> bool:
        """Put a held mail (service/inbox.py _hold) back to "new" to be read, with a fresh count
        of attempts; False if it is no longer held (another daemon on this database took it):
        one conditional UPDATE, so a mail is never taken twice, nor one already read again."""
        changes = {"status": "new", "attempts": 0, "next_attempt": None}
        with self.session() as s:
            done = s.connection().execute(
                sa_update(_MAILS).where(_MAILS.c.id == row_id, _MAILS.c.status == "held").values(changes))
            if done.rowcount and (row := s.identity_map.get(s.identity_key(MailMessage, row_id))) is not None:
                for k, v in changes.items():  # the session's copy of the row, if it has one, as the database has it
                    set_committed_value(row, k, v)
        return bool(done.rowcount)

    def still_new(self, row_id: int) -> bool:
        """Inside the transaction that handles a message: lock its row (waiting for another
        daemon's transaction on it, if any) and say whether it still waits to be handled."""
        with self.session() as s:
            if not self.shared:  # the transaction holds the write lock: the row as this session has it
                row = s.get(MailMessage, row_id)
            else:
                row = s.exec(select(MailMessage).where(MailMessage.id == row_id).with_for_update()).first()
            return row is not None and row.status == "new"

    def claim_outgoing(self, now: datetime, lease: timedelta) -> list[MailMessage]:
        """The queued mail due now, oldest first, taken for sending: on a shared database each
        row is leased for `lease` (its next attempt moved past it), so another daemon's
        send job passes it by; a daemon that dies before marking it sent leaves it to the
        others when the lease ends (one duplicate at most, with the same Message-ID)."""
        with self.session() as s:
            rows = s.exec(select(MailMessage).where(MailMessage.direction == "out", MailMessage.status == "queued")
                          .order_by(col(MailMessage.id)).with_for_update(skip_locked=True))
            due = [r for r in rows if r.next_attempt is None or _aware(r.next_attempt) <= now]
            if self.shared:
                for row in due:
                    row.next_attempt = now + lease
                    s.add(row)
            return due

    def claim_turn(self, game_id: str, turn: int) -> bool:
        """Mark the game's turn as being resolved, unless another process is resolving it or
        it has moved on: True if this process took it. Waits for the transactions holding the
        game (hold_game: mails whose orders are going in) to commit first."""
        with self.session() as s:
            game = s.exec(select(Game).where(Game.id == game_id).with_for_update()).first()
            if game is None or game.turn != turn or (game.status == "resolving" and self.shared):
                return False  # (SQLite: one daemon; "resolving" there is a crashed resolution, taken over)
            game.status = "resolving"
            s.add(game)
            return True

    def hold_game(self, game_id: str) -> Game | None:
        """Inside a transaction: the game's row as it is now, held until the transaction ends
        against a change (FOR SHARE: others may read and hold it too, claim_turn waits)."""
        with self.session() as s:
            return s.exec(select(Game).where(Game.id == game_id).with_for_update(read=True)
                          .execution_options(populate_existing=True)).first()

    def lock_game(self, game_id: str) -> Game | None:
        """Inside a transaction: the game's row, locked until the transaction ends (another
        daemon's transaction on it finishes first), as it is now."""
        with self.session() as s:
            game = s.exec(select(Game).where(Game.id == game_id).with_for_update()).first()
            if game is not None:
                s.refresh(game)
            return game
