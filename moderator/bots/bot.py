"""A bot that plays one seat: sensible more than random, deterministic from a seed.

Its turn is a table of plays (PLAYS), run in order of priority; each reads the position
from its nation's side (options.Seat), picks among the legal options of one or a few
order types (options.options: what the order's home allows) and adds orders to the
draft, keeping track of the units it has given orders and of its budget (each order at
its home's price, bots/prices.py):

* defend    - threatened borders: a trench facing the strongest enemy neighbour, and
              reinforcements from quiet neighbours (on foot) and from far (by rail);
* attack    - enemy land next door where the engine's own odds (engine/odds.py, what
              `moderator odds` prints) give the attack a good chance, with a withdrawal
              condition, a breakthrough of its tanks with the 4th tank advance, and the
              incorporation of what it takes;
* fire      - rockets and bombers strike (a raid breaks off its air combat once half its
              aircraft are down), now and then a reconnaissance mission;
* carriers  - (bots/naval.py) with Aircraft Carriers: a carrier built, fighters built
              onto it, the group sailing to enemy coast, its fighters joining the attacks
              on the coast of their zone or raiding a weakly held one;
* let pass  - fighters outnumbered three to one by the enemy's aircraft let them through;
* declare   - war on the other camp's members once on a side; now and then, war on a
              weak neutral neighbour leaning to the other side, with the attack that follows;
* money     - incorporate held land, research (bots/research.py: the technologies its
              plays use, besides one drawn at random), influence neutrals, spy, give to allies,
              special options now and then; then builds with what is left (infantry
              where the threat is, artillery, tanks and fighters when it has them);
* statecraft, support, fortify (bots/statecraft.py) - joining a side, gearing up,
              coaxing, peace, surrender and its votes, exile, blockades, passages,
              submarine warfare, notes; artillery support, complexes and ports defending,
              plunder, transfers; home trenches, gear (AA, radar, sonar); hunt: submarines
              intercepting, warships detecting submarines;
* blockade  - (bots/naval.py) a blockade of each enemy where its ships are in the enemy's
              zones (1.4), which stay there; else a task force sails toward them (going
              back if contact is lost, unless a battleship leads it);
* navy      - now and then, a task force on patrol;
* radar     - (bots/naval.py) with Radar, a radar aboard a battleship or carrier (before
              the money is spent); ships with a radar aboard within the enemy's
              aircraft's reach retreat when it warns of a strike;
* shuffle   - idle troops of quiet places toward the front;
* deploy    - at turn 0 of a game with a deployment turn, the only play (DEPLOYMENT): the
              units still to place, at the threatened borders and beside its fleet.

The draft is checked by the order checker on the whole batch (as a careful player runs
`moderator check`): what it refuses is dropped before anything is written, and counted
in `Turn.dropped`. The plays write legal orders: they pay each order's price from its
home (bots/prices.py) out of the treasury that pays for it, give each unit one order, and
plan for their own other orders (the rails their earlier strategic moves use, the
surrender they accept, the side they join). So the only drops expected are those named,
with their reason, in EXPECTED_DROPS (a build trimmed to the money or room the checker
finds); any other is a bug of the bot or of the checker (`whose_drop` says which), in
`Turn.bugs`, and the simulation fails on it. What is written is TEXT in the players'
language (the orders' echo), so the service parses and checks it again: any order
refused THERE is a bug, in the bot's text or in the parser or the checker, and the
simulation reports it as such.

PLAYS is a table: a new order kind is a proposer in options.OPTIONS and, if the bot
should use it, a play here.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from moderator.bots import history, naval, research, specials, statecraft
from moderator.bots.options import FIGHTING, Seat, options, units
from moderator.bots.prices import price
from moderator.engine import bolsheviks, manpower, placement, terrain, treasuries
from moderator.engine.check import check_orders
from moderator.engine.combat_land import CAPTURERS
from moderator.engine.odds import odds_for
from moderator.engine.orders import incorporate, influence, repair, upgrade
from moderator.engine.orders.breakthrough import BREAKTHROUGH_LEVEL, TANK_TECH
from moderator.engine.orders.special_options import spec_for
from moderator.engine.state import SEA_UNITS, GameState
from moderator.orders import model as m
from moderator.orders.echo import nation_words, normalize_order
from moderator.world.model import World
from moderator.world.scenario_model import OptionRule, Scenario

GOOD_ODDS = 0.65  # an attack the bot makes: the attacker wins at least this often
SAFE_ODDS = 0.85  # the odds of an attack that opens a war on a neutral


@dataclass
class Draft:
    """The orders a bot is writing, with what they have used up."""

    seat: Seat
    rng: random.Random
    orders: list[m.Order] = field(default_factory=list)
    used: Counter[tuple[str, str]] = field(default_factory=Counter)  # (place, kind) -> units given orders
    budget: int = 0  # the mainland treasury not yet spent by the draft (bots/prices.py)
    targets: set[str] = field(default_factory=set)  # land attacked this turn
    task_forces: int = 0  # task forces formed so far (their names: TF1, TF2, ...)
    bold: bool = False  # the player's temper: buys infantry past the manpower limit (levy)
    apart: Counter[str] = field(default_factory=Counter)  # separated treasury (its key) -> builds paid from it

    def task_force(self) -> str:
        self.task_forces += 1
        return f"TF{self.task_forces}"

    def free(self, place: str) -> Counter[str]:
        stack = self.seat.stacks.get(place, Counter())
        return +Counter({k: n - self.used[(place, k)] for k, n in stack.items()})

    def take(self, order: m.Order, place: str | None = None, counts: tuple[m.UnitCount, ...] = (),
             cost: int = 0) -> None:
        self.orders.append(order)
        for uc in counts:
            self.used[(place or "", uc.kind)] += uc.count
        self.budget -= cost

    def fits(self, place: str, counts: tuple[m.UnitCount, ...]) -> bool:
        free = self.free(place)
        return all(free[uc.kind] >= uc.count for uc in counts)

    def can_pay(self, place: str, price: int) -> bool:
        """A build's price against the treasury that pays for it (Phase 3.1: "Resources can
        be spent only if that territory have enough resources there"; engine/treasuries.py):
        a separated group's own, less what the draft builds there already, else the budget."""
        s = self.seat
        key = treasuries.treasury_of(s.position, s.nation, place)
        if key is None:
            return self.budget >= price
        return treasuries.available(s.position, s.nation, place) - self.apart[key] >= price

    def pay(self, place: str, price: int) -> None:
        """A build paid from the treasury of its place (can_pay)."""
        s = self.seat
        key = treasuries.treasury_of(s.position, s.nation, place)
        if key is None:
            self.budget -= price
        else:
            self.apart[key] += price

    def rails_take(self, order: m.StrategicMove) -> bool:
        """The rails still take this strategic move after the draft's earlier ones (4.1.3:
        the units a territory passes a turn are limited by its value, and the nation's own
        moves share that capacity, in the order written): a move the options allow on the
        empty rails may find them full."""
        s = self.seat
        earlier = [o for o in self.orders if isinstance(o, m.StrategicMove)]
        if not earlier:
            return True
        verdicts = check_orders([*earlier, order], s.nation, s.state, s.world, s.scenario, whole_table=False)
        return verdicts[-1].kept


@dataclass
class Turn:
    """One bot's turn: the orders it wrote (text), and the drafts the checker refused."""

    nation: str
    text: str
    orders: list[m.Order]
    dropped: list[tuple[str, str]]  # (order text, the checker's problem code)
    bugs: list[str] = field(default_factory=list)  # drops not in EXPECTED_DROPS: "order: code (whose bug)"


# ---- the plays ---------------------------------------------------------------------------


def defend(d: Draft) -> None:
    s = d.seat
    threatened = sorted((p for p in s.own if s.land(p) and s.threat(p)), key=lambda p: (-s.threat(p), p))
    for place in threatened[:2]:  # a trench where the threat is greatest
        facing = max((nb for nb in s.neighbours(place) if s.land(nb) and s.enemy(nb)),
                     key=lambda nb: (sum(s.foes_at(nb).values()), nb), default=None)
        trench = m.BuildTrench(place, facing) if facing else None
        if trench is not None and d.budget >= price(s, trench, 5) and s.allowed(trench) \
                and not s.stacks.get(place, Counter())["trench"]:
            d.take(trench, cost=price(s, trench, 5))
            break
    for place in threatened[:4]:
        mine = sum(n for k, n in s.stacks.get(place, Counter()).items() if k in FIGHTING)
        if mine >= s.threat(place):
            continue
        needed = s.threat(place) - mine + 1
        for o in options(s, m.Move):
            assert isinstance(o, m.Move)
            if needed > 0 and o.dest == place and not s.threat(o.origin) and d.fits(o.origin, o.units):
                part = _part(o.units, needed)
                d.take(m.Move(part, o.origin, o.dest), o.origin, part)
                needed -= sum(u.count for u in part)
        for o in options(s, m.StrategicMove):
            assert isinstance(o, m.StrategicMove)
            if o.dest == place and d.fits(o.origin, o.units) and d.rails_take(o):
                d.take(o, o.origin, o.units)
                break
    for o in options(s, m.Rebase):  # aircraft to threatened land, where they defend (4.1.2)
        assert isinstance(o, m.Rebase)
        if o.dest in threatened[:2] and not s.threat(o.origin) and d.fits(o.origin, o.units):
            d.take(o, o.origin, o.units)


def _part(counts: tuple[m.UnitCount, ...], wanted: int) -> tuple[m.UnitCount, ...]:
    """At most `wanted` of these units, artillery and tanks first (they defend best)."""
    out = []
    for uc in sorted(counts, key=lambda u: (u.kind == "infantry", u.kind)):
        n = min(uc.count, wanted)
        if n > 0:
            out.append(m.UnitCount(uc.kind, n))
            wanted -= n
    return tuple(sorted(out, key=lambda u: u.kind))


def odds_of(s: Seat, attack: m.Attack) -> float:
    defenders = s.defenders_at(attack.dest)
    holder = s.state.controller(attack.dest) or ""
    if not defenders:
        return 1.0
    odds = odds_for(s.scenario, s.nation, {u.kind: u.count for u in attack.units}, holder, dict(defenders),
                    territory=attack.dest, city=s.world.territories[attack.dest].city,
                    strait=s.world.is_strait(attack.origin, attack.dest), world=s.world)
    return odds.attacker_wins


def attack(d: Draft) -> None:
    s = d.seat
    scored = []
    for o in options(s, m.Attack):
        assert isinstance(o, m.Attack)
        if o.dest in d.targets or not d.fits(o.origin, o.units):
            continue
        scored.append((odds_of(s, o), o))
    scored.sort(key=lambda x: (-x[0], x[1].origin, x[1].dest))
    for chance, o in scored:
        if chance < GOOD_ODDS or o.dest in d.targets or not d.fits(o.origin, o.units):
            continue
        _launch(d, o)


def _launch(d: Draft, o: m.Attack) -> None:
    d.take(o, o.origin, o.units)
    d.targets.add(o.dest)
    committed = sum(u.count for u in o.units)
    d.orders.append(m.CombatCondition(o.dest, "losses", max(committed // 2, 1)))
    breakthrough(d, o)
    incorporate_taken(d, o.dest)


def incorporate_taken(d: Draft, place: str) -> None:
    """INCORPORATE land an attack of this turn takes (Phase 6: "2 times the resource value
    of a territory"), if the money is there: Phase 6 pays after everything else of the
    turn, so an incorporation over the budget is the one the checker refuses. Not its own
    land, which comes back incorporated, nor an ally's, liberated for the ally (Phase 4.4),
    nor Russian land taken in the civil war, which "remains incorporated towards Russia in
    general" (Phase 9, engine/bolsheviks.py)."""
    s = d.seat
    owner = s.world.territories[place].owner
    if not s.world.territories[place].is_land or owner == s.nation or (owner and s.state.allies(s.nation, owner)):
        return
    if place in s.state.incorporated and bolsheviks.keeps_incorporation(owner, s.state.controller(place), s.nation):
        return
    cost = incorporate.cost(s.position, s.nation, place)
    if d.budget >= cost:
        d.take(m.Incorporate(place), cost=cost)


def breakthrough(d: Draft, o: m.Attack) -> None:
    """BREAKTHROUGH (Tanks, 4th advance: "the tank can go on to move into or attack a
    second territory after successfully capturing the first"): with that advance, the
    tanks of an attack go on into the most weakly held enemy land beyond, if the tanks
    alone outnumber what the bot sees there two to one."""
    s = d.seat
    tanks = sum(u.count for u in o.units if u.kind == "tank")
    if not tanks or s.state.nations[s.nation].tech.get(TANK_TECH, 0) < BREAKTHROUGH_LEVEL:
        return
    beyond = sorted((sum(s.defenders_at(p).values()), p) for p in s.neighbours(o.dest)
                    if s.land(p) and s.enemy(p) and p not in d.targets and p != o.origin
                    and terrain.may_enter(s.world, s.scenario, s.nation, "tank", p))
    if beyond and beyond[0][0] * 2 <= tanks:
        d.orders.append(m.Breakthrough(tanks, o.dest, beyond[0][1]))
        d.targets.add(beyond[0][1])


def fire(d: Draft) -> None:
    """Rockets and bombers strike: at the troops of land attacked this turn, else at an
    enemy city (manpower) or industry (its treasury); now and then a scout looks into
    enemy land next door (3.3), from a stack large enough to spare one unit."""
    s = d.seat
    strikes: list[tuple[m.RocketFire | m.Bombing, tuple[m.UnitCount, ...], int]] = []
    for o in options(s, m.RocketFire):
        assert isinstance(o, m.RocketFire)
        strikes.append((o, units({"rocket": o.count}), ("units", "city", "industry").index(o.aim)))
    for o in options(s, m.Bombing):
        assert isinstance(o, m.Bombing)
        strikes.append((o, o.units, ("tactical", "industry", "city").index(o.aim)))
    strikes.sort(key=lambda x: (type(x[0]).__name__, x[0].target not in d.targets, x[2], x[0].origin, x[0].target))
    for o, counts, _ in strikes:  # one strike from each place: the first of its ranking
        if d.fits(o.origin, counts):
            d.take(o, o.origin, counts)
            if isinstance(o, m.Bombing):
                break_off(d, o.target, counts)
    if d.rng.random() < 0.3:
        for o in options(s, m.Recon):
            assert isinstance(o, m.Recon)
            if o.target not in d.targets and d.fits(o.origin, o.units) and not s.threat(o.origin) > 3:
                d.take(o, o.origin, o.units, cost=1)
                break


def break_off(d: Draft, place: str, planes: tuple[m.UnitCount, ...]) -> None:
    """BREAK OFF AIR COMBAT AT <place> IF LOSSES EXCEED n (4.5 step 3: "The attacking
    player may now decide to retreat"): a raid turns home once half its aircraft are
    down in the air combat, rather than be shot out of the sky by the interceptors."""
    if any(isinstance(o, m.AirRetreat) and o.place == place for o in d.orders):
        return  # one condition of a kind per place (the checker's said_twice)
    d.orders.append(m.AirRetreat(place, "losses", max(sum(u.count for u in planes) // 2, 1)))


def let_pass(d: Draft) -> None:
    """LET THROUGH AT <place> (4.5: "the enemy fighters have the option of intercepting or
    letting them go"): a nation's few fighters where the enemy's aircraft within reach
    (two links) outnumber them three to one do not climb to die in the air combat; they
    still fight in the ground rounds if the land is attacked."""
    s = d.seat
    for o in options(s, m.LetPass):
        assert isinstance(o, m.LetPass)
        foes = sum(n for p in [o.place, *s.within(o.place, 2)] for k, n in s.foes_at(p).items()
                   if k in ("fighter", "bomber"))
        if foes >= 3 * s.stacks[o.place]["fighter"]:
            d.orders.append(o)


def invade(d: Draft) -> None:
    """Now and then, troops of a coast go aboard the nation's transports in the sea next
    to it and land on weakly held enemy coast of that sea (4.2.1 LOAD, 4.6.1)."""
    s = d.seat
    if d.rng.random() > 0.5:
        return
    per_ship = s.position.stats(s.nation, "transport")
    for zone in sorted(s.sea_stacks()):
        ships = d.free(zone)["transport"]
        if not ships or per_ship is None or not per_ship.capacity:
            continue
        coast = [p for p in s.neighbours(zone) if s.land(p)]
        for origin in (p for p in coast if s.friendly(p) and d.free(p)["infantry"] >= 3):
            for dest in (p for p in coast if s.enemy(p) and p not in d.targets):
                going = min(d.free(origin)["infantry"] - 1, ships * per_ship.capacity)
                if going < 2 or sum(s.defenders_at(dest).values()) * 3 > going:
                    continue
                name, troops = d.task_force(), units({"infantry": going})
                d.take(m.TaskForce(name, zone, units({"transport": ships})), zone, units({"transport": ships}))
                d.take(m.TaskForceMission(name, "load", units=troops, origin=origin), origin, troops)
                d.orders.append(m.NavalInvasion(troops, zone, dest))
                d.targets.add(dest)
                incorporate_taken(d, dest)
                return


def declare(d: Draft) -> None:
    """Now and then a nation at war opens a front on a weak neutral minor next door that
    leans to the other side (bots/history.py)."""
    s = d.seat
    main_war(d)
    if s.side == "neutral" or not s.enemies() or d.rng.random() > 0.1:
        return
    minors = {n for n, info in s.scenario.nations.items() if info.kind == "minor"}
    for o in options(s, m.DeclareWar):
        assert isinstance(o, m.DeclareWar)
        if o.target not in minors or history.lean(s.state, o.target) in (None, s.side):
            continue  # only a minor leaning to the other side (bots/history.py)
        for place in sorted(s.land_stacks()):
            for dest in s.neighbours(place):
                if s.state.controller(dest) != o.target or s.world.is_strait(place, dest):
                    continue
                free = Counter({k: n for k, n in d.free(place).items() if k in FIGHTING
                                and terrain.may_enter(s.world, s.scenario, s.nation, k, dest)})  # no guns up a mountain
                free["infantry"] -= 1  # one stays
                going = units(+free) if any(free[k] > 0 for k in CAPTURERS) else ()  # 4.4: who can take land
                if not going:
                    continue
                strike = m.Attack(going, place, dest)
                if odds_of(s, strike) >= SAFE_ODDS:
                    d.orders.insert(0, o)
                    _launch(d, strike)
                    return


def main_war(d: Draft) -> None:
    """A nation that has joined a camp goes to war with the other camp's members it is not
    yet at war with (1.1 DECLARE WAR): joining a side (JOIN, the British Empire's entry, a
    neutral attacked into the other camp) makes no war by itself (engine/wars.py join), and
    a player who joined the main war means to fight it: without this the British Empire,
    Japan and Italy joined the Allies and fought nobody for 26 turns."""
    s = d.seat
    other = {"allied": "central", "central": "allied"}.get(s.side)
    if other is None:
        return
    for target, ns in sorted(s.state.nations.items()):
        order = m.DeclareWar(target)
        if ns.side == other and not s.state.at_war(s.nation, target) and s.allowed(order):
            d.orders.insert(0, order)


def money(d: Draft) -> None:
    s = d.seat
    for o in options(s, m.Incorporate):
        assert isinstance(o, m.Incorporate)
        fee = incorporate.cost(s.position, s.nation, o.territory)
        if o.territory not in d.targets and fee <= d.budget // 2:
            d.take(o, cost=fee)
    for o in options(s, m.Repair):  # the ships under repair do nothing else (3.4); paid at once
        assert isinstance(o, m.Repair)
        ships, fee = units({o.kind: o.count}), repair.cost(o)
        if d.fits(o.place, ships) and d.budget >= fee:
            d.take(o, o.place, ships, cost=fee)
    levy(d)  # men before research and diplomacy, when the army needs them
    push_self(d)
    research.programme(d)
    paid: list[tuple[type[m.Order], float, int]] = [  # a rough price: whether the bot has money for it
        (m.Research, 0.7, 10), (m.Upgrade, 0.2, 15), (m.Influence, 0.6, 10), (m.Espionage, 0.25, 5),
        (m.CounterEspionage, 0.1, 1), (m.SpecialOption, 0.1, 15), (m.Gift, 0.15, s.saved // 10),
    ]
    for kind, chance, rough in paid:
        if d.budget < 3 * rough or d.rng.random() > chance or (kind is m.SpecialOption and joining(d)):
            continue
        choices = [o for o in leaning_choices(s, options(s, kind)) if o not in d.orders  # one try a technology
                   and not specials.deliberate(s, o) and not spies_on_joining(d, o)
                   and not upgrades_researched(d, o)]
        if choices:
            o = d.rng.choice(choices)
            cost = price(s, o, rough)
            if cost <= d.budget:
                d.take(o, cost=cost)
    build(d)


LEVY_CHANCE = 0.5  # a careful player's chance a turn to buy infantry at double cost where pressed
LEVY = 2  # infantry it buys then
BOLD = 0.35  # the share of players (seat by seat, from the seed) who go on raising men past the limit


def bold(seed: str, nation: str) -> bool:
    """The seat's temper, drawn once for the whole war from the seed: bold or careful."""
    return random.Random(f"bot/{seed}/{nation}/temper").random() < BOLD


def levy(d: Draft) -> None:
    """Infantry past the manpower limit (Manpower limits: infantry "cost twice as much as
    normal"), at the risk of a mutiny (Phase 9, Mutinies: "If a nation builds infantry
    units on a turn after its manpower limit has been expended, then there will be a 2 in
    10 chance of a mutiny happening"). `build` keeps within the limit, as a careful player
    does. With the limit of a place spent, a nation at war takes the risk for a couple more
    infantry there (LEVY, at double price, before it spends on research and diplomacy): a
    careful player one turn in two where more enemy troops threaten its own land than
    stand on it; a bold player (a third of the seats, `bold`) every turn, where its army
    needs men, most threatened place first, as many did in the war. Without this no
    nation ever mutinied in a 26-turn soak (docs/soak.md), and no socialist revolution
    gave the Bolsheviks the Mutineers to command (PROXY FOR)."""
    s = d.seat
    stats = s.position.stats(s.nation, "infantry")
    if stats is None or not s.enemies() or (not d.bold and d.rng.random() >= LEVY_CHANCE):
        return
    spent = sorted({o.place for o in options(s, m.Build) if isinstance(o, m.Build) and o.kind == "infantry"
                    and not manpower.normal_left(s.position, s.nation, o.place)})
    short = sorted(((s.threat(p) - sum(n for k, n in s.stacks.get(p, Counter()).items() if k in FIGHTING), p)
                    for p in spent), key=lambda x: (-x[0], x[1]))
    if not short or not (short[0][0] > 0 or d.bold):
        return
    place = short[0][1]
    room = placement.colony_room(s.position, s.nation, place, "infantry")  # a colony's builds a turn (rule 8)
    count = LEVY if room is None else min(LEVY, room)
    price = 2 * stats.cost * count
    if count and d.can_pay(place, price):
        d.pay(place, price)
        d.take(m.Build("infantry", count, place))


PUSH_SELF_BUDGET = 10  # the least a neutral keeps in hand to push itself (the cheapest push costs 10)


def push_self(d: Draft) -> None:
    """A neutral major's player works toward the side it wants (bots/history.py): most
    turns, INFLUENCE SELF or its option that moves its own standing (US option #4, the
    public opinion campaign) toward that side, when its home allows it.

    It pushes with as little as 10 in hand (the price of US option #4): a threshold of 30
    left the USA's campaign to six turns of a 26-turn soak, too few to hold its US Entry
    against the drift of the joins and the submarine warfare. A self-influence the engine
    refers to the moderator (referred_influence: Italy's "Italian influence", which the
    rules never define, unless the engine gives it a default) is never ordered: a bot
    cannot foresee a ruling, and Italy has its 0-3 a turn toward the side it leans to."""
    s = d.seat
    side = leaning(s) if s.side == "neutral" else None
    if side is None or joining(d) or d.budget < PUSH_SELF_BUDGET or d.rng.random() > 0.6:
        return
    mine: list[m.Influence | m.SpecialOption] = [
        o for o in options(s, m.Influence) if isinstance(o, m.Influence) and o.target == s.nation]
    mine += [o for o in options(s, m.SpecialOption) if isinstance(o, m.SpecialOption) and o.target is None]
    choices = [o for o in mine if getattr(o, "toward", None) == side and not referred_influence(s, o)]
    if choices and price(s, choices[0], 15) <= d.budget:
        d.take(choices[0], cost=price(s, choices[0], 15))


def joining(d: Draft) -> bool:
    """The draft JOINs a side this turn: the nation is a member when its options are read
    (Phase 1.1 before 1.5), so a neutral's option or self-influence written beside the JOIN
    would be refused (`no-options`) after its price was set aside."""
    return any(isinstance(o, m.JoinSide) for o in d.orders)


def upgrades_researched(d: Draft, o: m.Order) -> bool:
    """An UPGRADE (2.2) of a kind whose technology the draft researches this turn (2.1):
    the price then depends on the roll (the checker takes the success for granted and
    charges the new level's price, which the bot's budget did not), so it waits a turn."""
    if not isinstance(o, m.Upgrade):
        return False
    researched = {r.tech for r in d.orders if isinstance(r, m.Research)}
    return any(t.id in researched for t in upgrade.technologies(d.seat.position, o.kind))


def spies_on_joining(d: Draft, o: m.Order) -> bool:
    """Espionage on a neutral's status or leaning (3.2.1.1) by a nation that JOINs a side
    this turn: its join (Phase 1) takes its dominions with it and moves others (the
    Ottomans': Arabia, Persia, Bulgaria), so who is still neutral in Phase 3.2 is the
    turn's to say; the checker would refuse the attempt on one that joined."""
    return isinstance(o, m.Espionage) and o.kind in ("neutral", "affiliation") and joining(d)


def referred_influence(s: Seat, o: m.Order) -> bool:
    """An influence attempt (INFLUENCE, INFLUENCE SELF, or an option that is the same
    thing) its home refers to the moderator rather than rolls: Italy's own "Italian
    influence" while the engine refers it (its rule is undefined), and an attempt on
    Italy, which only the Austro-Hungarian option #2 case opens (engine/orders/influence.py
    `referred`). A bot cannot foresee the ruling, so it never writes them."""
    if isinstance(o, m.SpecialOption):
        spec = spec_for(s.position, s.nation, o)
        if not isinstance(spec, OptionRule) or spec.kind not in ("self-influence", "influence"):
            return False
        target = s.nation if spec.kind == "self-influence" else o.target
    elif isinstance(o, m.Influence):
        target = o.target
    else:
        return False
    return target is not None and influence.referred(s.position, s.nation, target)


def leaning(s: Seat) -> str | None:
    """The side a neutral seat leans to (bots/history.py: its standing, else its history)."""
    return history.lean(s.state, s.nation)


def leaning_choices(s: Seat, choices: list[m.Order]) -> list[m.Order]:
    """What a bot playing history picks from: a neutral pushes itself (INFLUENCE SELF, an
    option naming a side) only toward the side it leans to, none if it leans to neither;
    a nation at war influences the neutrals leaning its way or level, not those leaning
    to the other side (unless there are no others). None writes an influence the
    moderator would have to rule on (referred_influence)."""
    choices = [o for o in choices if not referred_influence(s, o)]
    if s.side == "neutral":
        side = leaning(s)
        return [o for o in choices if not isinstance(o, (m.Influence, m.SpecialOption))
                or o.toward is None or o.toward == side]
    ours = [o for o in choices if not isinstance(o, m.Influence)
            or history.lean(s.state, o.target) in (None, s.side)]
    return ours or choices


MIX = ("infantry", "infantry", "artillery", "infantry", "tank", "fighter", "infantry", "bomber", "rocket")
ARMOURED_MIX = ("tank", "infantry", "artillery", "infantry", "tank", "fighter", "infantry", "bomber", "rocket")


def build(d: Draft) -> None:
    """Builds with what is left: infantry first (where the threat is, and only within the
    manpower limit its place draws on: home or colonies), artillery, tanks, fighters;
    tanks first once the 4th tank advance gives them the breakthrough."""
    s = d.seat
    wanted: Counter[tuple[str, str]] = Counter()
    levied = {o.place for o in d.orders if isinstance(o, m.Build)}  # a colony's room a turn is the levy's (rule 8)
    cities = sorted((o for o in options(s, m.Build) if isinstance(o, m.Build) and not (
                     o.place in levied and placement.colony_room(s.position, s.nation, o.place, o.kind) is not None)),
                    key=lambda o: (-s.threat(o.place), o.place, o.kind))
    by_kind: dict[str, list[m.Build]] = {}
    for o in cities:
        by_kind.setdefault(o.kind, []).append(o)
    mix = MIX
    if s.state.nations[s.nation].tech.get(TANK_TECH, 0) >= BREAKTHROUGH_LEVEL:
        mix = ARMOURED_MIX  # with the breakthrough, tanks lead: they go on past what they take
    # Past a limit, infantry costs double (Manpower limits). A colony's builds count against
    # the colonies' limit, the rest against the home one (engine/manpower.py colonial), so
    # each place is judged by the limit it draws on.
    pool = {o.place: manpower.colonial(s.position, s.nation, o.place) for o in by_kind.get("infantry", [])}
    left = {here: manpower.normal_left(s.position, s.nation, place) for place, here in sorted(pool.items())}
    for round_ in range(12):
        kind = mix[round_ % len(mix)]
        choices = by_kind.get(kind, [])
        if kind == "infantry":
            choices = [o for o in choices if wanted_infantry(wanted, pool, pool[o.place]) < left[pool[o.place]]]
        stats = s.position.stats(s.nation, kind)
        if not choices or stats is None:
            continue
        place = choices[round_ // len(mix) % len(choices)].place
        where = placement.placement(s.position, s.nation, kind, place)
        price = stats.cost + (where.extra if isinstance(where, placement.Placement) else 0)  # the home's price
        room = where.room if isinstance(where, placement.Placement) else 0  # a colony's builds a turn (rule 8)
        here = sum(n for (_, p), n in wanted.items() if p == place)
        if not d.can_pay(place, price) or (room is not None and here >= room):
            continue
        wanted[(kind, place)] += 1
        d.pay(place, price)
    for (kind, place), n in sorted(wanted.items()):
        d.take(m.Build(kind, n, place))


def wanted_infantry(wanted: Counter[tuple[str, str]], pool: dict[str, bool], in_colonies: bool) -> int:
    """Infantry planned so far against one limit (the colonies' or the home one)."""
    return sum(n for (kind, place), n in wanted.items() if kind == "infantry" and pool[place] == in_colonies)


def navy(d: Draft) -> None:
    """Now and then the warships of a zone form a task force: it bombards enemy coast the
    nation attacks this turn (an undamaged battleship aboard), blockades enemy coast, or
    patrols (4.2.2, 4.2.5, 4.2.6)."""
    s = d.seat
    if d.rng.random() > 0.4:
        return
    for o in options(s, m.TaskForce)[:3]:
        assert isinstance(o, m.TaskForce)
        if not d.fits(o.location, o.units):
            continue
        name = d.task_force()
        d.take(m.TaskForce(name, o.location, o.units), o.location, o.units)
        coast = [p for p in s.neighbours(o.location) if s.land(p)]
        struck = [p for p in coast if p in d.targets]
        healthy = any(u.kind == "battleship" and not u.damage for u in s.state.units_at(o.location, s.nation))
        if struck and healthy:
            d.orders.append(m.TaskForceMission(name, "bombard", target=struck[0]))
        elif any(s.enemy(p) for p in coast):
            d.orders.append(m.TaskForceMission(name, "blockade"))
        else:
            d.orders.append(m.TaskForceMission(name, "patrol"))


def shuffle(d: Draft) -> None:
    """Idle troops of quiet places march toward the front (a few moves a turn)."""
    s = d.seat
    moved = 0
    for o in options(s, m.Move):
        assert isinstance(o, m.Move)
        if moved >= 4 or s.threat(o.origin) or not s.threat(o.dest) or not d.fits(o.origin, o.units):
            continue
        d.take(o, o.origin, o.units)
        moved += 1


def deploy(d: Draft) -> None:
    """Initial Deployment (turn 0): land units and aircraft spread over the three most
    threatened places of the nation's own land (its cities first where nothing threatens),
    ships to the sea next to its land where most of its ships already are and no enemy's."""
    s = d.seat
    places: dict[str, list[str]] = {}
    for o in options(s, m.Deploy):
        assert isinstance(o, m.Deploy)
        places.setdefault(o.units[0].kind, []).append(o.place)
    for kind, where in sorted(places.items()):
        count = next(o.units[0].count for o in options(s, m.Deploy) if isinstance(o, m.Deploy)
                     and o.units[0].kind == kind)
        if kind in SEA_UNITS:
            calm = [z for z in where if not s.foes_at(z)] or where
            best = [max(calm, key=lambda z: (sum(s.stacks.get(z, Counter()).values()), z))]
        else:
            best = sorted(where, key=lambda p: (-s.threat(p), not s.world.territories[p].city, p))[:3]
        for i, place in enumerate(best):
            n = count // len(best) + (1 if i < count % len(best) else 0)
            if n:
                d.take(m.Deploy(units({kind: n}), place))


def casualties(d: Draft) -> None:
    d.orders.extend(options(d.seat, m.CasualtyOrder)[:1])


Play = Callable[[Draft], None]

# Turn 0 of a game with a deployment turn is DEPLOY orders only (Initial Deployment).
DEPLOYMENT: tuple[tuple[str, Play], ...] = (("deploy", deploy),)

PLAYS: tuple[tuple[str, Play], ...] = (
    ("declare", declare), ("statecraft", statecraft.statecraft), ("specials", specials.specials),
    ("defend", defend), ("attack", attack),
    ("invade", invade), ("fire", fire), ("carriers", naval.carriers), ("let pass", let_pass),
    ("support", statecraft.support), ("fortify", statecraft.fortify), ("radar aboard", naval.radar_aboard),
    ("money", money),
    ("blockade", naval.blockade), ("hunt", statecraft.hunt), ("navy", navy), ("radar", naval.radar_watch),
    ("shuffle", shuffle), ("casualties", casualties),
)


# ---- the bot -------------------------------------------------------------------------------


def play(state: GameState, world: World, scenario: Scenario, nation: str, seed: str, *,
         header: dict[str, str] | None = None) -> Turn:
    """One turn of `nation`'s bot on this position: its orders, checked, as text."""
    seat = Seat(state, world, scenario, nation)
    rng = random.Random(f"bot/{seed}/{nation}/{state.turn}")
    draft = Draft(seat, rng, budget=seat.saved, bold=bold(seed, nation))
    for _, run in DEPLOYMENT if state.turn == 0 else PLAYS:
        run(draft)
    kept, refused = _check_draft(draft.orders, nation, state, world, scenario)
    words = nation_words(scenario)
    lines = [f"{k.upper()} {v}" for k, v in (header or {}).items()]
    lines += [normalize_order(o, words) for o in kept]
    bugs = [f"{normalize_order(o)}: {code} ({whose_drop(seat, o)})" for o, code in refused
            if not expected(o, code)]
    return Turn(nation, "\n".join(lines) + "\n", kept, [(normalize_order(o), code) for o, code in refused], bugs)


# The only drops a bot's draft may have, (order type, the checker's code) -> why. Every
# other order the checker refuses is a bug: the bot wrote an order it should have known to
# be illegal (a play that did not plan for its own other orders, a proposer offering what
# its home refuses), or the checker refuses a legal one. The simulation names each
# (Summary.drop_bugs) and fails. Prices are exact (bots/prices.py), so a paid order over
# the budget is a bug too; a build is not, for a reason the bot does not model:
ROOM = ("a colony builds so many units a turn (rule 8), and the checker counts against that room what "
        "the draft's other orders take from it (radar or sonar fitted on a ship beside the colony's port, "
        "a levy there), and against a separated treasury what they spend from it, which the bot's builds "
        "do not foresee: the checker trims the build to what can be placed and paid, as a "
        "player trims his orders after `moderator check`, rather than leave the cut to the resolution's "
        "default and a flag in the moderator's queue (Phase 3.1)")
EXPECTED_DROPS: dict[tuple[str, str], str] = {
    ("Build", "build-cut"): ROOM,
    ("Build", "over-budget"): "the same, for a build of which not one unit can be paid (the checker's word for "
                              "a cut to nothing): " + ROOM,
}


def expected(order: m.Order, code: str) -> bool:
    """Is this drop one of EXPECTED_DROPS?"""
    return (type(order).__name__, code) in EXPECTED_DROPS


def whose_drop(seat: Seat, order: m.Order) -> str:
    """Who is wrong about a dropped order not in EXPECTED_DROPS: the checker, if the order's
    home allows it on the position as the turn begins but the checker refuses it alone
    (legality and the checker must be the same code); else the bot, which wrote an order
    the rules refuse, alone or beside its own other orders."""
    alone = check_orders([order], seat.nation, seat.state, seat.world, seat.scenario)[0]
    if alone.kept:
        return "bot: refused beside its own other orders, which the play did not plan for"
    if seat.allowed(order):
        return "checker: its home allows it on the position, the checker refuses it alone"
    return "bot: its home refuses it on the position"


def _trimmed(order: m.Order, count: int) -> m.Order:
    assert isinstance(order, m.Build)
    return dataclasses.replace(order, count=count)


def _checked(orders: list[m.Order], nation: str, state: GameState, world: World,
             scenario: Scenario) -> tuple[list[m.Order], list[tuple[str, str]]]:
    """_check_draft with the dropped orders as text."""
    kept, refused = _check_draft(orders, nation, state, world, scenario)
    return kept, [(normalize_order(o), code) for o, code in refused]


def _check_draft(orders: list[m.Order], nation: str, state: GameState, world: World,
                 scenario: Scenario) -> tuple[list[m.Order], list[tuple[m.Order, str]]]:
    """The draft less what the checker refuses (until it refuses nothing), its builds cut
    to what the checker says can be bought (a cut left to the resolution is a default the
    moderator is told of, Phase 3.1: a careful player trims the order instead); and the
    orders dropped or cut, with the checker's problem code."""
    dropped: list[tuple[m.Order, str]] = []
    for _ in range(6):
        verdicts = check_orders(orders, nation, state, world, scenario)
        refused = [v for v in verdicts if not v.kept]
        cuts = {v.index: int(p.args["bought"]) for v in verdicts if v.kept and isinstance(orders[v.index], m.Build)
                for p in v.problems if p.code == "build-cut"}
        if not refused and not cuts:
            return orders, dropped
        gone = {v.index for v in refused}
        dropped += [(orders[v.index], v.problems[0].code if v.problems else "?") for v in refused]
        dropped += [(orders[i], "build-cut") for i in sorted(cuts)]
        orders = [_trimmed(o, cuts[i]) if i in cuts else o for i, o in enumerate(orders)
                  if i not in gone and cuts.get(i, 1) > 0]
    return [], dropped + [(o, "gave-up") for o in orders]
