"""normalize(): the canonical echo of parsed orders, one order per line.

Used in the receipt sent back to the player. Property (tests/test_orders_property.py):
parse_orders(normalize(orders)).orders == orders. The secret is never echoed.

Checked orders hold nation ids ("belgium"); with `nations` (nation_words(scenario)) the
echo writes each nation as players write it ("DECLARE WAR ON Belgium"), a name that reads
back as the same nation (tests/test_echo_names.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import fields, replace
from typing import Any

from moderator.orders import model as m
from moderator.orders.parser import Header
from moderator.orders.vocab import TECHNOLOGIES, UNIT_ECHO
from moderator.world.model import fold
from moderator.world.scenario_model import Scenario

_PLAIN = re.compile(r"^[^\W\d_][\w.'\u2019\-]*( [^\W\d_][\w.'\u2019\-]*)*$")
# Words that are keywords somewhere in the grammar: a name containing one is quoted so
# it reads back as the same name.
_KEYWORDS = set("""
game nation turn password secret note declare war on against influence toward towards offer
surrender to accept refuse reject decline of from by close open reopen unrestricted
submarine sub warfare retract blockade option full resources gear up production boost
economy coax join the propose peace with gift give lend government in exile host at
under research upgrade build buy purchase place facing espionage spy counterespionage
counter-espionage counterspy counter-spy counter for recon reconnaissance reconnoitre scout
repair bomb industry industrial city manpower tactical rebase strategic move rail smove
into attack withdraw after round rounds if when own losses casualties exceed exceeds over
above more than enemy units unit kills defenders destroyed killed are only shows most
defender enemies casualty order support defend fire tf taskforce task-force task force
escort bombard load transport patrol dock carrier detect replenish subs submarines
intercept invade land unload plunder incorporate transfer and x then deploy breakthrough
let them aircraft through pass no interception do not break off disengage air combat
""".split())


def name(text: str) -> str:
    """A name as it must be written to read back unchanged."""
    words = text.split(" ")
    if _PLAIN.match(text) and not any(w.lower() in _KEYWORDS for w in words):
        return text
    return f'"{text}"'


def units(us: Iterable[m.UnitCount]) -> str:
    return ", ".join(f"{u.count} {UNIT_ECHO[u.kind]}" for u in us)


def names(ns: Iterable[str]) -> str:
    return ", ".join(name(n) for n in ns)


def tech(tid: str) -> str:
    return TECHNOLOGIES[tid][0]


def side(s: str | None) -> str:
    return {"allied": "Allies", "central": "Central Powers"}.get(s or "", s or "")


def _condition(o: m.CombatCondition) -> str:
    d = name(o.dest) + (f" TO {name(o.to)}" if o.to else "")
    return {
        "rounds": f"WITHDRAW FROM {d} AFTER {o.value} ROUNDS",
        "losses": f"WITHDRAW FROM {d} IF LOSSES EXCEED {o.value}",
        "kills": f"WITHDRAW FROM {d} WHEN {o.value} ENEMY UNITS DESTROYED",
        "max-defenders": f"ATTACK ON {d} ONLY IF AT MOST {o.value} DEFENDERS",
        "contact-lost": f"WITHDRAW FROM {d} IF CONTACT LOST",
        "radar": f"WITHDRAW FROM {d} IF RADAR WARNS",
    }[o.kind]


def _option(o: m.SpecialOption) -> str:
    parts = [f"OPTION {o.number}"]
    if o.target is not None:
        parts.append(f"ON {name(o.target)}")
    if o.amount is not None:
        parts.append(str(o.amount))
    if o.toward is not None:
        parts.append(f"TOWARD {side(o.toward)}")
    if o.full:
        parts.append("FULL WAR")
    if o.place is not None:
        parts.append(f"AT {name(o.place)}")
    return " ".join(parts)


def _mission(o: m.TaskForceMission) -> str:
    head = f"TF {o.name}"
    if o.mission == "load":
        return f"{head} LOAD {units(o.units)} FROM {name(o.origin or '')}"
    if o.mission == "bombard":
        return f"{head} BOMBARD {name(o.target or '')}"
    if o.mission == "split":
        return f"{head} SPLIT {units(o.units)} INTO TF {o.part}" + (f" AT {name(o.at)}" if o.at is not None else "")
    if o.mission == "join":
        return f"{head} JOIN TF {o.part}"
    if o.mission == "escort":
        text = f"{head} ESCORT {o.escort_of}"
    else:
        text = f"{head} {o.mission.upper()}"
    return text + (f" TO {name(o.dest)}" if o.dest is not None else "")


def _build_gear(o: m.BuildShipGear) -> str:
    on = f" ON {UNIT_ECHO[o.ship]}" if o.ship else ""
    return f"BUILD 1 {o.kind}{on} AT {name(o.place)}"


def _espionage(o: m.Espionage) -> str:
    text = f"ESPIONAGE {o.kind.upper()}"
    text += f" ON {name(o.target)}" if o.target is not None else ""
    text += f" FOR {tech(o.tech)}" if o.tech is not None else ""
    return text + (f" AT {name(o.place)}" if o.place is not None else "")


def _counter(o: m.CounterEspionage) -> str:
    text = f"COUNTERESPIONAGE {o.kind.upper()}"
    text += f" AGAINST {name(o.against)}" if o.against is not None else ""
    text += f" FOR {tech(o.tech)}" if o.tech is not None else ""
    return text + (f" AT {name(o.place)}" if o.place is not None else "")


def _detect(o: m.SubDetection) -> str:
    text = f"DETECT SUBS IN {name(o.zone)} WITH {units(o.units)}"
    return text + (f" FROM {name(o.origin)}" if o.origin is not None else "")


def _casualties(o: m.CasualtyOrder) -> str:
    at = f" AT {name(o.place)}" if o.place is not None else ""
    return f"CASUALTIES{at}: " + ", ".join(UNIT_ECHO[k] for k in o.kinds)


def _close(o: m.ClosePassage) -> str:
    verb = "CLOSE" if o.close else "OPEN"
    return f"{verb} {name(o.passage)}" + (f" TO {names(o.nations)}" if o.nations else "")


def _subwar(o: m.SubWarfare) -> str:
    if o.retract:
        return "RETRACT UNRESTRICTED SUBMARINE WARFARE"
    return f"UNRESTRICTED SUBMARINE WARFARE AGAINST {name(side(o.target))}"


FORMATS: dict[type, Callable[..., str]] = {
    m.Note: lambda o: f"NOTE {o.text}".rstrip(),
    m.Deploy: lambda o: f"DEPLOY {units(o.units)} AT {name(o.place)}",
    m.DeclareWar: lambda o: f"DECLARE WAR ON {name(o.target)}",
    m.Influence: lambda o: f"INFLUENCE {name(o.target)}" + (f" TOWARD {side(o.toward)}" if o.toward else ""),
    m.OfferSurrender: lambda o: "OFFER SURRENDER" + (f" TO {names(o.to)}" if o.to else ""),
    m.SurrenderVote: lambda o: f"{'ACCEPT' if o.accept else 'REFUSE'} SURRENDER OF {name(o.nation)}",
    m.ClosePassage: _close,
    m.SubWarfare: _subwar,
    m.Blockade: lambda o: f"BLOCKADE {'US TRADE TO ' if o.us_trade else ''}{name(o.target)}",
    m.SpecialOption: _option,
    m.GearUp: lambda o: "GEAR UP",
    m.CoaxItaly: lambda o: "COAX Italy",
    m.JoinSide: lambda o: f"JOIN {side(o.side)}",
    m.Peace: lambda o: f"PEACE WITH {name(o.nation)}",
    m.Gift: lambda o: f"GIFT {o.amount} TO {name(o.to)}",
    m.Exile: lambda o: f"GOVERNMENT IN EXILE WITH {name(o.host)}",
    m.Research: lambda o: f"RESEARCH {tech(o.tech)}",
    m.Upgrade: lambda o: f"UPGRADE {UNIT_ECHO[o.kind]}",
    m.Build: lambda o: f"BUILD {o.count} {UNIT_ECHO[o.kind]} AT {name(o.place)}",
    m.BuildTrench: lambda o: f"BUILD 1 {'supertrench' if o.super else 'trench'} AT {name(o.protect)} FACING {name(o.facing)}",
    m.BuildHomeTrenches: lambda o: f"BUILD 1 hometrenches AT {name(o.city)}",
    m.BuildShipGear: _build_gear,
    m.Espionage: _espionage,
    m.CounterEspionage: _counter,
    m.Recon: lambda o: f"RECON {units(o.units)} FROM {name(o.origin)} TO {name(o.target)}",
    m.Repair: lambda o: f"REPAIR {o.count} {UNIT_ECHO[o.kind]} AT {name(o.place)}",
    m.Bombing: lambda o: f"BOMB {o.aim.upper()} {units(o.units)} FROM {name(o.origin)} TO {name(o.target)}",
    m.Rebase: lambda o: f"REBASE {units(o.units)} FROM {name(o.origin)} TO {name(o.dest)}",
    m.StrategicMove: lambda o: f"STRATEGIC MOVE {units(o.units)} FROM {name(o.origin)} TO {name(o.dest)}",
    m.Move: lambda o: f"MOVE {units(o.units)} FROM {name(o.origin)} TO {name(o.dest)}",
    m.Attack: lambda o: f"ATTACK {units(o.units)} FROM {name(o.origin)} TO {name(o.dest)}",
    m.CombatCondition: _condition,
    m.CasualtyOrder: _casualties,
    m.ArtillerySupport: lambda o: f"SUPPORT {o.count} art FROM {name(o.origin)} TO {name(o.dest)}",
    m.Breakthrough: lambda o: f"BREAKTHROUGH {o.count} tank FROM {name(o.origin)} TO {name(o.dest)}",
    m.LetPass: lambda o: f"LET THROUGH AT {name(o.place)}",
    m.AirRetreat: lambda o: _condition(m.CombatCondition(o.place, o.kind, o.value)).replace(
        "WITHDRAW FROM", "BREAK OFF AIR COMBAT AT", 1),
    m.DefendWith: lambda o: f"DEFEND WITH {o.kind.upper()} AT {name(o.place)}",
    m.RocketFire: lambda o: f"FIRE {o.aim.upper()} {o.count} rkt FROM {name(o.origin)} AT {name(o.target)}",
    m.TaskForce: lambda o: f"TF {o.name} AT {name(o.location)}: {units(o.units)}",
    m.TaskForceMission: _mission,
    m.SubDetection: _detect,
    m.SubInterception: lambda o: (f"INTERCEPT WITH {o.count} ss IN {name(o.zone)} AGAINST "
                                  + (f"TF {o.tf} OF {name(o.tf_nation or '')}" if o.tf else o.target)),
    m.NavalInvasion: lambda o: f"INVADE {units(o.units)} FROM {name(o.origin)} TO {name(o.dest)}",
    m.Plunder: lambda o: f"PLUNDER {o.kind.upper()} AT {name(o.place)}",
    m.Incorporate: lambda o: f"INCORPORATE {name(o.territory)}",
    m.Transfer: lambda o: f"TRANSFER {o.amount} FROM {name(o.origin)} TO {name(o.dest)}",
}


def nation_word(scenario: Scenario, nid: str) -> str:
    """How orders name nation `nid`: its short name ("Austria-Hungary", "Belgium", "USA"),
    the alias spelt like its id, else the id in capitals; the full name only if neither
    reads back as the nation."""
    from moderator.engine.names import nation_id

    n = scenario.nations.get(nid)
    if n is None:
        return nid
    word = next((a for a in n.aliases if fold(a) == fold(nid)), " ".join(p.capitalize() for p in nid.split("-")))
    return word if nation_id(scenario, word) == nid else n.name


def nation_words(scenario: Scenario) -> Callable[[str], str]:
    return lambda nid: nation_word(scenario, nid)


def with_names(order: m.Order, nations: Callable[[str], str]) -> m.Order:
    """The order with each nation id replaced by the word `nations` gives for it."""
    changes: dict[str, Any] = {}
    for f in fields(order):
        ref, value = f.metadata.get("ref"), getattr(order, f.name)
        if value is None:
            continue
        if ref == "nation":
            changes[f.name] = nations(value)
        elif ref == "nations":
            changes[f.name] = tuple(nations(v) for v in value)
    return replace(order, **changes) if changes else order


def normalize_order(order: m.Order, nations: Callable[[str], str] | None = None) -> str:
    if nations is not None:
        order = with_names(order, nations)
    fmt = FORMATS.get(type(order))
    return fmt(order) if fmt else f"NOTE unprintable order {type(order).__name__}"


def normalize(orders: Iterable[m.Order], header: Header | None = None,
              nations: Callable[[str], str] | None = None) -> str:
    """The canonical text of `orders` (and of the header, secret masked); nations named
    by `nations` (nation id -> word) when given."""
    lines: list[str] = []
    if header is not None:
        if header.game:
            lines.append(f"GAME {header.game}")
        if header.nation:
            lines.append(f"NATION {name(header.nation)}")
        if header.turn is not None:
            lines.append(f"TURN {header.turn}")
        if header.secret:
            lines.append("PASSWORD ******")
    lines.extend(normalize_order(o, nations) for o in orders)
    return "\n".join(lines) + ("\n" if lines else "")
