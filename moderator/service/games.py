"""Creating games and seats, naming nations, and the ten-day calendar of real time."""

from __future__ import annotations

import secrets
from datetime import datetime, time, timedelta

from moderator.engine.ruleset import Ruleset
from moderator.service.context import Service
from moderator.store.tables import Game
from moderator.world.model import fold
from moderator.world.scenario_model import Scenario


def new_game(svc: Service, game_id: str, scenario_name: str = "1914", *, title: str = "",
             deadline: datetime | None = None, seed: str | None = None, cycle_days: int = 10,
             deployment: bool = False) -> Game:
    """Create a game at its opening position (turn 1) and store the turn-1 snapshot.

    The game records the newest installed version of the scenario's ruleset (scenario.toml
    `ruleset = ...`, else the default), and is played with it from then on.

    With `deployment`, the game starts with a deployment turn (turn 0, Initial
    Deployment): the free half of the starting units waits in each nation's
    flags["to_deploy"] for the players' DEPLOY orders, and resolving turn 0 gives turn 1."""
    if svc.store.game(game_id) is not None:
        raise ValueError(f"a game called {game_id!r} exists already")
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    world, scenario = load_world(scenario_name), load_scenario(scenario_name)
    ruleset = ruleset_of(scenario)
    now = svc.clock()
    svc.store.create_game(game_id, scenario_name, title or f"{scenario.name} ({game_id})",
                          seed=seed or secrets.token_hex(16), deadline=deadline or orders_due(now, cycle_days),
                          ruleset=(ruleset.name, ruleset.version))
    state = ruleset.initial_state(scenario, world, game_id, not deployment)
    if deployment:
        state.turn = 0
    svc.store.update_game(game_id, cycle_days=cycle_days, turn=state.turn)
    svc.store.save_snapshot(game_id, state.turn, state.dumps())
    return svc.game(game_id)


def finish_game(svc: Service, game_id: str) -> Game:
    """End a game (Victory Conditions: an outright victory, or the main war over from the
    historical end on; the engine tells the moderator with the flag `game-over`). The last
    resolved turn's reports, with the victory table for everyone, are the result; the game
    is no longer resolved, reminded or open to orders, and its rulings stop (status
    "finished"). Only an open game (not one being resolved or corrected) can be finished."""
    game = svc.game(game_id)
    if game.status != "open":
        raise ValueError(f"game {game.id} is {game.status}, not open: "
                         + ("it is finished already" if game.status == "finished" else
                            "finish it once its turn is resolved or its correction is out"))
    return svc.store.update_game(game.id, status="finished", deadline=None)


def ruleset_of(scenario: Scenario) -> Ruleset:
    """The ruleset a new game of `scenario` is played with: the one it names, newest version."""
    from moderator.rulesets import DEFAULT, registry

    try:
        return registry().get(scenario.ruleset or DEFAULT)
    except KeyError as exc:
        raise ValueError(f"scenario {scenario.id} names the ruleset {scenario.ruleset!r}, which this "
                         f"moderator does not have ({exc.args[0]}); fix `ruleset` in its scenario.toml") from None


def orders_due(update: datetime, cycle_days: int = 10) -> datetime:
    """Miscellaneous: "The game should be updated each ten days": the update is day one,
    two days for error corrections follow, and orders are due by the end of day ten."""
    last_day = (update + timedelta(days=cycle_days - 1)).date()
    return datetime.combine(last_day, time(23, 59, 59), tzinfo=update.tzinfo)


def corrections_until(update: datetime, correction_days: int = 2) -> datetime:
    """End of the error-correction window that opens with an update (Miscellaneous)."""
    return datetime.combine((update + timedelta(days=correction_days)).date(), time(23, 59, 59),
                            tzinfo=update.tzinfo)


def nation_id(scenario: Scenario, typed: str) -> str | None:
    """The nation a player means by `typed`: its id, its name, or one of its aliases."""
    return _nation_words(scenario).get(fold(typed))


# Each scenario's folded nation words (every order mail asks; the scenarios are loaded once).
_NATION_WORDS: dict[int, tuple[Scenario, dict[str, str]]] = {}


def _nation_words(scenario: Scenario) -> dict[str, str]:
    """Folded id, name and aliases -> nation id; where two nations share a word, the first's."""
    kept = _NATION_WORDS.get(id(scenario))
    if kept is None or kept[0] is not scenario:
        words: dict[str, str] = {}
        for nid, n in scenario.nations.items():
            for word in (nid, n.name, *n.aliases):
                words.setdefault(fold(word), nid)
        if len(_NATION_WORDS) > 16:  # scenarios made on the fly (tests): keep only a few
            _NATION_WORDS.clear()
        kept = _NATION_WORDS[id(scenario)] = (scenario, words)
    return kept[1]


def nation_namer(scenario: Scenario):  # type: ignore[no-untyped-def]
    """A function nation id -> display name, for templates."""
    def name(nid: str) -> str:
        n = scenario.nations.get(nid)
        return n.name if n else nid
    return name


def describe_deadline(when: datetime | None, seconds: bool = False) -> str:
    if when is None:
        return "not set"
    return when.strftime("%A %d %B %Y, %H:%M:%S UTC" if seconds else "%A %d %B %Y, %H:%M UTC")


def describe_move(before: datetime | None, when: datetime) -> tuple[str, str]:
    """A deadline moved, old and new: to the second when the minutes alone would read the
    same (a short demo turn), else to the minute."""
    close = describe_deadline(before) == describe_deadline(when)
    return describe_deadline(before, close), describe_deadline(when, close)


def turn_label(scenario: Scenario, turn: int) -> str:
    year, month = scenario.turn_date(turn)
    if turn == 0:  # the optional deployment turn before turn 1 (Initial Deployment)
        return f"Initial deployment ({month} {year})"
    return f"{month} {year}"
