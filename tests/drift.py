"""Drift harness: the order checker and the engine judged on the same positions.

Issue 7, point 2: "Checker and engine can no longer drift." The checker
(moderator.engine.check.check_orders) is the engine's own legality walked over the phase
table on a scratch copy; this harness holds the two to that promise. For a position and
one nation's batch of orders it runs

    check_orders(batch, nation, ...)                    -> one verdict per order
    resolve(state, {nation: batch}, ..., fixed dice)    -> events (the WHOLE batch, kept
                                                           and refused, nobody else's orders)

and compares them order by order (compare()):

* kept by the checker -> not refused by the engine (no `order-refused` event with its
  index), unless the checker attached a conditional note (a code starting "if-"), or the
  refusal is explained by dice (DICE below);
* refused by the checker -> refused by the engine too, with the same reason code;
* problem() and remarks() never change the position they are shown (the rules are
  wrapped, Watched, and the position fingerprinted before and after every call);
* the treasuries the checker projects (its scratch copy after the whole table) are the
  treasuries the engine leaves, the nation's and every other's: what each order costs is
  charged the same way, and what it hands on arrives the same way (others' only when
  every capture the checker assumed happened: a defender that held on keeps its income).

DICE. With one nation's orders the engine rolls dice in that nation's land battles
(Phase 4.6) and rocket fire (Rockets: counted here as a battle without a capture), in the
naval battles its task forces meet (4.2-4.3: other nations' ships without orders dock or
patrol) and in its bombing raids (4.1.1). A land battle changes only the territory fought
over: who holds it and which defenders are left (the attackers it kills were all named by
the orders that fought it: each unit does one thing a turn). The checker takes every
attack and landing with infantry or tanks for a capture (phase4_land's assumed captures)
and no other battle for anything, so what dice can do is deny a capture it assumed
(troops sunk at sea count as a landing lost), destroy defenders it still counts, or take
resources from a raid's target, a target of unrestricted submarine warfare (1.4, 4.7), a
nation whose transfer or US trade submarines sank (4.7; its treasury is then not compared). The research
rolls (Phase 2.1) are the other dice: the checker takes each research for a success, so
an UPGRADE written after it (kept with an "if-researched" note) is charged for the new
level there, and for less or nothing when the roll fails (the treasuries are then not
compared; the verdicts are). Orders are
walked in resolution order (step, then as written); the verdicts of one may differ "by
luck" when

  1. it is kept with an "if-" note (the note says it may not happen), or
  2. it names a place (or is a flight: any place may be where it lands) where the engine
     fought a battle, at an earlier order's turn, whose outcome the checker's copy does
     not show: a capture the checker assumed (ctx.assumed held "control:<place>" when it
     judged the order) that did not happen (lost, or broken off by one of the nation's own
     withdrawal conditions), or, without a capture, defenders the dice destroyed (the
     checker assumes only captures, so its copy still has them), or
  3. it meets what an earlier order that differed by luck touched: a place that order
     names, units it names (same origin and kind), or, for a verdict on the treasury
     ("over-budget", "transfer-too-much": TREASURY_CODES), the treasury, if that order
     paid in one of them (the wrapped homes record what each commit() and execute()
     takes from the treasury), or
  4. the checker refused it for the treasury (TREASURY_CODES) and a research roll
     failed: the checker charged an UPGRADE (this one or an earlier one) at the level it
     took the research for, the engine at the level the roll left (the checker's
     optimism about research, above), so the engine had the money, or refused the order
     for another reason (an UPGRADE of a kind already upgraded this turn); and an order
     kept by both with its "if-" note but charged differently (that UPGRADE) leaves the
     treasury to luck for the treasury verdicts after it (case 3), or
  5. it comes after Phase 8 and the nation receives US trade, when the neutrals' tables
     (a declaration of war on a neutral, a joining: engine/reactions.py) moved the US
     Entry to the other side of zero than the checker projects (US trade flows only while
     it is not negative), or
  6. it names a nation (its target, nation, against or to) that a special option's roll
     took into or out of a war, or brought into a camp, in Phase 1.5, and it is judged
     at or after that step (PEACE WITH a nation that declared war by the roll).
  7. (treasuries only) another nation whose side, wars, points or income rule the engine's
     dice left other than the checker projects (the neutrals' points are drawn by the
     engine only): its income may differ.
  8. (treasuries only) the nation's own when a TRANSFER's chains of sea zones hold enemy
     submarines (4.7: each sinks 1-5, the engine's dice; the checker takes the money as
     arriving whole).
  9. it is a TRANSFER and the engine's dice (the neutrals' points, a JOIN, an option, a
     battle anywhere whose outcome the checker's copy does not show) left some nation's
     camp or wars, or some land's holder, other than the checker projects: land of the
     nation and its allies joins the ends into one treasury (engine/treasuries.py), and a
     separated group's income is what its land yields, so which treasury pays, and how
     much it holds, is luck.

Every other difference is a drift, and the treasuries are compared only when no verdict
differed at all (those of the US trade's receivers only when the dice of the neutrals'
tables left the US Entry on the side of zero the checker projects; not those of nations
a special option's roll took into or out of a war).

The order generators below, one small function per order type (GENERATORS), propose
orders from a nation's view of a position: legal-looking ones and deliberately illegal
ones. They are seeded (random.Random), so every run proposes the same orders; later they
can serve as the order homes' proposals for bots. Orders that make sense only one after
the other (a task force formed, then its missions) are proposed as a Chain, which stays
together when the batch is shuffled. The moderator is judged too: its batch is rulings
(the pseudo-nation MODERATOR, step R); a player's rulings are refused.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from moderator.engine import treasuries
from moderator.engine.check import Verdict, check_orders
from moderator.engine.context import MODERATOR, Position, TurnContext
from moderator.engine.dice import Dice
from moderator.engine.events import Event
from moderator.engine.orders.base import OrderRule
from moderator.engine.orders.records import SIDES
from moderator.engine.problems import Problem
from moderator.engine.resolve import default_ruleset, resolve
from moderator.engine.ruleset import Ruleset
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, GameState
from moderator.orders import model as m
from moderator.orders import rulings as r
from moderator.orders.echo import normalize_order
from moderator.orders.vocab import TECHNOLOGIES, UPGRADE_TECH
from moderator.world.loader import load_world
from moderator.world.model import World
from moderator.world.scenario import initial_state, load_scenario
from moderator.world.scenario_model import Scenario

# ---- positions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A position to test on: a state with its map and scenario, and the nations to try."""

    name: str
    state: GameState
    world: World
    scenario: Scenario
    nations: tuple[str, ...]


# Majors of both sides, neutral majors (Britain at half income, the USA as lender, China
# with no non-city surcharge), an allied minor and a neutral minor.
NATIONS = ("germany", "france", "russia", "britain", "serbia", "usa", "china", "belgium")
# Whose batches are judged: those nations, and the moderator (its orders are the rulings of step R).
AUTHORS = (*NATIONS, MODERATOR)


@cache
def world_1914() -> World:
    return load_world("1914", strict=False)


@cache
def scenario_1914() -> Scenario:
    return load_scenario("1914")


def opening() -> Game:
    """The 1914 opening, every unit placed (turn 1)."""
    world, scenario = world_1914(), scenario_1914()
    return Game("opening", initial_state(scenario, world, "drift"), world, scenario, AUTHORS)


def deployment() -> Game:
    """Turn 0 of a game created with a deployment turn: the free half still to deploy."""
    world, scenario = world_1914(), scenario_1914()
    state = initial_state(scenario, world, "drift", deploy_free=False)
    state.turn = 0
    return Game("deployment", state, world, scenario, ("germany", "france", "russia", "serbia", "usa"))


def conquest() -> Game:
    """Mid-war by hand (turn 5): Belgium and Britain have joined the Allies and are at war
    with the Central Powers; Germany holds Liege and Luxembourg, France Alsace-Lorraine,
    Russia a German border province, all conquered and not incorporated, each with a
    garrison; Serbia's treasury is empty, Germany has reached its manpower limit and
    France's limit is 0; a British fighter stands in Brussels and a British carrier with
    two fighters in the North Sea (an attack from it on land is flown by the engine, one
    on a sea zone goes to the moderator)."""
    game = opening()
    state, world = game.state.copy(), game.world
    for nid in ("belgium", "britain"):
        state.nations[nid].side = "allied"
        for enemy in ("germany", "austria-hungary"):
            for a, b in ((nid, enemy), (enemy, nid)):
                state.nations[a].at_war_with = sorted({*state.nations[a].at_war_with, b})
    for place, holder in (("Liege", "germany"), ("Luxembourg", "germany"), ("Alsace-Lorraine", "france"),
                          (_east_prussia(world), "russia")):
        state.control[place] = holder
        state.incorporated.pop(place, None)
        for u in state.units_at(place):
            if not state.allies(u.nation, holder):
                u.location = _retreat(world, state, u.nation, place)
        state.new_unit(holder, "infantry", place)
    state.nations["serbia"].saved = 0
    ger = state.nations["germany"]
    ger.infantry_built = ger.manpower_limit
    state.nations["france"].manpower_limit = 0
    state.new_unit("britain", "fighter", "Brussels")
    for kind in ("carrier", "fighter", "fighter"):
        state.new_unit("britain", kind, "North Sea")
    state.turn = 5
    return dataclasses.replace(game, name="conquest", state=state)


def _east_prussia(world: World) -> str:
    """A German border province Russia can hold (the first German neighbour of Russia)."""
    for t in sorted(world.lands(), key=lambda t: t.name):
        if t.owner == "germany" and any(world.territories[n].owner == "russia" for n in world.neighbours(t.name)):
            return t.name
    raise LookupError("no German province borders Russia")


def _retreat(world: World, state: GameState, nation: str, place: str) -> str:
    """Where a unit standing in a conquered place goes: its nation's nearest own land."""
    seen, queue = {place}, deque([place])
    while queue:
        here = queue.popleft()
        for nb in sorted(world.neighbours(here)):
            if nb in seen or not world.territories[nb].is_land:
                continue
            if state.controller(nb) == nation:
                return nb
            seen.add(nb)
            queue.append(nb)
    return place


def latewar() -> Game:
    """Late in the war by hand (turn 8), from the conquest position, so that every order
    type has legal cases (and the rarer refusals their occasion). War chests are full
    (3000 each): here the paid orders meet their other rules, not the budget.

    Belgium is conquered (Germany holds Brussels, incorporated last turn, and Liege and
    Luxembourg, incorporated on turn 4, with a complex Germany built in Luxembourg:
    plunder; Britain holds the colonies; the Belgian army is in London: exile). Germany has
    rockets of the third advance in Cologne, bombers of the second in Liege, super
    trenches, radar, sonar, improved weapons and the second tank advance (no tanks yet), a
    trench in Cologne facing Liege, six infantry in Berlin (home-city trenches), and has
    declared unrestricted submarine warfare on the Allies. Britain has carriers (a second
    one, with two fighters, in the English Channel), radar and the fourth tank advance (two
    tanks in Alsace-Lorraine: breakthroughs), a damaged battleship in the
    English Channel, by its ports, and a cruiser in the Skagerrak (a blockade of Germany). Italy
    joined the Allies on turn 6 and fights Austria-Hungary (its bombers lack the second
    advance); Japan took Jiaozhou; Japan and Spain geared up on turn 6, the USA on turn 7;
    France used its option #1 (Spanish relations) on turn 6; Serbia's surrender was
    accepted on turn 7; Canada, a dominion, is still neutral."""
    game = conquest()
    state = game.state
    _belgium_conquered(state)
    _arsenals(state)
    _diplomacy(state)
    state.turn = 8
    judged = ("germany", "britain", "france", "belgium", "japan", "spain", "usa", "serbia", "italy", "canada")
    for nid in judged:
        state.nations[nid].saved = 3000
    return dataclasses.replace(game, name="latewar", state=state, nations=(*judged, MODERATOR))


def _belgium_conquered(state: GameState) -> None:
    state.control["Brussels"] = "germany"
    for u in state.units:
        if u.nation == "belgium" or (u.nation == "britain" and u.location == "Brussels"):
            u.location = "London"
    state.new_unit("germany", "infantry", "Brussels")
    state.incorporated.update({"Brussels": 7, "Liege": 4, "Luxembourg": 4})
    for colony in ("Belgian Congo", "Katanga"):
        state.control[colony] = "britain"
        state.incorporated.pop(colony, None)
    state.new_unit("germany", "industry", "Luxembourg")


def _arsenals(state: GameState) -> None:
    ger = state.nations["germany"]
    ger.tech.update(rockets=3, improved_bombers=2, super_trenches=1, radar=1, sonar=1, improved_weapons=1, tanks=2)
    for kind, place in (("rocket", "Cologne"), ("rocket", "Cologne"), ("bomber", "Liege"), ("bomber", "Liege"),
                        ("infantry", "Berlin"), ("infantry", "Berlin")):
        state.new_unit("germany", kind, place)
    trench = state.new_unit("germany", "trench", "Cologne")
    ger.flags.update(trench_facing={trench.id: "Liege"}, unrestricted_subs="allied")
    state.nations["britain"].tech.update(aircraft_carriers=1, radar=1, tanks=4)
    for _ in range(2):
        state.new_unit("britain", "tank", "Alsace-Lorraine")  # next to Strasbourg: a breakthrough
    state.new_unit("britain", "battleship", "English Channel").damage = 1
    state.new_unit("britain", "cruiser", "Skagerrak")  # off the German coast: a blockade
    for kind in ("carrier", "fighter", "fighter"):
        state.new_unit("britain", kind, "English Channel")


def _diplomacy(state: GameState) -> None:
    italy = state.nations["italy"]
    italy.side = "allied"
    for a, b in (("italy", "austria-hungary"), ("austria-hungary", "italy")):
        state.nations[a].at_war_with = sorted({*state.nations[a].at_war_with, b})
    state.control["Jiaozhou"] = "japan"
    state.incorporated.pop("Jiaozhou", None)
    state.units = [u for u in state.units if not (u.location == "Jiaozhou" and u.nation == "germany")]
    for nid, turn in (("japan", 6), ("spain", 6), ("usa", 7)):
        state.nations[nid].flags["geared_up"] = turn
    state.nations["france"].flags["options_used"] = {"1": 6}
    state.nations["serbia"].flags["surrendered"] = 7


def scarcity() -> Game:
    """Empty and nearly empty treasuries, limits reached: every money rule at its edge."""
    game = opening()
    state = game.state.copy()
    for nid, saved in (("germany", 0), ("russia", 4), ("france", 9), ("britain", 0), ("serbia", 1),
                       ("china", 6), ("usa", 4)):
        state.nations[nid].saved = saved
    for nid in ("russia", "china", "serbia"):
        state.nations[nid].manpower_limit = 0
    state.nations["france"].infantry_built = state.nations["france"].manpower_limit - 1
    return dataclasses.replace(game, name="scarcity", state=state)


@cache
def _played() -> GameState:
    """The opening played for two turns with seeded orders of several nations (the kept
    ones, as the service would pass them), seeded dice."""
    game = opening()
    state = game.state
    players = ("germany", "austria-hungary", "france", "russia", "serbia", "britain")
    for _ in range(2):
        orders: dict[str, list[m.Order]] = {}
        for nid in players:
            batch = propose(game_at(game, state), nid, f"played/{state.turn}/{nid}", per_type=3)
            verdicts = check_orders(batch, nid, state, game.world, game.scenario)
            orders[nid] = [v.order for v in verdicts if v.kept]
        state, _ = resolve(state, orders, game.world, game.scenario, Dice("drift/played", state.turn))
    return state


def played() -> Game:
    """Two turns into the war (turn 3), from the opening and seeded orders."""
    return dataclasses.replace(opening(), name="played", state=_played().copy())


def game_at(game: Game, state: GameState) -> Game:
    return dataclasses.replace(game, state=state)


POSITIONS: dict[str, Callable[[], Game]] = {
    "opening": opening, "played": played, "conquest": conquest, "scarcity": scarcity,
    "deployment": deployment, "latewar": latewar,
}


# ---- a nation's view of a position (what the generators read) ---------------------------


@dataclass
class View:
    game: Game
    nation: str
    rng: random.Random

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def world(self) -> World:
        return self.game.world

    def pick(self, items: Iterable[Any], k: int = 1) -> list[Any]:
        pool = sorted(items)
        return self.rng.sample(pool, min(k, len(pool)))

    def sample(self, items: Sequence[Any], k: int = 1) -> list[Any]:
        """Like pick(), for things that do not sort (units, orders): `items` in a fixed order."""
        return self.rng.sample(list(items), min(k, len(items)))

    def stacks(self, kinds: Iterable[str] = LAND_UNITS + AIR_UNITS) -> dict[str, Counter[str]]:
        """place -> the nation's units of `kinds` there."""
        wanted = set(kinds)
        out: dict[str, Counter[str]] = {}
        for u in self.state.units:
            if u.nation == self.nation and u.kind in wanted:
                out.setdefault(u.location, Counter())[u.kind] += 1
        return out

    def lands(self) -> list[str]:
        return sorted(t.name for t in self.world.lands())

    def seas(self) -> list[str]:
        return sorted(n for n, t in self.world.territories.items() if t.is_sea)

    def neighbours(self, place: str) -> list[str]:
        return sorted(self.world.neighbours(place))

    def within(self, place: str, steps: int) -> list[str]:
        """Places at most `steps` moves away (not `place` itself)."""
        seen, frontier = {place}, [place]
        for _ in range(steps):
            frontier = [nb for here in frontier for nb in self.world.neighbours(here) if nb not in seen]
            seen.update(frontier)
        return sorted(seen - {place})

    def ring(self, place: str, steps: int) -> list[str]:
        """Places exactly `steps` moves away."""
        return sorted(set(self.within(place, steps)) - set(self.within(place, steps - 1)) - {place})

    def own(self) -> list[str]:
        """Original land of the nation (Phase 7 rule 1's "originally owned")."""
        return sorted(t.name for t in self.world.lands() if t.owner == self.nation)

    def held(self) -> list[str]:
        return sorted(t for t, n in self.state.control.items() if n == self.nation)

    def hostile(self, place: str) -> bool:
        holder = self.state.controller(place)
        return holder is not None and not self.state.allies(self.nation, holder)

    def enemy(self, place: str) -> bool:
        """Held by a nation at war with the viewer."""
        holder = self.state.controller(place)
        return holder is not None and self.state.at_war(self.nation, holder)

    def sea(self, place: str) -> bool:
        return self.world.territories[place].is_sea

    def nations(self) -> list[str]:
        return sorted(self.state.nations)

    def allies(self) -> list[str]:
        return [n for n in self.nations() if n != self.nation and self.state.allies(self.nation, n)]

    def enemies(self) -> list[str]:
        return [n for n in self.nations() if self.state.at_war(self.nation, n)]

    def others(self) -> list[str]:
        return [n for n in self.nations() if n != self.nation and n not in self.allies() and n not in self.enemies()]

    def saved(self) -> int:
        ns = self.state.nations.get(self.nation)
        return ns.saved if ns is not None else 0


def units(**counts: int) -> tuple[m.UnitCount, ...]:
    return tuple(m.UnitCount(k, n) for k, n in counts.items() if n > 0)


def some(v: View, stack: Counter[str], kinds: Iterable[str] | None = None, extra: int = 0) -> tuple[m.UnitCount, ...]:
    """Some of a stack's units (at least one of a kind), `extra` more than there are."""
    pool = [k for k in sorted(stack) if kinds is None or k in kinds]
    if not pool:
        return ()
    chosen = v.pick(pool, v.rng.randint(1, len(pool)))
    return tuple(m.UnitCount(k, v.rng.randint(1, stack[k]) + extra) for k in sorted(chosen))


# ---- the generators: one per order type -------------------------------------------------


@dataclass(frozen=True)
class Chain:
    """Orders that make sense only as written, one after the other (a task force formed,
    then its missions): proposed, sampled and shuffled as one."""

    orders: tuple[m.Order, ...]


Proposal = m.Order | Chain


def moves(v: View) -> list[m.Order]:
    """MOVE/ATTACK (4.4): land stacks to neighbours (friendly, hostile, sea, mountains),
    beyond, with too many units, and ships that cannot move so."""
    out: list[m.Order] = []
    stacks = {p: c for p, c in v.stacks(LAND_UNITS).items() if v.world.territories[p].is_land}
    for place in v.pick(stacks, 4):
        stack, near = stacks[place], v.neighbours(place)
        for dest in v.pick(near, 2):
            cls = m.Attack if v.hostile(dest) and v.rng.random() < 0.5 else m.Move
            out.append(cls(some(v, stack), place, dest))
        far = [p for p in v.within(place, 2) if p not in near]
        if far:
            out.append(m.Move(some(v, stack), place, v.pick(far)[0]))
        if near:
            out.append(m.Move(some(v, stack, extra=1), place, v.pick(near)[0]))
        out.append(m.Move(some(v, stack), place, place))
    hostile = [(p, d) for p in stacks for d in v.neighbours(p) if v.hostile(d)]
    for place, dest in v.pick(hostile, 3):  # attacks, artillery-only ones among them
        out.append(m.Attack(some(v, stacks[place], ("artillery", "aa")) or some(v, stacks[place]), place, dest))
    ships = v.stacks(SEA_UNITS)
    for place in v.pick(ships, 1):
        out.append(m.Move(some(v, ships[place]), place, v.pick(v.neighbours(place))[0]))
    return out


def air_moves(v: View) -> list[m.Order]:
    """Aircraft (Fighters, 4.4): flights of 1-4 fuel to land and sea, friendly and hostile."""
    out: list[m.Order] = []
    stacks = v.stacks(AIR_UNITS)
    for place in v.pick(stacks, 3):
        for dest in v.pick(v.neighbours(place), 1) + v.pick(v.within(place, 3), 2):
            out.append(m.Move(some(v, stacks[place]), place, dest))
    for place in sorted(p for p in stacks if v.sea(p) and stacks[p].get("fighter"))[:1]:
        near = sorted(v.neighbours(place))
        out.append(m.Attack(units(fighter=1), place, near[0]))  # from a carrier on land: flown by the engine
        out += [m.Attack(units(fighter=1), place, d) for d in near if v.sea(d)][:1]  # on a sea zone: refused
    return out


def terrain_moves(v: View) -> list[m.Order]:
    """Into the mountains and the fortress (Other Key Map Features) from each neighbour."""
    out: list[m.Order] = []
    special = [t.name for t in v.world.lands() if t.features]
    for dest in v.pick(special, 3):
        for origin in v.pick([n for n in v.neighbours(dest) if v.world.territories[n].is_land], 1):
            kind = v.pick(("infantry", "artillery", "fighter", "tank"))[0]
            out.append(m.Move(units(**{kind: 1}), origin, dest))
    return out


def strategic_moves(v: View) -> list[m.Order]:
    """STRATEGIC MOVE (4.1.3): far along friendly rails, past capacity, to unfriendly
    land, with ships or aircraft, from places without the units."""
    out: list[m.Order] = []
    stacks = {p: c for p, c in v.stacks(LAND_UNITS + AIR_UNITS).items() if v.world.territories[p].is_land}
    friendly = [p for p in v.lands() if v.state.controller(p) is not None and v.state.allies(v.nation, v.state.controller(p) or "")]
    for place in v.pick(stacks, 3):
        stack = stacks[place]
        for dest in v.pick(friendly, 2):
            out.append(m.StrategicMove(some(v, stack, LAND_UNITS) or some(v, stack), place, dest))
        out.append(m.StrategicMove(some(v, stack, extra=v.rng.randint(0, 3)), place, v.pick(v.within(place, 6))[0]))
    for place in v.pick(v.lands(), 1):
        out.append(m.StrategicMove(units(infantry=1), place, v.pick(friendly or v.lands())[0]))
    return out


BUILD_KINDS = (*LAND_UNITS, *AIR_UNITS, *SEA_UNITS, "industry", "port", "trench", "radar")


def builds(v: View) -> list[m.Order]:
    """BUILD (3.1, placed in 7): every kind, at own cities and non-cities, own industry,
    colonies, foreign and conquered land, sea zones by own ports and elsewhere; infantry
    always once in an own city and once outside the cities (surcharge, cap, manpower)."""
    out: list[m.Order] = []
    own = v.own()
    cities = [p for p in own if v.world.territories[p].city]
    plain = [p for p in own if not v.world.territories[p].city]
    places = v.pick(own, 3) + v.pick(v.held(), 1) + v.pick(v.lands(), 2)
    ports = [s for p in own if v.world.territories[p].port for s in v.neighbours(p) if v.world.territories[s].is_sea]
    seas = v.pick(ports, 2) + v.pick(v.seas(), 1)
    for kind in BUILD_KINDS:
        where = seas if kind in SEA_UNITS else places
        chosen = v.pick(where, 2) + (v.pick(cities, 1) + v.pick(plain, 1) if kind == "infantry" else [])
        for place in chosen:
            value = v.world.territories[place].value
            out.append(m.Build(kind, v.rng.choice((1, 1, 2, max(1, value), value + 2)), place))
    return out


def incorporations(v: View) -> list[m.Order]:
    """INCORPORATE (6): held unincorporated land, own land, enemy land next to own
    armies (an attack may take it), foreign land, a sea zone."""
    near = [d for p in v.stacks(("infantry", "tank")) for d in v.neighbours(p) if v.hostile(d)]
    unincorporated = [p for p in v.held() if p not in v.state.incorporated]
    places = v.pick(unincorporated, 2) + v.pick(v.own(), 1) + v.pick(near, 2) + v.pick(v.lands(), 1) + v.pick(v.seas(), 1)
    return [m.Incorporate(p) for p in places]


def gifts(v: View) -> list[m.Order]:
    """GIFT (8.1): to allies (and the full-value group), self, enemies, neutrals; from
    nothing to more than the treasury after income."""
    out: list[m.Order] = []
    saved = v.saved()
    for to in v.pick(v.allies(), 2) + v.pick(v.others(), 1) + v.pick(v.enemies(), 1) + [v.nation]:
        amount = v.rng.choice((1, 5, saved, saved + 5, saved + 40, 3 * saved + 100))
        out.append(m.Gift(max(amount, 1), to))
    return out


def declarations(v: View) -> list[m.Order]:
    """DECLARE WAR (1.1): on enemies, on neutrals, on allies, on itself."""
    targets = v.pick(v.enemies(), 1) + v.pick(v.others(), 2) + v.pick(v.allies(), 1) + [v.nation]
    return [m.DeclareWar(t) for t in targets]


def deploys(v: View) -> list[m.Order]:
    """DEPLOY (turn 0): what is left to deploy, at own land, colonies, allied land, at sea,
    next to own coasts, and more than is left."""
    free = Counter[str]()
    for item in v.state.nations[v.nation].flags.get("to_deploy", ()):
        free[str(item["kind"])] += int(item["count"])
    if not free:
        free["infantry"] = 1
    coast = [s for p in v.own() for s in v.neighbours(p) if v.world.territories[s].is_sea]
    out: list[m.Order] = []
    for kind in v.pick(free, 3):
        places = v.pick(coast if kind in SEA_UNITS else v.own(), 2) + v.pick(v.lands() + v.seas(), 1)
        for place in places:
            out.append(m.Deploy(units(**{kind: v.rng.randint(1, free[kind] + 1)}), place))
    return out


def conditions(v: View) -> list[m.Order]:
    """Conditional orders (4.6): on an attack among the orders, on a place nobody attacks,
    each kind, the same condition twice, and defenders' withdrawals TO a neighbour."""
    out: list[m.Order] = []
    stacks = v.stacks(("infantry",))
    targets = [(p, d) for p in stacks for d in v.neighbours(p) if v.hostile(d)]
    for place, dest in v.pick(targets, 1):
        out.append(m.Attack(units(infantry=1), place, dest))
        kind = v.pick(("rounds", "losses", "kills", "max-defenders"))[0]
        out += [m.CombatCondition(dest, kind, 2), m.CombatCondition(dest, kind, 3)]
    for dest in v.pick(v.lands(), 1):
        out.append(m.CombatCondition(dest, v.pick(("rounds", "losses", "kills"))[0], 1))
    for place in v.pick(stacks, 1):  # defenders disengaging to a neighbour (4.6), or to land further off
        for to in v.pick(v.neighbours(place), 1) + v.pick(v.within(place, 2), 1):
            out.append(m.CombatCondition(place, "rounds", 1, to))
    return out


def casualty_orders(v: View) -> list[m.Order]:
    """CASUALTIES (4.6): everywhere and in one place."""
    kinds = tuple(v.pick(LAND_UNITS + AIR_UNITS, 3))
    return [m.CasualtyOrder(kinds), m.CasualtyOrder(kinds[::-1], v.pick(v.lands())[0])]


def notes(v: View) -> list[m.Order]:
    return [m.Note(f"drift note {v.rng.randint(1, 99)}")]


# ---- Phase 1: diplomacy ------------------------------------------------------------------


def neutrals_of(v: View, kind: str | None = None) -> list[str]:
    """Neutral nations other than the viewer (of one kind: minor, major, dominion)."""
    info = v.game.scenario.nations
    return [n for n in v.nations() if n != v.nation and v.state.nations[n].side == "neutral"
            and (kind is None or (n in info and info[n].kind == kind))]


def influences(v: View) -> list[Proposal]:
    """INFLUENCE (1.2): minor and major neutrals, dominions, enemies and allies, toward each
    side or none; itself (the neutrals' self-influence) toward each side; twice the same."""
    out: list[Proposal] = []
    targets = (v.pick(neutrals_of(v, "minor"), 2) + v.pick(neutrals_of(v, "major"), 2)
               + v.pick(neutrals_of(v, "dominion"), 1) + v.pick(v.enemies(), 1) + v.pick(v.allies(), 1))
    out += [m.Influence(t, v.rng.choice((None, None, *SIDES))) for t in targets]
    out += [m.Influence(v.nation, v.rng.choice((None, *SIDES))) for _ in range(2)]
    return out + out[:1]  # only one attempt per target and turn


def coaxing(v: View) -> list[Proposal]:
    """COAX Italy (1.2): once, and twice in a turn."""
    return [m.CoaxItaly() for _ in range(v.rng.randint(1, 2))]


def surrenders(v: View) -> list[Proposal]:
    """OFFER SURRENDER (1.3) to the whole opposing side, to enemies, to a nation not at war;
    votes on enemies, allies and itself, and the same vote twice."""
    out: list[Proposal] = [m.OfferSurrender(), m.OfferSurrender(tuple(v.pick(v.enemies(), 2)))]
    out += [m.OfferSurrender((t,)) for t in v.pick(v.others() + v.allies(), 1)]
    votes = v.pick(v.enemies(), 2) + v.pick(v.allies() + v.others(), 1) + [v.nation]
    out += [m.SurrenderVote(t, v.rng.random() < 0.7) for t in votes]
    return out + out[-2:-1]


def passages(v: View) -> list[Proposal]:
    """CLOSE/OPEN a strait or canal (1.4): one the nation holds, one it does not; to
    everyone or to named nations; the same passage twice."""
    closable = [p for p in v.world.passages if p.controllers]
    held = [p.name for p in closable if any(v.state.controller(t) == v.nation for t in p.controllers)]
    names = v.pick(held, 2) + v.pick([p.name for p in closable], 1)
    out: list[Proposal] = []
    for name in names:
        to = tuple(v.pick(v.enemies() + v.others(), v.rng.randint(0, 2)))
        out.append(m.ClosePassage(name, to, v.rng.random() < 0.8))
    return out + out[:1]


def submarine_warfare(v: View) -> list[Proposal]:
    """UNRESTRICTED SUBMARINE WARFARE (1.4) against each side, an enemy, an ally, itself,
    a side or nation nobody knows; its retraction (25)."""
    targets = [*SIDES, *v.pick(v.enemies(), 1), *v.pick(v.allies() + v.others(), 1), v.nation, "Atlantis"]
    out: list[Proposal] = [m.SubWarfare(t) for t in v.pick(targets, 2)]
    return out + [m.SubWarfare(None, retract=True)]


def blockades(v: View) -> list[Proposal]:
    """BLOCKADE (1.4): enemies, others, allies; of the US trade to each nation it reaches."""
    d = v.game.scenario.diplomacy
    out: list[Proposal] = [m.Blockade(t) for t in v.pick(v.enemies(), 2) + v.pick(v.others() + v.allies(), 1)]
    out += [m.Blockade(t, us_trade=True) for t in v.pick(sorted(d.us_trade), 2) + v.pick(v.enemies(), 1)]
    return out + out[:1]


def special_options(v: View) -> list[Proposal]:
    """OPTION n (1.5): each number of the nation's options in the scenario's table (the
    table of its side first, where it has one per side), with the arguments the option
    needs (or one forgotten), FULL WAR (now and then where there is none), an unknown
    number."""
    d = v.game.scenario.diplomacy
    specs = {o.number: o for o in d.options if o.nation == v.nation}
    specs.update(d.options_for(v.nation, v.state.nations[v.nation].side))
    out: list[Proposal] = []
    for number in sorted(specs):
        spec = specs[number]
        for _ in range(v.rng.randint(1, 2)):
            target = v.pick(neutrals_of(v) if spec.target_side == "neutral" else v.nations(), 1)[0]
            amount = v.rng.choice((1, 5, spec.amount_min or 10, v.saved(), v.saved() + 20))
            args: dict[str, Any] = {"target": target, "amount": amount, "toward": v.rng.choice(SIDES)}
            given = {k: args[k] for k in spec.needs}
            if given and v.rng.random() < 0.2:
                del given[v.pick(given)[0]]  # an argument forgotten
            full = v.rng.random() < (0.5 if spec.full_cost else 0.05)
            out.append(m.SpecialOption(number, full=full, **given))
    return out + [m.SpecialOption(v.rng.choice((0, 9, 12)))]


def gear_ups(v: View) -> list[Proposal]:
    """GEAR UP: once, twice."""
    return [m.GearUp() for _ in range(v.rng.randint(1, 2))]


def joins(v: View) -> list[Proposal]:
    """JOIN side: either side, twice."""
    return [m.JoinSide(side) for side in v.pick(SIDES, 2)]


def peace(v: View) -> list[Proposal]:
    """PEACE WITH (Local War): enemies (main war or local), nations not at war, twice."""
    out: list[Proposal] = [m.Peace(t) for t in v.pick(v.enemies(), 2) + v.pick(v.others() + v.allies(), 1)]
    return out + out[:1]


def exiles(v: View) -> list[Proposal]:
    """GOVERNMENT IN EXILE (Conquest): with allies (once a turn), a neutral, itself."""
    return [m.Exile(h) for h in v.pick(v.allies(), 2) + v.pick(v.others(), 1) + [v.nation]]


# ---- Phases 2, 3, 5, 8 -------------------------------------------------------------------


def researches(v: View) -> list[Proposal]:
    """RESEARCH (2.1): technologies the nation has, has not, has completed; twice the same."""
    have = v.state.nations[v.nation].tech
    out: list[Proposal] = [m.Research(t) for t in v.pick(TECHNOLOGIES, 3) + v.pick(have, 1)]
    return out + out[:1]


def upgrades(v: View) -> list[Proposal]:
    """UPGRADE (2.2): kinds whose technology the nation has, others, after a research of
    it, twice the same."""
    tech = v.state.nations[v.nation].tech
    ahead = [k for k, techs in UPGRADE_TECH.items() if any(tech.get(t) for t in techs)]
    kinds = v.pick(ahead, 2) + v.pick(UPGRADE_TECH, 1)
    out: list[Proposal] = [m.Upgrade(k) for k in kinds]
    for kind in v.pick(kinds, 1):
        out.append(Chain((m.Research(UPGRADE_TECH[kind][0]), m.Upgrade(kind))))
    return out + out[:1]


def trenches(v: View) -> list[Proposal]:
    """BUILD TRENCH (3.1, Trenches): from land held with infantry, facing land neighbours
    and the sea; on land without infantry or not held; twice the same; a SUPER TRENCH on
    each trench, and on one dug this very turn; HOME TRENCHES in own cities, held cities
    and elsewhere, twice."""
    out: list[Proposal] = []
    infantry = v.stacks(("infantry",))
    manned = [p for p in infantry if not v.sea(p)]
    for place in v.pick(manned, 3) + v.pick(v.held(), 1) + v.pick(v.lands(), 1):
        for facing in v.pick(v.neighbours(place), 2):
            out.append(m.BuildTrench(place, facing))
    mine = [u for u in v.state.units if u.nation == v.nation and u.kind in ("trench", "super_trench")]
    faced = v.state.nations[v.nation].flags.get("trench_facing", {})
    for u in v.sample(mine, 2):
        out.append(m.BuildTrench(u.location, faced.get(u.id, u.location), super=True))
    for place in v.pick(manned, 2):
        facing = v.pick(v.neighbours(place))[0]
        out.append(Chain((m.BuildTrench(place, facing), m.BuildTrench(place, facing, super=True))))
    cities = [p for p in v.held() if v.world.territories[p].city]
    garrisoned = [p for p in cities if p in infantry and infantry[p]["infantry"] >= 5]
    homes = [m.BuildHomeTrenches(p) for p in v.pick(garrisoned, 1) + v.pick(cities, 1) + v.pick(v.lands(), 1)]
    return out + out[:1] + homes + homes[:1]


def ports_of(v: View) -> list[str]:
    """Sea zones next to a port (on the map) the nation holds."""
    ts = v.world.territories
    return sorted({s for p, t in ts.items() if t.is_land and t.port and v.state.controller(p) == v.nation
                   for s in v.neighbours(p) if ts[s].is_sea})


def ship_gear(v: View) -> list[Proposal]:
    """BUILD RADAR/SONAR (3.1): on ships the nation has by its ports (on each, and one
    more), away from them, ashore; on land it holds and does not, at sea without
    a ship."""
    out: list[Proposal] = []
    ships = v.stacks(SEA_UNITS)
    home = [s for s in ports_of(v) if s in ships]
    for zone in v.pick(home, 2) + v.pick([s for s in ships if s not in home], 1):
        for ship in v.pick(ships[zone], 2):
            kind = v.pick(("radar", "sonar"))[0]
            out += [m.BuildShipGear(kind, zone, ship) for _ in range(ships[zone][ship] + 1)]
    for place in v.pick(v.held(), 1) + v.pick(v.lands(), 1) + v.pick(v.seas(), 1):
        out.append(m.BuildShipGear("radar", place))
    out += [m.BuildShipGear("sonar", p, "cruiser") for p in v.pick(v.held(), 1)]
    return out


def espionage(v: View) -> list[Proposal]:
    """ESPIONAGE (3.2.1), each kind at fitting and unfitting targets; COUNTERESPIONAGE
    (3.2.2), each kind; the same attempt twice."""
    out: list[Proposal] = []
    minors, majors = neutrals_of(v, "minor"), neutrals_of(v, "major")
    for target in v.pick(minors, 1) + v.pick(majors, 1):
        out += [m.Espionage("neutral", target), m.Espionage("affiliation", target)]
    for target in v.pick(v.enemies(), 1) + v.pick(v.allies() + v.others(), 1):
        out.append(m.Espionage("army", target))
    for target in v.pick(v.nations(), 2) + [v.nation]:
        out.append(m.Espionage("industrial", target, tech=v.pick(TECHNOLOGIES)[0]))
    near = [d for p in v.stacks(LAND_UNITS) for d in v.neighbours(p)]
    for place in v.pick(near, 1) + v.pick(list(v.stacks(LAND_UNITS)), 1) + v.pick(v.lands() + v.seas(), 1):
        out.append(m.Espionage("combat", place=place))
    out += [m.CounterEspionage("affiliation"), m.CounterEspionage("army", v.pick(v.enemies() + v.others())[0])]
    out += [m.CounterEspionage("industrial", tech=t) for t in v.pick(TECHNOLOGIES, 1)]
    out += [m.CounterEspionage("recon", place=p) for p in v.pick(v.held(), 1) + v.pick(v.lands(), 1)]
    return out + v.sample(out, 2)


def recon(v: View) -> list[Proposal]:
    """RECON (3.3): land units next door and beyond, artillery (no mission), aircraft
    within reach and beyond, ships in their own zone and the next; more units than there
    are."""
    out: list[Proposal] = []
    land = {p: c for p, c in v.stacks(LAND_UNITS).items() if v.world.territories[p].is_land}
    for place in v.pick(land, 3):
        out.append(m.Recon(some(v, land[place]), place, v.pick(v.neighbours(place))[0]))
    for place in v.pick(land, 1):
        out += [m.Recon(some(v, land[place]), place, p) for p in v.pick(v.ring(place, 2), 1)]
    air = v.stacks(AIR_UNITS)
    for place in v.pick(air, 2):
        for dest in v.pick(v.within(place, 3), 2):
            out.append(m.Recon(some(v, air[place]), place, dest))
    ships = v.stacks(SEA_UNITS)
    for zone in v.pick(ships, 2):
        out.append(m.Recon(some(v, ships[zone]), zone, zone))
        out.append(m.Recon(some(v, ships[zone], extra=v.rng.randint(0, 1)), zone, v.pick(v.neighbours(zone))[0]))
    return out


def repairs(v: View) -> list[Proposal]:
    """REPAIR (3.4): the nation's damaged ships where they are (one more than there are),
    undamaged ones, ships that are never repaired, on land."""
    out: list[Proposal] = []
    hurt = Counter((u.location, u.kind) for u in v.state.units if u.nation == v.nation and u.damage)
    for (zone, kind), n in sorted(hurt.items()):
        out += [m.Repair(kind, n, zone), m.Repair(kind, n + 1, zone)]
    ships = v.stacks(SEA_UNITS)
    for zone in v.pick(ships, 2):
        out.append(m.Repair(v.pick(ships[zone])[0], 1, zone))
    out += [m.Repair("battleship", 1, p) for p in v.pick(v.lands(), 1)]
    return out


def plunders(v: View) -> list[Proposal]:
    """PLUNDER (5): land the nation conquered (incorporated long ago, lately, not at all),
    its own land, others' land; industry and ports."""
    conquered = [p for p in v.held() if v.world.territories[p].owner != v.nation]
    places = v.pick(conquered, 3) + v.pick(v.own(), 1) + v.pick(v.lands(), 1)
    return [m.Plunder(k, p) for p in places for k in ("industry", "port")]


def transfers(v: View) -> list[Proposal]:
    """TRANSFER (8): between land it holds, far apart and next door, more than it has,
    to the same place, from land it does not hold."""
    held = v.held()
    out: list[Proposal] = []
    for a, b in zip(v.pick(held, 2), v.pick(held, 2), strict=False):
        out.append(m.Transfer(v.rng.choice((1, 5, v.saved() + 10, 4 * v.saved() + 60)), a, b))
    out += [m.Transfer(3, p, p) for p in v.pick(held, 1)]
    out += [m.Transfer(2, p, q) for p, q in zip(v.pick(v.lands(), 1), v.pick(held, 1), strict=False)]
    return out


# ---- Phase 4 at sea and in the air -------------------------------------------------------


def bombings(v: View) -> list[Proposal]:
    """BOMB INDUSTRY|CITY|TACTICAL (4.1.1): aircraft at enemy land within reach, cities
    and complexes and neither, friendly land, too far; with ground units among them."""
    out: list[Proposal] = []
    air = v.stacks(AIR_UNITS)
    for place in v.pick(air, 3):
        rings = [[p for p in v.ring(place, d) if v.enemy(p)] for d in (1, 2, 3)]
        for target in [t for ring in rings for t in v.pick(ring, 1)] + v.pick(v.within(place, 2), 1):
            for aim in v.pick(("industry", "city", "tactical"), 2):
                out.append(m.Bombing(aim, some(v, air[place]), place, target))
    ground = v.stacks(LAND_UNITS)
    for place in v.pick(ground, 1):
        out.append(m.Bombing("tactical", some(v, ground[place]), place, v.pick(v.neighbours(place))[0]))
    return out


def rocket_fire(v: View) -> list[Proposal]:
    """FIRE rockets (Rockets): at enemy land one, two, three and four territories away,
    each aim, at friendly land, more rockets than there are; from land without rockets."""
    out: list[Proposal] = []
    rockets = v.stacks(("rocket",))
    for place in v.pick(rockets, 2):
        rings = [[p for p in v.ring(place, d) if v.enemy(p)] for d in (1, 2, 3, 4)]
        for target in [t for ring in rings for t in v.pick(ring, 2)] + v.pick(v.within(place, 2), 1):
            aim = v.pick(("units", "city", "industry"))[0]
            out.append(m.RocketFire(v.rng.randint(1, rockets[place]["rocket"] + 1), place, target, aim))
    for place in v.pick(v.held(), 1):
        out.append(m.RocketFire(1, place, v.pick(v.neighbours(place))[0]))
    return out


def rebases(v: View) -> list[Proposal]:
    """REBASE (4.1.2): aircraft to friendly incorporated land near and far, to enemy and
    unincorporated land, to the sea; ground units; more than there are."""
    out: list[Proposal] = []
    air = v.stacks(AIR_UNITS)
    for place in v.pick(air, 3):
        near = v.within(place, 6)
        friendly = [p for p in near if v.world.territories[p].is_land and not v.hostile(p)]
        for dest in v.pick(friendly, 2) + v.pick(near, 1):
            out.append(m.Rebase(some(v, air[place], extra=int(v.rng.random() < 0.2)), place, dest))
    ground = v.stacks(LAND_UNITS)
    for place in v.pick(ground, 1):
        out.append(m.Rebase(some(v, ground[place]), place, v.pick(v.neighbours(place))[0]))
    return out


MISSIONS = ("transport", "escort", "bombard", "carrier", "patrol", "blockade", "move", "dock", "detect")


def task_forces(v: View) -> list[Proposal]:
    """TF name AT zone, then its missions (4.2), in the order written: every mission, on
    to a neighbouring sea zone or staying, now and then to land, further than its ships
    go; an escort of a task force formed before; the battleships of a zone bombarding a
    coast. A mission of a task force never formed; a task force on land, of land units,
    formed twice."""
    out: list[Proposal] = []
    ships = v.stacks(SEA_UNITS)
    formed: list[str] = []
    for n, zone in enumerate(v.pick(ships, 3)):
        name = f"TF{n + 1}"
        steps: list[m.Order] = [m.TaskForce(name, zone, some(v, ships[zone]))]
        here = zone
        for _ in range(v.rng.randint(1, 4)):
            step = mission(v, name, here, formed)
            steps.append(step)
            here = step.dest if step.dest is not None and v.sea(step.dest) else here
        formed.append(name)
        out.append(Chain(tuple(steps)))
    for n, zone in enumerate(v.pick([z for z in ships if ships[z]["battleship"]], 2)):
        coast = [p for p in v.neighbours(zone) if not v.sea(p)]
        out += [Chain((m.TaskForce(f"Guns{n + 1}", zone, units(battleship=ships[zone]["battleship"])),
                       m.TaskForceMission(f"Guns{n + 1}", "bombard", target=p))) for p in v.pick(coast, 1)]
    out.append(m.TaskForceMission("TF9", v.pick(MISSIONS)[0]))
    land = v.stacks(LAND_UNITS)
    for place in v.pick(land, 1):
        out.append(m.TaskForce("TF8", place, some(v, land[place])))
        out.append(m.TaskForce("TF7", v.pick(v.seas())[0], some(v, land[place])))
    for zone in v.pick(ships, 1):
        out.append(m.TaskForce("TF1", zone, units(**{v.pick(ships[zone])[0]: 1})))
    return out


def mission(v: View, name: str, here: str, formed: Sequence[str]) -> m.TaskForceMission:
    """One step of a task force in sea zone `here`: a mission, staying (4 in 10), moving
    on to a neighbouring sea zone, now and then to land."""
    roll, near = v.rng.random(), v.neighbours(here)
    seas = [p for p in near if v.sea(p)]
    dest = None if roll < 0.4 else v.pick(seas if roll < 0.95 and seas else near)[0]
    task = v.pick(MISSIONS)[0]
    coast = [p for p in v.neighbours(here) if not v.sea(p)]
    return m.TaskForceMission(name, task, dest, escort_of=v.pick([*formed, name])[0] if task == "escort" else None,
                              target=v.pick(coast)[0] if task == "bombard" and coast else None)


def naval_invasions(v: View) -> list[Proposal]:
    """INVADE (4.4, 4.6.1), with the transports that carry the troops: a task force of
    transports formed, troops loaded from a neighbouring coast (within its capacity and
    beyond, tanks among them; now and then from a coast not its own, or ships), a
    transport mission on (or another mission, loaded), then landings on enemy and
    friendly coasts of the zone it reached; landings with no troops aboard."""
    out: list[Proposal] = []
    transports = {z: c for z, c in v.stacks(("transport",)).items() if v.world.territories[z].is_sea}
    troops = v.stacks(LAND_UNITS)
    for n, zone in enumerate(v.pick(transports, 2)):
        name = f"Convoy{n + 1}"
        steps: list[m.Order] = [m.TaskForce(name, zone, units(transport=transports[zone]["transport"]))]
        aboard: tuple[m.UnitCount, ...] = ()
        for coast in v.pick([p for p in v.neighbours(zone) if p in troops], 1):
            kind = v.pick(troops[coast])[0]
            aboard = units(**{kind: v.rng.randint(1, min(2, troops[coast][kind]) + int(v.rng.random() < 0.2))})
            steps.append(m.TaskForceMission(name, "load", units=aboard, origin=coast))
        if v.rng.random() < 0.2:  # from someone else's coast, or ships from its own
            foreign = [p for p in v.neighbours(zone) if not v.sea(p) and v.hostile(p)]
            own = [p for p in v.neighbours(zone) if not v.sea(p) and not v.hostile(p)]
            for coast in v.pick(foreign, 1) if v.rng.random() < 0.5 else v.pick(own, 1):
                cargo = units(infantry=1) if coast in foreign else units(cruiser=1)
                steps.append(m.TaskForceMission(name, "load", units=cargo, origin=coast))
        there = v.pick([p for p in v.neighbours(zone) if v.sea(p)] or [zone])[0] if v.rng.random() < 0.5 else zone
        if there != zone:
            task = "transport" if v.rng.random() < 0.8 else v.pick(MISSIONS)[0]
            steps.append(m.TaskForceMission(name, task, there))
        landing = [p for p in v.neighbours(there) if not v.sea(p)]
        for dest in v.pick(landing, 2):
            extra = units(**{v.pick(("infantry", "artillery", "tank"))[0]: 1}) if v.rng.random() < 0.3 else ()
            steps.append(m.NavalInvasion(aboard + extra or units(infantry=1), there, dest))
        out.append(Chain(tuple(steps)))
    for zone in v.pick(v.seas(), 1):
        out.append(m.NavalInvasion(units(infantry=1), zone, v.pick(v.neighbours(zone))[0]))
    return out


def submarine_hunts(v: View) -> list[Proposal]:
    """DETECT SUBS (4.2.9) with the ships in a zone, with aircraft flown from land or from
    too far, with ships that cannot detect; aircraft that do not say where they fly
    from, ships that say so, a hunt on land; INTERCEPT (4.2.10) with the submarines in a
    zone, more than there are, on land."""
    out: list[Proposal] = []
    ships = v.stacks(SEA_UNITS)
    for zone in v.pick(ships, 2):
        out.append(m.SubDetection(zone, some(v, ships[zone])))
        out.append(m.SubDetection(zone, some(v, ships[zone]), v.pick(v.neighbours(zone))[0]))
    out += [m.SubDetection(p, units(fighter=1)) for p in v.pick(v.seas(), 1) + v.pick(v.lands(), 1)]
    air = v.stacks(AIR_UNITS)
    for place in v.pick(air, 2):
        for zone in v.pick([p for p in v.within(place, 3) if v.world.territories[p].is_sea], 2):
            out.append(m.SubDetection(zone, some(v, air[place]), place))
    subs = v.stacks(("submarine",))
    for zone in v.pick(subs, 2):
        target = v.pick(("any", "transport", "escort", "bombard"))[0]
        out.append(m.SubInterception(v.rng.randint(1, subs[zone]["submarine"] + 1), zone, target))
    out += [m.SubInterception(1, p) for p in v.pick(v.lands(), 1)]
    return out


def artillery_support(v: View) -> list[Proposal]:
    """SUPPORT (Artillery): from stacks with artillery to neighbouring land (friendly,
    attacked, empty), to the sea, to land two steps away, with more than there are."""
    out: list[Proposal] = []
    guns = {p: c for p, c in v.stacks(("artillery",)).items() if v.world.territories[p].is_land}
    for place in v.pick(guns, 3):
        have = guns[place]["artillery"]
        for dest in v.pick(v.neighbours(place), 2) + v.pick(v.within(place, 2), 1):
            out.append(m.ArtillerySupport(v.rng.randint(1, have + 1), place, dest))
    return out


def breakthroughs(v: View) -> list[Proposal]:
    """BREAKTHROUGH (Tanks, 4th advance): tanks attacking a neighbour and going on to the
    next land, the same without the attack, into the sea, with more tanks than attack."""
    out: list[Proposal] = []
    tanks = {p: c for p, c in v.stacks(("tank",)).items() if v.world.territories[p].is_land}
    for place in v.pick(tanks, 2):
        have = tanks[place]["tank"]
        for first in v.pick([d for d in v.neighbours(place) if v.hostile(d)], 1):
            for second in v.pick([d for d in v.neighbours(first) if d != place], 2):
                out.append(Chain((m.Attack(units(tank=have), place, first), m.Breakthrough(have, first, second))))
            out.append(m.Breakthrough(have + 1, first, v.pick(v.neighbours(first))[0]))
    out += [m.Breakthrough(1, p, d) for p in v.pick(v.lands(), 1) for d in v.pick(v.neighbours(p), 1)]
    return out


def air_choices(v: View) -> list[Proposal]:
    """LET THROUGH and BREAK OFF AIR COMBAT (4.5): fighters letting attackers go where they
    stand and where there are none, at sea; aircraft attacking a hostile neighbour with a
    condition to leave its air combat, the same twice, and a condition with no attack."""
    out: list[Proposal] = []
    fighters = v.stacks(("fighter",))
    out += [m.LetPass(p) for p in v.pick(fighters, 2) + v.pick(v.lands(), 1) + v.pick(v.seas(), 1)]
    targets = [(p, d) for p in fighters for d in v.neighbours(p) if v.hostile(d)]
    for place, dest in v.pick(targets, 1):  # fighters only: the bombers stay free for the raids' generator
        kind = v.pick(("rounds", "losses", "kills"))[0]
        out.append(Chain((m.Attack(some(v, fighters[place]), place, dest), m.AirRetreat(dest, kind, 1))))
        out.append(m.AirRetreat(dest, kind, 2))
    out += [m.AirRetreat(p, "rounds", 1) for p in v.pick(v.lands(), 1)]
    return out


def defences(v: View) -> list[Proposal]:
    """DEFEND WITH INDUSTRY|PORT|AA (Industrial complexes, Ports): where the nation holds
    a complex or port, where it does not, land it does not hold."""
    places = v.pick(v.held(), 3) + v.pick(v.lands(), 1)
    return [m.DefendWith(k, p) for p in places for k in v.pick(("industry", "port", "aa"), 2)]


# ---- the moderator's rulings (step R) ----------------------------------------------------


def rulings(v: View) -> list[Proposal]:
    """The moderator's rulings (orders of MODERATOR): every kind, fitting the position and
    not (points beyond -10..10, a technology level it does not have, units that are not
    there, a war with itself, a roll below 0). A player who writes any is refused (one of
    each kind)."""
    batch = ruling_batch(v)
    if v.nation != MODERATOR:
        return list({type(o): o for o in batch}.values())
    return batch


def ruling_batch(v: View) -> list[Proposal]:
    nid = v.pick([n for n in NATIONS if n in v.state.nations])[0]
    other = v.pick(v.nations())[0]
    mine = [u for u in v.state.units if u.nation == nid]
    here = v.sample(mine, 3)
    n = v.rng.randint(1, 3)
    apart = [t for _, g in treasuries.separated(Position(v.state, {}, v.world, v.game.scenario), nid) for t in g]
    out: list[Proposal] = [
        r.SetValue("saved", nid, v.rng.randint(0, 60)), r.SetValue("saved", other, -v.rng.randint(1, 9), relative=True),
        r.SetValue("standing", other, v.rng.choice((-11, -3, 4, 10, 12))),
        r.SetValue("manpower_limit", nid, v.rng.randint(0, 40)),
        r.SetHeld(nid, v.pick(apart or ["Berlin"])[0], v.rng.randint(-3, 20), v.rng.random() < 0.5),  # 3.1
        r.SetHeld(nid, v.pick(v.lands())[0], v.rng.randint(0, 9)),  # most often the mainland's or not held
        r.SetTech(v.pick(TECHNOLOGIES)[0], nid, v.rng.randint(0, 5)), r.SetFlag("drift", other, v.rng.randint(0, 9)),
        r.SetSide(other, v.pick(("neutral", *SIDES))[0]),
        r.SetIncome(other, ("half", "full", "rules", "fixed:20", "percent:60")[len(other) % 5]),  # draws no die
        r.ChangeUnits("add", units(infantry=n), nid, v.pick(v.lands())[0]),
        r.ChangeUnits("add", units(cruiser=1), nid, v.pick(v.lands())[0]),
        r.SetControl(v.pick(v.lands())[0], other, v.rng.random() < 0.5, v.rng.choice((None, 0, v.state.turn + 1))),
        r.SetControl(v.pick(v.seas())[0], other),
        r.SetWar(nid, other, v.rng.random() < 0.6), r.SetWar(nid, nid),
        r.HandRoll("drift roll", v.rng.randint(-1, 10)),
    ]
    for u in here:
        action = v.pick(("remove", "damage", "repair"))[0]
        out.append(r.ChangeUnits(action, units(**{u.kind: v.rng.randint(1, 2)}), nid, u.location))
        out.append(r.MoveUnits(units(**{u.kind: 1}), nid, u.location, v.pick(v.neighbours(u.location))[0]))
    for u in v.sample(mine, 1):
        out.append(r.RemoveAll(v.rng.choice((None, u.kind)), nid, u.location))
    out.append(r.RemoveAll(None, nid, v.pick(v.seas())[0]))
    return out


GENERATORS: dict[str, Callable[[View], Sequence[Proposal]]] = {
    # Phase 4 on land, builds, incorporation, gifts, war, the deployment turn
    "move": moves, "air": air_moves, "terrain": terrain_moves, "strategic": strategic_moves,
    "build": builds, "incorporate": incorporations, "gift": gifts, "declare": declarations,
    "deploy": deploys, "condition": conditions, "casualties": casualty_orders, "note": notes,
    # Phase 1
    "influence": influences, "coax": coaxing, "surrender": surrenders, "passage": passages,
    "subs": submarine_warfare, "blockade": blockades, "option": special_options, "gear-up": gear_ups,
    "join": joins, "peace": peace, "exile": exiles,
    # Phases 2, 3, 5, 8
    "research": researches, "upgrade": upgrades, "trench": trenches, "gear": ship_gear,
    "espionage": espionage, "recon": recon, "repair": repairs, "plunder": plunders, "transfer": transfers,
    # Phase 4 at sea and in the air
    "bombing": bombings, "rocket": rocket_fire, "rebase": rebases, "task-force": task_forces,
    "invasion": naval_invasions, "sub-hunt": submarine_hunts, "support": artillery_support,
    "defend": defences, "breakthrough": breakthroughs, "air-choice": air_choices,
    # the moderator's rulings (a player's are refused)
    "ruling": rulings,
}
MODERATOR_GENERATORS = ("ruling",)  # what the pseudo-nation MODERATOR writes


def propose(game: Game, nation: str, seed: str, per_type: int | None = None) -> list[m.Order]:
    """One nation's batch: every generator's orders (at most `per_type` proposals of each),
    shuffled (a Chain stays together, in its order), each with the span of its normalized
    text (what the reports quote). The moderator writes rulings only."""
    rng = random.Random(f"drift/{game.name}/{seed}")
    view = View(game, nation, rng)
    proposals: list[Proposal] = []
    for name in sorted(MODERATOR_GENERATORS if nation == MODERATOR else GENERATORS):
        made = list(GENERATORS[name](view))
        proposals += made if per_type is None else rng.sample(made, min(per_type, len(made)))
    rng.shuffle(proposals)
    batch = [o for p in proposals for o in (p.orders if isinstance(p, Chain) else (p,))]
    return [dataclasses.replace(o, span=m.Span(i + 1, 1, text_of(o))) for i, o in enumerate(batch)]


def text_of(order: m.Order) -> str:
    return r.normalize_ruling(order) if isinstance(order, r.Ruling) else normalize_order(order)


# ---- the comparison ----------------------------------------------------------------------


def fingerprint(pos: Position) -> int:
    """Everything an order's rule could change: the state and the turn's bookkeeping."""
    s = pos.state
    parts: tuple[Any, ...] = (
        s.turn, s.next_unit, tuple((u.id, u.nation, u.kind, u.location, u.damage) for u in s.units),
        tuple(sorted(s.control.items())), tuple(sorted(s.incorporated.items())),
        tuple(repr(s.nations[n]) for n in sorted(s.nations)),
        repr(pos.builds), repr(pos.rail), tuple(sorted(pos.in_transit)), tuple(sorted(pos.moved)),
        tuple(sorted(pos.rail_used.items())), tuple(sorted(pos.done)), tuple(sorted(pos.tally.items())),
        tuple(sorted(pos.assumed.items())), tuple(sorted(pos.claimed.items())),
        len(pos.events) if isinstance(pos, TurnContext) else 0,
    )
    return hash(parts)


@dataclass(frozen=True)
class Battle:
    """A battle the engine fought: when in the turn (the step, then after which orders),
    where, and what came of it."""

    when: tuple[int, int]
    place: str
    captured: bool
    defenders_lost: bool  # some defenders fell (the checker's copy still has them all)


@dataclass
class Watch:
    """What the wrapped rules saw during one run."""

    impure: list[str] = field(default_factory=list)  # problem()/remarks() that changed the position
    assumed: dict[int, set[str]] = field(default_factory=dict)  # order index -> ctx.assumed keys when judged
    paid: dict[int, int] = field(default_factory=dict)  # order index -> what commit()/execute() took
    battles: list[Battle] = field(default_factory=list)  # the engine's battles
    ctx: TurnContext | None = None  # the last context an order was committed on


class Watched(OrderRule[Any]):
    """An order's home, wrapped: read-only calls are fingerprinted, judgements recorded."""

    def __init__(self, inner: OrderRule[Any], watch: Watch) -> None:
        self.inner, self.watch = inner, watch
        self.order = inner.order  # type: ignore[misc]
        self.section = inner.section  # type: ignore[misc]

    def _read_only(self, what: str, call: Callable[[], Any], pos: Position, order: m.Order) -> Any:
        before = fingerprint(pos)
        out = call()
        if fingerprint(pos) != before:
            self.watch.impure.append(f"{type(self.inner).__name__}.{what} changed the position: {order.span.text}")
        return out

    def problem(self, pos: Position, nation: str, order: Any) -> Problem | None:
        for i, o in enumerate(pos.orders.get(nation, ())):
            if o is order:
                self.watch.assumed[i] = set(pos.assumed)
        return self._read_only("problem", lambda: self.inner.problem(pos, nation, order), pos, order)  # type: ignore[no-any-return]

    def remarks(self, pos: Position, nation: str, order: Any) -> list[Problem]:
        return self._read_only("remarks", lambda: self.inner.remarks(pos, nation, order), pos, order)  # type: ignore[no-any-return]

    def commit(self, ctx: TurnContext, nation: str, index: int, order: Any) -> None:
        self.watch.ctx = ctx
        before = ctx.saved(nation)
        self.inner.commit(ctx, nation, index, order)
        self.watch.paid[index] = before - ctx.saved(nation)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Any) -> None:
        before = ctx.saved(nation)
        self.inner.execute(ctx, nation, index, order)
        self.watch.paid[index] = before - ctx.saved(nation)

    def assume(self, ctx: TurnContext, nation: str, index: int, order: Any) -> None:
        self.inner.assume(ctx, nation, index, order)


def watched(ruleset: Ruleset, watch: Watch) -> Ruleset:
    return dataclasses.replace(ruleset, rules=tuple(Watched(r, watch) for r in ruleset.rules))


@dataclass
class Comparison:
    """One batch judged by both: the verdicts, the engine's events, and every drift."""

    game: Game
    nation: str
    orders: list[m.Order]
    verdicts: list[Verdict]
    state: GameState  # the engine's result
    events: list[Event]
    drifts: list[str]
    projected: int | None  # the checker's treasury for the nation after the whole table
    excused: list[str]  # kept/refused differences explained by dice (see DICE)
    treasuries: dict[str, int] = field(default_factory=dict)  # the checker's, of every nation

    def refusals(self, index: int) -> list[Event]:
        return [e for e in self.events if e.code == "order-refused" and e.args["nation"] == self.nation
                and e.args["order"] == index]

    def mine(self, code: str) -> list[Event]:
        return [e for e in self.events if e.code == code and (not e.seen_by or self.nation in e.seen_by)]


def conditional(v: Verdict) -> bool:
    return any(p.code.startswith("if-") for p in v.problems)


def places_of(order: m.Order) -> set[str]:
    return {getattr(order, f.name) for f in dataclasses.fields(order)
            if f.metadata.get("ref") == "place" and getattr(order, f.name) is not None}


def units_of(order: m.Order) -> set[tuple[str, str]]:
    origin = getattr(order, "origin", None)
    return {(origin, u.kind) for u in getattr(order, "units", ())} if origin else set()


def flight(order: m.Order) -> bool:
    return isinstance(order, m.Move) and any(u.kind in AIR_UNITS for u in order.units)


def meets(order: m.Order, places: set[str]) -> set[str]:
    """The places an order's verdict may rest on: those it names, and for aircraft every
    one (where they may land)."""
    return places if flight(order) else places & places_of(order)


# Verdicts that read the treasury at that point of the turn (an order the dice denied may
# have been paid only in the checker).
TREASURY_CODES = frozenset({"over-budget", "transfer-too-much"})


@dataclass
class Taint:
    """What an order whose verdicts differ by luck has touched: later orders that meet
    these resources may differ in consequence (see DICE)."""

    places: set[str] = field(default_factory=set)
    units: set[tuple[str, str]] = field(default_factory=set)
    money: bool = False

    def add(self, order: m.Order, paid: bool) -> None:
        self.places |= places_of(order)
        self.units |= units_of(order)
        self.money |= paid

    def touched(self, order: m.Order, codes: Iterable[str]) -> list[str]:
        out = []
        if self.places & places_of(order) or (flight(order) and self.places):
            out.append(f"places {sorted(self.places & places_of(order)) or sorted(self.places)}")
        if self.units & units_of(order):
            out.append(f"units {sorted(self.units & units_of(order))}")
        if self.money and TREASURY_CODES & set(codes):
            out.append("the treasury")
        return out


def compare(game: Game, nation: str, orders: Sequence[m.Order], seed: str = "drift",
            ruleset: Ruleset | None = None) -> Comparison:
    rs = ruleset or default_ruleset()
    checking, engine = Watch(), Watch()
    verdicts = check_orders(orders, nation, game.state, game.world, game.scenario, watched(rs, checking))
    scratch = checking.ctx.state.nations if checking.ctx is not None else {}
    projected = scratch[nation].saved if nation in scratch else None  # the moderator has none
    dice = Dice(f"drift/{game.name}/{seed}", game.state.turn)
    after, events = resolve(game.state, {nation: list(orders)}, game.world, game.scenario, dice, watched(rs, engine))
    drifts = [f"checker: {x}" for x in checking.impure] + [f"engine: {x}" for x in engine.impure]
    cmp = Comparison(game, nation, list(orders), verdicts, after, events, drifts, projected, [],
                     {n: ns.saved for n, ns in scratch.items()})
    table = rs.table(game.state.turn)

    def when(i: int) -> tuple[int, int]:  # resolution order: the step, then as written
        step = rs.step_of(table, orders[i])
        return (table.index(step) if step is not None else -1, i)

    # Land battles are fought by step 4.4's own work, after every order of the step is in
    # (phase4_land: the moves are resolved together).
    land = next((k for k, s in enumerate(table) if s.section == "4.4"), -1)
    for e in events:
        if e.code == "battle" and not e.args.get("clash"):
            hurt = any(e.args["losses"].get(d) for d in e.args["defenders"])
            engine.battles.append(Battle((land, len(orders)), e.args["territory"], e.args["captured"], hurt))
        elif e.code == "rocket-fire" and e.args["losses"]:  # rockets kill defenders too (rocket_fire)
            engine.battles.append(Battle(when(e.args["order"]), e.args["target"], False, True))
        elif e.code == "attack-called-off":  # the recon record (dice) said no: no capture
            engine.battles.append(Battle((land, len(orders)), e.args["place"], False, False))
    for i, o in enumerate(orders):  # troops sunk at sea (4.3): the landing the checker assumed did not happen
        if isinstance(o, m.NavalInvasion) and any(e.code == "units-missing" and e.args["order"] == i for e in events):
            engine.battles.append(Battle(when(i), o.dest, False, False))

    def battled(i: int) -> list[str]:
        """Battles anywhere before order i whose outcome the checker's copy does not show."""
        assumed = checking.assumed.get(i, set())
        return sorted({b.place for b in engine.battles if b.when < when(i) and not b.captured
                       and (f"control:{b.place}" in assumed or b.defenders_lost)})

    def unforeseen(i: int) -> list[str]:
        """Those of the battles before order i the order meets (case 2)."""
        return sorted(meets(orders[i], set(battled(i))))

    # The neutrals' tables move the US Entry by dice the checker does not draw (a
    # declaration of war on a neutral, a joining: engine/reactions.py), and US trade flows
    # in Phase 8 only while it is not negative: what the receivers spend after it may
    # differ by luck, and so may their treasuries (case 5 of DICE).
    us = scratch.get("usa")
    us_moved = us is not None and "usa" in after.nations and (us.standing < 0) != (after.nations["usa"].standing < 0)
    # The sign that matters is the one at Phase 8 income: Phase 9's economic roll may bring
    # the US Entry back to where the checker projects it by the end of the turn.
    at_income = [e.args["standing"] for e in events if e.code == "points" and e.args.get("nation") == "usa"
                 and "standing" in e.args and e.phase < "8"]
    us_moved |= us is not None and bool(at_income) and (us.standing < 0) != (at_income[-1] < 0)
    us_luck = us_moved and nation in game.scenario.diplomacy.us_trade
    income = next((k for k, s in enumerate(table) if s.section == "8"), len(table))
    # The checker takes every research for a success (research.assume): an UPGRADE to the
    # level is charged there, and nothing is charged when the engine's roll fails; so an
    # order the checker found over budget may be paid in the engine (case 4 of DICE).
    failed_research = any(e.code == "research-failed" for e in events)
    # A special option's roll may begin or end a war or bring a neutral in (the US Congress
    # vote, Japan answering a Chinese option, the peace with Serbia: engine/option_effects.py),
    # which changes the income of the nations in it (a minor at war collects in full) and the
    # verdicts of later orders naming them (PEACE, COUNTERESPIONAGE ARMY): by luck (case 6).
    rolled_wars = {n for e in events if e.code in ("war-declared", "peace-made", "joined") and e.phase == "1.5"
                   for n in e.args.get("nations", [e.args.get("nation"), e.args.get("target")]) if n}
    options = next((k for k, s in enumerate(table) if s.section == "1.5"), -1)

    def names_rolled(order: m.Order) -> list[str]:
        named = {getattr(order, f, None) for f in ("target", "nation", "against", "to")}
        return sorted(n for n in named if isinstance(n, str) and n in rolled_wars)

    # A TRANSFER's ends share one treasury when land of the nation or its allies joins them
    # (engine/treasuries.py, sea_lanes.friendly_land): a camp the neutrals' points or a JOIN
    # decided by the engine's dice changes which land is allied, so whether the money is
    # the mainland's or a separated treasury's is luck (case 9).
    def camp(n: Any) -> tuple[Any, ...]:
        return (n.side, tuple(sorted(n.at_war_with)))
    camps_moved = sorted(nid for nid, ns in scratch.items() if nid in after.nations and camp(ns) != camp(after.nations[nid]))

    taint = Taint()
    for i in sorted(range(len(orders)), key=when):
        v, order = verdicts[i], orders[i]
        refused = [e.args["reason"] for e in cmp.refusals(i)]
        code = v.problems[0].code if v.problems and not v.kept else ""
        if (v.kept and not refused) or (not v.kept and refused == [code]):
            if v.kept and conditional(v) and checking.paid.get(i) != engine.paid.get(i):
                taint.add(order, True)  # kept by both, charged as the dice left it (case 4)
            continue
        checker_says = f"kept ({_codes(v.problems)})" if v.kept else f"refused ({code})"
        said = f"#{i} {order.span.text or type(order).__name__}: {checker_says}, engine: {refused or 'carried out'}"
        luck = unforeseen(i)
        richer = failed_research and not v.kept and code in TREASURY_CODES
        why = (["its if- note"] if v.kept and conditional(v) else []) + (
            [f"the battles at {luck}"] if luck else []) + (
            ["a failed research left its upgrade unpaid"] if richer else []) + taint.touched(order, [code, *refused]) + (
            ["the US Entry the neutrals' tables moved"] if us_luck and when(i)[0] > income else []) + (
            [f"an option's roll changed the wars of {names_rolled(order)}"]
            if names_rolled(order) and when(i)[0] >= options else [])
        if not why and isinstance(order, m.Transfer):  # case 9, only where no other case explains it
            why = ([f"the engine's dice moved the camps of {camps_moved}, which decide the land joining its ends"]
                   if camps_moved else []) + (
                [f"the battles at {battled(i)}, which decide the land joining its ends"] if battled(i) else [])
        if why:
            cmp.excused.append(f"{said} (by luck: {', '.join(why)})")
        else:
            drifts.append(said)
        taint.add(order, bool(checking.paid.get(i) or engine.paid.get(i)))
    # Treasuries are compared when every order went as the checker assumed; otherwise a
    # kept order the dice denied (an incorporation after a failed attack) was paid only
    # there. Every nation's: money an order hands on (COAX: "Italy gets to keep the 20")
    # and the moderator's rulings change others' treasuries; but a defender that held on
    # where the checker assumed a capture keeps that land's income.
    assumed = {k.partition(":")[2] for k in (checking.ctx.assumed if checking.ctx else {}) if k.startswith("control:")}
    held_on = any(not b.captured and b.place in assumed for b in engine.battles)
    raided = {e.args["holder"] for e in events if e.code == "air-raid" and e.args["aim"] == "industry"
              and e.args["damage"]}  # 1D10 a bomber (4.1.1): the checker cannot know the roll
    raided |= {e.args["target"] for e in events if e.code == "unrestricted-submarine-warfare" and e.args["damage"]}
    # 1-5 a submarine (4.7) from a transfer or the US trade: the checker rolls no dice.
    raided |= {e.args["nation"] for e in events if e.code in ("transfer-by-sea", "us-trade-sunk") and e.args["sunk"]}
    # The checker draws no dice for the neutrals' points (engine/reactions.py, points.py:
    # they never decide an order's legality), so a neutral the dice moved to a camp, into
    # or out of a war may collect differently in the engine: its treasury is luck (case 7).
    def state(n: Any) -> tuple[Any, ...]:
        return (n.side, tuple(sorted(n.at_war_with)), n.standing, n.income_rule)
    swayed = {nid for nid, ns in scratch.items()
              if nid in after.nations and nid != nation and state(ns) != state(after.nations[nid])}
    raided |= swayed
    # Rockets at a complex take a D10-driven sum of its holder's treasury (rocket_fire).
    held_on |= any(e.code == "rocket-fire" and e.args["resources"] for e in events)
    if not drifts and not cmp.excused and not failed_research:
        for nid, money in sorted(cmp.treasuries.items()):
            if (held_on and nid != nation) or (us_moved and nid in game.scenario.diplomacy.us_trade) or (
                    nid in rolled_wars) or nid in raided:
                continue
            left = after.nations[nid].saved
            if money != left:
                whose = "treasury" if nid == nation else f"treasury of {nid}"
                drifts.append(f"{whose}: the checker projects {money}, the engine leaves {left}")
    return cmp


def _codes(problems: Iterable[Problem]) -> str:
    return ", ".join(p.code for p in problems) or "no remarks"
