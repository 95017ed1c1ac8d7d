"""What each report says, as plain data: the templates turn it into words, and the same
data is the report's JSON (report.json, `moderator report --json`), so the two never
say different things.

Everything here is built from a visibility View (reports/visibility.py) and the public
map; never from the game state itself, so a report can only hold what its audience may
see. The rules behind each part:

* Miscellaneous: "players will receive positions of their units and how many resources
  they have"; "each alliance will receive common status and positions of all members
  units"; "after turn update, all players will receive ... the information about common
  news ... Also, all manpower loses will be shown"; a missed turn is played defensively,
  two in a row and the player is replaced; "the first two days are ... for error
  corrections".
* Phase 6 (the income delay table, engine/phase6_incorporation.territory_yield) and
  Phase 8 (the income rule, engine/phase8_income) for the income of every territory.
* Manpower limits: infantry built count against the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from moderator.engine.context import MODERATOR
from moderator.engine.events import Event
from moderator.engine.phase6_incorporation import COST_FACTOR, territory_yield
from moderator.engine.phase8_income import apply_income_rule
from moderator.engine.state import UNIT_KINDS, GameState, NationState
from moderator.orders.echo import name as order_name
from moderator.orders.vocab import UNIT_ECHO
from moderator.reports.neutrals import NeutralKnown
from moderator.reports.sightings import Sighting
from moderator.reports.visibility import NationStatus, View
from moderator.world.model import World

Names = Callable[[str], str]
SIDE_NAMES = {"central": "Central Powers", "allied": "Allied Powers", "neutral": "Neutrals"}
SCHEDULE_TURNS = 12  # how far ahead an income schedule looks (Phase 6: full income after 10 turns)
# Event arguments only the moderator reads: `rolls` indexes the dice log, which players never get.
MODERATOR_ONLY_ARGS = ("rolls",)
# What reconnaissance (3.3: passive looks, missions) and espionage (3.2.1) learned: a
# report's own section, "intelligence", so it is not lost among the orders' results.
INTELLIGENCE = ("recon-report", "recon-mission", "spied-neutral", "spied-affiliation", "spied-army",
                "spied-industrial", "spied-combat")


@dataclass
class TurnInfo:
    """The game and the calendar around one report: what was resolved and what comes next."""

    game: str
    title: str
    resolved_turn: int
    resolved_date: str
    turn: int
    date: str
    deadline: str
    corrections: str = ""  # end of the error-correction window (Miscellaneous), "" if none
    ordered: tuple[str, ...] | None = None  # nations whose orders arrived (None: not known here)
    missed: dict[str, int] = field(default_factory=dict)  # nation -> turns missed in a row
    # Verifiable dice (engine/dice.py): the resolved turn's seed, revealed now, and the SHA-256
    # committing to the next turn's seed ("" where there is none to tell).
    dice_seed: str = ""
    dice_commitment: str = ""
    # A turn resolved again after a correction (`moderator rollback`): when the reports it
    # replaces were sent ("" for a first resolution).
    correction: str = ""


@dataclass
class Holding:
    """One territory a nation holds and what it yields (Phase 6 table, Phase 8)."""

    territory: str
    value: int
    incorporated: int | None  # turn of (re)incorporation; None: not incorporated
    now: int  # what it yields in this coming turn's Phase 8
    schedule: list[tuple[int, int]]  # (from turn, yield) for each change in the coming turns
    dismantled: list[str] = field(default_factory=list)  # the map's facilities plundered here (Phase 5)


@dataclass
class Sheet:
    """One nation's status: the heart of its own report and of its alliance's."""

    nation: str
    name: str
    side: str
    standing: int | None  # a neutral's diplomatic standing; None for nations at war
    at_war_with: list[str]
    saved: int  # the mainland's treasury
    held_apart: dict[str, int]  # 3.1: the treasuries of separated territories, by the territory keeping each
    income_rule: str
    income_full: int  # the coming Phase 8's full income (before the income rule)
    income: int  # what the coming Phase 8 collects, if nothing changes hands
    holdings: list[Holding]
    manpower_limit: int
    manpower_used: int
    manpower_left: int
    tech: dict[str, int]
    units: dict[str, dict[str, int]]  # location -> kind -> count
    damaged: dict[str, dict[str, int]]
    unit_total: int
    to_deploy: dict[str, int]  # Initial Deployment: units still to place
    waiting_builds: list[dict[str, Any]]  # builds paid for, not placed (Phase 7); the state keeps none between turns
    rail_moves: list[dict[str, Any]]  # rail moves under way (Phase 4.1.3 -> 7); none between turns
    colonial_limit: int | None = None  # the colonies' manpower limit (engine/manpower.py); None: one limit
    colonial_used: int = 0
    colonial_left: int = 0


@dataclass
class OwnUnit:
    """One of the nation's own units as its report.json lists it ("Miscellaneous": players
    receive the positions of their units): the id the state knows it by, which its
    trenches' facings and its ships' gear are kept under, so a player's tool (and a mail
    bot, bots/fog.py) rebuilds its own forces unit by unit, not from counts."""

    id: str
    kind: str
    place: str
    damage: int = 0  # hits taken (battleships and carriers survive one or more)
    facing: str = ""  # a trench's: the land it faces (Trenches), "" if none


@dataclass
class Told:
    """One event as a report tells it: its words, and its typed content for tools."""

    code: str
    phase: str
    text: str
    args: dict[str, Any]


@dataclass
class Stack:
    place: str
    units: dict[str, int]
    enemy_neighbours: list[tuple[str, str]] = field(default_factory=list)  # (territory, holder's name)


@dataclass(kw_only=True)
class ReportHeader:
    """What every report of a turn carries: the game, the turn resolved and the next one
    with its deadline, and the dice (TurnInfo); each kind adds its own content."""

    kind: str  # "nation", "alliance", "bulletin"
    game: str
    title: str
    resolved_turn: int
    resolved_date: str
    turn: int
    date: str
    deadline: str
    dice_seed: str = ""  # the resolved turn's dice seed, revealed (TurnInfo)
    dice_commitment: str = ""  # SHA-256 of the next turn's dice seed
    correction: str = ""  # this report corrects the one sent then ("" if it is the first)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def header(info: TurnInfo, kind: str) -> dict[str, Any]:
    """The ReportHeader fields of a report of `kind` about the turn `info` describes."""
    return {"kind": kind, "game": info.game, "title": info.title, "resolved_turn": info.resolved_turn,
            "resolved_date": info.resolved_date, "turn": info.turn, "date": info.date, "deadline": info.deadline,
            "dice_seed": info.dice_seed, "dice_commitment": info.dice_commitment, "correction": info.correction}


@dataclass(kw_only=True)
class NationReport(ReportHeader):
    nation: str
    name: str
    corrections: str
    orders_arrived: bool | None
    missed_in_a_row: int
    sheet: Sheet
    actions: list[Told]  # the results of its own orders
    battles: list[Told]
    rulings: list[Told]  # the moderator's rulings that concern it
    news: list[Told]  # public news
    stacks: list[Stack]
    order_block: str
    sightings: list[Sighting] = field(default_factory=list)  # what its units see of the enemy (3.3)
    # What it was told that is neither its own doing nor public: what its side's units saw
    # (passive reconnaissance goes to the observing allies, 3.3), its allies' doings it shares.
    shared: list[Told] = field(default_factory=list)
    intelligence: list[Told] = field(default_factory=list)  # what its recon and espionage learned (INTELLIGENCE)
    neutrals: list[NeutralKnown] = field(default_factory=list)  # what it knows of the neutrals (reports/neutrals.py)
    # The public map (the game's map is published after every update): who holds each land
    # territory, by the holder's name, so a player's tool needs nothing but its report.json.
    control: dict[str, str] = field(default_factory=dict)
    units: list[OwnUnit] = field(default_factory=list)  # its own units one by one (OwnUnit)


@dataclass(kw_only=True)
class AllianceReport(ReportHeader):
    side: str
    side_name: str
    members: list[str]
    sheets: list[Sheet]
    battles: list[Told]
    events: list[Told]  # everything else any member saw
    rulings: list[Told]
    sightings: list[Sighting] = field(default_factory=list)  # what all members' units see (3.3)
    intelligence: list[Told] = field(default_factory=list)  # what members' recon and espionage learned


@dataclass(kw_only=True)
class Bulletin(ReportHeader):
    news: list[Told]
    camps: dict[str, list[str]]  # side -> nation names
    losses: dict[str, int]  # nation name -> infantry lost this turn (Miscellaneous: manpower losses are shown)
    manpower_lost: dict[str, int] = field(default_factory=dict)  # nation name -> manpower limit lost this turn
    # Who is at war with whom (nation name -> the names it is at war with), of every nation on
    # the map: public, as each war begins by a public declaration (war-declared), a public
    # join (joined) or the scenario's start, and ends by public news (peace, a surrender).
    wars: dict[str, list[str]] = field(default_factory=dict)


# ---- building blocks ------------------------------------------------------------------------


def tell(e: Event, names: Names, about: str | None = None) -> Told:
    """An event in words; `about`: the name of the nation whose problems it tells to
    others, in the third person (render.event_text)."""
    from moderator.reports.render import event_text

    args = {k: v for k, v in e.args.items() if k not in MODERATOR_ONLY_ARGS}
    return Told(e.code, e.phase, event_text(e, names, about), args)


def holdings(world: World, status: NationStatus, turn: int) -> list[Holding]:
    """Every held territory with its yield now and its Phase 6 schedule, computed by the
    engine's own territory_yield on a position holding only what the status shows."""
    probe = GameState("", "", turn, nations={status.nation: NationState(status.nation)},
                      control={t: status.nation for t in status.territories},
                      incorporated=dict(status.incorporated))
    out = []
    for t in status.territories:
        terr = world.territories.get(t)
        if terr is None or not terr.is_land:
            continue
        yields = [territory_yield(world, probe, t, turn + k) for k in range(SCHEDULE_TURNS)]
        schedule = [(turn + k, y) for k, y in enumerate(yields) if k and y != yields[k - 1]]
        out.append(Holding(t, terr.value, status.incorporated.get(t), yields[0], schedule,
                           list(status.dismantled.get(t, []))))
    return out


def sheet(world: World, status: NationStatus, turn: int, names: Names) -> Sheet:
    held = holdings(world, status, turn)
    full = sum(h.now for h in held)
    home = world.home_of(status.nation)
    conquered = bool(home) and not set(home) & set(status.territories)
    try:
        income = 0 if conquered else apply_income_rule(status.income_rule, full)
    except ValueError:
        income = full
    used = status.infantry_built
    return Sheet(
        nation=status.nation, name=status.name, side=status.side,
        standing=status.standing if status.side == "neutral" else None,
        at_war_with=[names(n) for n in status.at_war_with],
        saved=status.saved, held_apart=dict(status.held_apart), income_rule=status.income_rule, income_full=full, income=income,
        holdings=held, manpower_limit=status.manpower_limit, manpower_used=used,
        manpower_left=max(status.manpower_limit - used, 0), tech=dict(status.tech),
        units=status.units, damaged=status.damaged,
        unit_total=sum(n for k in status.units.values() for kind, n in k.items() if kind in UNIT_KINDS),
        to_deploy=status.to_deploy, waiting_builds=[], rail_moves=[],
        colonial_limit=status.colonial_limit, colonial_used=status.colonial_built,
        colonial_left=max((status.colonial_limit or 0) - status.colonial_built, 0))


def _echo_units(kinds: dict[str, int]) -> str:
    return ", ".join(f"{n} {UNIT_ECHO.get(k, k)}" for k, n in kinds.items())


def stacks(world: World, view: View, status: NationStatus, names: Names) -> list[Stack]:
    """Where the nation's units stand, each land stack with the enemy land next to it
    (who holds what is public: the game's map is published after every update)."""
    foes = set(status.at_war_with)
    out = []
    for place, kinds in status.units.items():
        enemy: list[tuple[str, str]] = []
        terr = world.territories.get(place)
        if terr is not None and terr.is_land:
            for n in sorted(world.neighbours(place)):
                holder = view.control.get(n)
                if holder in foes and world.territories[n].is_land:
                    enemy.append((n, names(holder)))
        out.append(Stack(place, kinds, enemy))
    return out


def order_block(info: TurnInfo, nation_name: str, status: NationStatus, stack_list: Sequence[Stack],
                word: str | None = None) -> str:
    """A ready-to-edit orders mail for the next turn: the header (the nation as orders name
    it, `word`), then the nation's stacks as comment lines (# ...), which the parser skips;
    it parses as it is."""
    lines = [f"GAME {info.game}", f"NATION {order_name(word or nation_name)}", f"TURN {info.turn}",
             "PASSWORD your-seat-password", "",
             f"# Orders of {nation_name} for turn {info.turn} ({info.date}), due {info.deadline}.",
             "# Lines starting with # are comments. Write one order a line below them."]
    if status.to_deploy:
        lines.append(f"# Still to deploy: {_echo_units(status.to_deploy)}, e.g. DEPLOY 2 inf AT <place>")
    if stack_list:
        lines.append("# Your stacks:")
        lines += [f"#   {s.place}: {_echo_units(s.units)}" for s in stack_list]
    front = [s for s in stack_list if s.enemy_neighbours]
    if front:
        lines.append("# Your stacks next to enemy land:")
        for s in front:
            borders = ", ".join(f"{t} ({who})" for t, who in s.enemy_neighbours)
            lines.append(f"#   {s.place} ({_echo_units(s.units)}) borders {borders}")
        s = max(front, key=lambda s: (s.units.get("infantry", 0), s.place))
        if s.units.get("infantry"):
            lines.append(f"# e.g. ATTACK {s.units['infantry']} inf FROM {order_name(s.place)} "
                         f"TO {order_name(s.enemy_neighbours[0][0])}")
    lines.append("")
    return "\n".join(lines)


def seen(view: View, names: Names) -> list[Sighting]:
    """The view's sightings with their holders named as players read them."""
    return [replace(s, holder=names(s.holder) if s.holder else "", by=list(s.by),
                    units=None if s.units is None else dict(s.units))
            for s in view.sightings]


# The fights a report lists under its battles: on land (4.6), at sea (4.3) and in the air (4.1.1;
# 4.5 on the way to a land battle), each land or naval battle followed by its forces as the
# reader saw them (engine/battle_forces.py, engine/naval_forces.py; the templates indent them).
BATTLES = ("battle", "battle-forces", "naval-battle", "naval-forces", "air-raid", "attack-intercepted",
           "flight-intercepted")


def _concerns(e: Event, nation: str) -> bool:
    a = e.args
    return nation in (a.get("nation"), a.get("giver"), a.get("receiver")) or nation in a.get("nations", ())


# ---- the reports --------------------------------------------------------------------------


def nation_report(world: World, view: View, info: TurnInfo, names: Names, words: Names | None = None) -> NationReport:
    status = view.statuses[0]
    nation = view.audience
    battles: list[Told] = []
    rulings: list[Told] = []
    actions: list[Told] = []
    news: list[Told] = []
    shared: list[Told] = []
    intelligence: list[Told] = []
    for e in view.events:
        if e.code in BATTLES:
            battles.append(tell(e, names))
        elif e.code in INTELLIGENCE:
            intelligence.append(tell(e, names))
        elif e.code == "ruling":
            rulings.append(tell(e, names))
        elif e.seen_by and _concerns(e, nation):
            actions.append(tell(e, names))
        elif e.seen_by:  # told to a group it belongs to, not to every player
            shared.append(tell(e, names))
        else:
            news.append(tell(e, names))
    stack_list = stacks(world, view, status, names)
    return NationReport(
        **header(info, "nation"), nation=nation, name=status.name, corrections=info.corrections,
        orders_arrived=None if info.ordered is None else nation in info.ordered,
        missed_in_a_row=info.missed.get(nation, 0),
        sheet=sheet(world, status, view.turn, names), actions=actions, battles=battles, rulings=rulings,
        news=news, shared=shared, stacks=stack_list,
        order_block=order_block(info, status.name, status, stack_list, words(nation) if words else None),
        sightings=seen(view, names), intelligence=intelligence, control=public_map(view, names),
        units=[OwnUnit(*piece) for piece in status.pieces])


def public_map(view: View, names: Names) -> dict[str, str]:
    """Who holds each land territory (the view's public control map), holders named."""
    return {t: names(n) for t, n in sorted(view.control.items())}


def alliance_report(world: World, view: View, info: TurnInfo, names: Names, side: str) -> AllianceReport:
    battles: list[Told] = []
    rulings: list[Told] = []
    events: list[Told] = []
    intelligence: list[Told] = []
    for e in view.events:
        target = (battles if e.code in BATTLES else rulings if e.code == "ruling"
                  else intelligence if e.code in INTELLIGENCE else events)
        who = e.args.get("nation")
        if e.seen_by and isinstance(who, str):
            # several members' orders: say whose, and tell the reasons written to the member
            # ("you do not control ...") about it, in the third person
            told = tell(e, names, about=names(who))
            if names(who) not in tell(e, names).text:  # the member's own words do not name it
                told.text = f"{names(who)}: {told.text}"
        else:
            told = tell(e, names)
        target.append(told)
    return AllianceReport(
        **header(info, "alliance"), side=side, side_name=SIDE_NAMES[side], members=[names(n) for n in view.members],
        sheets=[sheet(world, st, view.turn, names) for st in view.statuses],
        battles=battles, events=events, rulings=rulings, sightings=seen(view, names), intelligence=intelligence)


# Events whose `losses` (nation -> kind -> count) can hold infantry: land and naval battles
# (troops aboard sunk transports), rocket fire at units.
INFANTRY_LOSSES = ("battle", "naval-battle", "rocket-fire")


def manpower_losses(events: Sequence[Event], names: Names) -> tuple[dict[str, int], dict[str, int]]:
    """Every nation's manpower losses of the turn (Miscellaneous: "all manpower loses will be
    shown, so one can keep track of own success"), by nation name, never where: infantry lost
    (INFANTRY_LOSSES), and the manpower limit lost to bombers and rockets at its cities
    (4.1.1, Rockets) and to starvation (Phase 9). Mutinies are not losses to the enemy and
    stay the nation's own news."""
    infantry: dict[str, int] = {}
    limit: dict[str, int] = {}
    for e in events:
        if e.code in INFANTRY_LOSSES:
            for nation, lost in (e.args.get("losses") or {}).items():
                if lost.get("infantry"):
                    infantry[names(nation)] = infantry.get(names(nation), 0) + lost["infantry"]
        hit = None
        if e.code == "air-raid" and e.args.get("aim") == "city":
            hit = (e.args.get("holder"), e.args.get("damage", 0))
        elif e.code == "rocket-fire":
            hit = (e.args.get("holder"), e.args.get("manpower", 0))
        elif e.code == "starvation":
            hit = (e.args.get("nation"), e.args.get("lost", 0))
        if hit and hit[0] and hit[1]:
            limit[names(hit[0])] = limit.get(names(hit[0]), 0) + hit[1]
    return dict(sorted(infantry.items())), dict(sorted(limit.items()))


def bulletin(view: View, events: Sequence[Event], info: TurnInfo, names: Names) -> Bulletin:
    """The common news (public events) and every nation's manpower losses (manpower_losses)."""
    losses, manpower_lost = manpower_losses(events, names)
    camps: dict[str, list[str]] = {}
    for nation, side in view.sides.items():
        if nation != MODERATOR:
            camps.setdefault(SIDE_NAMES.get(side, side), []).append(names(nation))
    return Bulletin(
        **header(info, "bulletin"),
        news=[tell(e, names) for e in view.events], camps={k: sorted(v) for k, v in sorted(camps.items())},
        losses=losses, manpower_lost=manpower_lost,
        wars={names(n): sorted(names(f) for f in foes) for n, foes in sorted(view.wars.items())})


def incorporation_cost(world: World, territory: str) -> int:
    """What INCORPORATE costs (Phase 6: twice the value)."""
    return COST_FACTOR * world.territories[territory].value
