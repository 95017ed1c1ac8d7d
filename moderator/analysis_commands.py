"""Command-line verbs for analysis tools (odds). Being written; see moderator/engine/odds.py."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the analysis verbs to the `moderator` command."""
