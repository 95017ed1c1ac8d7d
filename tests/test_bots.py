"""Bots (issue 14): each order type's proposer offers only what its home allows, a bot's
turn is written as text the service keeps whole, and a short war in process replays."""

from __future__ import annotations

from moderator.bots.bot import PLAYS, play
from moderator.bots.options import OPTIONS, Seat, options
from moderator.bots.simulate import simulate
from moderator.engine.check import check_orders
from moderator.engine.state import GameState
from moderator.orders import parse_orders
from moderator.orders.checker import check_text
from tests.drift import opening, played


def test_every_option_is_allowed_by_its_home() -> None:
    """The checker keeps what options() offers (the first few of each type and nation:
    each is a whole check, and the soak checks every order the bots write)."""
    for game in (opening(), played()):
        for nation in ("germany", "france", "russia", "britain", "serbia", "usa"):
            seat = Seat(game.state, game.world, game.scenario, nation)
            for kind in OPTIONS:
                for order in options(seat, kind)[:2]:
                    verdict = check_orders([order], nation, game.state, game.world, game.scenario)[0]
                    assert verdict.kept, (nation, order, verdict.problems)


def test_the_options_cover_the_plays_order_types() -> None:
    seat = Seat(opening().state, opening().world, opening().scenario, "germany")
    offered = {kind for kind in OPTIONS if options(seat, kind)}
    # Germany at the opening: at war on two fronts, with ships and money
    from moderator.orders import model as m

    assert {m.Attack, m.Move, m.Build, m.Research, m.Influence, m.BuildTrench, m.TaskForce} <= offered
    assert [name for name, _ in PLAYS][:5] == ["declare", "statecraft", "specials", "defend", "attack"]


def test_a_bot_turn_is_text_the_checker_keeps_whole() -> None:
    game = opening()
    for nation in ("germany", "austria-hungary", "france", "russia", "serbia", "britain", "ottoman", "usa"):
        turn = play(game.state, game.world, game.scenario, nation, "t", header={"nation": nation, "turn": "1"})
        assert turn.orders, nation
        parsed = parse_orders(turn.text)
        assert not parsed.diagnostics, (nation, parsed.diagnostics)
        checked = check_text(turn.text, nation, game.state, game.world, game.scenario)
        assert [d for d in checked.diagnostics if d.severity == "error"] == [], nation
        assert len(checked.orders) == len(turn.orders)
    again = play(game.state, game.world, game.scenario, "germany", "t", header={"nation": "germany", "turn": "1"})
    assert again.text == play(game.state, game.world, game.scenario, "germany", "t",
                              header={"nation": "germany", "turn": "1"}).text  # deterministic


def test_germany_attacks_only_with_good_odds() -> None:
    from moderator.bots.bot import GOOD_ODDS, Draft, attack, odds_of

    game = opening()
    seat = Seat(game.state, game.world, game.scenario, "germany")
    import random

    from moderator.orders import model as m

    draft = Draft(seat, random.Random(1), budget=seat.saved)
    attack(draft)
    strikes = [o for o in draft.orders if isinstance(o, m.Attack)]
    assert strikes
    assert all(odds_of(seat, o) >= GOOD_ODDS for o in strikes)
    assert all(any(isinstance(c, m.CombatCondition) and c.dest == o.dest for c in draft.orders) for o in strikes)


def test_a_short_war_in_process() -> None:
    summary = simulate(2, "test", ["germany", "france", "russia", "austria-hungary", "serbia", "britain"])
    assert summary.turns == 2
    assert summary.errors == [] and summary.refused == []
    assert summary.written == summary.accepted > 0
    assert summary.replays == {1: True, 2: True}
    assert summary.ok and "Result: OK" in summary.text()
    assert summary.faults is None and "Daemon faults (exceptions the daemon caught and went on from): not watched" \
        in summary.text()  # direct mode runs no daemon
    # who joined, per side: the British Empire by its rules at turn 1, its dominions with it
    assert (1, "britain", "allied") in summary.joins, summary.joins
    assert "Who joined which side (nation turn): allied " in summary.text()
    assert summary.joins_text().startswith("allied ") and "britain 1" in summary.joins_text()


# The in-suite soak (issue 14: "a short one (a few turns, every seat, through mail) in every
# CI run"): a bot on every playable seat of 1914, as `--seats all`, for three turns. The whole
# war is `make soak` (docs/soak.md).
SOAK_TURNS = 3
SOAK_SEATS = 18  # every playable nation of 1914


def test_soak_every_seat_through_mail() -> None:
    """The short soak (issue 14): three turns, a bot on every seat, orders mailed to the
    embedded server and handled by the real daemon, every seat's receipts and reports read
    back over IMAP and checked for leaks, no fault the daemon caught and went on from (maps
    left out: they take seconds each and are tested in the end-to-end turn)."""
    summary = simulate(SOAK_TURNS, "ci", None, mail=True, maps=False)
    assert len(summary.seats) == SOAK_SEATS, summary.seats
    assert summary.turns == SOAK_TURNS, summary.text()
    assert summary.errors == [] and summary.refused == [], summary.text()
    assert summary.faults == [], summary.text()
    assert summary.delivery == [] and summary.report_mismatch == [] and summary.leaks == [], summary.text()
    assert summary.written == summary.accepted > 0
    # every seat: one receipt a turn for its own orders (a nation whose orders another seat
    # gives by the rules, PROXY FOR, has none of its own that turn), one report and one bulletin
    own = SOAK_TURNS * SOAK_SEATS - sum(summary.proxies.values())
    assert summary.mails["receipt"] == own, summary.text()
    assert summary.mails["report"] == summary.mails["bulletin"] == SOAK_TURNS * SOAK_SEATS, summary.text()
    assert summary.mails["alliance"] >= SOAK_TURNS * 5  # the five nations at war in August 1914
    assert summary.replays == {t: True for t in range(1, SOAK_TURNS + 1)}
    assert summary.strange_reviews == [] and summary.ok, summary.text()
    assert "Leak check (every report.json against the turn's events and the position): none found" in summary.text()
    assert "Daemon faults (exceptions the daemon caught and went on from): none" in summary.text()


def test_the_leak_check_finds_what_a_report_may_not_show() -> None:
    """bots/leaks.py holds a report to the turn's events and the position: an event only
    another nation saw, another nation's sheet or stack, a sighting of a place no unit of
    the reader looks into are each found; the honest report is clean."""
    from moderator.bots.leaks import report_leaks

    game = opening()
    secret = {"code": "espionage", "phase": "3.2", "seen_by": ["france"], "args": {"nation": "france"}}
    public = {"code": "war-declared", "phase": "1.1", "seen_by": [], "args": {"nation": "germany"}}
    told = {"code": "war-declared", "phase": "1.1", "text": "", "args": {"nation": "germany"}}
    stacks = {}
    for u in game.state.nation_units("serbia"):
        stacks.setdefault(u.location, {}).setdefault(u.kind, 0)
        stacks[u.location][u.kind] += 1
    honest = {"kind": "nation", "nation": "serbia", "sheet": {"nation": "serbia"}, "news": [told],
              "stacks": [{"place": p, "units": k} for p, k in stacks.items()], "sightings": []}

    def leaks(report: dict[str, object]) -> list[str]:
        return report_leaks(report, ["serbia"], {}, [secret, public], game.state, game.world)

    assert leaks(honest) == []
    assert leaks({**honest, "news": [told, {**told, "code": "espionage", "args": {"nation": "france"}}]})
    assert leaks({**honest, "news": [told, told]})  # one event, told twice
    assert leaks({**honest, "sheet": {"nation": "france"}})
    assert leaks({**honest, "stacks": [{"place": "Paris", "units": {"infantry": 3}}]})
    assert leaks({**honest, "sightings": [{"place": "Vladivostok", "units": None}]})
    assert leaks({**honest, "kind": "bulletin", "news": [{**told, "code": "espionage", "args": {"nation": "france"}}]})
    the_map = dict(game.state.control)  # names: {} above, so ids name the holders
    assert leaks({**honest, "control": the_map}) == []
    assert leaks({**honest, "control": {**the_map, "Paris": "germany"}})  # a map that is not the public one
    # its own units one by one: exactly its own, as they stand
    own = [{"id": u.id, "kind": u.kind, "place": u.location, "damage": u.damage, "facing": ""}
           for u in game.state.nation_units("serbia")]
    assert leaks({**honest, "units": own}) == []
    french = game.state.nation_units("france")[0]
    assert leaks({**honest, "units": [*own, {"id": french.id, "kind": french.kind, "place": french.location}]})
    assert leaks({**honest, "units": own[1:]})  # one of its own left out
    assert leaks({**honest, "units": [{**own[0], "place": "Paris"}, *own[1:]]})  # one told elsewhere
    # the bulletin's camps and wars: the position's public ones, nothing else
    present = set(game.state.control.values()) | {u.nation for u in game.state.units}
    wars = {n: sorted(game.state.nations[n].at_war_with) for n in present if game.state.nations[n].at_war_with}
    news = {"kind": "bulletin", "news": [], "wars": wars}
    assert leaks(news) == []
    assert leaks({**news, "wars": {**wars, "italy": ["austria-hungary"]}})  # a war that is not on
    camps: dict[str, list[str]] = {}
    for n in sorted(present):
        camps.setdefault({"central": "Central Powers", "allied": "Allied Powers"}.get(
            game.state.nations[n].side, "Neutrals"), []).append(n)
    assert leaks({**news, "camps": camps}) == []
    assert leaks({**news, "camps": {**camps, "Neutrals": [n for n in camps["Neutrals"] if n != "italy"]}})


def test_the_bots_strike_land_and_spy() -> None:
    """The orders other engineers automated, each proposed by its home's options and used:
    rockets and bombers fire at the land attacked, transports carry troops to weak enemy
    coast (LOAD, INVADE, INCORPORATE), task forces bombard or blockade, and the money play
    spies, counter-spies and upgrades; the checker keeps all of it."""
    import random

    from moderator.bots.bot import Draft, _checked, fire, invade, money, navy
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    for kind in ("bomber", "bomber", "rocket", "rocket"):
        state.new_unit("germany", kind, "Strasbourg")
    seat = Seat(state, game.world, game.scenario, "germany")
    assert {m.Bombing, m.RocketFire, m.Recon, m.Espionage, m.CounterEspionage} <= {
        kind for kind in OPTIONS if options(seat, kind)}
    written: set[type] = set()
    for seed in range(12):
        draft = Draft(seat, random.Random(seed), budget=seat.saved)
        draft.targets.add("Alsace-Lorraine")
        for play_ in (invade, fire, money, navy):
            play_(draft)
        kept, dropped = _checked(draft.orders, "germany", state, game.world, game.scenario)
        assert [code for _, code in dropped if code not in ("over-budget", "build-cut")] == [], dropped
        written |= {type(o) for o in kept}
    assert {m.Bombing, m.RocketFire, m.NavalInvasion, m.TaskForceMission, m.Espionage, m.CounterEspionage,
            m.Research} <= written, written


def test_the_simulate_command_prints_and_writes_its_summary(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from moderator.cli import main

    out = tmp_path / "summary.txt"
    code = main(["simulate", "--turns", "1", "--seed", "cli", "--seats", "serbia,austria-hungary",
                 "--deployment", "--summary", str(out), "--dir", str(tmp_path / "game")])
    printed = capsys.readouterr()
    assert code == 0, printed.out
    assert "Result: OK" in printed.out and out.read_text(encoding="utf-8") == printed.out
    assert "turn 2/2" in printed.err  # the progress bar: the deployment turn, then turn 1
    assert "deployment turn first" in printed.out and "Deploy " in printed.out  # the bots deployed
    assert "Replay: 2 of 2 turns identical" in printed.out
    assert (tmp_path / "game" / "simulate.db").exists()


def test_a_seat_that_is_not_playable_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="not playable"):
        simulate(1, "x", ["belgium"])


def test_a_refused_bot_order_says_whose_bug_it_is() -> None:
    from moderator.bots.bot import Turn
    from moderator.bots.simulate import whose_bug
    from moderator.orders import model as m

    meant = [m.Build("infantry", 1, "Berlin")]
    assert whose_bug(Turn("germany", "BUILD 1 inf AT Berlin\n", meant, [])).startswith("checker")
    assert whose_bug(Turn("germany", "BUILD 2 inf AT Berlin\n", meant, [])).startswith("echo or parser")
    # the text names a nation as orders do, the bot's order by its id: the same order (the soak's turn 13)
    told = [m.Influence("venezuela", "allied")]
    assert whose_bug(Turn("france", "INFLUENCE Venezuela TOWARD Allies\n", told, [])).startswith("checker")


def test_a_bot_never_attacks_with_artillery_alone() -> None:
    """4.4: only infantry or tanks take land; an attack of artillery alone on land a fogged
    bot believed held but was empty was refused by the service (the soak, turns 13-26)."""
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    konigsberg = [u for u in state.units if u.location == "Konigsberg" and u.kind != "artillery"]
    state.units = [u for u in state.units if u not in konigsberg]
    seat = Seat(state, game.world, game.scenario, "germany")
    assert seat.land_stacks()["Konigsberg"]["artillery"] and seat.enemy("Bialystok")
    assert not [o for o in options(seat, m.Attack) if isinstance(o, m.Attack) and o.origin == "Konigsberg"]
    assert [o for o in options(seat, m.Attack) if isinstance(o, m.Attack)]  # elsewhere, with infantry


def test_a_mail_bot_plays_under_fog_of_war() -> None:
    """bots/fog.py: the position a mail bot plans on holds its own units as its report lists
    them, its allies' as its alliance's report counts them, and of anyone else only what a
    sighting showed (exact units, or the troops a band suggests); the public map stays, and
    every other nation is as the scenario started it but for its camp and wars."""
    from collections import Counter

    from moderator.bots.fog import BAND_GUESS, fogged

    game = opening()
    report = {"sheet": {"saved": 7, "tech": {}, "at_war_with": ["German Empire"]},
              "sightings": [{"place": "Alsace-Lorraine", "holder": "German Empire", "band": "yellow", "units": None},
                            {"place": "Cologne", "holder": "German Empire", "band": "black",
                             "units": {"infantry": 2, "artillery": 1}}]}
    alliance = {"sheets": [{"nation": "russia", "units": {"Warsaw": {"infantry": 4}}, "saved": 11}]}

    def fog() -> GameState:
        return fogged(game.state, game.scenario, game.world, "france", report, alliance)

    seen = fog()
    by = Counter((u.nation, u.location, u.kind) for u in seen.units)
    assert [u for u in seen.units if u.nation == "france"] == game.state.nation_units("france")
    assert {n for n, _, _ in by} == {"france", "russia", "germany"}
    assert by[("russia", "Warsaw", "infantry")] == 4 and sum(n for (w, _, _), n in by.items() if w == "russia") == 4
    assert by[("germany", "Alsace-Lorraine", "infantry")] == BAND_GUESS["yellow"]
    assert by[("germany", "Cologne", "artillery")] == 1
    assert sum(n for (w, _, _), n in by.items() if w == "germany") == BAND_GUESS["yellow"] + 3
    assert seen.nations["france"].saved == 7 and seen.nations["france"].at_war_with == ["germany"]
    assert seen.nations["russia"].saved == 11  # an ally's treasury: the alliance report's sheet
    assert seen.nations["germany"].saved == game.scenario.nations["germany"].saved  # the scenario's, not the truth
    assert seen.control == game.state.control  # no map in the report: the service's (older reports)
    report["control"] = {**{t: game.scenario.nations[n].name for t, n in game.state.control.items()},
                         "Alsace-Lorraine": "French Empire"}
    report["sheet"]["holdings"] = [{"territory": "Paris", "incorporated": None}]
    seen = fog()
    assert seen.control == {**game.state.control, "Alsace-Lorraine": "france"}  # the report's public map
    assert "Paris" not in seen.incorporated  # its own land's incorporation: its sheet's holdings
    assert game.state.nations["france"].saved != 7  # the service's position is not touched
    # its own units one by one from the report's list (ids, damage, a trench's facing)
    report["units"] = [{"id": "france-trench-09999", "kind": "trench", "place": "Paris", "damage": 0,
                        "facing": "Picardy"}, {"id": "france-battleship-09998", "kind": "battleship",
                                               "place": "Bay of Biscay", "damage": 1}]
    seen = fog()
    assert [(u.id, u.damage) for u in seen.units if u.nation == "france"] == [("france-trench-09999", 0),
                                                                             ("france-battleship-09998", 1)]
    assert seen.nations["france"].flags["trench_facing"] == {"france-trench-09999": "Picardy"}
    assert seen.next_unit == 10000  # past its own ids: the service's counter counts everyone's builds
    # the bulletin's camps and wars (public news)
    news = {"camps": {"Allied Powers": ["Kingdom of Italy"]}, "wars": {"Kingdom of Italy": ["German Empire"]}}
    seen = fogged(game.state, game.scenario, game.world, "france", report, alliance, news)
    assert seen.nations["italy"].side == "allied" and seen.nations["italy"].at_war_with == ["germany"]


def test_the_nation_report_carries_the_public_map() -> None:
    """report.json holds who holds each land territory (the public map), holders named as
    the report names nations: a player's tool (and a mail bot) reads control from it."""
    from moderator.reports.build import TurnInfo, nation_mail

    game = played()
    info = TurnInfo("g", "G", 1, "August 1914", 2, "September 1914", "soon")
    data = nation_mail(game.state, [], game.scenario, game.world, info, "serbia").data
    names = {nid: n.name for nid, n in game.scenario.nations.items()}
    assert data["control"] == {t: names[n] for t, n in sorted(game.state.control.items())}
    assert data["control"]["Serbia"] == names[game.state.control["Serbia"]]


def test_the_bots_statecraft_support_and_fortification() -> None:
    """bots/statecraft.py: the orders of a nation's politics and of its support plays,
    each proposed by its options and kept by the checker: a conquered Serbia offers its
    surrender and goes into exile, Germany makes peace with a neutral minor it fights,
    plunders the complex of land it has held long enough, coaxes Italy, blockades and
    declares submarine warfare, supports its attacks with artillery, defends with its
    complexes, fits sonar, its submarine lies in wait and its battleship hunts submarines
    off France; neutrals join when they may, or gear up."""
    import random

    from moderator.bots.bot import Draft, _checked
    from moderator.bots.statecraft import fortify, hunt, statecraft, support
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    state.turn = 5
    for place in game.world.home_of("serbia"):  # Serbia conquered
        state.control[place] = "austria-hungary"
    state.control["Lille"], state.incorporated["Lille"] = "germany", 2  # held and incorporated since turn 2
    for a, b in (("germany", "belgium"),):  # a local war with a neutral minor
        state.nations[a].at_war_with = sorted({*state.nations[a].at_war_with, b})
        state.nations[b].at_war_with = sorted({*state.nations[b].at_war_with, a})
    state.new_unit("germany", "submarine", "North Sea")
    state.new_unit("germany", "battleship", "Middle Atlantic")  # the zone of France's blockade (1.4)
    state.nations["germany"].saved = 400
    state.nations["germany"].tech["sonar"] = 1
    state.nations["ottoman"].side = "central"  # no neutral major the Central Powers court: submarine warfare
    written: set[type] = set()
    for nation in ("serbia", "germany", "britain", "usa", "austria-hungary"):
        seat = Seat(state, game.world, game.scenario, nation)
        for seed in (*range(8), 31):  # 31: a draw under a tenth first (coaxing Italy)
            draft = Draft(seat, random.Random(seed), budget=seat.saved)
            draft.targets.add("Bialystok")  # attacked this turn: Konigsberg's artillery supports it
            for play_ in (statecraft, support, fortify, hunt):
                play_(draft)
            kept, dropped = _checked(draft.orders, nation, state, game.world, game.scenario)
            assert [code for _, code in dropped if code not in ("over-budget", "build-cut")] == [], (nation, dropped)
            written |= {type(o) for o in kept}
    assert {m.OfferSurrender, m.Exile, m.Peace, m.Plunder, m.CoaxItaly, m.Blockade, m.SubWarfare,
            m.ArtillerySupport, m.DefendWith, m.JoinSide, m.BuildShipGear, m.Note, m.SubInterception,
            m.SubDetection} <= written, written


def test_a_bot_deploys_everything_at_turn_0() -> None:
    """Initial Deployment: at turn 0 a bot writes DEPLOY orders only, placing every unit
    still to deploy; the checker keeps them all."""
    from collections import Counter

    from moderator.engine.phase0_deploy import free_counts
    from moderator.orders import model as m
    from tests.drift import deployment

    game = deployment()
    for nation in ("germany", "france", "britain", "russia"):
        turn = play(game.state, game.world, game.scenario, nation, "d", header={"nation": nation, "turn": "0"})
        assert turn.orders and all(isinstance(o, m.Deploy) for o in turn.orders), nation
        assert turn.dropped == [], (nation, turn.dropped)
        placed: Counter[str] = Counter()
        for o in turn.orders:
            assert isinstance(o, m.Deploy)
            placed.update({uc.kind: uc.count for uc in o.units})
        assert placed == free_counts(game.state, nation), nation
        checked = check_text(turn.text, nation, game.state, game.world, game.scenario)
        assert [d for d in checked.diagnostics if d.severity == "error"] == [], nation


def test_a_bot_trims_builds_the_treasury_cannot_pay() -> None:
    """The checker warns "only N of the M can be bought" (Phase 3.1); a bot writes the N,
    as a careful player would, rather than leave the cut to the resolution's default
    (build-cut-default: a flag in the moderator's queue; 99 of them in one soak)."""
    from moderator.bots.bot import _checked
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    state.nations["germany"].saved = 20
    kept, dropped = _checked([m.Build("infantry", 50, "Berlin")], "germany", state, game.world, game.scenario)
    assert [code for _, code in dropped] == ["build-cut"]
    assert len(kept) == 1 and isinstance(kept[0], m.Build) and 0 < kept[0].count < 50
    verdict = check_orders(kept, "germany", state, game.world, game.scenario)[0]
    assert verdict.kept and not [p for p in verdict.problems if p.code == "build-cut"]


def test_a_neutral_bot_keeps_to_the_side_it_leans_to() -> None:
    """A neutral major pushing itself pushes toward the side it leans to, so it moves one
    way rather than back and forth (the soak's neutrals joined either side at random),
    whatever its points: the USA's public opinion campaign (option #4) toward the Allies
    as its history says, toward the Central Powers once its `leaning` flag says so; and
    with as little as 10 in hand (a threshold of 30 left the campaign to 6 turns of a
    26-turn soak, and the USA drifted to the Central Powers)."""
    import random

    from moderator.bots.bot import PUSH_SELF_BUDGET, Draft, push_self
    from moderator.orders import model as m

    game = opening()
    assert PUSH_SELF_BUDGET == 10
    for standing, flag, saved, side in ((-2, None, 200, "allied"), (3, "central", 200, "central"),
                                        (0, None, 10, "allied")):
        state = game.state.copy()
        state.nations["usa"].standing, state.nations["usa"].saved = standing, saved
        if flag:
            state.nations["usa"].flags["leaning"] = flag
        seat = Seat(state, game.world, game.scenario, "usa")
        pushed = []
        for seed in range(12):
            draft = Draft(seat, random.Random(seed), budget=seat.saved)
            push_self(draft)
            pushed += [o.toward for o in draft.orders if isinstance(o, m.SpecialOption)]
        assert pushed and set(pushed) == {side}, (standing, flag, saved, pushed)
    state = game.state.copy()
    state.nations["usa"].saved = 9
    seat = Seat(state, game.world, game.scenario, "usa")
    for seed in range(12):
        draft = Draft(seat, random.Random(seed), budget=seat.saved)
        push_self(draft)
        assert draft.orders == [], draft.orders


def test_no_bot_orders_an_influence_the_moderator_must_rule_on() -> None:
    """A bot cannot play a ruling it cannot foresee: it never writes an influence its home
    refers to the moderator (engine/orders/influence.py `referred`); none is left. An
    attempt on Italy is refused until Austro-Hungarian option #2 made Italy "considered
    neutral" (then it is an ordinary attempt, not referred). Italy has no self-influence
    (its "Italian influence" is the coaxing of other nations), so it writes none."""
    import random

    from moderator.bots.bot import Draft, money, referred_influence
    from moderator.engine.orders import influence
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    state.nations["france"].saved = 300
    france = Seat(state, game.world, game.scenario, "france")
    on_italy = [o for o in options(france, m.Influence) if isinstance(o, m.Influence) and o.target == "italy"]
    assert on_italy == []  # refused before the Austrian #2 case
    assert not any(referred_influence(france, o) for o in options(france, m.Influence))
    for seed in range(30):
        draft = Draft(france, random.Random(seed), budget=france.saved)
        money(draft)
        assert not [o for o in draft.orders if isinstance(o, m.Influence) and o.target == "italy"], seed
    case = state.copy()
    case.nations["italy"].flags[influence.CONSIDERED_NEUTRAL] = 1
    courted = Seat(case, game.world, game.scenario, "france")
    on_italy = [o for o in options(courted, m.Influence) if isinstance(o, m.Influence) and o.target == "italy"]
    assert on_italy and not any(referred_influence(courted, o) for o in on_italy)
    usa = Seat(state, game.world, game.scenario, "usa")  # a rolled self-influence is not referred
    assert not any(referred_influence(usa, o) for o in options(usa, m.SpecialOption))

    state.nations["italy"].saved = 300
    italy = Seat(state, game.world, game.scenario, "italy")
    assert influence.referred(italy.position, "italy", "italy")  # no rule: never resolved, and refused
    selfish = [o for kind in (m.Influence, m.SpecialOption) for o in options(italy, kind)
               if getattr(o, "target", None) in (None, "italy") and getattr(o, "toward", None)]
    assert selfish == [], selfish
    written: set[str | None] = set()
    for seed in range(20):
        draft = Draft(italy, random.Random(seed), budget=italy.saved)
        money(draft)
        written |= {o.toward for o in draft.orders if isinstance(o, (m.Influence, m.SpecialOption))}
    assert written == set(), written


def test_a_level_neutral_leans_as_its_history_says() -> None:
    """While its standing is level a neutral bot plays history (bots/history.py): the USA
    pushes toward the Allies (Italy has no self-influence to push with); the Ottomans, whose history
    is the Central Powers', never push themselves toward the Allies (the only way their
    self-influence goes); Spain stays out. The majors at war spend their influence on the
    neutrals leaning their way or level: the Allies never on Bulgaria (-5)."""
    import random

    from moderator.bots.bot import Draft, money
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    for n in ("italy", "usa", "ottoman", "spain", "france"):
        state.nations[n].saved = 300
    pushed: dict[str, set[str | None]] = {}
    for nation in ("italy", "usa", "ottoman", "spain", "france"):
        seat = Seat(state, game.world, game.scenario, nation)
        for seed in range(12):
            draft = Draft(seat, random.Random(seed), budget=seat.saved)
            money(draft)
            pushed.setdefault(nation, set()).update(
                o.toward if nation != "france" else o.target for o in draft.orders
                if isinstance(o, m.Influence) or (isinstance(o, m.SpecialOption) and o.toward))
    assert pushed["italy"] == set(), pushed  # no self-influence (its "Italian influence" is others' COAX)
    assert pushed["usa"] == {"allied"}, pushed
    assert pushed["ottoman"] == set() and pushed["spain"] == set(), pushed
    assert pushed["france"] and "bulgaria" not in pushed["france"], pushed


def test_the_navy_sails_to_blockade_and_then_blockades() -> None:
    """1.4: a blockade needs a surface ship in the target's zones. A French cruiser in the
    Skagerrak lets France blockade Germany (and keeps it there on a BLOCKADE mission); a
    French fleet a few zones away sails toward the Skagerrak instead. The checker keeps it all."""
    import random

    from moderator.bots.bot import Draft, _checked
    from moderator.bots.naval import blockade
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    state.new_unit("france", "cruiser", "Skagerrak")
    seat = Seat(state, game.world, game.scenario, "france")
    draft = Draft(seat, random.Random(0), budget=seat.saved)
    blockade(draft)
    assert m.Blockade("germany") in draft.orders, draft.orders
    assert any(isinstance(o, m.TaskForceMission) and o.mission == "blockade" for o in draft.orders)
    kept, dropped = _checked(draft.orders, "france", state, game.world, game.scenario)
    assert len(kept) == len(draft.orders) and dropped == [], dropped

    state = game.state.copy()
    seat = Seat(state, game.world, game.scenario, "france")
    sailed = []
    for seed in range(6):
        draft = Draft(seat, random.Random(seed), budget=seat.saved)
        blockade(draft)
        sailed += [o for o in draft.orders if isinstance(o, m.TaskForceMission) and o.mission == "move"]
        kept, dropped = _checked(draft.orders, "france", state, game.world, game.scenario)
        assert len(kept) == len(draft.orders) and dropped == [], dropped
    assert sailed, "no French task force sailed toward a blockade zone"


def test_a_bot_opens_war_only_on_a_minor_leaning_to_the_other_side() -> None:
    """A minor attacked joins the other camp and moves the neutrals' points: the bots open
    wars only on minors leaning against them (Germany on Belgium, whose history is the
    invasion), never on a friendly one (Austria-Hungary on Bulgaria, -5) or a level one."""
    from moderator.bots.history import lean

    game = opening()
    state = game.state
    assert lean(state, "bulgaria") == "central" and lean(state, "romania") == "allied"
    assert lean(state, "belgium") == "allied" and lean(state, "albania") is None
    assert lean(state, "ottoman") == "central" and lean(state, "spain") is None
    import random

    from moderator.bots.bot import Draft, declare
    from moderator.orders import model as m

    opened: dict[str, set[str]] = {}
    for nation in ("germany", "austria-hungary", "france", "serbia"):
        seat = Seat(state, game.world, game.scenario, nation)
        for seed in range(60):
            draft = Draft(seat, random.Random(seed), budget=seat.saved)
            declare(draft)
            opened.setdefault(nation, set()).update(o.target for o in draft.orders if isinstance(o, m.DeclareWar))
    assert "belgium" in opened["germany"], opened
    for nation, targets in opened.items():
        side = state.nations[nation].side
        assert all(lean(state, t) not in (None, side) for t in targets), (nation, targets)


def test_no_submarine_warfare_while_the_side_courts_a_neutral_major() -> None:
    """1.4: unrestricted submarine warfare costs its declarer 0-1 point a turn with every
    neutral. While a neutral major leaning its way is still out (bots/history.py courted:
    the Ottomans for the Central Powers; Italy, the USA and China for the Allies) a side's
    bots do not declare it; once none is left, they do now and then."""
    import random

    from moderator.bots.history import courted
    from moderator.bots.statecraft import statecraft
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    state.new_unit("germany", "submarine", "North Sea")
    assert courted(state, "central") == ["ottoman"]
    assert courted(state, "allied") == ["britain", "china", "italy", "japan", "usa"]  # August 1914
    seat = Seat(state, game.world, game.scenario, "germany")
    assert options(seat, m.SubWarfare)

    def declared(seat: Seat) -> int:
        from moderator.bots.bot import Draft

        count = 0
        for seed in range(100):
            draft = Draft(seat, random.Random(seed), budget=seat.saved)
            statecraft(draft)
            count += any(isinstance(o, m.SubWarfare) for o in draft.orders)
        return count

    assert declared(seat) == 0
    state.nations["ottoman"].side = "central"
    assert courted(state, "central") == []
    assert declared(Seat(state, game.world, game.scenario, "germany")) > 0


def test_a_neutral_joins_only_the_side_it_leans_to() -> None:
    """JOIN is the player's choice once the points allow it (1.2): the USA at -10 may join
    the Central Powers, but its bot wants the Allies (bots/history.py) and waits, as a
    player would; at +10 it joins the Allies. Spain, whose history keeps it out, joins
    neither (a soak's USA joined the Central Powers at turn 4 and China followed)."""
    import random

    from moderator.bots.bot import Draft
    from moderator.bots.statecraft import statecraft
    from moderator.orders import model as m

    game = opening()
    for nation, standing, wanted in (("usa", -10, None), ("usa", 10, "allied"), ("spain", -10, None)):
        state = game.state.copy()
        state.nations[nation].standing = standing
        seat = Seat(state, game.world, game.scenario, nation)
        assert options(seat, m.JoinSide), (nation, standing)  # the rules would let it
        joined = set()
        for seed in range(6):
            draft = Draft(seat, random.Random(seed), budget=seat.saved)
            statecraft(draft)
            joined |= {o.side for o in draft.orders if isinstance(o, m.JoinSide)}
        assert joined == ({wanted} if wanted else set()), (nation, standing, joined)


def test_a_neutral_joining_this_turn_writes_no_neutrals_option_beside_its_join() -> None:
    """The USA at +10 joins the Allies in its mail; its options as a neutral (#4, the
    campaign that pushes its own standing) are then refused (`no-options`: a member reads
    its options after Phase 1.1), so the bot writes none and keeps their price. Still
    neutral and not joining, it campaigns."""
    import random

    from moderator.bots.bot import Draft, joining, money
    from moderator.bots.statecraft import statecraft
    from moderator.orders import model as m

    game = opening()
    campaigns = {}
    for standing in (10, 5):
        state = game.state.copy()
        state.nations["usa"].standing = standing
        seat = Seat(state, game.world, game.scenario, "usa")
        written = 0
        for seed in range(12):
            draft = Draft(seat, random.Random(seed), budget=max(seat.saved, 60))
            statecraft(draft)
            assert joining(draft) == (standing == 10)
            money(draft)
            written += sum(isinstance(o, m.SpecialOption) for o in draft.orders)
        campaigns[standing] = written
    assert campaigns[10] == 0 and campaigns[5] > 0, campaigns


def test_the_bots_use_what_their_technology_opens_in_the_air_and_at_sea() -> None:
    """The orders the engine resolves that only a technology or a fleet opens: a German
    bot with the 4th tank advance sends its tanks on through the land they take
    (BREAKTHROUGH), breaks off a raid's air combat at half its planes lost, lets enemy
    aircraft through where its lone fighter is outnumbered three to one (LET THROUGH), puts
    improved AA guns on its cruisers (BUILD AA ON), and its radar battleship in the Baltic,
    off Russia's coast, takes the Radar option (WITHDRAW IF RADAR WARNS); a French task
    force without a battleship sailing toward Germany's blockade zones goes back if
    contact is lost (WITHDRAW IF CONTACT LOST). The checker keeps all of it."""

    from moderator.bots.bot import attack, fire, let_pass
    from moderator.bots.naval import blockade, radar_watch
    from moderator.bots.statecraft import fortify
    from moderator.engine.gear_aboard import GEAR
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    germany = state.nations["germany"]
    germany.tech.update(tanks=4, improved_aa=1, radar=1, improved_bombers=1)
    germany.saved = 400
    for _ in range(8):
        state.new_unit("germany", "tank", "Konigsberg")
    for _ in range(3):
        state.new_unit("russia", "fighter", "Plock")
    state.new_unit("germany", "bomber", "Konigsberg")
    ship = state.new_unit("germany", "battleship", "Baltic Sea")
    germany.flags[GEAR] = {ship.id: ["radar"]}
    seat = Seat(state, game.world, game.scenario, "germany")
    gear = options(seat, m.BuildShipGear)
    assert m.BuildShipGear("aa", "Baltic Sea", "battleship") in gear
    assert m.BuildShipGear("radar", "Baltic Sea", "battleship") not in gear  # it has one: a second is lost
    assert m.BuildShipGear("radar", "Skagerrak", "battleship") in gear
    written: list[m.Order] = []
    written += _ten_drafts(seat, (attack, fire, let_pass, fortify, radar_watch), allowed=("over-budget", "build-cut"))
    kinds = {type(o) for o in written}
    assert {m.Breakthrough, m.AirRetreat, m.LetPass} <= kinds, kinds
    assert any(isinstance(o, m.BuildShipGear) and o.kind == "aa" for o in written)
    assert m.CombatCondition("Baltic Sea", "radar", 0) in written

    state = game.state.copy()
    state.new_unit("france", "cruiser", "Bay of Biscay")
    seat = Seat(state, game.world, game.scenario, "france")
    turned = [o for o in _ten_drafts(seat, (blockade,)) if isinstance(o, m.CombatCondition) and o.kind == "contact-lost"]
    assert turned, "no French task force without a battleship wrote WITHDRAW IF CONTACT LOST"


def test_a_bot_with_carriers_builds_them_fills_them_and_strikes_from_them() -> None:
    """Aircraft Carriers: a German bot with the technology and money builds a carrier
    beside its ports and complexes; fighters (Improved Fighters 2: fuel 5) are built onto
    a carrier with room; the fighters aboard a carrier in the Baltic join the attack on
    the coast of their zone. The checker keeps it all (the attack is flown by the engine)."""
    import random

    from moderator.bots.bot import Draft, _checked
    from moderator.bots.naval import carriers
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    germany = state.nations["germany"]
    germany.tech.update(aircraft_carriers=1, improved_fighters=2)
    germany.saved = 400
    seat = Seat(state, game.world, game.scenario, "germany")
    built = [o for o in _ten_drafts(seat, (carriers,)) if isinstance(o, m.Build) and o.kind == "carrier"]
    assert built and all(game.world.territories[o.place].is_sea for o in built), built

    carrier_zone = "Baltic Sea"
    state.new_unit("germany", "carrier", carrier_zone)
    state.new_unit("germany", "fighter", carrier_zone)
    seat = Seat(state, game.world, game.scenario, "germany")
    draft = Draft(seat, random.Random(0), budget=seat.saved)
    draft.targets.add("Lithuania")  # attacked this turn from Konigsberg
    carriers(draft)
    assert m.Attack((m.UnitCount("fighter", 1),), carrier_zone, "Lithuania") in draft.orders, draft.orders
    assert m.Build("fighter", 1, carrier_zone) in draft.orders, draft.orders  # the carrier's second place
    kept, dropped = _checked(draft.orders, "germany", state, game.world, game.scenario)
    assert dropped == [] and len(kept) == len(draft.orders), dropped



def _ten_drafts(seat, plays, allowed=()):  # type: ignore[no-untyped-def]
    """The orders the checker keeps of ten drafts (seeds 0-9) of `plays` for the seat; an order
    dropped for any reason but `allowed` fails the test (a bug of the bot or of the checker)."""
    import random

    from moderator.bots.bot import Draft, _checked

    kept_all = []
    for seed in range(10):
        draft = Draft(seat, random.Random(seed), budget=seat.saved)
        for play_ in plays:
            play_(draft)
        kept, dropped = _checked(draft.orders, seat.nation, seat.state, seat.world, seat.scenario)
        assert [code for _, code in dropped if code not in allowed] == [], dropped
        kept_all += kept
    return kept_all

def _commanded_armies(svc) -> None:  # type: ignore[no-untyped-def]
    """The opening position with a revolution's army the Bolsheviks command (Phase 9,
    Mutinies: the Mutineers in Warsaw, at war with Russia) and Serbia's government in
    exile in Russia (Conquest: its host commands its forces)."""
    from moderator.bots.simulate import GAME
    from moderator.engine.exile import HOST

    game = svc.game(GAME)
    state = svc.state(game)
    reds = state.nations["mutineers"]
    reds.flags["commander"] = "bolsheviks"
    reds.flags.pop("active", None)
    reds.at_war_with = ["russia"]
    state.nations["russia"].at_war_with = sorted([*state.nations["russia"].at_war_with, "mutineers"])
    for u in [u for u in state.units_at("Warsaw") if u.nation == "russia"]:
        state.units.remove(u)
    state.control["Warsaw"] = "mutineers"
    for _ in range(4):
        state.new_unit("mutineers", "infantry", "Warsaw")
    state.nations["serbia"].flags[HOST] = "russia"
    svc.store.save_snapshot(GAME, state.turn, state.dumps())


def test_a_bot_gives_the_orders_of_the_army_its_player_commands() -> None:
    """PROXY FOR (service/proxy.py): the Bolsheviks' bot orders the Mutineers' army from
    its own seat, and Russia's bot the forces of Serbia's government in exile (Serbia's
    own bot writes nothing: its host's orders come first); every order kept, in process
    and through mail, where the Bolsheviks get the Mutineers' report (checked for leaks
    as what the Mutineers saw) and each proxy receipt reaches the giver and the seat."""
    bots = ["bolsheviks", "russia", "serbia"]
    summary = simulate(1, "proxy", bots, start=_commanded_armies)
    assert summary.ok and summary.refused == [], summary.text()
    assert summary.proxies == {"bolsheviks for mutineers": 1, "russia for serbia": 1}, summary.proxies
    assert "Orders given for a nation its player commands by the rules (PROXY FOR; turns): " \
           "bolsheviks for mutineers 1, russia for serbia 1" in summary.text()

    mailed = simulate(1, "proxy", bots, mail=True, maps=False, start=_commanded_armies)
    assert mailed.ok and mailed.delivery == [] and mailed.leaks == [], mailed.text()
    assert mailed.proxies == summary.proxies
    assert mailed.mails["receipt"] == 2  # the Bolsheviks' and Russia's own orders
    assert mailed.mails["proxy receipt"] == 3  # the Mutineers' to the Bolsheviks; Serbia's to Russia and Serbia
    assert mailed.mails["report"] == 18 + 1  # every seat's, and the Mutineers' to the Bolsheviks
    assert mailed.written == mailed.accepted > 0


def test_the_summary_counts_the_variants_that_are_rules_of_their_own() -> None:
    """The soak's "Orders by type" shows which of the engine's orders a war exercised: a
    withdrawal condition by its kind (IF CONTACT LOST and IF RADAR WARNS are the sea's),
    gear by what and where, an attack off a carrier apart from one on land."""
    from moderator.bots.simulate import order_kind
    from moderator.orders import model as m

    fighter = (m.UnitCount("fighter", 1),)
    assert order_kind(m.CombatCondition("Baltic Sea", "contact-lost", 0)) == "CombatCondition contact-lost"
    assert order_kind(m.CombatCondition("Lithuania", "losses", 3)) == "CombatCondition losses"
    assert order_kind(m.BuildShipGear("aa", "Baltic Sea", "cruiser")) == "BuildShipGear aa aboard"
    assert order_kind(m.BuildShipGear("radar", "Berlin")) == "BuildShipGear radar"
    assert order_kind(m.Attack(fighter, "Baltic Sea", "Lithuania")) == "Attack from the sea"
    assert order_kind(m.Attack(fighter, "Konigsberg", "Lithuania")) == "Attack"
    assert order_kind(m.Move(fighter, "Konigsberg", "West Prussia")) == "Move"


def test_a_bot_builds_infantry_within_the_limit_of_the_place() -> None:
    """Manpower limits: infantry built in a colony count against the colonies' limit, the
    rest against the home one (engine/manpower.py). A bot judges "normal cost" by the limit
    the place draws on: with the home limit spent it still raises infantry in its colonies
    (up to what is left there), and with the colonies' spent it builds none there, however
    threatened the colony, rather than pay double."""
    import random

    from moderator.bots.bot import Draft, build
    from moderator.engine import manpower, treasuries
    from moderator.engine.phase0_deploy import is_colony
    from moderator.orders import model as m

    class Threatened(Seat):
        def threat(self, place: str) -> int:  # Algeria first in the bot's order of places
            return 9 if place == "Algeria" else super().threat(place)

    game = opening()

    def infantry(home_left: int, colonies_left: int, seat_type: type[Seat]) -> tuple[int, int]:
        state = game.state.copy()
        france = state.nations["france"]
        france.saved = 300
        france.flags[treasuries.HELD] = {"Algeria": 300}  # money in the North African colonies
        france.infantry_built = france.manpower_limit - home_left
        france.flags[manpower.COLONIAL_BUILT] = int(france.flags[manpower.COLONIAL]) - colonies_left
        seat = seat_type(state, game.world, game.scenario, "france")
        draft = Draft(seat, random.Random(1), budget=300)
        build(draft)
        built = [o for o in draft.orders if isinstance(o, m.Build) and o.kind == "infantry"]
        assert all(o.place in seat.own for o in built)
        colonies = sum(o.count for o in built if is_colony(game.world.territories[o.place]))
        return sum(o.count for o in built) - colonies, colonies

    home, colonies = infantry(0, 2, Seat)
    assert home == 0 and 0 < colonies <= 2, (home, colonies)
    home, colonies = infantry(20, 0, Threatened)
    assert colonies == 0 and home > 0, (home, colonies)
    home, colonies = infantry(20, 12, Threatened)  # room in both: the colony first, as threatened
    assert colonies > 0, (home, colonies)


def test_the_summary_tells_the_russian_revolution_from_a_mutinies_revolution() -> None:
    """The event `revolution` is a stage of the Russian Revolution (Phase 9); a socialist
    revolution that repeated mutinies start is `socialist-revolution` (Mutinies). The
    summary names each plainly and counts them apart."""
    from collections import Counter

    from moderator.bots.simulate import Summary

    summary = Summary("direct", "s", ["russia"], events=Counter({"revolution": 2, "mutiny": 3,
                                                                 "socialist-revolution": 1, "joined": 4}))
    line = next(x for x in summary.text().splitlines() if x.startswith("Nations joined"))
    assert line == ("Nations joined, the Russian Revolution, mutinies and their revolutions, rebellions, victories: "
                    "joined 4, Russian Revolution stages reached 2, mutiny 3, socialist revolution after mutinies 1, "
                    "rebellion 0, local-war-ended 0, victory-outright 0, victory-side 0"), line


def test_a_bot_at_war_researches_what_its_plays_use() -> None:
    """bots/research.py: Germany (tanks 1, battleships) tries Tanks, Radar, Improved
    Fighters and Aircraft Carriers every turn it has the money, one attempt each (Phase
    2.1); with 35 in hand, only the first (three times its price in hand for each); a neutral (Spain) follows no
    programme, nor does a dominion (its empire tries for it: one attempt for the group)."""
    import random

    from moderator.bots.bot import Draft
    from moderator.bots.research import programme
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    state.nations["germany"].saved = 200
    tried = []
    for nation in ("germany", "spain", "canada"):
        seat = Seat(state, game.world, game.scenario, nation)
        draft = Draft(seat, random.Random(0), budget=200)
        programme(draft)
        tried.append([o.tech for o in draft.orders if isinstance(o, m.Research)])
    assert tried == [["tanks", "radar", "improved_fighters", "aircraft_carriers"], [], []], tried
    seat = Seat(state, game.world, game.scenario, "germany")
    draft = Draft(seat, random.Random(0), budget=35)
    programme(draft)
    assert [o.tech for o in draft.orders if isinstance(o, m.Research)] == ["tanks"], draft.orders  # 30 for one, 25 left


def test_a_joined_nation_goes_to_war_with_the_other_camp() -> None:
    """bot.main_war: the British Empire on the Allied side and at war with nobody declares
    war on each Central Power (joining makes no war by itself, engine/wars.py join); the
    checker keeps the declarations."""
    import random

    from moderator.bots.bot import Draft, _checked, main_war
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    state.nations["britain"].side = "allied"
    seat = Seat(state, game.world, game.scenario, "britain")
    draft = Draft(seat, random.Random(0), budget=seat.saved)
    main_war(draft)
    central = sorted(n for n, ns in state.nations.items() if ns.side == "central")
    assert central and sorted(o.target for o in draft.orders if isinstance(o, m.DeclareWar)) == central
    kept, dropped = _checked(draft.orders, "britain", state, game.world, game.scenario)
    assert dropped == [] and len(kept) == len(central), dropped


def test_a_carrier_group_sails_to_the_enemy_coast_and_its_fighters_strike_there() -> None:
    """naval.carrier_move and strike: a German carrier with a fighter aboard in the
    Skagerrak, off no enemy coast, sails on a carrier mission toward the nearest zone beside
    enemy land; in the Baltic, beside Russian coast held by one infantry, its two fighters
    raid the first such coast alone, or join the attack of the turn on a coast, and leave
    coast held by more troops than they are alone; a Radar
    researched puts a radar on a battleship (naval.radar_aboard). The checker keeps it all."""
    import random

    from moderator.bots.bot import Draft, _checked
    from moderator.bots.naval import carrier_move, radar_aboard, strike
    from moderator.orders import model as m

    game = opening()
    state = game.state.copy()
    germany = state.nations["germany"]
    germany.tech.update(aircraft_carriers=1, improved_fighters=2, radar=1)
    germany.saved = 300
    state.new_unit("germany", "carrier", "Skagerrak")
    state.new_unit("germany", "fighter", "Skagerrak")
    seat = Seat(state, game.world, game.scenario, "germany")
    draft = Draft(seat, random.Random(0), budget=seat.saved)
    carrier_move(draft)
    missions = [o for o in draft.orders if isinstance(o, m.TaskForceMission)]
    assert missions and all(o.mission == "carrier" for o in missions), draft.orders
    radar_aboard(draft)
    assert any(isinstance(o, m.BuildShipGear) and o.kind == "radar" and o.ship == "battleship"
               for o in draft.orders), draft.orders
    kept, dropped = _checked(draft.orders, "germany", state, game.world, game.scenario)
    assert dropped == [] and len(kept) == len(draft.orders), dropped

    state = game.state.copy()
    state.nations["germany"].tech.update(aircraft_carriers=1, improved_fighters=2)
    state.new_unit("germany", "carrier", "Baltic Sea")
    for _ in range(2):
        state.new_unit("germany", "fighter", "Baltic Sea")
    weak = [p for p in sorted(game.world.neighbours("Baltic Sea")) if game.world.territories[p].is_land
            and state.controller(p) == "russia"]
    for place in weak:  # one infantry left on each Russian coast of the Baltic
        for u in [u for u in state.units_at(place) if u.nation == "russia"][1:]:
            state.units.remove(u)
        if not state.units_at(place):
            state.new_unit("russia", "infantry", place)
    seat = Seat(state, game.world, game.scenario, "germany")
    draft = Draft(seat, random.Random(0), budget=seat.saved)
    strike(draft, "Baltic Sea")
    attacks = [o for o in draft.orders if isinstance(o, m.Attack)]
    assert attacks == [m.Attack((m.UnitCount("fighter", 2),), "Baltic Sea", weak[0])], draft.orders  # a raid
    draft = Draft(seat, random.Random(0), budget=seat.saved)
    draft.targets.add("Lithuania")  # attacked this turn from Konigsberg: they join it
    strike(draft, "Baltic Sea")
    attacks = [o for o in draft.orders if isinstance(o, m.Attack)]
    assert attacks == [m.Attack((m.UnitCount("fighter", 2),), "Baltic Sea", "Lithuania")], draft.orders
    for place in weak:  # three infantry on each coast: more than the fighters, no raid
        for _ in range(2):
            state.new_unit("russia", "infantry", place)
    seat = Seat(state, game.world, game.scenario, "germany")
    draft = Draft(seat, random.Random(0), budget=seat.saved)
    strike(draft, "Baltic Sea")
    assert draft.orders == []
    draft.orders = attacks
    kept, dropped = _checked(draft.orders, "germany", state, game.world, game.scenario)
    assert dropped == [] and len(kept) == 1, dropped
