"""Property tests (issue 4): the parser never raises, and the canonical echo parses back
to the same orders."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from moderator.orders import model as m
from moderator.orders import vocab as v
from moderator.orders.echo import _KEYWORDS, normalize
from moderator.orders.parser import ParseResult, parse_orders
from moderator.world.model import fold


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_parser_never_raises_on_any_text(text: str) -> None:
    result = parse_orders(text)
    assert isinstance(result, ParseResult)
    for d in result.diagnostics:
        assert d.severity in ("error", "warning", "flag") and d.message


ORDER_WORDS = sorted(_KEYWORDS) + ["move", "attack", "build", "from", "to", "inf", "art", ",", ":", "3", "#"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(ORDER_WORDS) | st.text(max_size=6), max_size=12).map(" ".join))
def test_parser_never_raises_on_near_orders(line: str) -> None:
    assert isinstance(parse_orders(line), ParseResult)


word = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=1, max_size=8)
SPECIAL = {fold(w) for w in ("all", "self", "ustrade", "trade", "italy")} | set(v.SIDE_INDEX)
name = st.lists(word, min_size=1, max_size=3).map(" ".join).filter(lambda s: fold(s) not in SPECIAL)
count = st.integers(min_value=1, max_value=999)
land_air = st.sampled_from(v.LAND + v.AIR)


def units(kinds: st.SearchStrategy[str] = land_air) -> st.SearchStrategy[m.Units]:
    return st.lists(st.builds(m.UnitCount, kinds, count), min_size=1, max_size=3).map(tuple)


side = st.sampled_from(["allied", "central"])
tech = st.sampled_from(sorted(v.TECHNOLOGIES))
tf_name = st.integers(1, 99).map(str) | word.filter(lambda w: w.lower() not in _KEYWORDS)

ORDERS = st.one_of(
    st.builds(m.DeclareWar, name), st.builds(m.Influence, name, st.none() | side),
    st.builds(m.OfferSurrender, st.lists(name, max_size=3).map(tuple)),
    st.builds(m.SurrenderVote, name, st.booleans()),
    st.builds(m.ClosePassage, name, st.lists(name, max_size=2).map(tuple), st.booleans()),
    st.builds(m.SubWarfare, side | name), st.just(m.SubWarfare(None, retract=True)),
    st.builds(m.Blockade, name, st.booleans()),
    st.builds(m.SpecialOption, st.integers(0, 9), st.none() | name, st.none() | count, st.none() | side, st.booleans()),
    st.just(m.GearUp()), st.just(m.CoaxItaly()), st.builds(m.JoinSide, side), st.builds(m.Peace, name),
    st.builds(m.Gift, count, name), st.builds(m.Exile, name),
    st.builds(m.Research, tech), st.builds(m.Upgrade, st.sampled_from(sorted(v.UPGRADE_TECH))),
    st.builds(m.Build, st.sampled_from(v.MOBILE + ("industry", "port")), count, name),
    st.builds(m.BuildTrench, name, name, st.booleans()), st.builds(m.BuildHomeTrenches, name),
    st.builds(m.BuildShipGear, st.just("sonar"), name, st.sampled_from(v.SEA)),
    st.builds(m.BuildShipGear, st.just("radar"), name, st.none() | st.sampled_from(v.SEA)),
    st.builds(m.Espionage, st.sampled_from(["neutral", "affiliation", "army"]), name),
    st.builds(m.Espionage, st.just("industrial"), name, st.none(), tech),
    st.builds(m.Espionage, st.just("combat"), st.none(), name),
    st.builds(m.CounterEspionage, st.just("army"), name),
    st.builds(m.CounterEspionage, st.just("industrial"), st.none(), st.none(), tech),
    st.builds(m.CounterEspionage, st.just("recon"), st.none(), name),
    st.builds(m.Recon, units(), name, name),
    st.builds(m.Repair, st.sampled_from(["battleship", "carrier"]), count, name),
    st.builds(m.Bombing, st.sampled_from(["industry", "city", "tactical"]), units(st.sampled_from(v.AIR)), name, name),
    st.builds(m.Rebase, units(st.sampled_from(v.AIR)), name, name),
    st.builds(m.StrategicMove, units(), name, name),
    st.builds(m.Move, units(), name, name), st.builds(m.Attack, units(), name, name),
    st.builds(m.CombatCondition, name, st.sampled_from(["rounds", "losses", "kills", "max-defenders"]), count),
    st.builds(m.CombatCondition, name, st.sampled_from(["rounds", "losses", "kills"]), count, name),
    st.builds(m.CasualtyOrder, st.lists(st.sampled_from(v.MOBILE), min_size=1, max_size=4).map(tuple), st.none() | name),
    st.builds(m.ArtillerySupport, count, name, name),
    st.builds(m.Breakthrough, count, name, name),
    st.builds(m.LetPass, name),
    st.builds(m.AirRetreat, name, st.sampled_from(["rounds", "losses", "kills"]), count),
    st.builds(m.DefendWith, st.sampled_from(["industry", "port", "aa"]), name),
    st.builds(m.RocketFire, count, name, name, st.sampled_from(["city", "industry", "units"])),
    st.builds(m.TaskForce, tf_name, name, units(st.sampled_from(v.SEA))),
    st.builds(m.TaskForceMission, tf_name, st.sampled_from(["transport", "patrol", "blockade", "move", "dock",
                                                            "carrier", "detect"]), st.none() | name),
    st.builds(m.TaskForceMission, tf_name, st.just("escort"), st.none() | name, tf_name),
    st.builds(m.TaskForceMission, tf_name, st.just("bombard"), st.none(), st.none(), name),
    st.builds(m.TaskForceMission, tf_name, st.just("load"), st.none(), st.none(), st.none(), units(), name),
    st.builds(m.TaskForceMission, tf_name, st.just("split"), units=units(st.sampled_from(v.SEA)), part=tf_name,
              at=st.none() | name),
    st.builds(m.TaskForceMission, tf_name, st.just("join"), part=tf_name),
    st.builds(m.SubDetection, name, units(st.sampled_from(v.SEA))),
    st.builds(m.SubDetection, name, units(st.sampled_from(v.AIR)), name),
    st.builds(m.SubInterception, count, name, st.sampled_from(sorted(set(v.INTERCEPT_TARGETS.values())))),
    st.builds(m.NavalInvasion, units(), name, name),
    st.builds(m.Plunder, st.sampled_from(["industry", "port"]), name),
    st.builds(m.Incorporate, name), st.builds(m.Transfer, count, name, name),
    st.builds(m.Note, st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="<"),
                              min_size=1, max_size=40).map(str.strip).filter(lambda s: s and s[0] != ":")),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(ORDERS, min_size=1, max_size=8))
def test_normalized_echo_parses_back_to_the_same_orders(orders: list[m.Order]) -> None:
    text = normalize(orders)
    result = parse_orders(text)
    assert not [d for d in result.diagnostics if d.severity == "error"], (text, result.diagnostics)
    assert result.orders == orders, text
    assert normalize(result.orders) == text


def test_every_order_class_has_a_canonical_form() -> None:
    from moderator.orders.echo import FORMATS

    classes = {c for c in vars(m).values() if isinstance(c, type) and issubclass(c, m.Order) and c is not m.Order}
    assert classes <= set(FORMATS)
