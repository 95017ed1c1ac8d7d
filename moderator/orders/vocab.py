"""The words of the orders language: unit kinds, technologies, sides, missions.

Everything here is matched after `fold()` (lower case, letters and digits only), so
"Anti-Aircraft", "AA guns" and "aa" all find the same unit kind.
"""

from __future__ import annotations

import difflib

from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, UNIT_KINDS
from moderator.engine.state import STRUCTURES as STRUCTURE_KINDS
from moderator.world.model import fold

# Unit words ("Units"; the abbreviations players use in mail). Values are the unit kind
# ids of moderator.engine.state.UNIT_KINDS, or structure ids for builds (Phase 3.1).
UNIT_WORDS: dict[str, tuple[str, ...]] = {
    "infantry": ("inf", "infantry", "infantries", "division", "divisions"),
    "artillery": ("art", "arty", "artillery", "artilleries", "artilery"),
    "tank": ("tank", "tanks", "tnk", "tnks", "tk", "armor", "armour"),
    "aa": ("aa", "aas", "aaa", "aagun", "aaguns", "antiair", "antiaircraft", "antiaircraftgun",
           "antiaircraftguns", "antiairgun", "antiairguns", "flak"),
    "rocket": ("rkt", "rkts", "rocket", "rockets"),
    "fighter": ("ftr", "ftrs", "fighter", "fighters", "fig", "biplane", "biplanes"),
    "bomber": ("bmb", "bmbs", "bomber", "bombers", "bom"),
    "battleship": ("bb", "bbs", "battleship", "battleships", "dreadnought", "dreadnoughts"),
    "cruiser": ("dd", "dds", "ca", "cas", "cl", "cruiser", "cruisers", "destroyer", "destroyers"),
    "transport": ("tr", "trs", "trn", "transport", "transports"),
    "carrier": ("cv", "cvs", "carrier", "carriers", "aircraftcarrier", "aircraftcarriers"),
    "submarine": ("ss", "sub", "subs", "submarine", "submarines", "uboat", "uboats"),
    # structures (Phase 3.1 / Trenches / Industrial complexes / Ports / Radar / Sonar)
    "trench": ("trench", "trenches"),
    "super_trench": ("supertrench", "supertrenches"),
    "home_trenches": ("hometrench", "hometrenches", "citytrench", "citytrenches"),
    "industry": ("ic", "industry", "industries", "industrialcomplex", "industrialcomplexes",
                 "factory", "factories", "complex"),
    "port": ("port", "ports", "harbour", "harbor"),
    "radar": ("radar", "radars"),
    "sonar": ("sonar", "sonars"),
}
UNIT_INDEX = {alias: kind for kind, aliases in UNIT_WORDS.items() for alias in aliases}

# The unit kinds themselves are defined once, in moderator/engine/state.py.
LAND, AIR, SEA, MOBILE = LAND_UNITS, AIR_UNITS, SEA_UNITS, UNIT_KINDS
BUILD_ONLY = ("home_trenches",)  # an order word for a purchase, not a kind of unit (Trenches)
STRUCTURES = (*STRUCTURE_KINDS, *BUILD_ONLY)

# Canonical echo words (normalize()): short, readable, and parse back to the same kind.
UNIT_ECHO = {
    "infantry": "inf", "artillery": "art", "tank": "tank", "aa": "aa", "rocket": "rkt",
    "fighter": "ftr", "bomber": "bmb", "battleship": "bb", "cruiser": "dd",
    "transport": "tr", "carrier": "cv", "submarine": "ss", "trench": "trench",
    "super_trench": "supertrench", "home_trenches": "hometrenches", "industry": "industry",
    "port": "port", "radar": "radar", "sonar": "sonar",
}

# Phase 2: the rules' technologies: id -> (rules name, number of advances, aliases).
TECHNOLOGIES: dict[str, tuple[str, int, tuple[str, ...]]] = {
    "improved_weapons": ("Improved Weapons", 1, ("weapons", "improvedweapon")),
    "chemical_warfare": ("Chemical Warfare", 2, ("chemical", "chemicals", "gas", "poisongas")),
    "troop_mechanization": ("Troop Mechanization", 1, ("mechanization", "mechanisation",
                                                       "troopmechanisation")),
    "improved_artillery": ("Improved Artillery", 3, ("artillery",)),
    "tanks": ("Tanks", 4, ("tank", "improvedtanks", "basictanks", "advancedtanks")),
    "super_trenches": ("Super Trenches", 1, ("supertrench", "supertrenches")),
    "improved_aa": ("Improved Anti-Aircraft Guns", 1, ("aa", "aaguns", "antiaircraft",
                                                      "improvedaa", "improvedaaguns",
                                                      "improvedantiaircraft")),
    "rockets": ("Rockets", 4, ("rocket", "improvedrockets")),
    "improved_battleships": ("Improved Battleships", 3, ("battleships", "battleship")),
    "improved_cruisers": ("Improved Cruisers", 3, ("cruisers", "destroyers",
                                                  "improveddestroyers")),
    "improved_transports": ("Improved Transports", 3, ("transports",)),
    "improved_submarines": ("Improved Submarines", 2, ("submarines", "subs", "improvedsubs")),
    "aircraft_carriers": ("Aircraft Carriers", 3, ("carriers", "carrier", "aircraftcarrier")),
    "improved_fighters": ("Improved Fighters", 4, ("fighters",)),
    "improved_bombers": ("Improved Bombers", 4, ("bombers", "basicbombers", "advancedbombers")),
    "faster_ships": ("Faster Ships", 1, ("fastships", "fastership")),
    "improved_industry": ("Improved Industrial Technology", 2, ("industry", "industrial",
                                                               "improvedindustrial",
                                                               "industrialtechnology")),
    "radar": ("Radar", 1, ()),
    "sonar": ("Sonar", 1, ()),
}
TECH_INDEX: dict[str, str] = {}
for _tid, (_name, _levels, _aliases) in TECHNOLOGIES.items():
    for _alias in (_tid, _name, *_aliases):
        TECH_INDEX.setdefault(fold(_alias), _tid)

# Which technology a unit kind's upgrade follows (Phase 2.2).
UPGRADE_TECH = {
    "infantry": ("improved_weapons", "chemical_warfare"),
    "artillery": ("improved_artillery",),
    "tank": ("tanks",),
    "aa": ("improved_aa",),
    "rocket": ("rockets",),
    "battleship": ("improved_battleships", "faster_ships"),
    "cruiser": ("improved_cruisers", "faster_ships"),
    "transport": ("improved_transports", "faster_ships"),
    "submarine": ("improved_submarines", "faster_ships"),
    "carrier": ("aircraft_carriers", "faster_ships"),
    "fighter": ("improved_fighters",),
    "bomber": ("improved_bombers",),
}

SIDE_WORDS = {
    "allied": ("allied", "allies", "alliedpowers", "ap", "entente", "alliedside", "allied powers"),
    "central": ("central", "centrals", "centralpowers", "cp", "centralside"),
}
SIDE_INDEX = {fold(a): side for side, aliases in SIDE_WORDS.items() for a in aliases}

# 4.2.1-4.2.9: task force missions, canonical id per word.
MISSIONS = {
    "transport": "transport", "patrol": "patrol", "blockade": "blockade", "move": "move",
    "dock": "dock", "replenish": "dock", "carrier": "carrier", "detect": "detect",
    "escort": "escort", "bombard": "bombard", "load": "load",
}
# Sub interception targets: the mission an enemy task force is doing, or any.
INTERCEPT_TARGETS = {
    "any": "any", "all": "any", "transport": "transport", "transports": "transport",
    "escort": "escort", "escorts": "escort", "bombard": "bombard", "bombardment": "bombard",
    "carrier": "carrier", "carriers": "carrier", "patrol": "patrol", "patrols": "patrol",
    "blockade": "blockade", "blockades": "blockade", "move": "move",
}

# 3.2: espionage and counter-espionage kinds (words -> id); the fees are in engine/orders/espionage.py.
ESPIONAGE_KINDS = {
    "neutral": "neutral", "status": "neutral", "neutralstatus": "neutral",
    "affiliation": "affiliation", "majorneutral": "affiliation", "government": "affiliation",
    "army": "army", "armystaff": "army", "staff": "army", "builds": "army", "units": "army",
    "industrial": "industrial", "industry": "industrial", "technology": "industrial",
    "tech": "industrial",
    "combat": "combat", "combatintelligence": "combat", "intelligence": "combat",
}
COUNTER_KINDS = {
    "affiliation": "affiliation", "neutral": "affiliation", "government": "affiliation",
    "army": "army", "armystaff": "army", "staff": "army", "builds": "army", "units": "army",
    "industrial": "industrial", "industry": "industrial", "technology": "industrial",
    "tech": "industrial",
    "recon": "recon", "reconnaissance": "recon", "reconnaissancecountermeasure": "recon",
    "countermeasure": "recon", "deception": "recon",
}

DEFEND_KINDS = {"industry": "industry", "ic": "industry", "industrialcomplex": "industry",
                "industrial": "industry", "factory": "industry", "port": "port",
                "harbour": "port", "harbor": "port", "aa": "aa", "aaguns": "aa",
                "antiaircraft": "aa"}
PLUNDER_KINDS = {k: v for k, v in DEFEND_KINDS.items() if v != "aa"}

BOMB_AIMS = {"industry": "industry", "industrial": "industry", "resources": "industry",
             "city": "city", "manpower": "city", "tactical": "tactical"}


def unit_kind(word: str) -> str | None:
    """The unit/structure kind id for a typed word ("Tanks", "AA guns"), or None."""
    key = fold(word)
    if key in UNIT_INDEX:
        return UNIT_INDEX[key]
    for suffix in ("guns", "gun", "units", "unit"):
        if key.endswith(suffix) and key[: -len(suffix)] in UNIT_INDEX:
            return UNIT_INDEX[key[: -len(suffix)]]
    return None


def tech_id(words: str) -> str | None:
    """The technology id for a typed technology name, or None."""
    key = fold(words)
    if key in TECH_INDEX:
        return TECH_INDEX[key]
    if key.startswith("improved") and key[8:] in TECH_INDEX:
        return TECH_INDEX[key[8:]]
    return None


def side(words: str) -> str | None:
    key = fold(words)
    for prefix in ("the",):
        if key.startswith(prefix) and key[len(prefix):] in SIDE_INDEX:
            return SIDE_INDEX[key[len(prefix):]]
    for suffix in ("side", "camp", "powers"):
        if key.endswith(suffix) and key[: -len(suffix)] in SIDE_INDEX:
            return SIDE_INDEX[key[: -len(suffix)]]
    return SIDE_INDEX.get(key)


def close_matches(word: str, choices: list[str], n: int = 3) -> list[str]:
    """'Did you mean' candidates among plain words."""
    return difflib.get_close_matches(word.lower(), choices, n=n, cutoff=0.6)
