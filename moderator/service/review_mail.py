"""The review queue by mail: a digest of what waits, with one-line commands to answer.

The moderator answers from the configured moderator address ([mail] moderator_address),
with the desk password (`moderator review secret` makes one; its salted hash is kept in
the database) and one command per line:

    PASSWORD the-desk-password
    APPROVE 12
    APPROVE 13 SET FLAG kiel_canal OF Germany TO open
    EDIT 14 ADJUST SAVED OF Germany BY -20
    EDIT 15 NOW SET SAVED OF France TO 40
    REJECT 16 Belgium will fight
    DIGEST

Each line is decided as `moderator review approve|edit|reject` would (service/review.py):
a ruling after the item's number is checked and stored for the next resolution (NOW: at
once); REJECT takes the rest of the line as its note. The reply says what became of each
line and ends with the digest of what still waits. A mail from the moderator's address
without a right password changes nothing and is answered so (the password line is masked
in the stored copy, as seat passwords are). Wrong desk passwords are recorded and throttled
as a seat's are (check_desk_password): after THROTTLE_AFTER of them within THROTTLE_WINDOW the
desk password is not checked until the window has passed, and the moderator's address is
told (the answers go there: only mail from it is read as the desk's).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime

from moderator.mail.extract import ExtractedMessage
from moderator.store.db import hash_secret, verify_secret
from moderator.store.tables import ReviewItem

from .context import Service

SECRET_KEY = "desk-secret"
COMMAND = re.compile(r"(?im)^\s*(APPROVE|REJECT|EDIT)\s+#?(\d+)\b[ \t]*(.*?)\s*$")
DIGEST = re.compile(r"(?im)^\s*DIGEST\s*$")
PASSWORD = re.compile(r"(?im)^\s*(?:PASSWORD|SECRET)\s*:?\s*(\S+)\s*$")


def new_desk_secret(svc: Service) -> str:
    """A new desk password: returned once, kept only as a salted hash."""
    secret = secrets.token_urlsafe(12)
    svc.store.set_setting(SECRET_KEY, hash_secret(secret))
    return secret


# The desk's refused attempts are kept with the seats' (store AuthFailure) under this game id
# and nation, and counted as a seat's are (Store.refused_at_seat): whoever the sender. They are
# a throttle of their own: not counted per sender with the seats' (Store.refused_attempts), nor
# the seats' with them, so neither throttles the other for the moderator's address (issue 11).
DESK_GAME, DESK_NATION, DESK_REASON = "", "desk", "desk"
THROTTLED_NOTICE_KEY = "desk-throttled-notice"  # when the moderator was last told the desk is throttled


def check_desk_password(svc: Service, sender: str, given: str | None, *, record: bool = True) -> str:
    """The desk password `given` in a mail from `sender` (the moderator's address): "ok",
    "wrong" (recorded, unless not `record`), "unset" (no desk password yet) or "throttled"
    (THROTTLE_AFTER wrong ones within THROTTLE_WINDOW: not even checked, so a guesser forging
    the moderator's address gets no more guesses than a seat's guesser)."""
    from moderator.service.inbox import THROTTLE_AFTER, THROTTLE_WINDOW

    stored = svc.store.setting(SECRET_KEY)
    if stored is None:
        return "unset"
    now = svc.clock()
    if svc.store.refused_at_seat(DESK_GAME, DESK_NATION, DESK_REASON, now - THROTTLE_WINDOW,
                                 THROTTLE_AFTER) >= THROTTLE_AFTER:
        return "throttled"
    if given and verify_secret(given, stored):
        return "ok"
    if record:
        svc.store.add_auth_failure(sender, DESK_GAME, DESK_NATION, DESK_REASON, now)
    return "wrong"


def is_command_mail(svc: Service, mail: ExtractedMessage) -> bool:
    """Mail from the moderator's address with a review command or DIGEST line."""
    if svc.mail is None or mail.sender != svc.mail.moderator_address.strip().lower():
        return False
    return bool(COMMAND.search(mail.text) or DIGEST.search(mail.text))


@dataclass
class Answer:
    ok: bool  # the password was right
    lines: list[str]  # what became of each command
    digest: str


def answer(svc: Service, text: str, sender: str = "") -> Answer:
    """Carry out the commands of one mail's text (from `sender`), as the moderator's decisions."""
    from moderator.service.inbox import THROTTLE_AFTER, THROTTLE_WINDOW
    from moderator.service.review import decide

    given = PASSWORD.search(text)
    verdict = check_desk_password(svc, sender, given.group(1) if given else None)
    if verdict == "unset":
        return Answer(False, ["No desk password is set, so the review queue cannot be answered by mail: run "
                              "`moderator review secret` once and keep the password it prints."], "")
    if verdict == "throttled":
        return Answer(False, [f"There were {THROTTLE_AFTER} wrong desk passwords within "
                              f"{int(THROTTLE_WINDOW.total_seconds() // 60)} minutes (someone may be guessing it), "
                              "so this mail was not read and nothing was decided. Send it again once that long has "
                              "passed without a wrong one; if the wrong ones were not yours, run `moderator review "
                              "secret` for a new desk password."], "")
    if verdict == "wrong":
        return Answer(False, ["The PASSWORD line is missing or wrong, so nothing was decided."], "")
    lines: list[str] = []
    for m in COMMAND.finditer(text):
        verb, item_id, rest = m.group(1).lower(), int(m.group(2)), m.group(3)
        if "|" in rest:
            continue  # the digest's own help line, quoted back without ">" by some mail programs
        now = bool(re.match(r"(?i)NOW\b", rest)) and verb != "reject"
        if now:
            rest = rest[3:].strip()
        said = m.group(0).strip()
        try:
            decision = decide(svc, item_id, verb, rulings="" if verb == "reject" else rest, now=now,
                              note=rest if verb == "reject" else "by mail")
        except (LookupError, ValueError, RuntimeError) as exc:
            lines.append(f"{said}\n  not done: {exc}")
            continue
        notes = [f"  note: {n}" for n in decision.notes]
        if decision.ruled is not None and (decision.ruled.errors or not decision.ruled.stored):
            problems = [f"  {d.render()}" for d in decision.ruled.diagnostics] or ["  the ruling changed nothing"]
            lines.append("\n".join([said, "  not done: the ruling has an error; the item still waits", *problems]))
            continue
        item = decision.item
        lines.append("\n".join([said, f"  #{item.id} {item.status}" + (f": {item.resolution}" if item.resolution
                                                                       else ""), *notes]))
    if not lines and not DIGEST.search(text):
        lines.append("No APPROVE, EDIT or REJECT line was found.")
    return Answer(True, lines, digest(svc))


def digest(svc: Service, game_id: str | None = None) -> str:
    """What waits for the moderator, each item with the commands that answer it."""
    items = [r for r in svc.store.reviews(None) if game_id is None or r.game_id in (game_id, None)]
    if not items:
        return "Nothing waits for your decision."
    out = [f"{len(items)} item{' waits' if len(items) == 1 else 's wait'} for your decision. Answer by mail from "
           "this address, with your PASSWORD line and one line per decision:"]
    for r in items:
        out.append(f"#{r.id} {_where(r)} {r.summary}")
        out.append(f"    APPROVE {r.id}   |   REJECT {r.id} reason   |   EDIT {r.id} RULING")
    out.append("APPROVE may carry a ruling too; NOW after the number applies it at once. "
               "`moderator adjust --help` lists the rulings.")
    return "\n".join(out)


def _where(r: ReviewItem) -> str:
    turn = f", turn {r.turn}" if r.turn is not None else ""
    return f"[{r.kind}, {r.game_id or 'no game'}{turn}]"


def handle(svc: Service, message_id: int, mail: ExtractedMessage):  # type: ignore[no-untyped-def]
    """One command mail from the moderator: decide, reply with the results and the digest."""
    from moderator.reports.render import render
    from moderator.service.inbox import Outcome, _queue_reply

    result = answer(svc, mail.text, mail.sender)
    throttled = not result.ok and result.lines[0].startswith("There were")
    if throttled:
        # Told once a window, not once a mail: a guesser's flood must not become one to the moderator.
        from moderator.service.inbox import THROTTLE_WINDOW

        last = svc.store.setting(THROTTLED_NOTICE_KEY)
        if last is not None and datetime.fromisoformat(last) > svc.clock() - THROTTLE_WINDOW:
            summary = "review by mail not read: the desk password is throttled (the moderator was told)"
            svc.store.update_message(message_id, status="processed", note=summary)
            return Outcome(message_id, "processed", summary)
        svc.store.set_setting(THROTTLED_NOTICE_KEY, svc.clock().isoformat())
    text, html = render("desk_reply", ok=result.ok, lines=result.lines, digest=result.digest)
    _queue_reply(svc, mail, None, [mail.sender], "Review queue" + ("" if result.ok else ": nothing decided"),
                 text, html)
    done = sum(1 for line in result.lines if "\n  #" in line)
    summary = (f"review by mail from the moderator: {done} of {len(result.lines)} decided" if result.ok
               else "review by mail not read: the desk password is throttled" if throttled
               else "review by mail refused: no or wrong desk password")
    svc.store.update_message(message_id, status="processed", note=summary)
    return Outcome(message_id, "processed", summary)


def queue_digest(svc: Service, game_id: str | None = None) -> None:
    """Mail the digest to the moderator (`moderator review digest --mail`)."""
    from moderator.mail.compose import AUTO_GENERATED, compose
    from moderator.reports.render import render
    from moderator.service.inbox import queue

    cfg = svc.require_mail()
    text, html = render("desk_reply", ok=True, lines=[], digest=digest(svc, game_id))
    queue(svc, compose(sender=cfg.from_address, to=[cfg.moderator_address], subject="Review queue: what waits",
                       text=text, html=html, date=svc.clock(), domain=cfg.message_id_domain,
                       auto_submitted=AUTO_GENERATED), game_id)
