"""The optional deployment turn (rules, "Initial Deployment"): turn 0, DEPLOY orders,
the engine's placement and defaults, and the service/CLI path, on the real 1914 map."""

from __future__ import annotations

import functools
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from moderator.cli import main
from moderator.engine.dice import Dice
from moderator.engine.event_codes import SCHEMA as EVENT_CODES
from moderator.engine.events import Event
from moderator.engine.resolve import resolve
from moderator.engine.state import GameState
from moderator.orders import model as m
from moderator.orders.checker import check_text
from moderator.orders.echo import normalize
from moderator.orders.parser import parse_orders
from moderator.reports.render import render
from moderator.service.context import Service
from moderator.service.games import new_game, turn_label
from moderator.service.turns import replay, resolve_game
from moderator.store.db import Store
from moderator.world.model import World
from moderator.world.scenario import initial_state
from moderator.world.scenario_model import Scenario
from tests.report_text import flat


@functools.cache
def real_1914() -> tuple[World, Scenario]:
    from moderator.world.loader import load_world
    from moderator.world.scenario import load_scenario

    return load_world("1914", strict=False), load_scenario("1914")


def turn0() -> GameState:
    world, scenario = real_1914()
    state = initial_state(scenario, world, "dep", deploy_free=False)
    state.turn = 0
    return state


def codes(text: str, nation: str = "Germany", state: GameState | None = None) -> list[tuple[str, int]]:
    world, scenario = real_1914()
    result = check_text(text, nation, state or turn0(), world, scenario)
    return [(d.code, d.line) for d in result.diagnostics]


def free(state: GameState, nation: str) -> Counter[str]:
    out: Counter[str] = Counter()
    for item in state.nations[nation].flags["to_deploy"]:
        out[str(item["kind"])] += int(item["count"])
    return out


def run(state: GameState, orders: dict[str, str], seed: str = "deploy") -> tuple[GameState, list[Event]]:
    world, scenario = real_1914()
    parsed = {n: parse_orders(text).orders for n, text in orders.items()}
    return resolve(state, parsed, world, scenario, Dice(seed, state.turn))


# ---- orders -------------------------------------------------------------------------------
def test_deploy_orders_parse_and_echo_back_unchanged() -> None:
    parsed = parse_orders("deploy 3 inf, 1 art at Berlin\nDEPLOY 2 bb IN Skagerrak\n")
    assert not parsed.diagnostics
    assert parsed.orders == [
        m.Deploy((m.UnitCount("infantry", 3), m.UnitCount("artillery", 1)), "Berlin"),
        m.Deploy((m.UnitCount("battleship", 2),), "Skagerrak"),
    ]
    text = normalize(parsed.orders)
    assert text == "DEPLOY 3 inf, 1 art AT Berlin\nDEPLOY 2 bb AT Skagerrak\n"
    assert parse_orders(text).orders == parsed.orders


def test_deploy_on_real_german_land_and_sea_checks_clean() -> None:
    text = "DEPLOY 4 inf, 2 art AT Posen\nDEPLOY 2 ftr AT Berlin\nDEPLOY 1 bb, 1 dd AT Baltic Sea\n"
    assert codes(text) == []
    assert codes(text + "NOTE hello\n") == [("note", 4)]  # a note still goes to the moderator


@pytest.mark.parametrize(("order", "code"), [
    ("DEPLOY 2 inf AT German East Africa", "deploy-colony"),  # marked colony on the map
    ("DEPLOY 1 inf AT Cameroon", "deploy-colony"),  # outside the European map: a colony too
    ("DEPLOY 2 inf AT Vienna", "deploy-allied-land"),  # Austria-Hungary is Germany's ally
    ("DEPLOY 2 inf AT Paris", "deploy-not-own-land"),
    ("DEPLOY 2 inf AT Skagerrak", "deploy-at-sea"),  # not onboard transports
    ("DEPLOY 1 bb AT North Sea", "deploy-sea-not-adjacent"),
    ("DEPLOY 1 bb AT Hamburg", "deploy-ship-on-land"),
    ("DEPLOY 3 ftr AT Berlin", "deploy-too-many"),  # two free fighters
    ("DEPLOY 1 tank AT Berlin", "deploy-too-many"),  # none to deploy at all
    ("DEPLOY 2 inf AT Atlantis", "unknown-territory"),
])
def test_illegal_deployments_are_errors(order: str, code: str) -> None:
    assert codes(order) == [(code, 1)]


def test_counts_are_summed_over_all_deploy_orders() -> None:
    state = turn0()
    infantry = free(state, "germany")["infantry"]
    text = f"DEPLOY {infantry - 1} inf AT Posen\nDEPLOY 1 inf AT Berlin\nDEPLOY 1 inf AT Saxony\n"
    assert codes(text, state=state) == [("deploy-too-many", 3)]


def test_only_deploy_before_the_first_turn_and_no_deploy_after() -> None:
    assert codes("MOVE 2 inf FROM Cologne TO Ruhr\nBUILD 1 inf AT Berlin\nDEPLOY 1 inf AT Berlin\n") == [
        ("deployment-turn", 1), ("deployment-turn", 2)]
    world, scenario = real_1914()
    turn1 = initial_state(scenario, world, "t1")
    result = check_text("DEPLOY 1 inf AT Berlin\n", "Germany", turn1, world, scenario)
    assert [(d.code, d.line) for d in result.diagnostics] == [("deployment-over", 1)]
    assert "the initial deployment is over" in result.diagnostics[0].message


# ---- engine -------------------------------------------------------------------------------
def test_resolving_turn_0_places_orders_defaults_the_rest_and_collects_nothing() -> None:
    state = turn0()
    wanted = free(state, "germany")
    before_units = len(state.units)
    new, events = run(state, {"germany": "DEPLOY 5 inf, 2 art AT Posen\nDEPLOY 1 bb AT Baltic Sea\n"})
    assert new.turn == 1
    assert all("to_deploy" not in n.flags for n in new.nations.values())
    assert {nid: n.saved for nid, n in new.nations.items()} == {nid: n.saved for nid, n in state.nations.items()}
    assert "income" not in {e.code for e in events}  # Phase 8 does not act before turn 1
    germans_added = Counter(u.kind for u in new.units[before_units:] if u.nation == "germany")
    assert germans_added == wanted  # every free unit is on the map: deployed or defaulted
    posen = Counter(u.kind for u in new.units_at("Posen", "germany"))
    assert posen["infantry"] == 5 + sum(1 for u in state.units_at("Posen", "germany") if u.kind == "infantry")
    assert posen["artillery"] >= 2
    deployed = [e for e in events if e.code == "deployed"]
    assert [(e.args["kind"], e.args["count"], e.args["place"]) for e in deployed] == [
        ("infantry", 5, "Posen"), ("artillery", 2, "Posen"), ("battleship", 1, "Baltic Sea")]
    assert all(e.seen_by == ("germany",) for e in deployed)
    defaulted = Counter()
    for e in events:
        if e.code == "deploy-defaulted" and e.args["nation"] == "germany":
            defaulted[e.args["kind"]] += e.args["count"]
    assert defaulted["infantry"] == wanted["infantry"] - 5 and defaulted["battleship"] == 0
    # a nation that sent nothing has its whole free half at the defaults
    assert sum(e.args["count"] for e in events if e.code == "deploy-defaulted" and e.args["nation"] == "russia") \
        == sum(free(state, "russia").values())
    assert {e.code for e in events} <= set(EVENT_CODES)


def test_the_first_listed_defaults_give_way_to_deployed_units() -> None:
    state = turn0()
    first = state.nations["germany"].flags["to_deploy"][0]  # 2 infantry defaulting to Bavaria
    assert (first["kind"], first["count"], first["default"]) == ("infantry", 2, "Bavaria")
    _, events = run(state, {"germany": "DEPLOY 3 inf AT Posen\n"})
    inf_defaults = [(e.args["count"], e.args["place"]) for e in events
                    if e.code == "deploy-defaulted" and e.args["nation"] == "germany" and e.args["kind"] == "infantry"]
    assert inf_defaults[0] == (3, "Berlin")  # Bavaria's 2 and one of Berlin's 4 were deployed


def test_engine_refuses_what_the_checker_would_reject() -> None:
    state = turn0()
    new, events = run(state, {"germany": "DEPLOY 2 inf AT Cameroon\nDEPLOY 9 ftr AT Berlin\nMOVE 1 inf FROM Berlin TO Posen\n"})
    refused = sorted((e.args["order"], e.args["reason"]) for e in events if e.code == "order-refused")
    assert refused == [(0, "deploy-colony"), (1, "deploy-too-many"), (2, "deployment-turn")]
    assert len(new.units_at("Cameroon", "germany")) == len(state.units_at("Cameroon", "germany"))
    assert Counter(u.kind for u in new.nation_units("germany"))["fighter"] == \
        Counter(u.kind for u in state.nation_units("germany"))["fighter"] + free(state, "germany")["fighter"]


def test_enemies_sharing_a_sea_zone_are_flagged_for_the_moderator() -> None:
    state = turn0()
    _, events = run(state, {"russia": "DEPLOY 1 dd AT Baltic Sea\n"})
    flags = [e for e in events if e.code == "moderator-flag" and e.args["details"].get("zone") == "Baltic Sea"]
    assert len(flags) == 1 and flags[0].seen_by == ("moderator",)
    assert flags[0].args["details"]["nations"] == ["germany", "russia"]
    assert flags[0].args["reason"] == "enemies-share-sea-zone"
    _, quiet = run(turn0(), {})
    assert not [e for e in quiet if e.code == "moderator-flag" and e.args["details"].get("zone") == "Baltic Sea"]


def test_deploy_after_turn_0_is_refused_and_turn_1_is_unchanged() -> None:
    world, scenario = real_1914()
    turn1 = initial_state(scenario, world, "t1")
    _, events = run(turn1, {"germany": "DEPLOY 1 inf AT Berlin\n"})
    assert [e.args["reason"] for e in events if e.code == "order-refused"] == ["deployment-over"]
    assert "income" in {e.code for e in events}


def test_turn_0_is_deterministic() -> None:
    orders = {"germany": "DEPLOY 5 inf AT Posen\n", "france": "DEPLOY 3 inf AT Lille\n",
              "russia": "DEPLOY 1 dd AT Baltic Sea\n"}
    a, ea = run(turn0(), orders)
    b, eb = run(turn0(), orders)
    assert a.dumps() == b.dumps()
    assert [e.to_json() for e in ea] == [e.to_json() for e in eb]


def test_the_new_events_have_words_in_the_reports() -> None:
    _, events = run(turn0(), {"germany": "DEPLOY 5 inf AT Posen\n", "russia": "DEPLOY 1 dd AT Baltic Sea\n"})
    _, scenario = real_1914()
    wanted = [e for e in events if e.code in ("deployed", "moderator-flag")]
    wanted.append(next(e for e in events if e.code == "deploy-defaulted"))
    text, _ = render("moderator", title="t", game="g", resolved_turn=0, resolved_date="x", ordered=[], missing=[],
                     flags=[], dice_count=0, sha256="0", events=wanted,
                     names=lambda n: scenario.nations[n].name if n in scenario.nations else n)
    text = flat(text)  # the moderator's copy is wrapped at 78 characters
    assert "German Empire deployed 5 infantry at Posen (Initial Deployment)." in text
    assert "that no DEPLOY order placed now stand at their starting place" in text
    assert "Moderator's decision needed" in text and "Baltic Sea" in text


# ---- calendar and service --------------------------------------------------------------------
def test_turn_0_reads_as_the_initial_deployment() -> None:
    _, scenario = real_1914()
    assert turn_label(scenario, 0) == "Initial deployment (July 1914)"
    assert turn_label(scenario, 1) == "August 1914" and scenario.turn_date(1) == (1914, "August")


def test_a_game_with_deployment_starts_at_turn_0_and_resolves_to_turn_1(tmp_path: Path) -> None:
    svc = Service(store=Store(f"sqlite:///{tmp_path / 'd.db'}"), say=lambda s: None,
                  clock=lambda: datetime(2026, 1, 1, tzinfo=UTC))
    game = new_game(svc, "dep", deployment=True, seed="fixed")
    assert game.turn == 0
    state = svc.state(game)
    assert state.turn == 0 and state.nations["germany"].flags["to_deploy"]
    plain = new_game(svc, "plain", seed="fixed")
    assert plain.turn == 1 and "to_deploy" not in svc.state(plain).nations["germany"].flags
    svc.store.add_submission("dep", "germany", 0, text="DEPLOY 5 inf AT Posen", normalized="DEPLOY 5 inf AT Posen\n",
                             diagnostics=[], message=None)
    res = resolve_game(svc, "dep")
    assert svc.game("dep").turn == 1 and res.state.turn == 1
    assert "income" not in {e.code for e in res.events}
    assert sum(1 for u in res.state.units_at("Posen", "germany") if u.kind == "infantry") >= 5
    ok, detail = replay(svc, "dep", 0)
    assert ok, detail


def test_the_cli_game_new_deployment_path(config: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "new", "d1", "--deployment"]) == 0
    assert "turn 0, the deployment turn" in capsys.readouterr().out
    assert main(["game", "show", "d1"]) == 0
    assert "turn 0 (Initial deployment (July 1914))" in capsys.readouterr().out
    orders = tmp_path / "orders.txt"
    orders.write_text("GAME d1\nNATION Germany\nTURN 0\nDEPLOY 4 inf AT Posen\n", encoding="utf-8")
    assert main(["check", str(orders), "--nation", "Germany", "--game", "d1"]) == 0
    orders.write_text("MOVE 2 inf FROM Ruhr TO Cologne\n", encoding="utf-8")
    assert main(["check", str(orders), "--nation", "Germany", "--game", "d1"]) == 1
    assert "only DEPLOY orders are allowed before the first turn" in capsys.readouterr().out
    assert main(["resolve", "--game", "d1"]) == 0
    assert main(["replay", "--game", "d1", "--turn", "0"]) == 0
    assert "identical" in capsys.readouterr().out
    assert main(["game", "show", "d1"]) == 0
    assert "turn 1 (August 1914)" in capsys.readouterr().out



def test_the_opening_table_is_registered_and_cites_its_rule() -> None:
    import sys

    from moderator.engine import wtea
    from moderator.rulesets import registry

    rs = registry().default()
    assert rs.opening == wtea.OPENING and rs.table(0) == wtea.OPENING and rs.table(1) == wtea.PHASES
    deployment = next(step for step in wtea.OPENING if step.section == "0")
    assert deployment.run is not None and m.Deploy in deployment.orders
    assert "Initial Deployment" in (sys.modules[deployment.run.__module__].__doc__ or "")
    assert "Initial Deployment" in (sys.modules[rs.rule_for_type(m.Deploy).__module__].__doc__ or "")


def test_a_player_sees_what_is_left_to_deploy() -> None:
    from moderator.reports.visibility import nation_view
    from moderator.world.loader import load_world
    from moderator.world.scenario import initial_state, load_scenario

    world, scenario = load_world("1914"), load_scenario("1914")
    state = initial_state(scenario, world, "t", deploy_free=False)
    status = nation_view(state, scenario, [], "germany").statuses[0]
    free = sum(f.count for f in scenario.forces if f.nation == "germany" and not f.fixed)
    assert sum(status.to_deploy.values()) == free > 0
