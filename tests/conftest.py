"""The suite's order: the modules with the longest tests first.

``./test`` runs the suite on several workers (pytest-xdist), each taking a whole
module at a time (``--dist loadscope``) in the order collected.  Collected
alphabetically, the browser tests (the longest, 20-90 s each on a loaded machine)
came last, and the run ended with one worker playing hands in Chromium while the
others were idle.  Started first, they run beside the many short tests instead.
Only the order changes: every test runs, against each build.  The list is of
``--durations=0`` figures (issue 25); a module not in it keeps its place after them.
"""

from __future__ import annotations

from typing import List

import pytest

LONGEST_FIRST = (
    "test_web_deal_browser.py", "test_review_browser.py", "test_build.py",
    "test_web_browser.py", "test_web_between_browser.py", "test_tournament_browser.py",
    "test_web_table_browser.py", "test_access_browser.py", "test_web_lobby_browser.py",
    "test_web_words_browser.py", "test_web_player_browser.py", "test_web_covered_browser.py",
    "test_web_fair_browser.py", "test_security_browser.py", "test_typing.py",
    "test_tournament_online.py", "test_security_auth.py", "test_server_cli.py",
    "test_properties.py", "test_tui_review.py", "test_tui_table.py", "test_tui_slips.py",
    "test_server_protocol.py", "test_server_deals.py", "test_server_leak.py",
)
"""Test modules to start first, longest tests first (measured with ``--durations=0``)."""


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: List[pytest.Item]) -> None:
    """Move the modules of :data:`LONGEST_FIRST` to the front, in its order (a stable
    sort: within a module, and among the other modules, the order is pytest's)."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    last = len(LONGEST_FIRST)
    items.sort(key=lambda item: rank.get(item.path.name, last))
