"""The tournament's refusals: :class:`TournamentError` (a step the director
cannot take, in one line) and :class:`AlreadyDone` (a step repeated after an
interruption, already stored)."""

from __future__ import annotations

from typing import Any, Optional


class TournamentError(ValueError):
    """A step the director cannot take now, or a value that is wrong; the
    message says which.  ``key`` (with ``params``) names the message among the
    words of the pages (:mod:`.words`, ``e_<key>``) when it has a translation;
    the message itself is English."""

    def __init__(self, message: str, key: Optional[str] = None, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class AlreadyDone(TournamentError):
    """The step asked for is already in the database (a command repeated after
    an interruption): nothing changed.  The command line says so and succeeds."""


__all__ = ["AlreadyDone", "TournamentError"]
