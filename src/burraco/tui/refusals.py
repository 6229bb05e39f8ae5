"""The sentence of a refused move in the terminal app.

The engine's :class:`~burraco.state.IllegalMove` names its rule (a
:class:`~burraco.rules.Rule`) and carries that refusal's parameters; the sentence
is rendered from the ``rules`` gettext catalogue by :func:`burraco.i18n.rules.explain`.
Nothing here reads the engine's English message, except to show it unchanged for
an exception that names no rule.
"""

from __future__ import annotations

from ..i18n import rules as _rules


def explain(exc: BaseException, lang: str = "en") -> str:
    """A refused move in words of ``lang``: the sentence of the rule it breaks,
    with its cards and counts; an exception that names no rule shows its own text."""
    try:
        return _rules.explain(exc, lang=lang)
    except ValueError:
        return str(exc)


__all__ = ["explain"]
