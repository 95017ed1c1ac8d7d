"""Phase 9, Mutinies (and the manpower limit they follow).

"If a nation builds infantry units on a turn after its manpower limit has been expended,
then there will be a 2 in 10 chance of a mutiny happening. When a mutiny happens the
moderator will roll for the severity ... On a 1-4 it will be a small mutiny and isolated
to a single territory. 5-7 will be a large mutiny, and 8-10 a disastrous mutiny."

* Small: "One territory will be selected at random. 25% (round up) of all units there,
  divided evenly among the various unit types will simply disband."
* Large: "2 territories ... 50% (round up) of all units within these territories".
* Disastrous: "2 territories ... In the first of these territories 75% (round up) of the
  units there will disband. In the second territory, 100% of the units there will rebel".

"Only territories with actual units in them will be selected": the random territory is
picked (Dice.pick, step 9's stream) among the land territories where the nation has
units; "any territory the nation has units no matter if the mutiny started because of
loss of manpower in colonies or in mainland". Units are land units and aircraft (no
trenches, complexes or ports). "Divided evenly among the various unit types": one of
each kind in turn (kinds in the rules' order), the newest units first, until the share
is reached.

The rebels of a disastrous mutiny: "On the following turns the moderator will control
these units as if they belonged to a minor nation who was brought into the war against the
mutineers home nation." They become the Mutineers' (nations.toml [mutineers], a minor on
no side that the moderator commands, on the board from the first such mutiny), keeping
the values they had (their technology levels go with them, and their country's unit values:
technology.FIGHTS_AS); the Mutineers are at war with
the nation, and take the territory if the nation held it (a capture: conquered land,
yielding nothing until incorporated). One rebel nation for every mutiny, at war with
each nation whose army rebelled. A scenario without Mutineers: the rebels leave the map
and the moderator is told. "If the Mutinying forces successfully capture the nation's
capital they will force the government to offer its foes a surrender, as per normal
surrender rules": in the Phase 9 in which the Mutineers hold the capital of a nation at
war with them, that nation offers surrender to every nation it is at war with (answered
in the next turn's Phase 1.3, engine/surrender.py), unless it has surrendered before or
an offer waits; once while they hold it (again if they take it again). "If two mutinies occur or two provinces are affected by mutinies ... then
on any subsequent turns it happens again, there is a chance for socialist revolution in
that country. On roll of 1-5, a revolution will happen, and all units that are affected by
mutinies defect to the rebel army, any rebel army left from disastrous mutiny in previoues
turns join in. Such army is controlled by Bolshevik player or another free player and
those armies occupy and incorporate the province(s) they are in" (`revolution`): the
nation's land and air units in every province struck by its mutinies so far become the
Mutineers' (with their values, as rebels do), who take those of the provinces the nation
held and have incorporated every one of them they hold with troops; the Mutineers already
on the map are that army.

Who commands the Mutineers (NationState.flags[COMMANDER], `commander_of`): the rebels of a
disastrous mutiny, the moderator ("the moderator will control these units"); from a
socialist revolution on, a player: "Such army is controlled by Bolshevik player or another
free player". The Bolshevik player takes it while free, that is while the Bolsheviks have
no war of their own (no unit, no land: before the Russian rising or after losing the civil
war); the commander sends the Mutineers' orders from his own seat with a PROXY FOR
Mutineers line (service/proxy.py). A Bolshevik player busy with the Russian civil war
leaves "another free player", whom only the moderator can pick from the replacement pool:
that stays a referral (flag `revolution-free-player`), the moderator commanding the army
until then. A commander once given keeps the army (later revolutions join it).
"""

from __future__ import annotations

from itertools import compress
from operator import attrgetter

from moderator.engine import chances, conquest, manpower, surrender, technology
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.state import AIR_UNITS, LAND_UNITS, GameState, Unit, kinds

PHASE = "9"
AFFECTED = "mutiny_provinces"  # NationState.flags: provinces affected by mutinies so far
SHARES = {"small": (25,), "large": (50, 50), "disastrous": (75, 100)}  # percent per territory picked
KINDS = LAND_UNITS + AIR_UNITS
REBELS = "mutineers"  # the rebels' nation (nations.toml)
FORCED = "capital_surrender"  # NationState.flags of the Mutineers: {nation: turn its capital's loss forced an offer}
COMMANDER = "commander"  # NationState.flags of the Mutineers: MODERATOR or the nation whose player commands them
BOLSHEVIKS = "bolsheviks"  # the Bolshevik player's nation (Phase 9, The Russian Revolution)
ASKED = "free_player_asked"  # NationState.flags of the Mutineers: the turn the moderator was asked for a free player


def infantry_past_the_limit(ctx: TurnContext) -> list[str]:
    """Nations that bought infantry this turn past their pool's manpower limit (Phase 3.1),
    whether or not the infantry were placed: the home limit, or the colonies' for infantry
    bought in a colony (engine/manpower.py): "no matter if the mutiny started because of
    loss of manpower in colonies or in mainland", one roll either way."""
    bought: dict[tuple[str, bool], int] = {}
    placed: dict[tuple[str, bool], int] = {}
    buyers: dict[tuple[str, bool], set[str]] = {}
    events = ctx.events  # the two codes read picked out by C's loops (compress): hundreds of events a turn
    for e in compress(events, map(_BOUGHT_OR_PLACED.__contains__, map(_CODE, events))):
        if e.args.get("kind") != "infantry":
            continue
        key = (manpower.pool(ctx, e.args["nation"]), manpower.colonial(ctx, e.args["nation"], e.args.get("place")))
        if e.code == "built" and e.phase == "3.1":
            bought[key] = bought.get(key, 0) + e.args["count"]
            buyers.setdefault(key, set()).add(e.args["nation"])
        elif e.code == "placed" and e.phase == "7":
            placed[key] = placed.get(key, 0) + e.args["count"]
    out: set[str] = set()
    for (owner, colonies), count in bought.items():
        ns = ctx.nation(owner)
        before = manpower.built(ns, colonies) - placed.get((owner, colonies), 0)
        if before + count > manpower.limit(ns, colonies):
            out |= buyers[(owner, colonies)]
    return sorted(out)


_CODE = attrgetter("code")
_BOUGHT_OR_PLACED = frozenset(("built", "placed"))  # the events infantry_past_the_limit reads


def share(units: list[Unit], percent: int) -> list[Unit]:
    """`percent` (rounded up) of the units, one of each kind in turn, newest first."""
    wanted = -(-len(units) * percent // 100)
    by_kind = {k: sorted((u for u in units if u.kind == k), key=lambda u: u.id, reverse=True) for k in KINDS}
    out: list[Unit] = []
    while len(out) < wanted:
        for k in KINDS:
            if by_kind[k] and len(out) < wanted:
                out.append(by_kind[k].pop(0))
    return out


def mutiny(ctx: TurnContext, nation: str) -> None:
    severity = chances.mutiny_severity(ctx.dice)
    places: list[str] = []
    for percent in SHARES[severity]:
        options = sorted({u.location for u in ctx.state.units if u.nation == nation and u.kind in KINDS
                          and ctx.place(u.location).is_land} - set(places))
        if not options:
            break
        place = ctx.dice.pick(options, f"mutiny territory (Phase 9): {nation}")
        places.append(place)
        here = [u for u in ctx.units_at(place, nation) if u.kind in KINDS]
        gone = share(here, percent)
        rebels = percent == 100
        if not rebels or not rebel(ctx, nation, place, gone):
            ctx.state.remove_units(gone)
        ctx.emit("mutiny", PHASE, (nation, MODERATOR), nation=nation, severity=severity, place=place,
                 units=kinds(gone), rebelled=rebels)
        if rebels and REBELS not in ctx.state.nations:
            ctx.flag(PHASE, "mutiny-rebels", nation, place=place, went=kinds(gone),
                     default="the rebels left the map (this scenario has no Mutineers); give them to a rebel "
                     "minor at war with the nation (ADD ... OF) or put them back")
    flags = ctx.state.nations[nation].flags
    before = list(flags.get(AFFECTED, []))
    flags[AFFECTED] = [*before, *places]
    if len(before) >= 2 and chances.mutiny_revolution(ctx.dice):
        revolution(ctx, nation, sorted(set(before + places)))


def revolution(ctx: TurnContext, nation: str, provinces: list[str]) -> None:
    """The socialist revolution after repeated mutinies (see the module docstring)."""
    if REBELS not in ctx.state.nations:
        ctx.flag(PHASE, "socialist-revolution", nation, provinces=provinces,
                 default="this scenario has no Mutineers: the mutinied provinces and their units go to a "
                 "revolutionary army the moderator or a free player commands; nothing is moved until the "
                 "moderator rules")
        return
    for place in provinces:
        units = [u for u in ctx.units_at(place, nation) if u.kind in KINDS]
        if units:
            rebel(ctx, nation, place, units)
        if ctx.controller(place) == REBELS and ctx.units_at(place, REBELS):
            ctx.state.incorporated[place] = ctx.turn  # "occupy and incorporate the province(s) they are in"
    reds = ctx.state.nations[REBELS]
    reds.flags.pop("active", None)  # on the board even where no unit was left to defect
    if nation not in reds.at_war_with:
        reds.at_war_with = sorted([*reds.at_war_with, nation])
        home = ctx.state.nations[nation]
        home.at_war_with = sorted({*home.at_war_with, REBELS})
    ctx.emit("socialist-revolution", PHASE, (), nation=nation, provinces=provinces)
    commander = reds.flags.get(COMMANDER)
    if commander in (None, MODERATOR):
        commander = bolshevik_player_free(ctx, nation)
    if commander is None:
        reds.flags[COMMANDER] = MODERATOR
        if reds.flags.get(ASKED) is None:  # asked once: later revolutions join the same army
            reds.flags[ASKED] = ctx.turn
            ctx.flag(PHASE, "revolution-free-player", nation, provinces=provinces,
                     default="the Bolshevik player is fighting the Russian civil war: seat another free player "
                     "from the replacement pool on the Mutineers; the moderator commands them until then")
        return
    reds.flags.pop(ASKED, None)
    reds.flags[COMMANDER] = commander
    ctx.emit("rebels-command", PHASE, (commander, MODERATOR), nation=commander, rebels=REBELS, revolted=nation)


def bolshevik_player_free(ctx: TurnContext, nation: str) -> str | None:
    """The Bolshevik player, if the scenario has one and he has no war of his own: the
    Bolsheviks have no unit and hold no land (and are not the nation in revolution)."""
    if BOLSHEVIKS not in ctx.state.nations or nation == BOLSHEVIKS:
        return None
    if any(u.nation == BOLSHEVIKS for u in ctx.state.units) or BOLSHEVIKS in ctx.state.control.values():
        return None
    return BOLSHEVIKS


def commander_of(state: GameState, nation: str) -> str | None:
    """The nation whose player gives `nation`'s orders besides its own seat (the
    Mutineers' after a socialist revolution), or None."""
    ns = state.nations.get(nation)
    found = ns.flags.get(COMMANDER) if ns is not None else None
    return str(found) if found and found != MODERATOR else None


def rebel(ctx: TurnContext, nation: str, place: str, units: list[Unit]) -> bool:
    """The units rebel: the Mutineers' from now on, at war with `nation`, holding `place`
    if it was the nation's. False where the scenario has no Mutineers."""
    reds = ctx.state.nations.get(REBELS)
    if reds is None:
        return False
    reds.flags.pop("active", None)  # on the board from now on (scenario: active = false)
    reds.flags.setdefault(COMMANDER, MODERATOR)  # "the moderator will control these units"
    home = ctx.state.nations[nation]
    levels = reds.flags.setdefault(technology.BUILT_AT, {})
    alive = {u.id for u in ctx.state.units if u.nation == REBELS}
    origin = {uid: n for uid, n in reds.flags.get(technology.FIGHTS_AS, {}).items() if uid in alive}
    for u in units:
        levels[u.id] = technology.unit_levels(ctx, u)  # they fight as they did: the levels ...
        origin[u.id] = technology.values_of(ctx, u)  # ... and the values of their country's units
        home.flags.get(technology.BUILT_AT, {}).pop(u.id, None)
        u.nation = REBELS
    reds.flags[technology.FIGHTS_AS] = dict(sorted(origin.items()))
    if nation not in reds.at_war_with:
        reds.at_war_with = sorted([*reds.at_war_with, nation])
        home.at_war_with = sorted({*home.at_war_with, REBELS})
    if ctx.controller(place) == nation:
        conquest.take_territory(ctx, place, REBELS, PHASE)
    return True


def capital_taken(ctx: TurnContext) -> None:
    """A nation whose capital the Mutineers hold offers its foes a surrender."""
    reds = ctx.state.nations.get(REBELS)
    if reds is None:
        return
    forced = {str(k): int(v) for k, v in reds.flags.get(FORCED, {}).items()}
    for nation in reds.at_war_with:
        spec = ctx.scenario.nations.get(nation)
        ns = ctx.state.nations.get(nation)
        if spec is None or ns is None or spec.capital is None or ctx.controller(spec.capital) != REBELS:
            forced.pop(nation, None)  # taken again later: a new offer
            continue
        if nation in forced or ns.flags.get(surrender.SURRENDERED) is not None \
                or ns.flags.get(surrender.OFFER) is not None:
            continue
        forced[nation] = ctx.turn
        surrender.offer(ctx, nation, tuple(ns.at_war_with))
        ctx.emit("mutineers-took-capital", PHASE, (), nation=nation, capital=spec.capital)
    if forced:
        reds.flags[FORCED] = dict(sorted(forced.items()))
    else:
        reds.flags.pop(FORCED, None)


def mutinies(ctx: TurnContext) -> None:
    for nation in infantry_past_the_limit(ctx):
        if chances.mutiny(ctx.dice):
            mutiny(ctx, nation)
    capital_taken(ctx)
