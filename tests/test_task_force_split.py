"""Phase 4 guideline 6's first example: a task force splits between two movement points
("In second sea zone TF #1 splits to TF #1 (BB and DD) and TF #3 (2 DD)"), and two task
forces of a nation join (engine/orders/task_forces.py: the ledger and legality;
engine/phase4_sea.py: the halves sailing their own plans). The example itself is the
catalog case guideline-a-task-force-splits-mid-move; the halves sighted on their own,
guideline-split-halves-sight-on-their-own. The refusals are in tests/test_phase4_homes.py."""

from __future__ import annotations

from dataclasses import replace

from moderator.engine.context import TurnContext
from moderator.engine.dice import ScriptedDice
from moderator.engine.state import kinds
from moderator.reports.render import event_text
from tests.test_engine_naval import naval_turn, sea_state


def where(ctx: TurnContext, nation: str) -> dict[tuple[str, str], int]:
    out: dict[tuple[str, str], int] = {}
    for u in ctx.state.units:
        if u.nation == nation:
            out[(u.kind, u.location)] = out.get((u.kind, u.location), 0) + 1
    return out


def told(ctx: TurnContext, code: str) -> list[dict[str, object]]:
    return [dict(e.args) for e in ctx.events if e.code == code]


def test_the_split_off_half_sails_its_own_plan_from_the_split() -> None:
    state = sea_state(germany=[("battleship", "North Sea", 2), ("cruiser", "North Sea", 3)])
    orders = {"germany": "TF 1 AT North Sea: 2 bb, 3 dd\n"
                         "TF 1 PATROL TO English Channel, SPLIT 2 dd INTO TF 3, PATROL\n"
                         "TF 3 MOVE TO North Sea, PATROL"}
    ctx = naval_turn(state, orders, ScriptedDice({}))
    assert where(ctx, "germany") == {("battleship", "English Channel"): 2, ("cruiser", "English Channel"): 1,
                                     ("cruiser", "North Sea"): 2}
    paths = {a["tf"]: (a["path"], a["ships"], a["mission"]) for a in told(ctx, "task-force")}
    assert paths == {"1": (["North Sea", "English Channel"], {"battleship": 2, "cruiser": 1}, "patrol"),
                     "3": (["North Sea", "English Channel", "North Sea"], {"cruiser": 2}, "patrol")}
    assert [(a["tf"], a["parent"], a["zone"], a["done"]) for a in told(ctx, "task-force-split")] == [
        ("3", "1", "English Channel", True)]


def test_a_task_force_joins_another_and_sails_on_with_its_plan() -> None:
    state = sea_state(germany=[("battleship", "North Sea", 2), ("cruiser", "North Sea", 2)])
    orders = {"germany": "TF 1 AT North Sea: 2 bb\nTF 3 AT North Sea: 2 dd\n"
                         "TF 1 PATROL TO English Channel\nTF 3 MOVE TO English Channel, JOIN TF 1\n"
                         "TF 1 MOVE TO North Sea"}
    ctx = naval_turn(state, orders, ScriptedDice({}))
    assert where(ctx, "germany") == {("battleship", "North Sea"): 2, ("cruiser", "North Sea"): 2}
    assert [(a["tf"], a["path"], a["ships"]) for a in told(ctx, "task-force")] == [
        ("1", ["North Sea", "English Channel", "North Sea"], {"battleship": 2, "cruiser": 2})]  # none for TF 3
    assert [(a["tf"], a["into"], a["zone"], a["done"]) for a in told(ctx, "task-force-joined")] == [
        ("3", "1", "English Channel", True)]


def test_transports_split_off_with_the_troops_aboard() -> None:
    # Troops left aboard at sea last turn: the task force formed of the transports and
    # their escort takes them aboard, and the transports split off with them, all of them.
    state = sea_state(germany=[("transport", "North Sea", 2), ("cruiser", "North Sea", 2),
                               ("infantry", "North Sea", 3)])
    orders = {"germany": "TF 1 AT North Sea: 2 dd, 2 tr\n"
                         "TF 1 SPLIT 2 tr INTO TF 5, PATROL TO English Channel\n"
                         "TF 5 TRANSPORT TO English Channel"}
    ctx = naval_turn(state, orders, ScriptedDice({}))
    assert where(ctx, "germany") == {("transport", "English Channel"): 2, ("cruiser", "English Channel"): 2,
                                     ("infantry", "English Channel"): 3}
    assert {a["tf"]: a["troops"] for a in told(ctx, "task-force")} == {"1": {}, "5": {"infantry": 3}}


def test_a_split_the_turn_made_impossible_does_not_happen() -> None:
    # France's blockade sights the transports leaving (3 on a D10: a 1) and holds them in
    # the North Sea; the battleship misses, and withdraws after the round. TF 2 never
    # reaches the English Channel: the split planned there does not happen.
    state = sea_state(france=[("battleship", "North Sea", 1)], germany=[("transport", "North Sea", 2)])
    orders = {"france": "TF B AT North Sea: 1 bb\nTF B BLOCKADE\nWITHDRAW FROM North Sea AFTER 1 ROUND",
              "germany": "TF 2 AT North Sea: 2 tr\nTF 2 TRANSPORT TO English Channel, SPLIT 1 tr INTO TF 3, "
                         "TRANSPORT\nTF 3 TRANSPORT TO North Sea"}
    ctx = naval_turn(state, orders, ScriptedDice([1] + [10] * 20))
    assert told(ctx, "blockade-held")
    assert where(ctx, "germany") == {("transport", "North Sea"): 2}
    assert [(a["tf"], a["zone"], a["ships"], a["done"], a["why"]) for a in told(ctx, "task-force-split")] == [
        ("3", "English Channel", {"transport": 1}, False, "apart")]
    assert [a["tf"] for a in told(ctx, "task-force") if a["nation"] == "germany"] == ["2"]
    assert kinds([u for u in ctx.state.units if u.nation == "germany"]) == {"transport": 2}


# The SPLIT names kinds and counts, not ships: the naval step takes them among the ships
# still afloat at the split (phase4_sea.split, pick). Both cases: Germany's TF 1 patrols
# into the English Channel, where France's patrol sights it (the 1) and is sighted (the
# first German 1); then the round's fire: France's first, Germany's after.
SPLIT_AFTER_A_BATTLE = ("TF 1 PATROL TO English Channel, SPLIT 2 dd INTO TF 3, PATROL\n"
                        "TF 3 MOVE TO North Sea")


def test_a_ship_sunk_before_the_split_is_replaced_by_another_of_its_kind() -> None:
    # France's cruiser sinks one German cruiser (the lowest id, the one the plan named
    # first) and is sunk; the split still takes two of the three left.
    state = sea_state(france=[("cruiser", "English Channel", 1)], germany=[("cruiser", "North Sea", 4)])
    orders = {"france": "TF B AT English Channel: 1 dd\nTF B PATROL",
              "germany": "TF 1 AT North Sea: 4 dd\n" + SPLIT_AFTER_A_BATTLE}
    ctx = naval_turn(state, orders, ScriptedDice([1, 1, 9, 9, 9, 1, 1, 9, 9, 9]))
    assert [e.args["losses"] for e in ctx.events if e.code == "naval-battle"] == [
        {"france": {"cruiser": 1}, "germany": {"cruiser": 1}}]
    assert [(a["tf"], a["ships"], a["done"], a["why"]) for a in told(ctx, "task-force-split")] == [
        ("3", {"cruiser": 2}, True, None)]
    assert where(ctx, "germany") == {("cruiser", "North Sea"): 2, ("cruiser", "English Channel"): 1}
    # the survivors with the lowest ids go, the highest stays with TF 1
    stays = sorted(u.id for u in ctx.state.units if u.nation == "germany")[-1]
    assert next(u for u in ctx.state.units if u.id == stays).location == "English Channel"


def test_a_split_with_too_few_ships_left_is_refused_with_how_many_were_left() -> None:
    # France's two cruisers sink two of the three German ones: one is left, the split
    # names two; it stays with TF 1 and patrols on.
    state = sea_state(france=[("cruiser", "English Channel", 2)], germany=[("cruiser", "North Sea", 3)])
    orders = {"france": "TF B AT English Channel: 2 dd\nTF B PATROL",
              "germany": "TF 1 AT North Sea: 3 dd\n" + SPLIT_AFTER_A_BATTLE}
    ctx = naval_turn(state, orders, ScriptedDice([1, 9, 1, 9, 9, 1, 1, 1, 1, 9]))
    assert [(a["tf"], a["ships"], a["done"], a["why"], a["left"]) for a in told(ctx, "task-force-split")] == [
        ("3", {"cruiser": 2}, False, "lost", {"cruiser": 1})]
    assert where(ctx, "germany") == {("cruiser", "English Channel"): 1}
    assert [(a["tf"], a["ships"]) for a in told(ctx, "task-force") if a["nation"] == "germany"] == [
        ("1", {"cruiser": 1})]
    split = next(e for e in ctx.events if e.code == "task-force-split")
    assert event_text(split, str) == (
        "Task force 3 (order 3) did not split off task force 1 in English Channel: the order named 2 cruisers, "
        "and task force 1 had only 1 cruiser left there (sunk earlier in the move); those left stayed with it.")
    # every one of them sunk (the Baltic of the demo): nothing stayed
    gone = replace(split, args={**split.args, "left": {"cruiser": 0}})
    assert event_text(gone, str).endswith("task force 1 had no cruisers left there (sunk earlier in the move).")


def test_a_split_takes_every_ship_left_when_the_losses_leave_only_those_named() -> None:
    # TF 1's three cruisers lose one; the two left are the two the SPLIT names: both go
    # (the order asked for two cruisers; two are afloat), and TF 1 is gone with them: its
    # report is not "every ship lost".
    state = sea_state(france=[("cruiser", "English Channel", 1)], germany=[("cruiser", "North Sea", 3)])
    orders = {"france": "TF B AT English Channel: 1 dd\nTF B PATROL",
              "germany": "TF 1 AT North Sea: 3 dd\n" + SPLIT_AFTER_A_BATTLE}
    ctx = naval_turn(state, orders, ScriptedDice([1, 1, 9, 9, 1, 1, 9, 9]))
    assert [(a["tf"], a["ships"], a["done"]) for a in told(ctx, "task-force-split")] == [("3", {"cruiser": 2}, True)]
    assert where(ctx, "germany") == {("cruiser", "North Sea"): 2}
    assert {a["tf"]: a["ships"] for a in told(ctx, "task-force") if a["nation"] == "germany"} == {
        "3": {"cruiser": 2}}
