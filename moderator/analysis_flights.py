"""`moderator odds --raid AIM` and `moderator odds --rebase`: a bombing raid (4.1.1) and a
rebasing flight over enemy land (4.1.2), flown by the engine (engine/flight_odds.py).

    moderator odds --raid industry --attacker germany --attack "3 bmb" --defender britain \
        --defend "2 ftr, 1 aa" [--air-distance N] [--home N] [--on-the-way "1 aa; 1 ftr"] \
        [--attacker-tech "bombers 2"] [--defender-tech ...] [--let-through] [--radar] \
        [--break-off-after N] [--break-off-losses N] [--break-off-kills N] [--saved N] [--json]
    moderator odds --rebase --attacker germany --attack "2 ftr" --defender russia \
        --air-distance 3 --on-the-way "1 aa; 1 ftr" [--attacker-tech "fighters 2"] ...

A raid: --raid industry (an industrial complex: 1D10 of the target nation's saved
resources a bomber through, at most --saved N, all of it if not given), city (1 manpower
a bomber through, at most --manpower N) or tactical (1 strike point a plane through;
three or more give the infantry attacking there +1 that turn). --defend names the
fighters and AA guns at the target: the guns fire once at the planes entering, then the
fighters intercept (4.5, Anti Air Guns). --air-distance N: the moves to the target (1:
next door), --home N: from the target back to friendly land (default: the way out);
--on-the-way: the guarded places between, in order, as for a land attack. A rebase: its
aircraft fly --air-distance moves to friendly land, over --air-distance - 1 places of the
defender (double fuel, 4.1.2), guarded as --on-the-way says; those that get through land
there in Phase 7, the others turn back to the start or are downed. The order is checked
as the engine checks it (fuel, range, technology) and refused with its reason.
"""

from __future__ import annotations

import argparse

from moderator.engine.flight_odds import FlightOdds, flight_odds
from moderator.engine.state import AIR_UNITS
from moderator.orders.messages import counted, units_word

OTHER_BATTLES = ("territory", "city", "strait", "beach", "trench", "super_trench", "strike", "support",
                 "support_one_round", "disengage_after", "disengage_losses", "rounds", "free", "aa",
                 "carrier_fighters", "cover", "radar_ships", "radar_retreat", "attacker_deck", "defender_deck", "sonar")
AIM_TEXT = {"industry": "industrial bombing of an industrial complex (saved resources)",
            "city": "industrial bombing of a city (manpower)", "tactical": "tactical bombing"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The raid's and the rebase's options of `moderator odds`."""
    flight = p.add_mutually_exclusive_group()
    flight.add_argument("--raid", choices=tuple(AIM_TEXT),
                        help="a bombing raid (4.1.1) on a target of the defender guarded by --defend's fighters "
                             "and AA guns")
    flight.add_argument("--rebase", action="store_true",
                        help="a rebasing flight (4.1.2) over --air-distance - 1 places of the defender")
    p.add_argument("--saved", type=int, help="with --raid industry: the target nation's saved resources (the most "
                                             "it can lose)")
    p.add_argument("--manpower", type=int, help="with --raid city: the target nation's manpower (the most it can lose)")


def flying(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "raid", None) or getattr(args, "rebase", False))


def compute(args: argparse.Namespace) -> tuple[FlightOdds, dict[str, object]]:
    from moderator.analysis_commands import (
        _nation,
        _way,
        break_off_conditions,
        parse_tech,
        parse_units,
        progress_bar,
    )
    from moderator.world.scenario import load_scenario

    scenario = load_scenario(args.scenario)
    attacker, defender = _nation(scenario, args.attacker), _nation(scenario, args.defender)
    mission = "rebase" if args.rebase else args.raid
    for name in OTHER_BATTLES:  # options of a land or naval battle: nothing to do with a flight
        if getattr(args, name, None):
            raise ValueError(f"--{name.replace('_', '-')} is for a battle, not a raid or a rebase")
    attack = parse_units(args.attack, refuse=_not_a_plane)
    defend = parse_units(args.defend, refuse=_not_a_guard)
    if mission == "rebase" and defend:
        raise ValueError("a rebase lands on friendly land: nothing defends it; give the guards on the way "
                         "(--on-the-way)")
    for flag, value in (("--saved", args.saved), ("--manpower", args.manpower)):
        if value is not None and value < 0:
            raise ValueError(f"{flag} is at least 0")
    if args.saved is not None and mission != "industry":
        raise ValueError("--saved is for --raid industry")
    if args.manpower is not None and mission != "city":
        raise ValueError("--manpower is for --raid city")
    distance = args.air_distance
    way = _way(args, distance)
    tech = {n: levels for n, levels in ((attacker, parse_tech(args.attacker_tech)),
                                        (defender, parse_tech(args.defender_tech))) if levels}
    break_off = break_off_conditions(args)
    home = None if mission == "rebase" else args.home
    odds = flight_odds(scenario, attacker, attack, defender, mission=mission, defend=defend, distance=distance,
                       home=home, way=way, tech=tech, let_through=bool(args.let_through), break_off=break_off,
                       radar=bool(args.radar), saved=args.saved, manpower=args.manpower,
                       progress=progress_bar("flying it", args))
    battle = {"mission": mission, "attacker": attacker, "attack": attack, "defender": defender, "defend": defend,
              "air_distance": distance, "home": home if home is not None else (None if mission == "rebase" else distance),
              "on_the_way": [{"fighters": g.fighters, "aa": g.aa} for g in way],
              "tech": {n: dict(sorted(levels.items())) for n, levels in sorted(tech.items())},
              "let_through": bool(args.let_through), "break_off": [f"{kind}:{value}" for kind, value in break_off],
              "radar": bool(args.radar), "saved": args.saved, "manpower": args.manpower}
    return odds, battle


def _not_a_plane(kind: str) -> str | None:
    return None if kind in AIR_UNITS else f"{units_word(kind)} do not fly: raids and rebases are flown by aircraft (4.1)"


def _not_a_guard(kind: str) -> str | None:
    if kind not in ("fighter", "aa"):
        return f"{units_word(kind)} do not fight aircraft: a raid's target is guarded by fighters and AA guns (4.5, Anti Air Guns)"
    return None


def render(odds: FlightOdds, battle: dict[str, object]) -> str:
    from moderator.analysis_commands import _listed, _tech_text, _units_text, _way_text

    rebasing = battle["mission"] == "rebase"
    moves = battle["air_distance"]
    assert isinstance(moves, int)
    title = (f"Rebasing flight (4.1.2) of {battle['attacker']}: {_units_text(battle['attack'])}, "
             f"{counted(moves, 'move')} to friendly land over {battle['defender']}'s") if rebasing else \
        (f"Bombing raid (4.1.1), {AIM_TEXT[str(battle['mission'])]}: {battle['attacker']}'s "
         f"{_units_text(battle['attack'])} on {battle['defender']}, {counted(moves, 'move')} there, "
         f"{battle['home']} back to friendly land")
    lines = [title + ":"]
    if not rebasing:
        lines.append(f"  at the target: {_units_text(battle['defend'])}"
                     + (", a radar (the planes -1 in air combat)" if battle.get("radar") else ""))
    if battle.get("on_the_way"):
        lines.append(f"  on the way: {_way_text(battle['on_the_way'])}")
    for text, on in (("the defender's fighters let the planes through (no air combat)", battle.get("let_through")),
                     (f"the planes break off air combat at {_listed(battle.get('break_off'))}",
                      battle.get("break_off")),
                     (f"technology {_tech_text(battle.get('tech'))}", battle.get("tech"))):
        if on:
            lines.append(f"  {text}")
    word = "arriving" if rebasing else "over the target"
    lines += ["", f"  each plane {word}: {odds.each_through:7.2%}; all {odds.planes}: {odds.all_through:7.2%}",
              f"  planes {word}:"]
    lines += [f"    {k:>3} {p:7.2%} {'#' * round(p * 40)}" for k, p in sorted(odds.through.items()) if p >= 0.0005]
    lines += ["", f"  expected: downed {odds.lost:.2f} (by AA guns {odds.aa_downed:.2f}), turned back for fuel "
                  f"{odds.turned_back:.2f}, broke off {odds.broke_off:.2f}; interceptors downed "
                  f"{odds.interceptors_lost:.2f}; air-combat rounds {odds.rounds:.2f}"]
    if rebasing:
        lines.append("  the planes turned back or broken off return to the start (Phase 7)")
    elif battle["mission"] == "industry":
        cap = f"at most the {battle['saved']} saved" if battle.get("saved") is not None else "1D10 a bomber through"
        lines.append(f"  expected damage: {odds.damage:.2f} saved resources ({cap})")
    elif battle["mission"] == "city":
        cap = f"at most {battle['manpower']}" if battle.get("manpower") is not None else "1 a bomber through"
        lines.append(f"  expected damage: {odds.damage:.2f} manpower ({cap})")
    else:
        lines.append(f"  expected strike points: {odds.damage:.2f}; three or more (attacking infantry +1): "
                     f"{odds.strike_bonus:.2%}")
    spread = 2 * (0.25 / odds.samples) ** 0.5
    lines += ["", f"  simulated: the engine flew this {'rebase' if rebasing else 'raid'} {odds.samples} times with "
                  f"fixed dice; each chance is within about {spread:.1%}"]
    return "\n".join(lines)
