"""Nations' special options (Phase 1.5) and other nation-specific costs, as data.

The numbers, costs and conditions follow the rules' option lists ("British Empire",
"French Empire", ... "US Playing Options", Japan, China, Spain). Conditions the checker
cannot see in the state (hidden points, the moderator's dice) make the order a flag.
"""

from __future__ import annotations

from dataclasses import dataclass

from moderator.world.model import fold


@dataclass(frozen=True)
class OptionSpec:
    title: str
    cost: int
    needs: tuple[str, ...] = ()  # "target", "amount", "toward"
    once: str = ""  # "turn" | "game" | ""
    review: str = ""  # why the moderator must look (makes the order a flag)
    amount_spent: bool = False  # the amount given is paid too (gifts at full value)


_CHINA_REVIEW = "gives a territory to China; the moderator applies the transfer and the rolls"

BRITAIN_ALLIED = {
    1: OptionSpec("Ottoman Trade Fiasco", 0, once="game",
                  review="hands one battleship to the Ottomans; only before the Ottomans enter the war"),
    2: OptionSpec("Seek Chinese Favor", 10, once="game", review=_CHINA_REVIEW + " (Hong Kong)"),
    3: OptionSpec("Influence US Public Opinion", 15),
}
BRITAIN_CENTRAL = {
    1: OptionSpec("Seek Chinese Favor", 10, once="game", review=_CHINA_REVIEW + " (Hong Kong)"),
    2: OptionSpec("Influence US Public Opinion", 15),
}
FRANCE = {
    1: OptionSpec("Spanish Relations", 10),
    2: OptionSpec("Supporting Russia (gift at full value)", 5, needs=("amount",), amount_spent=True),
    3: OptionSpec("Influence Italy", 15, once="turn"),
    4: OptionSpec("Influence China", 10, once="game", review=_CHINA_REVIEW + " (Indochina)"),
    5: OptionSpec("Seek Italy's Favor", 15, review="gives Marseille to Italy"),
}
RUSSIA = {
    1: OptionSpec("Supporting France (gift at full value)", 5, needs=("amount",), amount_spent=True),
    2: OptionSpec("Supporting Serbia (5 resources to Serbia)", 7, once="turn"),
    3: OptionSpec("Properly Supply the Army", 0, once="game"),
}
GERMANY = {
    1: OptionSpec("Seek Chinese Favor", 10, once="game", review=_CHINA_REVIEW + " (Jiaozhou)"),
    2: OptionSpec("Sway US Public Opinion", 15),
    3: OptionSpec("Support Irish Rebellion", 10,
                  review="needs a submarine in the Irish Sea and Britain in the war as an Allied Power"),
    4: OptionSpec("The Zimmerman Note", 15),
    5: OptionSpec("Sneak Supplies to German East Africa", 6),
    6: OptionSpec("Support Russian Revolutionaries", 12,
                  review="only once the moderator has begun rolling for the Russian Revolution"),
    7: OptionSpec("Build subs in Adriatic Sea", 0,
                  review="the submarine's cost and the rail allowance are applied by the moderator"),
}
AUSTRIA = {
    1: OptionSpec("Peace with Serbia", 25, once="game",
                  review="only if no non-Serbian Allied units are in Serbian territories"),
    2: OptionSpec("Seek Italy's Favor", 15, review="gives Trieste to Italy"),
}
_JAPAN_REVIEW = "Japan's wars need the gear-up on an earlier turn; the moderator applies the income"
JAPAN = {
    1: OptionSpec("War on the Ottoman Empire", 0, review=_JAPAN_REVIEW),
    2: OptionSpec("War on the Austro-Hungarian Empire", 0, review=_JAPAN_REVIEW),
    3: OptionSpec("Suez bonus", 0, review="only if a Central Power holds the Suez Canal"),
    4: OptionSpec("Limited war on Russia (FULL WAR: 15 more)", 0, review=_JAPAN_REVIEW),
    5: OptionSpec("War on China", 0, review=_JAPAN_REVIEW),
    6: OptionSpec("War on the Western Allies", 0, review=_JAPAN_REVIEW),
}
USA = {
    1: OptionSpec("Gear Up Production", 40, once="game"),
    2: OptionSpec("Declare War on Neutrals (Congress vote)", 10, needs=("target",), once="turn",
                  review="needs option #1 first; Congress approves on the moderator's roll"),
    3: OptionSpec("Lend Resources", 0, needs=("target", "amount"), amount_spent=True),
    4: OptionSpec("Influence Public Opinion", 10, needs=("toward",), once="turn"),
    5: OptionSpec("Influence Minor Nation", 15, needs=("target", "toward")),
}
CHINA = {
    1: OptionSpec("Gear up war economy", 15, once="game"),
    2: OptionSpec("Influence herself", 15, needs=("toward",), once="turn",
                  review="only when the economy is raised to 60%"),
}
SPAIN = {
    1: OptionSpec("Declare war on a minor neutral", 0, needs=("target",),
                  review="only after boosting the economy (GEAR UP)"),
    2: OptionSpec("Influence herself", 10, needs=("toward",), once="turn",
                  review="only after boosting the economy (GEAR UP)"),
    3: OptionSpec("Declare war on a major neutral", 0, needs=("target",),
                  review="only after boosting the economy; approved on a roll of 1-2"),
}
OTTOMAN = {1: OptionSpec("Influence themselves toward the Allied Powers", 10, once="turn")}
ITALY = {
    2: OptionSpec("Italian influence (toward a side)", 10, needs=("toward",), once="turn",
                  review="the rules refer to this option without defining it"),
}

GROUPS: dict[str, tuple[str, ...]] = {
    "britain": ("britain", "britishempire", "british", "england", "uk", "greatbritain"),
    "france": ("france", "frenchempire", "french"),
    "russia": ("russia", "russianempire", "russian"),
    "germany": ("germany", "germanempire", "german"),
    "austria": ("austria", "austriahungary", "austrohungary", "austrohungarianempire",
                "austrohungarian", "ah", "austriahungarianempire"),
    "japan": ("japan", "japaneseempire", "japanese"),
    "usa": ("usa", "us", "unitedstates", "unitedstatesofamerica", "america"),
    "china": ("china", "chinese"),
    "spain": ("spain", "spanish"),
    "ottoman": ("ottoman", "ottomanempire", "ottomans", "turkey"),
    "italy": ("italy", "italian", "kingdomofitaly"),
}

GEAR_UP_COST = {"japan": 25, "usa": 40, "china": 15, "spain": 40}
# Self-influence (INFLUENCE SELF TOWARD side): cost, and the only side allowed if fixed.
SELF_INFLUENCE: dict[str, tuple[int, str | None]] = {
    "ottoman": (10, "allied"), "spain": (10, None), "china": (15, None), "italy": (10, None),
}
# Phase 1.4 table: sea zones where a blockade / unrestricted submarine warfare bites.
BLOCKADE_ZONES = {
    "britain": ("North Sea", "Middle Atlantic"), "germany": ("Skagerrak",),
    "austria": ("Adriatic Sea",), "france": ("Middle Atlantic",),
    "usa": ("US Atlantic Coast", "US Pacific Coast"), "italy": ("Tyrrhenian Sea",),
    "japan": ("Sea of Japan",), "china": ("Yellow Sea",), "russia": ("Gulf of Bothnia",),
    "ottoman": ("Aegean Sea",), "spain": ("Western Mediterranean",),
}
# Variable US Trade: zones that cut US trade to a nation.
US_TRADE_ZONES = {
    "germany": ("Skagerrak",), "britain": ("North Atlantic", "Northern Atlantic", "Middle Atlantic"),
    "france": ("Middle Atlantic",), "russia": ("Norwegian Sea", "Sea of Okhotsk", "Sea of Okhost"),
}


def group_of(nid: str, names: tuple[str, ...]) -> str | None:
    """Which rules nation a scenario nation is (by id, display name or alias)."""
    keys = {fold(n) for n in (nid, *names)}
    for group in sorted(GROUPS):
        if keys & set(GROUPS[group]):
            return group
    return None


def options_for(group: str | None, side: str) -> dict[int, OptionSpec]:
    if group == "britain":
        return {"allied": BRITAIN_ALLIED, "central": BRITAIN_CENTRAL}.get(side, {})
    return {
        "france": FRANCE, "russia": RUSSIA, "germany": GERMANY, "austria": AUSTRIA,
        "japan": JAPAN, "usa": USA, "china": CHINA, "spain": SPAIN, "ottoman": OTTOMAN,
        "italy": ITALY,
    }.get(group or "", {})
