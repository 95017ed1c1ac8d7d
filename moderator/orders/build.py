"""Parse trees -> typed orders (one Builder per order line).

Words with a fixed vocabulary (unit kinds, technologies, sides, missions, espionage
kinds) are checked here, because they do not depend on the game; names of territories
and nations are kept as typed for validate() to resolve against the map.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from lark import Token, Tree

from moderator.orders import model as m
from moderator.orders import vocab as v
from moderator.orders.clean import Piece
from moderator.orders.diagnostics import ERROR, WARNING, Diagnostic
from moderator.orders.list_names import split_at_and
from moderator.world.model import fold

MAX_NUMBER = 10**6
ALL_WORDS = ("all", "everyone", "everybody", "allnations", "any", "anyone")


class Builder:
    def __init__(self, piece: Piece) -> None:
        self.piece = piece
        self.diagnostics: list[Diagnostic] = []
        self.failed = False

    # ---- helpers ---------------------------------------------------------------------
    def span(self) -> m.Span:
        return m.Span(self.piece.line, self.piece.column, self.piece.text)

    def error(self, node: Tree | Token | None, message: str, code: str, severity: str = ERROR) -> None:
        col, text = self.piece.column, self.piece.text
        if isinstance(node, Token) and node.column is not None:
            col, text = self.piece.column + node.column - 1, str(node)
        elif isinstance(node, Tree) and not node.meta.empty:
            col = self.piece.column + node.meta.column - 1
            text = self.piece.text[node.meta.start_pos : node.meta.end_pos]
        self.diagnostics.append(Diagnostic(severity, self.piece.line, col, text, message, code))
        if severity == ERROR:
            self.failed = True

    def name(self, node: Tree | Token | None) -> str:
        if node is None:
            return ""
        if isinstance(node, Token):
            return str(node)
        words = [str(t) for t in node.children if t is not None]
        if len(words) == 1 and words[0].startswith('"'):
            return words[0][1:-1].strip()
        return " ".join(words)

    def names(self, node: Tree | None) -> list[str]:
        """The names of a `name_list` ("Belgium, Upper Senegal and Niger and Serbia"):
        split at commas by the grammar, at "and" by list_names.split_at_and (which keeps
        a real map name holding "and" whole). A quoted name is never joined to another."""
        if node is None:
            return []
        out: list[str] = []
        for part in node.children:
            run: list[str] = []  # unquoted pieces between "and"s, for split_at_and
            words: list[str] = []
            for child in [*part.children, None]:
                if isinstance(child, Token) and child.type == "STRING":
                    out.extend(split_at_and(run))
                    run = []
                    out.append(str(child)[1:-1].strip())
                elif isinstance(child, Token):
                    words.append(str(child))
                elif words:  # a list_and, or the end of the part
                    run.append(" ".join(words))
                    words = []
            out.extend(split_at_and(run))
        return out

    def opt_name(self, node: Tree | Token | None) -> str | None:
        return self.name(node) if node is not None else None

    def number(self, token: Token | None, default: int = 1) -> int:
        if token is None:
            return default
        if len(str(token)) > 7 or int(str(token)) > MAX_NUMBER:
            self.error(token, f"{token} is too large a number", "bad-number")
            return default
        return int(str(token))

    def units(self, node: Tree, allowed: tuple[str, ...] = v.MOBILE, what: str = "units") -> m.Units:
        out: list[m.UnitCount] = []
        for unit in node.children:
            first = unit.children[0]
            count_tok = first if isinstance(first, Token) else None
            words = [w for w in unit.children[1:] if w is not None]
            typed = " ".join(str(w) for w in words)
            kind = v.unit_kind(typed)
            count = self.number(count_tok)
            if kind is None:
                guess = v.close_matches(fold(typed), sorted(v.UNIT_INDEX))
                hint = f' Did you mean "{guess[0]}"?' if guess else ""
                self.error(unit, f'"{typed}" is not a unit type. Use inf, art, tank, aa, rkt, ftr, '
                                 f"bmb, bb, dd, tr, cv or ss.{hint}", "unknown-unit")
                continue
            if kind not in allowed:
                self.error(unit, f'{v.UNIT_ECHO[kind]} cannot be used in this order ({what})',
                           "wrong-unit")
                continue
            if count < 1:
                self.error(unit, "a unit count must be at least 1", "bad-number")
                continue
            out.append(m.UnitCount(kind, count))
        if not out and not self.failed:
            self.error(node, "no units given", "no-units")
        return tuple(out)

    def side(self, node: Tree | None) -> str | None:
        if node is None:
            return None
        typed = self.name(node)
        s = v.side(typed)
        if s is None:
            self.error(node, f'"{typed}" is not a side: write ALLIES or CENTRAL POWERS', "unknown-side")
        return s

    # ---- dispatch --------------------------------------------------------------------
    def build(self, tree: Tree) -> list[m.Order]:
        handler: Callable[[list], list[m.Order]] | None = getattr(self, "b_" + str(tree.data), None)
        if handler is None:
            self.error(tree, "this order is not supported yet", "unsupported")
            return []
        orders = handler(list(tree.children))
        if self.failed:
            return []
        span = self.span()
        return [type(o)(**{**o.__dict__, "span": span}) for o in orders]

    # ---- Initial Deployment ----------------------------------------------------------
    def b_deploy(self, c: list) -> list[m.Order]:
        """DEPLOY 3 inf, 1 art AT Berlin: one order for all the units named."""
        return [m.Deploy(self.units(c[0], v.MOBILE, "units of your starting forces"), self.name(c[1]))]

    # ---- Phase 1 ---------------------------------------------------------------------
    def b_note(self, c: list) -> list[m.Order]:
        text = str(c[0]).lstrip(":").strip() if c and c[0] is not None else ""
        if not text:
            self.error(None, "an empty NOTE: write your message after the word NOTE", "empty-note", WARNING)
        return [m.Note(text)]

    def b_declare_war(self, c: list) -> list[m.Order]:
        return [m.DeclareWar(n) for n in self.names(c[0])]

    def b_influence(self, c: list) -> list[m.Order]:
        return [m.Influence(self.name(c[0]), self.side(c[1]))]

    def b_surrender(self, c: list) -> list[m.Order]:
        names = tuple(self.names(c[0]))
        return [m.OfferSurrender(names)]

    def b_vote(self, c: list) -> list[m.Order]:
        accept = fold(str(c[0].children[0])) == "accept"
        return [m.SurrenderVote(self.name(c[1]), accept)]

    def b_close(self, c: list) -> list[m.Order]:
        close = fold(str(c[0].children[0])) == "close"
        names = tuple(self.names(c[2]))
        if any(fold(n) in ALL_WORDS for n in names):
            names = ()
        return [m.ClosePassage(self.name(c[1]), names, close)]

    def b_subwar(self, c: list) -> list[m.Order]:
        if c[0] is None:
            self.error(None, "say against whom: UNRESTRICTED SUBMARINE WARFARE AGAINST Allies",
                       "missing-target")
            return []
        typed = self.name(c[0])
        return [m.SubWarfare(v.side(typed) or typed)]

    def b_retract(self, c: list) -> list[m.Order]:
        return [m.SubWarfare(None, retract=True)]

    def b_blockade(self, c: list) -> list[m.Order]:
        if c[1] is None:
            return [m.Blockade(self.name(c[0]))]
        if fold(self.name(c[0])) not in ("ustrade", "trade", "americantrade", "usatrade"):
            self.error(c[0], 'write BLOCKADE Germany, or BLOCKADE US TRADE TO Germany', "syntax")
            return []
        return [m.Blockade(self.name(c[1]), us_trade=True)]

    def b_option(self, c: list) -> list[m.Order]:
        number = self.number(c[0])
        target: str | None = None
        amount: int | None = None
        toward: str | None = None
        full = False
        place: str | None = None
        for arg in c[1:]:
            if arg.data == "opt_place":
                place = self.name(arg.children[0])
            elif arg.data == "opt_target":
                target = self.name(arg.children[0])
            elif arg.data == "opt_toward":
                toward = self.side(arg.children[0])
            elif arg.data == "opt_amount":
                amount = self.number(arg.children[0])
            else:
                full = True
        return [m.SpecialOption(number, target, amount, toward, full, place)]

    def b_gear_up(self, c: list) -> list[m.Order]:
        return [m.GearUp()]

    def b_coax(self, c: list) -> list[m.Order]:
        if fold(self.name(c[0])) != "italy":
            self.error(c[0], "only Italy can be coaxed (Italy: 20 resources for a 1 in 10 chance)",
                       "coax-not-italy")
        return [m.CoaxItaly()]

    def b_join(self, c: list) -> list[m.Order]:
        s = self.side(c[0])
        return [m.JoinSide(s)] if s else []

    def b_peace(self, c: list) -> list[m.Order]:
        return [m.Peace(self.name(c[0]))]

    def b_gift(self, c: list) -> list[m.Order]:
        amount = self.number(c[0])
        if amount < 1:
            self.error(c[0], "a gift must be at least 1 resource", "bad-number")
        return [m.Gift(amount, self.name(c[1]))]

    def b_exile(self, c: list) -> list[m.Order]:
        return [m.Exile(self.name(c[-1]))]

    # ---- Phase 2 ---------------------------------------------------------------------
    def b_research(self, c: list) -> list[m.Order]:
        typed = self.name(c[0])
        tech = v.tech_id(typed)
        if tech is None:
            names = [t[0] for t in v.TECHNOLOGIES.values()]
            guess = v.close_matches(typed, [n.lower() for n in names])
            hint = f' Did you mean "{guess[0].title()}"?' if guess else ""
            self.error(c[0], f'"{typed}" is not a technology. The technologies are: '
                             f'{", ".join(names)}.{hint}', "unknown-tech")
            return []
        return [m.Research(tech)]

    def b_upgrade(self, c: list) -> list[m.Order]:
        kind = v.unit_kind(self.name(c[0]))
        if kind not in v.UPGRADE_TECH:
            self.error(c[0], "name a unit type to upgrade, e.g. UPGRADE infantry", "unknown-unit")
            return []
        return [m.Upgrade(kind)]

    # ---- Phase 3 ---------------------------------------------------------------------
    def b_build_on(self, c: list) -> list[m.Order]:
        """BUILD RADAR ON bb AT North Sea."""
        return self._build(c[0], c[2], None, c[1])

    def b_build(self, c: list) -> list[m.Order]:
        """BUILD units AT place [FACING territory]."""
        return self._build(c[0], c[1], c[2], None)

    def _build(self, units_node: Tree, place_node: Tree, facing_node: Tree | None,
               ship_node: Tree | None) -> list[m.Order]:
        units = self.units(units_node, v.MOBILE + v.STRUCTURES, "build")
        place = self.name(place_node)
        out: list[m.Order] = []
        for u in units:
            out.extend(self._build_one(u, place, facing_node, ship_node, units_node))
        return out

    def _build_one(self, u: m.UnitCount, place: str, facing: Tree | None, ship: Tree | None,
                   node: Tree) -> list[m.Order]:
        if u.kind in ("trench", "super_trench"):
            if facing is None:
                self.error(node, "a trench needs the territory it faces: "
                                 "BUILD TRENCH AT Alsace FACING Lorraine", "trench-facing")
                return []
            return [m.BuildTrench(place, self.name(facing), u.kind == "super_trench")] * u.count
        if facing is not None:
            self.error(facing, "FACING is only for trenches", "facing-not-trench")
            return []
        if u.kind == "home_trenches":
            return [m.BuildHomeTrenches(place)]
        if u.kind in ("radar", "sonar"):
            ship_kind = v.unit_kind(self.name(ship)) if ship is not None else None
            if ship is not None and ship_kind not in v.SEA:
                self.error(ship, "radar and sonar go ON a ship type: bb, dd, tr, cv or ss", "wrong-unit")
                return []
            if u.kind == "sonar" and ship is None:
                self.error(node, "sonar is mounted on a ship: BUILD SONAR ON dd AT North Sea", "sonar-ship")
                return []
            return [m.BuildShipGear(u.kind, place, ship_kind)] * u.count
        if u.kind == "aa" and ship is not None:  # Improved Anti-Aircraft Guns: "may also be put on ships"
            ship_kind = v.unit_kind(self.name(ship))
            if ship_kind not in v.SEA:
                self.error(ship, "AA guns go ON a ship type: bb, cv, dd or tr", "wrong-unit")
                return []
            return [m.BuildShipGear(u.kind, place, ship_kind)] * u.count
        if ship is not None:
            self.error(ship, "ON <ship> is only for radar, sonar and AA guns", "syntax")
            return []
        return [m.Build(u.kind, u.count, place)]

    def _spy_parts(self, c: list, kinds: dict[str, str], verb: str) -> tuple[str, str | None, str | None, str | None] | None:
        typed = self.name(c[0])
        kind = kinds.get(fold(typed))
        if kind is None:
            choices = sorted(set(kinds.values()))
            self.error(c[0], f'"{typed}" is not a kind of {verb}; use one of: {", ".join(choices)}',
                       "unknown-espionage")
            return None
        tech = None
        if c[2] is not None:
            tech = v.tech_id(self.name(c[2]))
            if tech is None:
                self.error(c[2], f'"{self.name(c[2])}" is not a technology', "unknown-tech")
                return None
        return kind, self.opt_name(c[1]), self.opt_name(c[3]), tech

    def b_espionage(self, c: list) -> list[m.Order]:
        parts = self._spy_parts(c, v.ESPIONAGE_KINDS, "espionage")
        if parts is None:
            return []
        kind, target, place, tech = parts
        need = {"neutral": target, "affiliation": target, "army": target,
                "industrial": target and tech, "combat": place}
        if not need[kind]:
            model = {"neutral": "ESPIONAGE NEUTRAL ON Persia", "affiliation": "ESPIONAGE AFFILIATION ON Italy",
                     "army": "ESPIONAGE ARMY ON Russia", "industrial": "ESPIONAGE INDUSTRIAL ON Britain FOR Tanks",
                     "combat": "ESPIONAGE COMBAT AT Verdun"}[kind]
            self.error(None, f'this espionage needs its target: write "{model}"', "espionage-target")
            return []
        return [m.Espionage(kind, target, place, tech)]

    def b_counter(self, c: list) -> list[m.Order]:
        parts = self._spy_parts(c, v.COUNTER_KINDS, "counter-espionage")
        if parts is None:
            return []
        kind, against, place, tech = parts
        need = {"affiliation": True, "army": against, "industrial": tech, "recon": place}
        if not need[kind]:
            model = {"army": "COUNTERESPIONAGE ARMY AGAINST Russia",
                     "industrial": "COUNTERESPIONAGE INDUSTRIAL FOR Tanks",
                     "recon": "COUNTERESPIONAGE RECON AT Alsace"}[kind]
            self.error(None, f'this counter-espionage needs its target: write "{model}"', "espionage-target")
            return []
        return [m.CounterEspionage(kind, against, place, tech)]

    def b_recon(self, c: list) -> list[m.Order]:
        return [m.Recon(self.units(c[0]), self.name(c[1]), self.name(c[2]))]

    def b_repair(self, c: list) -> list[m.Order]:
        units = self.units(c[0], ("battleship", "carrier"), "only battleships and carriers are repaired")
        return [m.Repair(u.kind, u.count, self.name(c[1])) for u in units]

    # ---- Phase 4 ---------------------------------------------------------------------
    def b_bomb(self, c: list) -> list[m.Order]:
        aim = v.BOMB_AIMS[fold(str(c[0].children[0]))]
        return [m.Bombing(aim, self.units(c[1], v.AIR, "aircraft only"), self.name(c[2]), self.name(c[3]))]

    def b_rebase(self, c: list) -> list[m.Order]:
        return [m.Rebase(self.units(c[0], v.AIR, "aircraft only"), self.name(c[1]), self.name(c[2]))]

    def b_smove(self, c: list) -> list[m.Order]:
        return [m.StrategicMove(self.units(c[0], v.LAND + v.AIR, "land units"), self.name(c[1]), self.name(c[2]))]

    def _move(self, cls: type[m.Move], c: list) -> list[m.Order]:
        units = self.units(c[0], v.LAND + v.AIR, "land and air units; ships move in task forces")
        dest = self.name(c[2])
        out: list[m.Order] = [cls(units, self.name(c[1]), dest)]
        if c[3] is not None:
            out.extend(self._conditions(dest, c[3].children))
        return out

    def b_move(self, c: list) -> list[m.Order]:
        return self._move(m.Move, c)

    def b_attack(self, c: list) -> list[m.Order]:
        return self._move(m.Attack, c)

    def _conditions(self, dest: str, nodes: list) -> list[m.Order]:
        out: list[m.Order] = []
        for node in nodes:
            kind = {"c_rounds": "rounds", "c_losses": "losses", "c_kills": "kills",
                    "c_defenders": "max-defenders", "c_contact_lost": "contact-lost",
                    "c_radar": "radar"}[str(node.data)]
            ints = [t for t in node.children if isinstance(t, Token) and t.type == "INT"]
            value = self.number(ints[0]) if ints else 0
            if kind == "rounds" and value < 1:
                self.error(node, "attackers fight at least one round before they may withdraw "
                                 "(Phase 4): use AFTER 1 ROUND or more", "withdraw-rounds")
            out.append(m.CombatCondition(dest, kind, value))
        return out

    def b_attack_if(self, c: list) -> list[m.Order]:
        return self._conditions(self.name(c[0]), c[1].children)

    def b_withdraw(self, c: list) -> list[m.Order]:
        return self._conditions(self.name(c[0]), [c[1]])

    def b_withdraw_to(self, c: list) -> list[m.Order]:
        to = self.name(c[1])
        return [dataclasses.replace(o, to=to) for o in self._conditions(self.name(c[0]), [c[2]])
                if isinstance(o, m.CombatCondition)]

    def b_let_pass(self, c: list) -> list[m.Order]:
        return [m.LetPass(self.name(c[0]))]

    def b_air_retreat(self, c: list) -> list[m.Order]:
        place = self.name(c[0])
        if str(c[1].data) in ("c_contact_lost", "c_radar"):
            self.error(c[1], "BREAK OFF AIR COMBAT takes AFTER n ROUNDS, IF LOSSES EXCEED n or WHEN n KILLS",
                       "syntax")
            return []
        return [m.AirRetreat(place, o.kind, o.value) for o in self._conditions(place, [c[1]])
                if isinstance(o, m.CombatCondition)]

    def b_casualties(self, c: list) -> list[m.Order]:
        kinds: list[str] = []
        for n in c[1].children:
            kind = v.unit_kind(self.name(n))
            if kind is None or kind not in v.MOBILE + ("industry", "port"):
                self.error(n, f'"{self.name(n)}" is not a unit type', "unknown-unit")
                continue
            kinds.append(kind)
        return [m.CasualtyOrder(tuple(kinds), self.opt_name(c[0]))]

    def b_support(self, c: list) -> list[m.Order]:
        units = self.units(c[0], ("artillery",), "only artillery supports a neighbouring province")
        return [m.ArtillerySupport(sum(u.count for u in units), self.name(c[1]), self.name(c[2]))]

    def b_breakthrough(self, c: list) -> list[m.Order]:
        units = self.units(c[0], ("tank",), "only tanks break through (Tanks, 4th advance)")
        return [m.Breakthrough(sum(u.count for u in units), self.name(c[1]), self.name(c[2]))]

    def b_defend(self, c: list) -> list[m.Order]:
        kind = v.DEFEND_KINDS.get(fold(self.name(c[0])))
        if kind is None:
            self.error(c[0], "only INDUSTRY, PORT or AA can be ordered to defend", "unknown-unit")
            return []
        return [m.DefendWith(kind, self.name(c[1]))]

    def b_fire(self, c: list) -> list[m.Order]:
        aim = fold(str(c[0].children[0])) if c[0] is not None else "units"
        units = self.units(c[1], ("rocket",), "only rockets fire")
        return [m.RocketFire(sum(u.count for u in units), self.name(c[2]), self.name(c[3]), aim)]

    def b_tf_form(self, c: list) -> list[m.Order]:
        return [m.TaskForce(str(c[0]), self.name(c[1]), self.units(c[2], v.SEA, "ships only"))]

    def b_tf_steps(self, c: list) -> list[m.Order]:
        name = str(c[0])
        out: list[m.Order] = []
        for step in c[1:]:
            data = str(step.data)
            if data == "tf_mission":
                mission = v.MISSIONS[fold(str(step.children[0].children[0]))]
                out.append(m.TaskForceMission(name, mission, self.opt_name(step.children[1])))
            elif data == "tf_escort":
                out.append(m.TaskForceMission(name, "escort", self.opt_name(step.children[1]),
                                              escort_of=str(step.children[0])))
            elif data == "tf_bombard":
                out.append(m.TaskForceMission(name, "bombard", target=self.name(step.children[0])))
            elif data == "tf_split":
                ships = self.units(step.children[0], v.SEA, "ships only")
                out.append(m.TaskForceMission(name, "split", units=ships, part=str(step.children[1]),
                                              at=self.opt_name(step.children[2])))
            elif data == "tf_join":
                out.append(m.TaskForceMission(name, "join", part=str(step.children[0])))
            else:
                units = self.units(step.children[0], v.LAND + v.AIR, "land or air units are loaded")
                out.append(m.TaskForceMission(name, "load", units=units, origin=self.name(step.children[1])))
        return out

    def b_detect(self, c: list) -> list[m.Order]:
        allowed = v.AIR + v.SEA if c[2] is None else v.AIR
        return [m.SubDetection(self.name(c[0]), self.units(c[1], allowed, "ships in the zone, or aircraft FROM a territory"),
                               self.opt_name(c[2]))]

    def b_intercept(self, c: list) -> list[m.Order]:
        units = self.units(c[0], ("submarine",), "only submarines intercept")
        target = "any"
        if isinstance(c[2], Tree) and c[2].data == "intercept_tf":
            tf, of = c[2].children
            return [m.SubInterception(sum(u.count for u in units), self.name(c[1]), "any", str(tf), self.name(of))]
        if c[2] is not None:
            target = v.INTERCEPT_TARGETS.get(fold(self.name(c[2])), "")
            if not target:
                self.error(c[2], "intercept task forces by mission: transports, escorts, patrols, "
                                 "blockades, carriers, bombard, move or any", "unknown-mission")
        return [m.SubInterception(sum(u.count for u in units), self.name(c[1]), target or "any")]

    def b_invade(self, c: list) -> list[m.Order]:
        return [m.NavalInvasion(self.units(c[0], v.LAND + v.AIR, "land units"), self.name(c[1]), self.name(c[2]))]

    # ---- Phases 5-8 ------------------------------------------------------------------
    def b_plunder(self, c: list) -> list[m.Order]:
        kind = v.PLUNDER_KINDS.get(fold(self.name(c[0])))
        if kind is None:
            self.error(c[0], "only an INDUSTRY (industrial complex) or a PORT can be plundered", "unknown-unit")
            return []
        return [m.Plunder(kind, self.name(c[1]))]

    def b_incorporate(self, c: list) -> list[m.Order]:
        return [m.Incorporate(n) for n in self.names(c[0])]

    def b_transfer(self, c: list) -> list[m.Order]:
        amount = self.number(c[0])
        if amount < 1:
            self.error(c[0], "a transfer must be at least 1 resource", "bad-number")
        return [m.Transfer(amount, self.name(c[1]), self.name(c[2]))]
