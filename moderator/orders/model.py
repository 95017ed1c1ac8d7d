"""Typed orders: what the parser produces and the validator and engine consume.

Plain dataclasses with no parser imports, so the pure engine can use them. Every order
keeps where it came from (line, column, the text) for diagnostics and the receipt.
Each class names the rules section ("Phase 4.4", "1.2: Diplomatic Influence") it serves;
`Order.phase` says in which of the nine phases the engine applies it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Span:
    line: int
    column: int
    text: str


NO_SPAN = Span(0, 0, "")

# Fields with this metadata name something of the game (a place, a nation, a strait):
# typed as the player wrote it, made canonical against the map and the scenario before
# any rule reads it (moderator.engine.names.canonical).
PLACE = {"ref": "place"}
NATION = {"ref": "nation"}
NATIONS = {"ref": "nations"}
PASSAGE = {"ref": "passage"}


@dataclass(frozen=True)
class Order:
    """Base of every order. `span` says where in the mail it was written."""

    span: Span = field(default=NO_SPAN, kw_only=True, compare=False)

    phase = 0  # class attribute: the Sequence of Play phase the order belongs to


@dataclass(frozen=True)
class UnitCount:
    kind: str  # a unit kind id from moderator.engine.state.UNIT_KINDS
    count: int


Units = tuple[UnitCount, ...]


# ---- Before the first turn ------------------------------------------------------------


@dataclass(frozen=True)
class Deploy(Order):
    """Initial Deployment: place some of the nation's free half of its starting units
    (NationState.flags["to_deploy"]) before the first turn. Only on turn 0 (a game made
    with a deployment turn); land and air units on own original land, ships in sea zones
    next to it."""

    units: Units
    place: str = field(metadata=PLACE)
    phase = 0  # before the Sequence of Play


# ---- Phase 1: Diplomatic actions ----------------------------------------------------


@dataclass(frozen=True)
class DeclareWar(Order):
    """Phase 1.1: declare war on a nation (nation id)."""

    target: str = field(metadata=NATION)
    phase = 1


@dataclass(frozen=True)
class Influence(Order):
    """Phase 1.2: one diplomatic influence attempt on `target` (10 resources).

    `toward` is the side ("allied"/"central") for attempts that must name one: a neutral
    influencing itself (Ottoman Empire, Italy, Spain, China) or the US influencing a minor
    (US option #5). None means "toward my own side"."""

    target: str = field(metadata=NATION)
    toward: str | None = None
    phase = 1


@dataclass(frozen=True)
class OfferSurrender(Order):
    """Phase 1.3 / Surrender: offer to surrender to the named nations (empty: to the
    whole opposing side)."""

    to: tuple[str, ...] = field(default=(), metadata=NATIONS)
    phase = 1


@dataclass(frozen=True)
class SurrenderVote(Order):
    """Surrender: accept or refuse another nation's surrender offer (no answer: not accepted)."""

    nation: str = field(metadata=NATION)
    accept: bool
    phase = 1


@dataclass(frozen=True)
class ClosePassage(Order):
    """Phase 1.4 / Straits: close (or reopen) a strait or canal the nation holds to the
    named nations (empty tuple: to every nation)."""

    passage: str = field(metadata=PASSAGE)  # canonical Passage.name
    nations: tuple[str, ...] = field(default=(), metadata=NATIONS)
    close: bool = True
    phase = 1


@dataclass(frozen=True)
class SubWarfare(Order):
    """Phase 1.4: declare unrestricted submarine warfare against a side or nation, or
    retract it (`retract`, 25 resources and never again)."""

    target: str | None  # side or nation id; None when retracting
    retract: bool = False
    phase = 1


@dataclass(frozen=True)
class Blockade(Order):
    """Phase 1.4 / 4.2.6: declare a naval blockade against a nation, optionally of its US
    trade (Variable US Trade). Chosen turn by turn."""

    target: str = field(metadata=NATION)
    us_trade: bool = False
    phase = 1


@dataclass(frozen=True)
class SpecialOption(Order):
    """Phase 1.5: a nation's numbered special option (British 1-3, French 1-5, ...).

    The optional arguments cover every option: a target nation (US #2, #5), an amount
    (US #3, French #2, Russian #1), a side (US #4/#5), `full` (Japan #4: full war), a
    place (German #3: where the Irish rebels are placed, `amount` of their infantry with
    the artillery, the rest in the other Irish territory)."""

    number: int
    target: str | None = field(default=None, metadata=NATION)
    amount: int | None = None
    toward: str | None = None
    full: bool = False
    place: str | None = field(default=None, metadata=PLACE)
    phase = 1


@dataclass(frozen=True)
class GearUp(Order):
    """Neutrals: raise war production (Japan 25, US option #1 40, China 15, Spain 40)."""

    phase = 1


@dataclass(frozen=True)
class CoaxItaly(Order):
    """Italy: any nation may spend 20 for a 1 in 10 chance to switch Italy's leaning."""

    phase = 1


@dataclass(frozen=True)
class JoinSide(Order):
    """Neutrals: a neutral at 10 points declares itself a member of that side."""

    side: str  # "allied" | "central"
    phase = 1


@dataclass(frozen=True)
class Peace(Order):
    """Local/Limited War: propose a cease of hostilities to a nation (moderator review)."""

    nation: str = field(metadata=NATION)
    phase = 1


@dataclass(frozen=True)
class Gift(Order):
    """Phase 8 note: gift resources to an ally (50% arrives unless an exception applies);
    US option #3 lends through this order too."""

    amount: int
    to: str = field(metadata=NATION)
    phase = 1


@dataclass(frozen=True)
class Exile(Order):
    """Conquest: declare a government in exile with an allied host nation."""

    host: str = field(metadata=NATION)
    phase = 1


# ---- Phase 2: Technology ------------------------------------------------------------


@dataclass(frozen=True)
class Research(Order):
    """Phase 2.1: one research attempt (10 resources) on a technology id."""

    tech: str
    phase = 2


@dataclass(frozen=True)
class Upgrade(Order):
    """Phase 2.2: pay to upgrade every existing unit of a kind to the new technology."""

    kind: str
    phase = 2


# ---- Phase 3: Building, espionage, reconnaissance, repairs -----------------------------


@dataclass(frozen=True)
class Build(Order):
    """Phase 3.1 purchase, placed in Phase 7 at `place`."""

    kind: str
    count: int
    place: str = field(metadata=PLACE)
    phase = 3


@dataclass(frozen=True)
class BuildTrench(Order):
    """Trenches: a trench protecting `protect` facing `facing` (5), or a super trench
    upgrading an existing trench (20, needs the Super Trenches technology)."""

    protect: str = field(metadata=PLACE)
    facing: str = field(metadata=PLACE)
    super: bool = False
    phase = 3


@dataclass(frozen=True)
class BuildHomeTrenches(Order):
    """Trenches: a home city with 5+ infantry trenches against ALL neighbours for 10."""

    city: str = field(metadata=PLACE)
    phase = 3


@dataclass(frozen=True)
class BuildShipGear(Order):
    """Radar (18) / sonar (13) mounted on a ship in a sea zone next to an own port, or
    radar in a land territory (Phase 7, item 7); an improved AA gun on a ship (Improved
    Anti-Aircraft Guns: "may also be put on ships")."""

    kind: str  # "radar" | "sonar" | "aa"
    place: str = field(metadata=PLACE)
    ship: str | None = None  # ship kind it is mounted on, None for a land radar
    phase = 3


@dataclass(frozen=True)
class Espionage(Order):
    """3.2.1 espionage: kind is one of "neutral" (minor's status, 4), "affiliation"
    (major neutral's leaning, 5), "army" (units built, 5), "industrial" (a technology, 3),
    "combat" (combat intelligence in a province, 1)."""

    kind: str
    target: str | None = field(default=None, metadata=NATION)  # nation id
    place: str | None = field(default=None, metadata=PLACE)  # territory for "combat"
    tech: str | None = None  # technology for "industrial"
    phase = 3


@dataclass(frozen=True)
class CounterEspionage(Order):
    """3.2.2 counter-espionage: "affiliation" (major neutrals only), "army", "industrial"
    (per technology), "recon" (per province), each 1 resource."""

    kind: str
    against: str | None = field(default=None, metadata=NATION)
    place: str | None = field(default=None, metadata=PLACE)
    tech: str | None = None
    phase = 3


@dataclass(frozen=True)
class Recon(Order):
    """3.3 active reconnaissance mission: units from `origin` look into `target`; they
    cannot fight this turn."""

    units: Units
    origin: str = field(metadata=PLACE)
    target: str = field(metadata=PLACE)
    phase = 3


@dataclass(frozen=True)
class Repair(Order):
    """3.4: repair damaged ships in a sea zone with a friendly port (BB 20, CV 25)."""

    kind: str
    count: int
    place: str = field(metadata=PLACE)
    phase = 3


# ---- Phase 4: Combat and movement -----------------------------------------------------


@dataclass(frozen=True)
class Bombing(Order):
    """4.1.1: industrial bombing of an industrial complex (aim "industry": saved
    resources) or a city (aim "city": manpower), or tactical bombing (aim "tactical")."""

    aim: str
    units: Units
    origin: str = field(metadata=PLACE)
    target: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class Rebase(Order):
    """4.1.2: rebase aircraft (double range, no combat), arriving in Phase 7."""

    units: Units
    origin: str = field(metadata=PLACE)
    dest: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class StrategicMove(Order):
    """Phase 4.1.3: rail move along own/friendly incorporated land, any distance,
    limited by each territory's value; arrives in Phase 7."""

    units: Units
    origin: str = field(metadata=PLACE)
    dest: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class TaskForce(Order):
    """4.2: form a task force `name` from ships in sea zone `location`."""

    name: str
    location: str = field(metadata=PLACE)
    units: Units
    phase = 4


@dataclass(frozen=True)
class TaskForceMission(Order):
    """4.2.1-4.2.9: one step of a task force, in the order written: a mission for one
    movement point ("transport", "escort", "bombard", "carrier", "patrol", "blockade",
    "move", "dock", "detect"), moving to `dest` (None: stays), or "load" of units
    from an adjacent territory (4.2.1). Phase 4 guideline 6's first example: "split"
    `units` (its ships) off as the new task force `part`, where it is at that point
    (`at`, if written, says where that is), or "join" the task force `part` there."""

    name: str
    mission: str
    dest: str | None = field(default=None, metadata=PLACE)
    escort_of: str | None = None  # escort: the task force protected
    target: str | None = field(default=None, metadata=PLACE)  # bombard: the territory supported
    units: Units = ()  # load: the land/air units taken aboard
    origin: str | None = field(default=None, metadata=PLACE)  # load: the territory they embark from
    part: str | None = None  # split: the new task force; join: the task force joined
    at: str | None = field(default=None, metadata=PLACE)  # split: the sea zone it is written for
    phase = 4


@dataclass(frozen=True)
class SubDetection(Order):
    """4.2.9: ships in a sea zone (origin None) or aircraft flown from `origin` hunt
    enemy submarines in `zone`."""

    zone: str = field(metadata=PLACE)
    units: Units
    origin: str | None = field(default=None, metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class SubInterception(Order):
    """4.2.10: submarines in `zone` attack enemy task forces doing `target` (a mission
    name, or "any"), or the one task force `tf` of `tf_nation` ("AGAINST TF B OF Britain")."""

    count: int
    zone: str = field(metadata=PLACE)
    target: str = "any"
    tf: str | None = None
    tf_nation: str | None = field(default=None, metadata=NATION)
    phase = 4


@dataclass(frozen=True)
class Move(Order):
    """Phase 4.4: move land/air units from one territory to an adjacent one (attack if enemy)."""

    units: Units
    origin: str = field(metadata=PLACE)
    dest: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class Attack(Move):
    """Phase 4.4/4.6: a move the player means as an attack (same effect as Move)."""


@dataclass(frozen=True)
class NavalInvasion(Order):
    """4.4 / 4.6.1: units carried by transports in sea zone `origin` land in `dest`
    (a naval invasion when `dest` is enemy-owned; beach landings cannot retreat)."""

    units: Units
    origin: str = field(metadata=PLACE)
    dest: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class ArtillerySupport(Order):
    """Artillery: artillery in `origin` protects/supports the adjacent province `dest`."""

    count: int
    origin: str = field(metadata=PLACE)
    dest: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class Breakthrough(Order):
    """Tanks, 4th advance: `count` tanks that capture `origin` this turn go on into the
    adjacent `dest` ("Breakthrough means the tank can go on to move into or attack a second
    territory after successfully capturing the first")."""

    count: int
    origin: str = field(metadata=PLACE)
    dest: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class DefendWith(Order):
    """Ports / Industrial complexes (and AA note): let a structure take part in the
    defence of its territory (by default they do not)."""

    kind: str  # "industry" | "port" | "aa"
    place: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class RocketFire(Order):
    """Rockets: fire at a city (aim "city": manpower), an industrial complex
    ("industry": saved resources) or the units in a territory ("units")."""

    count: int
    origin: str = field(metadata=PLACE)
    target: str = field(metadata=PLACE)
    aim: str = "units"
    phase = 4


@dataclass(frozen=True)
class CombatCondition(Order):
    """Conditional orders / 3.3: a condition on the attack on `dest`.

    kind "rounds": withdraw after `value` rounds; "losses": withdraw when own losses
    exceed `value`; "kills": withdraw when `value` enemy units are destroyed and
    defenders remain; "max-defenders": attack only if reconnaissance shows at most
    `value` defenders. At sea only: "contact-lost": when a naval battle in `dest` ends
    with contact lost, the nation's task forces in it cancel their missions and go back
    where they came from (4.2); "radar": when a radar ship of the nation sights aircraft
    coming to strike its ships, they retreat to a neighbouring sea zone (Radar).
    `to`: where defenders that disengage from `dest` go (4.6), or ships that retreat."""

    dest: str = field(metadata=PLACE)
    kind: str
    value: int
    to: str | None = field(default=None, metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class LetPass(Order):
    """4.5: the nation's fighters at `place` let attacking aircraft go ("the enemy
    fighters have the option of intercepting or letting them go")."""

    place: str = field(metadata=PLACE)
    phase = 4


@dataclass(frozen=True)
class AirRetreat(Order):
    """4.5 step 3: the nation's aircraft attacking or bombing `place` retreat from the air
    combat there when the condition is met ("The attacking player may now decide to
    retreat"): kind "rounds" after `value` rounds, "losses" when own aircraft lost exceed
    `value`, "kills" once `value` interceptors are down."""

    place: str = field(metadata=PLACE)
    kind: str
    value: int
    phase = 4


@dataclass(frozen=True)
class CasualtyOrder(Order):
    """Conditional orders: the order in which own units are taken as losses, in one
    territory or (place None) everywhere."""

    kinds: tuple[str, ...]
    place: str | None = field(default=None, metadata=PLACE)
    phase = 4


# ---- Phases 5-8 --------------------------------------------------------------------------


@dataclass(frozen=True)
class Plunder(Order):
    """Phase 5: dismantle an industrial complex (+25) or port (+15) in an incorporated
    conquered territory held at least one full turn."""

    kind: str  # "industry" | "port"
    place: str = field(metadata=PLACE)
    phase = 5


@dataclass(frozen=True)
class Incorporate(Order):
    """Phase 6: incorporate a conquered territory (2x its value; own lands free)."""

    territory: str = field(metadata=PLACE)
    phase = 6


@dataclass(frozen=True)
class Transfer(Order):
    """Phase 8: move saved resources between separated territories."""

    amount: int
    origin: str = field(metadata=PLACE)
    dest: str = field(metadata=PLACE)
    phase = 8


@dataclass(frozen=True)
class Note(Order):
    """A free-text note to the moderator: always kept and sent to review."""

    text: str
    phase = 0


@dataclass
class OrderSet:
    """One nation's orders for one turn, as submitted."""

    game: str
    nation: str
    turn: int
    orders: list[Order] = field(default_factory=list)
