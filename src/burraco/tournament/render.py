"""The tournament's pages and printouts from Jinja2 templates (issue 26).

Every page is a template of ``burraco/tournament/templates`` rendered with
autoescaping on (a name like ``<script>`` is shown, never run), the one
stylesheet ``tournament.css`` put in the page (a printout saved to a file needs
nothing else), and the words of :mod:`.words` (``w``: the page's
:class:`~.words.Words`).  The functions that build what a template shows are in
:mod:`.output` (the printouts) and :mod:`.pages` (the server's pages).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup


def html_lang(lang: str) -> str:
    """The ``lang`` attribute of a page in ``lang`` (``pt`` -> ``pt-BR``)."""
    return "pt-BR" if lang == "pt" else lang


@lru_cache(maxsize=1)
def stylesheet() -> str:
    """The text of the one stylesheet of the tournament's pages."""
    return (resources.files("burraco.tournament") / "templates" / "tournament.css").read_text(
        encoding="utf-8")


@lru_cache(maxsize=1)
def environment() -> Environment:
    """The templates' environment: autoescaping everywhere, undefined names an
    error (a misspelt field is a failing test, not an empty cell)."""
    env = Environment(loader=PackageLoader("burraco.tournament", "templates"),
                      autoescape=True, undefined=StrictUndefined, trim_blocks=True,
                      lstrip_blocks=True, keep_trailing_newline=True)
    env.globals["html_lang"] = html_lang
    env.filters["signed"] = lambda x: "" if x is None else (f"+{x}" if x > 0 else str(x))
    return env


def render(template: str, **context: Any) -> str:
    """A template of the tournament's pages rendered with ``context`` (the
    stylesheet given as ``style``)."""
    context.setdefault("style", Markup(stylesheet()))
    return environment().get_template(template).render(**context)


__all__ = ["environment", "html_lang", "render", "stylesheet"]
