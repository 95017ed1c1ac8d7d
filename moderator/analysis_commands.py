"""Analysis verbs for players and the moderator: `moderator odds`.

    moderator odds --attacker germany --attack "6 inf, 2 art" --defender france \
        --defend "4 inf" [--territory Verdun] [--city] [--strait] [--beach] [--trench | --super-trench]
        [--air-distance N [--home N]] [--strike] [--support N [--support-one-round]] [--rounds N]
        [--attacker-tech "fighters 2, weapons 1"] [--defender-tech ...]
        [--disengage-after N] [--disengage-losses N] [--let-through]
        [--break-off-after N] [--break-off-losses N] [--break-off-kills N] [--radar] [--intercepted N]
        [--on-the-way "1 ftr, 1 aa; 2 ftr"] [--json]

Unit statistics come from the scenario (Scenario.stats, per nation); --territory takes a
real map name (aliases and any capitalisation work) and brings its city and special
terrain (Phase 4.6, Cities; terrain.py). --trench / --super-trench: the defender's trench
faces the attackers (Trenches; tanks help the infantry, aircraft take -3, or stay out behind
a super trench); AA guns among the defenders fire first at aircraft; aircraft fight the
rounds their fuel allows (--air-distance: fuel spent to get there, 1 from next door;
--home: fuel from the territory to the nearest friendly land, where they come down after
the battle, 1 by default: friendly land next door, as the start is from next door) and an
attack by aircraft alone meets defenders at -3 unless AA or a trench (Fighters); the
defenders' fighters intercept attacking aircraft in air combat first (4.5). --strike:
three tactical strike points on the territory give attacking infantry +1 (4.1.1).
--support N: N artillery of the defender next door protect the territory (Artillery:
SUPPORT, with their attack value, never a casualty); --support-one-round: their own home
is attacked by land too, so they support one round and go home. --attacker-tech and
--defender-tech: technology levels ("Improved Fighters 2": the fighter table of 4.5 and
the fuel; "weapons 1": infantry values), the scenario's start levels otherwise.
--disengage-after N / --disengage-losses N: the defenders disengage after N rounds / when
their losses exceed N (4.6), their infantry, tanks and aircraft leaving for a friendly
neighbour. --let-through: the defender's fighters let the attacking aircraft go (4.5);
--break-off-after N / --break-off-losses N / --break-off-kills N: the attacking aircraft
leave the air combat after N rounds / when their losses exceed N / once they have downed N
interceptors, while interceptors remain (4.5 step 3; with --sea, before a strike on ships).
--radar: a radar of the defender stands in the territory: the attacking aircraft have -1
in the air combat and on the ground (Radar). --intercepted N: N fighters of the defender
intercept the attacking aircraft over one place on their way (4.5; --air-distance 2 or
more): that air combat is the engine's, sampled with fixed seeds; the battle's odds are
exact for each of its outcomes (engine/odds_on_the_way.py). --on-the-way "1 ftr, 1 aa; 2 ftr":
the places the aircraft fly over before the target, in order, separated by ";", each with
the defender's fighters and AA guns there (the guns fire first at the planes entering,
Anti Air Guns; then the fighters intercept, 4.5); as many places as --air-distance leaves
between (--air-distance 3: two). --intercepted N is --on-the-way "N ftr".
Aircraft that flew home for their fuel are reported apart: they do not hold
the field. The numbers are exact (moderator.engine.odds). --sea: a naval battle (moderator/analysis_naval.py).
--raid industry|city|tactical and --rebase: a bombing raid and a rebasing flight, flown by
the engine with fixed dice (moderator/analysis_flights.py).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from moderator import analysis_flights, analysis_naval
from moderator.engine import combat_land
from moderator.engine.names import nation_guesses
from moderator.engine.odds import STEP_BUDGET, Odds, odds_for
from moderator.engine.odds_on_the_way import Guarded, intercepted_odds
from moderator.engine.orders import move as move_order
from moderator.orders.checker import resolve_nation_id
from moderator.orders.messages import counted, units_word
from moderator.orders.vocab import LAND, TECH_INDEX, TECHNOLOGIES, UNIT_INDEX
from moderator.reports.render import count_units
from moderator.world.model import fold
from moderator.world.scenario_model import Scenario

OUTCOME_TEXT = {
    "captured": "attacker captures the territory",
    "cleared": "defenders destroyed, nothing left to capture",
    "both_destroyed": "both sides destroyed",
    "repulsed": "attackers destroyed",
    "stopped": "called off (artillery alone, fuel, --rounds, break off)",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the analysis verbs to the `moderator` command."""
    p = sub.add_parser("odds", help="battle odds: land (4.6), sea (--sea, 4.3), raids (--raid, 4.1.1), "
                                    "rebases (--rebase, 4.1.2)",
                       description="Probabilities of a battle from the engine's own combat code: exact (a Markov "
                                   "chain) for land and naval battles where the state space allows, else the "
                                   "engine's battle fought 2,000 times with fixed dice; bombing raids and rebasing "
                                   "flights are flown by the engine 2,000 times with fixed dice.")
    p.add_argument("--attacker", required=True, help="attacking nation (name or alias)")
    p.add_argument("--attack", required=True, help='attacking units, e.g. "6 inf, 2 art"')
    p.add_argument("--defender", required=True, help="defending nation, holder of the territory")
    p.add_argument("--defend", default="", help='defending units, e.g. "4 inf" (may be empty)')
    p.add_argument("--territory", help="the real territory attacked: brings its city and terrain")
    p.add_argument("--city", action="store_true", help="the territory has a city (implied by --territory)")
    p.add_argument("--strait", action="store_true", help="the attackers cross a strait (Straits)")
    p.add_argument("--beach", action="store_true",
                   help="the land units land from the sea: a naval invasion (4.6.1)")
    trench = p.add_mutually_exclusive_group()
    trench.add_argument("--trench", action="store_true", help="a trench of the defender faces the attackers")
    trench.add_argument("--super-trench", action="store_true", help="a super trench faces the attackers")
    p.add_argument("--air-distance", type=int, default=1,
                   help="fuel the aircraft spend to get there (default 1: from next door)")
    p.add_argument("--home", type=int,
                   help="fuel from the territory to the nearest friendly land where the aircraft come down "
                        "(default 1: friendly land next door; over the defender's land all the way: --air-distance; "
                        "with --raid the default is the way out)")
    p.add_argument("--strike", action="store_true",
                   help="three or more tactical strike points on the territory this turn: attacking infantry +1 (4.1.1)")
    p.add_argument("--support", type=int, default=0,
                   help="artillery of the defender next door supporting the territory (Artillery: SUPPORT)")
    p.add_argument("--support-one-round", action="store_true",
                   help="the supporting artillery's own home is attacked too: it supports one round (Artillery)")
    p.add_argument("--attacker-tech", default="", help='attacker\'s technology levels, e.g. "fighters 2, weapons 1"')
    p.add_argument("--defender-tech", default="", help="defender's technology levels")
    p.add_argument("--disengage-after", type=int, help="the defenders disengage after this many rounds (4.6)")
    p.add_argument("--disengage-losses", type=int, help="the defenders disengage when their losses exceed this")
    p.add_argument("--let-through", action="store_true",
                   help="the defender's fighters let the attacking aircraft go: no air combat (4.5; on land, "
                        "or with --sea over the ships)")
    p.add_argument("--break-off-after", type=int,
                   help="the attacking aircraft leave the air combat after N rounds (4.5; on land, or with --sea "
                        "over the ships: they fly home without striking)")
    p.add_argument("--break-off-losses", type=int,
                   help="the attacking aircraft leave the air combat when their losses exceed N (4.5; also --sea)")
    p.add_argument("--break-off-kills", type=int,
                   help="the attacking aircraft leave the air combat once they have downed N interceptors "
                        "(4.5; also --sea)")
    p.add_argument("--radar", action="store_true",
                   help="a radar of the defender in the territory: attacking aircraft -1 (Radar)")
    p.add_argument("--intercepted", type=int, default=0,
                   help="fighters of the defender intercepting the attacking aircraft on their way, over one "
                        "place between (4.5; needs --air-distance 2 or more; --on-the-way for more places and AA guns)")
    p.add_argument("--on-the-way", default="",
                   help='the guarded places the aircraft fly over, in order, e.g. "1 ftr, 1 aa; 2 ftr": the '
                        "defender's fighters and AA guns over each (4.5, Anti Air Guns; at most --air-distance - 1)")
    p.add_argument("--rounds", type=int, help="withdraw after this many rounds")
    p.add_argument("--scenario", default="1914", help="scenario for unit statistics (default 1914)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    analysis_naval.add_arguments(p)
    analysis_flights.add_arguments(p)
    p.set_defaults(func=run_odds)


def parse_units(text: str, refuse: Callable[[str], str | None] | None = None) -> dict[str, int]:
    """'6 inf, 2 art' -> {'infantry': 6, 'artillery': 2}; a bare word counts one unit.

    `refuse(kind)` says why a kind has no place in this battle (None: it has);
    by default only what fights in land combat (Phase 4.6) is taken.
    """
    refuse = refuse or _not_land_combat
    out: dict[str, int] = {}
    for piece in (p.strip() for p in re.split(r"[,;+]|\band\b", text)):
        if not piece:
            continue
        m = re.fullmatch(r"(\d+)?\s*(.+)", piece)
        kind = UNIT_INDEX.get(fold(m.group(2))) if m else None
        if m is None or kind is None:
            guesses = difflib.get_close_matches(fold(m.group(2) if m else piece), sorted(UNIT_INDEX), n=3, cutoff=0.6)
            kinds = sorted({UNIT_INDEX[g] for g in guesses})
            raise ValueError(f"not a unit: {piece!r}" + (f" (did you mean {' or '.join(kinds)}?)" if kinds else ""))
        why = refuse(kind)
        if why:
            raise ValueError(why)
        out[kind] = out.get(kind, 0) + int(m.group(1) or 1)
    return out


def _not_land_combat(kind: str) -> str | None:
    if kind not in LAND and kind not in ("fighter", "bomber"):
        return f"{units_word(kind)} do not fight in land combat (Phase 4.6)"
    return None


def parse_tech(text: str) -> dict[str, int]:
    """'fighters 2, Improved Weapons 1' -> {'improved_fighters': 2, 'improved_weapons': 1}."""
    out: dict[str, int] = {}
    for piece in (p.strip() for p in re.split(r"[,;+]", text)):
        if not piece:
            continue
        m = re.fullmatch(r"(.+?)\s+(\d+)", piece)
        tid = TECH_INDEX.get(fold(m.group(1))) if m else None
        if m is None or tid is None:
            raise ValueError(f"not a technology and level: {piece!r} (e.g. \"Improved Fighters 2\")")
        level, most = int(m.group(2)), TECHNOLOGIES[tid][1]
        if level > most:
            raise ValueError(f"{TECHNOLOGIES[tid][0]} has {most} advance{'s' if most != 1 else ''}, not {level}")
        out[tid] = level
    return out


def _check_attack(attack: dict[str, int], strait: bool) -> None:
    if not attack:
        raise ValueError("no attacking units")
    never = sorted(set(attack) & move_order.NEVER_ATTACK)
    if never:
        raise ValueError(f"{', '.join(map(units_word, never))} never attack (Anti Air Guns; rockets fire separately)")
    if strait and set(attack) - combat_land.STRAIT_ATTACKERS:
        raise ValueError("only infantry and artillery may attack across a strait (Straits)")


def compute(args: argparse.Namespace) -> tuple[Odds, dict[str, object]]:
    """The odds for parsed arguments, and a description of the battle for the output."""
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    scenario = load_scenario(args.scenario)
    attacker, defender = _nation(scenario, args.attacker), _nation(scenario, args.defender)
    attack, defend = parse_units(args.attack), parse_units(args.defend)
    _check_attack(attack, args.strait)
    if getattr(args, "support", 0) < 0:
        raise ValueError("--support is a number of artillery, 0 or more")
    territory, city = "", bool(args.city)
    world = None
    if args.territory:
        world = load_world(args.scenario, strict=False)
        name = world.resolve(args.territory)
        if name is None or not world.territories[name].is_land:
            hint = ", ".join(world.suggest(args.territory))
            raise ValueError(f"no land territory {args.territory!r}" + (f" (did you mean {hint}?)" if hint else ""))
        territory, city = name, city or world.territories[name].city
    trench = "super_trench" if getattr(args, "super_trench", False) else "trench" if getattr(args, "trench", False) else None
    distance = getattr(args, "air_distance", 1)
    tech = {n: levels for n, levels in ((attacker, parse_tech(getattr(args, "attacker_tech", ""))),
                                        (defender, parse_tech(getattr(args, "defender_tech", "")))) if levels}
    disengage = [(kind, value) for kind, value in (("rounds", getattr(args, "disengage_after", None)),
                                                   ("losses", getattr(args, "disengage_losses", None)))
                 if value is not None]
    if any(kind == "rounds" and value < 1 for kind, value in disengage):
        raise ValueError("defenders fight at least one round before they may disengage (4.6)")
    break_off = break_off_conditions(args)
    let_through = bool(getattr(args, "let_through", False))
    one_round = bool(getattr(args, "support_one_round", False))
    if one_round and not getattr(args, "support", 0):
        raise ValueError("--support-one-round needs --support N")
    setup: dict[str, Any] = dict(
        territory=territory, strait=args.strait, trench=trench, air_distance=distance,
        home=_home(args),
        beach=getattr(args, "beach", False), strike=getattr(args, "strike", False),
        support=getattr(args, "support", 0), support_rounds=1 if one_round else None,
        tech=tech, disengage=disengage, let_through=let_through, break_off=break_off,
        radar=bool(getattr(args, "radar", False)))
    way = _way(args, distance)
    if way:  # 4.5 and AA on the way: the engine's air_passage, sampled, then the exact battle (odds_on_the_way)
        odds = intercepted_odds(scenario, attacker, attack, defender, defend, way, city=city,
                                max_rounds=args.rounds, world=world, progress=progress_bar("flying the way", args),
                                **setup)
    else:
        walk = progress_bar(WALKING, args)
        odds = odds_for(scenario, attacker, attack, defender, defend, city=city, max_rounds=args.rounds,
                        world=world, budget=STEP_BUDGET, progress=progress_bar("rolling the battle", args),
                        walking=walk, **setup)
        if walk:
            walk(1, 1)  # the walk's bar closes (it runs towards the most the walk may take)
    battle = {"attacker": attacker, "attack": attack, "defender": defender, "defend": defend,
              "territory": territory or None, "typed": args.territory, "city": city, "strait": bool(args.strait),
              "max_rounds": args.rounds, "trench": trench, "air_distance": distance,
              "home": _home(args),
              "beach": bool(getattr(args, "beach", False)), "strike": bool(getattr(args, "strike", False)),
              "support": getattr(args, "support", 0), "support_one_round": one_round,
              "tech": {n: dict(sorted(levels.items())) for n, levels in sorted(tech.items())},
              "disengage": [f"{kind}:{value}" for kind, value in disengage], "let_through": let_through,
              "break_off": [f"{kind}:{value}" for kind, value in break_off],
              "radar": bool(getattr(args, "radar", False)), "intercepted": getattr(args, "intercepted", 0) or 0,
              "on_the_way": [{"fighters": g.fighters, "aa": g.aa} for g in way]}
    return odds, battle


def _home(args: argparse.Namespace) -> int:
    """--home for a land attack: friendly land next door unless told."""
    home = getattr(args, "home", None)
    return 1 if home is None else int(home)


def break_off_conditions(args: argparse.Namespace) -> list[tuple[str, int]]:
    """--break-off-after N / --break-off-losses N / --break-off-kills N: the attacker's BREAK
    OFF AIR COMBAT conditions (4.5 step 3: AFTER n ROUNDS, IF LOSSES EXCEED n, WHEN n
    KILLS), for a land battle and for a strike on ships (--sea)."""
    out = [(kind, value) for kind, value in (("rounds", getattr(args, "break_off_after", None)),
                                             ("losses", getattr(args, "break_off_losses", None)),
                                             ("kills", getattr(args, "break_off_kills", None)))
           if value is not None]
    if any(kind == "kills" and value < 1 for kind, value in out):
        raise ValueError("--break-off-kills is a number of interceptors downed, 1 or more")
    if any(kind == "rounds" and value < 1 for kind, value in out):
        raise ValueError("aircraft fight at least one round of air combat before they may break off (4.5)")
    if any(kind == "losses" and value < 0 for kind, value in out):
        raise ValueError("--break-off-losses is a number of aircraft lost, 0 or more")
    return out


# The exact walk's bar: it runs towards the budget, the most the walk may take before the
# battle is rolled instead, so it may close well before it fills.
WALKING = "adding up every outcome (at most)"


def progress_bar(label: str, args: argparse.Namespace) -> Callable[[int, int], None] | None:
    """A bar on the terminal (stderr) while a long part of the odds runs (the exact walk, the
    rolled battles, the way, the air combat before a strike); none for --json or when stderr
    is no terminal. Drawn again only when it fills by a notch; cleared when done reaches total."""
    if getattr(args, "json", False) or not sys.stderr.isatty():
        return None
    drawn = [-1]

    def show(done: int, total: int) -> None:
        filled = 30 * min(done, total) // total
        if filled == drawn[0] and done != total:
            return
        drawn[0] = filled
        sys.stderr.write(f"\r  {label} [{'#' * filled}{'.' * (30 - filled)}] {min(done, total)}/{total}")
        if done == total:
            sys.stderr.write("\r" + " " * (len(label) + 50) + "\r")
        sys.stderr.flush()

    return show


def _way(args: argparse.Namespace, distance: int) -> list[Guarded]:
    """The guarded places flown over, from --on-the-way "1 ftr, 1 aa; 2 ftr" or --intercepted N."""
    guards, text = getattr(args, "intercepted", 0) or 0, getattr(args, "on_the_way", "") or ""
    if guards < 0:
        raise ValueError("--intercepted is a number of fighters, 0 or more")
    if guards and text:
        raise ValueError("give --intercepted N or --on-the-way, not both (--intercepted N is --on-the-way \"N ftr\")")
    way = [Guarded(fighters=guards)] if guards else []
    for piece in text.split(";") if text.strip() else []:
        units = parse_units(piece, refuse=_not_a_guard) if piece.strip() else {}
        way.append(Guarded(fighters=units.get("fighter", 0), aa=units.get("aa", 0)))
    if way and len(way) > distance - 1:
        flag = "--intercepted" if guards else "--on-the-way"
        raise ValueError(f"{flag} needs aircraft flying over {counted(len(way), 'place')} between: "
                         f"--air-distance {len(way) + 1} or more")
    return way if any(g.fighters or g.aa for g in way) else []


def _not_a_guard(kind: str) -> str | None:
    if kind not in ("fighter", "aa"):
        return f"{units_word(kind)} do not fight aircraft flying over (--on-the-way takes fighters and AA guns: 4.5, Anti Air Guns)"
    return None


def _nation(scenario: Scenario, name: str) -> str:
    nid = resolve_nation_id(name, scenario)
    if nid is None:
        hint = " or ".join(nation_guesses(scenario, name))  # the same suggestions `check` gives
        raise ValueError(f"unknown nation {name!r}" + (f" (did you mean {hint}?)" if hint else ""))
    return nid


def run_odds(args: argparse.Namespace) -> int:
    if getattr(args, "sea", False):  # a naval battle (4.3)
        if analysis_flights.flying(args):
            print("moderator odds: --raid and --rebase fly over land: leave out --sea")
            return 2
        return _print_odds(args, analysis_naval.compute, analysis_naval.render)
    if analysis_flights.flying(args):  # a bombing raid (4.1.1) or a rebasing flight (4.1.2)
        return _print_odds(args, analysis_flights.compute, analysis_flights.render)
    return _print_odds(args, compute, render)


def _print_odds(args: argparse.Namespace, work: Callable[[argparse.Namespace], tuple[Any, dict[str, object]]],
                show: Callable[[Any, dict[str, object]], str]) -> int:
    """One battle's odds, as JSON for tools (--json) or as text; a bad argument says why."""
    try:
        odds, battle = work(args)
    except ValueError as exc:
        print(f"moderator odds: {exc}")
        return 2
    if args.json:
        print(json.dumps({"battle": battle, "odds": odds.to_json()}, indent=1, sort_keys=True))
    else:
        print(show(odds, battle))
    return 0


def _units_text(units: object) -> str:
    assert isinstance(units, dict)
    return ", ".join(count_units(n, k) for k, n in sorted(units.items())) or "nothing"


def _listed(items: object) -> str:
    return ", ".join(str(x) for x in items) if isinstance(items, list) else ""


def _tech_text(tech: object) -> str:
    """{'germany': {'improved_fighters': 2}} -> 'germany: Improved Fighters 2'."""
    if not isinstance(tech, dict):
        return ""
    return "; ".join(f"{n}: " + ", ".join(f"{TECHNOLOGIES[t][0]} {v}" for t, v in levels.items())
                     for n, levels in tech.items())


def _air_only(units: object) -> bool:
    """Only aircraft attack: when none get through, no battle is fought (rounds 0)."""
    return isinstance(units, dict) and set(units) <= {"fighter", "bomber"}


def _has_aircraft(units: object) -> bool:
    return isinstance(units, dict) and bool(set(units) & {"fighter", "bomber"})


def _way_text(way: object) -> str:
    """[{'fighters': 1, 'aa': 1}, {'fighters': 2, 'aa': 0}] -> '1 fighter + 1 AA gun, then 2 fighters'."""
    if not isinstance(way, list):
        return ""
    def one(g: dict[str, int]) -> str:
        parts = [f"{n} {word}{'s' if n != 1 else ''}" for n, word in ((g["fighters"], "fighter"), (g["aa"], "AA gun")) if n]
        return " + ".join(parts) or "nothing"
    return ", then ".join(one(g) for g in way)


def render(odds: Odds, battle: dict[str, object]) -> str:
    where = str(battle["territory"] or "an unnamed territory")
    if battle["typed"] and fold(str(battle["typed"])) != fold(where):
        where += f" (for {battle['typed']!r})"
    notes = [w for w, on in (("city", battle["city"]), ("across a strait", battle["strait"]),
                             ("landing from the sea", battle.get("beach")),
                             ("three tactical strike points", battle.get("strike")),
                             (f"{battle.get('support')} artillery supporting from next door"
                              + (" for one round" if battle.get("support_one_round") else ""), battle.get("support")),
                             (f"defenders disengage at {_listed(battle.get('disengage'))}", battle.get("disengage")),
                             (f"technology {_tech_text(battle.get('tech'))}", battle.get("tech")),
                             (f"aircraft fuel {battle.get('air_distance')} there, {battle.get('home', 1)} to friendly "
                              "land", _has_aircraft(battle["attack"]) and battle.get("air_distance", 1) != 1),
                             ("the defender's fighters let the aircraft through", battle.get("let_through")),
                             ("the defender's radar: aircraft -1", battle.get("radar")),
                             (f"on the way over {_way_text(battle.get('on_the_way'))}"
                              + (", rounds 0: no aircraft arrived" if _air_only(battle["attack"]) else ""),
                              battle.get("on_the_way")),
                             (f"aircraft break off at {_listed(battle.get('break_off'))}", battle.get("break_off")),
                             ((str(battle.get("trench") or "").replace("_", " ")), battle.get("trench"))) if on]
    lines = [
        f"Battle at {where}{' (' + ', '.join(notes) + ')' if notes else ''}:",
        f"  {battle['attacker']}: {_units_text(battle['attack'])}",
        f"  against {battle['defender']}: {_units_text(battle['defend'])}",
        "",
        f"  attacker wins          {odds.attacker_wins:7.2%}",
        f"  defender holds         {odds.defender_holds:7.2%}",
    ]
    lines += [f"    {OUTCOME_TEXT[k]:<46} {p:7.2%}" for k, p in odds.outcomes.items()]
    lines += [
        "",
        f"  expected losses: attacker {odds.attacker_losses:.2f} of {odds.attackers}, "
        f"defender {odds.defender_losses:.2f} of {odds.defenders}",
        f"  at the end: attackers holding the field {odds.attackers_left:.2f}"
        + (f", aircraft flown home {odds.flown_home:.2f}" if odds.flown_home else "")
        + (f"; defenders escaped {odds.defenders_escaped:.2f}" if odds.defenders_escaped else ""),
        # the land rounds only: an air combat before them (4.5) spends fuel, and aircraft
        # whose fuel it spent fly home before the first (0 rounds)
        f"  ground rounds (after any air combat): mean {odds.expected_rounds:.2f}",
    ]
    shown = [(r, p) for r, p in sorted(odds.rounds.items()) if p >= 0.0005]
    lines += [f"    {r:>3} {p:7.2%} {'#' * round(p * 40)}" for r, p in shown]
    if odds.samples:  # too large to walk exactly: the engine's battle rolled (odds_sampled.py)
        spread = 2 * (0.25 / odds.samples) ** 0.5  # two standard errors of a share, at its widest (50%)
        lines += ["", f"  simulated: too large to work out exactly, so the engine fought this battle "
                      f"{odds.samples} times with fixed dice; each chance is within about {spread:.1%}"]
    return "\n".join(lines)
