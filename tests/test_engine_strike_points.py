"""Tactical strike points in land battles (4.1.1): three or more on a territory give the
infantry attacking it +1 (combat_land.value_of, Front.strike from phase4_air.strike_bonus);
`moderator odds --strike` reads the same, and `--support` the artillery next door
(Artillery: SUPPORT)."""

from __future__ import annotations

import json

import pytest

from moderator.engine import combat_land, odds
from moderator.engine.combat_land import Front
from moderator.engine.context import TurnContext
from moderator.engine.state import GameState
from moderator.orders.model import ArtillerySupport, Attack
from tests.test_engine_odds import run_cli
from tests.test_engine_phase4_land import SCEN, WORLD, battles, land_step, position, units


def test_the_bonus_is_for_infantry_before_the_penalties() -> None:
    # German infantry 3 -> 4, then a trench's -2 -> 2; artillery and tanks get nothing.
    gs = GameState("t", "1914", 1)
    army = [gs.new_unit("germany", k, "Konigsberg") for k in ("infantry", "artillery", "tank")]
    ctx = TurnContext(gs, {}, WORLD, SCEN)

    def values(strike: int, trench: bool) -> dict[str, int]:
        front = Front(trenches={u.id: "trench" for u in army} if trench else {},
                      origins={u.id: "Konigsberg" for u in army}, strike=strike)
        battle = combat_land.setup(None, "Plock", ["Konigsberg"], "germany", army, [], "russia", False, front)
        return {f.kind: combat_land.value_of(ctx, battle, battle.attack, f) for f in battle.attack.real()}

    assert values(0, False) == {"infantry": 3, "artillery": 7, "tank": 6}
    assert values(1, False) == {"infantry": 4, "artillery": 7, "tank": 6}
    assert values(1, True)["infantry"] == 3  # 3 + 1 - 2, and the tank negates one point


def test_odds_with_strike_points(capsys: pytest.CaptureFixture[str]) -> None:
    # One round, two German infantry: 0.3 hits each without, 0.4 with the bonus.
    plain = odds.odds_for(SCEN, "germany", {"infantry": 2}, "russia", {"infantry": 2}, max_rounds=1)
    struck = odds.odds_for(SCEN, "germany", {"infantry": 2}, "russia", {"infantry": 2}, max_rounds=1, strike=True)
    assert plain.defender_losses == pytest.approx(0.6)
    assert struck.defender_losses == pytest.approx(0.8)
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "2 inf", "--defender", "russia",
                         "--defend", "2 inf", "--rounds", "1", "--strike", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["battle"]["strike"] is True
    assert data["odds"]["defender_losses"] == pytest.approx(0.8)
    code, text = run_cli(["odds", "--attacker", "germany", "--attack", "2 inf", "--defender", "russia",
                          "--defend", "2 inf", "--strike"], capsys)
    assert code == 0 and "three tactical strike points" in text


def test_odds_with_artillery_support_match_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    # Artillery: SUPPORT 2 art FROM Warsaw TO Plock (Warsaw not attacked: every round).
    # The exact odds of `moderator odds --support 2` against the engine's battles.
    exact = odds.odds_for(SCEN, "germany", {"infantry": 4}, "russia", {"infantry": 2}, support=2)
    alone = odds.odds_for(SCEN, "germany", {"infantry": 4}, "russia", {"infantry": 2})
    assert exact.defenders == 2  # the artillery next door is never a casualty
    assert exact.outcomes["captured"] < alone.outcomes["captured"]
    state = position(clear=["Plock"], add=[("russia", "infantry", "Plock", 2), ("germany", "infantry", "Konigsberg", 0)])
    n, won = 600, 0
    for seed in range(n):
        ctx = land_step(state, {"germany": [Attack(units(infantry=4), "Konigsberg", "Plock")],
                                "russia": [ArtillerySupport(2, "Warsaw", "Plock")]}, f"support-{seed}")
        won += any(e["captured"] for e in battles(ctx))
        assert not any(u.kind == "artillery" and u.location == "Plock" for u in ctx.state.units)
    p = exact.outcomes["captured"]
    assert abs(won / n - p) < 4 * (p * (1 - p) / n) ** 0.5
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "4 inf", "--defender", "russia",
                         "--defend", "2 inf", "--support", "2", "--json"], capsys)
    assert code == 0 and json.loads(out)["odds"]["outcomes"]["captured"] == pytest.approx(p)
    code, out = run_cli(["odds", "--attacker", "germany", "--attack", "4 inf", "--defender", "russia",
                         "--defend", "2 inf", "--support", "-1"], capsys)
    assert code == 2
