"""What players write around their orders that is not orders: greetings, "here are my
orders:", thanks and sign-offs, a name under them.

The order parser reports every line it cannot read as an error, which is right for a
mistyped order and wrong for "Hi Tom, here are my orders:" - a receipt with three ERRORS
for orders that were all accepted alarms the player for nothing. So the lines the parser
did not recognise are looked at once more here, and those that are plainly talk are set
aside (the receipt neither counts nor lists them). The test is conservative: only lines
the parser could not read at all are candidates, and only
  * lines that look like a greeting, a lead-in to the orders, thanks or a sign-off;
  * any line after a sign-off ("Thanks!", "Regards,", "Cheers") to the end: the signature;
  * before the first line that is orders or header: a line ending like a sentence of
    talk (":", ",", "!", "?" or "."), e.g. "Hope you are well."
A mistyped order ("MOVE 2 inf FROM Ruhr TO Colgne") is never talk: it is an order the
parser read with an unknown name, or a line that does not end like a sentence.
"""

from __future__ import annotations

import re
from collections.abc import Collection

_GREETING = re.compile(
    r"^(hi|hello|hey|dear|greetings|good\s+(morning|afternoon|evening|day)|howdy|hallo|bonjour|salut|"
    r"guten\s+tag|moin|ciao|hola|gentlemen|sir|ladies)\b", re.IGNORECASE)
_LEAD_IN = re.compile(
    r"^(here\s+(are|is|come|you\s+go)|these\s+are|below\s+(are|is)|please\s+find|attached|enclosed|"
    r"my\s+orders|orders\s+for|as\s+promised|ok(ay)?\b|sorry)\b", re.IGNORECASE)
_SIGN_OFF = re.compile(
    r"^(thanks?|thank\s+you|thx|ty|cheers|regards|best(\s+(regards|wishes))?|kind\s+regards|warm\s+regards|"
    r"yours(\s+(truly|sincerely|faithfully))?|sincerely|all\s+the\s+best|good\s+luck|see\s+you|bye|"
    r"take\s+care|sent\s+from\s+my|get\s+outlook\s+for|mit\s+freundlichen\s+gr|gr(ü|ue)(ß|ss)e|cordialement|"
    r"amicalement|saludos|vive\s+l|long\s+live|god\s+save|for\s+the\s+(kaiser|king|tsar|emperor))\b",
    re.IGNORECASE)
_ENDS_LIKE_TALK = re.compile(r"[:,!?.]\s*$")


def chatty_lines(text: str, unreadable: Collection[int]) -> set[int]:
    """The 1-based numbers of the lines of `text` that are talk, not orders. `unreadable`:
    the lines the parser could not read as anything (every other line with text on it it
    read as an order or a header line)."""
    lines = text.splitlines()
    recognised = {n for n, line in enumerate(lines, start=1) if line.strip() and n not in unreadable}
    first_real = min(recognised, default=len(lines) + 1)
    talk: set[int] = set()
    signed_off = False
    for number, line in enumerate(lines, start=1):
        words = line.strip()
        if not words:
            continue
        if number not in unreadable:
            signed_off = signed_off and number not in recognised
            continue
        if _SIGN_OFF.match(words):
            signed_off = True
        if (signed_off or _SIGN_OFF.match(words) or _GREETING.match(words) or _LEAD_IN.match(words)
                or (number < first_real and _ENDS_LIKE_TALK.search(words))):
            talk.add(number)
    return talk
