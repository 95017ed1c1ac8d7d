"""Orders the moderator enters for a seat (`moderator enter`): orders that reached the
moderator another way than by the seat's own mail (by telephone, in an ally's mail).

They go through exactly what a mail with orders goes through (inbox.take_orders): the
same checks on the same position, the same normalized echo stored as the seat's
submission, replacing its earlier orders for the turn as a later mail would, and the
same receipt, which also says the moderator entered them. No seat password is needed:
the moderator vouches for the orders.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from moderator.mail.compose import AUTO_GENERATED, compose
from moderator.orders import parse_orders
from moderator.service.context import Service
from moderator.service.games import describe_deadline, nation_id
from moderator.service.inbox import Receipt, queue, take_orders
from moderator.store.tables import Game


@dataclass
class Entered:
    receipt: Receipt
    notes: list[str] = field(default_factory=list)  # things the moderator should know
    mailed_to: str | None = None  # the seat's address, if the receipt was queued for it


def enter_orders(svc: Service, game_id: str, nation_typed: str, text: str, *, check_only: bool = False) -> Entered:
    """Check and (unless check_only) store a seat's orders as if its player had mailed them."""
    game = svc.game(game_id)
    scenario = svc.scenario(game)
    nation = nation_id(scenario, nation_typed)
    if nation is None:
        names = ", ".join(sorted(n.name for n in scenario.nations.values()))
        raise ValueError(f"no nation {nation_typed!r} in game {game.id}; the nations are: {names}")
    _header_agrees(game, nation, text, svc)
    if game.status not in ("open", "correcting"):  # correcting: a turn opened again (`rollback`)
        raise ValueError(f"turn {game.turn} of {game.id} is being resolved right now; enter the orders for the "
                         "new turn once its reports are out")
    notes = []
    if not check_only and game.deadline is not None and svc.clock() > game.deadline:
        notes.append(f"the deadline ({describe_deadline(game.deadline)}) has passed; the orders are stored "
                     "because you entered them, and count if the turn is not resolved yet")
    receipt = take_orders(svc, game, nation, text, check_only=check_only, entered=True)
    entered = Entered(receipt, notes)
    seat = svc.store.seat(game.id, nation)
    if seat is None:
        entered.notes.append(f"{scenario.nations[nation].name} has no seat in {game.id}, so the receipt was not mailed")
    elif svc.mail is not None and not check_only:
        _mail(svc, game, seat.email, receipt)
        entered.mailed_to = seat.email
    return entered


def _header_agrees(game: Game, nation: str, text: str, svc: Service) -> None:
    """A GAME, NATION or TURN line in the file must agree with what the moderator typed:
    a mismatch usually means the wrong file, which would replace the wrong seat's orders."""
    header = parse_orders(text).header
    scenario = svc.scenario(game)
    if header.nation and nation_id(scenario, header.nation) != nation:
        raise ValueError(f"the file's NATION line says {header.nation}, but --nation says "
                         f"{scenario.nations[nation].name}: check which file this is")
    if header.game and header.game.strip().lower() != game.id.lower():
        raise ValueError(f"the file's GAME line says {header.game}, not {game.id}: check which file this is")
    if header.turn is not None and int(header.turn) != game.turn:
        raise ValueError(f"the file's TURN line says {header.turn}, but {game.id} is at turn {game.turn}; "
                         f"change it to TURN {game.turn} if these orders are for this turn")


def _mail(svc: Service, game: Game, to: str, receipt: Receipt) -> None:
    cfg = svc.require_mail()
    msg = compose(sender=cfg.from_address, to=[to], subject=receipt.subject, text=receipt.text, html=receipt.html,
                  date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED)
    queue(svc, msg, game.id)
