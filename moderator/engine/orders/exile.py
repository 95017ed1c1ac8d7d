"""GOVERNMENT IN EXILE WITH nation (Conquest).

"A nation is considered conquered when all of its supply centers have been captured or
destroyed. Supply centers are all territories which belonged to the nation on the start
of war ... A conquered nation may also choose to declare a "government in exile" and
name a host nation for its armed forces. The host nation must be an ally."

Settled by the position: the host is an ally (not the nation itself), and the nation
holds none of the territories it owned at the start (the map's owners). Free. The engine
keeps the exile (engine/exile.py: the host collects the land the nation still holds, the
liberation); the host commands the exiled forces by writing the exiled seat's orders
(PROXY FOR, service/proxy.py). A second exile before the liberation is refused.
"""

from __future__ import annotations

from moderator.engine import exile
from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import once_per_turn
from moderator.engine.orders.records import Referred
from moderator.engine.problems import Problem, problem
from moderator.orders.model import Exile

PHASE = "1.5"


def supply_centres_held(pos: Position, nation: str) -> list[str]:
    """The nation's territories of the start of war that it still controls."""
    return sorted(t.name for t in pos.world.lands() if t.owner == nation and pos.controller(t.name) == nation)


class ExileRule(Referred[Exile]):
    order = Exile
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Exile) -> Problem | None:
        if order.host == nation or not pos.allies(nation, order.host):
            return problem("exile-host", order.host, host=order.host)
        if not any(t.owner == nation for t in pos.world.lands()):
            # Conquest: a nation is conquered when its own territories are taken; one that
            # began with none (the Bolsheviks, the Mutineers) has no homeland to lose.
            return problem("exile-no-homeland")
        host = exile.host_of(pos.state, nation)
        if host is not None:  # "will remain under the host's control until the conquered nation is liberated"
            return problem("exile-already", order.host, host=host)
        held = supply_centres_held(pos, nation)
        if held:
            return problem("exile-not-conquered", held=len(held), example=held[0])
        return once_per_turn(pos, (nation, "exile"), "exile-twice")

    def record(self, ctx: TurnContext, nation: str, order: Exile) -> None:
        ctx.use((nation, "exile"))

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Exile) -> None:
        super().commit(ctx, nation, index, order)
        exile.declare(ctx, nation, order.host)  # no dice: the checker's projection has it too

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Exile) -> None:
        self.commit(ctx, nation, index, order)


RULE = ExileRule()
