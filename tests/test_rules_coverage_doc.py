"""docs/rules-coverage.md stays true: everything it names exists.

The document maps every section of the rules to the data, orders, engine code and tests
that hold it. Four people editing it in parallel once left it naming deleted modules and
tests; this test fails when a name it gives in backticks no longer exists:

* repository paths (`moderator/...`, `scenarios/...`, `maps/...`, `tests/...`,
  `templates/...`, `grammar/...`, `docs/...`), and paths written relative to `moderator/`
  (`engine/orders/move.py`, `orders/model.py`, `world/check.py`); globs must match a
  file; a `.py` path followed by names in the same backticks (`world/check.py
  check_cross_map`) must contain those names;
* bare file names (`nations.toml`, `test_engine_land.py`) somewhere in the repository;
* test functions (`test_...`), defined in some file under tests/ (or in the file named,
  `tests/test_x.py::test_y`);
* catalog cases (`name.txt`), in tests/catalog/resolve/ or tests/catalog/orders/.

It also holds the document to its own vocabulary (every row's status starts with one of
the status words defined at its top) and keeps "Where the engine disagrees with the
rules" equal to the resolution catalog's expected failures (`# xfail:` cases).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules-coverage.md"
CATALOG = ROOT / "tests" / "catalog"
TOP = ("moderator", "scenarios", "maps", "tests", "templates", "grammar", "docs")
PACKAGE = ROOT / "moderator"
STATUSES = ("resolved", "charged", "checked", "function", "data", "not yet")
SKIP_DIRS = {".venv", ".git", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache", "node_modules"}
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def text() -> str:
    return DOC.read_text(encoding="utf-8")


def spans(body: str) -> list[str]:
    """Everything written in backticks (code blocks excluded)."""
    body = re.sub(r"```.*?```", "", body, flags=re.DOTALL)
    return re.findall(r"`([^`\n]+)`", body)


def tokens(span: str) -> list[str]:
    return [t.strip(",;:()") for t in span.split()]


def is_path(token: str) -> bool:
    first = token.split("/", 1)[0]
    return "/" in token and (first in TOP or (PACKAGE / first).is_dir())


def resolve_path(token: str) -> Path:
    first = token.split("/", 1)[0]
    return ROOT / token if first in TOP else PACKAGE / token


def exists(token: str) -> bool:
    path = resolve_path(token.split("::")[0])
    if any(c in token for c in "*?["):
        return any(ROOT.glob(str(path.relative_to(ROOT))))
    return path.exists()


@cache
def repository_files() -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for path in ROOT.rglob("*"):
        if path.is_file() and not SKIP_DIRS & set(path.relative_to(ROOT).parts):
            out.setdefault(path.name, []).append(path)
    return out


@cache
def defined_test_names() -> frozenset[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("*.py"):
        names |= set(re.findall(r"^\s*(?:async\s+)?def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.M))
    return frozenset(names)


def defines(path: Path, name: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", path.read_text(encoding="utf-8")) is not None


def catalog_case(name: str) -> bool:
    return any((CATALOG / kind / name).is_file() for kind in ("resolve", "orders"))


def problems_with(span: str) -> list[str]:
    """What one backticked span names that does not exist."""
    out = []
    words = tokens(span)
    for i, token in enumerate(words):
        if not token:
            continue
        if is_path(token):
            if not exists(token):
                out.append(f"no such path: {token}")
                continue
            file_part, _, func = token.partition("::")
            path = resolve_path(file_part)
            if func and not defines(path, f"def {func}"):
                out.append(f"{file_part} defines no {func}")
            if path.suffix == ".py" and path.is_file() and i == 0:
                for name in words[1:]:
                    if IDENT.match(name) and not defines(path, name):
                        out.append(f"{file_part} has no {name}")
        elif re.fullmatch(r"test_\w+", token):
            if token not in defined_test_names():
                out.append(f"no test function {token} under tests/")
        elif re.fullmatch(r"[\w.-]+\.txt", token):
            if not catalog_case(token):
                out.append(f"no catalog case {token} in tests/catalog/resolve or tests/catalog/orders")
        elif re.fullmatch(r"[\w.-]+\.(py|toml|csv|lark|j2|md)", token):
            if token not in repository_files():
                out.append(f"no file named {token} in the repository")
    return out


def section(body: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", body, flags=re.M | re.DOTALL)
    assert match, f"docs/rules-coverage.md has no section '## {title}'"
    return match.group(1)


def xfail_cases() -> set[str]:
    return {p.name for p in (CATALOG / "resolve").glob("*.txt")
            if re.search(r"^# xfail:", p.read_text(encoding="utf-8"), flags=re.M)}


# ---- the tests ------------------------------------------------------------------------------


def test_the_checks_catch_what_they_should() -> None:
    assert problems_with("engine/orders/move.py") == []
    assert problems_with("world/check.py check_cross_map") == []
    assert problems_with("test_income_rules") == []
    assert problems_with("war-undeclared-attack.txt") == []
    assert problems_with("orders/check_politics.py") == ["no such path: orders/check_politics.py"]
    assert problems_with("engine/phase4_nowhere.py") == ["no such path: engine/phase4_nowhere.py"]
    assert problems_with("world/check.py check_nothing_here") == ["world/check.py has no check_nothing_here"]
    assert problems_with("test_no_such_thing_anywhere") == ["no test function test_no_such_thing_anywhere under tests/"]
    assert problems_with("no-such-case.txt") != []
    assert problems_with("order-referred") == []  # an event code, not a name to check


def test_every_name_in_backticks_exists() -> None:
    wrong = [f"`{span}`: {why}" for span in spans(text()) for why in problems_with(span)]
    assert not wrong, "docs/rules-coverage.md names what does not exist:\n" + "\n".join(wrong)


def test_the_document_names_many_real_things() -> None:
    """A guard against the checks silently matching nothing."""
    named = [t for s in spans(text()) for t in tokens(s)]
    assert sum(1 for t in named if re.fullmatch(r"test_\w+", t)) >= 100
    assert sum(1 for t in named if t.endswith(".txt")) >= 60
    assert sum(1 for t in named if is_path(t)) >= 60


def test_every_status_is_a_word_of_the_vocabulary() -> None:
    rows = [line for line in text().splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    table_rows = [r for r in rows if r.count(" | ") >= 4 and not r.startswith("| section ")]
    assert len(table_rows) >= 80
    bad = []
    for row in table_rows:
        status = row.rstrip(" |").rsplit(" | ", 1)[1].replace("*", "").strip()
        if not status.startswith(STATUSES):
            bad.append(row[:80])
    assert not bad, "statuses outside the vocabulary (" + ", ".join(STATUSES) + "):\n" + "\n".join(bad)


def test_the_engines_disagreements_are_the_catalogs_expected_failures() -> None:
    named = {t for s in spans(section(text(), "Where the engine disagrees with the rules")) for t in tokens(s)
             if t.endswith(".txt")}
    assert named == xfail_cases(), (f"listed but not xfail: {sorted(named - xfail_cases())}; "
                                    f"xfail but not listed: {sorted(xfail_cases() - named)}")
