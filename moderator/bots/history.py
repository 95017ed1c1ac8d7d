"""Which side a neutral leans to, as the bots play it: the game's standing first, then
the side the rules' history points to.

A neutral's standing (Phase 1.2: -10 Central Powers .. +10 Allies; the US Entry for the
USA) is what the game says; while it is level, a bot playing history pushes toward the
side its nation's section of the rules suggests, not a coin's side (a soak whose
neutrals each picked a side at random sent the USA, Italy and China to the Central
Powers). The majors at war then spend their influence on the neutrals that lean their
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


def lean(state: GameState, nation: str) -> str | None:
    """The side `nation` leans to: its standing's sign, else its `leaning` flag (Italy),
    else its history (HISTORY), else None (level and no history: a minor dead neutral)."""
    ns = state.nations[nation]
    if ns.standing:
        return "allied" if ns.standing > 0 else "central"
    flagged = ns.flags.get("leaning")
    if flagged in ("allied", "central"):
        return str(flagged)
    return HISTORY.get(nation)
