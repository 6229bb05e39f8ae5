"""The translation catalogue of burraco, shared by the terminal app and the browser.

Translations are gettext catalogues edited as ``.po`` files under
``burraco/locale/<locale>/LC_MESSAGES/<domain>.po`` and compiled to ``.mo`` with Babel
(``python -m burraco.i18n`` compiles, ``python -m burraco.i18n --check`` fails when a
committed ``.mo`` is stale).  English is the source language: a msgid is the English
text, so English needs no catalogue.  Two domains:

- ``burraco``: the words of the tables (terminal and browser);
- ``rules``: the sentence of each rule that can refuse a move (the engine's rule
  enumeration renders through it).

This package reads files; the engine below it never does.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
from pathlib import Path
from typing import Any, Mapping, Optional, Tuple, Union

LANGS = ("en", "it", "pt", "de")
"""The languages of burraco: English, Italian, Brazilian Portuguese, German."""

LOCALES = {"en": "en", "it": "it", "pt": "pt_BR", "de": "de"}
"""The gettext locale directory of each language."""

DOMAINS = ("burraco", "rules")
"""The catalogue domains (see the module docstring)."""

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
"""Where the catalogues live, inside the installed package."""


def normalize_lang(value: Optional[str]) -> Optional[str]:
    """The language of a locale or browser language name (``it_IT.UTF-8`` -> ``it``,
    ``pt-BR`` -> ``pt``, ``de`` -> ``de``), or None when it names none of :data:`LANGS`."""
    if not value:
        return None
    code = value.split(":")[0].split(".")[0].split("@")[0].replace("-", "_").lower().strip()
    if code in ("c", "posix", ""):
        return None
    base = code.split("_")[0]
    return base if base in LANGS else None


def detect_lang(environ: Optional[Mapping[str, str]] = None) -> str:
    """The language of the system locale, as gettext reads it: ``LANGUAGE`` (a
    colon-separated list, ignored when the locale is ``C``), then ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``; English when none names one of :data:`LANGS`."""
    env = os.environ if environ is None else environ
    locale_name = None
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(var):
            locale_name = env[var]
            break
    language = env.get("LANGUAGE")
    if language and (locale_name or "C").split(".")[0] not in ("C", "POSIX"):
        for part in language.split(":"):
            lang = normalize_lang(part)
            if lang:
                return lang
    return normalize_lang(locale_name) or "en"


@functools.lru_cache(maxsize=None)
def translations(lang: str, domain: str = "burraco") -> _gettext.NullTranslations:
    """The compiled catalogue of ``domain`` in ``lang`` (one of :data:`LANGS`).

    English, and a language whose catalogue is missing, get the identity
    translation (the msgid, with English plural rules).  An unknown language or
    domain is a :class:`ValueError` that names it."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    if domain not in DOMAINS:
        raise ValueError(f"unknown catalogue domain {domain!r}; domains: {', '.join(DOMAINS)}")
    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(domain, localedir=str(LOCALE_DIR), languages=[LOCALES[lang]],
                                fallback=True)


def gettext(lang: str, message: str, domain: str = "burraco") -> str:
    """``message`` (an English msgid) in ``lang``."""
    return translations(lang, domain).gettext(message)


def ngettext(lang: str, singular: str, plural: str, n: int, domain: str = "burraco") -> str:
    """The singular or plural form of a message for ``n``, in ``lang``."""
    return translations(lang, domain).ngettext(singular, plural, n)


def pgettext(lang: str, context: str, message: str, domain: str = "burraco") -> str:
    """``message`` in ``lang``, told apart from the same English words by ``context``."""
    return translations(lang, domain).pgettext(context, message)


class KeyedWords:
    """Texts named by stable keys, looked up in one language of :data:`LANGS`.

    A subclass sets :attr:`WORDS` (key -> English msgid, or ``(singular,
    plural)`` for a text that counts something, given ``n=``) and, where its
    words must be told apart from the same English words elsewhere,
    :attr:`CONTEXT` (the msgctxt).  An unknown key is shown as itself, so a
    missing word is visible, never a crash."""

    WORDS: Mapping[str, Union[str, Tuple[str, str]]] = {}
    CONTEXT: Optional[str] = None

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
        self.lang = lang

    def __call__(self, _key: str, **kw: Any) -> str:
        entry = self.WORDS.get(_key)
        ctx = self.CONTEXT
        if entry is None:
            text = _key
        elif isinstance(entry, tuple):
            n = kw.get("n")
            if not isinstance(n, int):
                raise TypeError(f"{_key!r} counts something: give n=<int>")
            tr = translations(self.lang)
            text = (tr.npgettext(ctx, entry[0], entry[1], n) if ctx
                    else tr.ngettext(entry[0], entry[1], n))
        else:
            text = pgettext(self.lang, ctx, entry) if ctx else gettext(self.lang, entry)
        return text.format(**kw) if kw else text


__all__ = ["DOMAINS", "KeyedWords", "LANGS", "LOCALES", "LOCALE_DIR", "detect_lang", "gettext",
           "ngettext", "normalize_lang", "pgettext", "translations"]
