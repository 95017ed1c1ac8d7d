"""Players' orders name places holding "and"/"of" unquoted (Jammu and Kashmir, Sea of Japan).

Every order form that takes a place is tried with every real 1914 name or alias holding
"and" or "of"; a list (INCORPORATE, DECLARE WAR ON) still splits at "and" between names,
and keeps a real map name holding "and" whole (the longest real name wins).
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from moderator.orders import model as m
from moderator.orders.parser import parse_orders
from moderator.world.loader import load_world

# Real 1914 names and aliases with "and"/"of" inside (read from the map, so a new one is
# tried too), e.g. "Jammu and Kashmir", "Upper Senegal and Niger", "Sea of Japan".
NAMES = sorted({n for t in load_world("1914").territories.values() for n in (t.name, *t.aliases)
                if re.search(r"\b(and|of)\b", n, re.I)})

# Every order form that takes a place; {p} is where the name goes.
FORMS = [
    "DEPLOY 2 inf AT {p}", "DEPLOY 2 inf and 1 art AT {p}", "INFLUENCE {p}",
    "CLOSE {p} TO Russia", "BLOCKADE {p}", "BLOCKADE US TRADE TO {p}", "OPTION 3 AT {p}",
    "BUILD 1 inf AT {p}", "BUILD 1 trench AT {p} FACING {p}", "SPY ARMY ON Russia AT {p}",
    "COUNTER ESPIONAGE RECON AT {p}", "RECON 1 ftr FROM {p} TO {p}", "REPAIR 1 bb AT {p}",
    "BOMB INDUSTRY 2 bmb FROM {p} TO {p}", "REBASE 2 ftr FROM {p} TO {p}",
    "RAIL 4 inf FROM {p} TO {p}", "MOVE 3 inf, 1 art FROM {p} TO {p}",
    "MOVE 1 inf and 1 art FROM {p} TO {p}", "ATTACK 6 inf FROM {p} TO {p} WITHDRAW AFTER 2 ROUNDS",
    "ATTACK ON {p} WITHDRAW AFTER 2 ROUNDS", "WITHDRAW FROM {p} IF LOSSES EXCEED 3",
    "WITHDRAW FROM {p} TO {p} IF LOSSES EXCEED 3", "LET THROUGH AT {p}",
    "BREAK OFF AIR COMBAT AT {p} AFTER 1 ROUND", "CASUALTIES AT {p}: inf, art",
    "SUPPORT 2 art FROM {p} TO {p}", "DEFEND WITH INDUSTRY AT {p}", "FIRE CITY 1 rkt FROM {p} AT {p}",
    "TF 1 AT {p}: 2 bb", "TF 1 PATROL TO {p}", "TF 1 BOMBARD {p}", "TF 1 LOAD 2 inf FROM {p}",
    "DETECT SUBS IN {p} WITH 2 dd", "DETECT SUBS IN {p} WITH 2 ftr FROM {p}", "INTERCEPT WITH 2 ss IN {p}",
    "INVADE 2 inf FROM {p} TO {p}", "BREAKTHROUGH 2 tank FROM {p} TO {p}",
    "PLUNDER INDUSTRY AT {p}", "INCORPORATE {p}", "TRANSFER 10 FROM {p} TO {p}",
]


def strings(order: m.Order) -> list[str]:
    """Every text the order holds (its fields, tuples opened), to find the name in."""
    out: list[str] = []
    for f in dataclasses.fields(order):
        value = getattr(order, f.name)
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, str):
                out.append(item)
    return out


def test_the_map_has_names_with_and_and_of() -> None:
    assert {"Jammu and Kashmir", "Upper Senegal and Niger", "Sea of Japan"} <= set(NAMES)


@pytest.mark.parametrize("form", FORMS)
def test_every_place_form_reads_every_name_with_and_or_of(form: str) -> None:
    for name in NAMES:
        text = form.format(p=name)
        r = parse_orders(text)
        assert not r.diagnostics, (text, [d.render() for d in r.diagnostics])
        assert r.orders, text  # a condition is an order of its own, after its attack
        held = strings(r.orders[0])
        assert held.count(name) == form.count("{p}"), (text, held)


def incorporated(text: str) -> list[str]:
    r = parse_orders(text)
    assert not r.diagnostics, [d.render() for d in r.diagnostics]
    return [o.territory for o in r.orders if isinstance(o, m.Incorporate)]


def test_a_list_still_splits_at_and_between_names() -> None:
    assert incorporated("INCORPORATE Belgium and Serbia") == ["Belgium", "Serbia"]
    assert incorporated("INCORPORATE Belgium, Serbia and Kashmir") == ["Belgium", "Serbia", "Kashmir"]
    r = parse_orders("DECLARE WAR ON Serbia and Belgium")
    assert [o.target for o in r.orders if isinstance(o, m.DeclareWar)] == ["Serbia", "Belgium"]


def test_a_list_keeps_a_real_name_holding_and_whole() -> None:
    assert incorporated("INCORPORATE Upper Senegal and Niger") == ["Upper Senegal and Niger"]
    assert incorporated("INCORPORATE Belgium, Upper Senegal and Niger and Jammu and Kashmir") == [
        "Belgium", "Upper Senegal and Niger", "Jammu and Kashmir"]
    assert incorporated("INCORPORATE Belgium and Upper Senegal and Niger") == [  # docs/orders.md
        "Belgium", "Upper Senegal and Niger"]
    assert incorporated('INCORPORATE "Upper Senegal and Niger" and Belgium') == [
        "Upper Senegal and Niger", "Belgium"]


def test_an_ambiguous_list_takes_the_longest_real_name() -> None:
    # "Kashmir" and "Niger" are names too: "Jammu and Kashmir" is one name (Jammu is none),
    # and reading from the left the longest real name is taken first.
    assert incorporated("INCORPORATE Jammu and Kashmir and Punjab") == ["Jammu and Kashmir", "Punjab"]
    assert incorporated("INCORPORATE Niger and Upper Senegal and Niger") == [
        "Niger", "Upper Senegal and Niger"]
    assert incorporated("INCORPORATE Kashmir and Niger") == ["Kashmir", "Niger"]
