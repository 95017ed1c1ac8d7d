"""Checks of diplomatic, technology and economic orders (Phases 1, 2, 5, 6, 8).

Each check returns the order with canonical names (nation ids, map names), or None
when it is dropped; problems go to ctx as diagnostics.
"""

from __future__ import annotations

from dataclasses import replace

from moderator.orders import model as m
from moderator.orders import options as opt
from moderator.orders.context import SELF_WORDS, Ctx
from moderator.orders.diagnostics import FLAG, WARNING
from moderator.orders.vocab import TECHNOLOGIES, UPGRADE_TECH
from moderator.world.model import fold


def group(ctx: Ctx, nid: str) -> str | None:
    n = ctx.scenario.nations.get(nid)
    return opt.group_of(nid, (n.name, *n.aliases) if n else ())


def once(ctx: Ctx, o: m.Order, key: tuple[str, ...], message: str, code: str) -> bool:
    """Per-turn limits: the second identical attempt is an error."""
    if key in ctx.seen:
        ctx.error(o, message, code)
        return False
    ctx.seen.add(key)
    return True


def review(ctx: Ctx, o: m.Order, why: str) -> None:
    ctx.report(o, FLAG, f"sent to the moderator for review: {why}", "review")


# ---- Phase 1.1 ---------------------------------------------------------------------------
def declare_war(o: m.DeclareWar, ctx: Ctx) -> m.Order | None:
    target = ctx.nation_id(o, o.target)
    if target is None:
        return None
    if target == ctx.nation:
        ctx.error(o, "a nation cannot declare war on itself", "war-self", o.target)
        return None
    if ctx.state.allies(ctx.nation, target):
        ctx.error(o, f"{ctx.nation_name(target)} is your ally; allies cannot change sides "
                     "(Cooperation)", "war-ally", o.target)
        return None
    if ctx.state.at_war(ctx.nation, target):
        ctx.report(o, WARNING, f"you are already at war with {ctx.nation_name(target)}; "
                               "nothing to declare", "already-at-war", o.target)
    elif ctx.me.side == "neutral":
        review(ctx, o, "wars declared by neutral nations follow their own rules (local and "
                       "limited wars, Congress votes, gear-up first)")
    return replace(o, target=target)


# ---- Phase 1.2 ---------------------------------------------------------------------------
def influence(o: m.Influence, ctx: Ctx) -> m.Order | None:
    me = ctx.nation
    target = me if fold(o.target) in SELF_WORDS else ctx.nation_id(o, o.target)
    if target is None:
        return None
    if target == me:
        return _self_influence(o, ctx)
    ts = ctx.nation_state(target)
    tn = ctx.scenario.nations.get(target)
    if ts.side != "neutral":
        ctx.error(o, f"{ctx.nation_name(target)} is already in the war; only neutrals can be "
                     "influenced (Phase 1.2)", "influence-not-neutral", o.target)
        return None
    if tn is not None and tn.no_influence:
        review(ctx, o, f"{ctx.nation_name(target)} cannot be influenced unless your nation gave it "
                       "a territory (China)")
    mine = group(ctx, me)
    if ctx.me.side == "neutral" and mine != "usa":
        ctx.error(o, "only nations already in the main war make influence attempts (Phase 1.2)",
                  "influence-neutral")
        return None
    if mine == "usa" and ctx.me.side == "neutral" and o.toward is None:
        ctx.error(o, "the US influences a minor toward a side: INFLUENCE Persia TOWARD Allies "
                     "(US option #5)", "influence-side", o.target)
        return None
    if not once(ctx, o, ("influence", target), f"only one influence attempt on "
                f"{ctx.nation_name(target)} per turn (Phase 1.2)", "influence-twice"):
        return None
    if tn is not None and tn.influence_on_ten_only:
        ctx.report(o, WARNING, f"{ctx.nation_name(target)} is marked * in the rules: the attempt "
                               "succeeds only on a roll of 10", "influence-ten")
    cost = 15 if (mine == "usa" and ctx.me.side == "neutral") else 10
    if not ctx.spend(o, cost, f"an influence attempt on {ctx.nation_name(target)}"):
        return None
    return replace(o, target=target)


def _self_influence(o: m.Influence, ctx: Ctx) -> m.Order | None:
    g = group(ctx, ctx.nation)
    if g not in opt.SELF_INFLUENCE:
        ctx.error(o, "your nation cannot influence itself; only the Ottoman Empire, Italy, Spain "
                     "and China can", "self-influence")
        return None
    cost, only = opt.SELF_INFLUENCE[g]
    toward = o.toward or only
    if toward is None:
        ctx.error(o, "say toward which side: INFLUENCE SELF TOWARD Allies", "influence-side")
        return None
    if only is not None and toward != only:
        ctx.error(o, "the Ottoman Empire can influence itself only toward the Allied Powers",
                  "influence-side")
        return None
    if g in ("spain", "china", "italy"):
        review(ctx, o, "self-influence needs the raised economy (Spain, China) or the moderator's "
                       "reading of the rules (Italy)")
    if not once(ctx, o, ("influence", ctx.nation), "only one self-influence attempt per turn",
                "influence-twice"):
        return None
    if not ctx.spend(o, cost, "influencing your own nation"):
        return None
    return replace(o, target=ctx.nation, toward=toward)


# ---- Phase 1.3 / Surrender -----------------------------------------------------------------
def offer_surrender(o: m.OfferSurrender, ctx: Ctx) -> m.Order | None:
    ids: list[str] = []
    for typed in o.to:
        nid = ctx.nation_id(o, typed)
        if nid is None:
            return None
        if not ctx.state.at_war(ctx.nation, nid):
            ctx.error(o, f"you are not at war with {ctx.nation_name(nid)}", "not-at-war", typed)
            return None
        ids.append(nid)
    if ctx.me.flags.get("surrendered"):
        ctx.error(o, "a nation may surrender only once per game (Surrender)", "surrender-twice")
        return None
    if not ctx.me.at_war_with:
        ctx.error(o, "you are not at war with anyone", "not-at-war")
        return None
    review(ctx, o, "the surrender is put to the vote of the nations concerned")
    return replace(o, to=tuple(ids))


def surrender_vote(o: m.SurrenderVote, ctx: Ctx) -> m.Order | None:
    nid = ctx.nation_id(o, o.nation)
    if nid is None:
        return None
    if not ctx.state.at_war(ctx.nation, nid):
        ctx.report(o, WARNING, f"you are not at war with {ctx.nation_name(nid)}; your vote "
                               "counts only if it offers you its surrender", "not-at-war", o.nation)
    return replace(o, nation=nid)


# ---- Phase 1.4 ------------------------------------------------------------------------------
def close_passage(o: m.ClosePassage, ctx: Ctx) -> m.Order | None:
    passage = _passage(ctx, o.passage)
    if passage is None:
        names = ", ".join(p.name for p in ctx.world.passages if p.controllers)
        ctx.error(o, f'"{o.passage}" is not a strait or canal that can be closed. These can: '
                     f"{names}", "unknown-passage", o.passage)
        return None
    held = [t for t in passage.controllers if ctx.state.controller(t) == ctx.nation]
    if not held:
        ctx.error(o, f"you must hold {' or '.join(passage.controllers)} to close or open "
                     f"{passage.name} (Straits)", "passage-not-held", o.passage)
        return None
    ids: list[str] = []
    for typed in o.nations:
        nid = ctx.nation_id(o, typed)
        if nid is None:
            return None
        ids.append(nid)
    return replace(o, passage=passage.name, nations=tuple(sorted(ids)))


def _passage(ctx: Ctx, typed: str):  # type: ignore[no-untyped-def]
    key = fold(typed)
    closable = [p for p in ctx.world.passages if p.controllers]
    for p in closable:
        if fold(p.name) == key:
            return p
    place = ctx.world.resolve(typed)
    for p in closable:
        if place is not None and (place in p.controllers or place in p.ends):
            return p
    for p in closable:
        if key and key in fold(p.name):
            return p
    return None


def sub_warfare(o: m.SubWarfare, ctx: Ctx) -> m.Order | None:
    flags = ctx.me.flags
    if o.retract:
        if flags.get("unrestricted_subs") is False or not flags.get("unrestricted_subs", True):
            ctx.error(o, "you have not declared unrestricted submarine warfare", "subs-not-declared")
            return None
        if not ctx.spend(o, 25, "retracting unrestricted submarine warfare"):
            return None
        ctx.report(o, WARNING, "after retracting, you can never declare unrestricted submarine "
                               "warfare again (Phase 1.4)", "subs-retract-final")
        return o
    if flags.get("unrestricted_subs_retracted"):
        ctx.error(o, "you retracted unrestricted submarine warfare earlier and can never declare "
                     "it again (Phase 1.4)", "subs-retracted")
        return None
    target = o.target or ""
    if target not in ("allied", "central"):
        nid = ctx.nation_id(o, target)
        if nid is None:
            return None
        target = nid
    ctx.report(o, WARNING, "neutrals lose 0-1 points per turn toward you while it lasts; "
                           "retracting later costs 25", "subs-consequence")
    return replace(o, target=target)


def blockade(o: m.Blockade, ctx: Ctx) -> m.Order | None:
    nid = ctx.nation_id(o, o.target)
    if nid is None:
        return None
    if ctx.me.side == "neutral":
        ctx.error(o, "only nations in the main war may declare a naval blockade (Phase 1.4)",
                  "blockade-neutral")
        return None
    if not ctx.state.at_war(ctx.nation, nid):
        ctx.error(o, f"you are not at war with {ctx.nation_name(nid)}", "not-at-war", o.target)
        return None
    table = opt.US_TRADE_ZONES if o.us_trade else opt.BLOCKADE_ZONES
    zones = [ctx.world.resolve(z) for z in table.get(group(ctx, nid) or "", ())]
    known = [z for z in zones if z]
    if not known:
        review(ctx, o, f"the blockade zones of {ctx.nation_name(nid)} are checked by the moderator")
    else:
        surface = ("battleship", "cruiser", "carrier", "transport")
        if not any(ctx.own_count(z, k) for z in known for k in surface):
            ctx.error(o, f"a blockade needs at least one of your surface ships in {' or '.join(known)} "
                         "(Phase 1.4)", "blockade-no-ship", o.target)
            return None
    return replace(o, target=nid)


# ---- Phase 1.5 ------------------------------------------------------------------------------
def special_option(o: m.SpecialOption, ctx: Ctx) -> m.Order | None:
    g = group(ctx, ctx.nation)
    table = opt.options_for(g, ctx.me.side)
    if not table:
        why = (" while neutral" if g == "britain" else "")
        ctx.error(o, f"your nation has no numbered special options{why}", "no-options")
        return None
    spec = table.get(o.number)
    if spec is None:
        listing = "; ".join(f"#{n} {s.title}" for n, s in sorted(table.items()))
        ctx.error(o, f"there is no option #{o.number} for your nation. Yours are: {listing}",
                  "unknown-option", str(o.number))
        return None
    for need in spec.needs:
        if getattr(o, need) is None:
            ctx.error(o, f"option #{o.number} ({spec.title}) needs {need_text(need)}", "option-args")
            return None
    target = o.target
    if target is not None:
        target = ctx.nation_id(o, target)
        if target is None:
            return None
    if spec.once and not once(ctx, o, ("option", str(o.number)),
                              f"option #{o.number} can be used once per turn", "option-twice"):
        return None
    cost = spec.cost + (o.amount or 0 if spec.amount_spent else 0)
    if g == "japan" and o.number == 4 and o.full:
        cost += 15
    if g == "usa" and o.number == 3 and (o.amount or 0) < 5:
        ctx.error(o, "the US lends at least 5 resources (US option #3)", "option-args")
        return None
    if not ctx.spend(o, cost, f"option #{o.number} ({spec.title})"):
        return None
    if spec.review or spec.once == "game":
        review(ctx, o, spec.review or "an option allowed once per game")
    return replace(o, target=target)


def need_text(need: str) -> str:
    return {"target": "a nation: OPTION 2 ON Mexico", "amount": "an amount: OPTION 2 20",
            "toward": "a side: OPTION 4 TOWARD Allies"}[need]


def gear_up(o: m.GearUp, ctx: Ctx) -> m.Order | None:
    g = group(ctx, ctx.nation)
    if g not in opt.GEAR_UP_COST:
        ctx.error(o, "only Japan, the US, China and Spain gear up their economy", "no-gear-up")
        return None
    if ctx.me.flags.get("geared_up"):
        ctx.error(o, "your economy is already geared up", "already-geared")
        return None
    if not once(ctx, o, ("gear",), "GEAR UP given twice", "gear-twice"):
        return None
    table = ctx.scenario.extra.get("gear_up", {})
    entry = table.get(ctx.nation) if isinstance(table, dict) else None
    cost = int(entry.get("cost", opt.GEAR_UP_COST[g])) if isinstance(entry, dict) else opt.GEAR_UP_COST[g]
    return o if ctx.spend(o, cost, "gearing up") else None


def coax_italy(o: m.CoaxItaly, ctx: Ctx) -> m.Order | None:
    italy = ctx.resolve_nation("italy")
    if italy is None or italy == ctx.nation:
        ctx.error(o, "Italy is not a nation you can coax", "coax-not-italy")
        return None
    if ctx.nation_state(italy).side != "neutral":
        ctx.error(o, "Italy is already in the war", "coax-not-neutral")
        return None
    if not once(ctx, o, ("coax",), "only one attempt to coax Italy per turn", "coax-twice"):
        return None
    return o if ctx.spend(o, 20, "coaxing Italy") else None


def join_side(o: m.JoinSide, ctx: Ctx) -> m.Order | None:
    if ctx.me.side != "neutral":
        ctx.error(o, "your nation is already in the main war", "already-joined")
        return None
    review(ctx, o, "joining needs 10 points toward that side; the moderator checks them")
    return o


def peace(o: m.Peace, ctx: Ctx) -> m.Order | None:
    nid = ctx.nation_id(o, o.nation)
    if nid is None:
        return None
    if not ctx.state.at_war(ctx.nation, nid):
        ctx.error(o, f"you are not at war with {ctx.nation_name(nid)}", "not-at-war", o.nation)
        return None
    review(ctx, o, "a cease of hostilities needs both nations to agree")
    return replace(o, nation=nid)


def gift(o: m.Gift, ctx: Ctx) -> m.Order | None:
    nid = ctx.nation_id(o, o.to)
    if nid is None:
        return None
    us_neutral = group(ctx, ctx.nation) == "usa" and ctx.me.side == "neutral"
    if nid == ctx.nation:
        ctx.error(o, "you cannot gift resources to yourself", "gift-self", o.to)
        return None
    if us_neutral:
        if ctx.nation_state(nid).side == "neutral":
            ctx.error(o, "the US lends only to nations in the main war (US option #3)", "gift-neutral", o.to)
            return None
        if o.amount < 5:
            ctx.error(o, "the US gifts at least 5 resources (US option #3)", "bad-number")
            return None
    elif not ctx.state.allies(ctx.nation, nid):
        ctx.error(o, f"gifts go only to allies; {ctx.nation_name(nid)} is not your ally (Phase 8)",
                  "gift-not-ally", o.to)
        return None
    else:
        ctx.report(o, WARNING, "only half of a gift (rounded up) arrives, in Phase 8, unless a "
                               "special option says otherwise", "gift-half")
    return replace(o, to=nid) if ctx.spend(o, o.amount, "this gift") else None


def exile(o: m.Exile, ctx: Ctx) -> m.Order | None:
    nid = ctx.nation_id(o, o.host)
    if nid is None:
        return None
    if nid == ctx.nation or not ctx.state.allies(ctx.nation, nid):
        ctx.error(o, "the host of a government in exile must be an ally (Conquest)", "exile-host", o.host)
        return None
    review(ctx, o, "a government in exile is possible only once your nation is conquered")
    return replace(o, host=nid)


# ---- Phase 2 ---------------------------------------------------------------------------------
def research(o: m.Research, ctx: Ctx) -> m.Order | None:
    name, levels, _ = TECHNOLOGIES[o.tech]
    if ctx.tech_level(o.tech) >= levels:
        ctx.error(o, f"you have already reached the last level of {name}", "tech-complete")
        return None
    if not once(ctx, o, ("research", o.tech), f"only one research attempt on {name} per turn "
                "(Phase 2.1)", "research-twice"):
        return None
    return o if ctx.spend(o, 10, f"research on {name}") else None


def upgrade(o: m.Upgrade, ctx: Ctx) -> m.Order | None:
    if not any(ctx.tech_level(t) for t in UPGRADE_TECH[o.kind]):
        ctx.error(o, "you have no new technology for this unit type to upgrade to (Phase 2.2)",
                  "nothing-to-upgrade")
        return None
    if not any(u.kind == o.kind for u in ctx.state.nation_units(ctx.nation)):
        ctx.report(o, WARNING, "you have no units of this type to upgrade", "nothing-to-upgrade")
    review(ctx, o, "the upgrade cost (new minus old cost plus 10% per unit) is charged by the moderator")
    return o


# ---- Phases 5, 6, 8 ---------------------------------------------------------------------------
def plunder(o: m.Plunder, ctx: Ctx) -> m.Order | None:
    place = ctx.territory(o, o.place)
    if place is None:
        return None
    t = ctx.world.territories[place]
    if ctx.state.controller(place) != ctx.nation or t.owner == ctx.nation:
        ctx.error(o, "you can plunder only conquered territories you hold (Phase 5)", "plunder-not-held", o.place)
        return None
    since = ctx.state.incorporated.get(place)
    if since is None or since >= ctx.state.turn - 1:
        ctx.error(o, f"{place} must be incorporated and held at least one full turn (Phase 5)",
                  "plunder-too-soon", o.place)
        return None
    present = getattr(t, o.kind) or any(u.kind == o.kind for u in ctx.state.units_at(place))
    if not present:
        ctx.error(o, f"there is no {'industrial complex' if o.kind == 'industry' else 'port'} in {place}",
                  "plunder-nothing", o.place)
        return None
    return replace(o, place=place)


def incorporate(o: m.Incorporate, ctx: Ctx) -> m.Order | None:
    place = ctx.territory(o, o.territory)
    if place is None:
        return None
    t = ctx.world.territories[place]
    if t.is_sea or ctx.state.controller(place) != ctx.nation:
        ctx.error(o, f"you do not control {place}", "incorporate-not-held", o.territory)
        return None
    if t.owner == ctx.nation:
        ctx.report(o, WARNING, f"{place} is your own original territory: reincorporating it is free "
                               "and it yields half income from the second turn (Phase 6)", "reincorporate")
        return replace(o, territory=place)
    if place in ctx.state.incorporated:
        ctx.error(o, f"{place} is already incorporated", "already-incorporated", o.territory)
        return None
    if not once(ctx, o, ("incorporate", place), f"{place} is incorporated twice", "incorporate-twice"):
        return None
    return replace(o, territory=place) if ctx.spend(o, 2 * t.value, f"incorporating {place}") else None


def transfer(o: m.Transfer, ctx: Ctx) -> m.Order | None:
    a, b = ctx.territory(o, o.origin), ctx.territory(o, o.dest)
    if a is None or b is None:
        return None
    for place, typed in ((a, o.origin), (b, o.dest)):
        if ctx.state.controller(place) != ctx.nation:
            ctx.error(o, f"you do not control {place}", "transfer-not-held", typed)
            return None
    if a == b:
        ctx.error(o, "a transfer needs two different territories", "transfer-same")
        return None
    return replace(o, origin=a, dest=b)


def note(o: m.Note, ctx: Ctx) -> m.Order | None:
    review(ctx, o, "a note to the moderator")
    return o
