"""The people of an event: an :class:`Entrant` (a pair or a player), the names
an event accepts (one line, at most :data:`MAX_NAME` characters), how two
players' names compare, and the bots that may play a seat."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence, Tuple

from .errors import TournamentError


def check_bot_players(players: Sequence[str], where: str = "") -> None:
    """Refuse a player named ``bot:SPEC`` whose bot cannot be made (an unknown
    bot, or an option it does not take): :class:`TournamentError` naming the
    player, after ``where`` (say ``"table 2: "``)."""
    from ..bots import make_bot
    for p in players:
        if p.startswith("bot:"):
            try:
                make_bot(p[4:])
            except (ValueError, TypeError) as ex:
                raise TournamentError(f"{where}{p}: {ex}") from None


MAX_NAME = 60
"""The longest name of an entrant, a player or a club, in characters: one line of
every printout holds it (issue 26 item 9)."""


def entry_name(text: str, what: str = "name") -> str:
    """``text`` as a name of the event: blanks at the ends taken off, runs of
    spaces made one; :class:`TournamentError` naming ``what`` when it is more than
    one line (a line break or any control character) or longer than
    :data:`MAX_NAME` characters."""
    t = " ".join(x for x in (text or "").strip().split(" ") if x)
    shown = repr(t) if len(t) <= 20 else repr(t[:20]) + "..."
    if any(ord(c) < 32 or 127 <= ord(c) < 160 or c in "\u2028\u2029" for c in t):
        raise TournamentError(f"{what} {shown}: a name is one line (no line break or "
                              "control character)", "name_lines", what=what)
    if len(t) > MAX_NAME:
        raise TournamentError(f"{what} {shown}: at most {MAX_NAME} characters, not {len(t)}",
                              "name_long", what=what, n=MAX_NAME, given=len(t))
    return t


@lru_cache(maxsize=1 << 14)
def player_key(name: str) -> str:
    """A player's name as entries compare it: case and spacing do not count."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Entrant:
    """A pair (two player names) or an individual (one).  ``number`` is the
    entrant's number in the event (1, 2, ...; also its seeding unless
    ``rating`` orders the field); a player named ``bot:SPEC`` is a bot."""

    number: int
    name: str
    players: Tuple[str, ...] = ()
    club: str = ""
    rating: int = 0
    withdrawn: bool = False
    code: str = field(default="", compare=False, repr=False)
    """The entrant's seat code (:mod:`.codes`), when the event is stored; empty
    in events that are only simulated.  Kept out of ``repr`` so it never reaches
    a log line by accident."""

    @property
    def bots(self) -> Tuple[str, ...]:
        """The bot specs of this entrant's players that are bots."""
        return tuple(p[4:] for p in self.players if p.startswith("bot:"))

    @property
    def is_bot(self) -> bool:
        """Every player of the entrant is a bot."""
        return bool(self.players) and len(self.bots) == len(self.players)


__all__ = ["Entrant", "MAX_NAME", "check_bot_players", "entry_name", "player_key"]
