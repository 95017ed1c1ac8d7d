"""Phase 9, The Russian Revolution: the rolls, the change of government, the rising.

"Starting in 1915, on Turn 7, the moderator will begin rolling to see if the Russian
Revolution will begin. There is a 1 in 10 chance ... for each of the three turns in
1915, 2 in 10 ... 1916, a 3 in 10 ... 1917, and a 4 in 10 ... 1918, etc. These numbers
can be shifted up or down 1 point per dice roll based on the German and Russian special
options" (Germany #6, 12 resources on a turn: +1 that turn; Russia #3, properly
supplying the army: -1 for the rest of the war; engine/chances.revolution_in_ten).

"First hit only changes government but half of resource income is lost (that half goes
to Bosheviks when the revolution begins), so Russian Empire becomes Russian Republic,
but second hit is when revolution is to begin." From the turn after the first hit,
Russia collects half its income (rounded down: the Bolsheviks' half is rounded up, Phase
8 calls russian_income) and the other half is kept for the Bolsheviks (flags FUND).
Germany's option #6 money ("kept by Bolshevik player until revolution arises") is already
in the Bolsheviks' treasury: the option's home pays it to them when it is used.

The rising: "the moderator will roll a D10 for every Russian unit built that turn. On a
1-7 the unit will become a revolutionary. The moderator will then strategically place
those units into one or more Russian territories which do not have any Russian troops on
them." On later turns "any units the Russian player tries to build have a chance to
defect ... on an 8-10 it defects". Where they go: go_over (defectors join the Bolshevik
player's own new units; the revolutionaries, and defectors he gave no units to join, go
by a default flagged for the moderator to change by ruling: into the territories of
Russia's start free of Russian troops, which the Bolsheviks then hold). When none is free
at the rising, "the moderator will pick a Russian territory which the revolutionaries
will attack. If they succeed in the attack, the territory becomes rebel-owned. If they
fail, the revolution is crushed then and there": the Russia-held territory of Russia's
start with the fewest Russian units (then the most valuable, then by name), the battle
fought at once with step 9's dice; beaten, the civil war is over, Russia the winner. The Bolsheviks inherit Russia's technology, are at war with
Russia, come on the board, receive the fund and from the next Phase 8 draw double from
the Russian lands they hold. From the turn after the rising, each Phase 9 first asks
whether the civil war is over (the Bolsheviks without units, or Russia without a city of
its start and without land units) and hands the winner the loser's Russian land, ports,
complexes and ships (stage 3). Who commands the Bolsheviks: the player seated on them,
else the moderator ("either the moderator or a player specifically designated").

After a Bolshevik victory (`bolshevik_wars`): "they may then selectively target and attack
any nations which had conquered any Russian territories since the start of the war and
strive to re-unify all of Russia's original territories. If and only if, all that has been
achieved will the Bolshevik player then seek to continue any wars Russia had been in at
the time of the Revolution's start". Read: at their victory they are at war with every
nation holding land of Russia's start (whom to attack is theirs to choose); Russia's wars
at the rising are recorded then (flags AT_RISING of the Bolsheviks), and in the first
Phase 9 in which they hold every territory of Russia's start they are at war with each of
those nations still on the map (holding land), once (flags REUNIFIED). Until then the Move
home keeps their units inside Russia's start land (engine/bolsheviks.py outside_russia).
"""

from __future__ import annotations

from moderator.engine import chances, combat_land, conquest, technology
from moderator.engine.context import TurnContext
from moderator.engine.orders.records import option_used
from moderator.engine.phase6_incorporation import territory_yield
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, GameState, Unit
from moderator.orders.model import SpecialOption

PHASE = "9"
RUSSIA, BOLSHEVIKS, GERMANY = "russia", "bolsheviks", "germany"
FIRST_TURN = 7  # "Starting in 1915, on Turn 7"
STAGE = "revolution"  # NationState.flags of Russia: 1 after the first hit (Republic), 2 once the rising began, 3 over
ENDED = 3
WINNER = "civil_war_winner"  # NationState.flags of Russia once the civil war is over
UNITS = LAND_UNITS + AIR_UNITS + SEA_UNITS  # what counts as "units remaining"
INHERITED = SEA_UNITS + ("port", "industry")  # "Ports, Industrial Complexes, and Ships"
FUND = "bolshevik_fund"  # NationState.flags of Russia: what is kept for the Bolsheviks until the rising
GERMAN_SUPPORT, RUSSIAN_SUPPLY = 6, 3  # Germany option #6, Russia option #3
AT_RISING = "russian_wars_at_rising"  # NationState.flags of the Bolsheviks: Russia's foes when they rose
REUNIFIED = "reunified"  # NationState.flags of the Bolsheviks: the turn they held all of Russia's start land


def stage(ctx: TurnContext) -> int:
    return stage_of(ctx.state)


def stage_of(state: GameState) -> int:
    """0 before the first hit, 1 the Russian Republic, 2 once the revolution began."""
    russia = state.nations.get(RUSSIA)
    return int(russia.flags.get(STAGE, 0)) if russia is not None else 0


def russian_income(ctx: TurnContext, nation: str, collected: int) -> int:
    """Phase 8 after the first hit: Russia keeps half (rounded down); the rest is kept for
    the Bolsheviks until the rising. After the rising the Bolsheviks "draw double the
    resources from any Russian lands": what those lands yield them is added once more.
    Every other nation's income is unchanged."""
    if nation == BOLSHEVIKS and stage(ctx) == 2:
        return collected + sum(territory_yield(ctx.world, ctx.state, t, ctx.turn)
                               for t in ctx.world.home_of(RUSSIA) if ctx.controller(t) == BOLSHEVIKS)
    if nation != RUSSIA or stage(ctx) != 1:
        return collected
    kept = collected // 2
    flags = ctx.state.nations[RUSSIA].flags
    flags[FUND] = int(flags.get(FUND, 0)) + collected - kept
    return kept


def german_support_this_turn(ctx: TurnContext) -> bool:
    """Germany's option #6 carried out this turn (an order kept, not refused)."""
    refused = {e.args["order"] for e in ctx.events if e.code == "order-refused" and e.args.get("nation") == GERMANY}
    return any(o.number == GERMAN_SUPPORT and i not in refused
               for n, i, o in ctx.orders_of(SpecialOption) if n == GERMANY)


def built_this_turn(ctx: TurnContext, nation: str) -> list[Unit]:
    """The units the nation placed in this turn's Phase 7 (its newest of each placement)."""
    out: list[Unit] = []
    for e in ctx.events:
        if e.code == "placed" and e.phase == "7" and e.args["nation"] == nation:
            here = sorted((u for u in ctx.units_at(e.args["place"], nation) if u.kind == e.args["kind"]),
                          key=lambda u: u.id)
            out.extend(here[-e.args["count"]:])
    return sorted({u.id: u for u in out}.values(), key=lambda u: u.id)


def free_territories(ctx: TurnContext, bolshevik_held: bool) -> list[str]:
    """The Russian territories "which do not have any Russian troops on them": of Russia's
    start, held by Russia (and by the Bolsheviks, for the defectors: "These can be
    territories already under Bolshevik control"), the most valuable first, then by name."""
    holders = (RUSSIA, BOLSHEVIKS) if bolshevik_held else (RUSSIA,)
    free = [t for t in ctx.world.home_of(RUSSIA)
            if ctx.controller(t) in holders and not ctx.units_at(t, RUSSIA)]
    return sorted(free, key=lambda t: (-ctx.place(t).value, t))


def weakest_territory(ctx: TurnContext) -> str | None:
    """The default target of revolutionaries with nowhere free to go: the Russia-held
    territory of Russia's start with the fewest Russian units, then the most valuable,
    then by name."""
    held = [t for t in ctx.world.home_of(RUSSIA) if ctx.controller(t) == RUSSIA]
    if not held:
        return None
    return min(held, key=lambda t: (len([u for u in ctx.units_at(t, RUSSIA) if u.kind in LAND_UNITS + AIR_UNITS]),
                                    -ctx.place(t).value, t))


def revolutionaries_attack(ctx: TurnContext, units: list[Unit]) -> None:
    """"If no such territories exist, then the moderator will pick a Russian territory which
    the revolutionaries will attack. If they succeed in the attack, the territory becomes
    rebel-owned. If they fail, the revolution is crushed then and there." The default
    target (weakest_territory, flagged: the moderator may rule otherwise); the battle is
    fought at once, with step 9's dice, by the land and air units that turned (ships stay
    at sea, Bolshevik)."""
    target = weakest_territory(ctx)
    army = [u for u in units if u.kind in LAND_UNITS + AIR_UNITS]
    if target is None or not army:
        return
    origins = sorted({u.location for u in army} - {target})
    for u in army:
        u.location = target
    defenders = [u for u in ctx.units_at(target, RUSSIA) if u.kind in LAND_UNITS + AIR_UNITS]
    battle = combat_land.fight(ctx, target, origins, BOLSHEVIKS, army, defenders)
    won = bool(combat_land.survivors(battle)) and not combat_land.defenders_left(battle)
    if won:
        conquest.take_territory(ctx, target, BOLSHEVIKS, PHASE)
    combat_land.battle_event(ctx, battle, won)
    ctx.flag(PHASE, "revolutionaries-attacked", BOLSHEVIKS, place=target, won=won,
             default=(f"no Russian territory was free of Russian troops: the revolutionaries attacked {target}, "
                      "the Russian territory with the fewest Russian units"))
    if not won:
        ctx.state.remove_units(ctx.state.units_at(target, BOLSHEVIKS))  # the revolution is crushed
        end_civil_war(ctx, RUSSIA)


def turn_bolshevik(ctx: TurnContext, units: list[Unit]) -> None:
    """The units are the Bolsheviks' from now on, with the levels they were built at."""
    russia, reds = ctx.state.nations[RUSSIA], ctx.state.nations[BOLSHEVIKS]
    for u in units:
        levels = russia.flags.get(technology.BUILT_AT, {}).pop(u.id, None)
        if levels is not None:
            reds.flags.setdefault(technology.BUILT_AT, {})[u.id] = levels
        u.nation = BOLSHEVIKS


def bolshevik_builds(ctx: TurnContext) -> dict[str, dict[str, int]]:
    """Where the Bolshevik player placed his own new units this turn: {place: {kind: n}}
    (land only), his standing instructions for the units that defect to him."""
    out: dict[str, dict[str, int]] = {}
    for e in ctx.events:
        if e.code == "placed" and e.phase == "7" and e.args["nation"] == BOLSHEVIKS \
                and not ctx.is_sea(e.args["place"]):
            kinds = out.setdefault(e.args["place"], {})
            kinds[e.args["kind"]] = kinds.get(e.args["kind"], 0) + e.args["count"]
    return out


def instructed_place(builds: dict[str, dict[str, int]], kind: str) -> str | None:
    """Where a defector of `kind` joins the Bolsheviks' new units: where they placed the
    most of its kind (then by name), else the most new units of any kind."""
    def best(count: dict[str, int]) -> str | None:
        return min(count, key=lambda t: (-count[t], t)) if count else None

    return best({t: k[kind] for t, k in builds.items() if k.get(kind)}) \
        or best({t: sum(k.values()) for t, k in builds.items()})


def go_over(ctx: TurnContext, units: list[Unit], why: str) -> None:
    """Units that become Bolshevik: the rising's revolutionaries ("The moderator will then
    strategically place those units into one or more Russian territories which do not have
    any Russian troops on them") or later defectors ("The Bolshevik player should be
    certain to leave instructions with the moderator where to place any units gained in
    this fashion"). Ships stay at sea, Bolshevik. The land and air units:

    * defectors join the Bolshevik player's own new units of the turn (instructed_place):
      no referral; without any, the default below, flagged;
    * the default (revolutionaries always, flagged: the moderator's strategy): a unit
      already standing in a free territory (free once the units have turned) stays there,
      the others go to the most valuable free territory; with no free territory,
      revolutionaries attack (revolutionaries_attack) and defectors stay where built.

    Every Russia-held territory they stand in is taken for the Bolsheviks (a capture, the
    incorporation kept: engine/bolsheviks.py keeps_incorporation)."""
    if not units:
        return
    turn_bolshevik(ctx, units)
    army = [u for u in units if u.kind in LAND_UNITS + AIR_UNITS]
    revolutionaries = why == "revolutionaries-placed"
    free = free_territories(ctx, bolshevik_held=not revolutionaries)
    if revolutionaries and army and not free:
        revolutionaries_attack(ctx, units)
        return
    builds = {} if revolutionaries else bolshevik_builds(ctx)
    instructed = bool(builds)
    for u in army:
        if instructed:
            u.location = instructed_place(builds, u.kind) or u.location
        elif u.location not in free and free:
            u.location = free[0]
    places = sorted({u.location for u in army})
    for place in places:
        if ctx.controller(place) == RUSSIA and not ctx.units_at(place, RUSSIA):
            conquest.take_territory(ctx, place, BOLSHEVIKS, PHASE)
    if instructed:
        return
    kinds: dict[str, int] = {}
    for u in units:
        kinds[u.kind] = kinds.get(u.kind, 0) + 1
    ctx.flag(PHASE, why, BOLSHEVIKS, went=dict(sorted(kinds.items())), place=", ".join(places),
             default=("a unit standing in a Russian territory without Russian troops stays, the others go to the "
                      "most valuable such territory, which the Bolsheviks then hold" if free else
                      "no Russian territory is free of Russian troops: they stay where they were built"))


def rising(ctx: TurnContext) -> None:
    """The second hit: the revolution begins."""
    russia, reds = ctx.state.nations[RUSSIA], ctx.state.nations.get(BOLSHEVIKS)
    russia.flags[STAGE] = 2
    fund = int(russia.flags.pop(FUND, 0))
    if reds is None:
        ctx.flag(PHASE, "revolution-no-bolsheviks", RUSSIA, fund=fund)
        return
    reds.saved += fund
    reds.flags.pop("active", None)  # on the board from now on (scenario: active = false)
    reds.tech = dict(russia.tech)  # "Bolshevik player inherites all technology advancement"
    reds.flags[AT_RISING] = [n for n in russia.at_war_with if n != BOLSHEVIKS]  # the wars continued after victory
    for a, b in ((russia, reds), (reds, russia)):
        if b.id not in a.at_war_with:
            a.at_war_with = sorted([*a.at_war_with, b.id])
    turned = [u for u in built_this_turn(ctx, RUSSIA) if chances.unit_turns_revolutionary(ctx.dice)]
    ctx.emit("revolution", PHASE, (), stage=2, fund=fund, units=len(turned))
    go_over(ctx, turned, "revolutionaries-placed")


def defections(ctx: TurnContext) -> None:
    """After the rising, every Russian unit built this turn defects on 8-10."""
    gone = [u for u in built_this_turn(ctx, RUSSIA) if chances.unit_defects(ctx.dice)]
    if gone:
        ctx.emit("revolution-defections", PHASE, (), units=len(gone))
    go_over(ctx, gone, "defectors-placed")


def standing_units(ctx: TurnContext, nation: str) -> list[Unit]:
    """The nation's units, without those placed this turn: "no units remaining (This includes
    in mid-update after all battles have been fought, but before the moderator places new
    units on the board)"."""
    new = {u.id for u in built_this_turn(ctx, nation)}
    return [u for u in ctx.state.units if u.nation == nation and u.id not in new and u.kind in UNITS]


def civil_war_winner(ctx: TurnContext) -> str | None:
    """"The Russian Revolution ends if at any time the Bolsheviks have no units remaining
    ... or the Bolshevik forces overrun all Russian cities and destroy all Russian soldiers"."""
    if not standing_units(ctx, BOLSHEVIKS):
        return RUSSIA
    cities = [t for t in ctx.world.home_of(RUSSIA) if ctx.place(t).city]
    soldiers = [u for u in standing_units(ctx, RUSSIA) if u.kind in LAND_UNITS]
    if not soldiers and not any(ctx.controller(t) == RUSSIA for t in cities):
        return BOLSHEVIKS
    return None


def end_civil_war(ctx: TurnContext, winner: str) -> None:
    """"The winner of the war automatically has ownership off all Russian territories that
    belonged to both factions, including any Ports, Industrial Complexes, and Ships that
    survived the civil war." The loser's other units stay its own (the moderator's)."""
    loser = BOLSHEVIKS if winner == RUSSIA else RUSSIA
    home = set(ctx.world.home_of(RUSSIA))
    taken = sorted(t for t, h in ctx.state.control.items() if h == loser and (t in home or loser == BOLSHEVIKS))
    for t in taken:
        ctx.state.control[t] = winner
    for u in ctx.state.units:
        if u.nation == loser and u.kind in INHERITED:
            u.nation = winner
    ctx.state.nations[RUSSIA].flags[STAGE] = ENDED
    ctx.state.nations[RUSSIA].flags[WINNER] = winner
    for a, b in ((RUSSIA, BOLSHEVIKS), (BOLSHEVIKS, RUSSIA)):
        ns = ctx.state.nations[a]
        ns.at_war_with = [n for n in ns.at_war_with if n != b]
    ctx.emit("revolution-ended", PHASE, (), winner=winner, territories=taken)
    if winner == BOLSHEVIKS:
        conquerors = sorted({h for t in ctx.world.home_of(RUSSIA) if (h := ctx.controller(t)) is not None}
                            - {RUSSIA, BOLSHEVIKS})
        go_to_war(ctx, conquerors, "reunify")


def go_to_war(ctx: TurnContext, foes: list[str], why: str) -> None:
    """The Bolsheviks at war with `foes` (told to everyone: who is at war is public)."""
    reds = ctx.state.nations[BOLSHEVIKS]
    new = [n for n in foes if n in ctx.state.nations and n not in reds.at_war_with and n != BOLSHEVIKS]
    for n in new:
        reds.at_war_with = sorted([*reds.at_war_with, n])
        other = ctx.state.nations[n]
        other.at_war_with = sorted({*other.at_war_with, BOLSHEVIKS})
    ctx.emit("bolshevik-wars", PHASE, (), nations=new, why=why)


def bolshevik_wars(ctx: TurnContext) -> None:
    """After their victory, once all of Russia's start land is theirs: Russia's wars at the
    rising go on, against each of those nations still on the map."""
    reds = ctx.state.nations.get(BOLSHEVIKS)
    if reds is None or reds.flags.get(REUNIFIED) is not None:
        return
    if any(ctx.controller(t) != BOLSHEVIKS for t in ctx.world.home_of(RUSSIA)):
        return
    reds.flags[REUNIFIED] = ctx.turn
    held = set(ctx.state.control.values())
    go_to_war(ctx, [n for n in reds.flags.get(AT_RISING, []) if n in held], "reunified")


def russian_revolution(ctx: TurnContext) -> None:
    if RUSSIA not in ctx.state.nations:
        return
    now = stage(ctx)
    if now == ENDED and ctx.nation(RUSSIA).flags.get(WINNER) == BOLSHEVIKS:
        bolshevik_wars(ctx)
        return
    if now == 2 and BOLSHEVIKS in ctx.state.nations:
        winner = civil_war_winner(ctx)
        if winner is not None:
            end_civil_war(ctx, winner)
            return
        defections(ctx)
        return
    if now >= 2:
        return
    if ctx.turn < FIRST_TURN:
        return
    support = german_support_this_turn(ctx)
    year, _ = ctx.scenario.turn_date(ctx.turn)
    supply = option_used(ctx, RUSSIA, RUSSIAN_SUPPLY) is not None
    if not chances.russian_revolution(ctx.dice, year, support, supply):
        return
    if now == 0:
        ctx.state.nations[RUSSIA].flags[STAGE] = 1
        ctx.emit("revolution", PHASE, (), stage=1, fund=int(ctx.nation(RUSSIA).flags.get(FUND, 0)), units=0)
        return
    rising(ctx)
