"""The repository: every read and write of the database goes through Store.

SQLite file by default (var/moderator.db); any SQLAlchemy URL works (PostgreSQL with
postgresql+psycopg://...). Callers get plain values or table rows detached from the
session, so no session leaks out of this module.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, MetaData, inspect, text
from sqlalchemy.schema import CreateColumn
from sqlmodel import Session, SQLModel, col, create_engine, select

from moderator.store.tables import (
    Game,
    MailMessage,
    ReviewItem,
    Ruling,
    Seat,
    Snapshot,
    Submission,
    TurnRecord,
)

_HASH_ITERATIONS = 120_000
T = TypeVar("T", bound=SQLModel)


def utcnow() -> datetime:
    return datetime.now(UTC)


def hash_secret(secret: str, salt: str | None = None) -> str:
    """Salted PBKDF2 of a seat password; the password itself is never stored."""
    salt = salt or secrets.token_hex(8)
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt.encode(), _HASH_ITERATIONS).hex()
    return f"pbkdf2${salt}${digest}"


def verify_secret(secret: str, stored: str) -> bool:
    try:
        _, salt, _digest = stored.split("$", 2)
    except ValueError:
        return False
    return hmac.compare_digest(hash_secret(secret, salt), stored)


def add_missing_columns(engine: Engine, metadata: MetaData | None = None) -> list[str]:
    """Add the columns a newer moderator declares to tables an older one created.

    create_all() makes missing tables but never changes existing ones, so a database kept
    from an earlier version (the demo's, a running game's) would lack new columns. Each
    missing column is added with ALTER TABLE ... ADD COLUMN and its server default (the
    value old rows get), which SQLite and PostgreSQL both accept. Idempotent: a second
    run finds nothing missing. Returns "table.column" for each column added."""
    existing = set(inspect(engine).get_table_names())
    added: list[str] = []
    with engine.begin() as conn:
        for table in (metadata or SQLModel.metadata).sorted_tables:
            if table.name not in existing:
                continue  # create_all() makes it whole
            have = {c["name"] for c in inspect(conn).get_columns(table.name)}
            for column in table.columns:
                if column.name in have:
                    continue
                if column.server_default is None and not column.nullable:
                    raise RuntimeError(f"cannot add column {table.name}.{column.name} to the existing database: "
                                       "it has no default for the rows already stored (give it a server_default "
                                       "in store/tables.py)")
                ddl = CreateColumn(column).compile(dialect=engine.dialect)
                conn.execute(text(f"ALTER TABLE {engine.dialect.identifier_preparer.quote(table.name)} "
                                  f"ADD COLUMN {ddl}"))
                added.append(f"{table.name}.{column.name}")
    return added


class Store:
    def __init__(self, url: str) -> None:
        if url.startswith("sqlite:///"):
            Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(url, connect_args={"check_same_thread": False}
                                            if url.startswith("sqlite") else {})
        SQLModel.metadata.create_all(self.engine)
        self.upgraded = add_missing_columns(self.engine)  # columns added to an older database

    @classmethod
    def at(cls, path: Path) -> Store:
        return cls(f"sqlite:///{path}")

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as s:
            yield s
            s.commit()

    def _insert(self, row: MailMessage | Submission | ReviewItem | Ruling) -> int:
        """Add one row and return its new id."""
        with self.session() as s:
            s.add(row)
            s.flush()
            assert row.id is not None
            return row.id

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
        with self.session() as s:
            return s.get(Game, game_id)

    def games(self) -> list[Game]:
        with self.session() as s:
            return list(s.exec(select(Game).order_by(Game.id)))

    def _update(self, table: type[T], key: object, changes: dict[str, Any]) -> T:
        """Set fields of one row; KeyError if there is no such row."""
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

    def add_seat(self, game_id: str, nation: str, email: str, secret: str, player: str = "") -> Seat:
        seat = Seat(game_id=game_id, nation=nation, email=email.lower(), player=player,
                    secret_hash=hash_secret(secret))
        with self.session() as s:
            for old in s.exec(select(Seat).where(Seat.game_id == game_id, Seat.nation == nation,
                                                 col(Seat.active).is_(True))):
                old.active = False  # `seat replace`: the old player's seat stops working
                s.add(old)
            s.add(seat)
        return seat

    def seats(self, game_id: str, active_only: bool = True) -> list[Seat]:
        with self.session() as s:
            q = select(Seat).where(Seat.game_id == game_id)
            if active_only:
                q = q.where(col(Seat.active).is_(True))
            return list(s.exec(q.order_by(Seat.nation)))

    def seat(self, game_id: str, nation: str) -> Seat | None:
        return next((x for x in self.seats(game_id) if x.nation == nation), None)

    # ---- mail ------------------------------------------------------------------
    def store_incoming(self, raw: bytes, *, uid: int | None = None, message_id: str = "",
                       sender: str = "", subject: str = "") -> int:
        """Keep the raw message first; everything else about it comes later."""
        return self._insert(MailMessage(direction="in", raw=raw, mailbox_uid=uid, message_id=message_id,
                                        sender=sender, subject=subject, received=utcnow()))

    def message(self, row_id: int) -> MailMessage | None:
        with self.session() as s:
            return s.get(MailMessage, row_id)

    def update_message(self, row_id: int, **changes: Any) -> None:
        self._update(MailMessage, row_id, changes)

    def messages(self, direction: str | None = None, status: str | None = None) -> list[MailMessage]:
        with self.session() as s:
            q = select(MailMessage)
            if direction:
                q = q.where(MailMessage.direction == direction)
            if status:
                q = q.where(MailMessage.status == status)
            return list(s.exec(q.order_by(col(MailMessage.id))))

    def queue_outgoing(self, raw: bytes, *, game_id: str | None, recipients: str, subject: str,
                       message_id: str) -> int:
        return self._insert(MailMessage(direction="out", game_id=game_id, raw=raw, recipients=recipients,
                                        subject=subject, message_id=message_id, status="queued",
                                        received=utcnow()))

    # ---- orders ----------------------------------------------------------------
    def add_submission(self, game_id: str, nation: str, turn: int, *, text: str, normalized: str,
                       diagnostics: list[dict[str, Any]], message: int | None) -> tuple[int, bool]:
        """Store a submission; returns (id, replaced_earlier). A later one replaces the earlier."""
        with self.session() as s:
            earlier = list(s.exec(select(Submission).where(
                Submission.game_id == game_id, Submission.nation == nation, Submission.turn == turn,
                col(Submission.current).is_(True))))
            for e in earlier:
                e.current = False
                s.add(e)
            sub = Submission(game_id=game_id, nation=nation, turn=turn, text=text, normalized=normalized,
                             diagnostics=json.dumps(diagnostics), message=message, created=utcnow())
            s.add(sub)
            s.flush()
            assert sub.id is not None
            return sub.id, bool(earlier)

    def current_submissions(self, game_id: str, turn: int) -> dict[str, Submission]:
        with self.session() as s:
            rows = s.exec(select(Submission).where(Submission.game_id == game_id, Submission.turn == turn,
                                                   col(Submission.current).is_(True)))
            return {r.nation: r for r in sorted(rows, key=lambda r: r.nation)}

    # ---- snapshots and turns ---------------------------------------------------
    def save_snapshot(self, game_id: str, turn: int, state_json: str) -> None:
        with self.session() as s:
            s.add(Snapshot(game_id=game_id, turn=turn, state=state_json, created=utcnow()))

    def snapshot(self, game_id: str, turn: int) -> str | None:
        with self.session() as s:
            row = s.exec(select(Snapshot).where(Snapshot.game_id == game_id, Snapshot.turn == turn)
                         .order_by(col(Snapshot.id).desc())).first()
            return row.state if row else None

    def save_turn(self, record: TurnRecord) -> None:
        with self.session() as s:
            s.add(record)

    def turn_record(self, game_id: str, turn: int) -> TurnRecord | None:
        with self.session() as s:
            return s.exec(select(TurnRecord).where(TurnRecord.game_id == game_id, TurnRecord.turn == turn)
                          .order_by(col(TurnRecord.id).desc())).first()

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
        with self.session() as s:
            q = select(Ruling).where(Ruling.game_id == game_id, Ruling.turn == turn)
            if applies:
                q = q.where(Ruling.applies == applies)
            return list(s.exec(q.order_by(col(Ruling.id))))
