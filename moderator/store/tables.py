"""Database tables (SQLModel). The only schema of the service.

Raw mail is stored before anything else looks at it (Bad input: nothing is lost);
every turn keeps its inputs (orders, seed reference) and outputs (state, events, dice
log) so any past turn can be replayed and compared byte for byte.

A change here is also a new migration (moderator/store/migrations/versions; store/migrate.py
runs them at startup, so a database from an earlier moderator keeps working): a column
added later carries a server default, the value old rows get. tests/test_store_migration.py
fails when the models and the migrations disagree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Index, text
from sqlmodel import Field, SQLModel

# The ruleset of games and turns stored before rulesets were recorded (issue 7): the War
# to End All Wars in its first version (one dice stream per turn).
LEGACY_RULESET = "wtea-1914"
LEGACY_RULESET_VERSION = 1


def _old_rows(value: str | int) -> dict[str, Any]:
    """Column options (sa_column_kwargs): `value` for rows stored before the column existed."""
    return {"server_default": text(str(value)) if isinstance(value, int) else value}


class Game(SQLModel, table=True):
    id: str = Field(primary_key=True)  # short id players write in the GAME line
    scenario: str = "1914"
    title: str = ""
    turn: int = 1  # the turn now being ordered
    status: str = "open"  # open | resolving | review | finished
    seed: str = ""  # secret dice seed: never shown to players or written to logs
    deadline: datetime | None = None  # when the current turn resolves (UTC)
    cycle_days: int = 10  # the rules' ten-day update cycle
    correction_days: int = 2  # first two days after an update: error corrections
    reminded_turn: int = 0  # the last turn whose missing-orders reminder went out
    created: datetime
    # The rules the game is played with (moderator.rulesets.registry()); set when the game is
    # created, moved on when a turn is resolved with a newer version of the same ruleset.
    ruleset: str = Field(default=LEGACY_RULESET, sa_column_kwargs=_old_rows(LEGACY_RULESET))
    ruleset_version: int = Field(default=LEGACY_RULESET_VERSION, sa_column_kwargs=_old_rows(LEGACY_RULESET_VERSION))
    # Why the last attempt to resolve the current turn failed ("" when it did not): shown by
    # `game show` and the console until a resolution succeeds (service/turns.py).
    problem: str = Field(default="", sa_column_kwargs=_old_rows(""))
    # Reminders to seats without orders, hours before the deadline, comma-separated ("48,12"),
    # and the most urgent one sent for `reminded_turn` (service/reminders.py).
    reminder_hours: str = Field(default="48,12", sa_column_kwargs=_old_rows("48,12"))
    reminded_hours: int = Field(default=0, sa_column_kwargs=_old_rows(0))
    # The game's own address (lower case; "" if none): mail sent to it is for this game even
    # without a GAME line (service/routing.py), several games sharing one mailbox.
    address: str = Field(default="", sa_column_kwargs=_old_rows(""))


class Seat(SQLModel, table=True):
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(index=True, foreign_key="game.id")
    nation: str = Field(index=True)
    email: str = Field(index=True)  # the player's address (lower case)
    player: str = ""
    secret_hash: str = ""  # salted hash of the seat password
    active: bool = True
    # Further addresses the player may send orders from, lower case, comma-separated;
    # orders from any other address are refused even with the right password.
    addresses: str = Field(default="", sa_column_kwargs=_old_rows(""))

    def may_send_from(self, address: str) -> bool:
        address = address.strip().lower()
        return address == self.email or address in {a.strip() for a in self.addresses.split(",") if a.strip()}


class MailMessage(SQLModel, table=True):
    """Every message in or out, raw bytes first."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str | None = Field(default=None, index=True)
    direction: str = "in"  # in | out
    message_id: str = Field(default="", index=True)
    mailbox_uid: int | None = Field(default=None, sa_type=BigInteger)  # IMAP numbers: unsigned 32-bit
    sender: str = ""
    recipients: str = ""
    subject: str = ""
    raw: bytes = b""
    # in: new | processed | quarantined | failed | held (throttled, read later); out: queued | sent | failed
    status: str = "new"
    note: str = ""
    received: datetime
    sent: datetime | None = None
    # In: the mailbox's UIDVALIDITY with mailbox_uid (the message's key on the server), and the
    # SHA-256 of the bytes as they arrived (duplicate check and audit: `raw` has the seat
    # passwords masked). Out: unused.
    uidvalidity: int | None = Field(default=None, sa_type=BigInteger)
    sha256: str = Field(default="", index=True, sa_column_kwargs=_old_rows(""))
    # In: failed attempts at handling it (3 shunt it to review); out: failed attempts at sending,
    # and when the next one is due (retry with backoff).
    attempts: int = Field(default=0, sa_column_kwargs=_old_rows(0))
    next_attempt: datetime | None = None
    # In: when the mail server received it (IMAP INTERNALDATE); lateness is judged by it.
    arrived: datetime | None = None
    # In: its size on the server; larger than `raw` when it was over the size cap and only
    # its header was kept (it is refused with a reply). 0 for rows from before this column.
    size: int = Field(default=0, sa_column_kwargs=_old_rows(0))
    # Out: "reply" for a receipt or an answer to a received mail (capped per address a day:
    # service/inbox.py REPLIES_PER_DAY), "" for reports, reminders and notices.
    kind: str = Field(default="", sa_column_kwargs=_old_rows(""))
    # Out, a reply: the address whose mail it answers (lower case; "" otherwise). The daily
    # reply cap counts by it through its index, instead of a LIKE over every recipient list.
    answers: str = Field(default="", index=True, sa_column_kwargs=_old_rows(""))

    # In: a fetched message is looked up by its place on the server (UIDVALIDITY, UID) first.
    __table_args__ = (Index("ix_mailmessage_uidvalidity_uid", "uidvalidity", "mailbox_uid"),)


class AuthFailure(SQLModel, table=True):
    """One refused attempt at giving a seat orders (wrong password, or an address that is
    not the seat's): counted per sender to throttle guessing, and told to the seat."""

    id: int | None = Field(default=None, primary_key=True)
    sender: str = Field(index=True)
    game_id: str = ""
    nation: str = ""
    reason: str = ""  # secret | address
    at: datetime


class Submission(SQLModel, table=True):
    """One nation's orders for one turn, as accepted from one message."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(index=True)
    nation: str = Field(index=True)
    turn: int = Field(index=True)
    message: int | None = Field(default=None, foreign_key="mailmessage.id")
    text: str = ""  # the order text as extracted from the mail
    normalized: str = ""  # the canonical echo
    diagnostics: str = "[]"  # JSON list of diagnostics
    current: bool = True  # False once a later submission for the same turn replaces it
    created: datetime
    # When the player wrote it (the mail's Date header, within sane bounds of its arrival;
    # service/inbox.py written_at): of two mails the one written last stands, whichever the
    # server delivered last. None for orders entered by the moderator.
    written: datetime | None = None


class Snapshot(SQLModel, table=True):
    """The state at the start of `turn` (turn 1 = the scenario's opening position)."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(index=True)
    turn: int = Field(index=True)
    state: str = ""  # GameState.dumps(): canonical JSON
    created: datetime


class TurnRecord(SQLModel, table=True):
    """Inputs and outputs of one resolved turn, enough to replay it."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(index=True)
    turn: int = Field(index=True)
    orders: str = "{}"  # JSON: nation -> normalized order text used
    events: str = "[]"  # JSON list of events
    dice: str = "[]"  # JSON list of rolls with purposes
    result_sha256: str = ""  # hash of the resulting state's canonical JSON
    resolved: datetime
    ruleset: str = Field(default=LEGACY_RULESET, sa_column_kwargs=_old_rows(LEGACY_RULESET))  # the rules it was resolved with
    ruleset_version: int = Field(default=LEGACY_RULESET_VERSION, sa_column_kwargs=_old_rows(LEGACY_RULESET_VERSION))
    # JSON {"now": [...], "next": [...]}: the moderator's rulings (normalized text) the turn used.
    # "now" ones were applied to the snapshot before the orders met it; "next" ones ran as
    # the orders of the pseudo-nation "moderator" in step R.
    rulings: str = Field(default="{}", sa_column_kwargs=_old_rows("{}"))
    # How the dice were derived from the seed (engine/dice.py): 2, verifiable (HMAC of the turn's
    # committed seed); turns stored before it were rolled with scheme 1 and replay with it.
    dice_scheme: int = Field(default=2, sa_column_kwargs=_old_rows(1))
    # A turn resolved again after a correction (`moderator rollback`): the record it replaces
    # is kept, superseded (its id here); the newest record of a turn is the one that counts.
    corrects: int | None = None


class ReviewItem(SQLModel, table=True):
    """Something the rules leave to the moderator's judgement, or mail set aside."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str | None = Field(default=None, index=True)
    turn: int | None = None
    nation: str | None = None
    kind: str = "flag"  # flag | referred | note | ruling-refused | quarantine
    summary: str = ""
    detail: str = ""
    status: str = "pending"  # pending | approved | rejected | edited
    resolution: str = ""
    created: datetime
    rulings: str = Field(default="", sa_column_kwargs=_old_rows(""))  # the rulings the decision produced, one per line


class Ruling(SQLModel, table=True):
    """One moderator's ruling (grammar/rulings.lark), in its normalized text.

    "now" rulings change the position of `turn` at once: the orders of that turn meet the
    turn's snapshot with them applied, in id order. "next" rulings are carried out in
    step R when `turn` is resolved, as orders of the pseudo-nation "moderator"."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(index=True, foreign_key="game.id")
    turn: int = Field(index=True)
    text: str = ""  # one ruling, normalized (moderator.orders.rulings.normalize_ruling)
    applies: str = "next"  # now | next
    source: str = ""  # adjust (command line) | file (adjust --file) | review:<id> (review approve/edit)
    created: datetime


class Setting(SQLModel, table=True):
    """One setting of the installation kept in the database (not in the configuration file,
    which may be shared): e.g. "desk-secret", the salted hash of the moderator's password for
    answering the review queue by mail (service/review_mail.py)."""

    key: str = Field(primary_key=True)
    value: str = ""


class PoolEntry(SQLModel, table=True):
    """A player on the replacement pool (Replacement Pool: "name, e-mail address and what side
    they would like to join"), signed up by mail or by the moderator."""

    id: int | None = Field(default=None, primary_key=True)
    game_id: str = ""  # "" for any game
    name: str = ""
    email: str = Field(default="", index=True)
    side: str = "any"  # central | allied | any
    status: str = "waiting"  # waiting | seated | withdrawn
    seated: str = ""  # "<game>:<nation>" once given a seat
    created: datetime
