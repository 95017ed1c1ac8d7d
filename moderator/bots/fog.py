"""The position a mail bot plays: what its own mails told it, on a public skeleton.

A player knows ("Miscellaneous") its own units and resources (its report), its allies'
units and status (its alliance's report), the common news (the bulletin), who holds which
land (the map published after every turn) and what its units saw of the enemy (Phase 3.3:
the colour band of the troops next to them, exact units where reconnaissance or espionage
saw). `fogged()` builds the position a bot plans on from exactly that, as a player's tool
would from the mails' report.json files (issue 14):

* the skeleton (`skeleton()`): the game, the turn and the scenario's start (every nation's
  starting NationState, static and public: National Standings, the scenario's tables);
* its own units, one by one with their ids, damage and trench facings: its report's
  `units`; its treasury, technology, manpower, wars and standing: its report's sheet;
* its allies' units (counts per place and kind), treasuries, technology, manpower and the
  incorporation of their land: the alliance report's sheets;
* of every other nation, only what a sighting shows: its exact units, or for a band the
  troops a player would guess (BAND_GUESS: infantry, the band's middle); the rest of the
  world's armies are unknown to it and absent from its position;
* the camps and who is at war with whom: the bulletin's `camps` and `wars` (public news:
  declarations, joins and peace are told to everyone);
* who holds which land: the public map, the report's `control`; which of its own land is
  incorporated and which of the map's facilities there were plundered (Phase 5), its
  sheet's holdings, and its allies', theirs. Another nation's
  incorporation is told to that nation only (Phase 6, engine/orders/incorporate.py: the
  `incorporated` event goes to the nation), so of the rest a bot knows only the start:
  land held by its original owner counts as incorporated since the start (the scenario).

What is still read from the service's position, from a copy (`public_copy`) that holds
nothing else of any other nation:

* the nation's own bookkeeping (NationState.flags: its options used, the gear aboard its
  ships, repairs, what is left to deploy, its separated treasuries...): what its own orders
  and their receipts and reports told its player ("Miscellaneous": its own status);
* of every other nation the flags that public news sets (PUBLIC_FLAGS, each with its rule);
* the camps and wars of a nation the bulletin does not list (one not on the map yet, the
  Bolsheviks before the revolution: the scenario's), and the public map where a report has
  none (older reports).

Before its first report a bot plays the service's position as it is: the scenario's start
(Initial Deployment: every force of forces.csv where the scenario puts it, or still to
deploy), which is public.

Never another nation's units, treasury, technology, manpower, standing or secret options
(tests/test_bots.py scrambles them and the mail bot's orders stay the same). So a bot's
threats and odds are estimates, as a player's are; its orders still go through the
service's checker on the true position, and one refused there is counted like any other (a
fog-of-war order that meets an unseen army is still legal: legality never depends on the
enemy's units the orders cannot see, only the battles do).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from moderator.engine.exile import HOST, SINCE
from moderator.engine.orders.trenches import FACING
from moderator.engine.passages import CLOSED
from moderator.engine.phase9_revolution import STAGE
from moderator.engine.placement import DISMANTLED
from moderator.engine.state import STRUCTURES, UNIT_KINDS, Control, GameState, NationState, Unit
from moderator.engine.surrender import OFFER, OFFER_TO, SURRENDERED, VICTORS
from moderator.world.model import World
from moderator.world.scenario import _nation_state
from moderator.world.scenario_model import Scenario

# The troops a player guesses behind a colour band (3.2.2.4: 0-5, 6-20, 21+): its middle.
BAND_GUESS = {"black": 3, "yellow": 12, "red": 25}

# Another nation's flags a player knows, as public news sets them: flag -> the rule.
PUBLIC_FLAGS = {
    "active": "on the map or not yet (the scenario; entering it is public news: Phase 9, China)",
    CLOSED: "1.3: a passage closed (`passage-closed`, public news)",
    "unrestricted_subs": "1.4: unrestricted submarine warfare declared (`submarine-warfare-declared`, public)",
    OFFER: "Surrender: an offer made (`surrender-offered`, public news)",
    OFFER_TO: "Surrender: the nations it names (`surrender-offered`)",
    SURRENDERED: "Surrender: an offer accepted (`surrender-decided`, public news)",
    VICTORS: "Surrender: who accepted it (`surrender-decided`)",
    HOST: "Conquest: a government in exile and its host (`government-in-exile`, public news)",
    SINCE: "Conquest: since when (`government-in-exile`)",
    STAGE: "Phase 9: the Russian Revolution's stage (`revolution`, public news)",
}


def public_copy(state: GameState, nation: str, scenario: Scenario) -> GameState:
    """The service's position with everything of every other nation a player may not know
    removed: no units but the nation's own, and each other nation as the scenario started
    it but for its camp, its wars and its PUBLIC_FLAGS."""
    nations = {}
    for nid, ns in state.nations.items():
        if nid == nation:
            nations[nid] = copy.deepcopy(ns)
            continue
        start = _nation_state(scenario, nid) if nid in scenario.nations else NationState(nid)
        start.side, start.at_war_with = ns.side, list(ns.at_war_with)
        start.flags = {k: v for k, v in start.flags.items() if k != "active"}
        start.flags.update({k: copy.deepcopy(v) for k, v in ns.flags.items() if k in PUBLIC_FLAGS})
        spec = scenario.nations.get(nid)
        if spec is not None and spec.leaning:  # a major's leaning at the start (its report's neutrals)
            start.flags["leaning"] = spec.leaning
        nations[nid] = start
    own = [Unit(u.id, u.nation, u.kind, u.location, u.damage) for u in state.units if u.nation == nation]
    return GameState(state.game, state.scenario, state.turn, nations=nations, control=Control(state.control),
                     incorporated={}, units=own, next_unit=_next_unit(own))


def _next_unit(own: list[Unit]) -> int:
    """The number for the next unit's id past the nation's own (the service's counter counts
    every nation's builds, which a player does not know): ids stay apart from its own."""
    numbers = [int(tail) for u in own if (tail := u.id.rsplit("-", 1)[-1]).isdigit()]
    return max(numbers, default=0) + 1


def fogged(state: GameState, scenario: Scenario, world: World, nation: str, report: Mapping[str, Any],
           alliance: Mapping[str, Any] | None, bulletin: Mapping[str, Any] | None = None) -> GameState:
    """`state`: the service's position (only its public_copy is read); `report`, `alliance`,
    `bulletin`: the seat's last report.json, its alliance's (or None) and the bulletin (or
    None: the camps and wars of the copy, which are public)."""
    by_name = {info.name: nid for nid, info in scenario.nations.items()}

    def nid(name: object) -> str:
        return by_name.get(str(name), str(name))

    out = public_copy(state, nation, scenario)
    if "control" in report:  # the public map
        out.control = Control({t: nid(holder) for t, holder in report["control"].items()})
    # Land its original owner holds: incorporated since the start (the scenario), for all
    # the bot knows; its own side's from the sheets below.
    out.incorporated = {t: 0 for t, holder in out.control.items()
                        if t in world.territories and world.territories[t].owner == holder}
    _public_news(out, bulletin or {}, nid)
    sheet = report.get("sheet") or {}
    _status(out, nation, sheet, nid)
    if "units" in report:  # its own units one by one (older reports: the copy's)
        out.units = _own_units(out, nation, report["units"])
        out.next_unit = _next_unit(out.units)
    known = {nation}
    units: list[Unit] = list(out.units)
    for other in (alliance or {}).get("sheets") or []:
        member = str(other.get("nation", ""))
        if member in known or member not in out.nations:
            continue
        known.add(member)
        units += _counted(member, other.get("units") or {})
        _status(out, member, other, nid)
    for seen in report.get("sightings") or []:
        holder = nid(seen.get("holder") or "")
        if holder in known or holder not in out.nations:
            continue  # a sea zone (no holder): its ships are not guessed
        exact = seen.get("units")
        guess = exact if exact else {"infantry": BAND_GUESS.get(str(seen.get("band")), 0)}
        units += _counted(holder, {seen["place"]: guess})
    out.units = units
    return out


def _public_news(state: GameState, bulletin: Mapping[str, Any], nid: Any) -> None:
    """The camps and the wars the bulletin tells (public news) on the nations it lists."""
    sides = {"Central Powers": "central", "Allied Powers": "allied", "Neutrals": "neutral"}
    listed = set()
    for camp, members in (bulletin.get("camps") or {}).items():
        for name in members:
            n = nid(name)
            if n in state.nations and camp in sides:
                state.nations[n].side = sides[camp]
                listed.add(n)
    if "wars" in bulletin:
        wars = {nid(name): sorted(nid(f) for f in foes) for name, foes in bulletin["wars"].items()}
        for n in listed:
            state.nations[n].at_war_with = wars.get(n, [])


def _status(state: GameState, nation: str, sheet: Mapping[str, Any], nid: Any) -> None:
    """A nation's status as its sheet tells it (its own report's, or an ally's in the
    alliance report): treasury, technology, manpower, wars, standing, income rule and the
    incorporation of its land (Phase 6)."""
    ns = state.nations[nation]
    if "saved" in sheet:
        ns.saved = int(sheet["saved"])
    if "tech" in sheet:
        ns.tech = {str(k): int(v) for k, v in sheet["tech"].items() if v}
    if "at_war_with" in sheet:
        ns.at_war_with = sorted(nid(n) for n in sheet["at_war_with"])
    if "manpower_limit" in sheet:
        ns.manpower_limit = int(sheet["manpower_limit"])
    if "manpower_used" in sheet:
        ns.infantry_built = int(sheet["manpower_used"])
    if sheet.get("standing") is not None:
        ns.standing = int(sheet["standing"])
    if "income_rule" in sheet:
        ns.income_rule = str(sheet["income_rule"])
    if "holdings" in sheet:
        for t in [t for t, holder in state.control.items() if holder == nation]:
            state.incorporated.pop(t, None)
        gone: dict[str, list[str]] = {}
        for h in sheet["holdings"]:
            if h.get("incorporated") is not None:
                state.incorporated[str(h["territory"])] = int(h["incorporated"])
            if h.get("dismantled"):
                gone[str(h["territory"])] = sorted(map(str, h["dismantled"]))
        # the map's facilities plundered in its land (Phase 5), kept where the engine reads
        # them (engine/placement.py map_facility: any nation's record), under its own
        record = dict(ns.flags.get(DISMANTLED) or {})
        record.update({p: sorted({*record.get(p, []), *kinds}) for p, kinds in gone.items()})
        if record:
            ns.flags[DISMANTLED] = dict(sorted(record.items()))


def _own_units(state: GameState, nation: str, listed: list[Mapping[str, Any]]) -> list[Unit]:
    """The nation's units as its report lists them (reports/content.py OwnUnit), and the
    trenches' facings (engine/orders/trenches.py) as it tells them."""
    units = [Unit(str(u["id"]), nation, str(u["kind"]), str(u["place"]), int(u.get("damage") or 0))
             for u in listed]
    state.nations[nation].flags[FACING] = {str(u["id"]): str(u["facing"]) for u in listed if u.get("facing")}
    if not state.nations[nation].flags[FACING]:
        del state.nations[nation].flags[FACING]
    return units


def _counted(nation: str, places: Mapping[str, Mapping[str, int]]) -> list[Unit]:
    """Units of `nation` as counts per place and kind tell them (ids of their own: "seen")."""
    made = []
    for place in sorted(places):
        for kind in sorted(places[place]):
            if kind not in UNIT_KINDS and kind not in STRUCTURES:
                continue
            for i in range(int(places[place][kind])):
                made.append(Unit(f"{nation}-{kind}-seen-{place}-{i}", nation, kind, place))
    return made
