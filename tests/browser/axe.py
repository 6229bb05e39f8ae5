"""axe-core in the browser tests: the serious and critical accessibility violations of
the page as it is now.

axe-core's own script comes from the ``axe-playwright-python`` package (the dev extra
of pyproject.toml), which bundles it: nothing is fetched at run time. The script is
put into the page by Playwright's ``evaluate`` (the contexts of
:class:`~browser.driver.Player` bypass the pages' Content-Security-Policy, which would
otherwise forbid it), then ``axe.run`` checks the whole document.

Besides axe-core's default rules, those of its rules tagged *experimental* that a
person notices are run too: ``label-content-name-mismatch`` (a button whose spoken
name does not contain its visible text: "Click 7♥" does not find it) is one.

Use::

    from browser.axe import assert_accessible
    assert_accessible(page, "the lobby (guest)")
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Sequence

SEVERE = ("serious", "critical")
"""The impacts a test refuses (axe-core's are minor, moderate, serious, critical)."""

EXPERIMENTAL = ("label-content-name-mismatch",)
"""axe-core rules off by default that are run here as well."""

_AXE: Dict[str, Any] = {}


def axe_script() -> str:
    """axe-core's script (``axe.min.js``) as the ``axe-playwright-python`` package ships
    it; a skip of the calling test, saying what is missing, without the package."""
    if "script" not in _AXE:
        import pytest
        pytest.importorskip("axe_playwright_python",
                            reason="the axe-playwright-python package is not installed "
                                   "(pip install -e '.[dev]')")
        from axe_playwright_python.base import AXE_SCRIPT  # type: ignore[import-untyped]
        _AXE["script"] = AXE_SCRIPT
    script: str = _AXE["script"]
    return script


def run_axe(page: Any, context: Optional[str] = None,
            rules: Iterable[str] = EXPERIMENTAL) -> Dict[str, Any]:
    """axe-core's results (its ``violations`` only) for the page as it is now, or for
    the part of it that the CSS selector ``context`` names; ``rules`` are switched on
    besides the default ones."""
    if not page.evaluate("() => typeof window.axe === 'object' && !!window.axe.run"):
        page.evaluate(axe_script())
    options = {"resultTypes": ["violations"],
               "rules": {r: {"enabled": True} for r in rules}}
    results: Dict[str, Any] = page.evaluate(
        "([context, options]) => window.axe.run(context ? document.querySelector(context) : document, options)",
        [context, options])
    return results


def severe(page: Any, context: Optional[str] = None,
           ignore: Sequence[str] = ()) -> List[Dict[str, Any]]:
    """The serious and critical violations of the page now (axe-core's violation
    objects: ``id``, ``impact``, ``help``, ``nodes`` with ``target`` and ``html``),
    without the rules named in ``ignore``."""
    return [v for v in run_axe(page, context)["violations"]
            if v.get("impact") in SEVERE and v["id"] not in ignore]


def describe(violations: Sequence[Dict[str, Any]], where: str = "", most: int = 6) -> str:
    """The violations in words: for each rule its id, impact and help, then each node
    (at most ``most`` per rule) by its CSS target, its HTML and what axe-core says."""
    lines = [f"{len(violations)} serious or critical accessibility violation(s)"
             + (f" on {where}" if where else "") + ":"]
    for v in violations:
        nodes = v.get("nodes", [])
        lines.append(f"- {v['id']} ({v.get('impact')}): {v.get('help')} "
                     f"[{len(nodes)} node(s)] {v.get('helpUrl', '')}".rstrip())
        for node in nodes[:most]:
            target = " ".join(" >>> ".join(t) if isinstance(t, list) else str(t)
                              for t in node.get("target", []))
            html = " ".join(str(node.get("html", "")).split())
            if len(html) > 160:
                html = html[:157] + "..."
            lines.append(f"    {target}: {html}")
            summary = " ".join(str(node.get("failureSummary", "")).split())
            if summary:
                lines.append(f"      {summary[:300]}")
        if len(nodes) > most:
            lines.append(f"    ... and {len(nodes) - most} more")
    return "\n".join(lines)


def assert_accessible(page: Any, where: str, context: Optional[str] = None,
                      ignore: Sequence[str] = (), heading: bool = True) -> None:
    """Assert that axe-core finds no serious or critical violation on the page now
    (``where`` names the page and state in the message), and, with ``heading``, that
    the page has an ``<h1>`` (the first thing a screen reader user jumps to)."""
    found = severe(page, context, ignore)
    assert not found, describe(found, where)
    if heading:
        count = page.evaluate("() => document.querySelectorAll('h1').length")
        assert count >= 1, f"{where}: the page has no <h1> (url {page.url})"


__all__ = ["EXPERIMENTAL", "SEVERE", "assert_accessible", "axe_script", "describe", "run_axe",
           "severe"]
