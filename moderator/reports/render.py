"""Render mails from templates/ with Jinja2: text and HTML parts from the same context.

Words live in the templates; this module only prepares plain data for them.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"


@functools.lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(TEMPLATES_DIR),
        autoescape=select_autoescape(enabled_extensions=("html",), default_for_string=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["signed"] = lambda n: f"{n:+d}"
    return env


def render(name: str, **context: Any) -> tuple[str, str]:
    """Render `<name>.txt.j2` and `<name>.html.j2` with the same context: (text, html)."""
    env = environment()
    text = env.get_template(f"{name}.txt.j2").render(**context)
    html = env.get_template(f"{name}.html.j2").render(**context)
    return text, html
