"""Catalogue of the event codes the engine emits, for the report templates.

Every event is moderator.engine.events.Event(code, phase, seen_by, args). Events told to
one nation (seen_by == (nation,)) always carry args["nation"]. "order" is the position
of the order in that nation's order list; "text" its source line where known.
"""

from __future__ import annotations

# code -> (who sees it, the args it carries)
EVENT_CODES: dict[str, tuple[str, str]] = {
    "deployed": ("nation", "order, kind, count, place (Initial Deployment, turn 0: a DEPLOY order placed)"),
    "deploy-defaulted": ("nation", "kind, count, place (Initial Deployment, turn 0: free units no DEPLOY "
                                   "order placed, put at the scenario's default place)"),
    "war-declared": ("public", "nation, target"),
    "built": ("nation", "kind, count, place, cost (Phase 3.1, paid now)"),
    "build-cut": ("nation", "order, kind, place, ordered, bought"),
    "strategic-move": ("nation", "order, origin, dest, units {kind: n}"),
    "strategic-cut": ("nation", "order, origin, dest, ordered, moving (capacity cut back)"),
    "moved": ("nation", "origin, dest, units {kind: n}"),
    "units-missing": ("nation", "order, kind, place, ordered, present"),
    "units-held-back": ("nation", "order, reason (terrain/straits/cannot-attack/cannot-enter-enemy-land), "
                                  "units {kind: n}"),
    "battle": ("participants", "territory, origins [..], attacker, defender (holder), defenders [..], "
                               "rounds, strait, losses {nation: {kind: n}}, captured, withdrawn "
                               "(condition or None), rolls [first, end) indexes into the dice log"),
    "captured": ("public", "territory, nation (who took it), holder (who controls it now: an "
                           "allied original owner is liberated), previous"),
    "incorporated": ("nation", "territory, cost"),
    "build-lost": ("nation", "kind, count, place, paid (Phase 7: territory lost)"),
    "placed": ("nation", "kind, count, place"),
    "strategic-arrived": ("nation", "order, origin, dest, end, units"),
    "strategic-cut-short": ("nation", "order, origin, dest, end (where they stopped), units"),
    "income": ("nation", "full, rule, amount (collected), saved"),
    "gift": ("giver and receiver", "giver, receiver, sent, arrived"),
    "order-refused": ("nation", "order, text, reason, and details (turn 0: only-deploy-before-first-turn, "
                                "not-to-deploy, at-sea, colony, allied-land, ...; later: deployment-over)"),
    "order-not-implemented": ("nation (moderator for unknown nations)", "order, type, text"),
    "moderator-flag": ("moderator", "reason, details: a default the moderator may override "
                                    "(turn 0: zone, nations, rule: enemies share a sea zone)"),
}
