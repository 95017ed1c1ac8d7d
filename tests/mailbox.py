"""Reading a test mailbox as a player's mail client would: every message in a folder, oldest first.

The end-to-end tests check what reached each seat; they all read the inbox the same way, so the
way lives here once.
"""
from __future__ import annotations

import email
from collections.abc import Callable
from email import policy
from email.message import EmailMessage

import pytest
from imapclient import IMAPClient


def messages(port: int, address: str, password: str, folder: str = "INBOX") -> list[EmailMessage]:
    """Every message in `folder` of `address`'s mailbox on the loopback IMAP server, in UID order.

    Read-only and with BODY.PEEK, so looking never marks a message read for the daemon under test.
    """
    with IMAPClient("127.0.0.1", port=port, ssl=False) as client:
        client.login(address, password)
        client.select_folder(folder, readonly=True)
        uids = client.search(["ALL"])
        data = client.fetch(uids, [b"BODY.PEEK[]"]) if uids else {}
    out = []
    for uid in sorted(data):
        msg = email.message_from_bytes(data[uid][b"BODY[]"], policy=policy.default)
        assert isinstance(msg, EmailMessage)
        out.append(msg)
    return out


def reset_the_second_fetch(monkeypatch: pytest.MonkeyPatch) -> Callable[..., object]:
    """Make the second `Mailbox.fetch_unseen` of the test raise a connection reset (the server
    dropped the connection mid-FETCH); returns the real method, to put back with monkeypatch."""
    from moderator.mail.intake import Mailbox

    real, calls = Mailbox.fetch_unseen, []

    def reset_on_the_second(self: Mailbox, *args: object, **kwargs: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise ConnectionResetError("connection reset by peer")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Mailbox, "fetch_unseen", reset_on_the_second)
    return real
