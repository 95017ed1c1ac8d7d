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


# (the same test as a units mapping's, {text: whole number}, made at C speed: Phase 8 tells
# every nation with land apart what each treasury holds, issue 14)
MONEY = ArgType("resources by place {place: n}", UNITS.check, ({"Cameroon": 2, "Togo": 1}, {}))
PATHS = ArgType("list of sea paths, each a list of zones",
                lambda v: isinstance(v, list) and all(isinstance(p, list) and all(isinstance(z, str) for z in p) for p in v),
                ([["Southern Atlantic", "Bay of Biscay"]], []))
AMOUNTS = ArgType("nation -> resources", lambda v: isinstance(v, dict) and all(
    isinstance(k, str) and isinstance(n, int) for k, n in v.items()), ({"germany": 5}, {}))


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
    spec("geared-up", "nation", "Phase 1.5: a major neutral raised its war economy; its income rule from now on",
         nation=NATION, order=INT, cost=INT, rule=TEXT),
    spec("joined", "public", "Neutrals: a nation joined a camp of the main war (why: attacked, points, follows)",
         nation=NATION, side=TEXT, why=CODE, by=optional(NATION)),
    spec("local-war-ended", "public", "Phase 1.1 note, Local War: a capture ended a war between neutrals",
         nations=NATIONS, winners=NATIONS),
    spec("influence-attempt", "nation and moderator", "Phase 1.2: whether an influence attempt succeeded (not the points)",
         nation=NATION, order=INT, target=NATION, success=BOOL),
    spec("points", "the neutral and moderator", "Neutrals: a neutral's points moved (never who moved them)",
         nation=NATION, change=INT, standing=INT, why=CODE),
    spec("camp-reached", "nation", "Neutrals: the nation has 10 points for a side and may JOIN it from next turn",
         nation=NATION, side=TEXT),
    spec("minor-ready", "a side", "Neutrals: a minor (not named) reached 10 points for the side; pick a player",
         side=TEXT),
    spec("casus-belli", "nation and moderator", "British Empire (while neutral): an entry event gave the British "
         "Empire a cause to join the side", nation=NATION, side=TEXT, cause=CODE),
    spec("entry-unprovoked", "nation and moderator", "British Empire (while neutral): it joined the side without a "
         "cause (the neutrals' table rows 15-16)", nation=NATION, side=TEXT),
    spec("japan-full-production", "nation", "Japan: an original territory lost, Japan goes to full war production "
         "from the next Phase 8", nation=NATION, lost=PLACES),
    spec("ottoman-civil-war", "public", "The Ottoman Empire: after its war on a Central Power, the German officers "
         "rebelled (units by kind that became German, the battles fought, the land Germany occupies) or not (empty)",
         rebelled=UNITS, battles=PLACES, occupied=PLACES),
    spec("china-split", "nation and moderator", "China: its self-influence drew 0 twice in a row; two blocks, the "
         "republic's leaning to the side, the other to the other side, both from the standing", nation=NATION,
         side=TEXT, standing=INT),
    spec("opposition-points", "nation and moderator", "China: the points of its other bloc moved (side: the bloc's)",
         nation=NATION, change=INT, standing=INT, side=TEXT, why=CODE),
    spec("china-civil-war", "public", "China: both blocks at their camps; units by kind that went to the Emperor, the "
         "clashes fought, the land the Empire holds, the sides the republic and the Empire lean to",
         went=UNITS, battles=PLACES, held=PLACES, republic=TEXT, empire=TEXT),
    spec("china-civil-war-ended", "public", "China: one faction holds no land of China; the winner takes China over "
         "and may join the side it leans to", winner=NATION, side=TEXT),
    spec("italy-table", "Italy and moderator", "Italy: its table after the British Empire's unprovoked entry "
         "(roll 0: not rolled, Italy already 6 or more toward the Allies)", nation=NATION, roll=INT, outcome=CODE),
    spec("leaning-changed", "Italy and moderator", "Italy: a coaxing turned Italy's leaning to the side (side "
         "neutral: Austro-Hungarian option #2 made it considered neutral)",
         nation=NATION, side=TEXT),
    spec("peace-offered", "both nations and moderator", "Phase 1.5: a peace one side wrote and the other did not",
         nation=NATION, target=NATION),
    spec("passage-closed", "public", "Phase 1.4: a holder closed a strait or canal to nations (none named: to every "
         "nation), or opened it", nation=NATION, passage=TEXT, barred=NATIONS, closed=BOOL),
    spec("blockade-declared", "public", "Phase 1.4: a nation declared this turn's naval blockade of an enemy, or "
         "of the US trade to it", nation=NATION, target=NATION, us_trade=BOOL),
    spec("submarine-warfare-declared", "public", "Phase 1.4: a nation declared unrestricted submarine warfare "
         "against a side or a nation (target: allied, central or a nation id), or retracted it for good (cost 25)",
         nation=NATION, target=TEXT, retracted=BOOL, cost=INT),
    spec("peace-made", "public", "Local War, Austro-Hungarian option #1: two nations made peace",
         nations=NATIONS),
    spec("government-in-exile", "public", "Conquest: a conquered nation's government goes into exile with an "
         "allied host", nation=NATION, host=NATION),
    spec("liberated", "public", "Conquest: the capital held two full turns: the government in exile returns",
         nation=NATION, host=NATION),
    spec("surrender-offered", "public", "Phase 1.3: a nation offers to surrender; the nations named (the opposing "
         "side in the main war) answer next turn", nation=NATION, to=NATIONS),
    spec("surrender-decided", "public", "Phase 1.3: the answers to a surrender offer, counted (by income in the "
         "main war)", nation=NATION, accepted=BOOL, votes_for=INT, votes_against=INT, refused_by=NATIONS),
    spec("territory-reverted", "public", "Surrender: land the surrendering nation held goes back to its original "
         "owner", place=PLACE, nation=NATION, by=NATION),
    spec("units-withdrawn", "nation", "Surrender: the surrendering nation's units leave the land that reverted "
         "(Phase 1.5: a special option's giver's units leave the land given, by land or, with no "
         "march home, by sea to its nearest port)",
         nation=NATION, place=PLACE, to=PLACE, units=INT),
    spec("tribute", "the surrendering nation and the victor", "Phase 8, Surrender: war tribute, a quarter of the "
         "income", nation=NATION, to=NATION, amount=INT),
    spec("option-outcome", "nation and moderator", "Phase 1.5: what a special option's roll did (not the points)",
         nation=NATION, order=INT, number=INT, title=TEXT, outcome=CODE, cost=INT),
    spec("irish-rising", "public", "Phase 1.5, German option #3: Ireland rises against Britain; the rebels, "
         "placed by the German player, attack the British there (the battles follow)",
         infantry=INT, artillery=INT, places=PLACES),
    spec("battleship-handed-over", "nation, the Ottoman Empire and moderator", "Phase 1.5, British option #1: "
         "a British battleship left the map and joined the Ottoman fleet", nation=NATION, to=NATION, origin=PLACE,
         zone=PLACE),
    spec("territory-given", "public", "Phase 1.5: a special option gave a territory away, incorporated at once",
         nation=NATION, place=PLACE, to=NATION),
    # ---- Phase 2
    spec("researched", "the nations that share the knowledge, and the moderator",
         "Phase 2.1: a research roll succeeded; the level is theirs from Phase 7",
         nation=NATION, order=INT, tech=CODE, level=INT, cost=INT, spied=BOOL, shared=NATIONS),
    spec("research-failed", "nation", "Phase 2.1: a research roll failed",
         nation=NATION, order=INT, tech=CODE, level=INT, cost=INT, spied=BOOL),
    spec("upgrade-nothing-new", "nation", "Phase 2.2: an upgrade written after a research of the same turn "
         "that failed: nothing to buy, nothing charged", nation=NATION, order=INT, kind=KIND),
    spec("manpower-raised", "nation", "Phase 7: Troop Mechanization raised the manpower limit by 30%; Phase 1.5: "
         "the Irish support the British war effort (+20, German option #3); `colonies`: the colonies' limit",
         nation=NATION, before=INT, after=INT, why=CODE, colonies=optional(BOOL)),
    spec("upgraded", "nation", "Phase 2.2: every deployed unit of a kind upgraded to the nation's technology",
         nation=NATION, order=INT, kind=KIND, count=INT, cost=INT),
    # ---- Phase 3
    spec("trench-built", "nation", "Phase 3.1, Trenches: a trench (or super trench) dug facing each of `facing`",
         nation=NATION, order=INT, kind=KIND, place=PLACE, facing=PLACES, cost=INT),
    spec("built", "nation", "Phase 3.1: units paid for, to be placed in Phase 7",
         nation=NATION, order=INT, kind=KIND, count=INT, place=PLACE, cost=INT),
    spec("build-cut", "nation", "Phase 3.1: the treasury paid for fewer units than ordered",
         nation=NATION, order=INT, kind=KIND, place=PLACE, ordered=INT, bought=INT),
    spec("counter-espionage", "nation and moderator", "Phase 3.2.2: a counter-espionage in place (affiliation, "
         "army) or rolled (industrial, reconnaissance countermeasure: success or not)",
         nation=NATION, order=INT, kind=CODE, success=BOOL),
    spec("espionage-failed", "nation and moderator", "Phase 3.2.1: an espionage roll failed",
         nation=NATION, order=INT, kind=CODE, target=TEXT),
    spec("spied-neutral", "nation and moderator", "Phase 3.2.1.1: a minor neutral's status (its standing)",
         nation=NATION, order=INT, target=NATION, standing=INT),
    spec("spied-affiliation", "nation and moderator", "Phase 3.2.1.1: the side a major neutral's government "
         "leans to (not its points)", nation=NATION, order=INT, target=NATION, leaning=CODE),
    spec("spied-army", "nation and moderator", "Phase 3.2.1.2: the units the target built this turn (not where)",
         nation=NATION, order=INT, target=NATION, units=UNITS),
    spec("spied-industrial", "nation and moderator", "Phase 3.2.1.3: the target's level of a technology; "
         "raised: the spy's research of it succeeds on 8-10", nation=NATION, order=INT, target=NATION,
         tech=CODE, level=INT, raised=BOOL),
    spec("spied-combat", "nation and moderator", "Phase 3.2.1.4: the enemy units engaged in combat in a "
         "province, after the battles", nation=NATION, order=INT, place=PLACE, fought=BOOL, units=LOSSES),
    spec("recon-report", "the observing allies", "3.3 passive reconnaissance: a place next to the allies' units, "
         "seen exactly (a hit) or as a colour band (a miss, or a false colour where masked)",
         place=PLACE, seen=CODE, units=LOSSES, band=CODE, percent=INT),
    spec("recon-mission", "nation and moderator", "3.3 active reconnaissance: a RECON mission's units, those "
         "lost to the defenders' fire, and what the rest saw: exact (seen_units), a colour band, or none (all lost)",
         nation=NATION, order=INT, origin=PLACE, place=PLACE, units=UNITS, lost=UNITS, seen=CODE,
         seen_units=LOSSES, band=CODE, percent=INT),
    spec("recon-fired-on", "the defenders and moderator", "3.3 active reconnaissance: the defenders' units fired "
         "at a nation's reconnaissance mission in their place (1 on a D10 hits)",
         nations=NATIONS, nation=NATION, place=PLACE, units=UNITS, lost=UNITS),
    # ---- Phase 4
    spec("strategic-move", "nation", "Phase 4.1.3: units left by rail",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, units=UNITS),
    spec("strategic-cut", "nation", "Phase 4.1.3: rail capacity let fewer units go than ordered",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, ordered=INT, moving=INT),
    spec("air-raid", "the raider and the defenders", "Phase 4.1.1: a bombing raid: AA hits (at the target and "
         "over the places on the way where guns fired, aa_over), rounds of air combat "
         "with the interceptors (4.5) at the target and over the places on the way (via, intercepted_over), "
         "planes lost or turned back, those through and the damage (resources, manpower or strike points)",
         nation=NATION, order=INT, target=PLACE, aim=CODE, holder=TEXT, aa_hits=INT, rounds=INT, lost=UNITS,
         interceptors_lost=UNITS, turned_back=UNITS, through=UNITS, damage=INT, strike_points=INT,
         via=optional(PLACES), intercepted_over=optional(PLACES), aa_over=optional(PLACES)),
    spec("rebasing", "nation", "Phase 4.1.2: aircraft took off to rebase (they land in Phase 7)",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, units=UNITS),
    spec("moved", "nation", "Phase 4.4: units moved", nation=NATION, order=INT, origin=PLACE, dest=PLACE,
         units=UNITS),
    spec("units-missing", "nation", "fewer units were there than the order named",
         nation=NATION, order=INT, kind=KIND, place=PLACE, ordered=INT, present=INT),
    spec("attack-called-off", "nation", "Conditional orders: an attack ordered only if reconnaissance shows at "
         "most `limit` defenders, called off on what the record showed (a count, a colour, nothing)",
         nation=NATION, place=PLACE, limit=INT, seen=TEXT),
    spec("units-held-back", "nation", "some units of an order could not take part (terrain, straits, ...)",
         nation=NATION, order=INT, reason=CODE, units=UNITS),
    spec("battle", "participants", "Phase 4.6: a land battle",
         territory=PLACE, origins=PLACES, attacker=NATION, attackers=NATIONS, defender=optional(NATION),
         defenders=NATIONS, rounds=INT, strait=BOOL, losses=LOSSES, captured=BOOL, withdrawn=optional(TEXT),
         clash=BOOL, air_rounds=INT, rolls=SPAN),
    spec("battle-forces", "nation", "Phase 4.6: a land battle's forces as one participant saw them "
         "(engine/battle_forces.py): its side's exactly, by nation; the enemy's as its reconnaissance of the "
         "place recorded them (`seen` exact: `enemy`), else their colour `band` (3.2.2.4)",
         nation=NATION, territory=PLACE, role=CODE, own=LOSSES, seen=CODE, enemy=LOSSES, band=TEXT),
    spec("task-force", "nation", "Phase 4.2: where a task force went, and what is left of it and its troops; "
         "`mission` its last task (4.2.1-4.2.9: patrol, blockade, ...)",
         nation=NATION, order=INT, tf=TEXT, path=PLACES, ships=UNITS, troops=UNITS, mission=CODE),
    spec("naval-battle", "participants", "Phase 4.3: a naval battle (task forces, submarines attacking or "
         "detected); `first`/`second` the sides' nations, `ended` why it stopped",
         zone=PLACE, fleets=TASK_FORCES, first=NATIONS, second=NATIONS, rounds=INT, free=TEXT, ended=CODE,
         losses=LOSSES, damaged=LOSSES, withdrawn=optional(TEXT), aa=INT, rolls=SPAN),
    spec("naval-forces", "nation", "Phase 4.3: a naval battle's forces as one participant saw them "
         "(engine/naval_forces.py): its side's exactly, by nation (ships, aircraft, troops aboard); the enemy's "
         "colour `band` (3.2.2.4); `role` sought (it sought the battle) or met",
         nation=NATION, zone=PLACE, role=CODE, own=LOSSES, band=TEXT),
    spec("air-combat-at-sea", "participants", "Phase 4.3 step 1: fighters aboard carriers (or sent as cover) "
         "intercepted aircraft striking ships (4.5): the rounds, the planes downed and those turned back short of fuel",
         zone=PLACE, attackers=NATIONS, defenders=NATIONS, rounds=INT, lost=UNITS, interceptors_lost=UNITS,
         turned_back=UNITS),
    spec("aircraft-aboard", "nation", "Aircraft Carriers: fighters sent to a sea zone (MOVE) landed aboard the "
         "nation's carriers there instead of flying home", nation=NATION, order=INT, zone=PLACE, units=UNITS),
    spec("aircraft-turned-back", "nation", "Fighters: fighters sent off carriers to a sea zone (MOVE) found enemy "
         "aircraft there without the fuel to fight (\"a minimum of 5 fuel points\") and flew back",
         nation=NATION, order=INT, zone=PLACE, units=UNITS),
    spec("task-force-turned-back", "nation", "Phase 4.2: contact was lost in a naval battle and the task force, "
         "by its nation's WITHDRAW ... IF CONTACT LOST, cancelled its mission and went back (`dest`: where it stopped)",
         nation=NATION, tf=TEXT, zone=PLACE, dest=PLACE),
    spec("task-force-split", "nation", "Phase 4 guideline 6: task force `tf` split off `parent` in `zone` with "
         "`ships` (done), or could not (`done` false, `ships` the ships the order named; `why` apart: the parent "
         "was held, turned back or retreated; lost: it had fewer of a kind afloat than named, `left` how many of each such kind)",
         nation=NATION, order=INT, tf=TEXT, parent=TEXT, zone=PLACE, ships=UNITS, done=BOOL, why=optional(CODE),
         left=optional(UNITS)),
    spec("task-force-joined", "nation", "Phase 4 guideline 6: task force `tf` joined `into` in `zone` with `ships` "
         "(done), or could not (`done` false: either was held, turned back or retreated, or they were apart)",
         nation=NATION, order=INT, tf=TEXT, into=TEXT, zone=PLACE, ships=UNITS, done=BOOL),
    spec("radar-retreat", "nation", "Radar: a radar ship sighted aircraft coming to strike the nation's ships, "
         "which retreated by its WITHDRAW ... IF RADAR WARNS (`dest`: where they went)",
         nation=NATION, zone=PLACE, dest=PLACE, ships=UNITS),
    spec("blockade-held", "the two nations", "Phase 4.2.6: a blockade sighted a task force leaving its zone "
         "and held it there", nation=NATION, tf=TEXT, zone=PLACE, dest=PLACE, by=NATION),
    spec("unrestricted-submarine-warfare", "the two nations", "Phase 1.4 with 4.7: submarines in the targeted "
         "zones sank `damage` of the target's income this turn (1D10 each, at most the table's value)",
         nation=NATION, target=NATION, zones=PLACES, submarines=INT, damage=INT),
    spec("breakthrough-stopped", "nation", "Tanks: a breakthrough whose first territory was not captured, or "
         "with no tank of the nation left in it", nation=NATION, order=INT, origin=PLACE, dest=PLACE),
    spec("defenders-withdrew", "nation", "Phase 4.6: defending units disengaged from a battle by their "
         "conditions (`condition` as kind:value) and withdrew to a friendly neighbour",
         nation=NATION, battle=PLACE, dest=PLACE, units=UNITS, condition=TEXT),
    spec("us-trade-sunk", "the receiver and the submarines'", "Phase 4.7: submarines in a receiver's home "
         "waters sank `sunk` of its `amount` of US trade (1-5 each, at most the trade)", nation=NATION,
         by=NATIONS, zones=PLACES, submarines=INT, amount=INT, sunk=INT),
    spec("air-retreat", "participants", "Phase 4.5: an attacking nation's aircraft broke off the air combat by "
         "its BREAK OFF AIR COMBAT condition and flew home (no ground round, no bombing)",
         nation=NATION, territory=PLACE, condition=TEXT, rounds=INT, units=UNITS),
    spec("attack-intercepted", "the attacker and the interceptors", "Phase 4.5: enemy fighters met attacking "
         "aircraft over the places on their way to a battle further than next door (via, intercepted_over), "
         "or AA guns fired at them there (aa_over, aa_hits): "
         "rounds of air combat, planes lost, turned back short of fuel or broken off, those that flew on",
         nation=NATION, order=INT, dest=PLACE, via=PLACES, intercepted_over=PLACES, rounds=INT, lost=UNITS,
         interceptors_lost=UNITS, turned_back=UNITS, broke_off=UNITS, through=UNITS,
         aa_over=optional(PLACES), aa_hits=optional(INT)),
    spec("flight-intercepted", "the flyer, the interceptors and the gunners", "Phase 4.5: aircraft moving to "
         "friendly land (MOVE, step 4.4) or rebasing (REBASE, step 4.1.2) from further than next door met AA "
         "guns (aa_over, aa_hits) or enemy fighters (intercepted_over) over the places on their way (via): "
         "rounds of air combat, planes lost, turned back to their start short of fuel or broken off, those "
         "that flew on", nation=NATION, order=INT, origin=PLACE, dest=PLACE, rebase=BOOL, via=PLACES,
         intercepted_over=PLACES, aa_over=PLACES, aa_hits=INT, rounds=INT, lost=UNITS, interceptors_lost=UNITS,
         turned_back=UNITS, broke_off=UNITS, through=UNITS),
    spec("let-through", "nation", "Phase 4.5: the nation's fighters let the attacking aircraft go by (LET THROUGH)",
         nation=NATION, territory=PLACE, units=UNITS),
    spec("let-through-unused", "nation", "Phase 4.5: a LET THROUGH order whose fighters met no attacking aircraft "
         "at the place", nation=NATION, order=INT, territory=PLACE),
    spec("air-retreat-unused", "nation", "Phase 4.5: a BREAK OFF AIR COMBAT order whose aircraft met no "
         "interceptors at the place", nation=NATION, order=INT, territory=PLACE),
    spec("submarines-not-found", "nation", "Phase 4.2.9: a submarine hunt (a DETECT order, or a task force on "
         "a detect mission: `tf`) found nothing to fight; the same whether submarines were there or not",
         nation=NATION, order=INT, zone=PLACE, units=UNITS, tf=TEXT),
    spec("aircraft-landed", "nation", "Phase 4.6: aircraft left a battle and landed away from home (fuel), or "
         "fighters back aboard carriers (aboard)", nation=NATION, place=PLACE, battle=PLACE, units=UNITS,
         aboard=BOOL),
    spec("units-fell-back", "nation", "Phase 4.4: attackers whose home was taken meanwhile fell back (or were lost)",
         nation=NATION, origin=PLACE, dest=optional(PLACE), units=UNITS),
    spec("aircraft-lost", "nation", "Phase 4.6: aircraft with no friendly land in reach of their fuel",
         nation=NATION, battle=PLACE, units=UNITS),
    spec("rocket-fire", "participants", "Rockets (4.1.1): a FIRE order's shots, at units, a city or a complex",
         nation=NATION, order=INT, aim=CODE, target=PLACE, holder=optional(NATION), rockets=INT, hits=INT,
         protected=BOOL, losses=LOSSES, manpower=INT, resources=INT),
    spec("captured", "public", "Phase 4.4: a territory changed hands (an allied owner is liberated)",
         territory=PLACE, nation=NATION, holder=NATION, previous=optional(NATION)),
    # ---- Phases 5-8
    spec("plundered", "nation", "Phase 5: an industrial complex or port dismantled for resources",
         nation=NATION, order=INT, kind=KIND, place=PLACE, gained=INT),
    spec("incorporated", "nation", "Phase 6: a territory incorporated",
         nation=NATION, order=INT, territory=PLACE, cost=INT),
    spec("build-lost", "nation", "Phase 7: the place of paid units was lost during the turn",
         nation=NATION, kind=KIND, count=INT, place=PLACE, paid=INT),
    spec("placed", "nation", "Phase 7: new units placed (Phase 1.5: German option #7's submarine in the Adriatic)", nation=NATION, kind=KIND, count=INT, place=PLACE),
    spec("ship-repaired", "nation", "Phase 7: a ship repaired since 3.4 is whole again (3.4)",
         nation=NATION, kind=KIND, place=PLACE),
    spec("repair-cancelled", "nation", "Phase 7: a repair broken off, its money lost (3.4: lost, attacked, "
         "enemy-in-zone)", nation=NATION, kind=KIND, place=PLACE, reason=CODE),
    spec("strategic-arrived", "nation", "Phase 7: a rail move arrived",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, end=PLACE, units=UNITS),
    spec("strategic-cut-short", "nation", "Phase 7: a rail move's path was cut; the units stopped short",
         nation=NATION, order=INT, origin=PLACE, dest=PLACE, end=PLACE, units=UNITS),
    spec("income", "nation", "Phase 8: resources collected; saved is the mainland's treasury, kept_apart what "
         "of the amount stayed in territories separated from it (3.1)",
         nation=NATION, full=INT, rule=TEXT, amount=INT, saved=INT, kept_apart=INT),
    spec("income-held-apart", "nation", "Phase 8 (3.1): the share of the income kept in territories separated "
         "from the mainland (amounts), and what each of their treasuries holds now (held)",
         nation=NATION, amounts=MONEY, held=MONEY),
    spec("held-apart-lost", "nation", "Phase 8 (3.1): a separated territory's treasury lost with its territory",
         nation=NATION, place=PLACE, amount=INT),
    spec("us-trade", "nation", "Variable US Trade: resources from the neutral US's trade, collected in Phase 8",
         nation=NATION, amount=INT, saved=INT),
    spec("us-trade-cut", "nation", "Variable US Trade: this turn's trade was cut (a blockade, submarine warfare)",
         nation=NATION, amount=INT, reason=CODE, by=NATIONS),
    spec("transfer-by-sea", "the nation and the submarines'", "Phase 8 with 4.7: a transfer by sea; `sunk` "
         "by the submarines of `by` on its shortest paths", nation=NATION, order=INT, origin=PLACE, dest=PLACE,
         amount=INT, sunk=INT, by=NATIONS, paths=PATHS, saved=INT),
    spec("transfer-cut", "the nation and the cutters", "Phase 8 with 4.2.6: every shortest path of a transfer "
         "was blockaded: the money is lost, half of it to the cutters (`gained`)", nation=NATION, order=INT,
         origin=PLACE, dest=PLACE, amount=INT, by=NATIONS, gained=AMOUNTS, paths=PATHS),
    spec("gift", "giver and receiver", "Phase 8 note: a gift between allies",
         giver=NATION, receiver=NATION, sent=INT, arrived=INT),
    # ---- Phase 9
    spec("revolution", "public", "Phase 9, the Russian Revolution: stage 1, the Russian Republic (half its "
         "income kept for the Bolsheviks); stage 2, the rising (fund handed over, units turned)",
         stage=INT, fund=INT, units=INT),
    spec("revolution-ended", "public", "Phase 9: the Russian civil war is over; the winner takes the loser's "
         "Russian land, ports, complexes and ships", winner=NATION, territories=PLACES),
    spec("bolshevik-wars", "public", "Phase 9: after winning the civil war the Bolsheviks are at war with the "
         "nations holding Russian land (why: reunify), and, once Russia's start land is all theirs, with Russia's "
         "foes at the rising still on the map (why: reunified)", nations=NATIONS, why=CODE),
    spec("revolution-defections", "public", "Phase 9: Russian units built this turn defected (8-10)", units=INT),
    spec("mutineers-took-capital", "public", "Phase 9, Mutinies: the Mutineers hold the nation's capital; it "
         "offers its foes a surrender", nation=NATION, capital=PLACE),
    spec("socialist-revolution", "public", "Phase 9, Mutinies: repeated mutinies started a socialist revolution; "
         "the units in the provinces struck defected to the Mutineers, who hold and incorporate them",
         nation=NATION, provinces=PLACES),
    spec("rebels-command", "the commander and the moderator", "Phase 9, Mutinies: 'Such army is controlled by "
         "Bolshevik player or another free player': the nation's player commands the rebels (PROXY FOR)",
         nation=NATION, rebels=NATION, revolted=NATION),
    spec("mutiny", "nation and moderator", "Phase 9, Mutinies: units disbanded (or rebelled) in a territory",
         nation=NATION, severity=CODE, place=PLACE, units=UNITS, rebelled=BOOL),
    spec("starvation", "the nation and the moderator", "Phase 9, Starvation Rule: the enemy cordon held a "
         "second turn or more; the manpower limit falls (of `pool`, the nation whose limit its infantry count against, "
         "when not its own; `land`: the shut-in territories that starve, none for an island cordon; `colonies`: "
         "the colonies' limit fell, the pocket being all colonies)",
         nation=NATION, turns=INT, lost=INT, manpower=INT, pool=optional(NATION), land=optional(PLACES),
         colonies=optional(BOOL)),
    spec("starvation-ended", "the nation and the moderator", "Phase 9, Starvation Rule: the cordon is broken "
         "(`land`: the territories reached again, none for an island cordon)",
         nation=NATION, turns=INT, land=optional(PLACES)),
    spec("victory-standing", "the moderator; everyone from the historical end and at an outright victory", "Victory Conditions: a major "
         "nation's five criteria (percent), their geometric mean, its best army and naval force",
         nation=NATION, side=CODE, production_side=INT, production=INT, resources=INT, manpower=INT,
         objectives=INT, mean=INT, army=INT, navy=INT),
    spec("victory-side", "the moderator; everyone from the historical end and at an outright victory",
         "Victory Conditions: a side's average of its major nations' means", side=CODE, mean=INT),
    spec("victory-outright", "public", "Victory Conditions: every main-war nation of the other side conquered or "
         "surrendered", side=CODE, conquered=NATIONS),
    spec("rebellion", "public", "Phase 9: a rebellion in a conquered nation that rises (rebels_when_conquered)",
         nation=NATION, rebels=INT, freed=BOOL),
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
