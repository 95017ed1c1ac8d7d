"""The review queue's kinds (issue 14): every reason the engine can hand the moderator is
named in `engine/judgement.py` and in docs/rules-coverage.md, and nothing else is.

The reasons are read from the engine's source, not from runs, so a flag no test reaches is
still held to the list. The scan is strict: a reason it cannot read fails the test."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from moderator.engine import judgement
from moderator.orders.messages import catalogue

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "moderator" / "engine"


def _strings(node: ast.expr | None) -> set[str]:
    """The strings an expression can give: a literal, either branch of `a if c else b`,
    the values and default of `{...}.get(key, default)`. Anything else is unreadable."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _strings(node.body) | _strings(node.orelse)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and isinstance(node.func.value, ast.Dict) and len(node.args) == 2):
        return set().union(*(_strings(v) for v in node.func.value.values)) | _strings(node.args[1])
    raise AssertionError(f"cannot read the reason {ast.unparse(node) if node else None!r}")


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and (getattr(n.func, "attr", None) == name or getattr(n.func, "id", None) == name)]


def _argument(call: ast.Call, position: int, keyword: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _passed(tree: ast.Module, call: ast.Call, reason: ast.expr) -> set[str]:
    """A reason held in a parameter of the function around the call: the literals every
    call of that function in the module passes for it."""
    assert isinstance(reason, ast.Name), ast.unparse(reason)
    around = next(f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                  and any(c is call for c in ast.walk(f)))
    params = [a.arg for a in around.args.args]
    assert reason.id in params, f"{reason.id} is not a parameter of {around.name}"
    found = set().union(*(_strings(_argument(c, params.index(reason.id), reason.id))
                          for c in _calls(tree, around.name) if c is not call))
    assert found, f"no call of {around.name} passes {reason.id}"
    return found


def engine_reasons() -> tuple[set[str], set[str]]:
    """(flag reasons, referral reasons) the engine's source can give."""
    flags: set[str] = set()
    referrals: set[str] = set()
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls(tree, "flag"):
            if not (isinstance(call.func, ast.Attribute) and getattr(call.func.value, "id", "") == "ctx"):
                continue  # problems.flag: a receipt's remark, not a review item
            reason = _argument(call, 1, "reason")
            flags |= _passed(tree, call, reason) if isinstance(reason, ast.Name) else _strings(reason)
        for call in _calls(tree, "refer"):
            if isinstance(call.func, ast.Name):
                why = _argument(call, 5, "why")
                if not (isinstance(why, ast.Name) and why.id == "why"):  # Referred.execute: its reason() below
                    referrals |= _strings(why)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "reason":
                for ret in (n for n in ast.walk(node) if isinstance(n, ast.Return)):
                    if not (isinstance(ret.value, ast.Attribute) and ret.value.attr == "why"):
                        referrals |= _strings(ret.value)
            if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "why":
                referrals |= _strings(node.value)
    return flags, referrals


def documented() -> dict[str, str]:
    body = (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
    match = re.search(r"^## The moderator's review items\n(.*?)(?=^## )", body, flags=re.M | re.DOTALL)
    assert match, "docs/rules-coverage.md has no section on the review items"
    return dict(re.findall(r"^\| `([a-z0-9-]+)` \| (flag|referral) \| .+ \|$", match.group(1), flags=re.M))


def test_every_reason_the_engine_can_give_is_named_here() -> None:
    flags, referrals = engine_reasons()
    assert flags == judgement.FLAGS
    assert referrals == judgement.REFERRALS
    table = documented()
    assert {r for r, kind in table.items() if kind == "flag"} == judgement.FLAGS
    assert {r for r, kind in table.items() if kind == "referral"} == judgement.REFERRALS


def test_the_scan_reads_what_the_engine_writes() -> None:
    """Two forms the scan must see through: a reason passed in by the function's callers
    (the Russian Revolution's placements) and one chosen by a referral's reason()."""
    flags, referrals = engine_reasons()
    assert {"defectors-placed", "revolutionaries-placed"} <= flags
    assert {"gear-up-income", "option-effect", "self-influence-roll", "not-automated"} <= referrals


def test_every_reason_has_its_words_for_the_moderator() -> None:
    for reason in judgement.FLAGS | judgement.REFERRALS:
        assert reason in catalogue(), f"{reason} has no text in templates/problems"


def test_the_flags_words_are_only_for_flags_the_engine_raises() -> None:
    """templates/problems/flags.toml holds the flags' sentences: none for a flag no longer raised."""
    with (ROOT / "templates" / "problems" / "flags.toml").open("rb") as fh:
        assert set(tomllib.load(fh)) <= judgement.FLAGS


def test_an_item_is_named_only_by_a_known_reason_of_its_kind() -> None:
    assert judgement.named("flag", {"reason": "irish-rebellion"})
    assert judgement.named("referred", {"why": "influence-roll"})
    assert judgement.named("note", {"why": "note"})
    assert not judgement.named("flag", {"reason": "influence-roll"})
    assert not judgement.named("referred", {"why": "irish-rebellion"})
    assert not judgement.named("ruling-refused", {"reason": "irish-rebellion"})


def test_the_soak_reports_an_item_for_a_reason_not_named() -> None:
    from moderator.bots.simulate import Summary

    summary = Summary("direct", "s", ["france"], turns=1, replays={1: True})
    assert summary.ok
    summary.unnamed.append("turn 1: flag not named in docs/rules-coverage.md: something new")
    assert not summary.ok and "something new" in summary.text()
