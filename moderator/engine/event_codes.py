"""Every event code of "The War to End All Wars" ruleset, with its typed arguments.

Events told to one nation (seen_by == (nation,)) always carry `nation`; `order` is the
position of the order in that nation's order list, `text` its source line. Each code
has one template, templates/events/<code>.j2; tests/test_event_templates.py renders
every code with sample arguments in every kind of report.
"""

from __future__ import annotations

from moderator.engine.events import (
    BOOL,
    CODE,
    DETAILS,
    INT,
    KIND,
    LOSSES,
    NATION,
    NATIONS,
    PLACE,
    PLACES,
    SPAN,
    TEXT,
    UNITS,
    ArgType,
    EventSchema,
    EventSpec,
    optional,
)

TASK_FORCES = ArgType("list of task forces, nation/name", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
                      (["britain/D", "germany/1"], []))


def spec(code: str, audience: str, doc: str, **args: object) -> EventSpec:
    return EventSpec(code, audience, args, doc)  # type: ignore[arg-type]


SCHEMA = EventSchema([
    # ---- Initial Deployment (turn 0)
    spec("deployed", "nation", "a DEPLOY order placed units (Initial Deployment)",
         nation=NATION, order=INT, kind=KIND, count=INT, place=PLACE),
    spec("deploy-defaulted", "nation", "free units no DEPLOY order placed stand at their default place",
         nation=NATION, kind=KIND, count=INT, place=PLACE),
    # ---- Phase 1
    spec("war-declared", "public", "Phase 1.1: a declaration of war (surprise: an attack without one)",
         nation=NATION, target=NATION, surprise=BOOL),
    # ---- Phase 2
    spec("upgraded", "nation", "Phase 2.2: every deployed unit of a kind upgraded to the nation's technology",
         nation=NATION, order=INT, kind=KIND, count=INT, cost=INT),
    # ---- Phase 3
    spec("trench-built", "nation", "Phase 3.1, Trenches: a trench (or super trench) dug facing each of `facing`",
         nation=NATION, order=INT, kind=KIND, place=PLACE, facing=PLACES, cost=INT),
    spec("built", "nation", "Phase 3.1: units paid for, to be placed in Phase 7",
         nation=NATION, order=INT, kind=KIND, count=INT, place=PLACE, cost=INT),
    spec("build-cut", "nation", "Phase 3.1: the treasury paid for fewer units than ordered",
         nation=NATION, order=INT, kind=KIND, place=PLACE, ordered=INT, bought=INT),
    # ---- Phase 4
    spec("strategic-move", "nation", "Phase 4.1.3: units left by rail",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, units=UNITS),
    spec("strategic-cut", "nation", "Phase 4.1.3: rail capacity let fewer units go than ordered",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, ordered=INT, moving=INT),
    spec("air-raid", "the raider and the defenders", "Phase 4.1.1: a bombing raid: AA hits, rounds of air combat "
         "with the interceptors (4.5), planes lost or turned back, those through and the damage (resources, "
         "manpower or strike points)",
         nation=NATION, order=INT, target=PLACE, aim=CODE, holder=TEXT, aa_hits=INT, rounds=INT, lost=UNITS,
         interceptors_lost=UNITS, turned_back=UNITS, through=UNITS, damage=INT, strike_points=INT),
    spec("rebasing", "nation", "Phase 4.1.2: aircraft took off to rebase (they land in Phase 7)",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, units=UNITS),
    spec("moved", "nation", "Phase 4.4: units moved", nation=NATION, order=INT, origin=PLACE, dest=PLACE,
         units=UNITS),
    spec("units-missing", "nation", "fewer units were there than the order named",
         nation=NATION, order=INT, kind=KIND, place=PLACE, ordered=INT, present=INT),
    spec("units-held-back", "nation", "some units of an order could not take part (terrain, straits, ...)",
         nation=NATION, order=INT, reason=CODE, units=UNITS),
    spec("battle", "participants", "Phase 4.6: a land battle",
         territory=PLACE, origins=PLACES, attacker=NATION, defender=optional(NATION), defenders=NATIONS,
         rounds=INT, strait=BOOL, losses=LOSSES, captured=BOOL, withdrawn=optional(TEXT), rolls=SPAN),
    spec("task-force", "nation", "Phase 4.2: where a task force went, and what is left of it and its troops",
         nation=NATION, order=INT, tf=TEXT, path=PLACES, ships=UNITS, troops=UNITS),
    spec("naval-battle", "participants", "Phase 4.3: a naval battle (task forces, submarines attacking or "
         "detected); `first`/`second` the sides' nations, `ended` why it stopped",
         zone=PLACE, fleets=TASK_FORCES, first=NATIONS, second=NATIONS, rounds=INT, free=TEXT, ended=CODE,
         losses=LOSSES, damaged=LOSSES, withdrawn=optional(TEXT), rolls=SPAN),
    spec("unrestricted-submarine-warfare", "the two nations", "Phase 1.4 with 4.7: submarines in the targeted "
         "zones sank `damage` of the target's income this turn (1D10 each, at most the table's value)",
         nation=NATION, target=NATION, zones=PLACES, submarines=INT, damage=INT),
    spec("captured", "public", "Phase 4.4: a territory changed hands (an allied owner is liberated)",
         territory=PLACE, nation=NATION, holder=NATION, previous=optional(NATION)),
    # ---- Phases 5-8
    spec("plundered", "nation", "Phase 5: an industrial complex or port dismantled for resources",
         nation=NATION, order=INT, kind=KIND, place=PLACE, gained=INT),
    spec("incorporated", "nation", "Phase 6: a territory incorporated",
         nation=NATION, order=INT, territory=PLACE, cost=INT),
    spec("build-lost", "nation", "Phase 7: the place of paid units was lost during the turn",
         nation=NATION, kind=KIND, count=INT, place=PLACE, paid=INT),
    spec("placed", "nation", "Phase 7: new units placed", nation=NATION, kind=KIND, count=INT, place=PLACE),
    spec("strategic-arrived", "nation", "Phase 7: a rail move arrived",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, end=PLACE, units=UNITS),
    spec("strategic-cut-short", "nation", "Phase 7: a rail move's path was cut; the units stopped short",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, end=PLACE, units=UNITS),
    spec("income", "nation", "Phase 8: resources collected",
         nation=NATION, full=INT, rule=TEXT, amount=INT, saved=INT),
    spec("gift", "giver and receiver", "Phase 8 note: a gift between allies",
         giver=NATION, receiver=NATION, sent=INT, arrived=INT),
    # ---- orders and the moderator
    spec("order-refused", "nation", "an order that could not be carried out, with the rule's reason",
         nation=NATION, order=INT, text=TEXT, reason=CODE, details=DETAILS),
    spec("order-referred", "nation and moderator",
         "an order the rules leave to the moderator (or not automated yet): charged, then reviewed",
         nation=NATION, order=INT, text=TEXT, type=TEXT, cost=INT, why=CODE),
    spec("moderator-flag", "moderator", "a default the engine chose where the rules leave judgement "
         "to the moderator", reason=CODE, nation=optional(NATION), details=DETAILS),
    spec("ruling", "moderator and the nations concerned", "a moderator's ruling applied to the game",
         text=TEXT, nations=NATIONS, details=DETAILS),
])
