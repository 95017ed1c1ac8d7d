"""Waiting for new mail with IMAP IDLE (RFC 2177), so a receipt leaves seconds after an
order mail arrives instead of at the next poll.

watch() runs in its own thread with its own connection. It calls `wake` whenever the
server announces new mail (EXISTS), and once after every (re)connection, since mail may
have arrived while it was away. IDLE is re-issued every RENEW (servers may drop an IDLE
after 30 minutes, RFC 2177), which also finds a connection that died silently; a BYE
(the server shutting down, `doveadm kick`) or a socket at its end counts as broken, and a
broken connection is reopened with growing pauses (BACKOFF). Polling stays on beside it: a
server without IDLE, or one that is down, only makes receipts as slow as the poll period.
"""

from __future__ import annotations

import selectors
import ssl
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from imapclient.exceptions import IMAPClientError
from imapclient.imapclient import _parse_untagged_response

from moderator.mail.config import MailConfig
from moderator.mail.intake import IntakeError, Mailbox

if TYPE_CHECKING:
    import socket
    from io import BufferedReader

    from imapclient import IMAPClient

RENEW = 25 * 60.0  # seconds in one IDLE before it is re-issued (well inside the 29 minutes)
CHECK = 5.0  # seconds between looks at the stop signal while idling
BACKOFF = (1.0, 2.0, 5.0, 15.0, 60.0, 300.0)


def watch(config: MailConfig, wake: Callable[[], None], stop: threading.Event, say: Callable[[str], None],
          renew: float = RENEW, idling: threading.Event | None = None) -> None:
    """Idle on the configured folder until `stop` is set (see the module docstring);
    `idling` is set while a connection is idling, cleared while there is none."""
    failures = 0
    while not stop.is_set():
        try:
            with Mailbox(config) as box:
                client = box.client
                if not client.has_capability("IDLE"):
                    say(f"IMAP {config.imap.host} does not offer IDLE: new mail is found by polling only")
                    return
                if failures:
                    say("IMAP IDLE: connected again")
                failures = 0
                wake()  # whatever arrived while there was no connection
                while not stop.is_set():
                    _idle_once(client, wake, stop, renew, idling)
        except (IntakeError, IMAPClientError, OSError) as exc:
            if idling is not None:
                idling.clear()
            pause = BACKOFF[min(failures, len(BACKOFF) - 1)]
            failures += 1
            say(f"IMAP IDLE: {type(exc).__name__}: {exc}; trying again in {pause:g} s (polling goes on)")
            if stop.wait(pause):
                return


def _idle_once(client: object, wake: Callable[[], None], stop: threading.Event, renew: float,
               idling: threading.Event | None) -> None:
    from imapclient import IMAPClient

    assert isinstance(client, IMAPClient)
    client.idle()
    if idling is not None:
        idling.set()
    started = time.monotonic()
    try:
        while not stop.is_set() and time.monotonic() - started < renew:
            responses = _responses(client, CHECK)
            if any(isinstance(r, tuple) and r and r[0] == b"BYE" for r in responses):
                # The server is closing the connection (shutdown, `doveadm kick`); after BYE
                # imapclient would report nothing for ever, so reconnect now.
                raise IntakeError("the IMAP server closed the connection (BYE)")
            if announces_mail(responses):
                wake()
    finally:
        late: list[object] = []
        try:
            late = list(client.idle_done()[1])
        except (IMAPClientError, OSError):
            pass  # the connection is gone; watch() opens a new one
        # What the server said between the last look and DONE (at each renewal): mail that
        # arrived just then is announced here and nowhere else, and was lost before.
        if announces_mail(late):
            wake()


def _responses(client: IMAPClient, timeout: float) -> list[object]:
    """What the server said while idling: waits at most `timeout` for it to say anything, then
    reads whole lines for as long as more is at hand.

    Not imapclient's idle_check, for two reasons (tests/test_daemon.py has both):
    - it reads with the socket non-blocking, so a line that comes in pieces is cut where the
      first piece ends, and imaplib then gives the connection up ("unterminated line").
      pymap writes a FETCH in a dozen small writes, and any TCP segment may end mid-line: on
      a loaded machine one new mail in eight broke the connection so. Here a line once begun
      is read to its end, waiting up to the connection's own read timeout;
    - it asks the socket only, so lines already read ahead into imaplib's buffer (with IDLE's
      continuation, say) waited there for the server's next word. Here they count.
    A socket at its end raises (watch() reconnects), as any broken read does."""
    imap = client._imap  # imaplib's connection, whose buffered reader may hold lines read ahead
    sock = client.socket()
    lines: list[bytes] = []
    while _at_hand(imap.file, sock, 0.0 if lines else timeout):
        line = imap.readline()
        if not line.endswith(b"\r\n"):  # nothing, or half a line, and then the end
            raise IntakeError("the IMAP connection was closed")
        lines.append(line[:-2])
    return [_parse_untagged_response(line) for line in lines]


def _at_hand(reader: BufferedReader, sock: socket.socket, timeout: float) -> bool:
    """Whether the server has said something: bytes read ahead into `reader` or waiting on
    `sock` (a look that does not block), or else any arriving within `timeout` seconds (the
    end of the socket counts: the line read then raises)."""
    saved = sock.gettimeout()
    sock.settimeout(0.0)
    try:
        if reader.peek(1):
            return True
    except ssl.SSLWantReadError:  # TLS: nothing whole yet (a plain socket peeks b"")
        pass
    finally:
        sock.settimeout(saved)
    with selectors.DefaultSelector() as selector:
        selector.register(sock, selectors.EVENT_READ)
        return bool(selector.select(timeout))


def announces_mail(responses: list[object]) -> bool:
    """An EXISTS or RECENT among IDLE responses: new mail in the folder."""
    return any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses if isinstance(r, tuple))
