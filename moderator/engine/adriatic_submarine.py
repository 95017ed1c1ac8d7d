"""German option #7, Build subs in Adriatic Sea: a submarine built in Germany and carried
by rail to the Adriatic in Phase 1.5, ready to fight there the same turn.

"Germany may build a single sub in Germany and transport it to Adriatic Sea. For that
purpose there can be no strategic movement from/to Trieste and 6 points will be
substracted from total allowance for rail movement of any province with port where
submarine is being built. This sub can engage any surface ship or submarine in that sea
in the same turn."

Readings (docs/rules-coverage.md, German Empire 1-7):
* what it costs: the submarine's price (units.toml, with Germany's technology); the option
  itself costs nothing more. "A single sub": one submarine each time, once a turn;
* where it is built: a German home port (OPTION 7 AT Hamburg; without AT, the port with
  the most rail allowance left, then by name, where the 6 hurt least) from which the rails
  reach Trieste through friendly incorporated land (Phase 4.1.3), Trieste held by a
  Central Power: the sub goes by rail to Trieste's port;
* when it appears: at once, in the Adriatic Sea (Phase 1.5 comes before the naval
  combat of 4.2-4.3), so this turn's orders may name it there ("can engage ... in the same
  turn": a task force or an interception in the Adriatic);
* the rails: the port's 6 and all of Trieste's allowance are spent for the turn, in the
  checker's projection as in the engine (Position.rail_used, shared by every strategic
  move): no strategic move starts, ends or passes there beyond what is left.
The engine decides all of it; nothing is left to the moderator.
"""

from __future__ import annotations

from moderator.engine import placement, technology
from moderator.engine.context import Position, TurnContext
from moderator.engine.phase4_strategic import rail_region
from moderator.engine.problems import Problem, problem
from moderator.orders.model import SpecialOption
from moderator.world.scenario_model import OptionRule

SEA, TRIESTE, KIND = "Adriatic Sea", "Trieste", "submarine"
RAIL_COST = 6  # "6 points will be substracted from total allowance for rail movement"


def rail_left(pos: Position, place: str) -> int:
    return max(0, pos.place(place).value - pos.rail_used.get(place, 0))


def ports(pos: Position, nation: str, spec: OptionRule) -> list[str]:
    """The home ports (the option's `places`) the submarine can be built in and railed from
    to Trieste now."""
    out = []
    for port in spec.places:
        if pos.controller(port) != nation or not placement.has_port(pos, nation, port):
            continue
        if TRIESTE in rail_region(pos.world, pos.state, nation, port):
            out.append(port)
    return out


def port(pos: Position, nation: str, order: SpecialOption, spec: OptionRule) -> str | None:
    """Where the submarine is built: the order's AT, else the port with the most rail left."""
    fit = ports(pos, nation, spec)
    if order.place is not None:
        return order.place if order.place in fit else None
    return min(fit, key=lambda p: (-rail_left(pos, p), p)) if fit else None


def price(pos: Position, nation: str, order: SpecialOption, spec: OptionRule) -> int:
    stats = pos.stats(nation, KIND)
    return stats.cost if stats is not None else 0


def why_not(pos: Position, nation: str, order: SpecialOption, spec: OptionRule) -> Problem | None:
    """The rules' conditions the position settles: a submarine Germany can build, and a
    port whose rails reach Trieste."""
    stats = pos.stats(nation, KIND)
    if stats is None:
        return problem("cannot-build", kind=KIND)
    if stats.requires_tech and pos.tech(nation, stats.requires_tech) < 1:
        return problem("needs-tech", kind=KIND, tech=stats.requires_tech)
    if port(pos, nation, order, spec) is None:
        return problem("option-no-rail", order.place or "", number=spec.number, title=spec.title, place=order.place,
                       to=TRIESTE)
    return None


def carry(ctx: TurnContext, nation: str, order: SpecialOption, spec: OptionRule) -> None:
    """The submarine is built and railed to the Adriatic: on the map at once, named by this
    turn's orders there, and the rails of the port and of Trieste spent (no dice: the
    checker's projection does the same)."""
    built_at = port(ctx, nation, order, spec)
    if built_at is None:
        return
    sub = ctx.state.new_unit(nation, KIND, SEA)
    technology.stamp(ctx, sub)
    ctx.start[(nation, SEA, KIND)] += 1  # "This sub can engage ... in the same turn"
    ctx.rail_used[built_at] = ctx.rail_used.get(built_at, 0) + RAIL_COST
    ctx.rail_used[TRIESTE] = max(ctx.rail_used.get(TRIESTE, 0), ctx.place(TRIESTE).value)
    if not ctx.checking:
        ctx.tell(nation, "placed", "1.5", kind=KIND, count=1, place=SEA)
