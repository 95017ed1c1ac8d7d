"""Every reason the engine hands a decision to the moderator: the review queue's kinds.

A resolution leaves the moderator two kinds of item (`service/review.py`): a referral
(event `order-referred`, its reason `why`: an order the rules leave to the moderator,
its cost already charged; `note` for a NOTE) and a flag (event `moderator-flag`, its
`reason`: a default the engine chose where the rules leave judgement). Issue 14 asks the
soak to hold the queue to the rules' own judgement calls, each named in
docs/rules-coverage.md ("The moderator's review items"). These sets are that list:
`tests/test_judgement_calls.py` holds them equal to the reasons in the engine's source and
to the table, and `moderator simulate` reports any item whose reason is not here.

Two flags are not the rules' judgement but the engine's own safeguards, named so a
moderator knows them: `battle-round-limit` (a battle stopped after MAX_ROUNDS rounds) and
`orders-for-unknown-nation` (stored orders for a nation not in the game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

REFERRALS = frozenset({
    "not-automated", "note", "influence-roll", "self-influence-roll", "gear-up-income", "option-effect",
    "upgrade-cost-unknown",
})

FLAGS = frozenset({
    "attacked-neutral-at-war-with-the-camp", "battle-round-limit", "build-cut-default", "china-civil-war",
    "china-civil-war-ended", "defectors-placed", "enemies-share-sea-zone", "game-over", "garrison-together",
    "historical-end", "irish-rebellion", "minor-attacked-replacement-pool", "minor-funds",
    "minor-ready-replacement-pool", "mutiny-rebels", "naval-retreat-nowhere", "no-friendly-land-for-strategic-units",
    "option-battleship-to-ottomans", "option-gift-units-left", "option-gift-units-shipped",
    "orders-for-unknown-nation", "revolution-free-player", "revolution-no-bolsheviks", "revolutionaries-attacked",
    "revolutionaries-placed", "socialist-revolution", "submarines-dived-away", "surrender-units-stranded",
    "transfer-past-enemy-fleet", "undeclared-attack-penalty", "us-war-production", "war-by-neutral",
})


def reason_of(kind: str, args: Mapping[str, Any]) -> str:
    """The reason of a review item from its event's arguments (the item's stored detail)."""
    if kind == "flag":
        return str(args.get("reason", ""))
    return str(args.get("why", ""))


def named(kind: str, args: Mapping[str, Any]) -> bool:
    """Whether a review item is one of the judgement calls named here."""
    reason = reason_of(kind, args)
    return reason in FLAGS if kind == "flag" else kind in ("referred", "note") and reason in REFERRALS
