"""Command-line verbs of this package (registered by moderator.cli)."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this package's verbs to the `moderator` command."""
