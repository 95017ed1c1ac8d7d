"""Scenario data types: nations, unit statistics, starting forces, calendar.

Loaded from scenarios/<name>/ by moderator.world.scenario.load_scenario. Plain frozen
data so the pure engine and the order checker can read it freely.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SIDES = ("central", "allied", "neutral")
NATION_KINDS = ("major", "minor", "dominion")

MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)


@dataclass(frozen=True)
class UnitStats:
    """One unit type as one nation builds it (Units; Phase 3.1 cost table)."""

    kind: str  # unit kind id (moderator.engine.state.UNIT_KINDS or a structure id)
    cost: int
    attack: int = 0
    defense: int = 0
    move: int = 0
    hits: int = 1  # hits needed to destroy (battleships, carriers: 2)
    fuel: int = 0  # aircraft fuel points
    capacity: int = 0  # transport troop points / carrier fighters
    bombard: int = 0  # battleship shore-bombardment value
    attacks: int = 1  # rolls a round when it attacks (Improved Battleships 3: "2 attacks per combat round")
    requires_tech: str | None = None  # technology needed before it can be built


@dataclass(frozen=True)
class TerrainRule:
    """What a map feature does to units (scenarios/<name>/terrain.toml)."""

    feature: str
    rule: str = ""  # the rules section, e.g. "Switzerland"
    only: tuple[str, ...] = ()  # the only unit kinds that may enter
    barred: tuple[str, ...] = ()  # unit kinds that may not enter
    aircraft_min_fuel: int = 0  # aircraft with less fuel may not enter
    infantry_defense: int = 0  # defending infantry's value there (0: unchanged)
    no_landing: bool = False  # no aircraft may land (or be placed, or deployed) there
    defending_infantry_dice: int = 1  # dice each defending infantry rolls


@dataclass(frozen=True)
class UnrestrictedTarget:
    """One row of the Phase 1.4 table (scenarios/<name>/unrestricted_submarine_warfare.toml):
    where submarines must be for unrestricted submarine warfare against `nation`, and the
    income of the targeted territories, the most such warfare can cost it in a turn."""

    nation: str
    zones: tuple[str, ...]
    territories: tuple[str, ...]
    value: int


@dataclass(frozen=True)
class GiftRules:
    """Phase 8 note: who gives to whom at full value instead of half."""

    full_value_groups: tuple[frozenset[str], ...] = ()  # e.g. the British Empire, Canada and Australia
    neutral_lenders: frozenset[str] = frozenset()  # neutrals that lend in full to the main war (the USA)
    lender_minimum: int = 5  # US option #3: "at least 5"


@dataclass(frozen=True)
class Condition:
    """One condition a special option's rule puts on its use that the position settles
    (scenarios/<name>/diplomacy.toml explains each key). Exactly one kind is set."""

    of: str = ""  # with side: this nation ("" = the option's own) is on `side`
    side: str = ""  # "central" | "allied" | "neutral" | "war" (= not neutral)
    holds: str = ""  # the nation controls this place
    unit: str = ""  # the nation has a unit of this kind at `at` ("" = anywhere)
    at: str = ""
    held_by: str = ""  # with at: the place is held by a nation on this side
    war: str = ""  # the nation is at war with this nation
    peace: str = ""  # the nation is not at war with this nation
    geared: str = ""  # "earlier": geared up on an earlier turn; "done": geared up
    revolution: bool = False  # the moderator rolls for the Russian Revolution
    used: int = 0  # the nation used this option of its own on an earlier turn
    unsettled: bool = False  # the option's roll has not yet succeeded or backfired (German #3)


@dataclass(frozen=True)
class OptionRule:
    """One numbered special option (Phase 1.5 and the nations' sections)."""

    nation: str
    number: int
    title: str
    rule: str = ""  # the rules section cited
    side: str = ""  # the table it belongs to by the nation's side ("" = any)
    cost: int = 0
    receiver: str = ""  # who gets `received` (and the amount, when spent) at once; "target"
    received: int = 0
    needs: tuple[str, ...] = ()  # "target", "amount", "toward"
    amount_spent: bool = False  # the order's amount is paid too
    amount_min: int = 0
    once: str = ""  # "turn" | "game" | ""
    kind: str = ""  # "gear-up" | "self-influence" | "influence": the same rule as that order
    target_side: str = ""  # "neutral" | "war"
    target_kind: str = ""  # "minor" | "major"
    requires: tuple[Condition, ...] = ()
    full_cost: int = 0  # the FULL WAR form (Japan #4): its extra cost ...
    full_requires: tuple[Condition, ...] = ()  # ... and conditions
    opens_influence: str = ""  # the nation may influence this nation from the next turn on
    review: str = ""  # what only the moderator can judge (kept, flagged)
    effect: str = ""  # how the engine resolves it (engine/option_effects.py EFFECTS); "" = referred
    gives: str = ""  # the territory it gives to `receiver`, at once and incorporated
    places: tuple[str, ...] = ()  # where the order's AT may place what the option brings (German #3)


@dataclass(frozen=True)
class SelfInfluence:
    """INFLUENCE SELF: a major neutral influencing itself toward a side."""

    cost: int
    toward: str = ""  # the only side allowed ("" = either)
    geared: bool = False  # only after the nation's gear-up, on an earlier turn
    points: int = 0  # 0-points toward the side
    succeeds_on: int = 0  # the least D10 face that succeeds; 0: no roll
    split_on_two_zeros: bool = False  # China: two 0s in a row split the nation (engine/china_split.py)


@dataclass(frozen=True)
class PointsDrift:
    """Points a major neutral takes every turn while neutral (the Ottomans 0-7 CP, Italy 0-3)."""

    points: int
    toward: str  # "allied", "central" or "leaning" (the nation's leaning)


@dataclass(frozen=True)
class Reaction:
    """One row of the neutrals' response table to the main war (Neutrals: "events regarding
    main war that can affect neutrals"): the most points each neutral may take, signed
    (+ toward the Allied Powers, - toward the Central Powers), by column: a major neutral's
    id, "neighbouring" or "distant" (the minor neutrals)."""

    event: str  # "declares-war" (a side on a neutral) or "joins" (a nation joins a side)
    side: str  # the side that declares, or that the nation joins
    points: dict[str, int]
    nation: str = ""  # joins: the nation that joins, or "minor" for any minor neutral
    until_turn: dict[str, int] = field(default_factory=dict)  # column -> last turn it applies
    title: str = ""  # the row as the rules name it, for the dice log and the reports


@dataclass(frozen=True)
class Aggression:
    """One row of the neutrals' response table to a neutral's own war (Neutrals: "Next
    table presents diplomatic response for neutrals if some neutrals takes aggresive
    actions"): the most points each neutral takes against the aggressor, by column (as in
    Reaction), delayed until the aggressor joins the main war; the aggressor itself moves
    toward zero at once."""

    nation: str  # the aggressor
    target: str  # "major" (a major power) or "minor" (a minor neutral)
    points: dict[str, int]
    toward_zero: int = 0  # the aggressor's own points, 0-n toward zero
    title: str = ""


@dataclass(frozen=True)
class Closing:
    """One of rows 1-4 of the neutrals' third points table ("events that affect neutrals
    when some nations deliberately forbid pass through major straits"): the most points
    each neutral takes against the closer's side, by column (as in Reaction), each turn
    the passage stays closed."""

    passage: str  # the passage's name (maps/<map>/passages.csv)
    points: dict[str, int]
    title: str = ""


@dataclass(frozen=True)
class GearUpRule:
    """GEAR UP: a major neutral raises its war economy."""

    cost: int
    income_rule: str = ""  # what it collects afterwards (Phase 8)
    initial: int = 0  # the first amount, where the rules state it
    note: str = ""


@dataclass(frozen=True)
class InfluenceRules:
    """Phase 1.2: who may influence whom, and for how much."""

    cost: int = 10
    majors: frozenset[str] = frozenset()  # major neutrals open to influence
    case_majors: frozenset[str] = frozenset()  # ... as a minor once their case happened (considered neutral)
    never: frozenset[tuple[str, str]] = frozenset()  # (nation, target) pairs never allowed
    neutral_influencers: dict[str, int] = field(default_factory=dict)  # neutral nation -> its cost
    garrison: tuple[tuple[str, str, int], ...] = ()  # (nation, target, option that lifts the ban)
    points: int = 8  # 0-points for a successful attempt
    target_points: dict[str, int] = field(default_factory=dict)  # ... on these targets instead
    geared_points: dict[str, int] = field(default_factory=dict)  # ... on these once geared up


@dataclass(frozen=True)
class TradeRoute:
    """Variable US Trade: one route of the US trade to `to` (diplomacy.toml [[us_trade.route]])."""

    to: str
    zones: tuple[str, ...] = ()  # an enemy warship or submarine in one of them cuts the route
    held: tuple[str, ...] = ()  # the route exists only while `to` controls one of these
    incorporated: bool = False  # ... controls and has incorporated
    subs_cut: str = ""  # this nation's unrestricted submarine warfare cuts the route


@dataclass(frozen=True)
class Diplomacy:
    """The Phase 1 rules as data (scenarios/<name>/diplomacy.toml)."""

    influence: InfluenceRules = field(default_factory=InfluenceRules)
    self_influence: dict[str, SelfInfluence] = field(default_factory=dict)
    drift: dict[str, PointsDrift] = field(default_factory=dict)  # every turn's points
    reactions: tuple[Reaction, ...] = ()  # the neutrals' response table to the main war
    aggressions: tuple[Aggression, ...] = ()  # ... and to a neutral's own wars
    closings: tuple[Closing, ...] = ()  # ... and to a strait or canal closed
    coax_nation: str = ""  # Italy
    coax_cost: int = 0
    coax_paid_to: str = ""
    blockade_ships: tuple[str, ...] = ()
    us_trader: str = ""  # the neutral whose trade can be blockaded (the USA)
    us_trade_ships: tuple[str, ...] = ()
    us_trade: dict[str, tuple[str, ...]] = field(default_factory=dict)  # receiver -> its zones
    us_trade_routes: tuple[TradeRoute, ...] = ()
    us_trade_not_while_neutral: frozenset[str] = frozenset()  # receivers paid only once in the main war
    us_trade_not_while_entry_negative: frozenset[str] = frozenset()  # ... only while the US Entry is >= 0
    retract_subs_cost: int = 0
    no_war_on_neutrals: frozenset[str] = frozenset()
    no_join_in_local_war: frozenset[str] = frozenset()
    ends_on_capture: frozenset[str] = frozenset()  # neutrals whose limited wars one capture ends (China)
    join_without_points: frozenset[str] = frozenset()  # JOIN needs no 10 points (Japan, the British Empire)
    war_by_option: dict[str, tuple[int, ...]] = field(default_factory=dict)  # a neutral's wars: these options only
    not_alone: dict[str, str] = field(default_factory=dict)  # no war on a minor neutral without this nation
    limited_war_gear_up: dict[str, frozenset[str]] = field(default_factory=dict)  # these wars after a gear-up
    # while neutral, war only on its limited_war_gear_up nations and on minor neutrals it borders (China)
    only_listed_wars: frozenset[str] = frozenset()
    gear_up: dict[str, GearUpRule] = field(default_factory=dict)
    options: tuple[OptionRule, ...] = ()

    def options_for(self, nation: str, side: str) -> dict[int, OptionRule]:
        """The nation's option table for the side it is on now."""
        return {o.number: o for o in self.options if o.nation == nation and o.side in ("", side)}

    def has_options(self, nation: str) -> bool:
        return any(o.nation == nation for o in self.options)


# The unit values a technology level may change besides its cost (the Advancements table).
TECH_VALUES = ("attack", "defense", "move", "fuel", "capacity", "hits", "bombard", "attacks")


@dataclass(frozen=True)
class Technology:
    """One technology of Phase 2.1 and its rows of the Advancements table
    (scenarios/<name>/technologies.toml)."""

    id: str  # the id players order it by (moderator/orders/vocab.py TECHNOLOGIES)
    advances: int  # "# of possible advances"
    full_price: tuple[int, ...] = ()  # levels always researched at the full price (Phase 2.1)
    cost: dict[str, tuple[int, ...]] = field(default_factory=dict)  # unit kind -> cost change at levels 1..advances
    # The table's other columns: value (attack, defense, move, fuel, capacity, hits,
    # bombard, attacks) -> unit kind -> change at levels 1..advances (engine/technology.py).
    changes: dict[str, dict[str, tuple[int, ...]]] = field(default_factory=dict)
    discount: tuple[int, ...] = ()  # Improved Industrial Technology: percent off new units' cost per level
    discount_exempt: tuple[str, ...] = ()  # unit kinds the discount leaves alone (infantry, trenches)

    def cost_change(self, kind: str, level: int) -> int:
        """What levels 1..`level` add to the cost of a `kind` unit (the table's Cost column)."""
        return sum(self.cost.get(kind, ())[: max(level, 0)])

    def change(self, value: str, kind: str, level: int) -> int:
        """What levels 1..`level` add to one of a `kind` unit's values (attack, defense, ...)."""
        if value == "cost":
            return self.cost_change(kind, level)
        return sum(self.changes.get(value, {}).get(kind, ())[: max(level, 0)])

    def applies_to(self, kind: str) -> bool:
        """Does any level of this technology change a `kind` unit's values or cost?"""
        return kind in self.cost or any(kind in per_kind for per_kind in self.changes.values())


@dataclass(frozen=True)
class ReconChances:
    """One row of the Phase 3.3 reconnaissance table, in percent; None is the table's
    "n/a" (the unit cannot recon there). scenarios/<name>/recon.toml."""

    kind: str  # unit kind id; "trench" is "Trenches (alone, without other units present)"
    passive_land: int | None = None
    active_land: int | None = None  # an active recon mission into a land territory
    passive_sea: int | None = None
    active_sea: int | None = None


@dataclass(frozen=True)
class HomeTrenchRule:
    """Trenches: "Home city territories can build trenches by lower cost ... at least 5
    infantry units in city at the beginning of the turn and must spend 10 resources"."""

    infantry_needed: int = 5
    cost: int = 10


@dataclass(frozen=True)
class ObjectiveGroup:
    """A named group of places the objectives use (objectives.toml [groups])."""

    members: tuple[str, ...] = ()  # explicit names
    adjacent_to: str = ""  # every land territory next to this one ...
    include_centre: bool = False  # ... and that one too
    owner: str = ""  # all land of this nation ("$self": the objective's nation)
    not_owner: str = ""
    section: str = ""  # a map section letter
    outside_section: str = ""
    feature: str = ""  # a map feature
    any: bool = False  # holding any one member is enough


@dataclass(frozen=True)
class Nation:
    id: str
    name: str  # display name, e.g. "German Empire"
    kind: str  # "major" | "minor" | "dominion"
    side: str  # starting side: "central" | "allied" | "neutral"
    parent: str | None = None  # dominions: the empire they follow (britain)
    capital: str | None = None
    playable: bool = True  # minor nations may start as non-player (moderator-run)
    manpower: int = 0  # manpower limit (infantry units that can be built at normal cost)
    manpower_pool: str | None = None  # whose limit its infantry count against (Bolsheviks: russia)
    no_city_infantry_surcharge: bool = False  # Phase 7 rule 3 exception (Russia, China)
    colonial_manpower: int = 0  # manpower limit of its colonies, kept apart from the home one
    war_income: dict[str, str] = field(default_factory=dict)  # income rule at war with a "minor"/"major" neutral
    active: bool = True  # False: enters only by a special rule (the Bolsheviks, Phase 9)
    playable_on_entry: bool = False  # a replacement-pool player takes it over when it joins the main war
    us_trade: int = 0  # Variable US Trade: resources received while the US is neutral
    leaning: str | None = None  # the side a major neutral leans to at start (Italy)
    rebels_when_conquered: bool = False  # a rebellion may free it while conquered (Afghanistan, Phase 9)
    starvation_cordon: tuple[str, ...] = ()  # sea zones an enemy cordon starves it from (Phase 9)
    starvation_loss: int = 0  # manpower its first turn of starvation costs, doubling after (Phase 9)
    starvation_land: str = ""  # the map group of the home islands the cordon starves (Phase 9)
    saved: int = 0  # saved resources at start
    income_rule: str = "full"  # how much of full income is collected at start, e.g. "half", "quarter", "fixed:15"
    standing: int = 0  # neutrals' diplomatic stand: -5 favourable to CP, 0, +5 favourable to AP
    influence_on_ten_only: bool = False  # nations marked * in the rules (Phase 1.2)
    no_influence: bool = False  # e.g. China at start
    at_war_with: tuple[str, ...] = ()
    tech: tuple[tuple[str, int], ...] = ()  # starting technology levels
    aliases: tuple[str, ...] = ()  # other names players may type ("Germany", "CP", ...)
    notes: str = ""


@dataclass(frozen=True)
class Force:
    """Starting units: `fixed` ones stand at `location` at start (Initial Deployment:
    the predetermined half); free ones are deployed by the player, `location` being
    the default used when the player gives no deployment."""

    nation: str
    kind: str
    count: int
    location: str
    fixed: bool = True


@dataclass(frozen=True)
class Objective:
    nation: str
    kind: str  # "knock-out", "naval", "army", "colonial", "take", "control", "acceptable-losses"
    weight: int  # percent
    targets: tuple[str, ...] = ()
    condition: str = ""  # e.g. "as Allied Power"


@dataclass(frozen=True)
class Scenario:
    id: str
    name: str
    start_year: int
    start_month: int  # 1..12
    months_per_turn: int
    turns: int
    nations: dict[str, Nation]
    units: dict[str, dict[str, UnitStats]]  # nation id (or "default") -> kind -> stats
    forces: tuple[Force, ...] = ()
    objectives: tuple[Objective, ...] = ()
    revolution_chance: dict[int, int] = field(default_factory=dict)  # year -> chance in 10 per turn
    terrain: dict[str, TerrainRule] = field(default_factory=dict)  # map feature -> its effect
    unrestricted: dict[str, UnrestrictedTarget] = field(default_factory=dict)  # Phase 1.4 table, by nation id
    gifts: GiftRules = field(default_factory=GiftRules)
    diplomacy: Diplomacy = field(default_factory=Diplomacy)  # Phase 1 (diplomacy.toml)
    revolution_start_turn: int = 0  # Phase 9: the first turn the moderator rolls for the Russian Revolution
    technologies: dict[str, Technology] = field(default_factory=dict)  # id -> Phase 2.1 technology
    recon: dict[str, ReconChances] = field(default_factory=dict)  # unit kind -> Phase 3.3 chances
    fixed_costs: dict[str, int] = field(default_factory=dict)  # Phase 3.1: the same for every nation
    rocket_base_range: int = 1  # Rockets: the basic rocket's range (chosen; see scenario.toml)
    home_trenches: HomeTrenchRule = field(default_factory=HomeTrenchRule)
    colony_classes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # Phase 7 #8: "major"/"minor"
    groups: dict[str, ObjectiveGroup] = field(default_factory=dict)  # objectives' named groups
    ruleset: str | None = None  # scenario.toml `ruleset = "..."`: the rules it is played with (None: the default)

    def stats(self, nation: str, kind: str) -> UnitStats:
        """The unit statistics `nation` builds `kind` with (nation override, else default)."""
        per_nation = self.units.get(nation, {})
        if kind in per_nation:
            return per_nation[kind]
        return self.units["default"][kind]

    def turn_date(self, turn: int) -> tuple[int, str]:
        """(year, month name) when `turn` (1-based) begins: two-month turns from Aug 1914.

        Turn 0, the optional deployment turn (Initial Deployment: the game starts after the
        players deploy), is dated the month before the first turn (July 1914), not one
        whole turn earlier: it takes no game time."""
        months = self.start_month - 1 + (turn - 1) * self.months_per_turn if turn >= 1 else self.start_month - 2
        return self.start_year + months // 12, MONTHS[months % 12]
