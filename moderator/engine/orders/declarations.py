"""Phase 1.4: Other Declarations. CLOSE/OPEN a strait or canal, DECLARE (or RETRACT)
UNRESTRICTED SUBMARINE WARFARE, BLOCKADE [US TRADE TO] nation.

Straits and canals: "any nation holding (or controling) some of above mentioned straits
or canals may issue declaration of their closing for designated nation(s) passage"; the
General note concerning some straits: "Any nation holding at least one province of
Constantinople-Izmir strait, or of Constantinople-Sinope strait can disallow all naval
movement" (the map's passages and their controllers, maps/1914/passages.csv). Reading:
one declaration per passage per nation and turn.

Unrestricted submarine warfare: "any nation can declare Unrestricted Submarine Warfare
against any designated side ... Once anounced, the nation doing it cannot retract its
unrestricted submarine policy without spending 25 resources and never being able to use
unrestricted sub warfare for the rest of the war" (the cost: diplomacy.toml
[submarine_warfare]). The declaration and the retraction are recorded (records.py).
Reading: a declaration names a side, or a nation (the subs then hunt in its zones), never
the declarer's own side or an ally.

Naval blockade: "If main war nation has at least one surface ship in above mentioned sea
zones [the Phase 1.4 table], then she can declare Naval Blockade against target nation
... This option must be selected on a turn by turn basis." Variable US Trade: the zones
where ships or submarines cut the US trade to a nation while the US is neutral. Both
tables: diplomacy.toml [blockade], [us_trade]. Reading: the blockade is against a nation
the declarer is at war with; one ship of the right kind in one of the zones allows it.

All free but the retraction (25, charged at once). A closing bars the ships of the nations
it names from the passage in step 4.2 (engine/passages.py); a naval blockade cuts the
target's US trade (engine/us_trade.py) and its transfers through the table's zones where
the declarer has a surface ship (engine/sea_lanes.py): resolved, told to all. A closing's points with the
neutrals (the third points table, rows 1-4) and unrestricted submarine warfare's (row 5)
are drawn in Phase 9 (engine/standing_events.py); CLOSE, the submarine declaration (and
its retraction) and the blockade are resolved, none referred (the blockade mission's hold
on enemy ships leaving its zone is step 4.2's, engine/phase4_sea.py blockade).
"""

from __future__ import annotations

from moderator.engine.context import Position, TurnContext
from moderator.engine.names import nation_guesses, nation_id
from moderator.engine.orders.base import afford, once_per_turn
from moderator.engine.orders.records import SIDES, Referred, record, side_word
from moderator.engine.passages import CLOSED
from moderator.engine.problems import Problem, flag, problem, warning
from moderator.orders.model import Blockade, ClosePassage, SubWarfare

PHASE = "1.4"


# ---- straits and canals ----------------------------------------------------------------------
class ClosePassageRule(Referred[ClosePassage]):
    """Resolved by the engine: the closing bars ships in 4.2 (engine/passages.py) and costs
    the closer points with the neutrals in every Phase 9 it stands (engine/standing_events.py)."""

    order = ClosePassage
    section = PHASE

    def problem(self, pos: Position, nation: str, order: ClosePassage) -> Problem | None:
        closable = [p for p in pos.world.passages if p.controllers]
        passage = next((p for p in closable if p.name == order.passage), None)
        if passage is None:
            return problem("unknown-passage", order.passage, typed=order.passage, closable=[p.name for p in closable])
        if not any(pos.controller(t) == nation for t in passage.controllers):
            return problem("passage-not-held", order.passage, passage=passage.name, places=list(passage.controllers))
        return once_per_turn(pos, (nation, "passage", passage.name), "passage-twice", order.passage,
                             passage=passage.name)

    def execute(self, ctx: TurnContext, nation: str, index: int, order: ClosePassage) -> None:
        self.settle(ctx, nation, index, order)
        barred = sorted(n for t in order.nations if (n := nation_id(ctx.scenario, t)) is not None)
        ctx.emit("passage-closed", PHASE, (), nation=nation, passage=order.passage, barred=barred,
                 closed=order.close)  # a declaration: public

    def record(self, ctx: TurnContext, nation: str, order: ClosePassage) -> None:
        """The closing stands for later turns too (engine/passages.py reads it for naval
        movement); OPEN lifts it for the nations named, or wholly."""
        ctx.use((nation, "passage", order.passage))
        closed: dict[str, list[str]] = dict(ctx.state.nations[nation].flags.get(CLOSED, {}))
        if order.close:
            closed[order.passage] = sorted(order.nations)
        elif order.nations and closed.get(order.passage):
            closed[order.passage] = sorted(set(closed[order.passage]) - set(order.nations))
            if not closed[order.passage]:
                del closed[order.passage]
        else:
            closed.pop(order.passage, None)
        if closed:
            ctx.state.nations[nation].flags[CLOSED] = closed
        else:
            ctx.state.nations[nation].flags.pop(CLOSED, None)


# ---- unrestricted submarine warfare ---------------------------------------------------------
def subs_target(pos: Position, typed: str) -> str | Problem:
    """The side ("allied"/"central") or the nation id a declaration names."""
    if typed in SIDES:
        return typed
    nid = nation_id(pos.scenario, typed)
    if nid is None:
        return problem("unknown-nation", typed, typed=typed, guesses=nation_guesses(pos.scenario, typed))
    return nid


class SubWarfareRule(Referred[SubWarfare]):
    order = SubWarfare
    section = PHASE

    def problem(self, pos: Position, nation: str, order: SubWarfare) -> Problem | None:
        flags = pos.nation(nation).flags
        if order.retract:
            if not flags.get("unrestricted_subs"):
                return problem("subs-not-declared")
            twice = once_per_turn(pos, (nation, "subs"), "subs-twice")
            if twice is not None:
                return twice
            return afford(pos, nation, pos.scenario.diplomacy.retract_subs_cost,
                          "retracting unrestricted submarine warfare")
        if flags.get("unrestricted_subs_retracted") is not None:
            return problem("subs-retracted", turn=flags["unrestricted_subs_retracted"])
        target = subs_target(pos, order.target or "")
        if isinstance(target, Problem):
            return target
        if target in SIDES and target == side_word(pos.nation(nation).side):
            return problem("subs-own-side", order.target or "", side=target)
        if target not in SIDES and (target == nation or pos.allies(nation, target)):
            return problem("subs-ally", order.target or "", target=target)
        return once_per_turn(pos, (nation, "subs"), "subs-twice")

    def remarks(self, pos: Position, nation: str, order: SubWarfare) -> list[Problem]:
        if order.retract:
            return [warning("subs-retract-final")]
        target = subs_target(pos, order.target or "")
        if pos.nation(nation).flags.get("unrestricted_subs") == target:
            return [warning("subs-already")]
        return [warning("subs-consequence", cost=pos.scenario.diplomacy.retract_subs_cost)]

    def cost(self, pos: Position, nation: str, order: SubWarfare) -> int:
        return pos.scenario.diplomacy.retract_subs_cost if order.retract else 0

    def execute(self, ctx: TurnContext, nation: str, index: int, order: SubWarfare) -> None:
        """Resolved: paid (the retraction's 25) and recorded; the declaration is public news.
        What follows is the engine's: the damage in the targeted zones (step 4.7,
        engine/phase4_submarine_warfare.py), the neutrals' row 5 in every Phase 9 it stands
        (engine/standing_events.py), the US trade it cuts (engine/us_trade.py); a retraction
        ends them all (the flag is gone), for good."""
        self.settle(ctx, nation, index, order)
        target = "" if order.retract else subs_target(ctx, order.target or "")
        ctx.emit("submarine-warfare-declared", PHASE, (), nation=nation, target=str(target), retracted=order.retract,
                 cost=self.cost(ctx, nation, order))

    def record(self, ctx: TurnContext, nation: str, order: SubWarfare) -> None:
        ctx.use((nation, "subs"))
        if order.retract:
            ctx.state.nations[nation].flags.pop("unrestricted_subs", None)
            record(ctx, nation, "unrestricted_subs_retracted", ctx.turn)
        else:
            target = subs_target(ctx, order.target or "")
            assert isinstance(target, str)
            record(ctx, nation, "unrestricted_subs", target)


# ---- naval blockade ---------------------------------------------------------------------------
def blockade_zones(pos: Position, order: Blockade) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(sea zones, ship kinds that count) for a blockade of the target, or None."""
    d = pos.scenario.diplomacy
    if order.us_trade:
        zones = d.us_trade.get(order.target)
        return (zones, d.us_trade_ships) if zones is not None else None
    row = pos.scenario.unrestricted.get(order.target)  # the one Phase 1.4 table
    return (row.zones, d.blockade_ships) if row is not None else None


class BlockadeRule(Referred[Blockade]):
    """Resolved by the engine: the declaration is public (blockade-declared) and its effects
    follow from it, the US trade cut (engine/us_trade.py, with the US Entry's outcry,
    engine/us_entry.py) and the transfers cut (engine/sea_lanes.py); nothing is left to
    the moderator (a soak of bots once sent 84 needless referrals to the queue)."""

    order = Blockade
    section = PHASE

    def problem(self, pos: Position, nation: str, order: Blockade) -> Problem | None:
        target = order.target
        if pos.nation(nation).side == "neutral":
            return problem("blockade-neutral")
        if not pos.at_war(nation, target):
            return problem("not-at-war", order.target, target=target)
        trader = pos.scenario.diplomacy.us_trader
        if order.us_trade and trader and pos.nation(trader).side != "neutral":
            return problem("blockade-no-us-trade", order.target, target=target, trader=trader, neutral=False)
        table = blockade_zones(pos, order)
        if table is None:
            code = "blockade-no-us-trade" if order.us_trade else "blockade-no-zones"
            return problem(code, order.target, target=target, trader=trader, neutral=True)
        zones, ships = table
        on_map = [z for z in zones if z in pos.world.territories]
        if on_map and not any(pos.count(nation, z, kind) for z in on_map for kind in ships):
            return problem("blockade-no-ship", order.target, target=target, zones=on_map, us_trade=order.us_trade)
        return once_per_turn(pos, self._key(nation, order), "blockade-twice", order.target, target=target)

    def remarks(self, pos: Position, nation: str, order: Blockade) -> list[Problem]:
        table = blockade_zones(pos, order)
        if table is not None and not any(z in pos.world.territories for z in table[0]):
            return [flag("blockade-zones-unknown", order.target, target=order.target, zones=list(table[0]))]
        return []

    @staticmethod
    def _key(nation: str, order: Blockade) -> tuple[str, ...]:
        return (nation, "blockade", order.target, "us-trade" if order.us_trade else "naval")

    def execute(self, ctx: TurnContext, nation: str, index: int, order: Blockade) -> None:
        self.settle(ctx, nation, index, order)
        ctx.emit("blockade-declared", PHASE, (), nation=nation, target=order.target, us_trade=order.us_trade)

    def record(self, ctx: TurnContext, nation: str, order: Blockade) -> None:
        ctx.use(self._key(nation, order))


CLOSE = ClosePassageRule()
SUBS = SubWarfareRule()
BLOCKADE = BlockadeRule()
RULES = (CLOSE, SUBS, BLOCKADE)
