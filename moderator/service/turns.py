"""Resolving a turn at its deadline, sending the reports, and replaying past turns.

Resolution reads only stored inputs (the turn's snapshot, the moderator's "now" rulings
of the turn, the current submissions' normalized orders, the "next" rulings, the game's
seed and ruleset), and the TurnRecord keeps all of them but the snapshot and the seed,
which are stored already; so `replay` can run it again later, with the rules the turn
was played with, and must get the same bytes (Deterministic and auditable).
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from moderator.engine import missed_turn
from moderator.engine.dice import DICE_SCHEME, VERIFIABLE_SCHEME, Dice, commitment, recompute, turn_seed
from moderator.engine.events import Event
from moderator.engine.phase9_mutiny import commander_of
from moderator.engine.resolve import resolve
from moderator.engine.ruleset import Ruleset
from moderator.engine.state import GameState
from moderator.mail.compose import AUTO_GENERATED, Attachment, compose, inline_image
from moderator.orders import parse_orders
from moderator.orders.messages import counted
from moderator.reports.build import Built, Part, Report, TurnInfo, draw_maps, report_parts, with_map
from moderator.reports.mapfiles import map_files
from moderator.reports.mapview import draw_view
from moderator.reports.render import render, render_failures
from moderator.service.calendar import planned_deadline
from moderator.service.context import Service
from moderator.service.corrections import CORRECTING, first_resolution, withdraw_items
from moderator.service.faults import crash_point
from moderator.service.games import corrections_until, describe_deadline, turn_label
from moderator.service.inbox import queue
from moderator.service.missed import play_missed_turns
from moderator.service.pool import offer_open_seats
from moderator.service.review import items_from_resolution
from moderator.service.rulings import apply_now, moderator_orders, pending
from moderator.service.site import publish_after_update
from moderator.store.tables import Game, TurnRecord


class ReplayUnavailable(LookupError):
    """A turn resolved with rules this installation does not have: it cannot be replayed here."""


@dataclass
class Inputs:
    """What the resolution of one turn reads besides its snapshot and the game's seed."""

    orders: dict[str, str]  # nation -> normalized orders
    ruleset: Ruleset
    now: list[str] = field(default_factory=list)  # rulings applied to the snapshot first, in order
    next: list[str] = field(default_factory=list)  # rulings carried out in step R
    dice_scheme: int = DICE_SCHEME  # how the dice derive from the seed (engine/dice.py)

    def rulings_json(self) -> str:
        return json.dumps({"now": self.now, "next": self.next}, sort_keys=True)


@dataclass
class Resolution:
    state: GameState
    events: list[Event]
    dice: list[dict[str, Any]]
    orders: dict[str, str]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.state.dumps().encode()).hexdigest()


def compute(svc: Service, game: Game, turn: int, inputs: Inputs) -> Resolution:
    """The pure part: snapshot + "now" rulings + orders + "next" rulings + seed -> new
    state, events (the "now" rulings' first, so the reports say what the moderator
    changed during the turn), dice log (hand rolls of rulings included)."""
    world, scenario = svc.world(game), svc.scenario(game)
    dice = Dice(game.seed, turn, scheme=inputs.dice_scheme)
    state, ruled = apply_now(svc.state(game, turn), inputs.now, world, scenario, inputs.ruleset, dice)
    orders = {nation: parse_orders(text).orders for nation, text in sorted(inputs.orders.items())}
    orders.update(moderator_orders(inputs.next))
    new_state, events = resolve(state, orders, world, scenario, dice, inputs.ruleset)
    return Resolution(new_state, [*ruled, *events], [r.to_json() for r in dice.log],
                      dict(sorted(inputs.orders.items())))


def turn_inputs(svc: Service, game: Game, ruleset: Ruleset) -> Inputs:
    """The current turn's stored inputs, as a resolution now would read them."""
    subs = svc.store.current_submissions(game.id, game.turn)
    now, later = pending(svc, game)
    return Inputs({n: s.normalized for n, s in subs.items()}, ruleset, now, later)


def recorded_inputs(record: TurnRecord) -> Inputs:
    """A resolved turn's inputs as its record keeps them, with the rules it was played with."""
    from moderator.rulesets import registry

    reg = registry()
    if record.ruleset_version not in reg.versions(record.ruleset):
        have = ", ".join(f"v{v}" for v in reg.versions(record.ruleset)) or "no version of it"
        raise ReplayUnavailable(
            f"turn {record.turn} of {record.game_id} was resolved with {record.ruleset} v{record.ruleset_version}, "
            f"which this moderator does not have (it has {have}), so it cannot be replayed here; replay it "
            f"with a moderator that has {record.ruleset} v{record.ruleset_version} installed")
    rulings = json.loads(record.rulings or "{}")
    return Inputs(json.loads(record.orders), reg.get(record.ruleset, record.ruleset_version),
                  list(rulings.get("now", [])), list(rulings.get("next", [])), record.dice_scheme)


class AlreadyResolved(RuntimeError):
    """The turn was resolved (by another process) while this resolution was computed."""


class GameFinished(RuntimeError):
    """The game is over (`moderator game finish`): there is no turn left to resolve."""


def resolve_game(svc: Service, game_id: str) -> Resolution:
    """_resolve_game() while holding the game's resolution lock (Store.resolving): on a shared
    database the daemon that resolves the game holds it until the turn is committed or has
    failed; AlreadyResolved if another process holds it."""
    with svc.store.resolving(game_id) as mine:
        if not mine:
            raise AlreadyResolved(f"{game_id} is being resolved by another process")
        return _resolve_game(svc, game_id)


def _resolve_game(svc: Service, game_id: str) -> Resolution:
    """Resolve the current turn of a game, store everything, queue the reports.

    One unit of work (issue 11): the turn is computed and its reports built in memory,
    then the new snapshot, the turn record, the new turn and deadline, the review items
    and every queued report are committed in ONE transaction. A crash or an error before
    that commit leaves the turn open, as if nothing had happened, and the failure visible
    (mark_failed); the next deadline check resolves it again, with the same dice, so the
    same result. A report that cannot be built for one audience does not hold up the
    others: the moderator is told which (report_failures)."""
    game = svc.game(game_id)
    if game.status == "finished":
        raise GameFinished(f"game {game.id} is finished (`moderator game finish`): it has no more turns")
    turn = game.turn
    ruleset = svc.ruleset(game)
    if (ruleset.name, ruleset.version) != (game.ruleset, game.ruleset_version):
        svc.say(f"{game.id} was played with {game.ruleset} v{game.ruleset_version}, which this moderator no longer "
                f"has; turn {turn} is resolved with {ruleset.key}, and the game goes on with it")
    # A turn resolved before and opened again (`moderator rollback`): this resolution corrects it.
    previous = first_resolution(svc, game, turn)
    correction = f"on {describe_deadline(_utc(previous.resolved))}" if previous is not None else ""
    # Orders arriving meanwhile are told to wait; another daemon on the database passes the turn by.
    if not svc.store.claim_turn(game.id, turn):
        raise AlreadyResolved(f"turn {turn} of {game.id} is being resolved by another process, or was resolved")
    try:
        missed_defaults = play_missed_turns(svc, game)  # stored as the seats' orders, so a replay plays them too
        inputs = turn_inputs(svc, game, ruleset)
        subs = {n: o for n, o in inputs.orders.items() if n not in {m.nation for m in missed_defaults}}
        res = compute(svc, game, turn, inputs)
        crash_point("turn.computed")
        now = svc.clock()
        deadline = planned_deadline(svc, now, game)  # counted again once the reports are out (keep_full_turn)
        if previous is not None and game.deadline is not None and _utc(game.deadline) > now:
            deadline = game.deadline  # the next turn keeps the deadline its players were given
        after = game.model_copy(update={"turn": turn + 1, "deadline": deadline,
                                        "status": "open", "problem": "", "ruleset": ruleset.name,
                                        "ruleset_version": ruleset.version})
        reports: list[Report] = []
        failed: list[str] = []
        unrendered: list[str] = []
        if svc.mail is not None or svc.reports_dir is not None:
            started = time.perf_counter()
            with render_failures() as unrendered:  # events told in plain words: the moderator is told
                reports, failed = build_all_reports(svc, after, turn, res, ordered=sorted(subs), updated=now,
                                                    dice_scheme=inputs.dice_scheme, correction=correction)
            svc.report_seconds += time.perf_counter() - started
            if correction:
                for report in reports:
                    report.subject = f"CORRECTION: {report.subject}"
        crash_point("turn.reports-built")
        missing = sorted(s.nation for s in svc.store.seats(game.id) if s.nation not in subs)
        missed = missed_in_a_row(svc, game, turn, sorted(subs)) if previous is None else {}
        with svc.store.transaction():
            locked = svc.store.lock_game(game.id)  # a second resolution of the turn waits here, then stops
            if locked is None or locked.turn != turn:
                raise AlreadyResolved(f"turn {turn} of {game.id} was resolved meanwhile by another process")
            svc.store.save_snapshot(game.id, turn + 1, res.state.dumps())
            svc.store.save_turn(TurnRecord(
                game_id=game.id, turn=turn, orders=json.dumps(res.orders, sort_keys=True),
                events=json.dumps([e.to_json() for e in res.events], sort_keys=True),
                dice=json.dumps(res.dice), result_sha256=res.sha256, resolved=now,
                ruleset=ruleset.name, ruleset_version=ruleset.version, rulings=inputs.rulings_json(),
                dice_scheme=inputs.dice_scheme, corrects=previous.id if previous is not None else None))
            withdrawn = withdraw_items(svc, game, turn) if previous is not None else []
            game = svc.store.update_game(game.id, turn=after.turn, deadline=after.deadline, status="open",
                                         problem="", ruleset=ruleset.name, ruleset_version=ruleset.version)
            # Orders the moderator must resolve and defaults the engine chose: each waits for a decision.
            items = items_from_resolution(svc, game, turn, res.events)
            items += unrendered_items(svc, game, turn, unrendered)
            if svc.mail is not None:
                queued = queue_reports(svc, game, reports, res.state)
                try:
                    queue_moderator_copy(svc, game, turn, res, ordered=sorted(subs), missing=missing, items=items,
                                         correction=correction)
                except Exception as exc:  # noqa: BLE001 - the players' reports go out regardless
                    failed.append(f"moderator: {type(exc).__name__}: {exc}")
                try:  # a seat falling vacant is offered to the replacement pool (service/pool.py)
                    offers = offer_open_seats(svc, game, missed, {n: st.side for n, st in res.state.nations.items()})
                    if offers:
                        svc.say(f"offered to the replacement pool: {', '.join(offers)}")
                except Exception as exc:  # noqa: BLE001 - the turn and its reports go out regardless
                    failed.append(f"pool: {type(exc).__name__}: {exc}")
                report_failures(svc, game, turn, failed)
        crash_point("turn.committed")
    except AlreadyResolved:
        raise  # not a failure: another process resolved it (and stored the game's state)
    except Exception as exc:
        mark_failed(svc, game_id, turn, exc)
        raise
    if previous is not None:
        svc.say(f"turn {turn} of {game.id} resolved again: a CORRECTION of the resolution {correction}; "
                f"`moderator replay --game {game.id} --turn {turn}` shows what changed"
                + (f"; {counted(len(withdrawn), 'review item')} of the first resolution withdrawn" if withdrawn else ""))
    svc.say(f"resolved {game.id} turn {turn}: {len(res.events)} events, {len(res.dice)} dice rolled; "
            f"orders from {', '.join(sorted(subs)) or 'nobody'}"
            + (f"; no orders from {', '.join(missing)}" if missing else ""))
    if items:
        svc.say(f"{counted(len(items), 'item')} for review from turn {turn}: `moderator review list --game {game.id}`")
    publish_after_update(svc, game)  # [site]: the new map and bulletin on the game's page (Miscellaneous)
    if svc.mail is None and svc.reports_dir is not None:
        folder = write_report_files(svc.reports_dir, game.id, turn, reports)
        svc.say(f"no [mail] settings in the configuration, so no report was mailed: the {len(reports)} reports of "
                f"turn {turn} were written to {folder} (one folder per audience: report.txt, report.html, "
                "report.json, map.png); send them to the players yourself"
                + (f"; NO report for {'; '.join(failed)}" if failed else ""))
    elif svc.mail is None:
        svc.say("no [mail] settings, so no report mails were queued; `moderator report` writes them to files")
    else:
        svc.say(f"queued {queued} report mails for turn {turn} of {game.id}, and the moderator's copy"
                + (f"; NO report for {len(failed)} audience(s), see `moderator review list`" if failed else ""))
    return res


def write_report_files(root: Path, game_id: str, turn: int, reports: list[Report]) -> Path:
    """The reports of a turn as files, for a game without mail: <root>/<game>/turn-<N>/<audience>/
    (the map referred to as map.png, as `moderator report` writes it). Returns the turn's folder."""
    folder = root / game_id / f"turn-{turn}"
    for report in reports:
        where = folder / report.audience.replace(":", "-")
        where.mkdir(parents=True, exist_ok=True)
        (where / "report.txt").write_text(report.text, encoding="utf-8")
        (where / "report.html").write_text(with_map(report.html), encoding="utf-8")
        (where / "report.json").write_bytes(report.json_bytes())
        if report.png:
            (where / "map.png").write_bytes(report.png)
    return folder


def mark_failed(svc: Service, game_id: str, turn: int, exc: BaseException) -> None:
    """A resolution failed before its commit: the turn stays open (nothing of it was stored)
    and the failure is visible - on the game (`game show`), on the console, and, the first
    time for this turn, as a review item and a mail to the moderator. The deadline check
    retries it."""
    problem = f"resolving turn {turn} failed: {type(exc).__name__}: {exc}"
    svc.say(f"{game_id}: {problem}; the turn stays open and is retried")
    first = not any(r.kind == "resolution-failed" and r.turn == turn for r in svc.store.reviews(game_id))
    # A correction that failed stays a correction: the daemon leaves it to the moderator.
    status = CORRECTING if svc.store.turn_record(game_id, turn) is not None else "open"
    with svc.store.transaction():
        svc.store.update_game(game_id, status=status, problem=problem)
        if not first:
            return
        svc.store.add_review(game_id=game_id, turn=turn, nation=None, kind="resolution-failed",
                             summary=f"turn {turn} could not be resolved; it is retried at every deadline "
                                     "check, or run `moderator resolve` once the cause is fixed",
                             detail=problem)
        if svc.mail is not None:
            _queue_notice(svc, game_id, f"{game_id}: turn {turn} could not be resolved",
                          f"Resolving turn {turn} of {game_id} failed, so nothing of it was stored: the turn "
                          f"stays open and the daemon tries again.\n\n{problem}\n\n"
                          "`moderator game show` shows the last failure; `moderator review list` has it too.\n")


def unrendered_items(svc: Service, game: Game, turn: int, unrendered: list[str]) -> list[str]:
    """One review item per event code whose template raised while the reports were built
    (render.event_text told those events in plain words, so every report went out): the
    moderator fixes the template. Returns "#id summary" for the moderator's copy."""
    out = []
    for line in unrendered:
        code = line.partition(":")[0]
        summary = (f"event {code} of turn {turn} could not be put into words by templates/events/{code}.j2; "
                   "the reports tell it in plain words from its arguments")
        item_id = svc.store.add_review(game_id=game.id, turn=turn, nation=None, kind="event-unrendered",
                                       summary=summary, detail=line)
        out.append(f"#{item_id} {summary}")
    return out


MAP_FAILED = "its map could not be drawn, so the report went without it"


def report_failures(svc: Service, game: Game, turn: int, failed: list[str]) -> None:
    """Tell the moderator which audiences got no report or no map (the others went out).
    Each line is "audience: why"; an audience is a nation, "alliance:<side>" or "public"."""
    if not failed:
        return
    for line in failed:
        audience, why = _audience(line)
        nation = audience if audience in svc.scenario(game).nations else None
        what = {"public": "the public bulletin", "moderator": "the moderator's copy",
                "pool": "the offer of vacant seats to the replacement pool"}.get(audience, f"the report for {audience}")
        summary = (f"turn {turn}: {what}: {MAP_FAILED}" if why.startswith(MAP_FAILED)
                   else f"no report of turn {turn} could be built for {audience}; "
                        f"`moderator report --game {game.id} --nation ... --turn {turn}` retries it" if nation
                   else f"turn {turn}: {what} could not be built; the other reports went out")
        svc.store.add_review(game_id=game.id, turn=turn, nation=nation, kind="report-failed", summary=summary,
                             detail=line)
    _queue_notice(svc, game.id, f"{game.title}: turn {turn} reports missing for {len(failed)} audience(s)",
                  f"Turn {turn} of {game.id} is resolved and its other reports are queued, but these could not "
                  "be built in full:\n\n" + "\n".join(f"  {line}" for line in failed) + "\n")


def _audience(line: str) -> tuple[str, str]:
    """("alliance:central", why) of "alliance:central: why"; (nation, why) of "nation: why"."""
    head, _, rest = line.partition(": ")
    return head, rest


def _queue_notice(svc: Service, game_id: str, subject: str, text: str) -> None:
    cfg = svc.require_mail()
    msg = compose(sender=cfg.from_address, to=[cfg.moderator_address], subject=subject, text=text,
                  date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED)
    queue(svc, msg, game_id)


def turn_info(svc: Service, game: Game, resolved_turn: int, *, ordered: list[str] | None = None,
              updated: datetime | None = None, dice_scheme: int = DICE_SCHEME, correction: str = "") -> TurnInfo:
    """The calendar of a report: the resolved turn, the next one, its deadline and the
    correction window (Miscellaneous: the first two days after an update; none when the
    deadline comes first, as in the demo), who sent orders and who missed turns in a row;
    the resolved turn's dice seed (revealed) and the next turn's commitment; `correction`:
    when the reports a corrected resolution replaces were sent."""
    scenario = svc.scenario(game)
    corrections = ""
    if updated is not None and game.deadline is not None:
        until = corrections_until(_utc(updated), game.correction_days)
        if until < _utc(game.deadline):
            corrections = describe_deadline(until)
    return TurnInfo(game=game.id, title=game.title, resolved_turn=resolved_turn,
                    resolved_date=turn_label(scenario, resolved_turn), turn=resolved_turn + 1,
                    date=turn_label(scenario, resolved_turn + 1), deadline=describe_deadline(game.deadline),
                    corrections=corrections, ordered=None if ordered is None else tuple(ordered),
                    missed=missed_in_a_row(svc, game, resolved_turn, ordered),
                    dice_seed=turn_seed(game.seed, resolved_turn) if dice_scheme == VERIFIABLE_SCHEME else "",
                    dice_commitment=dice_commitment(game, resolved_turn + 1), correction=correction)


def dice_commitment(game: Game, turn: int) -> str:
    """The SHA-256 published before `turn` is resolved, committing to its dice seed."""
    return commitment(turn_seed(game.seed, turn))


def ordered_in(record: TurnRecord) -> list[str]:
    """The nations whose own orders a resolved turn played (not the moderator's default
    orders for a missed turn, service/missed.py)."""
    return sorted(n for n, text in json.loads(record.orders).items() if not missed_turn.is_default(text))


def missed_in_a_row(svc: Service, game: Game, last_turn: int,
                    ordered: list[str] | None = None) -> dict[str, int]:
    """Seated nation -> how many turns in a row up to `last_turn` it sent no orders
    (Miscellaneous: once, defensive play; twice in a row, the player is replaced).
    `ordered`: who ordered in `last_turn` when its record is not stored yet (the reports
    are built before the turn is committed)."""
    out: dict[str, int] = {}
    for seat in svc.store.seats(game.id):
        count, turn = 0, last_turn
        while turn >= 0:
            if turn == last_turn and ordered is not None:
                if seat.nation in ordered:
                    break
                count, turn = count + 1, turn - 1
                continue
            record = svc.store.turn_record(game.id, turn)
            if record is None or seat.nation in ordered_in(record):
                break
            count, turn = count + 1, turn - 1
        if count:
            out[seat.nation] = count
    return dict(sorted(out.items()))


def build_all_reports(svc: Service, game: Game, resolved_turn: int, res: Resolution, *,
                      ordered: list[str] | None = None, updated: datetime | None = None,
                      dice_scheme: int = DICE_SCHEME, correction: str = "") -> tuple[list[Report], list[str]]:
    """Every audience's report, and "audience: why" for each that could not be built or
    went without its map. All at once first; if that fails, audience by audience (each
    nation, each alliance's status, the public bulletin: reports/build.py report_parts),
    so one audience's failure (a template that chokes on one event) takes no other's
    report with it; a map that cannot be drawn leaves its report to go without it.
    `game` is the game as it will be once the turn is committed (its next deadline)."""
    scenario, world = svc.scenario(game), svc.world(game)
    seats = sorted(report_addresses(svc, game, res.state))
    info = turn_info(svc, game, resolved_turn, ordered=ordered, updated=updated, dice_scheme=dice_scheme,
                     correction=correction)
    parts = report_parts(res.state, res.events, scenario, world, info, seats,
                         (lambda view, title: draw_view(world, view, title)) if svc.maps else None)
    try:
        return draw_maps([part.make() for part in parts], parallel=svc.maps), []  # maps in worker processes
    except Exception:  # noqa: BLE001 - find out whose report fails, below
        pass
    made: list[tuple[Part, Built]] = []
    failed: list[str] = []
    for part in parts:
        try:
            made.append((part, part.make()))
        except Exception as exc:  # noqa: BLE001 - that audience's report only
            failed.append(f"{part.audience}: {type(exc).__name__}: {exc}")
    try:
        return draw_maps([built for _, built in made], parallel=svc.maps), failed
    except Exception:  # noqa: BLE001 - a map failed: each drawn alone, below
        pass
    reports = []
    for part, (report, job, _) in made:
        try:
            report.png, report.png_inline = map_files(job())
        except Exception as exc:  # noqa: BLE001 - the report goes without its map, and says so
            failed.append(f"{report.audience}: {MAP_FAILED} ({type(exc).__name__}: {exc})")
            report = part.without_map()
        reports.append(report)
    return reports, failed


def report_addresses(svc: Service, game: Game, state: GameState) -> dict[str, str]:
    """Each nation whose report is mailed, and to whom: every seat's to its player, and a
    nation without a seat that a seat's player commands by the rules (the Mutineers after a
    socialist revolution: phase9_mutiny.commander_of) to that player, who orders it."""
    seats = {s.nation: s.email for s in svc.store.seats(game.id)}
    out = dict(seats)
    for nation in sorted(state.nations):
        commander = commander_of(state, nation)
        if nation not in seats and commander in seats:
            out[nation] = seats[commander]
    return out


def queue_reports(svc: Service, game: Game, reports: list[Report], state: GameState | None = None) -> int:
    seats = {s.nation: s.email for s in svc.store.seats(game.id)}
    addresses = report_addresses(svc, game, state) if state is not None else seats
    count = 0
    for report in reports:
        sent: set[str] = set()
        for nation in report.nations:
            to = addresses.get(nation)
            if to is None or (nation not in seats and to in sent):  # a commander gets one copy of a shared report
                continue
            _queue_report(svc, game, report, to)
            sent.add(to)
            count += 1
    return count


def queue_moderator_copy(svc: Service, game: Game, resolved_turn: int, res: Resolution, *, ordered: list[str],
                         missing: list[str], items: list[str], correction: str = "") -> None:
    """The moderator sees everything, with the dice log attached for auditing: the review
    items this resolution created and the rulings it applied come first."""
    cfg = svc.require_mail()
    text, html = moderator_report(svc, game, resolved_turn, res, ordered=ordered, missing=missing, items=items)
    dice = Attachment(f"dice-turn-{resolved_turn}.json", json.dumps(res.dice, indent=1).encode(),
                      "application", "json")
    msg = compose(sender=cfg.from_address, to=[cfg.moderator_address],
                  subject=(f"CORRECTION: {game.title}: turn {resolved_turn} resolved again (moderator's copy)"
                           if correction else f"{game.title}: turn {resolved_turn} resolved (moderator's copy)"),
                  text=text, html=html,
                  attachments=[dice], date=svc.clock(), domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED)
    queue(svc, msg, game.id)


def waiting_items(svc: Service, game: Game) -> list[str]:
    """Every review item still waiting, whatever made it: this game's (the engine's, the
    receipts', refused rulings) and mail set aside that belongs to no game."""
    return [f"#{r.id} [{r.kind}{f', turn {r.turn}' if r.turn is not None else ''}] {r.summary}"
            for r in svc.store.reviews(None) if r.game_id in (game.id, None)]


def moderator_report(svc: Service, game: Game, resolved_turn: int, res: Resolution, *, ordered: list[str],
                     missing: list[str], items: list[str]) -> tuple[str, str]:
    """The moderator's copy: every event with its audience, the flags of this turn, every
    item still waiting, who sent orders and who missed turns in a row (text, html)."""
    scenario = svc.scenario(game)
    return render("moderator", title=game.title, game=game.id, resolved_turn=resolved_turn,
                  resolved_date=turn_label(scenario, resolved_turn), ordered=ordered, missing=missing,
                  flags=items, waiting=waiting_items(svc, game), missed=missed_in_a_row(svc, game, resolved_turn),
                  desk_by_mail=svc.store.setting("desk-secret") is not None,
                  dice_count=len(res.dice), sha256=res.sha256, events=res.events,
                  names=lambda n: scenario.nations[n].name if n in scenario.nations else n)


def _queue_report(svc: Service, game: Game, report: Report, to: str) -> None:
    """One report mail: text, HTML with the map inline, and the content as report.json."""
    cfg = svc.require_mail()
    images, html = [], report.html
    attachments = [Attachment("report.json", report.json_bytes(), "application", "json")]
    if report.png:
        image = inline_image(f"map-{report.audience.replace(':', '-')}", report.png_inline or report.png,
                             cfg.message_id_domain)
        full = inline_image(f"map-full-{report.audience.replace(':', '-')}", report.png, cfg.message_id_domain)
        images, html = [image], with_map(html, image.src, full.src)  # the inline map links to the full one
        attachments.insert(0, Attachment("map.png", report.png, "image", "png", full.content_id))  # every pixel
    msg = compose(sender=cfg.from_address, to=[to], subject=report.subject, text=report.text,
                  html=html, images=images, attachments=attachments, date=svc.clock(),
                  domain=cfg.message_id_domain, auto_submitted=AUTO_GENERATED)
    queue(svc, msg, game.id)


def due_games(svc: Service) -> list[Game]:
    now = svc.clock()
    return [g for g in svc.store.games() if g.status == "open" and g.deadline is not None
            and _utc(g.deadline) <= now]


def recover_interrupted(svc: Service) -> list[str]:
    """A game left "resolving" by a process that died before committing (nothing of that
    resolution was stored) is open again, and resolved at the next deadline check if its
    deadline has passed (exactly once: the turn advances only in the commit). At daemon
    start and at every deadline check: on a shared database the other daemons go on running
    (a game whose resolution lock, Store.resolving, is free has nobody resolving it); on
    SQLite a failure whose own record failed (mark_failed on a full disk) leaves it so."""
    reopened = []
    for g in svc.store.games():
        if g.status != "resolving":
            continue
        with svc.store.resolving(g.id) as free, svc.store.transaction():
            game = svc.store.lock_game(g.id) if free else None
            if game is None or game.status != "resolving":
                continue  # being resolved by a living process, or finished meanwhile
            corrected = svc.store.turn_record(g.id, g.turn) is not None  # a correction, not a deadline's
            svc.store.update_game(g.id, status=CORRECTING if corrected else "open")
            reopened.append(g.id)
    return reopened


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def replay(svc: Service, game_id: str, turn: int) -> tuple[bool, str]:
    """Run a past turn again from its stored inputs, with the rules it was played with;
    (same result?, explanation). ReplayUnavailable if this moderator lacks those rules."""
    game = svc.game(game_id)
    record = svc.store.turn_record(game.id, turn)
    if record is None:
        return False, f"turn {turn} of {game.id} has not been resolved"
    res = compute(svc, game, turn, recorded_inputs(record))  # ReplayUnavailable: rules not installed
    stored_next = svc.store.snapshot(game.id, turn + 1)
    same_state = res.sha256 == record.result_sha256 and stored_next == res.state.dumps()
    same_dice = json.dumps(res.dice) == record.dice
    same_events = json.dumps([e.to_json() for e in res.events], sort_keys=True) == record.events
    ok = same_state and same_dice and same_events
    detail = (f"turn {turn} of {game.id}: state {'identical' if same_state else 'DIFFERENT'}, "
              f"{len(res.dice)} dice rolls {'identical' if same_dice else 'DIFFERENT'}, "
              f"{len(res.events)} events {'identical' if same_events else 'DIFFERENT'}; sha256 {res.sha256[:16]}")
    records = svc.store.turn_records(game.id, turn)
    if len(records) > 1:
        detail += "\n" + correction_difference(records[0], records[-1])
    return ok, detail


def correction_difference(first: TurnRecord, last: TurnRecord) -> str:
    """What a correction changed, compared with the turn's first resolution: orders, rulings,
    the events each has that the other has not, and the resulting state."""
    def lines(record: TurnRecord) -> list[str]:
        return [json.dumps(e, sort_keys=True) for e in json.loads(record.events)]

    before, after = lines(first), lines(last)
    gone = [e for e in before if e not in after]
    new = [e for e in after if e not in before]
    orders_a, orders_b = json.loads(first.orders), json.loads(last.orders)
    changed = sorted(n for n in {*orders_a, *orders_b} if orders_a.get(n) != orders_b.get(n))
    out = [f"corrected: resolved first {_utc(first.resolved):%Y-%m-%d %H:%M} UTC, again {_utc(last.resolved):%Y-%m-%d %H:%M} "
           f"UTC; compared with the first resolution: orders changed for {', '.join(changed) or 'nobody'}; rulings "
           f"{'the same' if first.rulings == last.rulings else 'changed'}; state "
           f"{'the same' if first.result_sha256 == last.result_sha256 else 'DIFFERENT'}; "
           f"{len(gone)} events no longer happen, {len(new)} new"]
    out += [f"  - {json.loads(e)['code']}: {json.dumps(json.loads(e)['args'], sort_keys=True)}" for e in gone]
    out += [f"  + {json.loads(e)['code']}: {json.dumps(json.loads(e)['args'], sort_keys=True)}" for e in new]
    return "\n".join(out)


@dataclass
class Verified:
    ok: bool
    lines: list[str]  # what was checked, and each roll that does not match


def verify(svc: Service, game_id: str, turn: int) -> Verified:
    """Recompute every logged roll of a resolved turn from its revealed seed alone (the
    documented function, engine/dice.py and docs/dice.md) and compare with the stored log."""
    game = svc.game(game_id)
    record = svc.store.turn_record(game.id, turn)
    if record is None:
        return Verified(False, [f"turn {turn} of {game.id} has not been resolved"])
    if record.dice_scheme != VERIFIABLE_SCHEME:
        return Verified(False, [f"turn {turn} of {game.id} was rolled before verifiable dice (scheme "
                                f"{record.dice_scheme}): it has no published seed; `moderator replay` re-runs it"])
    seed = turn_seed(game.seed, turn)
    rolls = json.loads(record.dice)
    lines = [f"turn {turn} of {game.id}: seed {seed}", f"commitment (SHA-256 of the seed, announced before the "
             f"turn): {commitment(seed)}"]
    bad = by_hand = 0
    for roll, expected in zip(rolls, recompute(seed, rolls), strict=True):
        if expected is None:
            by_hand += 1
        elif expected != roll["result"]:
            bad += 1
            lines.append(f"MISMATCH roll {roll['index']} (step {roll.get('step') or '-'}, {roll['dice']}, "
                         f"{roll['purpose']}): logged {roll['result']}, the seed gives {expected}")
    checked = len(rolls) - by_hand
    lines.append(f"{checked} of {len(rolls)} rolls recomputed from the seed: "
                 + ("all match" if not bad else f"{bad} DO NOT MATCH")
                 + (f"; {by_hand} rolled by hand by the moderator (rulings), not from the seed" if by_hand else ""))
    return Verified(bad == 0, lines)
