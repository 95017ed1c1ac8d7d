"""Which side a neutral leans to, as the bots play it: a neutral major's player wants the
side the rules' history points to; a minor leans as its standing shows.

A neutral's standing (Phase 1.2: -10 Central Powers .. +10 Allies; the US Entry for the
USA) is what the game's events make of it; a bot seated on a neutral major pushes it
toward the side its nation's section of the rules suggests, not a coin's side nor the
drift of the points (soaks whose neutrals followed either sent the USA and China to the
Central Powers). The majors at war then spend their influence on the neutrals that lean their
way or not at all, and leave alone those that lean to the other side, so a long run
shows the joins history suggests: Bulgaria and the Ottomans with the Central Powers,
Italy, Romania, Greece, Portugal and the USA with the Allies. A nation opens a war only
on a minor leaning to the other side (bot.declare): a minor attacked joins the other
camp and moves every neutral's points, so a war on a friendly or level minor (Serbia on
Albania, Austria-Hungary on Bulgaria) sent the US Entry to -10 in three turns.
"""

from __future__ import annotations

from moderator.engine.state import GameState

# The side the rules' text points each neutral major to (the minors: their standing in
# nations.toml, the rules' National Standings). None: the bot keeps it out of the war.
HISTORY: dict[str, str | None] = {
    # Italy: "Italy begins leaning towards the Allied side" (its `leaning` flag, which
    # the moderator turns when Paris falls or Italy is coaxed, comes first).
    "italy": "allied",
    # The Ottoman Empire: "0-7 points toward CP side because of strong German presence in
    # the Ottoman army" every turn.
    "ottoman": "central",
    # The US: "it is much more likely to join the Allies".
    "usa": "allied",
    # Japan: "Japan automatically counts towards Allied productions"; at war with Germany.
    "japan": "allied",
    # The British Empire: every event but two of its section brings it in on the Allies'.
    "britain": "allied",
    # China: the rules do not say; it declared war on Germany in 1917.
    "china": "allied",
    # Spain: "Spain is not willing to start new war again".
    "spain": None,
    # Belgium and Luxembourg start level ("dead neutral", nations.toml) but their history
    # is the German invasion of August 1914: the Central Powers may march in, the Allies
    # never open a war on them.
    "belgium": "allied",
    "luxembourg": "allied",
}


MAJORS = frozenset({"italy", "ottoman", "usa", "japan", "britain", "china", "spain"})


def lean(state: GameState, nation: str) -> str | None:
    """The side `nation` leans to. A neutral major: its `leaning` flag (Italy's, which the
    game turns), else its history (its player wants that side, whatever the points drift:
    a USA following its drifting US Entry joined the Central Powers in a soak). Another
    nation: its standing's sign, else its history, else None (a level dead neutral)."""
    ns = state.nations[nation]
    flagged = ns.flags.get("leaning")
    if nation in MAJORS:
        return str(flagged) if flagged in ("allied", "central") else HISTORY.get(nation)
    if ns.standing:
        return "allied" if ns.standing > 0 else "central"
    return HISTORY.get(nation)


def courted(state: GameState, side: str) -> list[str]:
    """The neutral majors still out of the war that `side` wants in: those leaning its way.

    1.4: "neutrals would not be happy that their trade fleet is getting sunk, too, so they
    will have 0-1 point per turn against the nation that declare it". A side's bots keep
    from unrestricted submarine warfare while one of these is undecided (bots/statecraft.py):
    in the soak of d08d659 both sides declared it, and its points, with the joins, carried
    the USA and China to the Central Powers."""
    return sorted(n for n in MAJORS if n in state.nations and state.nations[n].side == "neutral"
                  and lean(state, n) == side)
