"""Phase 9 resolved on the fixture map: the Russian Revolution (the first hit halving
Russia's income, the rising, defections, the Bolsheviks' double income) and mutinies
past the manpower limit (severity, random territories, shares, rebels, the socialist
revolution after repeated mutinies)."""

from __future__ import annotations

from dataclasses import replace

from moderator.engine import phase9_mutiny, phase9_revolution, phase9_starvation
from moderator.engine.context import MODERATOR, TurnContext
from moderator.engine.dice import Dice, ScriptedDice
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState, NationState
from moderator.orders import model as m
from moderator.world.scenario_model import Nation, Scenario
from tests import engine_fixture as fx

RUSSIAN_INCOME = 2 + 3 + 4 + 1 + 2 + 8  # Warsaw, Minsk, Kiev, Vilna, Riga, Moscow


def scenario() -> Scenario:
    base = fx.scenario()
    reds = Nation("bolsheviks", "Bolsheviks", "minor", "neutral", manpower_pool="russia", active=False)
    return replace(base, nations={**base.nations, "bolsheviks": reds})


def state(turn: int, stage: int = 0, fund: int = 0, **kw: object) -> GameState:
    s = fx.state(**kw)  # type: ignore[arg-type]
    s.turn = turn
    s.nations["bolsheviks"] = NationState("bolsheviks", saved=0, manpower_limit=0, side="neutral",
                                          flags={"active": False})
    if stage:
        s.nations["russia"].flags[phase9_revolution.STAGE] = stage
    if fund:
        s.nations["russia"].flags[phase9_revolution.FUND] = fund
    return s


def run(s: GameState, orders: dict[str, list[m.Order]], rolls: list[int]) -> tuple[GameState, list[Event]]:
    dice = ScriptedDice({"9": rolls}, s.turn)
    new, events = resolve(s, orders, fx.world(), scenario(), dice)
    assert dice.unused() == {}, dice.unused()
    return new, events


def of(events: list[Event], code: str) -> list[Event]:
    return [e for e in events if e.code == code]


def flags(events: list[Event], reason: str) -> list[Event]:
    return [e for e in events if e.code == "moderator-flag" and e.args["reason"] == reason]


# ---- The Russian Revolution ---------------------------------------------------------------
def test_no_revolution_roll_before_turn_7() -> None:
    new, events = run(state(6), {}, [])  # "Starting in 1915, on Turn 7": no die in step 9
    assert not of(events, "revolution") and phase9_revolution.stage_of(new) == 0


def test_the_first_hit_makes_the_republic_1_in_10_in_1915_2_in_10_in_1916() -> None:
    _, events = run(state(7), {}, [2])  # turn 7 is August 1915: 1 in 10
    assert not of(events, "revolution")
    new, events = run(state(7), {}, [1])
    (rev,) = of(events, "revolution")
    assert rev.args["stage"] == 1 and rev.seen_by == ()  # public
    assert phase9_revolution.stage_of(new) == 1
    new, events = run(state(13), {}, [2])  # turn 13 is August 1916: 2 in 10
    assert of(events, "revolution") and phase9_revolution.stage_of(new) == 1


def test_the_republic_collects_half_and_keeps_the_rest_for_the_bolsheviks() -> None:
    new, events = run(state(8, stage=1, fund=3), {}, [10])
    (income,) = [e for e in of(events, "income") if e.args["nation"] == "russia"]
    assert income.args["amount"] == RUSSIAN_INCOME // 2
    assert new.nations["russia"].saved == 100 + RUSSIAN_INCOME // 2
    assert new.nations["russia"].flags[phase9_revolution.FUND] == 3 + RUSSIAN_INCOME - RUSSIAN_INCOME // 2
    assert phase9_revolution.stage_of(new) == 1  # 10: no second hit


def test_the_rising_turns_new_units_on_1_to_7_and_places_them_where_no_russian_stands() -> None:
    s = state(8, stage=1, fund=10)
    orders = {"russia": [m.Build("infantry", 3, "Moscow")]}
    # The second hit (1 in 10), then one die per Russian unit built this turn: 7 and 1 turn, 8 stays.
    new, events = run(s, orders, [1, 7, 8, 1])
    (rev,) = of(events, "revolution")
    fund = 10 + RUSSIAN_INCOME - RUSSIAN_INCOME // 2
    assert rev.args == {"stage": 2, "fund": fund, "units": 2}
    assert fx.count(new, "russia", "infantry", "Moscow") == 1
    # Kiev (4) is the most valuable Russian territory without Russian troops.
    assert fx.count(new, "bolsheviks", "infantry", "Kiev") == 2
    assert new.control["Kiev"] == "bolsheviks"
    reds = new.nations["bolsheviks"]
    assert reds.saved == fund and "active" not in reds.flags
    assert "russia" in reds.at_war_with and "bolsheviks" in new.nations["russia"].at_war_with
    assert phase9_revolution.FUND not in new.nations["russia"].flags
    (flag,) = flags(events, "revolutionaries-placed")
    assert flag.args["details"]["went"] == {"infantry": 2} and flag.args["details"]["place"] == "Kiev"


def test_revolutionaries_left_alone_in_their_territory_stay_and_take_it() -> None:
    # "strategically place those units into one or more Russian territories which do not
    # have any Russian troops on them": the default, flagged, judges after the units have
    # turned: Moscow, where all its new units turned, is free (and the most valuable), so
    # they stay; Kiev's new unit stands beside an old Russian one and goes to Moscow.
    s = state(8, stage=1, units=[("russia", "infantry", "Kiev", 1)])
    orders = {"russia": [m.Build("infantry", 2, "Moscow"), m.Build("infantry", 1, "Kiev")]}
    new, events = run(s, orders, [1, 1, 1, 1])
    assert fx.count(new, "bolsheviks", "infantry", "Moscow") == 3 and not new.units_at("Moscow", "russia")
    assert fx.count(new, "russia", "infantry", "Kiev") == 1 and not new.units_at("Kiev", "bolsheviks")
    assert new.control["Moscow"] == "bolsheviks" and new.control["Kiev"] == "russia"
    assert new.incorporated["Moscow"] == 0  # "it remains incorporated towards Russia in general"
    (captured,) = [e for e in events if e.code == "captured" and e.phase == "9"]
    assert captured.args["territory"] == "Moscow" and captured.args["nation"] == "bolsheviks"
    (flag,) = flags(events, "revolutionaries-placed")
    assert flag.args["details"]["place"] == "Moscow" and flag.args["details"]["went"] == {"infantry": 3}


def test_defectors_join_the_bolshevik_players_own_new_units() -> None:
    # "The Bolshevik player should be certain to leave instructions with the moderator where
    # to place any units gained in this fashion": the defectors are "added to the Bolshevik
    # player's newly built units", so they go where he placed his own this turn (Vilna), not
    # to the default (Kiev); nothing is referred.
    s = state(9, stage=2)
    fx.add_units(s, "bolsheviks", "infantry", "Vilna", 1)
    s.control["Vilna"] = "bolsheviks"
    s.nations["bolsheviks"].saved = 20
    orders = {"russia": [m.Build("infantry", 2, "Moscow")], "bolsheviks": [m.Build("infantry", 1, "Vilna")]}
    new, events = run(s, orders, [9, 3])
    assert fx.count(new, "bolsheviks", "infantry", "Vilna") == 3 and not new.units_at("Kiev", "bolsheviks")
    assert fx.count(new, "russia", "infantry", "Moscow") == 1
    assert not flags(events, "defectors-placed")


def everywhere_russian() -> GameState:
    """Russian troops in every territory of Russia's start: one each, three in Moscow."""
    s = state(8, stage=1, units=[("russia", "infantry", t, 1) for t in ("Kiev", "Minsk", "Riga", "Vilna", "Warsaw")]
              + [("russia", "infantry", "Moscow", 3)])
    return s


def test_revolutionaries_with_nowhere_free_attack_and_take_the_territory() -> None:
    # "If no such territories exist, then the moderator will pick a Russian territory which
    # the revolutionaries will attack. If they succeed in the attack, the territory becomes
    # rebel-owned": the default is Kiev, of the fewest Russian units the most valuable.
    orders = {"russia": [m.Build("infantry", 2, "Moscow")]}
    # The second hit, both new units turn; the battle: two attackers hit (3 or less), the
    # defender (5) and Kiev's city (1) miss.
    new, events = run(everywhere_russian(), orders, [1, 1, 2, 1, 3, 6, 2])
    (battle,) = of(events, "battle")
    assert battle.args["territory"] == "Kiev" and battle.args["origins"] == ["Moscow"]
    assert battle.args["captured"] and battle.args["losses"]["russia"] == {"infantry": 1}
    assert new.control["Kiev"] == "bolsheviks" and fx.count(new, "bolsheviks", "infantry", "Kiev") == 2
    (flag,) = flags(events, "revolutionaries-attacked")
    assert flag.args["details"]["place"] == "Kiev" and flag.args["details"]["won"]
    assert phase9_revolution.stage_of(new) == 2


def test_revolutionaries_beaten_in_their_attack_crush_the_revolution() -> None:
    # "If they fail, the revolution is crushed then and there."
    orders = {"russia": [m.Build("infantry", 1, "Moscow")]}
    # The second hit, the unit turns; the battle: the attacker misses, the defender hits.
    new, events = run(everywhere_russian(), orders, [1, 1, 10, 5, 10])
    assert not of(events, "battle")[0].args["captured"]
    assert new.control["Kiev"] == "russia" and not [u for u in new.units if u.nation == "bolsheviks"]
    (end,) = of(events, "revolution-ended")
    assert end.args["winner"] == "russia" and phase9_revolution.stage_of(new) == phase9_revolution.ENDED
    assert "bolsheviks" not in new.nations["russia"].at_war_with
    assert not flags(events, "revolutionaries-attacked")[0].args["details"]["won"]


def test_after_the_rising_new_russian_units_defect_on_8_to_10() -> None:
    s = state(9, stage=2)
    fx.add_units(s, "bolsheviks", "infantry", "Vilna", 1)  # the civil war goes on
    orders = {"russia": [m.Build("infantry", 2, "Moscow")]}
    new, events = run(s, orders, [9, 3])  # no revolution roll any more; one die per unit built
    assert of(events, "revolution-defections")[0].args["units"] == 1
    assert fx.count(new, "russia", "infantry", "Moscow") == 1
    assert fx.count(new, "bolsheviks", "infantry", "Kiev") == 1


def test_the_bolsheviks_draw_double_from_russian_lands() -> None:
    s = state(9, stage=2)
    s.control["Kiev"] = "bolsheviks"  # Kiev 4, incorporated since turn 0
    fx.add_units(s, "bolsheviks", "infantry", "Kiev", 1)
    new, events = run(s, {}, [])
    (income,) = [e for e in of(events, "income") if e.args["nation"] == "bolsheviks"]
    assert income.args["amount"] == 2 * 4 and new.nations["bolsheviks"].saved == 8
    (russia,) = [e for e in of(events, "income") if e.args["nation"] == "russia"]
    assert russia.args["amount"] == RUSSIAN_INCOME - 4  # after the rising: no halving


def test_the_civil_war_ends_when_the_bolsheviks_have_no_units_and_russia_takes_their_land() -> None:
    s = state(10, stage=2)
    s.control["Kiev"] = "bolsheviks"
    new, events = run(s, {}, [])  # no defection die: the war is over first
    (end,) = of(events, "revolution-ended")
    assert end.args == {"winner": "russia", "territories": ["Kiev"]} and end.seen_by == ()
    assert new.control["Kiev"] == "russia" and phase9_revolution.stage_of(new) == phase9_revolution.ENDED
    assert "bolsheviks" not in new.nations["russia"].at_war_with
    _, events = run(new, {"russia": [m.Build("infantry", 1, "Moscow")]}, [])  # over: no more rolls
    assert not of(events, "revolution-defections")


def test_the_bolsheviks_win_when_russia_holds_no_city_and_no_soldier() -> None:
    s = state(10, stage=2, units=[("bolsheviks", "infantry", "Moscow", 2), ("russia", "cruiser", "Baltic Sea", 1)])
    for t in ("Warsaw", "Kiev", "Moscow"):  # the Russian cities of the fixture
        s.control[t] = "bolsheviks"
    new, events = run(s, {}, [])
    (end,) = of(events, "revolution-ended")
    assert end.args["winner"] == "bolsheviks"
    assert all(new.control[t] == "bolsheviks" for t in ("Minsk", "Vilna", "Riga"))
    assert [u.nation for u in new.units if u.kind == "cruiser"] == ["bolsheviks"]  # ships go to the winner
    (wars,) = of(events, "bolshevik-wars")  # nobody else holds Russian land: no war yet
    assert wars.args == {"nations": [], "why": "reunify"} and not flags(events, "bolsheviks-won")


def test_after_winning_the_bolsheviks_fight_the_conquerors_then_russias_old_foes() -> None:
    # "they may then selectively target and attack any nations which had conquered any
    # Russian territories ... If and only if, all that has been achieved will the Bolshevik
    # player then seek to continue any wars Russia had been in at the time of the
    # Revolution's start".
    s = state(10, stage=2, units=[("bolsheviks", "infantry", "Moscow", 2), ("germany", "infantry", "Warsaw", 1)])
    s.nations["bolsheviks"].flags[phase9_revolution.AT_RISING] = ["austria", "germany"]
    for t in ("Kiev", "Moscow", "Minsk", "Vilna", "Riga"):
        s.control[t] = "bolsheviks"
    s.control["Warsaw"] = "germany"
    won, events = run(s, {}, [])
    assert [e.args for e in of(events, "bolshevik-wars")] == [{"nations": ["germany"], "why": "reunify"}]
    assert won.at_war("bolsheviks", "germany") and not won.at_war("bolsheviks", "austria")
    won.turn += 1
    _, events = run(won, {}, [])  # Warsaw still German: Russia's old wars wait
    assert not of(events, "bolshevik-wars")
    won.control["Warsaw"] = "bolsheviks"
    again, events = run(won, {}, [])
    assert [e.args for e in of(events, "bolshevik-wars")] == [{"nations": ["austria"], "why": "reunified"}]
    assert again.at_war("bolsheviks", "austria") and again.at_war("austria", "bolsheviks")
    assert again.nations["bolsheviks"].flags[phase9_revolution.REUNIFIED] == won.turn
    again.turn += 1
    _, events = run(again, {}, [])  # once
    assert not of(events, "bolshevik-wars")


def test_the_rising_records_russias_wars() -> None:
    s = state(9, stage=1)
    s.nations["russia"].at_war_with = ["austria", "germany"]
    new, _ = run(s, {}, [1])  # the second hit: the rising (no unit built, no die more)
    assert new.nations["bolsheviks"].flags[phase9_revolution.AT_RISING] == ["austria", "germany"]


def test_the_revolution_rate_by_year_through_the_engine() -> None:
    # "1 in 10 ... 1915, 2 in 10 ... 1916, 3 in 10 ... 1917, 4 in 10 ... 1918": the first
    # hit counted over seeded turns, within 4 standard deviations.
    for turn, in_ten in ((7, 1), (13, 2), (19, 3), (25, 4)):
        hits, n = 0, 1500
        for i in range(n):
            ctx = TurnContext(state(turn), {}, fx.world(), scenario(), dice_root=Dice(f"rev-{turn}", i))
            phase9_revolution.russian_revolution(ctx)
            hits += phase9_revolution.stage(ctx)
        p = in_ten / 10
        assert abs(hits / n - p) < 4 * (p * (1 - p) / n) ** 0.5, (turn, hits)


# ---- Mutinies ------------------------------------------------------------------------------
def past_the_limit(limit: int = 2) -> GameState:
    s = state(2, units=[("russia", "infantry", "Warsaw", 4), ("russia", "artillery", "Warsaw", 4)])
    s.nations["russia"].manpower_limit, s.nations["russia"].infantry_built = limit, 2
    return s


BUILD = {"russia": [m.Build("infantry", 1, "Moscow")]}


def test_no_mutiny_roll_within_the_manpower_limit() -> None:
    _, events = run(past_the_limit(limit=5), BUILD, [])
    assert not of(events, "mutiny")


def test_infantry_past_the_limit_risk_a_mutiny_2_in_10() -> None:
    _, events = run(past_the_limit(), BUILD, [3])
    assert not of(events, "mutiny")
    # 2: a mutiny; 5: large (5-7), two territories at random, 50% (round up) of each,
    # divided evenly among the unit types.
    new, events = run(past_the_limit(), BUILD, [2, 5, 1, 0])
    warsaw, moscow = of(events, "mutiny")
    assert (warsaw.args["place"], warsaw.args["severity"]) == ("Warsaw", "large")
    assert warsaw.args["units"] == {"artillery": 2, "infantry": 2} and warsaw.seen_by == ("russia", MODERATOR)
    assert moscow.args["units"] == {"infantry": 1}  # 50% of 1, rounded up
    assert fx.count(new, "russia", "infantry", "Warsaw") == 2 and fx.count(new, "russia", "artillery", "Warsaw") == 2
    assert new.nations["russia"].flags[phase9_mutiny.AFFECTED] == ["Warsaw", "Moscow"]


def test_starvation_raises_no_mutiny_in_the_turn_it_takes_the_manpower() -> None:
    # "Note that starvation effect won't raise rebellion in the same turn when manpower limit
    # is exceeded if new units are raised": the mutiny check comes before the starvation.
    s = past_the_limit(limit=3)  # 2 built of 3: one more at normal cost
    shut_in = ["Kiev", "Minsk", "Moscow", "Riga", "Vilna", "Warsaw"]  # the fixture's Russia reaches no neutral
    s.nations["russia"].flags[phase9_starvation.POCKETS] = dict.fromkeys(shut_in, 2)  # a third turn: -2
    new, events = run(s, BUILD, [])  # no die scripted: a mutiny roll would fail the run
    assert [e.args["lost"] for e in of(events, "starvation")] == [2]
    assert (new.nations["russia"].infantry_built, new.nations["russia"].manpower_limit) == (3, 1)
    # The next turn's infantry are past the lowered limit: the roll is due (a 3: none).
    _, events = run(new, BUILD, [3])
    assert not of(events, "mutiny")


def test_a_small_mutiny_disbands_a_quarter_rounded_up() -> None:
    new, events = run(past_the_limit(), BUILD, [1, 4, 1])
    (only,) = of(events, "mutiny")
    assert only.args["severity"] == "small" and only.args["units"] == {"infantry": 1, "artillery": 1}
    assert len(new.units_at("Warsaw", "russia")) == 6


def test_a_disastrous_mutiny_disbands_75_percent_and_the_second_territory_rebels() -> None:
    new, events = run(past_the_limit(), BUILD, [2, 8, 1, 0])
    first, second = of(events, "mutiny")
    assert first.args["units"] == {"artillery": 3, "infantry": 3} and not first.args["rebelled"]
    assert second.args["place"] == "Moscow" and second.args["rebelled"]
    assert not new.units_at("Moscow", "russia")
    (flag,) = flags(events, "mutiny-rebels")
    assert flag.args["details"]["went"] == {"infantry": 1}


def test_disastrous_rebels_become_the_mutineers_at_war_with_their_nation() -> None:
    # "the moderator will control these units as if they belonged to a minor nation who was
    # brought into the war against the mutineers home nation. If the Mutinying forces
    # successfully capture the nation's capital they will force the government to offer its
    # foes a surrender": Moscow, the capital, rebels (the second territory picked).
    s = past_the_limit()
    fx.add_units(s, "russia", "infantry", "Moscow", 1)
    s.nations["mutineers"] = NationState("mutineers", saved=0, manpower_limit=0, side="neutral",
                                         flags={"active": False})
    s.nations["russia"].at_war_with = ["germany"]
    s.nations["germany"].at_war_with = ["russia"]
    rebel_infantry = next(u.id for u in s.units_at("Moscow", "russia"))
    s.nations["russia"].flags["built_at"] = {rebel_infantry: {"improved_weapons": 1}}
    rebels = Nation("mutineers", "Mutineers", "minor", "neutral", playable=False, active=False)
    russia = replace(scenario().nations["russia"], capital="Moscow")
    with_rebels = replace(scenario(), nations={**scenario().nations, "mutineers": rebels, "russia": russia})
    dice = ScriptedDice({"9": [2, 8, 1, 0]}, s.turn)
    new, events = resolve(s, BUILD, fx.world(), with_rebels, dice)
    first, second = of(events, "mutiny")
    assert second.args["place"] == "Moscow" and second.args["rebelled"]
    assert not flags(events, "mutiny-rebels")
    assert not new.units_at("Moscow", "russia") and len(new.units_at("Moscow", "mutineers")) == 2
    reds = new.nations["mutineers"]
    assert "active" not in reds.flags and reds.at_war_with == ["russia"]
    assert new.at_war("russia", "mutineers") and new.control["Moscow"] == "mutineers"
    assert "Moscow" not in new.incorporated  # conquered land: nothing until incorporated
    assert reds.flags["built_at"][rebel_infantry] == {"improved_weapons": 1}  # they fight as they did
    assert reds.flags["fights_as"][rebel_infantry] == "russia"  # with Russia's unit values
    assert rebel_infantry not in new.nations["russia"].flags["built_at"]
    (captured,) = [e for e in events if e.code == "captured" and e.args["territory"] == "Moscow"]
    assert captured.seen_by == () and captured.args["nation"] == "mutineers"
    (taken,) = of(events, "mutineers-took-capital")
    assert taken.args == {"nation": "russia", "capital": "Moscow"}
    (offer,) = of(events, "surrender-offered")
    assert offer.args == {"nation": "russia", "to": ["germany", "mutineers"]}
    assert new.nations["russia"].flags["surrender_offer"] == s.turn
    new.turn += 1
    _, events = resolve(new, {}, fx.world(), with_rebels, ScriptedDice({}, new.turn))
    assert not of(events, "mutineers-took-capital")  # one offer, answered this turn


def test_a_mutiny_after_two_provinces_mutinied_may_start_a_socialist_revolution() -> None:
    s = past_the_limit()
    s.nations["russia"].flags[phase9_mutiny.AFFECTED] = ["Minsk", "Riga"]
    _, events = run(s, BUILD, [1, 1, 1, 6])  # 6: no revolution
    assert not flags(events, "socialist-revolution")
    _, events = run(s, BUILD, [1, 1, 1, 5])  # "On roll of 1-5 on a D10, a revolution will happen"
    (flag,) = flags(events, "socialist-revolution")
    assert flag.args["details"]["provinces"] == ["Minsk", "Riga", "Warsaw"]


def test_a_socialist_revolution_hands_the_mutinied_provinces_to_the_mutineers() -> None:
    # "all units that are affected by mutinies defect to the rebel army ... those armies
    # occupy and incorporate the province(s) they are in"
    s = past_the_limit()
    fx.add_units(s, "russia", "infantry", "Minsk", 2)
    s.nations["russia"].flags[phase9_mutiny.AFFECTED] = ["Minsk", "Riga"]
    s.nations["mutineers"] = NationState("mutineers", saved=0, manpower_limit=0, side="neutral",
                                         flags={"active": False})
    rebels = Nation("mutineers", "Mutineers", "minor", "neutral", playable=False, active=False)
    with_rebels = replace(scenario(), nations={**scenario().nations, "mutineers": rebels})
    # a mutiny (1), small (1) in Warsaw (the third of Minsk, Moscow, Warsaw), the revolution (5)
    new, events = resolve(s, BUILD, fx.world(), with_rebels, ScriptedDice({"9": [1, 1, 2, 5]}, s.turn))
    assert len(new.units_at("Warsaw", "mutineers")) == 6 and not new.units_at("Warsaw", "russia")
    assert fx.count(new, "mutineers", "infantry", "Minsk") == 2 and not new.units_at("Minsk", "russia")
    assert new.control["Warsaw"] == new.control["Minsk"] == "mutineers" and new.control["Riga"] == "russia"
    assert new.incorporated["Warsaw"] == new.incorporated["Minsk"] == s.turn  # "occupy and incorporate"
    assert new.at_war("russia", "mutineers") and new.control["Moscow"] == "russia"
    (rising,) = of(events, "socialist-revolution")
    assert rising.args == {"nation": "russia", "provinces": ["Minsk", "Riga", "Warsaw"]} and rising.seen_by == ()
    # "Such army is controlled by Bolshevik player or another free player": the Bolsheviks
    # are not on the board (no Russian rising yet), so their player commands it.
    (command,) = of(events, "rebels-command")
    assert command.args == {"nation": "bolsheviks", "rebels": "mutineers", "revolted": "russia"}
    assert command.seen_by == ("bolsheviks", MODERATOR)
    assert phase9_mutiny.commander_of(new, "mutineers") == "bolsheviks" and not flags(events, "socialist-revolution")


def with_mutineers(s: GameState) -> Scenario:
    s.nations["mutineers"] = NationState("mutineers", saved=0, manpower_limit=0, side="neutral",
                                         flags={"active": False})
    rebels = Nation("mutineers", "Mutineers", "minor", "neutral", playable=False, active=False)
    return replace(scenario(), nations={**scenario().nations, "mutineers": rebels})


def test_disastrous_rebels_are_the_moderators_to_command() -> None:
    # "On the following turns the moderator will control these units"
    s = past_the_limit()
    new, _ = resolve(s, BUILD, fx.world(), with_mutineers(s), ScriptedDice({"9": [2, 8, 1, 0]}, s.turn))
    assert new.nations["mutineers"].flags[phase9_mutiny.COMMANDER] == MODERATOR
    assert phase9_mutiny.commander_of(new, "mutineers") is None


def test_a_bolshevik_player_busy_with_the_civil_war_leaves_the_revolution_to_another_free_player() -> None:
    # The Russian rising has put the Bolsheviks on the board: "another free player", whom
    # the moderator picks (a referral); the moderator commands the army until then.
    s = past_the_limit()
    s.nations["germany"].manpower_limit, s.nations["germany"].infantry_built = 0, 5
    s.nations["russia"].manpower_limit = 100
    fx.add_units(s, "germany", "infantry", "Berlin", 2)
    fx.add_units(s, "bolsheviks", "infantry", "Kiev", 1)
    s.nations["germany"].flags[phase9_mutiny.AFFECTED] = ["Silesia", "Posen"]
    orders = {"germany": [m.Build("infantry", 1, "Berlin")]}
    # a mutiny (1), small (1) in Berlin (the only German land with units), the revolution (5)
    new, events = resolve(s, orders, fx.world(), with_mutineers(s), ScriptedDice({"9": [1, 1, 0, 5]}, s.turn))
    assert of(events, "socialist-revolution") and not of(events, "rebels-command")
    (flag,) = flags(events, "revolution-free-player")
    assert flag.args["nation"] == "germany" and flag.args["details"]["provinces"] == ["Berlin", "Posen", "Silesia"]
    assert phase9_mutiny.commander_of(new, "mutineers") is None
    assert new.control["Berlin"] == "mutineers" and new.at_war("germany", "mutineers")


def test_a_first_mutiny_does_not_roll_for_revolution() -> None:
    s = past_the_limit()
    s.nations["russia"].flags[phase9_mutiny.AFFECTED] = ["Minsk"]
    _, events = run(s, BUILD, [1, 1, 1])  # one province before: no revolution die
    assert of(events, "mutiny")


def test_mutiny_rate_and_severity_through_the_engine() -> None:
    # "a 2 in 10 chance of a mutiny happening ... On a 1-4 it will be a small mutiny ... 5-7
    # ... large, and 8-10 a disastrous mutiny": counted over seeded Phase 9s, within 4 sigma.
    n, mutinies, severity = 3000, 0, {"small": 0, "large": 0, "disastrous": 0}
    for i in range(n):
        s = past_the_limit()
        s.nations["russia"].infantry_built = 3  # the one bought this turn placed past the limit
        ctx = TurnContext(s, {}, fx.world(), scenario(), dice_root=Dice("mutiny-rate", i))
        ctx.emit("built", "3.1", ("russia",), nation="russia", order=0, kind="infantry", count=1, place="Moscow",
                 cost=8)
        ctx.emit("placed", "7", ("russia",), nation="russia", kind="infantry", count=1, place="Moscow")
        phase9_mutiny.mutinies(ctx)
        found = [e for e in ctx.events if e.code == "mutiny"]
        if found:
            mutinies += 1
            severity[found[0].args["severity"]] += 1
    sigma = (0.2 * 0.8 / n) ** 0.5
    assert abs(mutinies / n - 0.2) < 4 * sigma, mutinies
    for name, p in (("small", 0.4), ("large", 0.3), ("disastrous", 0.3)):
        assert abs(severity[name] / mutinies - p) < 4 * (p * (1 - p) / mutinies) ** 0.5, severity


def test_the_moderator_is_asked_for_a_free_player_once() -> None:
    # A later revolution joins the same army: no second referral while it waits.
    s = past_the_limit()
    scen = with_mutineers(s)
    fx.add_units(s, "bolsheviks", "infantry", "Kiev", 1)  # the Bolshevik player is busy
    ctx = TurnContext(s, {}, fx.world(), scen)
    phase9_mutiny.revolution(ctx, "russia", ["Warsaw"])
    phase9_mutiny.revolution(ctx, "russia", ["Minsk", "Warsaw"])
    assert len([e for e in ctx.events if e.code == "moderator-flag"]) == 1
    assert len([e for e in ctx.events if e.code == "socialist-revolution"]) == 2


def test_rebels_fight_with_their_countrys_unit_values() -> None:
    # "they fight with the same value as the units belonging to the same country": a rebel
    # from an army whose infantry defend at 6 still defends at 6 as a Mutineer.
    base = scenario()
    serbian = {"infantry": replace(fx.STATS["infantry"], defense=6)}
    rebels = Nation("mutineers", "Mutineers", "minor", "neutral", playable=False)
    scen = replace(base, nations={**base.nations, "mutineers": rebels}, units={**base.units, "russia": serbian})
    s = state(2, units=[("mutineers", "infantry", "Warsaw", 1)])
    s.nations["mutineers"] = NationState("mutineers", side="neutral")
    (rebel,) = s.units_at("Warsaw", "mutineers")
    ctx = TurnContext(s, {}, fx.world(), scen)
    assert ctx.stats("mutineers", "infantry", rebel).defense == 5  # the Mutineers' own (default) values
    s.nations["mutineers"].flags["fights_as"] = {rebel.id: "russia"}
    assert ctx.stats("mutineers", "infantry", rebel).defense == 6
