"""The golden end-to-end turn with every order type (issue 11: "the golden end-to-end turn uses
every order type the engine resolves, so no event can break a report unseen").

Real IMAP and SMTP on loopback (pymap and aiosmtpd), the real daemon, the real 1914 map. Every
order type of the ruleset (one home each, engine/orders/) is given in one turn:

* a late-war position (tests/drift.py `latewar`, where every order type has legal cases) with
  Italy still neutral and Spain not yet geared up, so COAX and GEAR UP have theirs too: every
  players' order type but DEPLOY, mailed by the seats (in the run of November 28: Germany, Britain,
  Belgium, Japan and Spain, 352 orders); the moderator's rulings (step R) through
  `moderator adjust`, the moderator's own way in (not a seat's mail);
* a game in its deployment turn (Initial Deployment), where DEPLOY is the order.

The orders are the drift suite's (tests/drift.py: each order type has a generator there, which
tests/test_drift.py requires): each seat mails its generators' proposals cut to what the checker
keeps, seats taken while they bring an order type not met yet. A new order type is mailed here as
soon as its generator exists, and this test fails if it is not. Asserted: every receipt says the
orders were accepted as mailed (every line kept, no error), every report and the moderator's copy
reach their mailbox exactly once, every event of the turn is put into words (no
`event-unrendered` or `report-failed` review item; the moderator's copy lists each event), and the
stored inputs replay to the same bytes. The maps are left out (Service.maps=False): what is tested
is the words of every event; the maps have their own tests.
"""

from __future__ import annotations

import dataclasses
import json
import smtplib
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from moderator.engine.check import check_orders
from moderator.engine.context import MODERATOR
from moderator.engine.resolve import default_ruleset
from moderator.mail.server import EmbeddedMailServer
from moderator.orders import model as m
from moderator.orders.rulings import Ruling
from moderator.service.context import Service
from moderator.service.daemon import Daemon
from moderator.service.games import new_game
from moderator.service.rulings import NEXT, adjust
from moderator.service.turns import replay
from moderator.store.db import Store
from tests import drift
from tests.mailbox import messages

MOD, UMPIRE = "moderator@golden.local", "umpire@golden.local"
LATE, DEPLOYING = "golden", "golden-deploy"
SEEDS = tuple(f"golden-{i}" for i in range(12))  # proposals tried, in order, until every type is met


def _address(nation: str) -> str:
    return f"{nation}@golden.local"


def late_position() -> drift.Game:
    """The drift suite's late war, with Italy neutral again (COAX Italy) and Spain not geared
    up (GEAR UP): every players' order type but DEPLOY has a legal case here."""
    game = drift.latewar()
    state = game.state
    italy = state.nations["italy"]
    italy.side = "neutral"
    for a, b in (("italy", "austria-hungary"), ("austria-hungary", "italy")):
        state.nations[a].at_war_with = [n for n in state.nations[a].at_war_with if n != b]
    state.nations["spain"].flags.pop("geared_up", None)
    state.game = LATE
    return dataclasses.replace(game, name="golden-late", state=state)


def order_types(kinds: Callable[[type], bool]) -> list[type[m.Order]]:
    """The order types of the ruleset's homes (one home per order type) that `kinds` takes."""
    return [home.order for home in default_ruleset().rules if kinds(home.order)]


def kept_batch(game: drift.Game, author: str, seed: str) -> list[m.Order]:
    """`author`'s batch of every drift generator's proposals (seed `seed`), cut to what the
    checker keeps: the refused orders dropped until the rest is kept as it stands (an order may
    need another: a breakthrough its attack, a landing its loading)."""
    batch = drift.propose(game, author, seed)
    while True:
        kept = [v.order for v in check_orders(batch, author, game.state, game.world, game.scenario) if v.kept]
        if len(kept) == len(batch):
            return kept
        batch = kept


def every_type(game: drift.Game, wanted: list[type[m.Order]], authors: tuple[str, ...],
               seeds: tuple[str, ...] = SEEDS[:1]) -> dict[tuple[str, str], list[m.Order]]:
    """(author, seed) -> a kept batch, taken while it brings an order type the earlier ones did
    not, until every wanted type is in one."""
    out: dict[tuple[str, str], list[m.Order]] = {}
    met: set[type] = set()
    for seed in seeds:
        for author in authors:
            batch = kept_batch(game, author, seed)
            new = {t for t in wanted if t not in met and any(isinstance(o, t) for o in batch)}
            if new:
                out[(author, seed)] = batch
                met |= new
            if len(met) == len(wanted):
                return out
    missing = [t.__name__ for t in wanted if t not in met]
    raise AssertionError(f"no kept order of {missing} in {game.name}: extend the position or the generators")


def _mail(server: EmbeddedMailServer, game: str, nation: str, lines: list[str]) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = _address(nation), MOD, f"Orders {game}"
    msg.set_content(f"GAME {game}\nNATION {nation}\nPASSWORD secret-{nation}\n" + "\n".join(lines) + "\n")
    with smtplib.SMTP("127.0.0.1", server.smtp_port) as smtp:
        smtp.send_message(msg)


def _wait_for(what: str, done: Callable[[], bool], console: list[str], timeout: float = 300) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if done():
            return
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}:\n" + "\n".join(console[-30:]))


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def test_one_turn_with_every_order_type_through_mail(tmp_path: Path) -> None:
    players = order_types(lambda t: not issubclass(t, (m.Deploy, Ruling)))
    rulings = order_types(lambda t: issubclass(t, Ruling))
    late = late_position()
    late_orders = {a: b for (a, _), b in every_type(late, players, tuple(n for n in late.nations
                                                                        if n != MODERATOR)).items()}
    moderator_rulings = list(every_type(late, rulings, (MODERATOR,), SEEDS).values())
    deploying = drift.deployment()
    deploy_orders = {a: b for (a, _), b in every_type(deploying, [m.Deploy], deploying.nations).items()}
    # Every order type of the ruleset is used: a new one fails here until it is mailed too.
    used = {type(o) for batch in (*late_orders.values(), *moderator_rulings, *deploy_orders.values()) for o in batch}
    for home in default_ruleset().rules:
        assert any(issubclass(t, home.order) for t in used), f"{home.order.__name__} is not in the golden turn"

    seats = {LATE: sorted(late_orders), DEPLOYING: sorted(deploy_orders)}
    users = {MOD: "mod-pw", UMPIRE: "umpire-pw", **{_address(n): f"pw-{n}" for s in seats.values() for n in s}}
    console: list[str] = []
    with EmbeddedMailServer(tmp_path / "mail", users=users) as server:
        svc = Service(store=Store.at(tmp_path / "m.db"), mail=server.client_config(MOD, "mod-pw", UMPIRE),
                      say=console.append, maps=False)
        later = datetime.now(UTC) + timedelta(days=1)
        new_game(svc, LATE, deadline=later, seed="golden-late")
        svc.store.save_snapshot(LATE, late.state.turn, late.state.dumps())
        svc.store.update_game(LATE, turn=late.state.turn)
        new_game(svc, DEPLOYING, deadline=later, seed="golden-deploy", deployment=True)
        for game_id, nations in seats.items():
            for nation in nations:
                svc.store.add_seat(game_id, nation, _address(nation), f"secret-{nation}")
        for batch in moderator_rulings:
            ruled = adjust(svc, svc.game(LATE), "\n".join(drift.text_of(o) for o in batch), applies=NEXT,
                           source="golden")
            assert not ruled.errors, ruled.errors
        mailed = {(LATE, n): [drift.text_of(o) for o in orders] for n, orders in late_orders.items()}
        mailed |= {(DEPLOYING, n): [drift.text_of(o) for o in orders] for n, orders in deploy_orders.items()}
        for (game_id, nation), lines in mailed.items():
            _mail(server, game_id, nation, lines)

        def inbox(nation: str) -> list[EmailMessage]:
            return messages(server.imap_port, _address(nation), f"pw-{nation}")

        daemon = Daemon(svc, poll_seconds=0.5, deadline_seconds=0.5, countdown_seconds=0)
        daemon.start()
        try:
            _wait_for("the receipts", lambda: len(svc.store.messages(direction="in", status="processed"))
                      == len(mailed), console)
            for game_id in seats:
                svc.store.update_game(game_id, deadline=datetime.now(UTC) - timedelta(seconds=1))
            _wait_for("both turns resolved", lambda: all(svc.game(g).turn == t + 1 for g, t in
                                                         ((LATE, late.state.turn), (DEPLOYING, 0))), console)
            _wait_for("the outbox emptied", lambda: not svc.store.messages(direction="out", status="queued"),
                      console)
        finally:
            daemon.stop()
        assert not [line for line in console if " failed" in line], console

        # Every receipt: the orders accepted as mailed, no error.
        for (game_id, nation), lines in mailed.items():
            [receipt] = [r for r in inbox(nation) if str(r["Subject"]).startswith("Re: Receipt")
                         and f"game {game_id}," in _text(r)]
            assert f"({len(lines)} order" in str(receipt["Subject"]) and "0 errors)" in str(receipt["Subject"]), \
                (receipt["Subject"], _text(receipt))
            assert "ERROR" not in _text(receipt)

        # Every report once, and only once, in its mailbox; the moderator's copy once per game.
        received = {n: inbox(n) for n in {n for s in seats.values() for n in s}}
        umpire = messages(server.imap_port, UMPIRE, "umpire-pw")
        every = [msg for box in (*received.values(), umpire) for msg in box]
        assert all(n == 1 for n in Counter((str(msg["To"]), str(msg["Message-ID"])) for msg in every).values())
        for game_id, nations in seats.items():
            for nation in nations:
                reports = [r for r in received[nation]
                           if "report for" in str(r["Subject"]) and f"({game_id})" in str(r["Subject"])]
                assert len(reports) == 1, [str(r["Subject"]) for r in received[nation]]
        # ... and every mail the outbox sent is in each of its recipients' mailboxes, once.
        boxes = {**{_address(n): box for n, box in received.items()}, UMPIRE: umpire}
        outgoing = svc.store.messages(direction="out")
        assert outgoing and all(row.status == "sent" for row in outgoing), Counter(r.status for r in outgoing)
        for row in outgoing:
            for to in (a.strip() for a in row.recipients.split(",")):
                assert [str(msg["Message-ID"]) for msg in boxes[to]].count(row.message_id) == 1, (to, row.subject)

        # Every event put into words: none fell back to plain words, no audience without its report.
        problems = [r for r in svc.store.reviews(status=None) if r.kind in ("event-unrendered", "report-failed")]
        assert not problems, [(r.kind, r.detail) for r in problems]
        for game_id, turn in ((LATE, late.state.turn), (DEPLOYING, 0)):
            record = svc.store.turn_record(game_id, turn)
            assert record is not None
            [copy] = [c for c in umpire if f"({game_id})" in str(c["Subject"]) and f"turn {turn}" in str(c["Subject"])]
            listed = _text(copy).split("== Every event ==", 1)[1]
            assert listed.count("\n- [") == len(json.loads(record.events))
            # The stored inputs replay to the same bytes.
            ok, detail = replay(svc, game_id, turn)
            assert ok, detail
