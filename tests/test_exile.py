"""Governments in exile (engine/exile.py) on the real 1914 map: the host collects the
exiled nation's remaining land, and the capital held two full turns liberates it (the
Conquest example is tests/catalog/resolve/conquest-government-in-exile-bulgaria-example.txt)."""

from __future__ import annotations

from moderator.engine import exile
from tests.test_neutral_triggers import context


def test_the_host_collects_the_land_the_exiled_nation_still_holds() -> None:
    ctx = context()
    exile.declare(ctx, "serbia", "russia")
    fulls = {"serbia": 6, "russia": 85}
    exile.merge_incomes(ctx.state, fulls)
    assert fulls == {"russia": 91}


def test_the_capital_held_for_the_turn_and_two_full_turns_more_liberates() -> None:
    ctx = context()
    ctx.state.control["Serbia"] = "austria-hungary"
    exile.declare(ctx, "serbia", "russia")
    exile.liberation(ctx, "9")  # Belgrade's land is the enemy's: nothing counted
    assert exile.HELD not in ctx.state.nations["serbia"].flags
    ctx.state.control["Serbia"] = "russia"  # an ally freed it
    for _ in range(exile.TURNS_TO_LIBERATE - 1):
        exile.liberation(ctx, "9")
    assert exile.host_of(ctx.state, "serbia") == "russia"
    ctx.state.control["Serbia"] = "austria-hungary"  # lost again: the count starts over
    exile.liberation(ctx, "9")
    ctx.state.control["Serbia"] = "russia"
    for _ in range(exile.TURNS_TO_LIBERATE):
        exile.liberation(ctx, "9")
    assert exile.host_of(ctx.state, "serbia") is None
    assert [e.args["nation"] for e in ctx.events if e.code == "liberated"] == ["serbia"]


def test_an_exiled_government_declares_no_second_exile_and_the_exile_is_no_flag() -> None:
    from tests.test_engine_diplomacy import codes_1914, errors, opening

    def conquered(state):  # type: ignore[no-untyped-def]
        for place in ("Serbia", "Macedonia"):
            state.control[place] = "austria-hungary"

    state = opening(conquered)
    assert codes_1914("GOVERNMENT IN EXILE WITH Russia", "Serbia", state) == []
    state.nations["serbia"].flags[exile.HOST] = "russia"
    assert errors(codes_1914("GOVERNMENT IN EXILE WITH France", "Serbia", state)) == ["exile-already"]
    ctx = context()
    exile.declare(ctx, "serbia", "russia")
    assert [e.code for e in ctx.events] == ["government-in-exile"]  # the host commands: nothing to review
