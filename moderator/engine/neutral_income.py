"""Which income rule a nation collects by in Phase 8, from its state (the neutrals' sections).

The rule of a nation that is neutral and at peace is NationState.income_rule: the
scenario's (nations.toml `income_rule`), raised by its gear-up (GEAR UP, diplomacy.toml
[gear_up]: Japan 30, Spain half, China 60%, the USA 35). The state changes it:

* In the main war, everything: "When British Empire enters the main war, then it
  collects full income" (British Empire (while neutral)); the Ottomans and Italy "collect
  their full amount" at war with a major; the Phase 8 note: non-player minors "When they
  join the main war or are involved in war with other neutrals, then they would get
  full income". Reading: every nation that has joined a side collects in full.
* A neutral at war, by the nation's `war_income` (nations.toml): the Ottoman Empire and
  Italy "3/4 of full income" at war with a neutral minor, "full" with a major; Spain 3/4
  at war with a minor. A war on a main-war nation counts as a war on a major when the
  enemy is a major (a minor of the main war, Serbia, as a minor).
* A minor neutral at war with anyone: in full (Phase 8 note, "involved in war with
  other neutrals").
* A moderator's ruling (SET INCOME OF x TO rule) overrides all of these until it is
  lifted (SET INCOME OF x TO rules): the US at war is the moderator's
  (NationState.flags["income_ruling"]).
* China's civil war: the Republic and the Empire collect in full while it lasts
  (engine/china_split.py).
* Japan: its options' wars and its full production (engine/japan.py income_rule).

The rule's arithmetic (fractions rounded up, percentages rounded down) is
phase8_income.apply_income_rule.
"""

from __future__ import annotations

from moderator.engine import china_split, japan
from moderator.engine.state import GameState
from moderator.world.scenario_model import Scenario

RULING = "income_ruling"  # NationState.flags key of a moderator's SET INCOME ruling
RULES = "rules"  # SET INCOME OF x TO rules: back to the rules' own rule


def income_rule(state: GameState, scenario: Scenario, nation: str) -> str:
    """The rule `nation` collects by this turn (see the module docstring)."""
    ns = state.nations[nation]
    ruled = ns.flags.get(RULING)
    if isinstance(ruled, str) and ruled:
        return ruled
    if ns.side != "neutral":
        return "full"
    if china_split.collects_in_full_state(state, nation):
        return "full"  # China's civil war: "both sides collect full amount of resources"
    if nation == japan.JAPAN:
        return japan.income_rule(state, ns.income_rule)  # Japan: its options' wars, never by war_income
    info = scenario.nations.get(nation)
    if not ns.at_war_with or info is None:
        return ns.income_rule
    if info.kind == "minor":
        return "full"  # Phase 8 note: "involved in war with other neutrals ... full income"
    kinds = {_kind(scenario, enemy) for enemy in ns.at_war_with}
    for kind in ("major", "minor"):  # the better rule first: a war on a major pays in full
        if kind in kinds and kind in info.war_income:
            return info.war_income[kind]
    return ns.income_rule


def _kind(scenario: Scenario, nation: str) -> str:
    info = scenario.nations.get(nation)
    if info is None or info.kind == "dominion":  # a dominion is a major's part (Major nations and colonies)
        return "major"
    return info.kind
