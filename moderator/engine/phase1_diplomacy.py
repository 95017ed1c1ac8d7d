"""Phase 1: Diplomatic Actions.

1.1 declarations of war: the DECLARE WAR order's home (engine/orders/declare_war.py).
1.2-1.5: the homes of INFLUENCE, COAX, SURRENDER, CLOSE, UNRESTRICTED SUBMARINE WARFARE,
BLOCKADE, OPTION, GEAR UP, JOIN, PEACE and EXILE (engine/orders/influence.py, neutrals.py,
surrender.py, declarations.py, special_options.py, peace.py, exile.py) judge them and
charge their cost. Influence (its rolls and points), GEAR UP, JOIN, the surrender's offers
and votes (engine/surrender.py, counted in this step's own work) and the options with an
effect (engine/option_effects.py) are resolved; the rest is referred to the moderator.

The step's own work in 1.2, after the attempts: the points some major neutrals take every
turn while neutral (diplomacy.toml [drift]): the Ottomans "Each turn ... 0-7 points
toward CP side", Italy "0-3 points toward Allied Powers side each turn" (toward the side
it leans to: "Italy can have 0-3 points toward Central Powers side each following turn,
i.e. Italy is leaning toward Central Powers side"). Reading: rolled in Phase 1.2 of
every turn, after the players' attempts; Italy's leaning is NationState.flags["leaning"]
when set (a moderator's ruling after Paris falls, a coaxing; Trieste or Marseille given:
engine/option_effects.py), else the scenario's. French #3: "0-4 points each turn instead
0-3" toward the Allies once it succeeded (flags["courted"]). After the British Empire's
unprovoked entry Italy may be "twice attracted" toward the side it leans to
(engine/british_entry.py italy_table), and a block by COAX lasts the same way (coaxing
below): its points of the turn are drawn twice while it leans so.
"""

from __future__ import annotations

from moderator.engine import british_entry, neutral_triggers, points
from moderator.engine import surrender as surrenders
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.neutral_triggers import leaning  # Italy's leaning: its home is there
from moderator.engine.option_effects import COURTED
from moderator.engine.orders import peace
from moderator.engine.orders.neutrals import COAXED

PHASE = "1.2"
SWAYED = "coaxed"  # NationState.flags of Italy: the turn a coaxing first turned its leaning (0-4 a turn since)


def coaxing(ctx: TurnContext) -> None:
    """COAX Italy, after every attempt of the turn (engine/orders/neutrals.py rolled them):
    a success of the side Italy does not lean to turns its leaning ("Italy would be
    destined to enter on the Central Power and would collect 0-4 points toward Central
    Powers side instead of the Allies"), unless a success of the side it leans to blocks
    it ("an attempt (at 10%) to block a successful attempt made by the opposing side").
    From the first switch on, Italy's points of the turn are 0-4 ("the opposing side may
    then spend money to try and sway Italy back with 0-4 points"). Italy and the moderator
    learn of it; nobody else (the leaning is hidden).

    The block lasts: "(ie. Italy is leaning twice toward that side)". Reading: a success of
    the side Italy leans to, with none of the other side that turn, leaves Italy leaning
    twice toward it (flags[british_entry.TWICE], the same "twice attracted" as Italy's
    table after Britain's unprovoked entry: its points of the turn drawn twice), and the
    next success of the other side takes that second leaning away instead of turning
    Italy. It is also Austro-Hungarian option #2's "twice leaned toward Allied Powers by
    using Italian influence" (engine/option_effects.py): "if Allied Powers succeed once to
    do the former, then Central Powers must counteract"."""
    italy = ctx.scenario.diplomacy.coax_nation
    if not italy or italy not in ctx.state.nations or ctx.state.nations[italy].side != "neutral":
        return
    successes = {key[1] for key in ctx.done if key and key[0] == COAXED}
    leans = leaning(ctx, italy)
    against = {"allied": "central", "central": "allied"}.get(leans, "")
    flags = ctx.state.nations[italy].flags
    if leans in successes and against not in successes:
        flags[british_entry.TWICE] = leans  # a block made in advance
        return
    if against not in successes or leans in successes:
        return  # nothing to turn, or blocked the same turn
    if flags.get(british_entry.TWICE) == leans:
        flags.pop(british_entry.TWICE)  # the second leaning absorbs it ("counteract")
        return
    flags["leaning"] = against
    flags.setdefault(SWAYED, ctx.turn)
    ctx.tell(italy, "leaning-changed", PHASE, side=against)
    ctx.emit("leaning-changed", PHASE, (MODERATOR,), nation=italy, side=against)


def diplomatic_influence(ctx: TurnContext) -> None:
    """Phase 1.2: the coaxing of Italy, then every turn's points of the major neutrals that
    take them (see above)."""
    coaxing(ctx)
    for nation, drift in sorted(ctx.scenario.diplomacy.drift.items()):
        ns = ctx.state.nations.get(nation)
        if ns is None or ns.side != "neutral":
            continue
        toward = leaning(ctx, nation) if drift.toward == "leaning" else drift.toward
        if toward not in ("allied", "central"):
            continue
        flags = ctx.nation(nation).flags
        most = drift.points + (1 if flags.get(SWAYED) or (toward == "allied" and flags.get(COURTED)) else 0)
        if nation == neutral_triggers.ITALY:  # the provinces lost: "1 point more per turn toward ..."
            bonus = neutral_triggers.italy_lean_bonus(ctx)
            most = max(0, most + (bonus if toward == "allied" else -bonus))
        # Italy's table after Britain's unprovoked entry: "twice attracted" toward the side it leans to
        draws = 2 if flags.get(british_entry.TWICE) == toward else 1
        for _ in range(draws):
            amount = ctx.dice.between(0, most, f"{ctx.nation_name(nation)}'s points of the turn {points.PURPOSE}")
            points.move(ctx, nation, toward, amount, "drift", PHASE)


def surrender(ctx: TurnContext) -> None:
    """Phase 1.3, after this turn's offers and votes: the offers of earlier turns are
    decided and their terms applied (engine/surrender.py)."""
    surrenders.decide_offers(ctx)


def other_declarations(ctx: TurnContext) -> None:
    """Phase 1.4 (unrestricted submarine warfare and other declarations): not implemented yet."""


def special_options(ctx: TurnContext) -> None:
    """Phase 1.5, after the orders: the peace both sides wrote (engine/orders/peace.py)."""
    peace.agree(ctx)
