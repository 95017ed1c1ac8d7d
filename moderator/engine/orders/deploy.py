"""DEPLOY units AT place (Initial Deployment, turn 0 only).

"50% units (rounded up) are deployed in predeterminated provinces/sea zones, last 50%
(rounded down) should be deployed by active players for each nation at the own provinces
and at the sea zones adjacent to own land provinces. Units cannot be deployed onboard
transports ... No one can deploy units prior to first turn in allied lands or to colonies
(for British Commonwealt, German Empire and French Empire only)".
The placement rule is phase0_deploy.deploy_problem; the units a nation may still deploy
are its flags["to_deploy"] less what its earlier DEPLOY orders placed.
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.orders.base import OrderRule
from moderator.engine.phase0_deploy import deploy_problem, free_counts
from moderator.engine.problems import Problem, problem
from moderator.orders.model import Deploy

PHASE = "0"


class DeployRule(OrderRule[Deploy]):
    order = Deploy
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Deploy) -> Problem | None:
        for uc in order.units:
            reason = deploy_problem(pos.world, pos.scenario, pos.state, nation, uc.kind, order.place)
            if reason is not None:
                return problem(f"deploy-{reason}", order.place, place=order.place, kind=uc.kind)
        free = free_counts(pos.state, nation)
        for uc in order.units:
            done = pos.tally[("deploy", nation, uc.kind)]
            if uc.count > free[uc.kind] - done:
                return problem("deploy-too-many", kind=uc.kind, left=max(free[uc.kind] - done, 0), done=done,
                               wanted=uc.count)
        return None

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Deploy) -> None:
        for uc in order.units:
            ctx.tally[("deploy", nation, uc.kind)] += uc.count
            for _ in range(uc.count):
                ctx.state.new_unit(nation, uc.kind, order.place)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Deploy) -> None:
        self.commit(ctx, nation, index, order)
        for uc in order.units:
            ctx.tell(nation, "deployed", PHASE, order=index, kind=uc.kind, count=uc.count, place=order.place)


RULE = DeployRule()
