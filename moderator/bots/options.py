"""What a nation may order in a position: each order type's candidates, judged by its home.

A proposer reads the position from one nation's side (a `Seat`) and proposes orders of
one type that make sense there (its own stacks to their neighbours, builds in its own
cities, research of what it lacks, ...). `options()` keeps those the order's home allows:
its problem() on the position as the turn begins (read-only, the same judgement the
checker and the engine make). Orders whose legality depends on other orders of the same
batch (a withdrawal condition needs its attack, a mission its task force) are proposed
by the bot together with what they need, and judged by the checker on the whole batch.

OPTIONS is the table: order type -> proposer. A new order kind is one proposer and one
line here; the bot picks its plays from this table (bot.PLAYS).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from moderator.engine.combat_land import CAPTURERS
from moderator.engine.context import Position
from moderator.engine.orders.task_forces import SURFACE
from moderator.engine.orders.transfer import connected_by_land
from moderator.engine.phase0_deploy import free_counts
from moderator.engine.phase4_strategic import rail_region
from moderator.engine.resolve import default_ruleset
from moderator.engine.ruleset import Ruleset
from moderator.engine.state import AIR_UNITS, LAND_UNITS, SEA_UNITS, GameState
from moderator.orders import model as m
from moderator.orders.vocab import TECHNOLOGIES
from moderator.world.model import World
from moderator.world.scenario_model import Scenario

FIGHTING = ("infantry", "artillery", "tank")  # the land units a bot moves and attacks with


@dataclass
class Seat:
    """One nation's view of a position, with the questions the proposers and the bot ask."""

    state: GameState
    world: World
    scenario: Scenario
    nation: str
    ruleset: Ruleset = field(default_factory=default_ruleset)
    # Enemies the bot leaves alone this turn: it offers peace (Austro-Hungarian #1, which
    # Phase 1.5 settles before any attack), so it strikes none of their land (`enemy`).
    truce: set[str] = field(default_factory=set)

    @cached_property
    def position(self) -> Position:
        """The position as the turn begins: what the homes' problem() reads."""
        return Position(self.state, {self.nation: []}, self.world, self.scenario, checking=True)

    # ---- the nation ---------------------------------------------------------------------
    @property
    def saved(self) -> int:
        ns = self.state.nations.get(self.nation)
        return ns.saved if ns is not None else 0

    @property
    def side(self) -> str:
        return self.state.nations[self.nation].side

    @cached_property
    def stacks(self) -> dict[str, Counter[str]]:
        """place -> the nation's units there, by kind."""
        out: dict[str, Counter[str]] = {}
        for u in self.state.units:
            if u.nation == self.nation:
                out.setdefault(u.location, Counter())[u.kind] += 1
        return out

    def land_stacks(self, kinds: Iterable[str] = FIGHTING) -> dict[str, Counter[str]]:
        wanted = set(kinds)
        out = {}
        for place, stack in self.stacks.items():
            if self.world.territories[place].is_land:
                mine = Counter({k: n for k, n in stack.items() if k in wanted})
                if mine:
                    out[place] = mine
        return out

    def sea_stacks(self) -> dict[str, Counter[str]]:
        return {p: Counter({k: n for k, n in s.items() if k in SEA_UNITS}) for p, s in self.stacks.items()
                if self.world.territories[p].is_sea and any(k in SEA_UNITS for k in s)}

    @cached_property
    def own(self) -> list[str]:
        """Land the nation originally owned and still holds."""
        return sorted(t.name for t in self.world.lands() if t.owner == self.nation
                      and self.state.controller(t.name) == self.nation)

    @cached_property
    def held(self) -> list[str]:
        return sorted(t for t, n in self.state.control.items() if n == self.nation)

    def neighbours(self, place: str) -> list[str]:
        return sorted(self.world.neighbours(place))

    def land(self, place: str) -> bool:
        return self.world.territories[place].is_land

    def enemy(self, place: str) -> bool:
        holder = self.state.controller(place)
        return holder is not None and holder not in self.truce and self.state.at_war(self.nation, holder)

    def friendly(self, place: str) -> bool:
        holder = self.state.controller(place)
        return holder is not None and self.state.allies(self.nation, holder)

    def enemies(self) -> list[str]:
        return sorted(self.state.nations[self.nation].at_war_with)

    def allies(self) -> list[str]:
        return sorted(n for n, ns in self.state.nations.items() if n != self.nation and ns.side != "neutral"
                      and self.state.allies(self.nation, n))

    def neutrals(self) -> list[str]:
        return sorted(n for n, ns in self.state.nations.items() if n != self.nation and ns.side == "neutral")

    def foes_at(self, place: str) -> Counter[str]:
        """Units of nations at war with this one standing at `place`, by kind."""
        return Counter(u.kind for u in self.state.units_at(place)
                       if u.nation != self.nation and self.state.at_war(self.nation, u.nation))

    def defenders_at(self, place: str) -> Counter[str]:
        """Every unit at `place` not of this nation or its allies (who would defend it)."""
        return Counter(u.kind for u in self.state.units_at(place)
                       if u.nation != self.nation and not self.state.allies(self.nation, u.nation))

    def within(self, place: str, steps: int) -> list[str]:
        """Places at most `steps` links from `place` (not itself), sorted."""
        seen, edge = {place}, {place}
        for _ in range(steps):
            edge = {nb for p in edge for nb in self.world.neighbours(p)} - seen
            seen |= edge
        return sorted(seen - {place})

    def threat(self, place: str) -> int:
        """Enemy land units next to `place` (what could attack it this turn)."""
        return sum(n for nb in self.neighbours(place) if self.land(nb)
                   for k, n in self.foes_at(nb).items() if k in LAND_UNITS)

    # ---- the homes' judgement --------------------------------------------------------
    def allowed(self, order: m.Order) -> bool:
        """The order's home allows it on the position as the turn begins."""
        rule = self.ruleset.rule_for_type(type(order))
        return rule is not None and rule.problem(self.position, self.nation, order) is None


def units(counts: Counter[str] | dict[str, int]) -> tuple[m.UnitCount, ...]:
    return tuple(m.UnitCount(k, n) for k, n in sorted(counts.items()) if n > 0)


# ---- proposers: one per order type ---------------------------------------------------------


def deploys(s: Seat) -> list[m.Order]:
    """DEPLOY (Initial Deployment, turn 0): each kind still to place, all of it, at each of
    the nation's own land (land units and aircraft) or the seas next to it (ships)."""
    seas = sorted({nb for p in s.own for nb in s.neighbours(p) if not s.land(nb)})
    return [m.Deploy(units({kind: n}), place) for kind, n in sorted(free_counts(s.state, s.nation).items())
            for place in (seas if kind in SEA_UNITS else s.own)]


def moves(s: Seat) -> list[m.Order]:
    """MOVE (4.4): a land stack's fighting units to a friendly neighbour (all but one
    infantry, which keeps the place)."""
    out: list[m.Order] = []
    for place, stack in sorted(s.land_stacks().items()):
        leaving = Counter(stack)
        leaving["infantry"] -= 1
        if not +leaving:
            continue
        for dest in s.neighbours(place):
            if s.land(dest) and s.friendly(dest) and not s.world.is_strait(place, dest):
                out.append(m.Move(units(+leaving), place, dest))
    return out


def attacks(s: Seat) -> list[m.Order]:
    """ATTACK (4.4, 4.6): a stack's fighting units (one infantry stays) on enemy land next
    door, never without infantry or tanks: artillery alone cannot take land (4.4), and
    where the land is empty the checker refuses it, which a bot under fog cannot foresee."""
    out: list[m.Order] = []
    for place, stack in sorted(s.land_stacks().items()):
        going = Counter(stack)
        if s.threat(place) or s.world.territories[place].city:
            going["infantry"] -= 1
        if not any(going[k] > 0 for k in CAPTURERS):
            continue
        for dest in s.neighbours(place):
            if s.land(dest) and s.enemy(dest):
                out.append(m.Attack(units(+going), place, dest))
    return out


def strategic_moves(s: Seat) -> list[m.Order]:
    """STRATEGIC MOVE (4.1.3): spare infantry of quiet places by rail to threatened friendly land."""
    out: list[m.Order] = []
    threatened = {p for p in s.held if s.land(p) and s.threat(p)}
    for place, stack in sorted(s.land_stacks(("infantry",)).items()):
        spare = stack["infantry"] - 1
        if spare < 1 or place in threatened:
            continue
        region = [d for d in rail_region(s.world, s.state, s.nation, place) if d in threatened and d != place
                  and not s.world.adjacent(place, d)]
        for dest in region[:3]:
            out.append(m.StrategicMove(units({"infantry": min(spare, 3)}), place, dest))
    return out


def builds(s: Seat) -> list[m.Order]:
    """BUILD (3.1): infantry and artillery in the nation's cities, tanks and fighters where
    its technology allows, one unit at a time (the bot repeats what it wants more of)."""
    out: list[m.Order] = []
    cities = [p for p in s.own if s.world.territories[p].city]
    for place in cities or s.own[:3]:
        for kind in ("infantry", "artillery", "tank", "fighter", "bomber", "rocket"):
            out.append(m.Build(kind, 1, place))
    return out


def trenches(s: Seat) -> list[m.Order]:
    """BUILD TRENCH (3.1, Trenches): own land with infantry, facing an enemy neighbour."""
    out: list[m.Order] = []
    for place in s.own:
        if not s.stacks.get(place, Counter())["infantry"]:
            continue
        for dest in s.neighbours(place):
            if s.land(dest) and s.enemy(dest):
                out.append(m.BuildTrench(place, dest))
    return out


def researches(s: Seat) -> list[m.Order]:
    """RESEARCH (2.1): every technology the nation has not finished."""
    tech = s.state.nations[s.nation].tech
    return [m.Research(t) for t, (_, levels, _) in sorted(TECHNOLOGIES.items()) if tech.get(t, 0) < levels]


def influences(s: Seat) -> list[m.Order]:
    """INFLUENCE (1.2): neutrals toward the nation's side; a neutral influences itself."""
    if s.side == "neutral":
        return [m.Influence(s.nation, side) for side in ("allied", "central")]
    return [m.Influence(n, s.side) for n in s.neutrals()]


def declarations(s: Seat) -> list[m.Order]:
    """DECLARE WAR (1.1): on neutral neighbours of the nation's land."""
    near = {s.state.controller(nb) for p in s.held for nb in s.neighbours(p) if s.land(nb)}
    return [m.DeclareWar(n) for n in s.neutrals() if n in near]


def incorporations(s: Seat) -> list[m.Order]:
    """INCORPORATE (6): held land that is not incorporated yet."""
    return [m.Incorporate(p) for p in s.held if s.land(p) and p not in s.state.incorporated]


def gifts(s: Seat) -> list[m.Order]:
    """GIFT (8.1): a tenth of the treasury to each ally at war."""
    amount = s.saved // 10
    return [m.Gift(amount, a) for a in s.allies()] if amount > 0 else []


def espionage(s: Seat) -> list[m.Order]:
    """ESPIONAGE (3.2.1): each enemy's army and its industry (a technology it may have),
    combat intelligence on enemy land next to the nation's troops, and the neutrals:
    a minor's status, a major's leaning."""
    out: list[m.Order] = []
    for e in s.enemies():
        out.append(m.Espionage("army", e))
        out += [m.Espionage("industrial", e, tech=t) for t in ("improved_weapons", "tanks")]
    near = sorted({nb for p in s.land_stacks() for nb in s.neighbours(p) if s.land(nb) and s.enemy(nb)})
    out += [m.Espionage("combat", place=p) for p in near[:4]]
    majors = {n for n, info in s.scenario.nations.items() if info.kind == "major"}
    out += [m.Espionage("affiliation" if n in majors else "neutral", n) for n in s.neutrals()]
    return out


def counter_espionage(s: Seat) -> list[m.Order]:
    """COUNTER-ESPIONAGE (3.2.2): the nation's army against each enemy."""
    return [m.CounterEspionage("army", e) for e in s.enemies()]


def upgrades(s: Seat) -> list[m.Order]:
    """UPGRADE (2.2): every unit kind the nation has deployed (its home refuses those
    already at the nation's levels)."""
    return [m.Upgrade(k) for k in sorted({u.kind for u in s.state.nation_units(s.nation)})]


def recons(s: Seat) -> list[m.Order]:
    """RECON (3.3): one fighter, or one infantry of a stack of three, into enemy land next door."""
    out: list[m.Order] = []
    for place, stack in sorted(s.stacks.items()):
        if not s.land(place):
            continue
        scout = "fighter" if stack["fighter"] else "infantry" if stack["infantry"] >= 3 else None
        if scout is None:
            continue
        for dest in s.neighbours(place):
            if s.land(dest) and s.enemy(dest):
                out.append(m.Recon(units({scout: 1}), place, dest))
    return out


def bombings(s: Seat) -> list[m.Order]:
    """BOMB (4.1.1): the bombers (or, tactically, the fighters) of a place on enemy land
    within two links: its industry, its city or its troops."""
    out: list[m.Order] = []
    for place, stack in sorted(s.land_stacks(AIR_UNITS).items()):
        planes = Counter({"bomber": stack["bomber"]}) if stack["bomber"] else stack
        for dest in s.within(place, 2):
            if s.land(dest) and s.enemy(dest):
                for aim in ("industry", "city", "tactical"):
                    out.append(m.Bombing(aim, units(planes), place, dest))
    return out


def rocket_fires(s: Seat) -> list[m.Order]:
    """FIRE (Rockets): a place's rockets at enemy land within reach: troops, city or industry."""
    out: list[m.Order] = []
    for place, stack in sorted(s.land_stacks(("rocket",)).items()):
        for dest in s.within(place, 3):
            if s.land(dest) and s.enemy(dest):
                for aim in ("units", "city", "industry"):
                    out.append(m.RocketFire(stack["rocket"], place, dest, aim))
    return out


def task_forces(s: Seat) -> list[m.Order]:
    """TF name AT zone (4.2): the surface warships of each zone formed into a task force
    (submarines and transports sail apart: 4.2's missions are per kind of ship)."""
    out: list[m.Order] = []
    for zone, stack in sorted(s.sea_stacks().items()):
        warships = Counter({k: n for k, n in stack.items() if k in SURFACE and k != "transport"})
        if warships:
            out.append(m.TaskForce(f"TF{len(out) + 1}", zone, units(warships)))
    return out


def repairs(s: Seat) -> list[m.Order]:
    """REPAIR (3.4): damaged ships where they are."""
    hurt = Counter((u.location, u.kind) for u in s.state.units if u.nation == s.nation and u.damage)
    return [m.Repair(kind, n, zone) for (zone, kind), n in sorted(hurt.items())]


def special_options(s: Seat) -> list[m.Order]:
    """OPTION n (1.5): every option of the nation's table, with the arguments it needs (a
    target nation, an amount: its minimum or 5, a side: its own or, neutral, either)."""
    table = s.scenario.diplomacy.options_for(s.nation, s.side)
    out: list[m.Order] = []
    for n, spec in sorted((table or {}).items()):
        targets: list[str | None] = [x for x in sorted(s.state.nations) if x != s.nation] \
            if "target" in spec.needs else [None]
        amount = max(spec.amount_min, 5) if "amount" in spec.needs else None
        sides: list[str | None] = ([s.side] if s.side != "neutral" else ["allied", "central"]) \
            if "toward" in spec.needs else [None]
        out += [m.SpecialOption(n, target=t, amount=amount, toward=w) for t in targets for w in sides]
    return out


def lets_pass(s: Seat) -> list[m.Order]:
    """LET THROUGH (4.5): the nation's fighters on land let attacking aircraft go."""
    return [m.LetPass(place) for place in sorted(s.land_stacks(("fighter",)))]


def casualties(s: Seat) -> list[m.Order]:
    """CASUALTIES (4.6): cheap units fall first."""
    return [m.CasualtyOrder(("infantry", "artillery", "tank"))]


def rebases(s: Seat) -> list[m.Order]:
    """REBASE (4.1.2): aircraft to threatened friendly land within reach."""
    out: list[m.Order] = []
    for place, stack in sorted(s.land_stacks(AIR_UNITS).items()):
        for dest in s.neighbours(place):
            if s.land(dest) and s.friendly(dest) and s.threat(dest):
                out.append(m.Rebase(units(stack), place, dest))
    return out


def artillery_supports(s: Seat) -> list[m.Order]:
    """ARTILLERY SUPPORT (Artillery, 4.6): a stack's artillery fires into enemy land next door."""
    return [m.ArtillerySupport(stack["artillery"], place, dest)
            for place, stack in sorted(s.land_stacks(("artillery",)).items())
            for dest in s.neighbours(place) if s.land(dest) and s.enemy(dest)]


def defences(s: Seat) -> list[m.Order]:
    """DEFEND WITH (Industrial complexes, Ports): the complex or port of threatened held land."""
    return [m.DefendWith(kind, place) for place in s.held if s.land(place) and s.threat(place)
            for kind in ("industry", "port")]


def home_trenches(s: Seat) -> list[m.Order]:
    """BUILD HOME TRENCHES (Trenches): the nation's own cities."""
    return [m.BuildHomeTrenches(p) for p in s.own if s.world.territories[p].city]


def ship_gear(s: Seat) -> list[m.Order]:
    """BUILD RADAR|SONAR|AA (Technology; Improved Anti-Aircraft Guns): radar in its cities;
    sonar, radar or an improved AA gun on its ships (the home refuses a ship kind that
    cannot carry the gear, a zone with no own port beside it, a ship with no room left)."""
    from moderator.engine.gear_aboard import aboard

    out: list[m.Order] = []
    out += [m.BuildShipGear("radar", p) for p in s.own if s.world.territories[p].city][:2]
    for zone, stack in sorted(s.sea_stacks().items()):
        ships = [u for u in s.state.units_at(zone, s.nation) if u.kind in stack]
        for ship in sorted(stack):
            # A second radar or sonar has no room aboard (gear_aboard.room): it would be
            # paid for and lost in Phase 7, which the checker does not foresee.
            bare = {g for g in ("sonar", "radar") for u in ships if u.kind == ship and g not in aboard(s.position, u)}
            out += [m.BuildShipGear(gear, zone, ship) for gear in ("sonar", "radar", "aa") if gear in bare or gear == "aa"]
    return out


def plunders(s: Seat) -> list[m.Order]:
    """PLUNDER (Phase 5): the complexes and ports of conquered, incorporated land."""
    return [m.Plunder(kind, p) for p in s.held if s.land(p) and s.world.territories[p].owner != s.nation
            for kind in ("industry", "port")]


def transfers(s: Seat) -> list[m.Order]:
    """TRANSFER (Phase 8, separated treasuries): a separated treasury's money to the
    capital's land. Not from land joined to the capital's by land: that is one treasury
    already (the home warns), and the order would only compete for its money with the
    builds paid from it (Phase 3.1, before 8.1)."""
    home = [p for p in s.own if s.world.territories[p].city][:1]
    return [m.Transfer(5, p, home[0]) for p in s.held if home and s.land(p) and p != home[0]
            and not connected_by_land(s.position, s.nation, p, home[0])]


def peaces(s: Seat) -> list[m.Order]:
    """PEACE (1.1): every enemy (its home refuses the main war's enemies)."""
    return [m.Peace(e) for e in s.enemies()]


def surrenders(s: Seat) -> list[m.Order]:
    """SURRENDER (1.3): to all its enemies."""
    return [m.OfferSurrender(tuple(s.enemies()))] if s.enemies() else []


def surrender_votes(s: Seat) -> list[m.Order]:
    """ACCEPT SURRENDER (1.3): an enemy whose offer is on the table (public news)."""
    from moderator.engine.surrender import OFFER

    return [m.SurrenderVote(n, True) for n, ns in sorted(s.state.nations.items())
            if n != s.nation and ns.flags.get(OFFER) is not None]


def exiles(s: Seat) -> list[m.Order]:
    """EXILE (Conquered nations): with each ally as host."""
    return [m.Exile(a) for a in s.allies()]


def joins(s: Seat) -> list[m.Order]:
    """JOIN (1.2): a neutral joins either side (its home says when the points allow it)."""
    return [m.JoinSide(side) for side in ("allied", "central")]


def gear_ups(s: Seat) -> list[m.Order]:
    """GEAR UP (Neutral majors)."""
    return [m.GearUp()]


def coaxes(s: Seat) -> list[m.Order]:
    """COAX ITALY (Italy)."""
    return [m.CoaxItaly()]


def blockades(s: Seat) -> list[m.Order]:
    """BLOCKADE (1.4): each enemy, of its ports or of its US trade."""
    return [m.Blockade(e, us_trade=trade) for e in s.enemies() for trade in (False, True)]


def sub_warfare(s: Seat) -> list[m.Order]:
    """UNRESTRICTED SUBMARINE WARFARE (1.4): on the enemy side, with submarines at sea."""
    subs = any(stack["submarine"] for stack in s.sea_stacks().values())
    enemy_side = {"allied": "central", "central": "allied"}.get(s.side)
    return [m.SubWarfare(enemy_side)] if subs and enemy_side else []


def passages(s: Seat) -> list[m.Order]:
    """CLOSE passage (Straits and canals, 1.4): a passage it holds, to its enemies."""
    return [m.ClosePassage(p.name, tuple(s.enemies())) for p in s.world.passages
            if p.controllers and s.enemies() and any(s.state.controller(t) == s.nation for t in p.controllers)]


def sub_detections(s: Seat) -> list[m.Order]:
    """DETECT SUBS (4.2.9): the ships of a zone that can detect hunt where they are."""
    from moderator.engine.orders.submarines import DETECTION

    out: list[m.Order] = []
    for zone, stack in sorted(s.sea_stacks().items()):
        hunters = Counter({k: n for k, n in stack.items() if k in DETECTION and k != "submarine"})
        if hunters:
            out.append(m.SubDetection(zone, units(hunters)))
    return out


def sub_interceptions(s: Seat) -> list[m.Order]:
    """INTERCEPT (4.2.10): the submarines of a zone lie in wait for what passes."""
    return [m.SubInterception(stack["submarine"], zone) for zone, stack in sorted(s.sea_stacks().items())
            if stack["submarine"]]


def notes(s: Seat) -> list[m.Order]:
    """NOTE (to the moderator)."""
    return [m.Note(f"{s.nation} bot: turn {s.state.turn} played by a bot")]


Proposer = Callable[[Seat], Sequence[m.Order]]

OPTIONS: dict[type[m.Order], Proposer] = {
    m.Deploy: deploys,
    m.DeclareWar: declarations, m.Influence: influences, m.SpecialOption: special_options,
    m.Research: researches, m.Upgrade: upgrades, m.Build: builds, m.BuildTrench: trenches, m.Espionage: espionage,
    m.CounterEspionage: counter_espionage, m.Recon: recons, m.Repair: repairs,
    m.StrategicMove: strategic_moves, m.Rebase: rebases, m.TaskForce: task_forces, m.Bombing: bombings,
    m.RocketFire: rocket_fires,
    m.Attack: attacks, m.Move: moves, m.CasualtyOrder: casualties, m.LetPass: lets_pass,
    m.Incorporate: incorporations, m.Gift: gifts,
    m.ArtillerySupport: artillery_supports, m.DefendWith: defences, m.BuildHomeTrenches: home_trenches,
    m.BuildShipGear: ship_gear, m.Plunder: plunders, m.Transfer: transfers, m.Peace: peaces,
    m.OfferSurrender: surrenders, m.SurrenderVote: surrender_votes, m.Exile: exiles, m.JoinSide: joins,
    m.GearUp: gear_ups, m.CoaxItaly: coaxes, m.Blockade: blockades, m.SubWarfare: sub_warfare,
    m.ClosePassage: passages, m.Note: notes, m.SubDetection: sub_detections, m.SubInterception: sub_interceptions,
}


def options(seat: Seat, kind: type[m.Order]) -> list[m.Order]:
    """The orders of type `kind` the nation may give in this position (its home says so)."""
    proposer = OPTIONS.get(kind)
    if proposer is None:
        return []
    return [o for o in proposer(seat) if type(o) is kind and seat.allowed(o)]
