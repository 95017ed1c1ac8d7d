"""What a nation knows of the neutrals (Neutrals, Phase 1.2 Diplomacy, 3.2.1.1 Neutral
nation espionage).

The rules let a nation know:
* every minor neutral's starting stand, "written in National Standings page" (public):
  Central Power camp (-10), favourable to the Central Powers (-5), completely neutral (0),
  favourable to the Allies (+5), Allied Power camp (+10); and which minors can be
  influenced only on a 10 (the rules' * nations) or not at all;
* a minor's current points only through its own espionage: "reveal current status of a
  minor neutral nation" (3.2.1.1, the `spied-neutral` event);
* of a major neutral never the points: espionage reveals only "the affiliation of major
  neutral's government" (`spied-affiliation`);
* whether its own influence attempts succeeded (`influence-attempt`: never the points).
Who is still neutral is public (the camps). Everything here comes from the scenario's
public table, the public camps and the events the nation itself may see, so the section
tells nothing its reader's visibility does not allow (tests/test_report_secrets.py).
Reading: a report tells what this turn's espionage learned; what earlier turns learned is
in the earlier reports (the engine keeps no record of it between turns).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from moderator.engine.events import Event
from moderator.world.scenario_model import Scenario

STANDS = {-10: "in the Central Power camp", -5: "favourable to the Central Powers", 0: "completely neutral",
          5: "favourable to the Allies", 10: "in the Allied Power camp"}


def stand_words(standing: int) -> str:
    """A starting stand in the rules' words (Phase 1.2's five stands)."""
    return STANDS.get(standing, f"at {signed(standing)}")


def signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _leaning(side: str | None) -> str:
    return {"allied": "towards the Allied Powers", "central": "towards the Central Powers"}.get(side or "",
                                                                                              "to neither side")


@dataclass
class NeutralKnown:
    """One neutral as a nation knows it."""

    nation: str
    name: str
    kind: str  # "major" | "minor" | "dominion"
    start: int | None  # a minor's starting stand (public); None for a major or a dominion
    influence: str  # "any roll of 9 or 10", "only a 10", "none" (minors), "" (majors)
    leaning: str | None = None  # a major's leaning at the start, as the rules tell it (Italy: "allied")
    learned: list[str] = field(default_factory=list)  # what this turn's espionage and influence told


def neutrals_known(scenario: Scenario, sides: dict[str, str], events: Iterable[Event], reader: str,
                   names: Callable[[str], str]) -> list[NeutralKnown]:
    """Every neutral on the map but the reader, with what the reader knows of it."""
    learned: dict[str, list[str]] = {}
    for e in events:
        a = e.args
        if a.get("nation") != reader or not isinstance(a.get("target"), str):
            continue
        target = str(a["target"])
        if e.code == "spied-neutral":
            learned.setdefault(target, []).append(f"your agents saw its standing at {int(a['standing']):+d} this turn")
        elif e.code == "spied-affiliation":
            learned.setdefault(target, []).append(
                f"your agents report that its government leans {_leaning(str(a.get('leaning')))}")
        elif e.code == "influence-attempt":
            learned.setdefault(target, []).append(
                f"your influence attempt this turn {'succeeded' if a.get('success') else 'failed'}")
    out = []
    for nid, side in sorted(sides.items()):
        spec = scenario.nations.get(nid)
        if side != "neutral" or nid == reader or spec is None:
            continue
        minor = spec.kind == "minor"
        influence = ("" if not minor else "none" if spec.no_influence
                     else "only a 10" if spec.influence_on_ten_only else "any roll of 9 or 10")
        out.append(NeutralKnown(nid, names(nid), spec.kind, spec.standing if minor else None, influence,
                                None if minor else spec.leaning, learned.get(nid, [])))
    return sorted(out, key=lambda k: (k.kind != "major", k.name))


def _names(items: list[NeutralKnown]) -> str:
    return ", ".join(k.name for k in items)


def neutral_lines(known: list[NeutralKnown]) -> list[str]:
    """The section's lines: each major, and each neutral something was learned of, on its
    own line; the other minors grouped by their starting stand."""
    lines = []
    majors = [k for k in known if k.kind == "major"]
    if majors:
        lines.append("Major neutrals (their points are never revealed; espionage can tell only which side a "
                     "government leans to, 3.2.1.1): " + ", ".join(
                         k.name + (f" (leaning {_leaning(k.leaning)} at the start)" if k.leaning else "")
                         for k in majors) + ".")
    for k in known:
        if k.kind != "minor" and k.learned:
            lines.append(f"{k.name}: " + "; ".join(k.learned) + ".")
        elif k.learned and k.start is not None:
            lines.append(f"{k.name} (minor neutral, {stand_words(k.start)} ({signed(k.start)}) at the start): "
                         + "; ".join(k.learned) + ".")
    minors = [k for k in known if k.kind == "minor" and not k.learned and k.start is not None]
    for stand in sorted({k.start for k in minors if k.start is not None}):
        group = [k for k in minors if k.start == stand]
        words = stand_words(stand)
        lines.append(f"Minor neutrals {words} ({signed(stand)}) at the start (National Standings): {_names(group)}.")
    hard = [k for k in known if k.kind == "minor" and k.influence == "only a 10"]
    if hard:
        lines.append(f"Influence succeeds only on a 10 with: {_names(hard)}; "
                     "on a 9 or 10 with the other minors (Phase 1.2).")
    closed = [k for k in known if k.kind == "minor" and k.influence == "none"]
    if closed:
        lines.append(f"Cannot be influenced for now: {_names(closed)}.")
    return lines
