"""Every verb's --help says what it does (issue 13, "Words players read")."""

from __future__ import annotations

import argparse

from moderator.cli import build_parser


def verbs(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[str, argparse.ArgumentParser]]:
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, verb in action.choices.items():
                out.append((" ".join((*path, name)), verb))
                out += verbs(verb, (*path, name))
    return out


def test_every_verb_help_opens_with_what_it_does() -> None:
    found = verbs(build_parser())
    assert len(found) > 20 and {"odds", "site", "game list", "seat list", "state"} <= {name for name, _ in found}
    for name, verb in found:
        assert verb.description and len(verb.description.split()) >= 3, name
        shown = " ".join(verb.format_help().split("\n\n", 1)[1].split())  # argparse rewraps the text
        assert shown.startswith(" ".join(verb.description.split()[:6])), name
