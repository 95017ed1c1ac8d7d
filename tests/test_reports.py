"""The words and the structure of every report kind (Miscellaneous: own status to each
nation, the common status to each alliance, the common news to every player; the
moderator sees everything). Golden files hold each kind's whole text, so a change of
words is a reviewed change: regenerate them with UPDATE_GOLDEN=1 and read the diff."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest

from moderator.engine.context import MODERATOR
from moderator.engine.events import Event
from moderator.engine.state import GameState
from moderator.orders import parse_orders
from moderator.orders.checker import check_text
from moderator.reports.build import build_reports, nation_mail
from moderator.reports.content import TurnInfo
from moderator.reports.render import render
from moderator.service.games import nation_id
from moderator.world.scenario import load_scenario
from tests import engine_fixture as fx
from tests.report_text import flat, says

GOLDEN = Path(__file__).parent / "golden" / "reports"
INFO = TurnInfo("g1", "Golden War", 2, "October 1914", 3, "December 1914", "Friday 10 December 1926, 23:59 UTC",
                corrections="Wednesday 3 December 1926, 23:59 UTC", ordered=("germany", "austria"),
                missed={"russia": 2})


def position() -> GameState:
    """Turn 3: Germany took Warsaw on turn 2 (incorporated: nothing yet, half from turn 6);
    armies face each other from Posen, Silesia and Konigsberg."""
    gs = fx.state([("germany", "infantry", "Posen", 6), ("germany", "artillery", "Posen", 2),
                   ("germany", "infantry", "Warsaw", 4), ("germany", "infantry", "Berlin", 2),
                   ("germany", "cruiser", "Baltic Sea", 1), ("austria", "infantry", "Vienna", 5),
                   ("russia", "infantry", "Minsk", 7), ("russia", "infantry", "Kiev", 3),
                   ("france", "infantry", "Paris", 8)])
    gs.turn = 3
    gs.control["Warsaw"] = "germany"
    gs.incorporated["Warsaw"] = 2
    gs.nations["germany"].saved, gs.nations["germany"].infantry_built = 37, 12
    gs.nations["germany"].tech = {"tanks": 1}
    next(u for u in gs.units if u.kind == "cruiser").damage = 1  # the cruiser took a hit
    return gs


def events() -> list[Event]:
    g, r, a = ("germany",), ("russia",), ("austria",)
    return [
        Event("war-declared", "1.1", (), {"nation": "germany", "target": "belgium", "surprise": False}),
        Event("built", "3.1", g, {"nation": "germany", "order": 0, "kind": "infantry", "count": 2,
                                   "place": "Berlin", "cost": 8}),
        Event("order-refused", "4.4", g, {"nation": "germany", "order": 2, "text": "MOVE 3 inf FROM Berlin TO Paris",
                                          "reason": "not-adjacent", "details": {"origin": "Berlin", "dest": "Paris"}}),
        Event("battle", "4.6", ("germany", "russia"), {
            "territory": "Warsaw", "origins": ["Posen", "Silesia"], "attacker": "germany", "attackers": ["germany"],
            "defender": "russia", "clash": False,
            "defenders": ["russia"], "rounds": 2, "strait": False,
            "losses": {"germany": {"infantry": 2}, "russia": {"infantry": 5}}, "captured": True,
            "withdrawn": None, "rolls": [0, 14]}),
        Event("battle-forces", "4.6", g, {"nation": "germany", "territory": "Warsaw", "role": "attacker",
                                          "own": {"germany": {"artillery": 2, "infantry": 8}}, "seen": "band",
                                          "enemy": {}, "band": "yellow"}),
        Event("captured", "4.4", (), {"territory": "Warsaw", "nation": "germany", "holder": "germany",
                                      "previous": "russia"}),
        Event("battle", "4.6", ("austria", "russia"), {
            "territory": "Kiev", "origins": ["Vienna"], "attacker": "austria", "attackers": ["austria"],
            "defender": "russia", "clash": False,
            "defenders": ["russia"], "rounds": 1, "strait": False,
            "losses": {"austria": {"infantry": 3}, "russia": {"infantry": 1}}, "captured": False,
            "withdrawn": "losses:2", "rolls": [14, 20]}),
        Event("moved", "4.4", r, {"nation": "russia", "order": 0, "origin": "Moscow", "dest": "Minsk",
                                  "units": {"infantry": 4}}),
        Event("moved", "4.4", a, {"nation": "austria", "order": 1, "origin": "Vienna", "dest": "Silesia",
                                  "units": {"infantry": 1}}),
        Event("placed", "7", g, {"nation": "germany", "kind": "infantry", "count": 2, "place": "Berlin"}),
        Event("income", "8", g, {"nation": "germany", "full": 19, "rule": "full", "amount": 19, "saved": 37,
                                 "kept_apart": 0}),
        Event("ruling", "R", (MODERATOR, "germany"), {"text": "SET SAVED OF Germany TO 37", "nations": ["germany"],
                                                       "details": {}}),
        Event("moderator-flag", "4.6", (MODERATOR,), {"reason": "not-adjacent", "nation": "russia", "details": {}}),
    ]


def reports() -> dict[str, str]:
    # With the 1914 reconnaissance table, so the reports show what the units see (3.3).
    fx_world, fx_scenario = fx.world(), dataclasses.replace(fx.scenario(), recon=load_scenario("1914").recon)
    out = {r.audience: r.text for r in build_reports(position(), events(), fx_scenario, fx_world, INFO,
                                                      ["germany", "austria", "belgium"], lambda v, t: b"")}
    out["moderator"] = render("moderator", title=INFO.title, game=INFO.game, resolved_turn=2,
                              resolved_date=INFO.resolved_date, ordered=["germany", "austria"], missing=["russia"],
                              flags=["#4 Russia: not adjacent"], waiting=["#2 [note, turn 1] Germany: hello",
                                                                          "#4 [flag, turn 2] Russia: not adjacent"],
                              missed={"russia": 2}, dice_count=20, sha256="0" * 64, events=events(),
                              names=lambda n: fx_scenario.nations[n].name if n in fx_scenario.nations else n)[0]
    return out


@pytest.mark.parametrize("audience", ["germany", "belgium", "alliance:central", "public", "moderator"])
def test_each_report_kind_reads_as_its_golden_file(audience: str) -> None:
    text = reports()[audience]
    path = GOLDEN / f"{audience.replace(':', '-')}.txt"
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_a_nation_report_holds_what_a_player_needs_for_the_next_turn() -> None:
    raw = reports()["germany"]
    text = flat(raw)  # the text part is wrapped at 78 characters
    assert "Treasury: 37 resources saved." in text
    assert "Warsaw" in text and "0 (nothing yet); 1 from turn 6; 2 from turn 12" in text  # Phase 6 table
    assert "12 infantry built of a limit of 50; 38 left" in text
    assert "Tanks 1 of 4" in text
    assert "Battle at Warsaw" in text and "Battle at Kiev" not in text  # Austria's battle is not Germany's
    assert "Moscow to Minsk" not in text  # Russia's move
    assert "Order 3 (MOVE 3 inf FROM Berlin TO Paris) was not carried out" in text
    assert "The moderator ruled: SET SAVED OF Germany TO 37" in text
    assert "Friday 10 December 1926" in text and "Wednesday 3 December 1926" in text
    assert "#   Posen (2 art, 6 inf) borders Minsk (Russia)" not in raw  # Posen borders no Russian land
    assert "#   Warsaw (4 inf) borders Kiev (Russia), Minsk (Russia), Vilna (Russia)" in raw  # the block: never wrapped
    assert "no orders" not in text.lower()
    belgium = reports()["belgium"]
    assert "You sent no orders this turn" in belgium and "Battle at" not in belgium


def test_the_order_block_parses_as_it_is_and_names_the_nation() -> None:
    gs = position()
    report = nation_mail(gs, events(), fx.scenario(), fx.world(), INFO, "germany")
    block = report.data["order_block"]
    parsed = parse_orders(block)
    assert [d for d in parsed.diagnostics if d.severity == "error"] == []
    assert parsed.orders == []  # comments only: nothing is ordered until the player writes it
    assert parsed.header.game == "g1" and parsed.header.turn == 3
    assert nation_id(fx.scenario(), parsed.header.nation or "") == "germany"
    assert "#   Posen: 2 art, 6 inf" in block
    # An example line taken out of its comment is an order the checker accepts.
    example = next(line for line in block.splitlines() if line.startswith("# e.g. "))[len("# e.g. "):]
    checked = check_text(block + example + "\n", "germany", gs, fx.world(), fx.scenario())
    assert [d.message for d in checked.diagnostics if d.severity == "error"] == []


def test_the_json_is_the_same_report() -> None:
    report = nation_mail(position(), events(), fx.scenario(), fx.world(), INFO, "germany")
    data = json.loads(report.json_bytes())
    assert data["kind"] == "nation" and data["nation"] == "germany"
    for key in ("actions", "battles", "rulings", "news", "shared"):
        for told in data[key]:
            assert says(report.text, told["text"])
            assert "rolls" not in told["args"]  # the dice log is the moderator's
    for place, kinds in data["sheet"]["units"].items():
        units_part = report.text.split("\nUnits (", 1)[1]
        line = next(x for x in units_part.splitlines() if x.startswith(f"  {place} "))
        assert all(f"{n} {kind}" in line for kind, n in kinds.items())
    assert data["sheet"]["saved"] == 37 and data["orders_arrived"] is True


def test_what_only_the_alliance_saw_is_not_called_public_news() -> None:
    """A passive reconnaissance result goes to the observing allies (3.3): the nation's
    report tells it with its intelligence, apart from the news every player reads; a naval
    battle it fought is among its battles (4.3), not in the news."""
    recon = Event("recon-report", "3.3", ("austria", "germany"), {
        "place": "Lublin", "seen": "exact", "units": {"russia": {"infantry": 4}}, "band": "black", "percent": 81})
    naval = Event("naval-battle", "4.3", ("germany", "russia"), {
        "zone": "Baltic Sea", "fleets": [], "first": ["germany"], "second": ["russia"], "rounds": 2, "free": "",
        "ended": "destroyed", "losses": {"russia": {"cruiser": 1}}, "damaged": {}, "withdrawn": None, "rolls": [0, 0]})
    report = nation_mail(position(), [*events(), recon, naval], fx.scenario(), fx.world(), INFO, "germany")
    data = json.loads(report.json_bytes())
    assert [t["code"] for t in data["intelligence"]] == ["recon-report"]
    assert "naval-battle" in [t["code"] for t in data["battles"]]
    assert all(t["code"] not in ("recon-report", "naval-battle") for t in data["news"])
    assert data["shared"] == []
    assert "Lublin" not in report.text.split("== News (every player reads these) ==", 1)[1]


def test_the_camps_list_only_nations_on_the_map() -> None:
    """The Bolsheviks' seat exists from the start, the Bolsheviks only from the revolution
    (Phase 9): the public list of camps leaves them out until they hold land or units."""
    from moderator.reports.visibility import _sides
    from moderator.world.loader import load_world
    from moderator.world.scenario import initial_state

    scenario, world = load_scenario("1914"), load_world("1914")
    state = initial_state(scenario, world, "t")
    assert "bolsheviks" not in _sides(state) and _sides(state)["britain"] == "neutral"
    state.control["Moscow"] = "bolsheviks"
    assert "bolsheviks" in _sides(state)


def test_a_landing_battle_names_the_coastal_defence_unit() -> None:
    """4.6 naval invasions: "a 1 defense factor coastal defense unit" is lost first; the
    report says so in words, not with the engine's short name."""
    from moderator.reports.render import event_text

    battle = Event("battle", "4.6", ("germany", "russia"), {
        "territory": "Estonia", "origins": ["Baltic Sea"], "attacker": "germany", "attackers": ["germany"],
        "defender": "russia", "clash": False, "defenders": ["russia"], "rounds": 3, "strait": False,
        "losses": {"germany": {"infantry": 1}, "russia": {"coastal": 1}}, "captured": False, "withdrawn": None,
        "rolls": [0, 0]})
    text = event_text(battle, lambda n: n.title())
    assert "Russia 1 coastal defence unit" in text and "1 coastal;" not in text and "1 coastal." not in text


def test_many_separated_treasuries_are_laid_out_two_to_a_line() -> None:
    """3.1: Germany's colonies each keep their own treasury; a dozen of them read as columns
    (text) and a table (HTML), not as one long line."""
    from moderator.reports.render import environment

    apart = {f"Colony {chr(65 + i)}": i for i in range(12)}
    sheet = dict(standing=None, at_war_with=[], saved=37, held_apart=apart, income=19, income_full=19,
                 income_rule="full", manpower_used=1, manpower_limit=5, manpower_left=4, tech={}, holdings=[],
                 units={}, unit_total=0, damaged={}, to_deploy={}, waiting_builds=[], rail_moves=[])
    env = environment()
    text = env.from_string('{% import "_sheet.j2" as sh %}{{ sh.sheet_text(s, full=False) }}').render(s=sheet)
    rows = [line for line in text.splitlines() if line.startswith("  Colony")]
    assert len(rows) == 6 and all(len(line) <= 80 for line in rows)
    assert "66 more kept apart in 12 separated territories" in text
    assert rows[0].split() == ["Colony", "A", "0", "Colony", "B", "1"]
    html = env.from_string('{% import "_sheet.j2" as sh %}{{ sh.sheet_html(s, full=False) }}').render(s=sheet)
    assert html.count("<td>Colony") == 12 and html.count("<tr><td>Colony") == 4  # three to a row


def test_unit_counts_are_written_in_the_right_number() -> None:
    """Issue 13, words players read: "1 fighter", "3 fighters", "2 AA guns", "7 infantry",
    in the status, the events and the sightings alike."""
    from moderator.engine.events import Event
    from moderator.reports.render import count_units, event_text

    assert [count_units(1, "fighter"), count_units(3, "fighter"), count_units(2, "aa"), count_units(7, "infantry"),
            count_units(1, "cruiser"), count_units(2, "trench")] == [
        "1 fighter", "3 fighters", "2 AA guns", "7 infantry", "1 cruiser", "2 trenches"]
    built = Event("built", "2", ("france",), {"nation": "france", "order": 0, "kind": "fighter", "count": 2,
                                              "place": "Paris", "cost": 24})
    assert "for 2 fighters to be placed at Paris" in event_text(built, str)
    tf = Event("task-force", "4.2", ("france",), {"nation": "france", "order": 0, "tf": "1", "path": ["Gulf of Lyon"],
                                                  "ships": {"battleship": 1, "cruiser": 2}, "troops": {},
                                                  "mission": "blockade"})
    assert event_text(tf, str) == ("Task force 1 (order 1, last task naval blockade): Gulf of Lyon; "
                                   "1 battleship, 2 cruisers.")


def test_the_separated_treasuries_income_names_each_territory_once() -> None:
    """3.1, Phase 8: on the first turn every separated treasury holds just what it collected;
    the line lists each territory once, and a treasury's total only where it differs."""
    from moderator.engine.events import Event
    from moderator.reports.render import event_text

    def told(held: dict[str, int]) -> str:
        return event_text(Event("income-held-apart", "8", ("britain",), {
            "nation": "britain", "amounts": {"Egypt": 20, "Malta": 1}, "held": held}), str)

    first = told({"Egypt": 20, "Malta": 1})
    assert first.count("Egypt") == 1 and first.count("Malta") == 1
    assert "(3.1): Egypt 20, Malta 1. Send it home with TRANSFER." in first
    later = told({"Egypt": 35, "Malta": 1, "Aden": 3})
    assert "Egypt 20 (its treasury now 35), Malta 1; the other separated treasuries hold Aden 3." in later


def test_the_text_part_is_wrapped_at_78_but_never_the_order_block() -> None:
    """Issue 13: long lines of the text part are broken at 78 characters, a bullet's
    continuation indented under its text; the order block the player mails back is kept
    line for line (its comment lines must stay comments), and so is a command to copy."""
    from moderator.reports.render import wrap

    for audience, text in reports().items():
        for line in text.splitlines():
            if not line.startswith("#"):
                assert len(line) <= 78 or " " not in line.strip(), (audience, line)
    germany = reports()["germany"]
    assert "\n#   Warsaw (4 inf) borders Kiev (Russia), Minsk (Russia), Vilna (Russia)\n" in germany
    assert "\n# Orders of Germany for turn 3 (December 1914), due Friday 10 December 1926, 23:59 UTC.\n" in germany
    assert wrap("- " + "word " * 30) == "- " + ("word " * 15).strip() + "\n  " + ("word " * 15).strip()
    camps = wrap("  Allied Powers: " + "Kingdom of Somewhere, " * 6).splitlines()
    assert camps[0].startswith("  Allied Powers: ") and all(x.startswith("    ") and x[4] != " " for x in camps[1:])
    assert wrap("(run `moderator review list --game g1` now) " + "x" * 60).startswith(
        "(run `moderator review list --game g1` now)\n")


def test_the_inline_map_links_to_the_full_size_map_attached() -> None:
    """Issue 13: the HTML part's map is the small copy; a click on it (or on the caption's
    link) opens the full-size map.png attached to the mail; written as files, both are map.png."""
    from PIL import Image

    from moderator.mail.compose import Attachment, compose
    from moderator.reports.build import with_map

    report = nation_mail(position(), events(), fx.scenario(), fx.world(), INFO, "germany",
                         lambda view, title: Image.new("RGB", (2400, 1200), "white"))
    assert '<a href="cid:FULL-MAP-CID"><img src="cid:MAP-CID"' in report.html
    assert "click it for the full size" in report.html
    mailed = with_map(report.html, "cid:small@x", "cid:big@x")
    assert '<a href="cid:big@x"><img src="cid:small@x"' in mailed and "MAP-CID" not in mailed
    assert '<a href="map.png"><img src="map.png"' in with_map(report.html)
    from datetime import UTC, datetime
    msg = compose(sender="m@x", to=["p@x"], subject="s", text="t", html=mailed, date=datetime(2026, 1, 1, tzinfo=UTC),
                  domain="x", attachments=[Attachment("map.png", report.png, "image", "png", "big@x")])
    [full] = [p for p in msg.walk() if p.get_filename() == "map.png"]
    assert full["Content-ID"] == "<big@x>" and full.get_content_disposition() == "attachment"


def test_a_nation_in_a_camp_without_a_war_is_told_to_declare_one() -> None:
    """A neutral that JOINs a camp is at war with nobody until it declares (Phase 1.1: "if the
    player is not yet at war with that nation, then they must declare war"): its sheet says
    so instead of a bare "At war with nobody", which read like a bug to a player."""
    from moderator.reports.render import environment

    sheet = dict(standing=None, at_war_with=[], saved=37, held_apart={}, income=19, income_full=19,
                 income_rule="full", manpower_used=1, manpower_limit=5, manpower_left=4, tech={}, holdings=[],
                 units={}, unit_total=0, damaged={}, to_deploy={}, waiting_builds=[], rail_moves=[])
    env = environment()
    for macro in ("sheet_text", "sheet_html"):
        template = env.from_string('{% import "_sheet.j2" as sh %}{{ sh.' + macro + '(s, full=False) }}')
        joined = " ".join(template.render(s={**sheet, "side": "allied"}).split())
        assert "At war with nobody yet: joining a camp declares no war; DECLARE WAR ON a nation" in joined
        neutral = " ".join(template.render(s={**sheet, "side": "neutral"}).split())
        assert "At war with nobody." in neutral and "nobody yet" not in neutral


def test_every_map_title_names_the_game_the_turn_its_date_and_the_audience() -> None:
    """Issue 13: "a legend and a title with game, turn and date" on every map."""
    titles: list[str] = []

    def draw(view: object, title: str) -> bytes:
        titles.append(title)
        return b""

    build_reports(position(), events(), fx.scenario(), fx.world(), INFO, ["germany", "russia"], draw)
    assert sorted(titles) == sorted([
        "Golden War, turn 2 (October 1914): Germany", "Golden War, turn 2 (October 1914): Russia",
        "Golden War, turn 2 (October 1914): Central Powers", "Golden War, turn 2 (October 1914): Allied Powers",
        "Golden War, turn 2 (October 1914)"])


def test_damaged_ships_are_told_in_words_in_the_text_and_the_html() -> None:
    report = nation_mail(position(), events(), fx.scenario(), fx.world(), INFO, "germany")
    assert "1 cruiser (damaged: 1 hit on the cruiser)" in report.text
    assert "1 cruiser (damaged: 1 hit on the cruiser)</td>" in report.html


def test_the_alliance_reads_a_members_refusal_in_the_third_person() -> None:
    """Issue 13: a refusal's reason is written to the nation ("you do not control Berlin");
    its allies read it about the nation, named, while its own report keeps "you"."""
    refused = Event("order-refused", "6", ("germany",), {
        "nation": "germany", "order": 4, "text": "INCORPORATE Paris", "reason": "incorporate-not-held",
        "details": {"place": "Paris"}})
    built = {r.audience: r.text for r in build_reports(position(), [*events(), refused], fx.scenario(), fx.world(),
                                                        INFO, ["germany", "austria"], lambda v, t: b"")}
    assert says(built["germany"], "Order 5 (INCORPORATE Paris) was not carried out: you do not control Paris")
    alliance = flat(built["alliance:central"])
    assert "Germany: Order 5 (INCORPORATE Paris) was not carried out: Germany does not control Paris" in alliance
    assert "you do not control" not in alliance


def test_third_person_agrees_the_verb_and_the_possessives() -> None:
    from moderator.orders.messages import third_person

    assert third_person("you are already at war with Spain", "France") == "France is already at war with Spain"
    assert third_person("you already have a trench in Lille", "France") == "France already has a trench in Lille"
    assert third_person("none of your orders attacks it; Lille is not yours", "France") == (
        "none of its orders attacks it; Lille is not France's")
    assert third_person("Spain is neutral, and so are you", "France") == "Spain is neutral, and so is France"
    assert third_person("while your nation is neutral", "France") == "while France is neutral"
    assert third_person("Paris is not next to Berlin", "France") == "Paris is not next to Berlin"


def test_the_bulletin_shows_every_manpower_loss_but_a_mutiny() -> None:
    """Miscellaneous: "all manpower loses will be shown": infantry lost in land and naval
    battles and to rockets, and the manpower limit lost to bombers and rockets at cities and
    to starvation; a mutiny is the nation's own news, not a loss to the enemy."""
    from moderator.reports.content import bulletin
    from moderator.reports.visibility import public_view

    def told(code: str, seen: tuple[str, ...], **args: object) -> Event:
        return Event(code, "4.6", seen, args)

    battle = dict(origins=[], attackers=["germany"], defenders=["russia"], rounds=1, strait=False, captured=False,
                  withdrawn=None, rolls=[0, 0])
    turn = [
        told("battle", ("germany", "russia"), territory="Warsaw", attacker="germany", defender="russia",
             losses={"germany": {"infantry": 2}, "russia": {"infantry": 1, "artillery": 1}}, **battle),
        told("naval-battle", ("germany", "france"), zone="North Sea", losses={"france": {"infantry": 3, "transport": 1}}),
        told("rocket-fire", ("germany", "france"), nation="germany", aim="units", target="Lorraine", holder="france",
             losses={"france": {"infantry": 1}}, manpower=0),
        told("rocket-fire", ("germany", "france"), nation="germany", aim="city", target="Paris", holder="france",
             losses={}, manpower=2),
        told("air-raid", ("germany", "britain"), nation="germany", aim="city", target="London", holder="britain",
             damage=1),
        told("air-raid", ("germany", "britain"), nation="germany", aim="industry", target="London", holder="britain",
             damage=9),
        told("starvation", ("russia",), nation="russia", turns=2, lost=3),
        told("mutiny", ("austria",), nation="austria", severity="small", place="Vienna", units={"infantry": 2},
             rebelled=False),
    ]
    news = bulletin(public_view(fx.state(), turn), turn, INFO, lambda n: n.title())
    assert news.losses == {"France": 4, "Germany": 2, "Russia": 1}
    assert news.manpower_lost == {"Britain": 1, "France": 2, "Russia": 3}
    text, html = render("bulletin", r=news, map_src="", full_src="")
    assert "  France                       4 infantry lost; manpower limit down 2\n" in text
    assert "  Britain                      manpower limit down 1\n" in text and "Austria" not in text.split("camps")[0]
    assert "<li>Russia: 1 infantry lost; manpower limit down 3</li>" in html
