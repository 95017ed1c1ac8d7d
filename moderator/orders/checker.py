"""validate(): check parsed orders against the game state, separately from parsing.

Knows ownership and control, adjacency, movement and fuel ranges, costs against saved
resources, technology prerequisites, per-turn limits, manpower and placement rules
(see the check_* modules, each citing its rules section). Orders are checked in the
Sequence of Play (phase by phase; within Phase 4 task forces before the landings that
use them), so the budget and the unit ledger follow the turn as the engine plays it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from moderator.engine.state import GameState
from moderator.orders import check_build as cb
from moderator.orders import check_combat as cc
from moderator.orders import check_deploy as cd
from moderator.orders import check_naval as cn
from moderator.orders import check_politics as cp
from moderator.orders import model as m
from moderator.orders.context import Ctx
from moderator.orders.diagnostics import ERROR, WARNING, Diagnostic
from moderator.orders.parser import Header, parse_orders
from moderator.world.model import World, fold
from moderator.world.scenario_model import Scenario

Check = Callable[[m.Order, Ctx], "m.Order | None"]

CHECKS: dict[type, Callable[..., m.Order | None]] = {
    m.DeclareWar: cp.declare_war, m.Influence: cp.influence, m.OfferSurrender: cp.offer_surrender,
    m.SurrenderVote: cp.surrender_vote, m.ClosePassage: cp.close_passage, m.SubWarfare: cp.sub_warfare,
    m.Blockade: cp.blockade, m.SpecialOption: cp.special_option, m.GearUp: cp.gear_up,
    m.CoaxItaly: cp.coax_italy, m.JoinSide: cp.join_side, m.Peace: cp.peace, m.Gift: cp.gift,
    m.Exile: cp.exile, m.Research: cp.research, m.Upgrade: cp.upgrade, m.Plunder: cp.plunder,
    m.Incorporate: cp.incorporate, m.Transfer: cp.transfer, m.Note: cp.note,
    m.Build: cb.build, m.BuildTrench: cb.build_trench, m.BuildHomeTrenches: cb.build_home_trenches,
    m.BuildShipGear: cb.build_ship_gear, m.Espionage: cb.espionage,
    m.CounterEspionage: cb.counter_espionage, m.Recon: cb.recon, m.Repair: cb.repair,
    m.Bombing: cc.bombing, m.Rebase: cc.rebase, m.StrategicMove: cc.strategic_move,
    m.Move: cc.move, m.Attack: cc.move, m.CombatCondition: cc.condition,
    m.CasualtyOrder: cc.casualties, m.ArtillerySupport: cc.support, m.DefendWith: cc.defend,
    m.RocketFire: cc.rocket_fire, m.TaskForce: cn.task_force, m.TaskForceMission: cn.mission,
    m.SubDetection: cn.sub_detection, m.SubInterception: cn.sub_interception,
    m.NavalInvasion: cn.invasion, m.Deploy: cd.deploy,
}

# Within Phase 4: bombing/rebasing/rail first (4.1), then naval (4.2), then land (4.4).
_PHASE4_RANK = {m.Bombing: 0, m.Rebase: 0, m.StrategicMove: 0, m.TaskForce: 1,
                m.TaskForceMission: 2, m.SubDetection: 3, m.SubInterception: 3,
                m.NavalInvasion: 5, m.ArtillerySupport: 6, m.CombatCondition: 7}


def _rank(item: tuple[int, m.Order]) -> tuple[int, int, int]:
    index, order = item
    phase = order.phase or 9  # notes last: they never cost anything
    return phase, _PHASE4_RANK.get(type(order), 4), index


@dataclass
class Validation:
    """Orders that survive (canonical names, in the order written) and all diagnostics."""

    orders: list[m.Order] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def resolve_nation_id(nation: str, scenario: Scenario) -> str | None:
    key = fold(nation)
    for nid in sorted(scenario.nations):
        n = scenario.nations[nid]
        if key in {fold(a) for a in (nid, n.name, *n.aliases)}:
            return nid
    return None


def check(orders: list[m.Order], nation: str, state: GameState, world: World,
          scenario: Scenario) -> Validation:
    """Validate and canonicalise: the kept orders plus every diagnostic, by line."""
    nid = resolve_nation_id(nation, scenario)
    if nid is None:
        names = ", ".join(sorted(n.name for n in scenario.nations.values()))
        return Validation([], [Diagnostic(ERROR, 0, 0, nation, f'"{nation}" is not a nation in this '
                                          f"game. The nations are: {names}", "unknown-nation")])
    ctx = Ctx(nid, state, world, scenario, list(orders))
    ctx.declared = {d for o in orders if isinstance(o, m.DeclareWar)
                    and (d := ctx.resolve_nation(o.target)) is not None}
    kept: dict[int, m.Order] = {}
    for index, order in sorted(enumerate(orders), key=_rank):
        ctx.failed = False
        if not cd.before_first_turn(order, ctx):  # Initial Deployment: turn 0 is DEPLOY only
            continue
        try:
            result = CHECKS[type(order)](order, ctx) if type(order) in CHECKS else order
        except Exception as exc:  # a checker bug must not cost the player the order
            ctx.report(order, WARNING, f"this order could not be checked ({exc}); it is kept for "
                                       "the moderator", "internal")
            result = order
        if result is not None and not ctx.failed:
            kept[index] = result
    diagnostics = sorted(ctx.diagnostics, key=lambda d: (d.line, d.column))
    return Validation([kept[i] for i in sorted(kept)], diagnostics)


def validate(orders: list[m.Order], nation: str, state: GameState, world: World,
             scenario: Scenario) -> list[Diagnostic]:
    """The diagnostics of `orders` for `nation` in this state (parsing is separate)."""
    return check(orders, nation, state, world, scenario).diagnostics


@dataclass
class CheckResult:
    header: Header
    orders: list[m.Order]  # kept orders, canonical
    diagnostics: list[Diagnostic]


def check_text(text: str, nation: str, state: GameState, world: World, scenario: Scenario,
               game: str | None = None) -> CheckResult:
    """Parse and validate a whole mail body: what `moderator check` and the CHECK mail do."""
    parsed = parse_orders(text)
    result = check(parsed.orders, nation, state, world, scenario)
    extra: list[Diagnostic] = []
    h = parsed.header
    if h.nation is not None and resolve_nation_id(h.nation, scenario) != resolve_nation_id(nation, scenario):
        extra.append(Diagnostic(ERROR, 0, 0, h.nation, f"the NATION line says {h.nation}, but these "
                                f"orders are checked for {nation}", "header-nation"))
    if h.turn is not None and h.turn != state.turn:
        extra.append(Diagnostic(WARNING, 0, 0, str(h.turn), f"the TURN line says {h.turn}, but the "
                                f"game is at turn {state.turn}", "header-turn"))
    if game is not None and h.game is not None and h.game.strip().lower() != game.strip().lower():
        extra.append(Diagnostic(ERROR, 0, 0, h.game, f"the GAME line says {h.game}, not {game}",
                                "header-game"))
    diagnostics = sorted(parsed.diagnostics + result.diagnostics + extra, key=lambda d: (d.line, d.column))
    return CheckResult(h, result.orders, diagnostics)
