"""`moderator odds --sea`: exact odds of a naval battle between two task forces (4.2-4.3).

    moderator odds --sea --attacker britain --attack "2 bb, 4 dd" --defender germany \
        --defend "1 bb, 2 dd, 3 tr" [--mission patrol] [--defend-mission transport] [--free] [--rounds N] \
        [--attacker-tech "battleships 3"] [--defender-tech ...] [--json]

The attacking task force sighted the defending one (4.2) and fights with its attack
values; the defenders fight with their defense values, or with their attack values too
when their own mission is aggressive (patrol, blockade, bombard). --mission bombard: the
attackers' battleships fire at 25% in the first round (4.2.3); --defend-mission transport:
the defenders cannot fire in the first round (4.2.1). --free: the attackers fire a free
round first (submarines attacking, 4.3 note; an escort intercepting, 4.2.2). After every
round the sides that sought the battle roll to keep contact; --rounds N: the attackers
withdraw after N rounds. The numbers are exact (moderator.engine.naval_odds), computed
with the engine's own naval combat code.
"""

from __future__ import annotations

import argparse

from moderator.engine.naval_odds import NavalOdds, naval_odds_for
from moderator.engine.state import SEA_UNITS
from moderator.orders.vocab import UNIT_ECHO

MISSIONS = ("patrol", "blockade", "bombard", "escort", "move", "transport", "carrier", "dock", "intercept")
OUTCOME_TEXT = {
    "defenders_sunk": "every defending ship sunk",
    "attackers_sunk": "every attacking ship sunk",
    "both_sunk": "both sides sunk",
    "contact_lost": "contact lost, both afloat (4.2)",
    "withdrawn": "attackers withdrew (--rounds)",
    "round_limit": "the engine's round limit",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The naval options of `moderator odds` (--attack and --defend then name ships)."""
    p.add_argument("--sea", action="store_true", help="a naval battle between task forces (4.3): ships in "
                   "--attack and --defend")
    p.add_argument("--mission", choices=MISSIONS, default="patrol",
                   help="with --sea: the attacking task force's mission (default patrol)")
    p.add_argument("--defend-mission", choices=MISSIONS, default="move",
                   help="with --sea: the defending task force's mission (default move; an aggressive one "
                        "fights with attack values)")
    p.add_argument("--free", action="store_true",
                   help="with --sea: the attackers fire a free round first (subs attacking, an escort intercepting)")


def parse_ships(text: str) -> dict[str, int]:
    """'2 bb, 4 dd' -> {'battleship': 2, 'cruiser': 4} ("dd": destroyers are cruisers here)."""
    from moderator.analysis_commands import parse_units

    return parse_units(text, refuse=_not_a_ship)


def _not_a_ship(kind: str) -> str | None:
    if kind not in SEA_UNITS:
        return f"{kind} is not a ship: a naval battle (--sea) is fought by ships (4.3)"
    return None


def compute(args: argparse.Namespace) -> tuple[NavalOdds, dict[str, object]]:
    from moderator.analysis_commands import _nation, parse_tech
    from moderator.world.scenario import load_scenario

    scenario = load_scenario(args.scenario)
    attacker, defender = _nation(scenario, args.attacker), _nation(scenario, args.defender)
    attack, defend = parse_ships(args.attack), parse_ships(args.defend)
    if not attack or not defend:
        raise ValueError("a naval battle needs ships on both sides")
    if args.rounds is not None and args.rounds < 1:
        raise ValueError("--rounds is at least 1")
    tech = {n: levels for n, levels in ((attacker, parse_tech(getattr(args, "attacker_tech", ""))),
                                        (defender, parse_tech(getattr(args, "defender_tech", "")))) if levels}
    odds = naval_odds_for(scenario, attacker, attack, defender, defend, attack_mission=args.mission,
                          defend_mission=args.defend_mission, free="attacker" if args.free else None,
                          max_rounds=args.rounds, tech=tech)
    battle = {"sea": True, "attacker": attacker, "attack": attack, "mission": args.mission,
              "defender": defender, "defend": defend, "defend_mission": args.defend_mission,
              "free": bool(args.free), "max_rounds": args.rounds,
              "tech": {n: dict(sorted(levels.items())) for n, levels in sorted(tech.items())}}
    return odds, battle


# The rules' names of the ships (4.2's table: "Destroyers/cruisers (DD)" are one unit, the
# engine's "cruiser"), with the abbreviation a player types, so "4 dd" reads back as typed.
SHIP_NAMES = {"battleship": "battleship", "cruiser": "destroyer/cruiser", "transport": "transport",
              "carrier": "carrier", "submarine": "submarine"}


def _ships(units: object) -> str:
    assert isinstance(units, dict)
    return ", ".join(f"{n} {SHIP_NAMES.get(k, k)} ({UNIT_ECHO.get(k, k)})" for k, n in sorted(units.items()))


def render(odds: NavalOdds, battle: dict[str, object]) -> str:
    lines = [
        "Naval battle" + (" (the attackers fire a free round first)" if battle["free"] else "") + ":",
        f"  {battle['attacker']}: {_ships(battle['attack'])} ({battle['mission']})",
        f"  against {battle['defender']}: {_ships(battle['defend'])} ({battle['defend_mission']})",
    ]
    if battle.get("tech"):
        from moderator.analysis_commands import _tech_text

        lines.append(f"  technology {_tech_text(battle['tech'])}")
    lines.append("")
    lines += [f"  {OUTCOME_TEXT[k]:<40} {p:7.2%}" for k, p in odds.outcomes.items() if p >= 0.00005 or k in (
        "defenders_sunk", "attackers_sunk", "contact_lost")]
    lines += [
        "",
        f"  expected ships sunk: attacker {odds.attacker_losses:.2f} of {odds.attackers}, "
        f"defender {odds.defender_losses:.2f} of {odds.defenders}",
        f"  expected ships damaged afloat: attacker {odds.attacker_damaged:.2f}, defender {odds.defender_damaged:.2f}",
        f"  rounds: mean {odds.expected_rounds:.2f}",
    ]
    shown = [(r, p) for r, p in sorted(odds.rounds.items()) if p >= 0.0005]
    lines += [f"    {r:>3} {p:7.2%} {'#' * round(p * 40)}" for r, p in shown]
    return "\n".join(lines)
