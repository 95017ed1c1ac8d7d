"""parse_orders(): mail text -> header, typed orders and diagnostics. Never raises.

Line-oriented and tolerant (issue 4): each piece of text (see clean.pieces) is parsed on
its own by the Lark grammar in grammar/orders.lark, so a bad line gives one diagnostic
and the next line is read as usual. Names stay as typed; validate() resolves them.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from moderator.orders import model as m
from moderator.orders.build import Builder
from moderator.orders.clean import Piece, pieces
from moderator.orders.diagnostics import ERROR, WARNING, Diagnostic
from moderator.orders.shapes import Shapes

GRAMMAR = Path(__file__).resolve().parents[2] / "grammar" / "orders.lark"

# The first word of every order, with a model line shown when an order cannot be read.
EXAMPLES: dict[str, str] = {
    "game": "GAME 1914-a", "nation": "NATION Germany", "turn": "TURN 3",
    "password": "PASSWORD my-secret", "secret": "SECRET my-secret",
    "note": "NOTE please check my trench at Verdun",
    "deploy": "DEPLOY 3 inf, 1 art AT Berlin",
    "declare": "DECLARE WAR ON Serbia", "influence": "INFLUENCE Persia",
    "offer": "OFFER SURRENDER TO France", "surrender": "SURRENDER TO France",
    "accept": "ACCEPT SURRENDER OF Serbia", "refuse": "REFUSE SURRENDER OF Serbia",
    "reject": "REJECT SURRENDER OF Serbia", "decline": "DECLINE SURRENDER OF Serbia",
    "close": "CLOSE Dardanelles TO Russia, France", "open": "OPEN Dardanelles TO Russia",
    "reopen": "REOPEN Suez Canal", "unrestricted": "UNRESTRICTED SUBMARINE WARFARE AGAINST Allies",
    "retract": "RETRACT UNRESTRICTED SUBMARINE WARFARE",
    "blockade": "BLOCKADE Germany  or  BLOCKADE US TRADE TO Germany",
    "option": "OPTION 3 TO Serbia 10", "gear": "GEAR UP", "boost": "BOOST ECONOMY",
    "coax": "COAX Italy", "join": "JOIN Allies", "peace": "PEACE WITH Serbia",
    "propose": "PROPOSE PEACE TO Serbia", "gift": "GIFT 10 TO Serbia",
    "give": "GIVE 10 TO Serbia", "lend": "LEND 10 TO France",
    "government": "GOVERNMENT IN EXILE WITH France", "exile": "EXILE WITH France",
    "research": "RESEARCH Improved Weapons", "upgrade": "UPGRADE infantry",
    "build": "BUILD 3 inf, 1 art AT Berlin", "buy": "BUY 3 inf AT Berlin",
    "purchase": "PURCHASE 3 inf AT Berlin", "place": "PLACE 3 inf AT Berlin",
    "espionage": "ESPIONAGE ARMY ON Russia", "spy": "SPY INDUSTRIAL ON Britain FOR Tanks",
    "counterespionage": "COUNTERESPIONAGE ARMY AGAINST Russia",
    "counter": "COUNTER ESPIONAGE RECON AT Alsace",
    "recon": "RECON 1 ftr FROM Metz TO Verdun", "scout": "SCOUT 2 inf FROM Metz TO Verdun",
    "reconnaissance": "RECONNAISSANCE 1 ftr FROM Metz TO Verdun",
    "repair": "REPAIR 1 bb AT North Sea",
    "bomb": "BOMB INDUSTRY 2 bmb FROM Ruhr TO Paris",
    "rebase": "REBASE 2 ftr FROM Berlin TO Metz",
    "strategic": "STRATEGIC MOVE 4 inf FROM Berlin TO Posen",
    "rail": "RAIL 4 inf FROM Berlin TO Posen", "smove": "SMOVE 4 inf FROM Berlin TO Posen",
    "move": "MOVE 3 inf, 1 art FROM Metz TO Verdun",
    "attack": "ATTACK 6 inf FROM Metz TO Verdun WITHDRAW AFTER 2 ROUNDS",
    "withdraw": "WITHDRAW FROM Verdun IF LOSSES EXCEED 3",
    "casualties": "CASUALTIES AT Verdun: inf, art, tank",
    "casualty": "CASUALTY ORDER: inf, art", "losses": "LOSSES: inf, art",
    "support": "SUPPORT 2 art FROM Metz TO Verdun", "defend": "DEFEND WITH INDUSTRY AT Ruhr",
    "breakthrough": "BREAKTHROUGH 2 tank FROM Verdun TO Paris",
    "let": "LET THROUGH AT Verdun", "no": "NO INTERCEPTION AT Verdun", "do": "DO NOT INTERCEPT AT Verdun",
    "break": "BREAK OFF AIR COMBAT AT Verdun AFTER 1 ROUND",
    "disengage": "DISENGAGE FROM AIR COMBAT AT Verdun IF LOSSES EXCEED 2",
    "fire": "FIRE CITY 1 rkt FROM Metz AT Paris",
    "tf": "TF 1 AT North Sea: 2 bb, 3 dd   then   TF 1 PATROL TO Skagerrak",
    "task": "TASK FORCE 1 AT North Sea: 2 bb", "taskforce": "TASKFORCE 1 PATROL TO Skagerrak",
    "split": "TF 1 SPLIT 2 dd INTO TF 3 AT Skagerrak",
    "detect": "DETECT SUBS IN North Sea WITH 2 dd",
    "intercept": "INTERCEPT WITH 2 ss IN North Sea AGAINST transports",
    "invade": "INVADE 2 inf FROM English Channel TO Picardy",
    "land": "LAND 2 inf FROM English Channel TO Picardy",
    "unload": "UNLOAD 2 inf FROM English Channel TO Picardy",
    "plunder": "PLUNDER INDUSTRY AT Lille", "incorporate": "INCORPORATE Belgium",
    "transfer": "TRANSFER 10 FROM Algeria TO Paris",
}


@lru_cache(maxsize=1)
def grammar() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True,
                maybe_placeholders=True)


@dataclass
class Header:
    """The header lines, as typed. `secret` is never echoed (see normalize)."""

    game: str | None = None
    nation: str | None = None
    turn: int | None = None
    secret: str | None = None
    lines: dict[str, int] = field(default_factory=dict, repr=False)  # header word -> its line

    @property
    def password(self) -> str | None:
        return self.secret


@dataclass
class ParseResult:
    header: Header = field(default_factory=Header)
    orders: list[m.Order] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def parse_orders(text: str) -> ParseResult:
    """Parse a whole mail body. Never raises: every problem becomes a Diagnostic."""
    result = ParseResult()
    try:
        items = pieces(text if isinstance(text, str) else str(text))
    except Exception as exc:  # defensive: a bug must not cost a player the turn
        result.diagnostics.append(Diagnostic(ERROR, 0, 0, "", f"internal error reading the mail: {exc}", "internal"))
        return result
    for piece in items:
        try:
            _parse_piece(piece, result)
        except Exception as exc:  # defensive, as above; the next line is still read
            result.diagnostics.append(Diagnostic(
                ERROR, piece.line, piece.column, piece.text,
                f"this line could not be read (internal error: {exc}); please tell the moderator",
                "internal"))
    return result


# Lines that recur from mail to mail - the GAME, NATION and TURN lines, and the greetings and
# sign-offs that are no orders - are parsed once per distinct text and their parse kept (a
# burst of order mail parses each seat's header once, not once a mail; issue 11, CPU per
# mail). Orders are parsed every time: they seldom repeat. PASSWORD and SECRET lines, and
# unreadable lines whose first word looks like one (mistyped), are not kept: no seat secret
# stays in memory. Short lines only, and a bounded number of them, so hostile mail cannot
# fill the memory.
_KEPT_HEADERS = ("game", "nation", "turn")
_KEPT_LONGEST = 120
_KEPT_MOST = 1024
_kept: dict[str, Tree | UnexpectedInput] = {}


def _parsed(text: str) -> Tree | LarkError:
    """grammar().parse(text), or the error it raised; a recurring line's from _kept."""
    kept = _kept.get(text)
    if kept is not None:
        return kept
    outcome: Tree | LarkError | None = line_shapes().read(text) if READ_SHAPES else None
    if outcome is None:
        try:
            tree = grammar().parse(text)
        except UnexpectedInput as exc:
            exc.__traceback__ = None  # kept: not the frames it was raised through
            outcome = exc
        except LarkError as exc:
            return exc
        else:
            outcome = tree
            if READ_SHAPES:
                line_shapes().learn(text, tree)
    if len(text) <= _KEPT_LONGEST and ((isinstance(outcome, UnexpectedInput) and not _secret_like(text)) or (
            isinstance(outcome, Tree) and outcome.data in _KEPT_HEADERS)):
        if len(_kept) >= _KEPT_MOST:
            _kept.clear()
        _kept[text] = outcome
    return outcome


# Order lines of plain words are read from the shape of a line met before, lark's tree made
# with this line's words, rather than parsed by lark again (orders/shapes.py: the same tree,
# about a tenth of the time; issue 11, CPU per mail). Off: every line to lark (the tests'
# comparison).
READ_SHAPES = True


@lru_cache(maxsize=1)
def line_shapes() -> Shapes:
    return Shapes(grammar())


def _secret_like(text: str) -> bool:
    """Whether an unreadable line may hold a seat secret: its first word is PASSWORD or
    SECRET, or close to one of them."""
    first = text.split()[0].lower().rstrip(":") if text.split() else ""
    return first in ("password", "secret") or bool(set(_order_word_like(first)) & {"password", "secret"})


def _parse_piece(piece: Piece, result: ParseResult) -> None:
    tree = _parsed(piece.text)
    if isinstance(tree, UnexpectedInput):
        result.diagnostics.append(_syntax_diagnostic(piece, tree))
        return
    if isinstance(tree, LarkError):
        result.diagnostics.append(Diagnostic(ERROR, piece.line, piece.column, piece.text,
                                             f"could not read this order: {tree}", "syntax"))
        return
    if isinstance(tree, Tree) and tree.data in ("game", "nation", "turn", "password"):
        _header(tree, piece, result)
        return
    builder = Builder(piece)
    result.orders.extend(builder.build(tree))
    result.diagnostics.extend(builder.diagnostics)


def _header(tree: Tree, piece: Piece, result: ParseResult) -> None:
    h = result.header
    child = next(c for c in tree.children if c is not None)
    h.lines[str(tree.data)] = piece.line
    if tree.data == "turn":
        value = str(child)
        if len(value) > 6:
            result.diagnostics.append(Diagnostic(ERROR, piece.line, piece.column, piece.text,
                                                 "the turn number is too large", "bad-number"))
            return
        _set_once(result, piece, "turn", h.turn, int(value))
        h.turn = int(value)
    elif tree.data == "nation":
        name = Builder(piece).name(child)
        _set_once(result, piece, "nation", h.nation, name)
        h.nation = name
    elif tree.data == "game":
        game = _rest(child)
        _set_once(result, piece, "game", h.game, game)
        h.game = game
    else:
        h.secret = _rest(child)


def _rest(token: Token | Tree) -> str:
    """A header's free text: "Game: demo" and "GAME demo" both name the game demo."""
    return str(token).strip().removeprefix(":").strip()


def _set_once(result: ParseResult, piece: Piece, what: str, old: object, new: object) -> None:
    if old is not None and old != new:
        result.diagnostics.append(Diagnostic(
            WARNING, piece.line, piece.column, piece.text if what != "password" else "",
            f"a second {what.upper()} line replaces the first ({old!s} -> {new!s})",
            "header-repeated"))


@lru_cache(maxsize=4096)
def _order_word_like(word: str) -> tuple[str, ...]:
    """The order word `word` was probably meant to be. Kept per word: every mail's "Hello,"
    and "Thanks!" would otherwise pay difflib's comparison with every order word again."""
    return tuple(difflib.get_close_matches(word, list(EXAMPLES), n=1, cutoff=0.7))


def _syntax_diagnostic(piece: Piece, exc: UnexpectedInput) -> Diagnostic:
    """A plain-English reason for an unreadable line, with a model order to copy."""
    first = piece.text.split()[0].lower().rstrip(":") if piece.text.split() else ""
    if first not in EXAMPLES:
        guess = _order_word_like(first)
        hint = f' Did you mean {guess[0].upper()}? e.g. "{EXAMPLES[guess[0]]}".' if guess else ""
        return Diagnostic(
            ERROR, piece.line, piece.column, piece.text.split()[0] if piece.text.split() else "",
            f'"{first}" is not an order word. Each order starts with a word such as MOVE, '
            f"ATTACK, BUILD, DECLARE, INFLUENCE, RESEARCH or NOTE (a NOTE line is passed to "
            f"the moderator as it is).{hint}", "unknown-order")
    col = getattr(exc, "column", 1) or 1
    col = col if isinstance(col, int) and col > 0 else len(piece.text) + 1
    offending = piece.text[col - 1 :].split()[0] if piece.text[col - 1 :].split() else ""
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END":
        reason = "this order stops too early"
        offending = piece.text.split()[-1]
        col = len(piece.text) - len(offending) + 1
    elif isinstance(exc, UnexpectedCharacters):
        reason = f'the character "{piece.text[col - 1:col]}" is not understood here'
    else:
        reason = f'"{offending}" is not expected here'
    return Diagnostic(ERROR, piece.line, piece.column + col - 1, offending or piece.text,
                      f'{reason}. Write it like: "{EXAMPLES[first]}".', "syntax")


def token_text(token: Token | str) -> str:
    return str(token)
