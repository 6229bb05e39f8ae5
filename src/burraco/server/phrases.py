"""The chat's quick phrases: a few set sentences sent by code, not as text.

A client sends ``{"type": "chat", "phrase": CODE}``; the server checks the code
against :data:`PHRASES` and broadcasts it (with the English sentence as ``text``
for clients that do not know the code), and each page shows the sentence in its
own language, so an Italian's "Buona fortuna!" is read as "Viel Glück!" on a
German page.  See docs/protocol.md, "Chat".
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple

PHRASES: Dict[str, str] = {
    "good_luck": "Good luck!",
    "well_played": "Well played!",
    "thanks": "Thanks!",
    "sorry_must_go": "Sorry, I must go.",
    "good_game": "Good game!",
}
"""Every quick phrase: its code and its English sentence (the page's msgid too)."""


def phrase_problem(code: str) -> Optional[str]:
    """Why ``code`` is not a quick phrase (a sentence naming the known codes), or
    None when it is one."""
    if code in PHRASES:
        return None
    return f"unknown chat phrase {code[:40]!r}; phrases: {', '.join(PHRASES)}"


def chat_parts(text: Optional[str], phrase: Optional[str]) -> Tuple[str, Optional[str]]:
    """The English text and the phrase code of a chat message that gives exactly
    one of ``text`` and ``phrase``; :class:`ValueError` naming the field otherwise."""
    if (text is None) == (phrase is None):
        raise ValueError("chat: give either text or phrase")
    if phrase is not None:
        problem = phrase_problem(phrase)
        if problem:
            raise ValueError(problem)
        return PHRASES[phrase], phrase
    return text or "", None


__all__ = ["PHRASES", "chat_parts", "phrase_problem"]
