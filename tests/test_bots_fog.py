"""A mail bot plays from its mails only (issue 14, bots/fog.py): its report.json lists its
own units one by one, the bulletin's the camps and wars, and nothing hidden of another
nation in the service's position changes what the bot orders."""

from __future__ import annotations

import random
from typing import Any

from moderator.bots.bot import play
from moderator.bots.fog import PUBLIC_FLAGS, fogged
from moderator.engine.state import GameState, Unit
from moderator.reports.build import TurnInfo, build_reports
from tests.drift import Game, played

INFO = TurnInfo("g", "G", 2, "October 1914", 3, "December 1914", "soon")
# A nation at war on each side, a minor at war, a neutral major, a neutral minor.
SEATS = ("germany", "france", "serbia", "italy", "spain")


def mails(game: Game) -> dict[str, dict[str, Any]]:
    """Each seat's mails of the turn as report.json: its report, its alliance's, the bulletin."""
    reports = build_reports(game.state, [], game.scenario, game.world, INFO, list(SEATS), None)
    bulletin = next(r.data for r in reports if r.audience == "public")
    out = {}
    for nation in SEATS:
        side = game.state.nations[nation].side
        alliance = next((r.data for r in reports if r.audience == f"alliance:{side}"), None)
        own = next(r.data for r in reports if r.audience == nation)
        out[nation] = {"report": own, "alliance": alliance, "bulletin": bulletin}
    return out


def scrambled(state: GameState, nation: str, seed: str) -> GameState:
    """`state` with everything of every other nation a player may not know changed: their
    units (half gone, troops added on their land), treasuries, technology, manpower,
    standing, the incorporation of their land, the count of units ever built and every flag
    that is not public news (secret options used, leanings...)."""
    rng = random.Random(seed)
    out = state.copy()
    kept = [u for u in out.units if u.nation == nation or rng.random() < 0.5]
    for t, holder in sorted(out.control.items()):
        if holder != nation and rng.random() < 0.3:
            kept += [Unit(f"{holder}-infantry-s{t}-{i}", holder, "infantry", t) for i in range(rng.randint(1, 9))]
    out.units = kept
    out.next_unit += rng.randint(1, 99)  # how many units everyone built
    for t, holder in sorted(out.control.items()):  # others' incorporation: told to them alone (Phase 6)
        if holder != nation:
            if rng.random() < 0.5:
                out.incorporated.pop(t, None)
            else:
                out.incorporated[t] = rng.randint(0, out.turn)
    for nid, ns in out.nations.items():
        if nid == nation:
            continue
        ns.saved = rng.randint(0, 500)
        ns.tech = {t: rng.randint(1, 3) for t in ("tanks", "radar", "improved_fighters", "aircraft_carriers")}
        ns.manpower_limit, ns.infantry_built = rng.randint(0, 90), rng.randint(0, 40)
        ns.standing = rng.randint(-10, 10)
        ns.flags = {k: v for k, v in ns.flags.items() if k in PUBLIC_FLAGS}
        ns.flags.update(options_used={str(rng.randint(1, 6)): 1}, leaning=rng.choice(("allied", "central")))
    return out


def orders(game: Game, state: GameState, nation: str, read: dict[str, Any] | None) -> list[str]:
    position = state if read is None else fogged(state, game.scenario, game.world, nation, read["report"],
                                                 read["alliance"], read["bulletin"])
    return [str(o) for o in play(position, game.world, game.scenario, nation, "fog").orders]


def test_the_mail_bots_orders_do_not_depend_on_what_others_hide() -> None:
    """The hidden parts of the service's position (other nations' units, treasuries,
    technology, manpower, standing, secret options) scrambled: a mail bot's orders are the
    same. The scramble is no dud: a bot handed the true position itself orders otherwise."""
    game = played()
    read = mails(game)
    differs = 0
    for nation in SEATS:
        mixed = scrambled(game.state, nation, f"scramble/{nation}")
        assert orders(game, mixed, nation, read[nation]) == orders(game, game.state, nation, read[nation]), nation
        differs += orders(game, mixed, nation, None) != orders(game, game.state, nation, None)
    assert differs >= 2, "the scramble changed no bot's orders on the true position: it proves nothing"


def test_the_report_lists_its_own_units_and_the_bulletin_the_wars() -> None:
    """report.json's `units`: the nation's units one by one (id, kind, place, damage, a
    trench's facing), nobody else's; the bulletin's `wars`: who is at war with whom, by name."""
    game = played()
    read = mails(game)["germany"]
    state, names = game.state, {nid: n.name for nid, n in game.scenario.nations.items()}
    listed = {(u["id"], u["kind"], u["place"], u["damage"]) for u in read["report"]["units"]}
    assert listed == {(u.id, u.kind, u.location, u.damage) for u in state.nation_units("germany")}
    facing = state.nations["germany"].flags.get("trench_facing") or {}
    assert {u["id"]: u["facing"] for u in read["report"]["units"] if u["facing"]} == facing
    wars = read["bulletin"]["wars"]
    assert wars[names["germany"]] == sorted(names[n] for n in state.nations["germany"].at_war_with)
    at_peace = [n for n in state.nations if not state.nations[n].at_war_with and n in state.control.values()]
    assert at_peace and not {names[n] for n in at_peace} & set(wars)  # nobody at war with nobody
