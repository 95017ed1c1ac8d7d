"""Polling the moderator's mailbox over IMAP (imapclient).

Fetching and acknowledging are separate steps so nothing is lost: the caller
stores the raw bytes first and only then acknowledges, which marks the message
\\Seen and moves it to the processed folder. If storing fails, the message is
still unseen in the inbox and the next poll fetches it again (the store should
deduplicate by Message-ID or a hash of the bytes).

Messages are fetched with BODY.PEEK[] rather than RFC822, because fetching
RFC822 sets \\Seen as a side effect (RFC 3501 6.4.5) - before we have stored it.
"""

from __future__ import annotations

import queue
import ssl
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from types import TracebackType

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from moderator.mail.config import MailConfig

_SEEN = b"\\Seen"
_BODY = b"BODY[]"
_ARRIVED = b"INTERNALDATE"
_SIZE = b"RFC822.SIZE"
HEAD_BYTES = 64 * 1024  # what is kept of a message over the size cap: its header, for the reply
FETCH_BYTES = 32 * 1024 * 1024  # one fetch_unseen() call holds at most about this much mail in memory


class IntakeError(RuntimeError):
    """The mailbox could not be reached or refused an operation."""


@dataclass(frozen=True)
class FetchedMessage:
    """One message as it sits on the server. `uidvalidity` guards acknowledge() against a
    mailbox that was recreated since the fetch (then UIDs name other messages)."""

    uid: int
    uidvalidity: int
    folder: str
    raw: bytes
    # When the server received it (IMAP INTERNALDATE, RFC 3501 2.3.3), with its time zone:
    # lateness is judged by this, not by when the daemon got round to the message.
    arrived: datetime | None = None
    # The message's size on the server; more than len(raw) when it was over the size cap and
    # only its first HEAD_BYTES were fetched.
    size: int = 0

    @property
    def truncated(self) -> bool:
        return self.size > len(self.raw)


class Mailbox:
    """One IMAP connection to the configured folder. Use as a context manager."""

    def __init__(self, config: MailConfig) -> None:
        self.config = config
        self._client: IMAPClient | None = None
        self._uidvalidity = 0
        self._folders: set[str] = set()  # folders known to exist on this connection
        self._fetcher: ThreadPoolExecutor | None = None  # batches(): the thread fetching ahead
        self.fetching = False  # whether that thread may be using the connection now

    def __enter__(self) -> Mailbox:
        self.open()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def open(self) -> None:
        imap = self.config.imap
        try:
            # A TLS context only for a TLS connection: building one loads the system's
            # certificates (20 ms of CPU), at every poll of a plain local server too.
            client = IMAPClient(
                imap.host, port=imap.port, ssl=imap.ssl, ssl_context=ssl.create_default_context() if imap.ssl else None,
                timeout=imap.timeout
            )
            if imap.starttls:
                client.starttls(ssl.create_default_context())
            if imap.user is not None:
                client.login(imap.user, imap.password.reveal() if imap.password else "")
            client.normalise_times = False  # INTERNALDATE with its zone, not as local naive time
            selected = client.select_folder(self.config.folder)
        except (IMAPClientError, OSError) as exc:
            raise IntakeError(f"IMAP {imap.host}:{imap.port} folder {self.config.folder!r}: {exc}") from exc
        self._client = client
        self._uidvalidity = int(selected.get(b"UIDVALIDITY", 0))

    def close(self) -> None:
        fetcher, self._fetcher = self._fetcher, None
        if fetcher is not None:  # a batches() left unfinished: its fetch under way uses the connection
            fetcher.shutdown(wait=True)
        client, self._client = self._client, None
        if client is None:
            return
        try:
            client.logout()
        except (IMAPClientError, OSError):
            pass  # the connection is going away either way

    @property
    def client(self) -> IMAPClient:
        if self._client is None:
            raise IntakeError("the mailbox is not open")
        return self._client

    def fetch_unseen(self, limit: int | None = None, skip: frozenset[int] = frozenset()) -> list[FetchedMessage]:
        """Messages not yet filed away, oldest UID first, without changing any flag (BODY.PEEK).

        With a processed folder, that is every message still in the folder: filing moves it
        out, so what is left was not filed - whatever its \\Seen flag says (a human reading
        the mailbox, or a crash between flagging and moving, must not hide a message). Only
        without one does \\Seen mark what was done. `skip`: UIDs this poll has had already."""
        criteria = ["NOT", "DELETED"] if self.config.processed_folder else ["UNSEEN"]
        uids = sorted(int(uid) for uid in self.client.search(criteria) if int(uid) not in skip)
        if limit is not None:
            uids = uids[:limit]
        if not uids:
            return []
        # Sizes first, so memory stays bounded: a message over the cap is fetched only as far
        # as its header, and one call takes no more than FETCH_BYTES (the rest at the next).
        meta = self.client.fetch(uids, ["RFC822.SIZE", "INTERNALDATE"])
        whole: list[int] = []
        heads: list[int] = []
        held = 0
        for uid in uids:
            size = int(meta.get(uid, {}).get(_SIZE, 0))
            cost = min(size, HEAD_BYTES) if size > self.config.max_message_bytes else size
            if (whole or heads) and held + cost > FETCH_BYTES:
                break
            (heads if size > self.config.max_message_bytes else whole).append(uid)
            held += cost
        bodies = dict(self.client.fetch(whole, ["BODY.PEEK[]"])) if whole else {}
        if heads:
            head = f"BODY[]<0.{HEAD_BYTES}>"
            for uid, data in self.client.fetch(heads, [f"BODY.PEEK[]<0.{HEAD_BYTES}>"]).items():
                part = data.get(head.encode()) or data.get(b"BODY[]<0>")
                if part is not None:
                    bodies[uid] = {_BODY: part}
        messages = []
        for uid in whole + heads:
            data = bodies.get(uid)
            if data is None or _BODY not in data or uid not in meta:
                continue  # expunged by someone else between SEARCH and FETCH
            arrived = meta[uid].get(_ARRIVED)
            if isinstance(arrived, datetime):
                arrived = arrived.astimezone(UTC) if arrived.tzinfo else arrived.replace(tzinfo=UTC)
            raw = bytes(data[_BODY])
            if not raw.strip():
                # No message is empty: a server answers an empty body for one another client
                # moved away as we fetched it (two daemons on one mailbox); it is not ours to store.
                continue
            messages.append(FetchedMessage(uid, self._uidvalidity, self.config.folder, raw,
                                           arrived if isinstance(arrived, datetime) else None,
                                           # a whole message's size is its bytes (RFC822.SIZE counts
                                           # CRLF line ends, which a server may store as LF)
                                           max(int(meta[uid].get(_SIZE, 0)), len(raw)) if uid in heads
                                           else len(raw)))
        messages.sort(key=lambda m: m.uid)
        return messages

    def batches(self, limit: int,
                fetched: Callable[[list[FetchedMessage]], None] | None = None) -> Iterator[list[FetchedMessage]]:
        """Every message not yet filed away, in batches of at most `limit` (fetch_unseen's),
        fetched ahead: when batch k is handed out, batch k+1 is already fetched and given to
        `fetched` (the read-ahead workers start on it), and batch k+2 is being fetched by a
        thread, so neither the workers nor the caller wait for the server while the caller
        stores, handles and files batch k (issue 11: between two batches a worker waited for
        the IMAP fetch, the commits and the filing, and the caller for the fetch). At most
        three batches are held in memory. The connection is the fetching thread's while this
        runs: the caller uses no other command of this Mailbox meanwhile (close() waits for a
        fetch under way). A fetch that fails ahead (a connection reset) is raised only when
        its batch is due, after the caller is done with the batch before, so the caller's
        steps happen in the same order as with one fetch at a time."""
        seen: set[int] = set()

        def fetch() -> list[FetchedMessage]:
            batch = self.fetch_unseen(limit=limit, skip=frozenset(seen))
            seen.update(item.uid for item in batch)
            return batch

        fetcher = self._fetcher = ThreadPoolExecutor(1, thread_name_prefix="imap-fetch-ahead")
        try:
            batch = fetch()
            ahead = fetcher.submit(fetch) if batch else None
            if batch and fetched is not None:
                fetched(batch)
            while batch:
                assert ahead is not None
                try:
                    following, failed = ahead.result(), None
                except Exception as exc:  # noqa: BLE001 - raised below, once this batch is done
                    following, failed = [], exc
                ahead = fetcher.submit(fetch) if following else None
                if following and fetched is not None:
                    fetched(following)
                self.fetching = ahead is not None
                yield batch
                self.fetching = True
                if failed is not None:
                    raise failed
                batch = following
        finally:
            self._fetcher, self.fetching = None, False
            fetcher.shutdown(wait=True)

    def acknowledge(self, messages: Iterable[FetchedMessage]) -> list[int]:
        """Mark stored messages \\Seen and move them to the processed folder; returns the UIDs handled."""
        return self._file_away(messages, self.config.processed_folder)

    def quarantine(self, messages: Iterable[FetchedMessage]) -> list[int]:
        """Set aside mail the service must not answer (e.g. auto-submitted) for the moderator."""
        return self._file_away(messages, self.config.quarantine_folder)

    def _file_away(self, messages: Iterable[FetchedMessage], folder: str | None) -> list[int]:
        uids = self._current_uids(messages)
        if not uids:
            return []
        client = self.client
        client.add_flags(uids, [_SEEN])
        if folder and self._ensure_folder(folder):
            if client.has_capability("MOVE"):
                client.move(uids, folder)
            else:  # RFC 3501 fallback: copy, then delete the originals
                client.copy(uids, folder)
                client.delete_messages(uids)
                if client.has_capability("UIDPLUS"):
                    client.uid_expunge(uids)
                else:
                    client.expunge()
        return uids

    def _current_uids(self, messages: Iterable[FetchedMessage]) -> list[int]:
        # A UID is only meaningful with the UIDVALIDITY it was fetched under (RFC 3501 2.3.1.1).
        return sorted(
            m.uid for m in messages if m.uidvalidity == self._uidvalidity and m.folder == self.config.folder
        )

    def _ensure_folder(self, folder: str) -> bool:
        """Create `folder` if needed; False if the server will not (then \\Seen alone must do)."""
        client = self.client
        if folder in self._folders:
            return True
        try:
            if not client.folder_exists(folder):
                client.create_folder(folder)
        except IMAPClientError:
            return False
        self._folders.add(folder)
        return True


class Filer:
    """Files batches away (Mailbox.quarantine, then Mailbox.acknowledge) on an IMAP connection
    of its own, in a thread, while the polling thread goes on with the next batch: the server's
    MOVE of a batch (its index, its disk) was a wait in the polling thread, a sixth of a burst's
    time (issue 11, round 13). Only stored, handled batches are given to it, in order, so
    exactly once holds as before: a batch not filed (the process died, the connection broke) is
    still in the folder, fetched again at the next poll and found stored. The connection is
    opened at the first batch (an empty poll opens none). Use as a context manager: leaving it
    waits for the batches given, and raises the first error the thread met (the batches after
    it are left in the folder), unless the block itself raised."""

    def __init__(self, config: MailConfig, box: Mailbox | None = None) -> None:
        self.config = config
        self._box = box  # the fetching connection: used itself when no fetch is under way on it
        self._jobs: queue.SimpleQueue[tuple[list[FetchedMessage], list[FetchedMessage],
                                            Callable[[], None] | None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def __enter__(self) -> Filer:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            self._jobs.put(None)
            thread.join()
        error, self._error = self._error, None
        if error is not None and exc is None:
            raise error

    def file(self, quarantined: list[FetchedMessage], processed: list[FetchedMessage],
             after: Callable[[], None] | None = None) -> None:
        """File these away in the thread (`after`: called there once they are); or at once on
        the fetching connection when no fetch is under way on it (a poll's only or last batch:
        no second connection, nothing to overlap)."""
        if self._box is not None and not self._box.fetching:
            self._box.quarantine(quarantined)
            self._box.acknowledge(processed)
            if after is not None:
                after()
            return
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="imap-filer", daemon=True)
            self._thread.start()
        # (only where each one is: the bytes are not held for this)
        self._jobs.put(([replace(m, raw=b"") for m in quarantined], [replace(m, raw=b"") for m in processed], after))

    def _run(self) -> None:
        box: Mailbox | None = None
        try:
            while (job := self._jobs.get()) is not None:
                if self._error is not None:
                    continue  # the rest stays in the folder for the next poll
                quarantined, processed, after = job
                try:
                    if box is None:
                        box = Mailbox(self.config)
                        box.open()
                    box.quarantine(quarantined)
                    box.acknowledge(processed)
                    if after is not None:
                        after()
                except BaseException as exc:  # noqa: BLE001 - raised in the polling thread, at the end
                    self._error = exc
        finally:
            if box is not None:
                box.close()


def fetch_unseen(config: MailConfig, limit: int | None = None) -> list[FetchedMessage]:
    """Open, fetch the unseen messages, close."""
    with Mailbox(config) as mailbox:
        return mailbox.fetch_unseen(limit)


def acknowledge(config: MailConfig, messages: Sequence[FetchedMessage]) -> list[int]:
    """Open, acknowledge `messages` (already stored by the caller), close."""
    if not messages:
        return []
    with Mailbox(config) as mailbox:
        return mailbox.acknowledge(messages)


def quarantine(config: MailConfig, messages: Sequence[FetchedMessage]) -> list[int]:
    """Open, move `messages` to the quarantine folder, close."""
    if not messages:
        return []
    with Mailbox(config) as mailbox:
        return mailbox.quarantine(messages)
