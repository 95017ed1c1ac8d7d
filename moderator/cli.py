"""The `moderator` command. Thin: each area registers its own verbs (see VERB_MODULES)."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Each module defines register(subparsers) and sets `func` on its parsers via set_defaults.
VERB_MODULES = (
    "moderator.service.commands",  # run, demo, game, seat, resolve, replay, state, report, submit
    "moderator.service.moderation_commands",  # adjust, enter, review
    "moderator.service.mail_commands",  # mail redrive, mail list
    "moderator.service.desk_commands",  # deadline, rollback
    "moderator.world.commands",  # scenario check|show, map
    "moderator.orders.commands",  # check
    "moderator.mail.commands",  # mail-server
    "moderator.reports.commands",  # map
    "moderator.analysis_commands",  # odds
    "moderator.bots.commands",  # simulate
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="moderator",
        description="Play-by-email moderator for 'The War to End All Wars'.",
    )
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    for name in VERB_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
    describe(parser)
    return parser


def describe(parser: argparse.ArgumentParser) -> None:
    """Every verb's `--help` opens with what it does: its one-line help from the verb list,
    where the verb gave no longer description."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, verb in action.choices.items():
                if not verb.description and helps.get(name):
                    verb.description = str(helps[name])[:1].upper() + str(helps[name])[1:] + "."
                describe(verb)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    result = func(args)
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
