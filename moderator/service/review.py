"""The moderator's review queue: what a resolution leaves to the moderator, and the
moderator's decisions turned into rulings.

At resolution each decision the rules leave to the moderator becomes one review item:

* an order the moderator must resolve (event "order-referred": influence, research, a
  NOTE, ...), kind "referred" (a NOTE: "note"), its cost already charged;
* a default the engine chose where the rules leave judgement (event "moderator-flag"),
  kind "flag";
* a ruling of the moderator's the position no longer allowed ("order-refused" for the
  pseudo-nation "moderator"), kind "ruling-refused".

Items come from the resolution only, not from the receipts at intake: a player may still
replace those orders before the deadline, and an item for orders that were replaced
would wait for a decision nobody needs.

`review approve|edit` may carry rulings (grammar/rulings.lark): they are checked and
stored like `moderator adjust` (source "review:<id>"), for the game's current turn,
which is later than the item's own when the item's turn is already resolved.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from moderator.engine.context import MODERATOR
from moderator.engine.events import Event
from moderator.orders.messages import text as words
from moderator.service.context import Service
from moderator.service.games import nation_namer
from moderator.service.rulings import NEXT, NOW, Adjusted, adjust
from moderator.store.tables import Game, ReviewItem

Names = Callable[[str], str]
DECISIONS = {"approve": "approved", "edit": "edited", "reject": "rejected"}


@dataclass(frozen=True)
class Item:
    kind: str
    nation: str | None
    summary: str


def item_for(e: Event, names: Names) -> Item | None:
    """The review item an event of the resolution asks for, or None."""
    a = e.args
    if e.code == "order-referred" and a["why"] == "note":  # a NOTE speaks for itself
        return Item("note", a["nation"], f"{names(a['nation'])}, order {a['order'] + 1}: {a['text']}")
    if e.code == "order-referred":
        cost = f"; {a['cost']} already charged" if a["cost"] else ""
        return Item("referred", a["nation"],
                    f"{names(a['nation'])}, order {a['order'] + 1} ({a['text']}): {words(a['why'], {}, names)}{cost}")
    if e.code == "moderator-flag":
        who = f"{names(a['nation'])}: " if a["nation"] else ""
        return Item("flag", a["nation"], who + words(a["reason"], a["details"], names))
    if e.code == "order-refused" and a["nation"] == MODERATOR:
        return Item("ruling-refused", None, f"your ruling {a['text']} was not carried out: "
                    f"{words(a['reason'], a['details'], names)}")
    return None


def items_from_resolution(svc: Service, game: Game, turn: int, events: list[Event]) -> list[str]:
    """Store one review item per decision the resolution of `turn` left to the moderator;
    returns "#id summary" for each, for the moderator's copy of the report."""
    names = nation_namer(svc.scenario(game))
    out: list[str] = []
    for e in events:
        item = item_for(e, names)
        if item is None:
            continue
        item_id = svc.store.add_review(game_id=game.id, turn=turn, nation=item.nation, kind=item.kind,
                                       summary=item.summary, detail=json.dumps(e.args, sort_keys=True, default=str))
        out.append(f"#{item_id} {item.summary}")
    return out


@dataclass
class Decision:
    item: ReviewItem
    ruled: Adjusted | None = None  # the rulings the decision carried, checked (and stored if no error)
    notes: list[str] = field(default_factory=list)  # what the moderator should know


def decide(svc: Service, item_id: int, verb: str, *, rulings: str = "", now: bool = False,
           note: str = "") -> Decision:
    """approve / edit / reject review item `item_id`; approve and edit may carry rulings."""
    item = svc.store.review(item_id)
    if item is None:
        raise LookupError(f"there is no review item #{item_id} (`moderator review list --all` shows them all)")
    if verb == "edit" and not rulings.strip():
        raise ValueError("`review edit` changes the game: give the ruling with --ruling, e.g. "
                         "--ruling \"SET SAVED OF France TO 40\" (or use approve / reject)")
    if verb == "reject" and rulings.strip():
        raise ValueError("a rejected item changes nothing; to rule on it, use `review approve` or `review edit`")
    decision = Decision(item)
    if item.status == "withdrawn":
        raise ValueError(f"item #{item_id} was withdrawn ({item.resolution or 'its turn was resolved again'}); "
                         "there is nothing to decide (`moderator review list` shows what waits)")
    resolved = _resolved_turn(svc, item)
    if resolved is not None and not rulings.strip():
        decision.notes.append(
            f"item #{item_id} came from turn {resolved}, which is resolved already, so this decision is only "
            "recorded: nothing in the game changes" + (
                " (the engine's handling stands)" if verb == "approve" else
                f"; to undo what the engine did, give a ruling (`moderator review edit {item_id} --ruling ...`) "
                f"or correct the turn and resolve it again (`moderator rollback --game {item.game_id} "
                f"--turn {resolved}`)"))
    if item.status != "pending":
        decision.notes.append(f"item #{item_id} was {item.status} already ({item.resolution or 'no note'}); this "
                              "decision replaces that record, and rulings stored before stay (undo them by a ruling)")
    if rulings.strip():
        if item.game_id is None:
            raise ValueError(f"item #{item_id} belongs to no game (set-aside mail), so a ruling has nothing to "
                             "change; use `moderator adjust --game G` for the game you mean")
        game = svc.game(item.game_id)
        if item.turn is not None and item.turn < game.turn:
            decision.notes.append(f"item #{item_id} came from turn {item.turn}, which is resolved already: the "
                                  f"ruling applies to the current turn, {game.turn}"
                                  + (" (now)" if now else ", when it is resolved"))
        decision.ruled = adjust(svc, game, rulings, applies=NOW if now else NEXT, source=f"review:{item_id}")
        if decision.ruled.errors or not decision.ruled.stored:
            return decision  # nothing stored, nothing decided: the moderator fixes the ruling
    resolution = note
    if decision.ruled is not None:
        when = "applied at once" if now else "for the next resolution"
        resolution = "; ".join(x for x in (note, f"ruled ({when}): " + " / ".join(decision.ruled.stored)) if x)
    decision.item = svc.store.decide_review(item_id, DECISIONS[verb], resolution,
                                            "\n".join(decision.ruled.stored) if decision.ruled else "")
    return decision


def _resolved_turn(svc: Service, item: ReviewItem) -> int | None:
    """The item's turn if it belongs to a game whose turn has moved past it, else None."""
    if item.game_id is None or item.turn is None:
        return None
    game = svc.store.game(item.game_id)
    return item.turn if game is not None and item.turn < game.turn else None
