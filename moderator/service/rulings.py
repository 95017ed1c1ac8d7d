"""The moderator's rulings in the service: checked, stored, applied (issue 7, point 7).

A ruling (grammar/rulings.lark) is stored as one normalized line in the Ruling table,
for the game's current turn, and applies either

* "now": the position of the current turn changes at once. The turn's snapshot is
  never rewritten; the position its orders meet is the snapshot with the turn's "now"
  rulings applied in the order given (Service.position), so the snapshot stays the
  plain result of the turn before and replay can start from it; or
* "next": carried out in step R when the turn is resolved, as orders of the
  pseudo-nation "moderator", before Phase 1 (so a treasury the moderator sets can pay
  for the turn's builds).

A ruling is checked by its home (moderator/engine/orders/rulings.py) on the position it
will meet: a "now" ruling on the current position, a "next" one on the position after
the "next" rulings stored before it. Any error stores nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from moderator.engine.context import MODERATOR
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.resolve import apply_rulings
from moderator.engine.ruleset import Ruleset
from moderator.engine.state import GameState
from moderator.orders.checker import check_rulings
from moderator.orders.diagnostics import ERROR, Diagnostic
from moderator.orders.model import Order
from moderator.orders.rulings import normalize_ruling, parse_rulings
from moderator.reports.render import event_text
from moderator.service.context import Service
from moderator.service.games import nation_namer
from moderator.store.tables import Game
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

NOW, NEXT = "now", "next"


def parse_stored(texts: Sequence[str]) -> list[Order]:
    """Stored rulings (one normalized line each) back to typed rulings."""
    out: list[Order] = []
    for text in texts:
        parsed = parse_rulings(text)
        if parsed.diagnostics or len(parsed.orders) != 1:
            raise ValueError(f"the stored ruling {text!r} no longer reads as one ruling: "
                             + "; ".join(d.message for d in parsed.diagnostics))
        out.extend(parsed.orders)
    return out


def apply_now(state: GameState, texts: Sequence[str], world: World, scenario: Scenario, ruleset: Ruleset,
              dice: Dice) -> tuple[GameState, list[Event]]:
    """`state` with the "now" rulings `texts` carried out in order, and their events."""
    if not texts:
        return state, []
    return apply_rulings(state, parse_stored(texts), world, scenario, dice, ruleset)


def pending(svc: Service, game: Game) -> tuple[list[str], list[str]]:
    """The rulings of the current turn: (now, next), each in the order given."""
    rows = svc.store.rulings(game.id, game.turn)
    return [r.text for r in rows if r.applies == NOW], [r.text for r in rows if r.applies == NEXT]


def meets(svc: Service, game: Game, applies: str) -> GameState:
    """The position a new ruling meets: the current position for "now"; for "next", the
    current position after the "next" rulings already stored (they run first in step R)."""
    position = svc.position(game)
    if applies == NOW:
        return position
    _, later = pending(svc, game)
    return apply_now(position, later, svc.world(game), svc.scenario(game), svc.ruleset(game),
                     Dice(game.seed, game.turn))[0]


@dataclass
class Adjusted:
    """What became of a moderator's rulings."""

    diagnostics: list[Diagnostic]
    stored: list[str] = field(default_factory=list)  # normalized rulings stored (none if any error)
    applies: str = NEXT
    changes: list[str] = field(default_factory=list)  # "now": what changed, in words
    orphaned: list[Diagnostic] = field(default_factory=list)  # "now": stored "next" rulings it broke

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == ERROR]


def adjust(svc: Service, game: Game, text: str, *, applies: str, source: str) -> Adjusted:
    """Check rulings on the position they will meet; store them unless one is wrong."""
    if game.status == "finished":
        raise RuntimeError(f"game {game.id} is finished; its position can no longer change")
    if game.status not in ("open", "correcting"):  # correcting: a turn opened again (`rollback`)
        raise RuntimeError(f"turn {game.turn} of {game.id} is being resolved ({game.status}); "
                           "give the ruling again when the new turn is open")
    world, scenario, ruleset = svc.world(game), svc.scenario(game), svc.ruleset(game)
    before = meets(svc, game, applies)
    checked = check_rulings(text, before, world, scenario, ruleset)
    result = Adjusted(checked.diagnostics, applies=applies)
    if result.errors or not checked.orders:
        return result
    result.stored = [normalize_ruling(r) for r in checked.orders]
    svc.store.add_rulings(game.id, game.turn, result.stored, applies=applies, source=source)
    if applies == NOW:
        _, events = apply_now(before, result.stored, world, scenario, ruleset, Dice(game.seed, game.turn))
        names = nation_namer(scenario)
        result.changes = [event_text(e, names) for e in events]
        result.orphaned = next_rulings_refused(svc, game)
    return result


def next_rulings_refused(svc: Service, game: Game) -> list[Diagnostic]:
    """The stored "next" rulings the position no longer allows (a "now" ruling removed the
    units a "next" one moves, say): the moderator hears it now, not at the resolution."""
    _, later = pending(svc, game)
    if not later:
        return []
    checked = check_rulings("\n".join(later), svc.position(game), svc.world(game), svc.scenario(game),
                            svc.ruleset(game))
    return [d for d in checked.diagnostics if d.severity == ERROR]


def moderator_orders(texts: Sequence[str]) -> dict[str, list[Order]]:
    """The "next" rulings as the orders resolve() carries out for the pseudo-nation."""
    return {MODERATOR: parse_stored(texts)} if texts else {}
