"""Shore bombardment in a beach-landing battle (4.2.3; Battleships; 4.6.1).

Battleships: "In addition to naval combat, battleships may also shore-bombard to assist
beach-landing units. The shore-bombardment attack value of a battleship is different than
its normal attack value ... The battleship may shore-bombard each and every round of a
naval invasion (beach-landing) combat. ... Damaged battleships may not attack or
shore-bombard". 4.2.3: "Each task force doing Shore Bombardment will try to support
invasion armies"; "when they are intended to support landing troops, switch mission to
shore bombardment" in the final sea zone.

Which battleships fire: those of a task force whose last task of the turn (4.2, one task
per movement point) was BOMBARD of the territory, undamaged, in a sea zone next to it when
the landing battle begins, of a nation landing there or allied to one that does. Each
rolls its bombardment value (the scenario's `bombard`, with technology) on a D10 every
round while troops that landed from the sea still fight; the hits join the attackers'.
The ships stand off shore: the defenders' hits never reach them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from moderator.engine.context import TurnContext
from moderator.engine.state import Unit


@dataclass(frozen=True)
class Gun:
    nation: str
    unit_id: str
    value: int


def guns(ctx: TurnContext, territory: str, landers: Sequence[str]) -> list[Gun]:
    """The battleships that shore-bombard `territory` for the landing nations, by id."""
    out: list[Gun] = []
    alive: dict[str, Unit] | None = None  # every unit by id, read only when a task force bombards here
    for (nation, _), tf in sorted(ctx.task_forces.items()):
        steps = [o for o, _ in tf.plan if o.mission != "load"]
        if not steps or steps[-1].mission != "bombard" or steps[-1].target != territory:
            continue
        if not any(n == nation or ctx.allies(n, nation) for n in landers):
            continue
        if alive is None:
            alive = {u.id: u for u in ctx.state.units}
        for uid in tf.unit_ids:
            u = alive.get(uid)
            if u is None or u.kind != "battleship" or u.damage or not ctx.is_sea(u.location) \
                    or not ctx.adjacent(u.location, territory):
                continue
            stats = ctx.stats(nation, u.kind, u)
            if stats is not None and stats.bombard > 0:
                out.append(Gun(nation, u.id, stats.bombard))
    return sorted(out, key=lambda g: g.unit_id)


def fire(ctx: TurnContext, territory: str, round_no: int, battery: Sequence[Gun]) -> int:
    """One round of shore bombardment: a D10 per battleship, a hit at or under its value."""
    hits = 0
    for g in battery:
        if ctx.dice.d10(f"land combat at {territory} round {round_no}: shore bombardment {g.nation} battleship") \
                <= g.value:
            hits += 1
    return hits
