"""Sending mail with aiosmtplib: one connection for a batch, one result per message.

A bad recipient or a server hiccup affects only its own message: every message
gets a SendResult (sent, or failed with the server's words), and the batch
never raises, so a turn's reports are not held up by one dead address. The
caller records the results and can retry the failed ones.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import getaddresses

import aiosmtplib

from moderator.mail.config import MailConfig


@dataclass(frozen=True)
class SendResult:
    message_id: str
    recipients: tuple[str, ...]
    sent: bool
    error: str | None = None
    # Recipients the server refused while accepting the others: address -> reply text.
    refused: dict[str, str] = field(default_factory=dict)
    # The server said no for good (5xx for every recipient, or for the message itself):
    # sending it again would get the same answer. Otherwise a failure is worth retrying.
    permanent: bool = False


# Told of each message's result as soon as it is known, so the caller can record it before
# the next message goes out (a crash mid-batch then re-sends only what was not sent).
OnResult = Callable[[int, SendResult], None]


def send_all(config: MailConfig, messages: Sequence[EmailMessage], on_result: OnResult | None = None) -> list[SendResult]:
    """Send `messages` in order; never raises for a delivery problem. Blocking wrapper."""
    return asyncio.run(send_all_async(config, messages, on_result))


async def send_all_async(config: MailConfig, messages: Sequence[EmailMessage],
                         on_result: OnResult | None = None) -> list[SendResult]:
    if not messages:
        return []
    results: list[SendResult] = []
    client: aiosmtplib.SMTP | None = None
    unreachable = ""
    try:
        for index, message in enumerate(messages):
            if unreachable:  # the server is down: fail the rest at once, the caller retries later
                result = _failed(message, unreachable)
            else:
                if client is None or not client.is_connected:
                    client, error = await _connect(config)
                if client is None:
                    unreachable = f"cannot connect to SMTP server: {error}"
                    result = _failed(message, unreachable)
                else:
                    result = await _send_one(client, message)
            results.append(result)
            if on_result is not None:
                on_result(index, result)
    finally:
        if client is not None and client.is_connected:
            try:
                await client.quit()
            except aiosmtplib.SMTPException:
                client.close()
    return results


async def _connect(config: MailConfig) -> tuple[aiosmtplib.SMTP | None, str]:
    smtp = config.smtp
    client = aiosmtplib.SMTP(
        hostname=smtp.host,
        port=smtp.port,
        username=smtp.user,
        password=smtp.password.reveal() if smtp.password else None,
        use_tls=smtp.ssl,
        start_tls=smtp.starttls,
        timeout=smtp.timeout,
        tls_context=ssl.create_default_context() if (smtp.ssl or smtp.starttls) else None,
        # Our own name for EHLO; the default looks up the machine's FQDN, which can hang.
        local_hostname=config.message_id_domain,
    )
    try:
        await client.connect()
    except (aiosmtplib.SMTPException, OSError) as exc:
        return None, _describe(exc)
    return client, ""


async def _send_one(client: aiosmtplib.SMTP, message: EmailMessage) -> SendResult:
    try:
        refused, _reply = await client.send_message(message)
    except (aiosmtplib.SMTPException, OSError, ValueError) as exc:
        await _reset(client)
        return _failed(message, _describe(exc), permanent=_permanent(exc))
    return SendResult(
        _message_id(message),
        _recipients(message),
        sent=True,
        refused={address: f"{code} {text}" for address, (code, text) in sorted(refused.items())},
    )


async def _reset(client: aiosmtplib.SMTP) -> None:
    """Clear a half-finished transaction so the next message starts clean (RFC 5321 4.1.1.5)."""
    if not client.is_connected:
        return
    try:
        await client.rset()
    except (aiosmtplib.SMTPException, OSError):
        client.close()


def _failed(message: EmailMessage, error: str, permanent: bool = False) -> SendResult:
    return SendResult(_message_id(message), _recipients(message), sent=False, error=error, permanent=permanent)


def _permanent(exc: BaseException) -> bool:
    """5xx for every recipient or for the message (RFC 5321 4.2.1): no use trying again.
    A refused sender or a 4xx is the server's or our configuration's passing trouble."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        return bool(exc.recipients) and all(r.code >= 500 for r in exc.recipients)
    if isinstance(exc, aiosmtplib.SMTPDataError):
        return exc.code >= 500
    return isinstance(exc, ValueError)  # a message the client cannot send at all


def _message_id(message: EmailMessage) -> str:
    return str(message.get("Message-ID", ""))


def _recipients(message: EmailMessage) -> tuple[str, ...]:
    fields = [str(v) for key in ("To", "Cc", "Bcc") for v in message.get_all(key, [])]
    return tuple(address for _name, address in getaddresses(fields) if address)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        return "all recipients refused: " + "; ".join(
            f"{r.recipient}: {r.code} {r.message}" for r in exc.recipients
        )
    return f"{type(exc).__name__}: {exc}"
