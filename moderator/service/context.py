"""What every service job needs: the store, the mail settings, a clock and a console.

Passing these in (instead of reaching for globals) lets the tests run the real jobs
against a temporary database, the embedded mail server and a fixed clock.

Two readings of a game's state: `state()` is the stored snapshot of a turn (what the
resolution of the turn before left), `position()` is what that turn's orders meet: the
snapshot with the moderator's "now" rulings applied in order. Everything that checks
orders, shows the state or resolves a turn uses position().
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from moderator.engine.dice import Dice
from moderator.engine.ruleset import Ruleset
from moderator.engine.state import GameState
from moderator.mail.config import MailConfig
from moderator.store.db import Store
from moderator.store.tables import Game
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import load_scenario
from moderator.world.scenario_model import Scenario

if TYPE_CHECKING:
    from moderator.service.read_ahead import ReadAhead

log = logging.getLogger("moderator")


def system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass
class Service:
    store: Store
    mail: MailConfig | None = None
    clock: Callable[[], datetime] = system_clock
    say: Callable[[str], None] = field(default=log.info)
    archive: Path | None = None  # if set, a copy of every sent mail (.eml) and map (.png) goes here
    # When the next turn's orders are due after an update at `now` (default: the game's cycle,
    # games.orders_due); the demo gives its short one here, so its reports print the real deadline.
    next_deadline: Callable[[datetime, Game], datetime] | None = None
    # Without [mail] settings a resolution writes the reports here (<game>/turn-<N>/<audience>/)
    # instead of queueing them; None: it writes none (`moderator report` writes one on demand).
    reports_dir: Path | None = None
    # Draw each report's map (matplotlib, seconds per audience); `simulate --no-maps` leaves
    # them out so a long soak measures everything else.
    maps: bool = True
    # [site] dir: every resolution writes the game's public page to <site_dir>/<game id>/
    # (service/site.py); None: only `moderator site` writes it.
    site_dir: Path | None = None
    # Seconds spent building reports, summed over the resolutions (`moderator simulate`
    # splits a turn's time into intake, resolution, reports and sending with it).
    report_seconds: float = 0.0
    # The worker processes reading fetched mail ahead of the polling thread (inbox.poll,
    # service/read_ahead.py), started with the first batch large enough.
    read_ahead: ReadAhead | None = field(default=None, repr=False)
    # Outgoing rows the SMTP server accepted whose "sent" could not be committed (a full disk):
    # row id -> (when, note). service/sending.py marks them before sending anything else and
    # never sends them again, so a disk that stays full does not mail a player at every try.
    sent_unmarked: dict[int, tuple[datetime, str]] = field(default_factory=dict, repr=False)
    # Positions read by checking_position(), by what they were made from (see there).
    _checking: dict[tuple[object, ...], GameState] = field(default_factory=dict, repr=False)

    def world(self, game: Game) -> World:
        return load_world(game.scenario)

    def scenario(self, game: Game) -> Scenario:
        return load_scenario(game.scenario)

    def require_mail(self) -> MailConfig:
        if self.mail is None:
            raise RuntimeError("no [mail] settings: add them to the configuration file (see README)")
        return self.mail

    def ruleset(self, game: Game) -> Ruleset:
        """The rules `game` is played with (see playable_ruleset)."""
        return playable_ruleset(game.ruleset, game.ruleset_version)

    def state(self, game: Game, turn: int | None = None) -> GameState:
        """The stored snapshot at the start of `turn` (default: the current turn)."""
        turn = game.turn if turn is None else turn  # turn 0 (deployment) is a real turn
        text = self.store.snapshot(game.id, turn)
        if text is None:
            raise LookupError(f"game {game.id} has no stored state for turn {turn}")
        return GameState.loads(text)

    def position(self, game: Game, turn: int | None = None) -> GameState:
        """The position the orders of `turn` meet: its snapshot with the moderator's "now"
        rulings of that turn applied in the order they were given."""
        from moderator.service.rulings import apply_now

        turn = game.turn if turn is None else turn
        now = [r.text for r in self.store.rulings(game.id, turn, "now")]
        state = self.state(game, turn)
        if not now:
            return state
        return apply_now(state, now, self.world(game), self.scenario(game), self.ruleset(game),
                         Dice(game.seed, turn))[0]

    def checking_position(self, game: Game) -> GameState:
        """position() of the current turn, to be read and never changed (the checker copies
        what it works on): kept while the snapshot, the "now" rulings and the ruleset it was
        made from stay the same, so a burst of order mails decodes the 1914 state once, not
        once a mail (about 5 ms each). Anything else that changes a state uses position()."""
        key = self.checking_key(game)
        state = self._checking.get(key)
        if state is None:
            for old in [k for k in self._checking if k[0] == game.id]:  # one a game: a new turn, a new ruling
                del self._checking[old]
            state = self._checking[key] = self.position(game)
            # Its units read only: each mail's check shares them instead of copying some 700
            # (engine/check.py), and a change to one, by anyone, raises instead of changing
            # what every later mail is checked on.
            state.share_units()
        return state

    def checking_key(self, game: Game) -> tuple[object, ...]:
        """What checking_position(game) is made from: the game, its turn, the snapshot, the
        ruleset and the "now" rulings (equal keys, equal positions)."""
        return (game.id, game.turn, self.store.snapshot_key(game.id, game.turn), game.ruleset, game.ruleset_version,
                tuple(r.id for r in self.store.rulings(game.id, game.turn, "now")))

    def game(self, game_id: str) -> Game:
        game = self.store.game(game_id)
        if game is None:
            known = ", ".join(g.id for g in self.store.games()) or "none yet"
            raise LookupError(f"no game called {game_id!r} (games: {known})")
        return game


def playable_ruleset(name: str, version: int) -> Ruleset:
    """The ruleset a game recorded as (name, version) is played with from now on.

    That version if this moderator has it. If it has only newer versions of the same
    ruleset (the moderator was upgraded during the game), the newest: the game goes on
    with the rules installed, and its next resolution records the new version (its old
    turns still say which rules they were played with). An older moderator than the
    game's rules, or a ruleset it does not know, is an error that says what to install."""
    from moderator.rulesets import registry

    reg = registry()
    versions = reg.versions(name)
    if version in versions:
        return reg.get(name, version)
    if not versions:
        raise LookupError(f"this moderator does not know the ruleset {name!r} (it knows "
                          f"{', '.join(reg.names()) or 'none'}); install the moderator that plays it")
    if versions[-1] < version:
        raise LookupError(f"the game is played with {name} v{version}, but this moderator has only "
                          f"{', '.join(f'v{v}' for v in versions)}: install a newer moderator")
    return reg.get(name, versions[-1])
