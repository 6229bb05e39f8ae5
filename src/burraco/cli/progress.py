"""A progress bar on a terminal (rich where installed), silent otherwise."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import Callable, Iterator


@contextmanager
def progress(total: int, label: str, enabled: bool = True) -> Iterator[Callable[..., None]]:
    """Yield ``advance(n=1)``; shows a bar on standard error when it is a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield lambda n=1: None
        return
    try:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeRemainingColumn)
        from rich.console import Console
    except ImportError:  # plain fallback
        done = [0]

        def advance(n: int = 1) -> None:
            done[0] += n
            width = 30
            fill = int(width * done[0] / max(total, 1))
            sys.stderr.write(f"\r{label} [{'#' * fill}{'.' * (width - fill)}] {done[0]}/{total}")
            sys.stderr.flush()
        yield advance
        sys.stderr.write("\n")
        return
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as p:
        task = p.add_task(label, total=total)
        yield lambda n=1: p.advance(task, n)
