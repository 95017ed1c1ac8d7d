"""Checks of the deployment turn (turn 0): DEPLOY orders, and nothing else before turn 1.

Rules, "Initial Deployment": the free half of the starting units "should be deployed by
active players for each nation at the own provinces and at the sea zones adjacent to own
land provinces. Units cannot be deployed onboard transports ... No one can deploy units
prior to first turn in allied lands or to colonies (for British Commonwealt, German
Empire and French Empire only)". The placement rule itself is the engine's
(moderator.engine.phase0_deploy.deploy_problem), so the receipt and the resolution agree.
"""

from __future__ import annotations

from dataclasses import replace

from moderator.engine.phase0_deploy import deploy_problem, free_counts
from moderator.orders import model as m
from moderator.orders.context import Ctx
from moderator.orders.vocab import UNIT_ECHO

# Orders allowed before the first turn: DEPLOY, and notes to the moderator.
DEPLOYMENT_ORDERS = (m.Deploy, m.Note)

_WHY = {
    "ship-on-land": "ships are deployed in sea zones, and {place} is land",
    "at-sea": "{place} is a sea zone: only ships are deployed at sea, since units cannot be "
              "deployed onboard transports (Initial Deployment)",
    "sea-not-adjacent": "{place} is not next to any of your own land; ships are deployed only in "
                        "sea zones adjacent to your own land provinces (Initial Deployment)",
    "allied-land": "{place} is allied land; no one deploys in allied lands before the first turn "
                   "(Initial Deployment)",
    "not-own-land": "{place} is not your own land; units are deployed only in your own provinces "
                    "(Initial Deployment)",
    "colony": "{place} is a colony; the British, German and French empires cannot deploy in "
              "colonies before the first turn (Initial Deployment)",
    "mountains": "no aircraft can land in {place} (mountains)",
    "not-held": "you do not hold {place}",
}


def before_first_turn(o: m.Order, ctx: Ctx) -> bool:
    """At turn 0 only DEPLOY (and NOTE) may be given; False (with an error) otherwise."""
    if ctx.state.turn != 0 or isinstance(o, DEPLOYMENT_ORDERS):
        return True
    ctx.error(o, "only DEPLOY orders are allowed before the first turn (Initial Deployment): "
                 "write e.g. DEPLOY 3 inf, 1 art AT Berlin; send this order again on turn 1",
              "deployment-turn", o.span.text.split()[0] if o.span.text.split() else "")
    return False


def deploy(o: m.Deploy, ctx: Ctx) -> m.Order | None:
    """DEPLOY units AT place: turn 0 only, units among the nation's free half, a legal place."""
    if ctx.state.turn != 0:
        ctx.error(o, "the initial deployment is over: DEPLOY is only for the deployment turn "
                     "before the first turn (Initial Deployment)", "deployment-over", "DEPLOY")
        return None
    place = ctx.territory(o, o.place)
    if place is None:
        return None
    for uc in o.units:
        reason = deploy_problem(ctx.world, ctx.state, ctx.nation, uc.kind, place)
        if reason is not None:
            ctx.error(o, _WHY[reason].format(place=place), f"deploy-{reason}", o.place)
            return None
    if not _take_free_units(o, ctx):
        return None
    return replace(o, place=place)


def _take_free_units(o: m.Deploy, ctx: Ctx) -> bool:
    """Counts per kind, summed over all the DEPLOY orders, within flags["to_deploy"]."""
    free = free_counts(ctx.state, ctx.nation)
    for uc in o.units:
        left = free[uc.kind] - ctx.deployed[uc.kind]
        if uc.count > left:
            before = f" ({ctx.deployed[uc.kind]} already deployed by earlier orders)" if ctx.deployed[uc.kind] else ""
            ctx.error(o, f"you have only {left} {UNIT_ECHO[uc.kind]} left to deploy{before}, not {uc.count}",
                      "deploy-too-many", o.span.text.split()[1] if len(o.span.text.split()) > 1 else "")
            return False
    for uc in o.units:
        ctx.deployed[uc.kind] += uc.count
    return True
