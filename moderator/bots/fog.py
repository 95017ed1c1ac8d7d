"""The position a mail bot plays: what its own mails told it, and the public map.

A player knows ("Miscellaneous") its own units and resources (its report), its allies'
units and status (its alliance's report), who holds which land (the map published after
every turn) and what its units saw of the enemy (Phase 3.3: the colour band of the troops
next to them, exact units where reconnaissance or espionage saw). `fogged()` builds the
position a bot plans on from exactly that:

* its own treasury, technology and wars from its report's sheet; its own units are the
  service's, which the soak holds to the sheet's counts place by place (the report has no
  unit ids, which the trenches' facings refer to);
* its allies' units from the alliance report's sheets (counts per place and kind);
* of every other nation, only what a sighting shows: its exact units, or for a band the
  troops a player would guess (BAND_GUESS: infantry, the band's middle); the rest of the
  world's armies are unknown to it and absent from its position;
* who holds which land: the public map, from the report's `control` (reports/content.py);
  which of its own land is incorporated, from its sheet's holdings, and its allies' from
  the alliance report's sheets;
* the camps, the wars between others and the incorporation of others' land: public news
  (the bulletin's camps, declarations and incorporations), taken from the service's
  position.

So a bot's threats and odds are estimates, as a player's are; its orders still go through
the service's checker on the true position, and one refused there is counted like any
other (a fog-of-war order that meets an unseen army is still legal: legality never
depends on the enemy's units the orders cannot see, only the battles do).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moderator.engine.state import STRUCTURES, UNIT_KINDS, GameState, Unit

# The troops a player guesses behind a colour band (3.2.2.4: 0-5, 6-20, 21+): its middle.
BAND_GUESS = {"black": 3, "yellow": 12, "red": 25}


def fogged(state: GameState, nation: str, report: Mapping[str, Any], alliance: Mapping[str, Any] | None,
           by_name: Mapping[str, str]) -> GameState:
    """`state`: the service's position (its public part and the nation's own units are
    used); `report`/`alliance`: the seat's last report.json and its alliance's (or None);
    `by_name`: nation name as reports write it -> nation id."""
    out = state.copy()
    sheet = report.get("sheet") or {}
    ns = out.nations[nation]
    if "saved" in sheet:
        ns.saved = int(sheet["saved"])
    if "tech" in sheet:
        ns.tech = {str(k): int(v) for k, v in sheet["tech"].items() if v}
    if "at_war_with" in sheet:
        ns.at_war_with = sorted(by_name.get(n, n) for n in sheet["at_war_with"])
    if "control" in report:  # the public map
        out.control = {t: by_name.get(str(holder), str(holder)) for t, holder in report["control"].items()}
    known = {nation}
    units: list[Unit] = [u for u in out.units if u.nation == nation]
    _incorporated(out, nation, sheet)
    for other in (alliance or {}).get("sheets") or []:
        member = str(other.get("nation", ""))
        if member in known or member not in out.nations:
            continue
        known.add(member)
        units += _counted(out, member, other.get("units") or {})
        _incorporated(out, member, other)
    for seen in report.get("sightings") or []:
        holder = by_name.get(str(seen.get("holder") or ""), str(seen.get("holder") or ""))
        if holder in known or holder not in out.nations:
            continue  # a sea zone (no holder): its ships are not guessed
        exact = seen.get("units")
        guess = exact if exact else {"infantry": BAND_GUESS.get(str(seen.get("band")), 0)}
        units += _counted(out, holder, {seen["place"]: guess})
    out.units = units
    return out


def _incorporated(state: GameState, nation: str, sheet: Mapping[str, Any]) -> None:
    """The incorporation of `nation`'s land as its sheet's holdings tell it (Phase 6)."""
    if "holdings" not in sheet:
        return
    for t in [t for t, holder in state.control.items() if holder == nation]:
        state.incorporated.pop(t, None)
    for h in sheet["holdings"]:
        if h.get("incorporated") is not None:
            state.incorporated[str(h["territory"])] = int(h["incorporated"])


def _counted(state: GameState, nation: str, places: Mapping[str, Mapping[str, int]]) -> list[Unit]:
    """Units of `nation` as counts per place and kind tell them (ids of their own: "seen")."""
    made = []
    for place in sorted(places):
        for kind in sorted(places[place]):
            if kind not in UNIT_KINDS and kind not in STRUCTURES:
                continue
            for i in range(int(places[place][kind])):
                made.append(Unit(f"{nation}-{kind}-seen-{place}-{i}", nation, kind, place))
    return made
