"""What the table's mixins (:class:`~burraco.tui.actions.TableKeys`,
:class:`~burraco.tui.drawing.TableDrawing`) read of the app they are mixed into,
:class:`~burraco.tui.app.BurracoApp`: its table, its words and its hand's state.

For the type checker only: the mixins name :class:`TableHost` as their base when
type checking (``if TYPE_CHECKING``), and plain ``object`` when running, so that
nothing here is ever in a class's method resolution order.  Each method here is
abstract: the app (or the other mixin) provides it.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Dict, List, Optional, Set

from textual.app import App

from ..moves import Move
from .game import Table


class TableHost(App[int]):
    """The app as its mixins see it (see the module docstring)."""

    table: Table
    lang: str
    hand_cards: List[int]
    selected: Set[int]
    cursor: int
    target: int
    busy: bool
    message: str
    message_key: str
    message_error: bool
    side_titles: Dict[int, str]

    @property
    @abstractmethod
    def sort_by(self) -> str:
        """The hand's order, ``suit`` or ``rank``."""

    @sort_by.setter
    @abstractmethod
    def sort_by(self, order: str) -> None: ...

    @abstractmethod
    def t(self, _key: str, **kw: object) -> str:
        """Translated text of the word ``_key``."""

    @abstractmethod
    def say(self, text: str, error: bool = False, key: str = "") -> None:
        """Show ``text`` on the message line."""

    @abstractmethod
    def try_move(self, move: Move) -> bool:
        """Play ``move`` for the person, or explain why not."""

    @abstractmethod
    def refresh_all(self) -> None:
        """Redraw everything (the drawing mixin's)."""

    @abstractmethod
    def save_match(self) -> None:
        """Write the match."""

    @abstractmethod
    def seat_name(self, seat: int) -> str:
        """The name of ``seat``."""

    @abstractmethod
    def side_name(self, side: int) -> str:
        """The name of ``side``."""

    @abstractmethod
    def label_name(self, label: Optional[str]) -> str:
        """The name of a burraco's class."""

    @abstractmethod
    def match_totals_text(self) -> str:
        """The match's totals, for the top line."""

    @abstractmethod
    def refresh_clock(self) -> None:
        """Redraw the hand's clock."""

    @property
    @abstractmethod
    def log_lines(self) -> List[str]:
        """The hand's moves so far, in words."""

    @abstractmethod
    def selected_cards(self) -> List[int]:
        """The cards selected in the hand (the keys mixin's)."""


__all__ = ["TableHost"]
