"""Verifiable dice (issue 12): each turn's seed is committed (its SHA-256 announced before
the turn) and revealed with the results, and every roll is a documented function of it,
HMAC-SHA256 of the seed, the step and the draw's index (docs/dice.md). The test computes
the rolls with its own few lines, written from the documentation only, not from the
engine's code, and `moderator verify` must agree with them; a tampered log must not."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.engine.dice import LEGACY_SCHEME, Dice
from moderator.service.context import Service
from moderator.store.db import Store
from tests.report_text import flat


# ---- the documented function, as a player would write it (docs/dice.md) --------------------
def seed_of_turn(game_seed: str, turn: int) -> str:
    return hmac.new(game_seed.encode("utf-8"), f"turn-{turn}".encode(), "sha256").hexdigest()


def die(seed: str, step: str, k: int, sides: int = 10) -> int:
    mac = hmac.new(seed.encode("utf-8"), f"{step}/{k}".encode(), "sha256").digest()
    return 1 + int(mac[:8].hex(), 16) % sides


def test_the_engine_rolls_what_the_documented_function_gives() -> None:
    dice = Dice("game secret", 7)
    battle, revolution = dice.for_step("4.6"), dice.for_step("9")
    rolls = [battle.d10("a"), revolution.d10("b"), battle.d10("c"), battle.roll(2, 10, "d"), battle.between(0, 5, "e"),
             battle.pick(["x", "y", "z"], "f")]
    seed = seed_of_turn("game secret", 7)
    assert dice.seed_of_turn == seed
    assert rolls[:3] == [die(seed, "4.6", 0), die(seed, "9", 0), die(seed, "4.6", 1)]
    assert rolls[3] == die(seed, "4.6", 2) + die(seed, "4.6", 3)
    assert rolls[4] == die(seed, "4.6", 4, 6) - 1  # 0-5: the same draw, from 0
    assert rolls[5] == "xyz"[die(seed, "4.6", 5, 3) - 1]


@pytest.mark.parametrize("seed", ["", "short", "0123456789abcdef" * 4, "é" * 40, "x" * 65, "y" * 200])
def test_the_draws_are_hmac_sha256_for_keys_of_every_length(seed: str) -> None:
    """The engine keys SHA-256 itself (RFC 2104) rather than through the hmac module: keys
    shorter than, as long as and longer than the hash's block of 64 bytes give hmac's digest."""
    from moderator.engine.dice import draw

    for step, k in [("4.6", 0), ("9", 17), ("", 12345)]:
        assert draw(seed, step, k, 1, 10) == die(seed, step, k)
        assert draw(seed, step, k, 0, 2**40) == int(hmac.new(seed.encode(), f"{step}/{k}".encode(), "sha256")
                                                    .digest()[:8].hex(), 16) % (2**40 + 1)


def test_the_old_scheme_still_rolls_as_before() -> None:
    """Turns stored before verifiable dice replay with scheme 1 (random.Random)."""
    import random

    legacy = Dice("s", 3, scheme=LEGACY_SCHEME).for_step("4.6")
    rng = random.Random("s/turn-3/step-4.6")
    assert [legacy.d10("x") for _ in range(20)] == [rng.randint(1, 10) for _ in range(20)]


@pytest.fixture()
def resolved(config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Service:
    """Game g1 with a battle in turn 1 (Germany attacks Belgium), resolved."""
    assert main(["game", "new", "g1"]) == 0
    announced = capsys.readouterr().out
    assert main(["seat", "add", "--game", "g1", "--nation", "Germany", "--email", "k@x.org"]) == 0
    svc = Service(store=Store.at(tmp_path / "m.db"), say=lambda s: None)
    game = svc.game("g1")
    committed = hashlib.sha256(seed_of_turn(game.seed, 1).encode()).hexdigest()
    assert f"dice of turn 1: the seed's SHA-256 is {committed}" in announced
    orders = tmp_path / "o.txt"
    orders.write_text("DECLARE WAR ON Belgium\nMOVE 6 inf FROM Cologne TO Liege\n", encoding="utf-8")
    assert main(["enter", "--game", "g1", "--nation", "Germany", str(orders)]) in (0, 1)
    assert main(["resolve", "--game", "g1"]) == 0
    capsys.readouterr()
    return svc


def test_moderator_verify_agrees_with_an_independent_recomputation(resolved: Service,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    svc = resolved
    game, record = svc.game("g1"), svc.store.turn_record("g1", 1)
    assert record is not None and record.dice_scheme == 2
    rolls = json.loads(record.dice)
    assert len(rolls) > 5, "the turn should have rolled dice (a battle)"
    seed = seed_of_turn(game.seed, 1)
    drawn: dict[str, int] = {}

    def draw(step: str, low: int, high: int) -> int:  # the next draw of the step's stream
        k = drawn.get(step, 0)
        drawn[step] = k + 1
        return low + die(seed, step, k, high - low + 1) - 1

    for roll in rolls:  # every logged roll, recomputed with the few lines above
        spec, step = roll["dice"], roll["step"]
        if spec.startswith("choice/"):
            expected = draw(step, 0, int(spec[7:]) - 1)
        elif "D" in spec:
            count, sides = spec.split("D")
            expected = sum(draw(step, 1, int(sides)) for _ in range(int(count)))
        else:
            low, high = spec.split("-")
            expected = draw(step, int(low), int(high))
        assert expected == roll["result"], roll
    assert any("D" in r["dice"] for r in rolls)  # dice of the battle among them
    assert main(["verify", "--game", "g1", "--turn", "1"]) == 0
    out = capsys.readouterr().out
    assert f"seed {seed}" in out and f"{len(rolls)} of {len(rolls)} rolls recomputed from the seed: all match" in out
    assert hashlib.sha256(seed.encode()).hexdigest() in out


def test_verify_finds_a_tampered_roll(resolved: Service, capsys: pytest.CaptureFixture[str]) -> None:
    svc = resolved
    record = svc.store.turn_record("g1", 1)
    assert record is not None
    rolls = json.loads(record.dice)
    rolls[3]["result"] = rolls[3]["result"] % 10 + 1  # a die the moderator "chose"
    with svc.store.session() as s:
        record.dice = json.dumps(rolls)
        s.add(record)
    assert main(["verify", "--game", "g1", "--turn", "1"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH roll 3" in out and "1 DO NOT MATCH" in out


def test_the_reports_reveal_the_seed_and_commit_to_the_next(resolved: Service, tmp_path: Path) -> None:
    svc = resolved
    game = svc.game("g1")
    wrapped = (tmp_path / "reports" / "g1" / "turn-1" / "germany" / "report.txt").read_text()
    text = flat(wrapped)  # the text part is wrapped at 78 characters
    assert f"Dice of turn 1: seed {seed_of_turn(game.seed, 1)}." in text
    assert f"its SHA-256 is {hashlib.sha256(seed_of_turn(game.seed, 2).encode()).hexdigest()}" in text
    assert seed_of_turn(game.seed, 1) in wrapped  # never broken inside, so it can be copied
    bulletin = json.loads((tmp_path / "reports" / "g1" / "turn-1" / "public" / "report.json").read_text())
    assert bulletin["dice_seed"] == seed_of_turn(game.seed, 1)


def test_a_turn_of_the_old_scheme_says_it_cannot_be_verified(resolved: Service,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    svc = resolved
    record = svc.store.turn_record("g1", 1)
    assert record is not None
    with svc.store.session() as s:
        record.dice_scheme = LEGACY_SCHEME
        s.add(record)
    assert main(["verify", "--game", "g1", "--turn", "1"]) == 1
    assert "rolled before verifiable dice" in capsys.readouterr().out


def test_the_python_lines_of_docs_dice_md_give_the_engine_s_rolls() -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "dice.md").read_text(encoding="utf-8")
    snippet = doc.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, object] = {}
    exec(snippet, scope)  # noqa: S102 - the documentation's own example, run as written
    draw = scope["draw"]
    dice = Dice("another game", 2).for_step("9")
    seed = seed_of_turn("another game", 2)
    assert [dice.d10("x") for _ in range(30)] == [draw(seed, "9", k, 1, 10) for k in range(30)]  # type: ignore[operator]


def test_a_turn_rolled_with_the_old_scheme_replays_with_it(resolved: Service) -> None:
    from moderator.service.turns import compute, recorded_inputs, replay

    svc = resolved
    game, record = svc.game("g1"), svc.store.turn_record("g1", 1)
    assert record is not None
    inputs = recorded_inputs(record)
    inputs.dice_scheme = LEGACY_SCHEME
    old = compute(svc, game, 1, inputs)  # the turn as a moderator before issue 12 rolled it
    assert old.dice != json.loads(record.dice)
    with svc.store.session() as s:
        record.dice, record.dice_scheme, record.result_sha256 = json.dumps(old.dice), LEGACY_SCHEME, old.sha256
        record.events = json.dumps([e.to_json() for e in old.events], sort_keys=True)
        s.add(record)
    svc.store.save_snapshot("g1", 2, old.state.dumps())
    ok, detail = replay(svc, "g1", 1)
    assert ok, detail
