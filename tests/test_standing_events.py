"""The third points table (engine/standing_events.py): a strait or canal closed (rows 1-4)
and unrestricted submarine warfare (row 5, more the first turn) cost the closer's or the
declarer's side points with every neutral."""

from __future__ import annotations

from collections import Counter

from moderator.engine import standing_events, wars
from moderator.engine.context import TurnContext
from moderator.engine.dice import Dice
from moderator.engine.passages import CLOSED
from tests.test_neutral_triggers import context


def test_the_first_turn_draws_the_first_column_then_the_brackets() -> None:
    ctx = context()
    ctx.dice_root = Dice("row-5", 1)
    ctx.state.nations["germany"].flags["unrestricted_subs"] = "allied"
    standing_events.submarine_warfare(ctx, "9")
    first = {r.purpose: r.dice for r in ctx.dice_root.log if "unrestricted" in r.purpose}
    assert first["Kingdom of Italy's points: unrestricted submarine warfare by German Empire (neutrals' points)"] == "0-2"
    assert ctx.state.nations["germany"].flags[standing_events.SUBS_SEEN] == ctx.turn
    ctx.dice_root.log.clear()
    standing_events.submarine_warfare(ctx, "9")
    later = {r.purpose: r.dice for r in ctx.dice_root.log if "unrestricted" in r.purpose}
    assert set(later.values()) == {"0-1"} and len(later) == len(first)
    # every move is toward the Allies (away from the declarer's side), never away from them
    assert all(e.args["change"] > 0 for e in ctx.events if e.code == "points")


def test_a_retraction_forgets_the_first_turn() -> None:
    ctx = context()
    ctx.state.nations["germany"].flags[standing_events.SUBS_SEEN] = 1
    standing_events.submarine_warfare(ctx, "9")  # no declaration: nothing drawn
    assert standing_events.SUBS_SEEN not in ctx.state.nations["germany"].flags


def test_the_draws_are_uniform_over_their_range() -> None:
    """Neutrals: "0-2" is "a random number ... drawn between 0 and 2": fixed seeds."""
    seen: Counter[int] = Counter()
    for seed in range(300):
        ctx = context()
        ctx.dice_root = Dice(f"row-5/{seed}", 1)
        ctx.state.nations["germany"].flags["unrestricted_subs"] = "allied"
        standing_events.submarine_warfare(ctx, "9")
        seen[ctx.state.nations["usa"].standing] += 1
    assert all(70 <= seen[k] <= 130 for k in (0, 1, 2)), seen  # 100 each, within 4 sigma (8.2)


# ---- rows 1-4: closed straits and canals ------------------------------------------------------
def closing(ctx: TurnContext, nation: str, passage: str, barred: list[str] | None = None) -> None:
    ctx.state.nations[nation].flags[CLOSED] = {passage: barred or []}


def drawn(ctx: TurnContext) -> dict[str, str]:
    return {r.purpose: r.dice for r in ctx.dice_root.log if "closed by" in r.purpose}


def test_a_main_war_closer_costs_its_side_the_row_every_turn_it_stands() -> None:
    ctx = context()
    ctx.dice_root = Dice("rows-1-4", 1)
    closing(ctx, "britain", "Strait of Gibraltar", ["germany"])  # a closing to some nations counts too
    ctx.state.nations["britain"].side = "allied"
    standing_events.closed_passages(ctx, "9")
    first = drawn(ctx)
    assert first["Kingdom of Spain's points: Strait of Gibraltar closed by British Empire (neutrals' points)"] == "0-2"
    assert first["Kingdom of Italy's points: Strait of Gibraltar closed by British Empire (neutrals' points)"] == "0-2"
    assert not any(p.startswith("Republic of China's") for p in first)  # China: 0
    assert all(e.args["change"] < 0 for e in ctx.events if e.code == "points")  # away from the Allies
    ctx.dice_root.log.clear()
    standing_events.closed_passages(ctx, "9")
    assert drawn(ctx) == first  # "All values are considered after each turn"


def test_a_neutral_closers_turns_are_owed_until_it_joins_then_answered_against_its_side() -> None:
    ctx = context()
    ctx.dice_root = Dice("owed", 1)
    closing(ctx, "ottoman", "Bosporus-Dardanelles")
    standing_events.closed_passages(ctx, "9")
    standing_events.closed_passages(ctx, "9")
    assert drawn(ctx) == {} and not [e for e in ctx.events if e.code == "points"]
    assert ctx.state.nations["ottoman"].flags[standing_events.CLOSINGS_OWED] == ["Bosporus-Dardanelles"] * 2
    wars.join(ctx, "ottoman", "central", "1.5", why="points")
    italy = [r for r in ctx.dice_root.log if r.purpose.startswith("Kingdom of Italy's points: Bosporus")]
    assert len(italy) == 2 and all(r.dice == "0-1" for r in italy)
    assert standing_events.CLOSINGS_OWED not in ctx.state.nations["ottoman"].flags
    moved = [e for e in ctx.events if e.code == "points" and e.args["why"] == "passage-closed"]
    assert moved and all(e.args["change"] > 0 for e in moved)  # against the Central Powers


def test_a_closing_lapses_with_the_passage_and_passages_without_a_row_cost_nothing() -> None:
    ctx = context()
    ctx.dice_root = Dice("lapse", 1)
    ctx.state.nations["germany"].flags[CLOSED] = {"Kiel Canal": []}  # no row in the table
    closing(ctx, "britain", "Suez Canal")
    ctx.state.nations["britain"].side = "allied"
    ctx.state.control["Suez Canal"] = "ottoman"  # Britain no longer holds the canal
    standing_events.closed_passages(ctx, "9")
    assert drawn(ctx) == {}


def test_a_closing_draws_are_uniform_over_their_range() -> None:
    """Row 2, Italy "0-2": a number drawn between 0 and 2, fixed seeds."""
    seen: Counter[int] = Counter()
    for seed in range(300):
        ctx = context()
        ctx.dice_root = Dice(f"rows-1-4/{seed}", 1)
        closing(ctx, "britain", "Strait of Gibraltar")
        ctx.state.nations["britain"].side = "allied"
        standing_events.closed_passages(ctx, "9")
        seen[-ctx.state.nations["italy"].standing] += 1
    assert all(70 <= seen[k] <= 130 for k in (0, 1, 2)), seen  # 100 each, within 4 sigma (8.2)


# ---- row 6: troops massed on a neutral's border -----------------------------------------------
def massed(ctx: TurnContext) -> list[str]:
    return [r.purpose for r in ctx.dice_root.log if "troops massed" in r.purpose]


def deploy(ctx: TurnContext, nation: str, place: str, n: int) -> None:
    for _ in range(n):
        ctx.state.new_unit(nation, "infantry", place)


def test_the_opening_armies_on_a_border_are_no_deployment() -> None:
    ctx = context()
    ctx.dice_root = Dice("row-6/opening", 1)
    standing_events.massed_on_borders(ctx, "9")  # 20 German units in Cologne beside Belgium, from the start
    assert massed(ctx) == []


def test_more_than_five_come_to_a_border_province_the_bordered_neutral_alone_draws_0_2() -> None:
    ctx = context()
    ctx.dice_root = Dice("row-6", 1)
    deploy(ctx, "austria-hungary", "Trieste", 5)
    standing_events.massed_on_borders(ctx, "9")
    assert massed(ctx) == []  # five: not "more then 5"
    deploy(ctx, "austria-hungary", "Trieste", 1)
    standing_events.massed_on_borders(ctx, "9")
    rolls = [r for r in ctx.dice_root.log if "troops massed" in r.purpose]
    assert [(r.purpose, r.dice) for r in rolls] == [
        ("Kingdom of Italy's points: Austro-Hungarian Empire's troops massed in Trieste (neutrals' points)", "0-2")]
    assert all(e.args["change"] > 0 and e.args["why"] == "troops-massed" for e in ctx.events if e.code == "points")


def test_one_draw_a_turn_for_each_nation_on_each_neutral_border_and_none_from_a_neutral() -> None:
    ctx = context()
    ctx.dice_root = Dice("row-6/two", 1)
    deploy(ctx, "austria-hungary", "Trieste", 6)
    deploy(ctx, "austria-hungary", "Innsbruck", 6)  # borders Italy and Switzerland
    deploy(ctx, "britain", "Gibraltar", 6)  # a neutral British Empire is no main-war nation
    standing_events.massed_on_borders(ctx, "9")
    seen = massed(ctx)
    assert len(seen) == 2, seen
    assert any(p.startswith("Kingdom of Italy's") for p in seen) and any(p.startswith("Swiss Confederation's") for p in seen)


def test_massed_troops_draws_are_uniform_over_their_range() -> None:
    """Row 6, "0-2": a number drawn between 0 and 2, fixed seeds."""
    seen: Counter[int] = Counter()
    for seed in range(300):
        ctx = context()
        ctx.dice_root = Dice(f"row-6/{seed}", 1)
        deploy(ctx, "austria-hungary", "Trieste", 6)
        standing_events.massed_on_borders(ctx, "9")
        seen[ctx.state.nations["italy"].standing] += 1
    assert all(70 <= seen[k] <= 130 for k in (0, 1, 2)), seen  # 100 each, within 4 sigma (8.2)
