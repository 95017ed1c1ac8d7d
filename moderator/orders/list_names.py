"""Split a list of names at "and", keeping real map names that hold "and" whole.

"INCORPORATE Belgium and Serbia" is two territories; "INCORPORATE Upper Senegal and Niger"
is one (French West Africa). The grammar (grammar/orders.lark, `list_part`) cannot tell
them apart, so it keeps every "and" of a list and this module decides with the maps'
names and aliases. Reading from the left, the longest run of pieces that makes a real name
is taken ("Jammu and Kashmir and Punjab" -> Jammu and Kashmir, Punjab); a piece that makes
none stays a name of its own, for validate() to resolve or reject as usual.
"""

from __future__ import annotations

import re
from functools import lru_cache

from moderator.world.loader import MAPS_DIR, load_world
from moderator.world.model import fold

_AND = re.compile(r"\band\b", re.IGNORECASE)


@lru_cache(maxsize=1)
def names_with_and() -> frozenset[str]:
    """Folded names and aliases holding the word "and", of every map under maps/.

    Orders are read before the game is known (the header may come last), so every map
    counts; a name of another map only keeps words together, validate() still checks them.
    """
    found: set[str] = set()
    for folder in sorted(MAPS_DIR.iterdir()):
        if not (folder / "territories").is_dir():
            continue
        for territory in load_world(folder.name, strict=False).territories.values():
            found.update(fold(n) for n in (territory.name, *territory.aliases) if _AND.search(n))
    return frozenset(found)


def split_at_and(pieces: list[str]) -> list[str]:
    """The names a list part means: `pieces` are its words between each "and" (in order)."""
    known = names_with_and()
    out: list[str] = []
    start = 0
    while start < len(pieces):
        end = len(pieces)
        while end > start + 1 and fold(" and ".join(pieces[start:end])) not in known:
            end -= 1
        out.append(" and ".join(pieces[start:end]))
        start = end
    return out
