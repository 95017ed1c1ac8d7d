"""`moderator odds --sea`: exact odds of a naval battle between two task forces (4.2-4.3).

    moderator odds --sea --attacker britain --attack "2 bb, 4 dd" --defender germany \
        --defend "1 bb, 2 dd, 3 tr" [--mission patrol] [--defend-mission transport] [--free] [--rounds N] \
        [--attacker-tech "battleships 3"] [--defender-tech ...] [--json]
    moderator odds --sea --attacker britain --attack "3 ftr" --defender germany --defend "1 cv, 1 bb" \
        [--rounds N] [--aa N] [--carrier-fighters N] [--cover N [--cover-rounds N]] [--radar-ships N \
        [--radar-retreat]] [--let-through] [--break-off-after N] [--break-off-losses N] [--break-off-kills N]

The attacking task force sighted the defending one (4.2) and fights with its attack
values; the defenders fight with their defense values, or with their attack values too
when their own mission is aggressive (patrol, blockade, bombard). --mission bombard: the
attackers' battleships fire at 25% in the first round (4.2.3); --defend-mission transport:
the defenders cannot fire in the first round (4.2.1). --free: the attackers fire a free
round first (submarines attacking, 4.3 note; an escort intercepting, 4.2.2). After every
round the sides that sought the battle roll to keep contact; --rounds N: the attackers
withdraw after N rounds. The numbers are exact (moderator.engine.naval_odds), computed
with the engine's own naval combat code; a battle too large for that (some thirty ships a
side) is fought by the engine 2,000 times with fixed dice instead, with a progress bar,
and the answer says so (moderator.engine.naval_odds_sampled).

An air strike on ships (4.2-4.3; engine/phase4_air_sea.py): --attack names aircraft only
("2 ftr, 1 bmb"): the ships fire first (step 2), --aa N AA guns aboard them fire once
(step 3, Improved AA; 2 on battleships and carriers, 1 on cruisers and transports), the
aircraft fight the rounds their fuel pays (--rounds, default 1: a fighter of fuel 5) and
the ships fire once more as they leave (step 6). --carrier-fighters N and --cover N: the
defender's fighters aboard its carriers and sent from land as cover intercept first
(step 1, 4.5): that air combat is the engine's, sampled with fixed seeds
(engine/strike_odds.py), and with it the players' choices of 4.5 for the zone:
--let-through (the defender's LET THROUGH: no air combat, and its fighters stay out of
the rounds against the ships), --break-off-after N / --break-off-losses N /
--break-off-kills N (the attacker's BREAK OFF AIR COMBAT: after N air rounds / once more
than N strikers are down / once N interceptors are down, while interceptors remain, the
strikers fly home without striking).
"""

from __future__ import annotations

import argparse

from moderator.engine import naval_odds
from moderator.engine.naval_odds import NavalOdds, naval_odds_for
from moderator.engine.state import AIR_UNITS, SEA_UNITS
from moderator.orders.messages import counted, units_word
from moderator.orders.vocab import UNIT_ECHO

MISSIONS = ("patrol", "blockade", "bombard", "escort", "move", "transport", "carrier", "dock", "intercept")
OUTCOME_TEXT = {
    "defenders_sunk": "every defending ship sunk",
    "attackers_sunk": "every attacking ship sunk",
    "both_sunk": "both sides sunk",
    "contact_lost": "contact lost, both afloat (4.2)",
    "withdrawn": "attackers withdrew (--rounds)",
    "round_limit": "the engine's round limit",
    "evaded": "the defenders sailed away",
}


STRIKE_TEXT = {"attackers_sunk": "every aircraft downed", "withdrawn": "aircraft home, ships afloat (fuel)",
               "evaded": "the ships sailed away, warned by radar"}


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
    p.add_argument("--aa", type=int, default=0,
                   help="with --sea and aircraft attacking: the AA guns aboard the defending ships (4.3 step 3)")
    p.add_argument("--carrier-fighters", type=int, default=0,
                   help="with --sea and aircraft attacking: the defender's fighters aboard its carriers, "
                        "intercepting first (4.3 step 1)")
    p.add_argument("--cover", type=int, default=0,
                   help="with --sea and aircraft attacking: the defender's fighters sent from land as cover (4.2)")
    p.add_argument("--cover-rounds", type=int, default=1,
                   help="with --cover: the rounds of air combat the cover's fuel leaves (default 1)")
    p.add_argument("--radar-ships", type=int, default=0,
                   help="with --sea: the defending battleships and carriers carrying radar (Radar: aircraft -1)")
    p.add_argument("--radar-retreat", action="store_true",
                   help="with --sea and aircraft attacking: the defender withdraws when its radar warns "
                        "(WITHDRAW FROM <zone> IF RADAR WARNS)")
    p.add_argument("--attacker-deck", type=int, default=0,
                   help="with --sea and ships attacking: the attacker's fighters on deck of its carriers, fighting "
                        "with them (4.3 step 4)")
    p.add_argument("--defender-deck", type=int, default=0,
                   help="with --sea: the defender's fighters on deck of its carriers, fighting with them (4.3 step 4)")
    p.add_argument("--sonar", action="store_true",
                   help="with --sea: a defending ship carries sonar (Sonar: attacking submarines -1)")


def parse_ships(text: str, aircraft: bool = False) -> dict[str, int]:
    """'2 bb, 4 dd' -> {'battleship': 2, 'cruiser': 4} ("dd": destroyers are cruisers here);
    with `aircraft`, fighters and bombers too (an air strike on ships)."""
    from moderator.analysis_commands import parse_units

    return parse_units(text, refuse=_not_a_ship_or_plane if aircraft else _not_a_ship)


def _not_a_ship(kind: str) -> str | None:
    if kind not in SEA_UNITS:
        return f"{units_word(kind)} are not ships: a naval battle (--sea) is fought by ships (4.3)"
    return None


def _not_a_ship_or_plane(kind: str) -> str | None:
    return None if kind in AIR_UNITS else _not_a_ship(kind)


def compute(args: argparse.Namespace) -> tuple[NavalOdds, dict[str, object]]:
    from moderator.analysis_commands import WALKING, _nation, break_off_conditions, parse_tech, progress_bar
    from moderator.world.scenario import load_scenario

    scenario = load_scenario(args.scenario)
    attacker, defender = _nation(scenario, args.attacker), _nation(scenario, args.defender)
    attack, defend = parse_ships(args.attack, aircraft=True), parse_ships(args.defend)
    if not attack or not defend:
        raise ValueError("a naval battle needs ships on both sides")
    strike = set(attack) <= set(AIR_UNITS)
    if set(attack) & set(AIR_UNITS) and not strike:
        raise ValueError("aircraft strike ships alone (4.2: sent \"without any accompanying ships\"): "
                         "give --attack aircraft only, or ships only")
    radar_ships = args.radar_ships or (1 if getattr(args, "radar", False) else 0)  # --radar: one radar ship
    break_off = break_off_conditions(args)
    let_through = bool(getattr(args, "let_through", False))
    for flag, used in (("--aa", args.aa), ("--carrier-fighters", args.carrier_fighters), ("--cover", args.cover),
                       ("--radar-retreat", args.radar_retreat), ("--let-through", let_through),
                       ("--break-off-after/-losses/-kills", break_off)):
        if used and not strike:
            raise ValueError(f"{flag}: for aircraft striking ships (4.3 steps 1-3, 4.5, Radar): --attack names "
                             "aircraft")
    for flag, value in (("--aa", args.aa), ("--carrier-fighters", args.carrier_fighters), ("--cover", args.cover),
                        ("--radar-ships", radar_ships)):
        if value < 0:
            raise ValueError(f"{flag} is at least 0")
    if args.cover_rounds < 1:
        raise ValueError("--cover-rounds is at least 1")
    if args.radar_retreat and not radar_ships:
        raise ValueError("--radar-retreat needs --radar-ships N: the radar aboard warns the ships")
    if args.rounds is not None and args.rounds < 1:
        raise ValueError("--rounds is at least 1")
    tech = {n: levels for n, levels in ((attacker, parse_tech(getattr(args, "attacker_tech", ""))),
                                        (defender, parse_tech(getattr(args, "defender_tech", "")))) if levels}
    walk = None if strike else progress_bar(WALKING, args)
    odds = naval_odds_for(scenario, attacker, attack, defender, defend, attack_mission=args.mission,
                          defend_mission=args.defend_mission, free="attacker" if args.free else None,
                          max_rounds=args.rounds, tech=tech, aa=args.aa, radar_ships=radar_ships, sonar=args.sonar,
                          **({"attack_deck": args.attacker_deck, "defend_deck": args.defender_deck}
                             if args.attacker_deck or args.defender_deck else {}),
                          **({"carrier_fighters": args.carrier_fighters, "cover": args.cover,
                              "cover_rounds": args.cover_rounds, "radar_retreat": args.radar_retreat,
                              "let_through": let_through, "break_off": break_off}
                             if strike else {"budget": naval_odds.step_budget(
                                 sum(attack.values()) + sum(defend.values()) + args.attacker_deck + args.defender_deck)}),
                          progress=progress_bar("the air combat before the strike" if strike else "rolling the battle",
                                                args), walking=walk)
    if walk:
        walk(1, 1)  # the walk's bar closes (it runs towards the most the walk may take)
    battle = {"sea": True, "attacker": attacker, "attack": attack, "mission": args.mission,
              "defender": defender, "defend": defend, "defend_mission": args.defend_mission,
              "free": bool(args.free), "max_rounds": args.rounds, "strike": strike, "aa": args.aa,
              "carrier_fighters": args.carrier_fighters, "cover": args.cover,
              "cover_rounds": args.cover_rounds if args.cover else None, "radar_ships": radar_ships,
              "radar_retreat": bool(args.radar_retreat), "sonar": bool(args.sonar),
              "let_through": let_through, "break_off": [f"{kind}:{value}" for kind, value in break_off],
              "attacker_deck": args.attacker_deck, "defender_deck": args.defender_deck,
              "tech": {n: dict(sorted(levels.items())) for n, levels in sorted(tech.items())}}
    return odds, battle


# The rules' names of the ships (4.2's table: "Destroyers/cruisers (DD)" are one unit, the
# engine's "cruiser"), with the abbreviation a player types, so "4 dd" reads back as typed.
SHIP_NAMES = {"battleship": "battleship", "cruiser": "destroyer/cruiser", "transport": "transport",
              "carrier": "carrier", "submarine": "submarine", "fighter": "fighter", "bomber": "bomber"}
SHIPS_NAMES = {"cruiser": "destroyers/cruisers"}  # the plurals that are not the name + "s"


def _ships(units: object) -> str:
    assert isinstance(units, dict)
    kinds: list[tuple[str, int]] = sorted(units.items())
    return ", ".join(f"{counted(n, SHIP_NAMES.get(k, k), SHIPS_NAMES.get(k))} ({UNIT_ECHO.get(k, k)})" for k, n in kinds)


def _count(n: object, word: str) -> str:
    """A count the battle dict holds (an int once the flag is given) with its word."""
    return counted(int(n), word) if isinstance(n, int) else f"{n} {word}s"


def render(odds: NavalOdds, battle: dict[str, object]) -> str:
    from moderator.analysis_commands import _listed
    strike = bool(battle.get("strike"))
    title = ("Air strike on ships (the ships fire first" + (f", {_count(battle['aa'], 'AA gun')} aboard" if battle.get("aa") else "")
             + f"; {_count(battle['max_rounds'] or 1, 'round')} of fuel)") if strike else \
        "Naval battle" + (" (the attackers fire a free round first)" if battle["free"] else "")
    extras = [text for text, on in (
        (f"{_count(battle.get('carrier_fighters'), 'fighter')} aboard the carriers, intercepting first", battle.get("carrier_fighters")),
        (f"{_count(battle.get('cover'), 'fighter')} of cover from land, intercepting first, "
         f"{_count(battle.get('cover_rounds'), 'round')} of fuel", battle.get("cover")),
        (f"radar aboard {_count(battle.get('radar_ships'), 'ship')}: aircraft -1", battle.get("radar_ships")),
        ("the ships withdraw when the radar warns", battle.get("radar_retreat")),
        ("the defender's fighters let the aircraft through (no air combat)", battle.get("let_through")),
        (f"the aircraft break off the air combat at {_listed(battle.get('break_off'))}",
         battle.get("break_off")),
        ("sonar aboard: attacking submarines -1", battle.get("sonar")),
        (f"{_count(battle.get('attacker_deck'), 'attacking fighter')} on deck, fighting with the carriers",
         battle.get("attacker_deck")),
        (f"{_count(battle.get('defender_deck'), 'defending fighter')} on deck, fighting with the carriers",
         battle.get("defender_deck"))) if on]
    lines = [
        title + ":",
        f"  {battle['attacker']}: {_ships(battle['attack'])}" + ("" if strike else f" ({battle['mission']})"),
        f"  against {battle['defender']}: {_ships(battle['defend'])} ({battle['defend_mission']})",
    ]
    lines += [f"  {text}" for text in extras]
    if battle.get("tech"):
        from moderator.analysis_commands import _tech_text

        lines.append(f"  technology {_tech_text(battle['tech'])}")
    lines.append("")
    texts = {**OUTCOME_TEXT, **(STRIKE_TEXT if strike else {})}
    lines += [f"  {texts[k]:<40} {p:7.2%}" for k, p in odds.outcomes.items() if p >= 0.00005 or k in (
        "defenders_sunk", "attackers_sunk", "contact_lost")]
    lines += [
        "",
        (f"  expected aircraft downed {odds.attacker_losses:.2f} of {odds.attackers}, "
         f"ships sunk {odds.defender_losses:.2f} of {odds.defenders}") if strike else
        (f"  expected ships sunk: attacker {odds.attacker_losses:.2f} of {odds.attackers}, "
         f"defender {odds.defender_losses:.2f} of {odds.defenders}"),
        f"  expected ships damaged afloat: attacker {odds.attacker_damaged:.2f}, defender {odds.defender_damaged:.2f}",
        *([f"  expected defending fighters downed: {odds.defender_planes_lost:.2f}"] if odds.defender_planes_lost else []),
        f"  rounds: mean {odds.expected_rounds:.2f}",
    ]
    shown = [(r, p) for r, p in sorted(odds.rounds.items()) if p >= 0.0005]
    lines += [f"    {r:>3} {p:7.2%} {'#' * round(p * 40)}" for r, p in shown]
    if odds.samples:  # too large to walk exactly: the engine's battle rolled (naval_odds_sampled.py)
        spread = 2 * (0.25 / odds.samples) ** 0.5  # two standard errors of a share, at its widest (50%)
        lines += ["", f"  simulated: too large to work out exactly, so the engine fought this battle "
                      f"{odds.samples} times with fixed dice; each chance is within about {spread:.1%}"]
    return "\n".join(lines)
