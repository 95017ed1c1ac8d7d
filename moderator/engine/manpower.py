"""Manpower limits (section "Manpower limits" under Infantry), the home one and the colonies'.

"Once a nation has built as many total infantry units as its manpower limit represents
... all infantry units purchased after that point cost twice as much as normal", and a
turn in which such infantry are bought risks mutinies (Phase 9). The limit counts every
infantry unit built since the start. A limit of 0 means no infantry at normal cost.
A nation may share another's pool (the Bolsheviks' infantry "count against Russia's
total manpower limit"): scenario field Nation.manpower_pool.

The colonies' limit is apart from the home one: "mutiny can affect any territory ... no
matter if the mutiny started because of loss of manpower in colonies or in mainland"
(Mutinies), German option #5's builds "reducing manpower in mainland, not colonial", and
starvation "only effects Britain's British Isles' manpower limit and not the manpower
limits of the various British colonies". The rules give no numbers: a nation has a
colonies' limit when the scenario gives it one (Nation.colonial_manpower, chosen in
docs/scenario-notes.md); the rest have one limit for all their land. Infantry built in a
colony (a territory outside the European map or marked a colony: phase0_deploy.is_colony,
the Initial Deployment's reading) count against the colonies' limit (but German East
Africa's on a turn German option #5 sends supplies there, which count against the home
limit: engine/colony_supplies.py), and past it they
cost double and risk a mutiny just as at home (`colonial`). The colonies' limit is
NationState.flags[COLONIAL] (what is left of it after starvation), the infantry built
there NationState.flags[COLONIAL_BUILT]; the home ones are the NationState fields.
"""

from __future__ import annotations

from moderator.engine import colony_supplies
from moderator.engine.context import Position
from moderator.engine.phase0_deploy import is_colony
from moderator.engine.state import NationState

COLONIAL = "colonial_manpower"  # NationState.flags: the colonies' manpower limit (scenario Nation.colonial_manpower)
COLONIAL_BUILT = "colonial_built"  # NationState.flags: infantry built in the colonies since the start


def pool(pos: Position, nation: str) -> str:
    n = pos.scenario.nations.get(nation)
    return n.manpower_pool if n is not None and n.manpower_pool else nation


def colonial(pos: Position, nation: str, place: str | None) -> bool:
    """Whether infantry built at `place` count against the colonies' limit of the nation's
    pool: the pool has one (scenario) and the place is a colony. None: the home limit. On
    a turn German option #5 supplies German East Africa, what is built there is "reducing
    manpower in mainland, not colonial" (engine/colony_supplies.py from_home)."""
    if place is None or place not in pos.world.territories or colony_supplies.from_home(pos, nation, place):
        return False
    n = pos.scenario.nations.get(pool(pos, nation))
    return n is not None and n.colonial_manpower > 0 and is_colony(pos.world.territories[place])


def limit(ns: NationState, in_colonies: bool) -> int:
    return int(ns.flags.get(COLONIAL, 0)) if in_colonies else ns.manpower_limit


def built(ns: NationState, in_colonies: bool) -> int:
    return int(ns.flags.get(COLONIAL_BUILT, 0)) if in_colonies else ns.infantry_built


def lower(ns: NationState, in_colonies: bool, by: int) -> int:
    """Lower the limit by `by` (not below 0: starvation, a rocket on a city); what it fell by."""
    lost = min(by, limit(ns, in_colonies))
    if in_colonies:
        ns.flags[COLONIAL] = limit(ns, True) - lost
    else:
        ns.manpower_limit -= lost
    return lost


def normal_left(pos: Position, nation: str, place: str | None = None) -> int:
    """Infantry the nation can still buy at normal cost at `place` (None: at home), after
    this turn's earlier builds against the same limit."""
    owner, here = pool(pos, nation), colonial(pos, nation, place)
    ns = pos.nation(owner)
    bought = sum(b.count for b in pos.builds if b.kind == "infantry" and pool(pos, b.nation) == owner
                 and colonial(pos, b.nation, b.place) == here)
    return max(0, limit(ns, here) - built(ns, here) - bought)


def infantry_prices(pos: Position, nation: str, base: int, count: int, place: str | None = None) -> list[int]:
    """The price of each infantry unit in turn: past the limit, twice the normal cost."""
    left = normal_left(pos, nation, place)
    return [base if i < left else 2 * base for i in range(count)]


def add_built(pos: Position, nation: str, place: str, count: int) -> None:
    """Infantry placed at `place` count against the limit they were bought under."""
    ns = pos.nation(pool(pos, nation))
    if colonial(pos, nation, place):
        ns.flags[COLONIAL_BUILT] = built(ns, True) + count
    else:
        ns.infantry_built += count
