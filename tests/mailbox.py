"""Reading a test mailbox as a player's mail client would: every message in a folder, oldest first.

The end-to-end tests check what reached each seat; they all read the inbox the same way, so the
way lives here once.
"""
from __future__ import annotations

import email
from email import policy
from email.message import EmailMessage

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
