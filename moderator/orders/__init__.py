"""The orders language: parse a player's mail, validate it against the game, echo it.

Public API (imported lazily, so the pure engine can import moderator.orders.model
without loading the parser and its Lark dependency):

    parse_orders(text) -> ParseResult(header, orders, diagnostics)   never raises
    validate(orders, nation, state, world, scenario) -> list[Diagnostic]
    check(orders, nation, state, world, scenario) -> Validation(orders, diagnostics)
        the kept orders with canonical names (nation ids, map names) + diagnostics
    check_text(text, nation, state, world, scenario, game=None) -> CheckResult
    normalize(orders, header=None) -> str   the canonical echo (secret masked)
    Diagnostic(severity, line, column, text, message, code)
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "parse_orders": "moderator.orders.parser", "ParseResult": "moderator.orders.parser",
    "Header": "moderator.orders.parser",
    "validate": "moderator.orders.checker", "check": "moderator.orders.checker",
    "check_text": "moderator.orders.checker", "Validation": "moderator.orders.checker",
    "CheckResult": "moderator.orders.checker",
    "normalize": "moderator.orders.echo", "Diagnostic": "moderator.orders.diagnostics",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'moderator.orders' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
