"""What every service job needs: the store, the mail settings, a clock and a console.

Passing these in (instead of reaching for globals) lets the tests run the real jobs
against a temporary database, the embedded mail server and a fixed clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from moderator.engine.state import GameState
from moderator.mail.config import MailConfig
from moderator.store.db import Store
from moderator.store.tables import Game
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import load_scenario
from moderator.world.scenario_model import Scenario

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

    def world(self, game: Game) -> World:
        return load_world(game.scenario)

    def scenario(self, game: Game) -> Scenario:
        return load_scenario(game.scenario)

    def require_mail(self) -> MailConfig:
        if self.mail is None:
            raise RuntimeError("no [mail] settings: add them to the configuration file (see README)")
        return self.mail

    def state(self, game: Game, turn: int | None = None) -> GameState:
        turn = game.turn if turn is None else turn  # turn 0 (deployment) is a real turn
        text = self.store.snapshot(game.id, turn)
        if text is None:
            raise LookupError(f"game {game.id} has no stored state for turn {turn}")
        return GameState.loads(text)

    def game(self, game_id: str) -> Game:
        game = self.store.game(game_id)
        if game is None:
            known = ", ".join(g.id for g in self.store.games()) or "none yet"
            raise LookupError(f"no game called {game_id!r} (games: {known})")
        return game
