"""The sentence of a refused move in the terminal app.

The engine's :class:`~burraco.state.IllegalMove` names its rule (a
:class:`~burraco.rules.Rule`) and carries that refusal's parameters; the sentence
is rendered from the ``rules`` gettext catalogue by :func:`burraco.i18n.rules.explain`.
The cards it names are shown as on the table (``K♣ K♦ 4♣``, wild cards marked
``*``), not in the notation of hand records (``KC KD 4C``), which the ``?`` page
explains.  Nothing here reads the engine's English message, except to show it
unchanged for an exception that names no rule.
"""

from __future__ import annotations

from typing import Any, Dict

from ..cards import parse_card
from ..i18n import rules as _rules
from .cards import cards_plain

CARD_PARAMS = ("card", "cards", "top")
"""The parameters of a refusal that name cards."""


def _screen(value: Any) -> Any:
    """Record-notation card names as the screen shows them (unchanged when they
    are not cards)."""
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, (list, tuple)) or not names:
        return value
    try:
        return cards_plain(parse_card(n) for n in names)
    except (ValueError, TypeError):
        return value


def explain(exc: BaseException, lang: str = "en") -> str:
    """A refused move in words of ``lang``: the sentence of the rule it breaks,
    with its cards (as on the screen) and counts; an exception that names no rule
    shows its own text."""
    params: Dict[str, Any] = dict(getattr(exc, "params", None) or {})
    shown = {k: _screen(v) for k, v in params.items() if k in CARD_PARAMS}
    try:
        return _rules.explain(exc, shown, lang=lang)
    except ValueError:
        return str(exc)


__all__ = ["explain"]
