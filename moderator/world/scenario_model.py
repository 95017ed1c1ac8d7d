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
class GiftRules:
    """Phase 8 note: who gives to whom at full value instead of half."""

    full_value_groups: tuple[frozenset[str], ...] = ()  # e.g. the British Empire, Canada and Australia
    neutral_lenders: frozenset[str] = frozenset()  # neutrals that lend in full to the main war (the USA)
    lender_minimum: int = 5  # US option #3: "at least 5"


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
    gifts: GiftRules = field(default_factory=GiftRules)
    extra: dict[str, object] = field(default_factory=dict)  # other tables as loaded
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
