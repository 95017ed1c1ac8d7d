"""Orders by mail for a seat from someone other than its player: an ally's proxy orders, and
the moderator's (below, `enter_by_mail`).

Proxy orders (Miscellaneous: "for main war participants allies can give proxy orders" when
a player misses a turn):

An ally writes them from their own seat, with their own password, and one more header line
naming the seat they order for:

    GAME g
    NATION Germany
    PASSWORD germany's-password
    PROXY FOR Austria-Hungary
    MOVE 2 inf FROM Vienna TO Budapest

They are accepted when both nations are in the main war on the same side (allies: the same
non-neutral side) and the seat is held by a player; they are checked as that seat's orders
on its position and stored as its submission, opening with a comment that says who gave
them (PROXY_MARKER), so the receipt, the turn record and the moderator's copy all show it.
The seat's own player comes first: proxy orders are refused once the player's own orders
for the turn are in, and the player's own orders, if they come before the deadline,
replace the proxy's. A later proxy (from any ally) replaces an earlier one. The receipt goes
to the ally and to the seat's player. A seat with proxy orders has not missed the turn (the
moderator plays no default orders for it: service/missed.py).

A government in exile (Conquest: "The host then assumes command of the forces of the
"government in exile" ... and will remain under the host's control until the conquered
nation is liberated"): its host writes the exiled seat's orders the same way, PROXY FOR the
exiled nation, whether or not the seat has a player and whether or not the seat's player
has sent orders; the host's come first. The exiled seat's own orders, and any other ally's
proxy, are refused once the host's are in, and the host's replace them whenever they come
(`host_commands`).

The moderator gives a seat's orders by mail from the moderator's address with the seat's
GAME and NATION lines and the desk password (`moderator review secret`) on the PASSWORD
line: they are entered as `moderator enter` enters them (the seat's receipt says so), and
the moderator gets the receipt back.

A player who commands another nation's army by the rules (the Bolshevik player the
Mutineers after a socialist revolution: phase9_mutiny.commander_of) gives its orders the
same way, with a PROXY FOR line, whether or not that nation has a seat and at any time.
"""

from __future__ import annotations

import re
from html import escape

from moderator.engine.exile import host_of
from moderator.engine.phase9_mutiny import commander_of
from moderator.engine.state import GameState
from moderator.mail.extract import ExtractedMessage
from moderator.service.context import Service
from moderator.service.games import nation_id
from moderator.store.tables import Game

PROXY_LINE = re.compile(r"(?im)^[ \t]*proxy(?:[ \t]+orders)?(?:[ \t]+for|[ \t]*:)?[ \t]+(?P<nation>\S[^\n]*?)[ \t]*$")
PROXY_MARKER = "# Proxy orders given by {giver} (Miscellaneous: allies can give proxy orders)"


def split(text: str) -> tuple[str, str | None]:
    """The mail's text without its PROXY line, and the nation that line names (None: none)."""
    found = PROXY_LINE.search(text)
    if found is None:
        return text, None
    return text[:found.start()] + text[found.end():], found.group("nation").strip().strip("\"'")


def is_proxy(normalized: str) -> bool:
    return normalized.startswith(PROXY_MARKER.split("{", 1)[0])


def host_commands(svc: Service, game: Game, nation: str, state: GameState | None = None) -> tuple[str, str, str] | None:
    """Why orders for the exiled `nation` from anyone but its host are refused now (its
    host's orders for the turn are in), or None. `state`: the turn's position if the caller
    has it; else it is read only when the seat's current orders are a proxy's (every plain
    order mail comes here, and almost none needs the position)."""
    own = svc.store.current_orders(game.id, nation, game.turn)
    if own is None or not is_proxy(own):
        return None
    host = host_of(state if state is not None else svc.checking_position(game), nation)
    if host is None:
        return None
    scenario = svc.scenario(game)
    host_name, name = scenario.nations[host].name, scenario.nations[nation].name
    if PROXY_MARKER.format(giver=host_name) not in own:
        return None
    return (f"{host_name} has given {name}'s orders for turn {game.turn}, so these were not taken.",
            f"{name}'s government is in exile: {host_name}, its host, commands its forces until its "
            "liberation (Conquest).",
            f"Ask {host_name} to change its orders for {name}.")


def refusal(svc: Service, game: Game, giver: str, proxied: str, state: GameState) -> tuple[str, str, str] | None:
    """Why `giver` may not give `proxied` orders now (headline, explanation, hint), or None.
    `state`: the turn's position, read only."""
    scenario = svc.scenario(game)
    name, giver_name = scenario.nations[proxied].name, scenario.nations[giver].name
    if commander_of(state, proxied) == giver:
        return None  # the army the giver's player commands (Phase 9, Mutinies: the socialist revolution)
    if host_of(state, proxied) == giver:
        return None  # the host commands an exiled nation's forces, the seat's player or not
    if (by_host := host_commands(svc, game, proxied, state)) is not None:
        return by_host
    if svc.store.seat(game.id, proxied) is None:
        return (f"{name} has no player in {game.id}, so nobody can give it proxy orders.",
                "Proxy orders stand in for an allied player who has not sent orders.",
                "Remove the PROXY line to send orders for your own nation.")
    mine, theirs = state.nations.get(giver), state.nations.get(proxied)
    in_war = bool(theirs and theirs.side != "neutral" and theirs.at_war_with)
    if not (in_war and mine and state.allies(giver, proxied)):
        return (f"{giver_name} cannot give proxy orders for {name}.",
                "Only allies in the main war give each other proxy orders (the same side, the seat at war).",
                "Send orders for your own nation, or ask the moderator.")
    own = svc.store.current_orders(game.id, proxied, game.turn)
    if own is not None and not is_proxy(own):
        return (f"{name}'s own orders for turn {game.turn} are in, so no proxy orders were taken.",
                "Proxy orders stand in only for a player who has sent none; the player's own orders come first.",
                "Nothing to do: the player has ordered.")
    return None


def accept(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, giver: str, named: str, text: str,
           check_only: bool):  # type: ignore[no-untyped-def]
    """Take proxy orders from `giver` (authenticated) for the seat `named`; the Outcome. They
    are stored without a time of writing, so the player's own orders replace them whenever
    they were written."""
    from moderator.mail.mask import mask_text
    from moderator.orders import parse_orders
    from moderator.service.inbox import Outcome, _queue_reply, _reply, take_orders

    scenario = svc.scenario(game)
    proxied = nation_id(scenario, named)
    if proxied is None:
        return _reply(svc, message_id, mail, game, "Your PROXY line does not name a nation I know.",
                      f"It said {named!r}.", "Write PROXY FOR and the allied nation's name, e.g. PROXY FOR Austria-Hungary.")
    if proxied == giver:
        return _accept_own(svc, message_id, mail, game, giver, text, check_only)
    # The position these orders meet, read once for the mail (and kept for the next one while
    # the turn, its snapshot and its rulings stay the same): the checks below and the check of
    # the orders in take_orders all read it, none changes it.
    state = svc.checking_position(game)
    why = refusal(svc, game, giver, proxied, state)
    if why is not None:
        return _reply(svc, message_id, mail, game, *why)
    giver_name, name = scenario.nations[giver].name, scenario.nations[proxied].name
    marker = PROXY_MARKER.format(giver=giver_name)
    receipt = take_orders(svc, game, proxied, text, check_only=check_only, stored_text=mask_text(mail.text),
                          message=message_id, parsed=parse_orders(text), preface=marker)
    if host_of(state, proxied) == giver:
        note = (f"Orders for {name}, given by {giver_name}, the host of its government in exile, which commands "
                f"its forces (Conquest); they replace any orders {name} had for this turn.")
    else:
        note = (f"Proxy orders for {name}, given by {giver_name} as its ally. They stand for {name}'s player, "
                "whose own orders, if they come before the deadline, replace them.")
    seats = [s.email for s in (svc.store.seat(game.id, giver), svc.store.seat(game.id, proxied)) if s is not None]
    recipients = list(dict.fromkeys([mail.sender, *seats]))
    _queue_reply(svc, mail, game, recipients, f"Proxy {receipt.subject}", f"{note}\n\n{receipt.text}",
                 f"<p><b>{escape(note)}</b></p>\n{receipt.html}")
    svc.store.update_message(message_id, status="processed", game_id=game.id,
                             note=f"proxy {receipt.kind.lower()} {proxied} by {giver} turn {game.turn}")
    return Outcome(message_id, "processed", f"proxy orders by {giver_name}: {receipt.summary}")


def _accept_own(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str, text: str,
                check_only: bool):  # type: ignore[no-untyped-def]
    """PROXY FOR one's own nation: plain orders."""
    from moderator.orders import parse_orders
    from moderator.service.inbox import _accept, written_at

    seat = svc.store.seat(game.id, nation)
    return _accept(svc, message_id, mail, game, nation, parse_orders(text), check_only,
                   seat.email if seat else "", text, written_at(mail.date, svc.clock()))


def from_the_desk(svc: Service, mail: ExtractedMessage, secret: str, *, record: bool = True) -> bool:
    """Mail from the moderator's address whose PASSWORD is the desk password (`moderator review
    secret`): the moderator giving a seat's orders by mail, as `moderator enter` does. A wrong
    one is recorded and throttled as in the review by mail (review_mail.check_desk_password),
    unless not `record` (the moderator's address is the seat's too: its PASSWORD may be the
    seat's own)."""
    from moderator.service.review_mail import check_desk_password

    return (svc.mail is not None and bool(secret) and mail.sender == svc.mail.moderator_address.strip().lower()
            and check_desk_password(svc, mail.sender, secret, record=record) == "ok")


def enter_by_mail(svc: Service, message_id: int, mail: ExtractedMessage, game: Game, nation: str, text: str,
                  check_only: bool):  # type: ignore[no-untyped-def]
    """The moderator's orders for a seat, by mail: entered as `moderator enter` enters them (the
    same checks; the seat's receipt says the moderator entered them), answered with the receipt."""
    from moderator.mail.mask import mask_text
    from moderator.service.entry import enter_orders
    from moderator.service.inbox import Outcome, _queue_reply, _reply

    try:
        entered = enter_orders(svc, game.id, nation, mask_text(text), check_only=check_only)
    except ValueError as exc:
        return _reply(svc, message_id, mail, game, "The orders were not entered.", str(exc),
                      "Correct the mail and send it again.")
    receipt = entered.receipt
    notes = [*entered.notes] + ([f"The receipt was mailed to the seat ({entered.mailed_to})."]
                                if entered.mailed_to else [])
    head = "Entered by you for the seat, as `moderator enter` would." + "".join(f"\n{n}" for n in notes)
    _queue_reply(svc, mail, game, [mail.sender], f"Entered {receipt.subject}", f"{head}\n\n{receipt.text}",
                 f"<p><b>{escape(head)}</b></p>\n{receipt.html}")
    svc.store.update_message(message_id, status="processed", game_id=game.id,
                             note=f"entered by the moderator: {nation} turn {game.turn}")
    return Outcome(message_id, "processed", f"orders entered by the moderator by mail: {receipt.summary}")
