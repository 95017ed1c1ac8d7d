"""Phase 1: Diplomatic Actions.

1.1 declarations of war: the DECLARE WAR order's home (engine/orders/declare_war.py).
1.2-1.5: the homes of INFLUENCE, COAX, SURRENDER, CLOSE, UNRESTRICTED SUBMARINE WARFARE,
BLOCKADE, OPTION, GEAR UP, JOIN, PEACE and EXILE (engine/orders/influence.py, neutrals.py,
surrender.py, declarations.py, special_options.py, peace.py, exile.py) judge them and
charge their cost. Influence (its rolls and points), GEAR UP and JOIN are resolved; the
other effects (votes, options' rolls) are referred to the moderator.

The step's own work in 1.2, after the attempts: the points some major neutrals take every
turn while neutral (diplomacy.toml [drift]): the Ottomans "Each turn ... 0-7 points
toward CP side", Italy "0-3 points toward Allied Powers side each turn" (toward the side
it leans to: "Italy can have 0-3 points toward Central Powers side each following turn,
i.e. Italy is leaning toward Central Powers side"). Reading: rolled in Phase 1.2 of
every turn, after the players' attempts; Italy's leaning is NationState.flags["leaning"]
when set (a moderator's ruling after Paris falls, a coaxing), else the scenario's.
"""

from __future__ import annotations

from moderator.engine import points
from moderator.engine.context import TurnContext

PHASE = "1.2"


def leaning(ctx: TurnContext, nation: str) -> str:
    flagged = ctx.nation(nation).flags.get("leaning")
    if flagged in ("allied", "central"):
        return str(flagged)
    info = ctx.scenario.nations.get(nation)
    return info.leaning if info is not None and info.leaning else ""


def diplomatic_influence(ctx: TurnContext) -> None:
    """Phase 1.2: every turn's points of the major neutrals that take them (see above)."""
    for nation, drift in sorted(ctx.scenario.diplomacy.drift.items()):
        ns = ctx.state.nations.get(nation)
        if ns is None or ns.side != "neutral":
            continue
        toward = leaning(ctx, nation) if drift.toward == "leaning" else drift.toward
        if toward not in ("allied", "central"):
            continue
        amount = ctx.dice.between(0, drift.points, f"{ctx.nation_name(nation)}'s {points.DRIFT_PURPOSE}")
        points.move(ctx, nation, toward, amount, "drift", PHASE)


def surrender(ctx: TurnContext) -> None:
    """Phase 1.3 (surrender offers and terms): not implemented yet; emits nothing."""


def other_declarations(ctx: TurnContext) -> None:
    """Phase 1.4 (unrestricted submarine warfare and other declarations): not implemented yet."""


def special_options(ctx: TurnContext) -> None:
    """Phase 1.5 (national special rule options): not implemented yet; emits nothing."""
