"""The static world: territories, sea zones and how they connect.

Loaded from the data files in maps/<scenario>/ (see moderator.world.loader). Pure data,
no I/O here, so the engine can use it freely.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache

LAND = "land"
SEA = "sea"

# Map sections of the rules ("The Map"): the letters are the rules' own abbreviations.
SECTIONS = {
    "E": "Europe",
    "M": "Middle East",
    "A": "Africa",
    "P": "Asia/Pacific",
    "CA": "Central Asia",
    "N": "North America",
}


@lru_cache(maxsize=1 << 16)
def fold(name: str) -> str:
    """Case- and punctuation-insensitive key for matching names typed by players. Kept per
    name: checking one order mail folds some seventy names, mostly the same ones."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


@dataclass(frozen=True)
class Territory:
    name: str
    kind: str  # LAND or SEA
    section: str  # a key of SECTIONS
    aliases: tuple[str, ...] = ()
    value: int = 0  # resource value; also the strategic-movement capacity (Phase 4.1.3)
    owner: str | None = None  # nation id of the original owner (None for sea zones)
    city: bool = False
    industry: bool = False  # industrial complex at start
    port: bool = False
    capital: bool = False
    colony: str | None = None  # "major" / "minor" colony class (Phase 7 table) or None
    features: tuple[str, ...] = ()  # e.g. "alps", "fortress", "canal" (effects: scenario terrain.toml)
    label: tuple[float, float] = (0.0, 0.0)  # lon, lat of the label / anchor point

    @property
    def is_land(self) -> bool:
        return self.kind == LAND

    @property
    def is_sea(self) -> bool:
        return self.kind == SEA


@dataclass(frozen=True)
class Passage:
    """A strait, canal or other controlled connection named by the rules."""

    name: str
    kind: str  # "strait" (land-land across water), "canal", "sea-gate"
    ends: tuple[str, str]  # the two places it joins
    controllers: tuple[str, ...] = ()  # territories whose owner may close it
    note: str = ""


@dataclass
class World:
    territories: dict[str, Territory]
    adjacency: dict[str, frozenset[str]]
    passages: tuple[Passage, ...] = ()
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict)  # rules' group names
    _index: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self._index:
            for t in self.territories.values():
                for n in (t.name, *t.aliases):
                    self._index.setdefault(fold(n), t.name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.resolve(name) is not None

    def resolve(self, name: str) -> str | None:
        """Canonical name for a typed name or alias, or None."""
        return self._index.get(fold(name))

    def get(self, name: str) -> Territory:
        canonical = self.resolve(name)
        if canonical is None:
            raise KeyError(name)
        return self.territories[canonical]

    def suggest(self, name: str, n: int = 3) -> list[str]:
        """'Did you mean' candidates for an unknown name."""
        keys = difflib.get_close_matches(fold(name), list(self._index), n=n * 2, cutoff=0.6)
        out: list[str] = []
        for k in keys:
            c = self._index[k]
            if c not in out:
                out.append(c)
        return out[:n]

    def neighbours(self, name: str) -> frozenset[str]:
        return self.adjacency.get(name, frozenset())

    def sorted_neighbours(self, name: str) -> tuple[str, ...]:
        """neighbours(), sorted: the searches that go in name order ask for every place they
        pass, so each place's are sorted once (the map never changes)."""
        index: dict[str, tuple[str, ...]] | None = self.__dict__.get("_sorted_neighbours")
        if index is None:
            index = self.__dict__["_sorted_neighbours"] = {t: tuple(sorted(n)) for t, n in self.adjacency.items()}
        return index.get(name, ())

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.adjacency.get(a, frozenset())

    def passages_between(self, a: str, b: str) -> list[Passage]:
        """Passages (straits, canals, sea gates) joining a and b, in either direction."""
        if "_passages_by_ends" not in self.__dict__:  # the map never changes: index once
            index: dict[frozenset[str], list[Passage]] = {}
            for p in self.passages:
                index.setdefault(frozenset(p.ends), []).append(p)
            self.__dict__["_passages_by_ends"] = index
        return list(self.__dict__["_passages_by_ends"].get(frozenset((a, b)), ()))

    def is_strait(self, a: str, b: str) -> bool:
        """True when a land move between a and b crosses one of the rules' straits."""
        return any(p.kind == "strait" for p in self.passages_between(a, b))

    def joined_by_land(self, a: str, b: str) -> bool:
        """True when a land path (straits included, as land moves cross them) leads from
        land a to land b; two lands that are not are joined only by sea."""
        if "_landmass" not in self.__dict__:  # the map never changes: number the landmasses once
            mass: dict[str, int] = {}
            for number, start in enumerate(self.lands()):
                if start.name in mass:
                    continue
                mass[start.name], todo = number, [start.name]
                while todo:
                    for nxt in self.neighbours(todo.pop()):
                        if nxt not in mass and nxt in self.territories and self.territories[nxt].is_land:
                            mass[nxt] = number
                            todo.append(nxt)
            self.__dict__["_landmass"] = mass
        mass = self.__dict__["_landmass"]
        return a in mass and mass.get(a) == mass.get(b)

    def lands(self) -> list[Territory]:
        if "_lands" not in self.__dict__:  # the map never changes: sort once
            self.__dict__["_lands"] = sorted((t for t in self.territories.values() if t.is_land),
                                             key=lambda t: t.name)
        return list(self.__dict__["_lands"])

    def home_of(self, nation: str) -> list[str]:
        """The land territories `nation` owned at the start (its supply centres), sorted."""
        homes: dict[str, list[str]] = self.__dict__.setdefault("_homes", {})
        if not homes:
            for t in self.lands():
                if t.owner:
                    homes.setdefault(t.owner, []).append(t.name)
        return homes.get(nation, [])

    def seas(self) -> list[Territory]:
        return sorted((t for t in self.territories.values() if t.is_sea), key=lambda t: t.name)
